"""Exact numbers without SymPy: surds, softmax quotients, and their decimals.

A numeric problem (no symbols) only ever needs

* :class:`Surd` — a real number ``Σ c_r √r`` with rational ``c_r`` and square-free
  ``r``.  Integers, fractions, ``sqrt(N)`` and their sums and products stay in this
  form, so ``Q = X W_Q`` and ``Q Kᵀ / √d_k`` are exact and fast.
* :class:`ExpRatio` — ``(Σ_j c_j e^{x_j}) / (Σ_j e^{x_j})``: a softmax weight
  (``c`` a unit vector) or an output entry (``c`` a column of V).  It is never
  simplified: the closed form is the point.
* :data:`NEG_INF` — a masked score.

Every value prints in SymPy's ``str`` syntax, so ``sympy.sympify`` reads it back
to the same number, and evaluates to a :class:`decimal.Decimal` at any precision.

>>> half = Surd.rational(Fraction(1, 2))
>>> str(Surd.sqrt(8) * half)
'sqrt(2)'
>>> str(ExpRatio((Surd.rational(1), Surd.rational(0)), (half, Surd.rational(2))))
'exp(1/2)/(exp(1/2) + exp(2))'
"""

from __future__ import annotations

import decimal
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = [
    "NEG_INF",
    "Combination",
    "ExpRatio",
    "NegInf",
    "Surd",
    "decimal_context",
    "exp_str",
    "rational_value",
    "round_half_away",
    "square_free",
]

#: Largest radicand accepted by :meth:`Surd.sqrt` (trial division stays instant).
MAX_RADICAND = 10**12


def square_free(n: int) -> tuple[int, int]:
    """Split ``n >= 0`` as ``k² · r`` with ``r`` square-free; return ``(k, r)``.

    >>> square_free(72)
    (6, 2)
    """
    if n < 0:
        raise ValueError("square_free needs n >= 0")
    if n == 0:
        return 0, 1
    k, r, p = 1, 1, 2
    while p * p <= n:
        while n % (p * p) == 0:
            n //= p * p
            k *= p
        if n % p == 0:
            n //= p
            r *= p
        p += 1 if p == 2 else 2
    return k, r * n


