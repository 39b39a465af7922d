"""Exact numbers without SymPy: surds, closed-form softmax quotients, −∞, and their
evaluation.  Nothing here prints: :mod:`symattn.printing` does."""

from .closed import NEG_INF, Combination, ExpRatio, NegInf, SoftmaxRow
from .context import decimal_context, round_half_away
from .evaluate import RowCache, evaluate, evaluate_or_none, rational_value
from .surd import MAX_RADICAND, Surd, square_free
from .sympy_bridge import to_sympy

__all__ = [
    "MAX_RADICAND",
    "NEG_INF",
    "Combination",
    "ExpRatio",
    "NegInf",
    "RowCache",
    "SoftmaxRow",
    "Surd",
    "decimal_context",
    "evaluate",
    "evaluate_or_none",
    "rational_value",
    "round_half_away",
    "square_free",
    "to_sympy",
]
