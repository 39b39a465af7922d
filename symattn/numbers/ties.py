"""Rounding a value that is written with sin, cos, tanh or roots and may be an exact tie.

Ball arithmetic decides every digit of a value that is not exactly half-way between two
decimals; one that is (a rotated query's same-position score ``q̂_2·k̂_2 = q_2·k_2 = -3297/40``,
written with ``sin(1)`` and ``cos(1)``) never leaves the tie, however many bits are
used.  Such a value is recognised by simplifying its exact form to a rational, proved
by SymPy's rewriting (not guessed from digits), and that rational is rounded half away
from zero (docs/json-output.md).  A value that is neither decided nor recognised is a clear error.

>>> import sympy
>>> one = sympy.Integer(1)
>>> round_exact(sympy.Rational(-3297, 40) * (sympy.sin(one) ** 2 + sympy.cos(one) ** 2), 2)
'-82.43'
>>> round_exact(sympy.sin(one), 3)
'0.841'
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..budget import TimeLimitExceeded, time_budget
from ..errors import SymattnError
from .balls import MAX_BITS, DigitsUnavailable
from .context import near_tie, round_half_away
from .sympy_eval import SympyEvaluator

__all__ = ["exact_rational", "round_exact", "round_tie"]

#: Significant digits of the first evaluation beyond those the places need.
_SPARE_DIGITS = 30
#: Most significant digits a value is evaluated to before it is called undecidable
#: (about :data:`~symattn.numbers.balls.MAX_BITS` bits, as for the other values).
_MAX_DIGITS = int(MAX_BITS / 3.33)
#: Seconds each rewriting may take to show that a value near a tie is a rational: SymPy's
#: radsimp of a large LayerNorm form (γ·(x − μ)/√σ² with d = 2 is ±γ, a tie when β is a
#: half) can run for minutes.  Past it, the next rewriting is tried.
MAX_REWRITE_SECONDS = 2.0
_REWRITING = "showing that a value is an exact rational"
_TOO_CLOSE = (
    "the value is too close to a rounding tie to decide its digits, and its exact form "
    "does not simplify to a rational"
)


def exact_rational(expr: Any) -> Fraction | None:
    """The rational that the SymPy number ``expr`` equals, shown by rewriting it
    (expanding, the Pythagorean identities, denesting roots, the minimal polynomial of an
    algebraic number), or None when no rewriting shows it."""
    import sympy

    if getattr(expr, "is_Rational", False):
        return Fraction(int(expr.p), int(expr.q))
    if getattr(expr, "free_symbols", None):
        return None
    rewritings = (
        sympy.expand,
        lambda e: sympy.trigsimp(sympy.expand(e)),
        lambda e: sympy.radsimp(sympy.sqrtdenest(sympy.expand(e))),
        _by_minimal_polynomial,
        sympy.simplify,
    )
    for rewrite in rewritings:
        try:
            with time_budget(MAX_REWRITE_SECONDS, _REWRITING):
                found = rewrite(expr)
        except TimeLimitExceeded:  # this rewriting's own budget (the command's ends it all)
            continue
        except SymattnError:
            raise
        except (ValueError, TypeError, NotImplementedError, ArithmeticError):
            continue
        if found is not None and getattr(found, "is_Rational", False):
            return Fraction(int(found.p), int(found.q))
    return None


def _by_minimal_polynomial(expr: Any) -> Any:
    """The root of a linear minimal polynomial: the number is that rational."""
    import sympy

    if not expr.is_algebraic:
        return None
    x = sympy.Dummy("x")
    poly = sympy.Poly(sympy.minimal_polynomial(expr, x), x)
    if poly.degree() != 1:
        return None
    a, b = poly.all_coeffs()
    return -sympy.Rational(b) / sympy.Rational(a)


def round_tie(expr: Any, places: int) -> str | None:
    """``expr`` rounded half away from zero when it is exactly a rational (a tie among
    them), else None."""
    exact = exact_rational(expr)
    return None if exact is None else round_half_away(exact, places)


def round_exact(expr: Any, places: int, value: Decimal | None = None) -> str:
    """The SymPy number ``expr`` rounded half away from zero to ``places`` decimals,
    every digit certain.

    ``value`` is a first evaluation with 45 correct digits, when there is one: far from
    a tie it is enough.  Near one, ``expr`` is evaluated with more and more digits
    until the rounding is decided, or recognised as an exact rational first; raises
    :class:`~symattn.numbers.balls.DigitsUnavailable` when neither happens."""
    if value is not None and value.is_finite() and not near_tie(value, places):
        return round_half_away(value, places)
    digits = places + _SPARE_DIGITS
    if value is not None and value.is_finite() and value:
        digits += max(value.adjusted(), 0)
    recognised = False
    while digits <= _MAX_DIGITS:
        try:
            found = SympyEvaluator(digits)(expr)
        except DigitsUnavailable:
            break
        if not near_tie(found, places, correct=digits - 1):
            return round_half_away(found, places)
        if not recognised:  # near a tie: an exact tie never leaves it, so look for one
            recognised = True
            tie = round_tie(expr, places)
            if tie is not None:
                return tie
        digits *= 4
    raise DigitsUnavailable(f"{_TOO_CLOSE} with {MAX_BITS} bits of precision")