def _fraction_str(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


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
        q = Fraction(value)
        new.terms = ((1, q),) if q else ()
        return new

    @classmethod
    def sqrt(cls, value: Fraction | int) -> Surd:
        """``√value`` for a rational ``value >= 0``, reduced: √8 = 2√2, √(1/2) = √2/2."""
        q = Fraction(value)
        if q < 0:
            raise ValueError("square root of a negative number")
        # √(p/q) = √(p q) / q
        inner = q.numerator * q.denominator
        if inner > MAX_RADICAND:
            raise ValueError(f"sqrt argument too large (limit {MAX_RADICAND})")
        k, r = square_free(inner)
        return cls([(r, Fraction(k, q.denominator))])

    # -- queries ------------------------------------------------------------
    @property
    def is_rational(self) -> bool:
        return all(r == 1 for r, _ in self.terms)

    @property
    def is_monomial(self) -> bool:
        return len(self.terms) <= 1

    def as_fraction(self) -> Fraction:
        if not self.is_rational:
            raise ValueError(f"{self} is not rational")
        return self.terms[0][1] if self.terms else Fraction(0)

    def is_zero(self) -> bool:
        return not self.terms

    def __bool__(self) -> bool:
        return bool(self.terms)

    def sign(self) -> int:
        """-1, 0 or 1, decided exactly (by comparing squares where needed)."""
        if not self.terms:
            return 0
        if self.is_monomial:
            return 1 if self.terms[0][1] > 0 else -1
        # Distinct square roots of square-free numbers are linearly independent over Q,
        # so a non-empty sum is never 0: enough digits always decide its sign.
        precision = 60
        while True:
            value = self.to_decimal(precision)
            magnitude = max(abs(c) for _, c in self.terms)
            if abs(value) > Decimal(magnitude.numerator) / magnitude.denominator * Decimal(10) ** (
                8 - precision
            ):
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
                    k, r = square_free(r1 * r2)
                    out.append((r, c1 * c2 * k))
        return Surd(out)

    def __truediv__(self, other: Surd) -> Surd:
        """Division by a monomial ``c √r`` (the only divisors attention needs)."""
        if not other.terms:
            raise ZeroDivisionError("division by zero")
        if len(other.terms) != 1:
            raise ValueError("can only divide by a single term c·√r")
        r, c = other.terms[0]
        # x / (c √r) = x · √r / (c r)
        return self * Surd([(r, 1 / (c * r))])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Surd) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(self.terms)

    # -- conversion ---------------------------------------------------------
    def to_decimal(self, precision: int) -> Decimal:
        with decimal.localcontext(decimal_context(precision)):
            total = Decimal(0)
            for r, c in self.terms:
                term = Decimal(c.numerator) / Decimal(c.denominator)
                if r != 1:
                    term *= Decimal(r).sqrt()
                total += term
            return +total

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

    def to_sympy(self) -> Any:
        import sympy

        return sympy.Add(
            *(sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(r) for r, c in self.terms)
        )

    def __str__(self) -> str:
        """SymPy's ``str`` form: ``3``, ``-1/2``, ``sqrt(2)/2``, ``1 + sqrt(3)``."""
        if not self.terms:
            return "0"
        if len(self.terms) == 1:
            return _monomial_str(*self.terms[0])
        # Sums of several radicals are rare (only inputs with sqrt give them); SymPy
        # orders their terms by rules of its own, so let it print them.
        return str(self.to_sympy())

    def __repr__(self) -> str:
        return f"Surd({str(self)!r})"

    def pretty(self) -> str:
        """Unicode form for the terminal: ``3√2/2``, ``-1/2``, ``1 + √3``."""
        return (
            str(self)
            .replace("*sqrt(", "√(")
            .replace("sqrt(", "√(")
            .replace("√(", "√")
            .replace(")", "")
        )


def _monomial_str(radicand: int, coef: Fraction) -> str:
    if radicand == 1:
        return _fraction_str(coef)
    sign = "-" if coef < 0 else ""
    num, den = abs(coef.numerator), coef.denominator
    body = f"sqrt({radicand})" if num == 1 else f"{num}*sqrt({radicand})"
    return f"{sign}{body}" if den == 1 else f"{sign}{body}/{den}"


class NegInf:
    """A masked score, −∞; prints as SymPy's ``-oo``."""

    __slots__ = ()

    def __str__(self) -> str:
        return "-oo"

    def __repr__(self) -> str:
        return "NEG_INF"

    def __float__(self) -> float:
        return float("-inf")


NEG_INF = NegInf()


def exp_str(x: object) -> str:
    text = str(x)
    if text == "0":
        return "1"
    if text == "1":
        return "E"
    return f"exp({text})"


def _wrap(text: str) -> str:
    """Parenthesise a sum (a + or - outside brackets) so that it can be a factor."""
    if " " not in text:
        return text
    depth = 0
    for k, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch in "+-" and k > 0 and text[k - 1] == " ":
            return f"({text})"
    return text


_UNKNOWN = object()


