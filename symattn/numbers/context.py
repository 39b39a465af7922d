"""Decimal contexts and rounding: the precision rules every evaluation shares."""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

__all__ = ["decimal_context", "near_tie", "round_half_away", "round_row"]


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


def round_row(values: Sequence[Fraction | None], digits: int) -> list[str | None]:
    """:func:`round_half_away` of each fraction of a row (None stays None), the same
    strings in less time.

    >>> round_row([Fraction(1, 8), Fraction(-3), None, Fraction(0), Fraction(-1, 300)], 2)
    ['0.13', '-3.00', None, '0.00', '0.00']
    >>> round_row([Fraction(5, 2), Fraction(-7)], 0)
    ['3', '-7']
    """
    scale, width, zeros = 10**digits, digits + 1, "0" * digits
    out: list[str | None] = []
    for q in values:
        if q is None:
            out.append(None)
            continue
        num, den = q.numerator, q.denominator
        if den == 1:  # an integer: its digits and the zeros
            body = f"{abs(num)}.{zeros}" if digits else str(abs(num))
            out.append(f"-{body}" if num < 0 else body)
            continue
        whole, rest = divmod(abs(num) * scale, den)
        if 2 * rest >= den:
            whole += 1
        text = str(whole).rjust(width, "0")
        body = f"{text[:-digits]}.{text[-digits:]}" if digits else text
        out.append(f"-{body}" if num < 0 and whole else body)
    return out


#: The contexts and quanta of _round_decimal, by precision and by places (made once).
_ROUNDING: dict[int, decimal.Context] = {}
_QUANTUM: dict[int, Decimal] = {}


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
    prec = max(value.adjusted(), 0) + digits + 2
    context = _ROUNDING.get(prec)
    if context is None:
        context = _ROUNDING[prec] = decimal.Context(
            prec=prec,
            rounding=decimal.ROUND_HALF_UP,
            Emin=decimal.MIN_EMIN,
            Emax=decimal.MAX_EMAX,
        )
    quantum = _QUANTUM.get(digits)
    if quantum is None:
        quantum = _QUANTUM[digits] = Decimal(1).scaleb(-digits)
    rounded = value.copy_abs().quantize(quantum, context=context)
    body = format(rounded, "f")
    return f"-{body}" if value < 0 and rounded != 0 else body


_HALF = Decimal("0.5")
_WIDE = decimal.Context(prec=120, Emin=decimal.MIN_EMIN, Emax=decimal.MAX_EMAX)
_BOUNDS: dict[int, Decimal] = {}


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
    exponent = adjusted + places - correct + 1
    bound = _BOUNDS.get(exponent)
    if bound is None:
        bound = _BOUNDS[exponent] = Decimal(1).scaleb(exponent, context=_WIDE)
    return distance <= bound
