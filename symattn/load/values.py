"""The value grammar of problem files: exact numbers and symbol names, read safely.

A matrix entry in a problem file is one of

* an integer (``3``) or a decimal read exactly (``0.1`` is 1/10, ``1e-3`` is 1/1000);
* a string holding a product or quotient of signed factors, where a factor is an
  integer, a decimal, ``sqrt(N)`` with N a non-negative number, a symbol name, or a
  factor raised to an integer power with ``^`` or ``**``: ``"3/4"``, ``"-sqrt(2)/2"``,
  ``"2*w_12"``, ``"x^2"``.

Nothing is evaluated: a tiny tokenizer and recursive-descent parser build the value,
and any other text is rejected with a message saying what was expected.

>>> parse_value("-3*sqrt(8)/4").coef.terms
((2, Fraction(-3, 2)),)
>>> parse_value("__import__('os')")
Traceback (most recent call last):
...
symattn.load.values.ValueSyntaxError: unexpected character '_' at position 1
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..numbers import Surd, to_sympy

__all__ = ["Monomial", "ValueSyntaxError", "parse_value", "symbol_name_error"]

#: Longest string accepted as one value (a guard against absurd input).
MAX_VALUE_LENGTH = 200
#: Largest |exponent| of a decimal such as 1e300 (keeps numbers sane).
MAX_DECIMAL_EXPONENT = 100

_TOKEN = re.compile(
    r"\s*(?:(?P<num>[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<name>[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)"
    r"|(?P<op>\*\*|[*/^()+\-]))"
)

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


class ValueSyntaxError(ValueError):
    """A value that the grammar does not accept; the message says why."""


_GREEK = (
    "alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|omicron|pi|"
    "rho|sigma|tau|upsilon|phi|chi|psi|omega"
)
#: A symbol: one or two letters or a Greek letter's name, then an optional index.
_SYMBOL = re.compile(rf"(?:[A-Za-z]{{1,2}}|(?:{_GREEK}))(?:[0-9]+|(?:_[A-Za-z0-9]+)+)?", re.I)


def symbol_name_error(name: str) -> str | None:
    """Why ``name`` cannot be a symbol, or ``None`` when it can.

    >>> symbol_name_error("w_12") is None, symbol_name_error("two") is None
    (True, False)
    """
    if name.lower() in {"nan", "inf", "infinity"}:
        return f"{name} is not a finite number"
    if name in _RESERVED or name in _RESERVED_SINGLE or keyword.iskeyword(name):
        return f"'{name}' is a reserved name; use another symbol such as '{name}_1'"
    if not _SYMBOL.fullmatch(name):
        return (
            f"'{name}' is neither a number nor a symbol name (a symbol is one or two letters "
            "or a Greek letter's name, with an optional index: a, w_12, x1, alpha_2)"
        )
    return None


@dataclass(frozen=True)
class Monomial:
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


def _exact_decimal(text: str) -> Fraction:
    value = Decimal(text)
    if not value.is_finite():
        raise ValueSyntaxError(f"{text} is not a finite number")
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and abs(exponent) > MAX_DECIMAL_EXPONENT + 30:
        raise ValueSyntaxError(f"{text} is out of range")
    if value != 0 and abs(value.adjusted()) > MAX_DECIMAL_EXPONENT:
        raise ValueSyntaxError(f"{text} is out of range (|exponent| > {MAX_DECIMAL_EXPONENT})")
    return Fraction(value)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            match = _TOKEN.match(stripped, pos)
            if match is None or match.end() == pos:
                col = pos + 1 + (len(stripped[pos:]) - len(stripped[pos:].lstrip()))
                raise ValueSyntaxError(
                    f"unexpected character {stripped[col - 1]!r} at position {col}"
                )
            kind = match.lastgroup or ""
            self.tokens.append((kind, match.group(kind), match.start(kind) + 1))
            pos = match.end()
        self.index = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        if token is None:
            raise ValueSyntaxError("value ends too early")
        self.index += 1
        return token

    def expect(self, op: str) -> None:
        _kind, text, pos = self.take()
        if text != op:
            raise ValueSyntaxError(f"expected {op!r} at position {pos}, found {text!r}")

    def parse(self) -> Monomial:
        if not self.tokens:
            raise ValueSyntaxError("empty value")
        value = self.product()
        extra = self.peek()
        if extra is not None:
            hint = " (sums are not values; write the number itself)" if extra[1] in "+-" else ""
            raise ValueSyntaxError(f"unexpected {extra[1]!r} at position {extra[2]}{hint}")
        return value

    def product(self) -> Monomial:
        value = self.signed()
        while (token := self.peek()) is not None and token[1] in ("*", "/"):
            self.take()
            value = value.times(self.signed(), 1 if token[1] == "*" else -1)
        return value

    def signed(self) -> Monomial:
        token = self.peek()
        if token is not None and token[1] in ("+", "-"):
            self.take()
            inner = self.signed()
            return inner if token[1] == "+" else Monomial(-inner.coef, inner.powers)
        return self.power()

    def power(self) -> Monomial:
        base = self.atom()
        token = self.peek()
        if token is not None and token[1] in ("^", "**"):
            self.take()
            sign = 1
            if (nxt := self.peek()) is not None and nxt[1] in ("+", "-"):
                self.take()
                sign = -1 if nxt[1] == "-" else 1
            kind, text, pos = self.take()
            if kind != "num" or not text.isdigit() or int(text) > 64:
                raise ValueSyntaxError(f"expected a whole exponent up to 64 at position {pos}")
            base = base.power(sign * int(text))
        return base

    def atom(self) -> Monomial:
        kind, text, pos = self.take()
        if kind == "num":
            return Monomial(Surd.rational(_exact_decimal(text)))
        if text == "(":
            value = self.product()
            self.expect(")")
            return value
        if kind == "name" and text == "sqrt":
            self.expect("(")
            inner = self.product()
            self.expect(")")
            if not inner.is_number or not inner.coef.is_rational:
                raise ValueSyntaxError("sqrt takes a non-negative rational number")
            if inner.coef.as_fraction() < 0:
                raise ValueSyntaxError("sqrt of a negative number")
            try:
                return Monomial(Surd.sqrt(inner.coef.as_fraction()))
            except ValueError as exc:
                raise ValueSyntaxError(str(exc)) from None
        if kind == "name":
            reason = symbol_name_error(text)
            if reason is not None:
                raise ValueSyntaxError(reason)
            return Monomial(Surd.rational(1), ((text, 1),))
        raise ValueSyntaxError(f"unexpected {text!r} at position {pos}")


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
        return Monomial(Surd.rational(_exact_decimal(str(raw))))
    if isinstance(raw, float):  # only from Python callers; read its shortest repr exactly
        if raw != raw or raw in (float("inf"), float("-inf")):
            raise ValueSyntaxError(f"{raw} is not a finite number")
        return Monomial(Surd.rational(_exact_decimal(repr(raw))))
    if isinstance(raw, Fraction):
        return Monomial(Surd.rational(raw))
    if isinstance(raw, str):
        simple = _SIMPLE_FRACTION.fullmatch(raw)
        if simple is not None:  # the common "3/4" and "-2" without the parser
            den = int(simple.group(2) or 1)
            if den == 0:
                raise ValueSyntaxError("division by zero")
            return Monomial(Surd.rational(Fraction(int(simple.group(1)), den)))
        if len(raw) > MAX_VALUE_LENGTH:
            raise ValueSyntaxError(f"value longer than {MAX_VALUE_LENGTH} characters")
        return _Parser(raw).parse()
    if raw is None:
        raise ValueSyntaxError("expected a number, found null")
    if isinstance(raw, (list, dict)):
        raise ValueSyntaxError(f"expected a number, found a {type(raw).__name__}")
    raise ValueSyntaxError(f"expected a number, found {type(raw).__name__}")