class ExpRatio:
    """``(Σ_j c_j exp(x_j)) / (Σ_j exp(x_j))`` kept in closed form.

    ``coefs`` and ``exponents`` run over the unmasked keys of one query row, in
    key order.  Exponents and coefficients are :class:`Surd` for numeric
    problems and SymPy expressions for symbolic ones.
    """

    __slots__ = ("_closed", "_distinct", "_exp_strs", "coefs", "exponents")

    def __init__(
        self,
        coefs: Sequence[Any],
        exponents: Sequence[Any],
        exp_strs: tuple[str, ...] | None = None,
        distinct: bool | None = None,
    ) -> None:
        """``exp_strs`` (the printed exponentials) and ``distinct`` (are the exponents
        pairwise different?) may be passed in when a whole row shares them; pass the
        row's ``exponents`` as one tuple too, so that evaluation can share the row's
        exponentials."""
        if len(coefs) != len(exponents) or not exponents:
            raise ValueError("ExpRatio needs one coefficient per exponent, at least one")
        self.coefs = tuple(coefs)
        self.exponents = tuple(exponents)
        self._exp_strs = exp_strs
        self._distinct = distinct
        self._closed: Any = _UNKNOWN

    def denominator_str(self) -> str:
        return " + ".join(self.exp_strs())

    def exp_strs(self) -> tuple[str, ...]:
        if self._exp_strs is None:
            self._exp_strs = tuple(exp_str(x) for x in self.exponents)
        return self._exp_strs

    def numerator_parts(self) -> list[str]:
        parts: list[str] = []
        for c, e_text in zip(self.coefs, self.exp_strs()):
            c_text = str(c)
            if c_text == "0":
                continue
            if c_text == "1":
                parts.append(e_text)
            elif e_text == "1":
                parts.append(_wrap(c_text))
            elif c_text == "-1":
                parts.append(f"-{e_text}")
            else:
                parts.append(f"{_wrap(c_text)}*{e_text}")
        return parts

    def __str__(self) -> str:
        if len(self.exponents) == 1:  # c·e^x / e^x
            return str(self.coefs[0])
        parts = self.numerator_parts()
        if not parts:
            return "0"
        numerator = parts[0]
        for part in parts[1:]:
            numerator += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
        if len(parts) > 1:
            numerator = f"({numerator})"
        return f"{numerator}/({self.denominator_str()})"

    def __repr__(self) -> str:
        return f"ExpRatio({str(self)!r})"

    def closed_value(self) -> Surd | None:
        """The value when it is algebraic, else None.

        Grouping equal exponents, the value is Σ_g C_g e^{x_g} / Σ_g n_g e^{x_g}.  The
        e^{x_g} of distinct algebraic x_g are linearly independent over the algebraic
        numbers (Lindemann–Weierstrass), so the quotient is algebraic exactly when every
        C_g / n_g is the same r, and then it is r: (2e^a + 2e^b)/(e^a + e^b) = 2.
        """
        if self._closed is not _UNKNOWN:
            return self._closed  # type: ignore[no-any-return]
        self._closed = self._find_closed_value()
        return self._closed  # type: ignore[no-any-return]

    def _find_closed_value(self) -> Surd | None:
        first = self.coefs[0]
        if not isinstance(first, Surd) or not isinstance(self.exponents[0], Surd):
            return None
        if all(c == first for c in self.coefs):
            return first
        if self._distinct is None:
            self._distinct = len(set(self.exponents)) == len(self.exponents)
        if self._distinct:  # every group has one term, and the coefficients differ
            return None
        groups: dict[Surd, tuple[Surd, int]] = {}
        for c, x in zip(self.coefs, self.exponents):
            total, count = groups.get(x, (Surd(), 0))
            groups[x] = (total + c, count + 1)
        ratios = {total * Surd.rational(Fraction(1, count)) for total, count in groups.values()}
        return ratios.pop() if len(ratios) == 1 else None

    def to_decimal(self, precision: int) -> Decimal:
        """Evaluate stably: subtract the largest exponent before ``exp``."""
        with decimal.localcontext(decimal_context(precision + 10)):
            xs = [x.to_decimal(precision + 10) for x in self.exponents]
            top = max(xs)
            exps = [(x - top).exp() for x in xs]
            num = sum(
                (c.to_decimal(precision + 10) * e for c, e in zip(self.coefs, exps)),
                Decimal(0),
            )
            den = sum(exps, Decimal(0))
            result = num / den
        with decimal.localcontext(decimal_context(precision)):
            return +result

    def __float__(self) -> float:
        return float(self.to_decimal(40))

    def evaluate(self, precision: int, cache: dict[int, tuple[list[Decimal], Decimal]]) -> Decimal:
        """Like :meth:`to_decimal`, reusing the exponentials of a row shared via ``cache``.

        Entries of one row share their ``exponents`` tuple, so the exponentials are
        computed once per row, not once per entry.
        """
        key = id(self.exponents)
        with decimal.localcontext(decimal_context(precision + 10)):
            if key not in cache:
                xs = [x.to_decimal(precision + 10) for x in self.exponents]
                top = max(xs)
                exps = [(x - top).exp() for x in xs]
                cache[key] = (exps, sum(exps, Decimal(0)))
            exps, den = cache[key]
            num = sum((c.in_context() * e for c, e in zip(self.coefs, exps) if c), Decimal(0))
            result = num / den
        with decimal.localcontext(decimal_context(precision)):
            return +result

    def to_sympy(self) -> Any:
        import sympy

        def conv(v: Any) -> Any:
            return v.to_sympy() if isinstance(v, Surd) else sympy.sympify(v)

        exps = [sympy.exp(conv(x)) for x in self.exponents]
        num = sympy.Add(*(conv(c) * e for c, e in zip(self.coefs, exps)))
        return num / sympy.Add(*exps)


