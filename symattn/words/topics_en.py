"""English: the words of the grouped K/V heads, a decode step, an encoder block and
the topics combined (docs/topics.md)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- grouped K/V heads, a decode step, an encoder block (docs/topics.md) ---------------
    "title.cache_K": "The key cache",
    "title.cache_V": "The value cache",
    "title.decode": "One decoding step with the K/V cache",
    "title.X_norm": "Pre-norm: LayerNorm of the inputs",
    "title.residual": "Residual connection",
    "title.norm": "LayerNorm",
    "title.ffn_hidden": "Feed-forward network: hidden layer (ReLU)",
    "title.ffn_output": "Feed-forward network: output",
    "title.block_output": "The block's output",
    "derive.kv_groups": "Grouped-query attention: the {heads} query heads share {groups} "
    "key/value heads, {size} query heads to a group ({assignment}); the heads of one group have "
    "the same K and V.",
    "derive.kv_one": "Multi-query attention: the {heads} query heads share one key/value head, "
    "so every head has the same K and V.",
    "derive.kv_group": "heads {heads} use K/V head {group}",
    "derive.block_post": "An encoder block, post-norm: the residual {math:residual} is "
    "normalised, {math:Z_post}; the feed-forward network reads Z, {math:ffn}; and the block's "
    "output is {math:block_out_post}.",
    "derive.block_pre": "An encoder block, pre-norm: attention reads {math:LN_X}, the residual "
    "is {math:residual}, the feed-forward network reads {math:LN_R}, {math:ffn}, and the "
    "block's output is {math:block_out_pre}.",
    "derive.given_layernorm": "LayerNorm works on each row {math:x} on its own: "
    "{math:layer_norm}, with {math:mu} the mean of the row and {math:sigma2} its variance "
    "divided by {math:d_model} (not by {math:d_model_minus_1}); here {math:eps} = {eps}.",
    "derive.cache": "A decoder keeps the keys and values of the tokens it has already seen "
    "(rows 1 … {last}); the new token adds its own and never changes them:",
    "derive.decode": "The new token (row {n}) attends to the {cached} cached keys and to its own "
    "key; there is no later token yet, so nothing has to be masked:",
    "derive.decode_scores": "Its scores, one per cached key and its own:",
    "derive.decode_weights": "Its weights, the softmax of these scores:",
    "derive.decode_output": "Its output, the weighted sum of the cached values and its own:",
    "derive.decode_same": "This is row {n} of the output above, computed with the whole causal "
    "matrix: the same numbers, without recomputing the earlier rows.",
    "derive.decode_differs": "This differs from row {n} of the output above.",
    "derive.residual": "The residual connection adds the input back, entry by entry:",
    "derive.layer_norm": "LayerNorm normalises each row on its own (over its {math:d_model} "
    "entries), "
    "then scales by {math:gamma} and shifts by {math:beta}:",
    "derive.layer_norm_eps": "The variance is the biased one (divided by {math:d_model}, not "
    "{math:d_model_minus_1}) and {math:eps} = {eps} is exact, so {math:sigma2_plus_eps} is a "
    "rational number and its square root a surd when the row is rational.",
    "derive.layer_norm_stats": "The mean and the variance of the row ({math:d_model} = {d}):",
    "derive.relu": "ReLU keeps the positive entries and sets the others to 0: {math:relu_max}.",
    "diagnosis.layernorm_unbiased_variance": "{entries}: the variance was divided by "
    "{math:d_model_minus_1} = {d_minus}; LayerNorm uses the biased variance, "
    "{math:biased_variance}.",
    "diagnosis.gqa_group_wrong": "{entries}: the query heads were matched with the wrong K/V "
    "heads, in turn (head 1 with K/V head 1, head 2 with K/V head 2, …); with grouped-query "
    "attention, consecutive query heads share a K/V head: {assignment}.",
    "diagnosis.decode_uses_future": "{entries}: the queries attended to later tokens, the "
    "future; a decoder sees only the tokens up to its own ({math:j_le_i}), as in one decoding "
    "step with the K/V cache.",
    "mistake.layernorm_unbiased_variance": "LayerNorm with the unbiased variance",
    "mistake.gqa_group_wrong": "query heads matched with the wrong K/V heads",
    "mistake.decode_uses_future": "attention to future tokens",
    # -- the topics combined ---------------------------------------------------------------
    "derive.block_positions": "With positions, the block's X is {math:X_tilde_sum}: the "
    "residual adds back what attention read.",
}
