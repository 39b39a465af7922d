"""Closed forms that are not surds: a softmax quotient, a sum of them, and −∞.

* :class:`ExpRatio` — ``(Σ_j c_j e^{x_j}) / (Σ_j e^{x_j})``: a softmax weight (``c`` a
  unit vector) or an output entry (``c`` a column of V).  It is never simplified: the
  closed form is the point.  The entries of one query row share one
  :class:`SoftmaxRow` (the exponents), so that printing and evaluation can do the
  row's work once.
* :class:`Combination` — ``Σ c_t · r_t``, exact values times closed forms (an entry of
  concat · W_O, whose heads have different softmax denominators).
* :data:`NEG_INF` — a masked score.

Exponents and coefficients are :class:`~symattn.numbers.surd.Surd` for numeric problems
and SymPy expressions for symbolic ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .surd import Surd

__all__ = ["NEG_INF", "Coefficients", "Combination", "ExpRatio", "NegInf", "SoftmaxRow"]


class NegInf:
    """A masked score, −∞."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NEG_INF"

    def __float__(self) -> float:
        return float("-inf")


NEG_INF = NegInf()


class SoftmaxRow:
    """The exponents of one query row's softmax, shared by every entry of the row.

    Compared by identity: it is the row's own record, and caches of printers and
    evaluators key on it.
    """

    __slots__ = ("_algebraic", "_distinct", "_groups", "exponents")

    def __init__(self, exponents: Sequence[Any]) -> None:
        if not exponents:
            raise ValueError("a softmax row needs at least one exponent")
        self.exponents = tuple(exponents)
        self._distinct: bool | None = None
        self._groups: tuple[tuple[int, ...], ...] | None = None
        self._algebraic: bool | None = None

    @property
    def algebraic(self) -> bool:
        """Are the exponents all surds (or −∞)? Not when a score is sin, cos or tanh of
        something (a SymPy expression); found once for the whole row."""
        if self._algebraic is None:
            self._algebraic = all(isinstance(x, (Surd, NegInf)) for x in self.exponents)
        return self._algebraic

    @property
    def distinct(self) -> bool:
        """Are the exponents pairwise different?"""
        if self._distinct is None:
            self._distinct = len(set(self.exponents)) == len(self.exponents)
        return self._distinct

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The positions of equal exponents, group by group (in order of first use)."""
        if self._groups is None:
            where: dict[Any, list[int]] = {}
            for k, x in enumerate(self.exponents):
                where.setdefault(x, []).append(k)
            self._groups = tuple(tuple(ks) for ks in where.values())
        return self._groups

    def __len__(self) -> int:
        return len(self.exponents)

    def __repr__(self) -> str:
        return f"SoftmaxRow({list(self.exponents)!r})"


_UNKNOWN: Any = object()


class Coefficients(tuple):  # type: ignore[type-arg]
    """A tuple of coefficients that many quotients share (an output column): whether
    they are all equal is found once for all of them."""

    @property
    def uniform(self) -> bool:
        found: bool | None = self.__dict__.get("_uniform")
        if found is None:
            first = self[0]
            found = all(c == first for c in self)
            self.__dict__["_uniform"] = found
        return found


class ExpRatio:
    """``(Σ_j c_j exp(x_j)) / (Σ_j exp(x_j))`` over the unmasked keys of one query row."""

    __slots__ = ("_closed", "coefs", "row")

    def __init__(self, coefs: Sequence[Any], row: SoftmaxRow | Sequence[Any]) -> None:
        if not isinstance(row, SoftmaxRow):
            if not row:
                raise ValueError("ExpRatio needs one coefficient per exponent, at least one")
            row = SoftmaxRow(row)
        if len(coefs) != len(row):
            raise ValueError("ExpRatio needs one coefficient per exponent, at least one")
        self.coefs = coefs if isinstance(coefs, tuple) else tuple(coefs)
        self.row = row
        self._closed: Any = _UNKNOWN

    @property
    def exponents(self) -> tuple[Any, ...]:
        return self.row.exponents

    def __repr__(self) -> str:
        return f"ExpRatio({list(self.coefs)!r}, {list(self.exponents)!r})"

    def closed_value(self) -> Surd | None:
        """The value when it is algebraic, else None.

        Grouping equal exponents, the value is Σ_g C_g e^{x_g} / Σ_g n_g e^{x_g}.  The
        e^{x_g} of distinct algebraic x_g are linearly independent over the algebraic
        numbers (Lindemann–Weierstrass), so the quotient is algebraic exactly when every
        C_g / n_g is the same r, and then it is r: (2e^a + 2e^b)/(e^a + e^b) = 2.
        """
        if self._closed is _UNKNOWN:
            self._closed = self._find_closed_value()
        return self._closed  # type: ignore[no-any-return]

    def _find_closed_value(self) -> Surd | None:
        first = self.coefs[0]
        if not isinstance(first, Surd) or not isinstance(self.exponents[0], Surd):
            return None
        uniform = (
            self.coefs.uniform
            if isinstance(self.coefs, Coefficients)
            else all(c == first for c in self.coefs)
        )
        if uniform:
            return first
        if self.row.distinct:  # every group has one term, and the coefficients differ
            return None
        groups = self.row.groups
        if len(groups) > 1 and sum(1 for c in self.coefs if c) == 1:
            return None  # one term over several groups: ratios 1/n_g and 0 differ
        found: Surd | None = None
        for members in groups:  # every C_g / n_g must be the same: stop at the first not
            total = Surd()
            for k in members:
                total = total + self.coefs[k]
            ratio = total * Surd.rational(Fraction(1, len(members)))
            if found is None:
                found = ratio
            elif ratio != found:
                return None
        return found


class Combination:
    """``Σ c_t · r_t``: exact values times closed forms, e.g. an entry of concat · W_O."""

    __slots__ = ("terms",)

    def __init__(self, terms: Sequence[tuple[Surd, Any]]) -> None:
        self.terms = tuple((c, r) for c, r in terms if not (isinstance(c, Surd) and c.is_zero()))

    def __repr__(self) -> str:
        return f"Combination({list(self.terms)!r})"