class Combination:
    """``Σ c_t · r_t``: exact values times closed forms, e.g. an entry of concat · W_O.

    The heads' outputs have different softmax denominators, so their combination stays a
    sum of closed forms.
    """

    __slots__ = ("terms",)

    def __init__(self, terms: Sequence[tuple[Surd, Any]]) -> None:
        self.terms = tuple((c, r) for c, r in terms if not (isinstance(c, Surd) and c.is_zero()))

    def __str__(self) -> str:
        parts = []
        for c, r in self.terms:
            text = str(r)
            factor = text if " " not in text and "/" not in text else f"({text})"
            coef = str(c)
            parts.append(factor if coef == "1" else f"{_wrap(coef)}*{factor}")
        if not parts:
            return "0"
        out = parts[0]
        for part in parts[1:]:
            out += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
        return out

    def __repr__(self) -> str:
        return f"Combination({str(self)!r})"

    def to_decimal(self, precision: int) -> Decimal:
        with decimal.localcontext(decimal_context(precision + 5)):
            total = sum(
                (c.to_decimal(precision + 5) * r.to_decimal(precision + 5) for c, r in self.terms),
                Decimal(0),
            )
        with decimal.localcontext(decimal_context(precision)):
            return +total

    def evaluate(self, precision: int, cache: dict[int, tuple[list[Decimal], Decimal]]) -> Decimal:
        with decimal.localcontext(decimal_context(precision + 5)):
            total = Decimal(0)
            for c, r in self.terms:
                if isinstance(r, ExpRatio):
                    value = r.evaluate(precision + 5, cache)
                else:
                    value = r.to_decimal(precision + 5)
                total += c.to_decimal(precision + 5) * value
        with decimal.localcontext(decimal_context(precision)):
            return +total

    def __float__(self) -> float:
        return float(self.to_decimal(40))

    def to_sympy(self) -> Any:
        import sympy

        return sympy.Add(*(c.to_sympy() * r.to_sympy() for c, r in self.terms))


def rational_value(value: object) -> Fraction | None:
    """The exact rational value of an entry, when it has one (also ExpRatio 4/4 = 1)."""
    if isinstance(value, ExpRatio):
        value = value.closed_value()
    if isinstance(value, Surd) and value.is_rational:
        return value.as_fraction()
    if getattr(value, "is_Rational", False):  # a SymPy number (the backward pass)
        return Fraction(int(value.p), int(value.q))  # type: ignore[attr-defined]
    return None


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
