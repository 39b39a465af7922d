"""Unicode of formulas (:mod:`.math` trees) for the terminal: ``q₁,₁·k₁,₁``, ``√d_k``.

>>> from symattn.formula import Frac, Name, Sym
>>> UnicodeMath().math(Frac(Name("scores", 0, 1), Sym("sqrt_dk")))
's₁,₂ / √d_k'
"""

from __future__ import annotations

from typing import Any

from ..formula import (
    Brackets,
    Cases,
    Cell,
    Concat,
    Dec,
    Exp,
    Frac,
    Glue,
    Join,
    Label,
    Lit,
    Math,
    Minus,
    Name,
    Number,
    Paren,
    Product,
    Relation,
    Result,
    Root,
    Sub,
    Sum,
    Sym,
    Table,
    Value,
    Vector,
)
from ..numbers import (
    Combination,
    ExpRatio,
    NegInf,
    Surd,
    has_symbols,
    rational_value,
    round_half_away,
)
from ..printing import TERMINAL, Prec, UnicodePrinter, fraction_str, is_negative, precedence
from .symbols import UNICODE_SYMBOLS

__all__ = ["TERM_LIMIT", "UnicodeMath"]

#: Sums with more terms than this are shown with ⋯ in the middle.
TERM_LIMIT = 8
#: Values longer than this are left to the matrix (or to the JSON output).
VALUE_LIMIT = 40
SYMBOLIC_VALUE_LIMIT = 60

_SUB = str.maketrans("0123456789,ijk", "₀₁₂₃₄₅₆₇₈₉,ᵢⱼₖ")
_SUBSCRIPTABLE = set("0123456789,ijk")
_SEPARATORS = {"dims": ", ", "list": ", ", "bar": " | ", "comma": ", ", "semicolon": "; "}


def subscript(text: str) -> str:
    return text.translate(_SUB)


def elide(items: list[str], limit: int = TERM_LIMIT) -> list[str]:
    if len(items) <= limit:
        return items
    return [*items[:3], "⋯", *items[-2:]]


def _index(i: int | str) -> str:
    return str(i + 1) if isinstance(i, int) else i


