"""Exact numbers without SymPy: surds, closed-form softmax quotients, −∞, and their
evaluation.  Nothing here prints: :mod:`symattn.printing` does."""

from .balls import (
    DigitsUnavailable,
    RowBalls,
    evaluate_ball,
    evaluate_matrix,
    in_balls,
    round_certified,
)
from .closed import NEG_INF, Coefficients, Combination, ExpRatio, NegInf, SoftmaxRow
from .context import decimal_context, near_tie, round_half_away, round_row
from .evaluate import GUARD, RowCache, evaluate, evaluate_or_none, rational_value
from .surd import MAX_RADICAND, Surd, radical_product, square_free
from .sympy_bridge import has_symbols, to_sympy
from .sympy_eval import SympyEvaluator
from .ties import exact_rational, round_exact, round_tie
from .transcendental import angle, sinusoid, sinusoid_value, tanh_exact, tanh_value

__all__ = [
    "GUARD",
    "MAX_RADICAND",
    "NEG_INF",
    "Coefficients",
    "Combination",
    "DigitsUnavailable",
    "ExpRatio",
    "NegInf",
    "RowBalls",
    "RowCache",
    "SoftmaxRow",
    "Surd",
    "SympyEvaluator",
    "angle",
    "decimal_context",
    "evaluate",
    "evaluate_ball",
    "evaluate_matrix",
    "evaluate_or_none",
    "exact_rational",
    "has_symbols",
    "in_balls",
    "near_tie",
    "radical_product",
    "rational_value",
    "round_certified",
    "round_exact",
    "round_half_away",
    "round_row",
    "round_tie",
    "sinusoid",
    "sinusoid_value",
    "square_free",
    "tanh_exact",
    "tanh_value",
    "to_sympy",
]
