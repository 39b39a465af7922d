"""Decimal contexts and rounding: the precision rules every evaluation shares."""

from __future__ import annotations

import decimal
from decimal import Decimal
from fractions import Fraction

__all__ = ["decimal_context", "near_tie", "round_half_away"]


def decimal_context(precision: int) -> decimal.Context:
    """A context with ``precision`` significant digits and no exponent limits in practice."""
    return decimal.Context(
        prec=precision,
        rounding=decimal.ROUND_HALF_EVEN,
        Emin=-999_999_999,
        Emax=999_999_999,
        traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
    )


def round_half_away(value: Fraction | Decimal, digits: int) -> str:
    """Round to ``digits`` places after the point, half away from zero.

    >>> round_half_away(Fraction(1, 8), 2), round_half_away(Fraction(-1, 8), 2)
    ('0.13', '-0.13')
    """
    if isinstance(value, Decimal):
        return _round_decimal(value, digits)
    den = value.denominator
    whole, rest = divmod(abs(value.numerator) * 10**digits, den)
    if 2 * rest >= den:
        whole += 1
    text = str(whole).rjust(digits + 1, "0")
    body = f"{text[:-digits]}.{text[-digits:]}" if digits else text
    negative = value < 0 and whole != 0
    return f"-{body}" if negative else body


def _round_decimal(value: Decimal, digits: int) -> str:
    """The same rounding on a Decimal, without turning it into a Fraction (whose
    denominator would be 10^434294482 for e^-10^9).

    >>> _round_decimal(Decimal("-0.00004"), 4), _round_decimal(Decimal("2.5"), 0)
    ('0.0000', '3')
    >>> _round_decimal(Decimal("1.2E-434294482"), 4)
    '0.0000'
    """
    if not value.is_finite():
        raise ValueError("only finite values are rounded")
    context = decimal.Context(
        prec=max(value.adjusted(), 0) + digits + 2,
        rounding=decimal.ROUND_HALF_UP,
        Emin=decimal.MIN_EMIN,
        Emax=decimal.MAX_EMAX,
    )
    rounded = value.copy_abs().quantize(Decimal(1).scaleb(-digits), context=context)
    body = format(rounded, "f")
    return f"-{body}" if value < 0 and rounded != 0 else body


_HALF = Decimal("0.5")
_WIDE = decimal.Context(prec=120, Emin=decimal.MIN_EMIN, Emax=decimal.MAX_EMAX)


def near_tie(value: Decimal, places: int, correct: int = 45) -> bool:
    """Could rounding ``value`` to ``places`` decimals go either way, when only its
    first ``correct`` significant digits are known to be right?  (Also True when
    ``value`` has too few correct digits to reach the ``places``-th decimal.)

    >>> near_tie(Decimal("0.123450000000000000000000000000000000000000000000000001"), 4)
    True
    >>> near_tie(Decimal("0.1234"), 4), near_tie(Decimal("1E+50"), 4)
    (False, True)
    """
    if not value:
        return False
    adjusted = value.adjusted()
    if adjusted + places + 2 > correct:
        return True
    scaled = value.copy_abs().scaleb(places, context=_WIDE)
    fraction = _WIDE.subtract(scaled, scaled.to_integral_value(rounding=decimal.ROUND_FLOOR))
    distance = abs(_WIDE.subtract(fraction, _HALF))
    return distance <= Decimal(1).scaleb(adjusted + places - correct + 1, context=_WIDE)
