"""What makes an exercise worth doing: the non-degeneracy rules, checked on every draw.

An exercise is refused (and drawn again) when

* X, the embedding table or a W has a row or a column of zeros (a zero row of X is a
  token that carries nothing; a zero column of a W a coordinate that is never used);
* two rows of the embedding table are equal (two words would mean the same);
* Q, K or V has a column of zeros, or Q or K a row of zeros (all its scores 0);
* two columns of V, or of the output, are equal, or a row or a column of V or of the
  output is all zeros (in the column layout: a token's column);
* a row of weights has all its (unmasked) entries equal — the softmax then teaches
  nothing — or its largest weight rounds to 1 at the places asked for;
* (unless ties are allowed) two keys get the same score from one query.

Each rule says why in English, for tests and for the message when no draw passes.

>>> given_flaw({"X": [[1, 0], [0, 0]], "W_Q": [[1]], "W_K": [[1]], "W_V": [[1]]})
'X has a row of zeros'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from ..derivation import Derivation
from ..numbers import NegInf, round_half_away
from ..topics.base import per_head

__all__ = ["derived_flaw", "given_flaw", "head_prefixes"]


def _zero_line(matrix: Sequence[Sequence[Any]]) -> str | None:
    if any(all(not v for v in row) for row in matrix):
        return "row"
    if matrix and any(all(not row[j] for row in matrix) for j in range(len(matrix[0]))):
        return "column"
    return None


def given_flaw(data: Mapping[str, Any]) -> str | None:
    """A flaw of the given matrices (cheap: before anything is derived), or None."""
    names = ["W_Q", "W_K", "W_V"]
    names.insert(0, "embedding" if "embedding" in data else "X")
    for name in names:
        line = _zero_line(data[name])
        if line is not None:
            return f"{name} has a {line} of zeros"
    if "embedding" in data:
        rows = [tuple(r) for r in data["embedding"]]
        if len(set(rows)) != len(rows):
            return "two rows of the embedding table are equal"
    return None


def head_prefixes(key: Derivation) -> list[str]:
    """The heads' step prefixes ("h1.", …; "" for one head without W_O)."""
    return list(per_head(key.problem))


def _rows(key: Derivation, step_id: str) -> Sequence[Sequence[Any]]:
    """A step's values, a token per row (a derivation is always in the row layout)."""
    return key.step(step_id).values


def _columns(key: Derivation, step_id: str) -> list[tuple[Decimal | None, ...]]:
    values = _rows(key, step_id)
    return [tuple(row[j] for row in values) for j in range(len(values[0]))]


def _weights_flaw(key: Derivation, prefix: str, places: int) -> str | None:
    weights = _rows(key, f"{prefix}weights")
    masked: Sequence[Sequence[Any]] | None = key.matrices.get(f"{prefix}masked_scores")
    one = "1." + "0" * places if places else "1"
    for i, row in enumerate(weights):
        kept = [
            v or Decimal(0)
            for j, v in enumerate(row)
            if masked is None or not isinstance(masked[i][j], NegInf)
        ]
        if len(kept) < 2:
            continue  # a lone unmasked key: its weight is exactly 1, and that is right
        if len(set(kept)) == 1:
            return f"row {i + 1} of {prefix}weights has all its weights equal"
        if round_half_away(max(kept), places) == one:
            return f"the largest weight of row {i + 1} of {prefix}weights rounds to 1"
    return None


def derived_flaw(key: Derivation, places: int) -> str | None:
    """A flaw of the derived steps (and of X as looked up from the text), or None."""
    if key.problem.X is not None and _zero_line(key.problem.X) is not None:
        return f"X has a {_zero_line(key.problem.X)} of zeros"
    for prefix in head_prefixes(key):
        for name in ("Q", "K", "V"):
            columns = _columns(key, prefix + name)
            if any(all(v == 0 for v in c) for c in columns):
                return f"{prefix}{name} has a column of zeros"
            if name != "V" and any(all(v == 0 for v in r) for r in _rows(key, prefix + name)):
                return f"{prefix}{name} has a row of zeros (its scores would all be 0)"
        values = _columns(key, prefix + "V")
        if len(set(values)) != len(values):
            return f"two columns of {prefix}V are equal"
        if any(all(v == 0 for v in r) for r in _rows(key, prefix + "V")):
            return f"{prefix}V has a row of zeros (a token whose value is nothing)"
        flaw = _weights_flaw(key, prefix, places)
        if flaw:
            return flaw
    outputs = [s for s in key.step_ids if s.split(".")[-1] == "output"]
    for step_id in outputs:
        columns = _columns(key, step_id)
        if any(all(v == 0 for v in c) for c in columns):
            return f"{step_id} has a column of zeros"
        if len(set(columns)) != len(columns):
            return f"two columns of {step_id} are equal"
        if any(all(v == 0 for v in r) for r in _rows(key, step_id)):
            return f"{step_id} has a row of zeros"
    return None
