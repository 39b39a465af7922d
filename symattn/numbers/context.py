"""Decimal contexts and rounding: the precision rules every evaluation shares."""

from __future__ import annotations

import decimal
from decimal import Decimal
from fractions import Fraction

__all__ = ["decimal_context", "round_half_away"]


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
        value = Fraction(value)
    scaled = abs(value) * 10**digits
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    if 2 * rest >= scaled.denominator:
        whole += 1
    text = str(whole).rjust(digits + 1, "0")
    body = f"{text[:-digits]}.{text[-digits:]}" if digits else text
    negative = value < 0 and whole != 0
    return f"-{body}" if negative else body
