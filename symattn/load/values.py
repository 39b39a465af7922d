"""Values of problem files: exact numbers and symbol names, read by the one grammar.

A matrix entry in a problem file is one of

* an integer (``3``) or a decimal read exactly (``0.1`` is 1/10, ``1e-3`` is 1/1000);
* a string holding a product or quotient of signed factors, where a factor is an
  integer, a decimal, a root (``sqrt(N)``, ``√N``, ``\\sqrt{N}``) of a non-negative
  rational, a fraction (``3/4``, ``\\frac{3}{4}``), a symbol name, or a factor raised to a
  whole power up to 64 with ``^`` or ``**``: ``"3/4"``, ``"-sqrt(2)/2"``, ``"2*w_12"``,
  ``"x^2"``, ``"−√2"``.

The text is read by :mod:`.grammar` (the same grammar reads students' answers); nothing
is evaluated, and any other text is rejected with a message saying what was expected.

>>> parse_value("-3*sqrt(8)/4").coef.terms
((2, Fraction(-3, 2)),)
>>> parse_value("__import__('os')")
Traceback (most recent call last):
...
symattn.load.lexer.ValueSyntaxError: unexpected character '_' at position 1
"""

from __future__ import annotations

import keyword
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..errors import SymattnError
from ..numbers import Surd, to_sympy
from ..record import Record
from .grammar import (
    MAX_DECIMAL_EXPONENT,
    MAX_POWER,
    MAX_VALUE_LENGTH,
    PROBLEM,
    BinOp,
    Euler,
    Exp,
    Name,
    Neg,
    Node,
    Num,
    Pow,
    Sqrt,
    ValueSyntaxError,
    exact_decimal,
    parse,
)

__all__ = [
    "MAX_DECIMAL_EXPONENT",
    "MAX_VALUE_LENGTH",
    "Monomial",
    "ValueSyntaxError",
    "monomial",
    "parse_value",
    "symbol_name_error",
]


_SIMPLE_FRACTION = re.compile(r"\s*([+-]?[0-9]{1,30})\s*(?:/\s*([0-9]{1,30}))?\s*")

#: Names that SymPy or Python would read as something other than a symbol.
_RESERVED_SINGLE = frozenset("EINOQS")
_RESERVED = frozenset(
    {
        "sqrt",
        "exp",
        "log",
        "ln",
        "sin",
        "cos",
        "tan",
        "pi",
        "oo",
        "zoo",
        "nan",
        "inf",
        "infinity",
        "Infinity",
        "NaN",
        "beta",
        "gamma",
        "zeta",
        "lambda",
        "Lambda",
        "true",
        "false",
        "True",
        "False",
        "None",
        "I",
        "E",
        "S",
        "N",
        "O",
        "Q",
    }
)


_GREEK = (
    "alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|omicron|pi|"
    "rho|sigma|tau|upsilon|phi|chi|psi|omega"
)
#: A symbol: one or two letters or a Greek letter's name, then an optional index.
_SYMBOL = rf"(?:[A-Za-z]{{1,2}}|(?:{_GREEK}))(?:[0-9]+|(?:_[A-Za-z0-9]+)+)?"  # compiled when used


def symbol_name_error(name: str) -> str | None:
    """Why ``name`` cannot be a symbol, or ``None`` when it can.

    >>> symbol_name_error("w_12") is None, symbol_name_error("two") is None
    (True, False)
    """
    if name.lower() in {"nan", "inf", "infinity"}:
        return f"{name} is not a finite number"
    if name in _RESERVED or name in _RESERVED_SINGLE or keyword.iskeyword(name):
        return f"'{name}' is a reserved name; use another symbol such as '{name}_1'"
    if not re.fullmatch(_SYMBOL, name, re.I):
        return (
            f"'{name}' is neither a number nor a symbol name (a symbol is one or two letters "
            "or a Greek letter's name, with an optional index: a, w_12, x1, alpha_2)"
        )
    if _sympy_reads_otherwise(name):
        return f"'{name}' is a reserved name; use another symbol such as '{name}_1'"
    return None


def _sympy_reads_otherwise(name: str) -> bool:
    """Would SymPy read ``name`` as something other than a symbol (``re`` is a function)?
    Such a name would not read back from the JSON's exact strings."""
    import sympy

    found = getattr(sympy, name, None)
    return found is not None and not isinstance(found, sympy.Symbol)


class Monomial(Record):
    """``coef · Π symbol^power``: what one value in a problem file denotes."""

    coef: Surd
    powers: tuple[tuple[str, int], ...] = ()

    @property
    def is_number(self) -> bool:
        return not self.powers

    def to_sympy(self) -> Any:
        import sympy

        out = to_sympy(self.coef)
        for name, power in self.powers:
            out = out * sympy.Symbol(name) ** power
        return out

    def times(self, other: Monomial, sign: int = 1) -> Monomial:
        powers = dict(self.powers)
        for name, p in other.powers:
            powers[name] = powers.get(name, 0) + sign * p
        merged = tuple(sorted((n, p) for n, p in powers.items() if p))
        if sign == 1:
            return Monomial(self.coef * other.coef, merged)
        if other.coef.is_zero():
            raise ValueSyntaxError("division by zero")
        if not other.coef.is_monomial:
            raise ValueSyntaxError("can only divide by a single term")
        return Monomial(self.coef / other.coef, merged)

    def power(self, exponent: int) -> Monomial:
        coef = Surd.rational(1)
        base = self.coef
        if exponent < 0:
            if base.is_zero():
                raise ValueSyntaxError("division by zero")
            base = Surd.rational(1) / base
        for _ in range(abs(exponent)):
            coef = coef * base
        return Monomial(coef, tuple((n, p * exponent) for n, p in self.powers if p * exponent))