class UnicodeMath:
    """Prints formulas for the terminal; ``digits`` places for decimals."""

    def __init__(self, digits: int = 4) -> None:
        self.digits = digits
        self.values = UnicodePrinter()

    def value(self, value: Any) -> str:
        return self.values(value)

    @staticmethod
    def paren(text: str) -> str:
        """Bracket a printed number that would be ambiguous as a factor."""
        body = text[1:] if text.startswith("-") else text
        if text.startswith("-") or any(ch in body for ch in " +/"):
            return f"({text})"
        return text

    def number(self, node: Number) -> str:
        value = node.value
        rational = rational_value(value)
        if rational is not None and not isinstance(value, Surd):
            return self.paren(fraction_str(rational))
        if isinstance(value, (ExpRatio, Combination)) and node.decimal is not None:
            return self.paren(node.decimal)
        if not isinstance(value, (Surd, NegInf)) and not has_symbols(value):
            text = self.value(value)
            if len(text) > 12 and node.decimal is not None:
                return self.paren(node.decimal)
            return self.paren(text)
        return self.paren(self.value(value))

    def cell(self, node: Cell, prefer_decimal: bool = False) -> str:
        rational = rational_value(node.value)
        if rational is not None:
            return fraction_str(rational)
        if isinstance(node.value, NegInf) or not (prefer_decimal or node.prefer_decimal):
            return self.value(node.value)
        return node.decimal if node.decimal is not None else self.value(node.value)

    def decimal_tail(self, node: Result) -> str:
        if node.decimal is None or isinstance(node.value, NegInf):
            return ""
        if node.rational is not None:
            if node.rational.denominator == 1:
                return ""
            return f"= {node.decimal}" if node.exact_decimal else f"≈ {node.decimal}"
        return f"≈ {node.decimal}"

    def result(self, node: Result) -> str:
        entry = node.value
        if node.symbolic:
            text = self.value(entry)
            return f"= {text}" if len(text) <= SYMBOLIC_VALUE_LIMIT else ""
        tail = self.decimal_tail(node)
        if isinstance(entry, Combination):
            return tail
        if isinstance(entry, ExpRatio):
            if node.rational is not None:
                return f"= {fraction_str(node.rational)}"
            return tail
        text = self.value(entry)
        if len(text) > VALUE_LIMIT:
            return tail
        return f"= {text} {tail}".rstrip()

    def name(self, node: Name) -> str:
        if node.row is None:
            text = TERMINAL.matrix(node.matrix)
        elif node.col is None:
            text = TERMINAL.letter(node.matrix) + subscript(_index(node.row))
        else:
            row, col = subscript(_index(node.row)), subscript(_index(node.col))
            text = f"{TERMINAL.letter(node.matrix)}{row},{col}"
        return text + "ᵀ" if node.transposed else text

    @staticmethod
    def glue(node: Product) -> str:
        """Entries and numbers are multiplied with ·; matrices and symbols stand apart."""
        if node.glue is Glue.JUXTAPOSE and not all(
            isinstance(f, Name) and f.col is not None for f in node.factors
        ):
            return " "
        return node.glue.value[2]

    def exp(self, node: Exp) -> str:
        inner = node.exponent
        if isinstance(inner, Value):
            return self.values.exp(inner.value)
        return f"exp({self.math(inner)})"

    def grouped(self, node: Math) -> str:
        """A sum or quotient as a factor, bracketed."""
        text = self.math(node)
        if isinstance(node, (Sum, Frac)) or (
            isinstance(node, Value)
            and (precedence(node.value) <= Prec.ADD or is_negative(node.value))
        ):
            return f"({text})"
        return text

    def math(self, node: Math) -> str:
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Sym):
            return UNICODE_SYMBOLS.get(node.name, node.name)
        if isinstance(node, (Lit, Label)):
            return node.text
        if isinstance(node, Value):
            return self.value(node.value)
        if isinstance(node, Number):
            return self.number(node)
        if isinstance(node, Dec):
            return round_half_away(node.value, self.digits)
        if isinstance(node, Cell):
            return self.cell(node)
        if isinstance(node, Result):
            return self.result(node)
        if isinstance(node, Frac):
            den = self.grouped(node.den)
            if "/" in den and not den.startswith("("):  # 4 / (√2/2), not 4 / √2/2
                den = f"({den})"
            return f"{self.grouped(node.num)} / {den}"
        if isinstance(node, Exp):
            return self.exp(node)
        if isinstance(node, Paren):
            return f"({self.math(node.body)})"
        if isinstance(node, Root):
            return f"√({self.math(node.body)})"
        if isinstance(node, Brackets):
            return f"[{self.math(node.body)}]"
        if isinstance(node, Minus):
            return "−" + self.math(node.body)
        if isinstance(node, Product):
            return self.glue(node).join(self.math(f) for f in node.factors)
        if isinstance(node, Sum):
            terms = elide([self.math(t) for t in node.terms])
            out = terms[0]
            for term in terms[1:]:
                out += f" − {term[1:]}" if term.startswith("−") else f" + {term}"
            return out
        if isinstance(node, Concat):
            return "".join(self.math(p) for p in node.parts)
        if isinstance(node, Sub):
            base = self.math(node.base)
            if set(node.sub) <= _SUBSCRIPTABLE:
                return base + subscript(node.sub)
            return f"{base}[{node.sub}]"
        if isinstance(node, Vector):
            return "[" + ", ".join(elide([self.math(x) for x in node.items])) + "]"
        if isinstance(node, Cases):
            return "; ".join(f"{self.math(v)} ({self.math(c)})" for v, c in node.rows)
        if isinstance(node, Relation):
            right = f"{node.rel} {self.math(node.right)}"
            return right if node.left is None else f"{self.math(node.left)} {right}"
        if isinstance(node, Join):
            return _SEPARATORS[node.sep].join(self.math(x) for x in node.items)
        if isinstance(node, Table):
            return " ".join(self.math(c) for row in node.cells for c in row)
        raise TypeError(f"no Unicode form for {type(node).__name__}")  # pragma: no cover
