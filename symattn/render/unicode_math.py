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
    Norm,
    Number,
    Paren,
    Product,
    Relation,
    Result,
    Root,
    Sub,
    Sum,
    Sup,
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
from ..printing import TERMINAL, UnicodePrinter, fraction_str
from .brackets import Prec, decimal_negative, loose_value, node_precedence
from .document import NodePrinter
from .symbols import UNICODE_SYMBOLS

__all__ = ["TERM_LIMIT", "UnicodeMath"]

#: Sums with more terms than this are shown with ⋯ in the middle.
TERM_LIMIT = 8
#: Values longer than this are left to the matrix (or to the JSON output).
VALUE_LIMIT = 40
SYMBOLIC_VALUE_LIMIT = 60

_SUB = str.maketrans("0123456789,ijk", "₀₁₂₃₄₅₆₇₈₉,ᵢⱼₖ")
_SUBSCRIPTABLE = set("0123456789,ijk")
_SUP = str.maketrans("0123456789T", "⁰¹²³⁴⁵⁶⁷⁸⁹ᵀ")
_SEPARATORS = {"dims": ", ", "list": ", ", "bar": " | ", "comma": ", ", "semicolon": "; "}


def subscript(text: str) -> str:
    return text.translate(_SUB)


def elide(items: list[str], limit: int = TERM_LIMIT) -> list[str]:
    if len(items) <= limit:
        return items
    return [*items[:3], "⋯", *items[-2:]]


def _index(i: int | str) -> str:
    return str(i + 1) if isinstance(i, int) else i


class UnicodeMath(NodePrinter):
    """Prints formulas for the terminal, one ``_print_<Node>`` method per node type;
    ``digits`` places for decimals.  Brackets come from :mod:`.brackets`."""

    def __init__(self, digits: int = 4) -> None:
        self.digits = digits
        self.values = UnicodePrinter()

    def value(self, value: Any) -> str:
        return self.values(value)

    @staticmethod
    def _paren(text: str, loose: bool) -> str:
        return f"({text})" if loose else text

    def number(self, node: Number) -> str:
        """A substituted value; bracketed when it would be ambiguous as a factor: a
        negative number, a quotient, a sum."""
        value = node.value
        rational = rational_value(value)
        if rational is not None and not isinstance(value, Surd):
            return self._paren(fraction_str(rational), loose_value(rational, Prec.DIV))
        if isinstance(value, (ExpRatio, Combination)) and node.decimal is not None:
            return self._paren(node.decimal, decimal_negative(node.decimal))
        text = self.value(value)
        if (
            node.decimal is not None
            and len(text) > 12
            and not isinstance(value, (Surd, NegInf))
            and not has_symbols(value)
        ):
            return self._paren(node.decimal, decimal_negative(node.decimal))
        return self._paren(text, loose_value(value, Prec.DIV))

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

    @staticmethod
    def precedence(node: Math) -> Prec:
        """The terminal writes a quotient of formulas with spaces around its slash
        (``s₁,₂ / √d_k``): as a piece of a larger formula it binds as loosely as a sum."""
        return Prec.ADD if isinstance(node, Frac) else node_precedence(node)

    def grouped(self, node: Math, bound: Prec = Prec.ADD) -> str:
        """``node`` as a piece that binds tighter than ``bound``, bracketed if it does not."""
        text = self.math(node)
        return f"({text})" if self.precedence(node) <= bound else text

    # -- one method per node --------------------------------------------------------------
    def _print_Name(self, node: Name) -> str:
        return self.name(node)

    def _print_Sym(self, node: Sym) -> str:
        return UNICODE_SYMBOLS.get(node.name, node.name)

    def _print_Lit(self, node: Lit) -> str:
        return node.text

    def _print_Label(self, node: Label) -> str:
        return node.text

    def _print_Value(self, node: Value) -> str:
        return self.value(node.value)

    def _print_Number(self, node: Number) -> str:
        return self.number(node)

    def _print_Dec(self, node: Dec) -> str:
        return round_half_away(node.value, self.digits)

    def _print_Cell(self, node: Cell) -> str:
        return self.cell(node)

    def _print_Result(self, node: Result) -> str:
        return self.result(node)

    def _print_Frac(self, node: Frac) -> str:
        # 4 / (√2/2), not 4 / √2/2: a denominator binds tighter than a quotient
        return f"{self.grouped(node.num)} / {self.grouped(node.den, Prec.DIV)}"

    def _print_Exp(self, node: Exp) -> str:
        inner = node.exponent
        if isinstance(inner, Value):
            return self.values.exp(inner.value)
        return f"exp({self.math(inner)})"

    def _print_Paren(self, node: Paren) -> str:
        return f"({self.math(node.body)})"

    def _print_Root(self, node: Root) -> str:
        return f"√{self.grouped(node.body, Prec.POW)}"  # √2, √(σ² + ε)

    def _print_Brackets(self, node: Brackets) -> str:
        return f"[{self.math(node.body)}]"

    def _print_Minus(self, node: Minus) -> str:
        return "−" + self.math(node.body)

    def _print_Product(self, node: Product) -> str:
        return self.glue(node).join(self.math(f) for f in node.factors)

    def _print_Sum(self, node: Sum) -> str:
        terms = elide([self.math(t) for t in node.terms])
        out = terms[0]
        for term in terms[1:]:
            out += f" − {term[1:]}" if term.startswith("−") else f" + {term}"
        return out

    def _print_Concat(self, node: Concat) -> str:
        return "".join(self.math(p) for p in node.parts)

    def _print_Sub(self, node: Sub) -> str:
        base = self.math(node.base)
        if set(node.sub) <= _SUBSCRIPTABLE:
            return base + subscript(node.sub)
        return f"{base}[{node.sub}]"

    def _print_Sup(self, node: Sup) -> str:
        return self.grouped(node.base, Prec.POW) + node.sup.translate(_SUP)

    def _print_Norm(self, node: Norm) -> str:
        return f"‖{self.math(node.body)}‖"

    def _print_Vector(self, node: Vector) -> str:
        return "[" + ", ".join(elide([self.math(x) for x in node.items])) + "]"

    def _print_Cases(self, node: Cases) -> str:
        return "; ".join(f"{self.math(v)} ({self.math(c)})" for v, c in node.rows)

    def _print_Relation(self, node: Relation) -> str:
        right = f"{node.rel} {self.math(node.right)}"
        return right if node.left is None else f"{self.math(node.left)} {right}"

    def _print_Join(self, node: Join) -> str:
        return _SEPARATORS[node.sep].join(self.math(x) for x in node.items)

    def _print_Table(self, node: Table) -> str:
        return " ".join(self.math(c) for row in node.cells for c in row)
