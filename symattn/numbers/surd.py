"""Surds: exact reals ``Σ c_r √r`` with rational ``c_r`` and square-free ``r``.

Integers, fractions, ``sqrt(N)`` and their sums and products stay in this form, so
``Q = X W_Q`` and ``Q Kᵀ / √d_k`` are exact and fast.  Printing lives in
:mod:`symattn.printing`; this module only does arithmetic.

>>> half = Surd.rational(Fraction(1, 2))
>>> (Surd.sqrt(8) * half).terms
((2, Fraction(1, 1)),)
"""

from __future__ import annotations

import decimal
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from math import gcd

from flint import fmpz

from .context import decimal_context

__all__ = ["MAX_RADICAND", "Surd", "radical_product", "square_free"]

#: Largest radicand accepted by :meth:`Surd.sqrt` (factoring stays instant).
MAX_RADICAND = 10**12


def square_free(n: int) -> tuple[int, int]:
    """Split ``n >= 0`` as ``k² · r`` with ``r`` square-free; return ``(k, r)``.

    Numbers up to :data:`MAX_RADICAND` are factored by FLINT (instant); larger ones are
    refused, since factoring them may take any time.  Products of surds never need
    this: see :func:`radical_product`.

    >>> square_free(72)
    (6, 2)
    """
    if n < 0:
        raise ValueError("square_free needs n >= 0")
    if n == 0:
        return 0, 1
    if n > MAX_RADICAND:
        raise ValueError(f"sqrt argument too large (limit {MAX_RADICAND})")
    k, r = 1, 1
    for prime, power in fmpz(n).factor():
        p = int(prime)
        k *= p ** (int(power) // 2)
        if int(power) % 2:
            r *= p
    return k, r


def radical_product(a: int, b: int) -> tuple[int, int]:
    """``√a · √b = k √r`` for square-free ``a`` and ``b``, without factoring: with
    ``g = gcd(a, b)``, ``a b = g² · (a/g)(b/g)`` and ``(a/g)(b/g)`` is square-free.

    >>> radical_product(6, 10), radical_product(999999999989, 999999999989)
    ((2, 15), (999999999989, 1))
    """
    g = gcd(a, b)
    return g, (a // g) * (b // g)


class Surd:
    """An exact real ``Σ c_r √r``: a sum of rational multiples of square roots."""

    __slots__ = ("terms",)

    terms: tuple[tuple[int, Fraction], ...]

    def __init__(self, terms: Iterable[tuple[int, Fraction]] = ()) -> None:
        merged: dict[int, Fraction] = {}
        for radicand, coef in terms:
            merged[radicand] = merged.get(radicand, Fraction(0)) + coef
        self.terms = tuple(sorted((r, c) for r, c in merged.items() if c != 0))

    # -- construction -------------------------------------------------------
    @classmethod
    def rational(cls, value: Fraction | int) -> Surd:
        new = cls.__new__(cls)
        q = value if type(value) is Fraction else Fraction(value)
        new.terms = ((1, q),) if q else ()
        return new

    @classmethod
    def monomial(cls, radicand: int, coef: Fraction) -> Surd:
        """``coef · √radicand`` for a square-free ``radicand`` (not checked)."""
        new = cls.__new__(cls)
        new.terms = ((radicand, coef),) if coef else ()
        return new

    @classmethod
    def sqrt(cls, value: Fraction | int) -> Surd:
        """``√value`` for a rational ``value >= 0``, reduced: √8 = 2√2, √(1/2) = √2/2."""
        q = Fraction(value)
        if q < 0:
            raise ValueError("square root of a negative number")
        inner = q.numerator * q.denominator  # √(p/q) = √(p q) / q
        if inner > MAX_RADICAND:
            raise ValueError(f"sqrt argument too large (limit {MAX_RADICAND})")
        k, r = square_free(inner)
        return cls([(r, Fraction(k, q.denominator))])

    # -- queries ------------------------------------------------------------
    @property
    def is_rational(self) -> bool:
        terms = self.terms  # sorted: a rational has at most the one term of radicand 1
        return not terms or (len(terms) == 1 and terms[0][0] == 1)

    @property
    def is_monomial(self) -> bool:
        return len(self.terms) <= 1

    def as_fraction(self) -> Fraction:
        if not self.is_rational:
            raise ValueError("not a rational number")
        return self.terms[0][1] if self.terms else Fraction(0)

    def is_zero(self) -> bool:
        return not self.terms

    def __bool__(self) -> bool:
        return bool(self.terms)

    def sign(self) -> int:
        """-1, 0 or 1, decided exactly (more digits until the sign is certain)."""
        if not self.terms:
            return 0
        if self.is_monomial:
            return 1 if self.terms[0][1] > 0 else -1
        # Distinct square roots of square-free numbers are linearly independent over Q,
        # so a non-empty sum is never 0: enough digits always decide its sign.
        precision = 60
        magnitude = max(abs(c) for _, c in self.terms)
        while True:
            value = self.to_decimal(precision)
            floor = Decimal(magnitude.numerator) / magnitude.denominator
            if abs(value) > floor * Decimal(10) ** (8 - precision):
                return 1 if value > 0 else -1
            precision *= 2

    # -- arithmetic ---------------------------------------------------------
    def __add__(self, other: Surd) -> Surd:
        return Surd(self.terms + other.terms)

    def __sub__(self, other: Surd) -> Surd:
        return Surd(self.terms + tuple((r, -c) for r, c in other.terms))

    def __neg__(self) -> Surd:
        new = Surd.__new__(Surd)
        new.terms = tuple((r, -c) for r, c in self.terms)
        return new

    def __mul__(self, other: Surd) -> Surd:
        out: list[tuple[int, Fraction]] = []
        for r1, c1 in self.terms:
            for r2, c2 in other.terms:
                if r1 == 1 or r2 == 1:
                    out.append((r1 * r2, c1 * c2))
                else:
                    k, r = radical_product(r1, r2)
                    out.append((r, c1 * c2 * k))
        return Surd(out)

    def __truediv__(self, other: Surd) -> Surd:
        """Division by a monomial ``c √r`` (the only divisors attention needs)."""
        if not other.terms:
            raise ZeroDivisionError("division by zero")
        if len(other.terms) != 1:
            raise ValueError("can only divide by a single term c·√r")
        r, c = other.terms[0]
        return self * Surd([(r, 1 / (c * r))])  # x / (c √r) = x · √r / (c r)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Surd) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(self.terms)

    def __repr__(self) -> str:
        return f"Surd({list(self.terms)!r})"

    # -- evaluation ---------------------------------------------------------
    def to_decimal(self, precision: int) -> Decimal:
        """The value to ``precision`` significant digits."""
        with decimal.localcontext(decimal_context(precision)):
            return +self.in_context()

    def in_context(self) -> Decimal:
        """The value in the current decimal context (for loops that set it once)."""
        if len(self.terms) == 1 and self.terms[0][0] == 1:
            q = self.terms[0][1]
            return Decimal(q.numerator) / Decimal(q.denominator)
        total = Decimal(0)
        for r, c in self.terms:
            term = Decimal(c.numerator) / Decimal(c.denominator)
            total += term * Decimal(r).sqrt() if r != 1 else term
        return total

    def __float__(self) -> float:
        if self.is_rational:
            return float(self.as_fraction())
        return float(self.to_decimal(40))
