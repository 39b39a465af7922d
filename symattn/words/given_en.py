"""English words of the Given section: the heads and the masks no topic describes."""

from __future__ import annotations

WORDS: dict[str, str] = {
    "derive.given_heads": "{h} heads: head {math:t} takes the {math:t}-th block of {d_k} "
    "columns of {math:W_Q} and {math:W_K} and of {d_v} columns of {math:W_V}; the heads' "
    "outputs are put side by side.",
    "derive.given_heads_wo": "{h} heads: head {math:t} takes the {math:t}-th block of {d_k} "
    "columns of {math:W_Q} and {math:W_K} and of {d_v} columns of {math:W_V}; the heads' "
    "outputs, side by side, are projected by {math:W_O}.",
    "derive.given_heads.column": "{h} heads: head {math:t} takes the {math:t}-th block of {d_k} "
    "rows of {math:W_Q} and {math:W_K} and of {d_v} rows of {math:W_V}; the heads' outputs are "
    "put one under another.",
    "derive.given_heads_wo.column": "{h} heads: head {math:t} takes the {math:t}-th block of "
    "{d_k} rows of {math:W_Q} and {math:W_K} and of {d_v} rows of {math:W_V}; the heads' "
    "outputs, one under another, are projected by {math:W_O}.",
    "derive.given_mask.causal": "The mask is causal: query {math:i} sees only the keys "
    "{math:j_le_i}.",
    "derive.given_mask.explicit": "A mask is given: query {math:i} does not see the keys its "
    "row of the mask forbids.",
    "derive.given_mask.padding": "The padding tokens are masked: no query sees their keys.",
}