#: Largest numerator or denominator (in bits) a power may build: about 10^200.
MAX_BITS = 700


def _size_ok(coef: Surd, exponent: int) -> bool:
    bits = max(
        (
            max(c.numerator.bit_length(), c.denominator.bit_length(), r.bit_length())
            for r, c in coef.terms
        ),
        default=0,
    )
    return bits * abs(exponent) <= MAX_BITS


def _sum_error(node: BinOp) -> ValueSyntaxError:
    return ValueSyntaxError(
        f"unexpected {node.op!r} at position {node.pos} (sums are not values; write the "
        "number itself)"
    )


def monomial(node: Node) -> Monomial:
    """A problem entry's syntax tree as an exact value: products and quotients only."""
    if isinstance(node, Num):
        return Monomial(Surd.rational(node.value))
    if isinstance(node, Name):
        reason = symbol_name_error(node.name)
        if reason is not None:
            raise ValueSyntaxError(reason)
        return Monomial(Surd.rational(1), ((node.name, 1),))
    if isinstance(node, Neg):
        inner = monomial(node.arg)
        return Monomial(-inner.coef, inner.powers)
    if isinstance(node, BinOp):
        if node.op in "+-":
            raise _sum_error(node)
        return monomial(node.left).times(monomial(node.right), 1 if node.op == "*" else -1)
    if isinstance(node, Pow):
        return _power(monomial(node.base), node)
    if isinstance(node, Sqrt):
        inner = monomial(node.arg)
        if not inner.is_number or not inner.coef.is_rational:
            raise ValueSyntaxError("sqrt takes a non-negative rational number")
        if inner.coef.as_fraction() < 0:
            raise ValueSyntaxError("sqrt of a negative number")
        try:
            return Monomial(Surd.sqrt(inner.coef.as_fraction()))
        except SymattnError:  # a time limit
            raise
        except ValueError as exc:
            raise ValueSyntaxError(str(exc)) from None
    if isinstance(node, Exp | Euler):
        raise ValueSyntaxError("'exp' is a reserved name; use another symbol such as 'exp_1'")
    raise ValueSyntaxError(f"unexpected {type(node).__name__.lower()} at position {node.pos}")


def _power(base: Monomial, node: Pow) -> Monomial:
    exponent, sign = node.exponent, 1
    if isinstance(exponent, Neg):
        exponent, sign = exponent.arg, -1
    if not (
        isinstance(exponent, Num)
        and exponent.places is None
        and exponent.exponent == 0
        and exponent.value.denominator == 1
        and 0 <= exponent.value <= MAX_POWER
    ):
        raise ValueSyntaxError(
            f"expected a whole exponent up to {MAX_POWER} at position {node.pos + 1}"
        )
    power = sign * int(exponent.value)
    if not _size_ok(base.coef, power):
        raise ValueSyntaxError(f"the power at position {node.pos} is out of range")
    return base.power(power)


def parse_value(raw: object) -> Monomial:
    """Read one matrix entry: an ``int``, a :class:`~decimal.Decimal` or a string.

    >>> parse_value("3/4").coef.as_fraction()
    Fraction(3, 4)
    >>> parse_value(Decimal("0.1")).coef.as_fraction()
    Fraction(1, 10)
    >>> parse_value("w_12").powers
    (('w_12', 1),)
    """
    if isinstance(raw, bool):
        raise ValueSyntaxError(f"expected a number, found the boolean {str(raw).lower()}")
    if isinstance(raw, int):
        if abs(raw) > 10**MAX_DECIMAL_EXPONENT:
            raise ValueSyntaxError("integer out of range")
        return Monomial(Surd.rational(raw))
    if isinstance(raw, Decimal):
        return Monomial(Surd.rational(exact_decimal(str(raw))))
    if isinstance(raw, float):  # only from Python callers; read its shortest repr exactly
        if raw != raw or raw in (float("inf"), float("-inf")):
            raise ValueSyntaxError(f"{raw} is not a finite number")
        return Monomial(Surd.rational(exact_decimal(repr(raw))))
    if isinstance(raw, Fraction):
        return Monomial(Surd.rational(raw))
    if isinstance(raw, str):
        simple = _SIMPLE_FRACTION.fullmatch(raw)
        if simple is not None:  # the common "3/4" and "-2" without the parser
            den = int(simple.group(2) or 1)
            if den == 0:
                raise ValueSyntaxError("division by zero")
            return Monomial(Surd.rational(Fraction(int(simple.group(1)), den)))
        return monomial(parse(raw, PROBLEM))
    if raw is None:
        raise ValueSyntaxError("expected a number, found null")
    if isinstance(raw, (list, dict)):
        raise ValueSyntaxError(f"expected a number, found a {type(raw).__name__}")
    raise ValueSyntaxError(f"expected a number, found {type(raw).__name__}")
