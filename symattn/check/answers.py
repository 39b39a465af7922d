"""Reading a student's answers: which steps, which entries, written how precisely.

An answers file holds any subset of the steps (Q, K, V, scores, scaled_scores,
masked_scores, weights, output, …) as matrices of numbers, decimal strings or
fractions; ``null`` or ``""`` means "not answered".
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..derivation import Derivation
from ..errors import SymattnError, where
from ..load import ValueSyntaxError, parse_value, read_file

__all__ = ["Answers", "Given", "answer_steps", "load_answers"]

NEG_INF = Decimal("-Infinity")


def answer_steps(key: Derivation) -> list[str]:
    """The steps of this problem a student may answer, in order (h1.Q … with heads)."""
    return [s for s in key.step_ids if s != "tokens"]


@dataclass(frozen=True)
class Given:
    """One answered entry: its value, as written, and how precisely it was written."""

    text: str
    value: Decimal  # -Infinity for a masked score
    places: int | None  # decimal places written; None for an exact answer


@dataclass(frozen=True)
class Answers:
    """A student's answers: step id → rows of entries (None = not answered)."""

    source: str
    steps: dict[str, list[list[Given | None]]]
    tolerance: Decimal | None = None


_DECIMAL = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)")
_MINUS_INFINITY = {"-inf", "-infinity", "-∞", "-oo", "−∞"}


def _given(raw: object, at: str) -> Given | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        raise SymattnError(f"{at}: expected a number, found {str(raw).lower()}")
    if isinstance(raw, int):
        return Given(str(raw), Decimal(raw), None)
    if isinstance(raw, float):
        raw = Decimal(repr(raw))
    if isinstance(raw, Decimal):
        if raw.is_infinite() and raw < 0:
            return Given("-inf", NEG_INF, None)
        if not raw.is_finite():
            raise SymattnError(f"{at}: {raw} is not a number")
        exponent = raw.as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else None
        text = str(raw)
        if "." in text or "E" in text or "e" in text:
            places = max(places or 0, 0) if "." in text else places
        return Given(text, raw, places)
    if isinstance(raw, str):
        text = raw.strip()
        if text.lower() in _MINUS_INFINITY:
            return Given(text, NEG_INF, None)
        if _DECIMAL.fullmatch(text):
            places = len(text.split(".")[1])
            return Given(text, Decimal(text), places)
        try:
            mono = parse_value(text)
        except ValueSyntaxError as exc:
            raise SymattnError(f"{at}: {text!r} is not a number ({exc})") from None
        if not mono.is_number:
            raise SymattnError(f"{at}: {text!r} is not a number")
        return Given(text, mono.coef.to_decimal(60), None)
    raise SymattnError(f"{at}: expected a number, found {type(raw).__name__}")


def load_answers(
    answers: str | os.PathLike[str] | Mapping[str, Any],
    key: Derivation,
    source: str | None = None,
) -> Answers:
    """Read and validate an answers file (TOML or JSON) or dict against the key."""
    if isinstance(answers, Mapping):
        data: Mapping[str, Any] = answers
        name = source or "<answers>"
    else:
        name = source or str(answers)
        data = read_file(answers)
    allowed = answer_steps(key)
    tolerance = None
    steps: dict[str, list[list[Given | None]]] = {}
    for step_id, raw in data.items():
        if step_id == "tolerance":
            try:
                tolerance = Decimal(str(raw)) if not isinstance(raw, bool) else None
            except ArithmeticError:
                tolerance = None
            if tolerance is None or not tolerance.is_finite() or tolerance < 0:
                raise SymattnError(f"{name}: tolerance: expected a non-negative number")
            continue
        if step_id not in allowed:
            raise SymattnError(
                f"{name}: unknown step {step_id!r}; this problem's steps are {', '.join(allowed)}"
            )
        rows, cols = key.step(step_id).shape
        if not isinstance(raw, list) or len(raw) != rows:
            found = len(raw) if isinstance(raw, list) else type(raw).__name__
            raise SymattnError(
                f"{name}: {step_id}: expected {rows} rows ({rows} × {cols}), found {found}"
            )
        matrix = []
        for i, row in enumerate(raw):
            if not isinstance(row, list) or len(row) != cols:
                found = len(row) if isinstance(row, list) else type(row).__name__
                raise SymattnError(
                    f"{where(name, step_id, i)}: expected {cols} entries, found {found}"
                )
            matrix.append([_given(v, where(name, step_id, i, j)) for j, v in enumerate(row)])
        steps[step_id] = matrix
    return Answers(name, steps, tolerance)


# -- comparing --------------------------------------------------------------------------
