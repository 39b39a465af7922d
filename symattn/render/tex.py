r"""LaTeX of formulas (:mod:`.math` trees), and the line breaking of long displays.

The one LaTeX printer of formulas: the LaTeX document, the Markdown math and the HTML
MathML all print with it.

>>> from symattn.formula import Frac, Name, Sym
>>> TexPrinter().math(Frac(Name("scores", 0, 1), Sym("sqrt_dk")))
'\\frac{s_{1,2}}{\\sqrt{d_k}}'
"""

from __future__ import annotations

import re
from typing import Any

from ..formula import (
    Brackets,
    Cases,
    Cell,
    Concat,
    Dec,
    Exp,
    Frac,
    Join,
    Label,
    Line,
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
from ..numbers import Combination, ExpRatio, NegInf, Surd, has_symbols, rational_value
from ..printing import LatexPrinter, Notation, fmt_decimal, fraction_latex
from .brackets import Prec, decimal_negative, loose_value
from .document import NodePrinter
from .symbols import TEX_SYMBOLS
from .tex_text import TEXT_MATH, text_escape

__all__ = ["LINE_BUDGET", "TEXT_MATH", "TexPrinter", "text_escape", "width"]

#: Width budget of one displayed line, in rough characters of typeset math.
LINE_BUDGET = 58


def width(latex: str) -> int:
    """A rough count of typeset characters, for breaking long lines."""
    text = re.sub(r"\\(?:frac|sqrt|left|right|text|mathrm|tilde|hat|begin|end)", "", latex)
    text = re.sub(r"\\(?:cdot|approx|infty|alpha|Sigma|sum|quad|to|mapsto|top)", "x", text)
    text = re.sub(r"\{bmatrix\}|[{}&]|\\\\", "", text)
    text = re.sub(r"\^\{?[^ ]{0,12}?\}?(?= |$)", "xx", text)
    return len(text)


_RELATIONS = {"=": "=", "≈": r"\approx", "→": r"\to", "↦": r"\mapsto", "": ""}
_SUPERSCRIPTS = {"T": r"\top"}
_SEPARATORS = {
    "dims": r",\quad ",
    "list": r", \quad ",
    "bar": r" \mid ",
    "comma": ", ",
    "semicolon": "; ",
}


def _transposed(name: str) -> str:
    """``K^{\\top}``; a name with its own superscript is braced first: ``{W^{Q}}^{\\top}``."""
    return f"{{{name}}}^{{\\top}}" if "^" in name else f"{name}^{{\\top}}"


class TexPrinter(NodePrinter):
    """Prints formulas in LaTeX with one notation, one ``_print_<Node>`` method per node
    type; ``digits`` places for decimals.  Brackets come from :mod:`.brackets`."""

    def __init__(self, notation: Notation | None = None, digits: int = 4, aligned: bool = True):
        self.notation = notation or Notation.build()
        self.digits = digits
        self.values = LatexPrinter()
        self.mark = "&" if aligned else ""  # the alignment point (none for Word documents)
        self.start = self.mark or r"\text{ }"  # what a continued line starts with

    # -- values ---------------------------------------------------------------------------
    def value(self, value: Any, inline: bool = False) -> str:
        return self.values(value, inline)

    @staticmethod
    def _paren(text: str, loose: bool) -> str:
        return rf"\left({text}\right)" if loose else text

    def number(self, node: Number) -> str:
        """A substituted value: exact, or the decimal of a closed form or a long number;
        bracketed when it would be ambiguous as a factor (a negative number, a sum; a
        quotient is a \\frac)."""
        value = node.value
        rational = rational_value(value)
        if rational is not None and not isinstance(value, Surd):
            return self._paren(fraction_latex(rational), loose_value(rational, Prec.ADD))
        if isinstance(value, (ExpRatio, Combination)) and node.decimal is not None:
            return self._paren(node.decimal, decimal_negative(node.decimal))
        text = self.value(value)
        # a SymPy number (the backward pass): long ones as decimals
        if (
            node.decimal is not None
            and width(text) > 12
            and not isinstance(value, (Surd, NegInf))
            and not has_symbols(value)
        ):
            return self._paren(node.decimal, decimal_negative(node.decimal))
        return self._paren(text, loose_value(value, Prec.ADD))

    def cell(self, node: Cell, prefer_decimal: bool) -> str:
        value = node.value
        rational = rational_value(value)
        if rational is not None:
            return fraction_latex(rational)
        if isinstance(value, NegInf) or not (node.prefer_decimal or prefer_decimal):
            return self.value(value)
        return node.decimal if node.decimal is not None else self.value(value)

    def approx(self, node: Result) -> str:
        """``= 1.2000`` when the decimal is exact, ``\\approx 0.1070`` when not, nothing
        for integers."""
        if node.decimal is None or isinstance(node.value, NegInf):
            return ""
        if node.rational is not None:
            if node.rational.denominator == 1:
                return ""
            return f"= {node.decimal}" if node.exact_decimal else rf"\approx {node.decimal}"
        return rf"\approx {node.decimal}"

    def result(self, node: Result) -> str:
        """``= exact ≈ decimal`` for an entry, short enough for one line."""
        entry = node.value
        if isinstance(entry, Combination):  # a sum of closed forms: its decimal says it
            return self.approx(node)
        if node.symbolic:
            text = self.value(entry)
            return f"= {text}" if width(text) <= LINE_BUDGET - 10 else ""
        if isinstance(entry, ExpRatio):
            if node.rational is not None:
                return f"= {fraction_latex(node.rational)}"
            closed = self.value(entry)
            tail = self.approx(node)
            return f"= {closed} {tail}" if width(closed) <= LINE_BUDGET - 16 else tail
        text = self.value(entry)
        if width(text) > LINE_BUDGET - 16:
            return self.approx(node)
        return f"= {text} {self.approx(node)}".rstrip()

    # -- formulas -------------------------------------------------------------------------
    def name(self, node: Name) -> str:
        n = self.notation
        if node.row is None:
            text = n.matrix(node.matrix)
        elif node.col is None:
            text = n.row(node.matrix, node.row)
        else:
            text = n.entry(node.matrix, node.row, node.col)
        return _transposed(text) if node.transposed else text

    def table(self, node: Table) -> str:
        cells = [c for row in node.cells for c in row if isinstance(c, Cell)]
        if node.names is not None and any(width(self.value(c.value)) > 30 for c in cells):
            # symbolic entries too long to show: name them (they are written out above)
            return self._grid(node.names, node.rows, node.cols, False)
        prefer = any(isinstance(c.value, (ExpRatio, Combination)) for c in cells)
        if not prefer:
            prefer = any(
                width(self.value(c.value)) > 14
                for row in node.cells[:8]
                for c in row[:4]
                if isinstance(c, Cell)
            ) and all(c.decimal is not None for c in cells)
        printed = tuple(
            tuple(self.cell(c, prefer) if isinstance(c, Cell) else self.math(c) for c in row)
            for row in node.cells
        )
        if node.labelled and node.row_labels and node.col_labels:
            return self._labelled(node, printed)
        return self._grid_text(printed, node.rows, node.cols)

    def _grid(
        self,
        cells: tuple[tuple[Math, ...], ...],
        rows: tuple[int, ...],
        cols: tuple[int, ...],
        _labels: bool,
    ) -> str:
        return self._grid_text(tuple(tuple(self.math(c) for c in r) for r in cells), rows, cols)

    @staticmethod
    def _show(i: int, j: int, text: str) -> str:
        if i < 0:
            return r"\ddots" if j < 0 else r"\vdots"
        return r"\cdots" if j < 0 else text

    def _grid_text(
        self, printed: tuple[tuple[str, ...], ...], rows: tuple[int, ...], cols: tuple[int, ...]
    ) -> str:
        body = [
            " & ".join(self._show(i, j, text) for j, text in zip(cols, row))
            for i, row in zip(rows, printed)
        ]
        return r"\begin{bmatrix} " + r" \\ ".join(body) + r" \end{bmatrix}"

    def _labelled(self, node: Table, printed: tuple[tuple[str, ...], ...]) -> str:
        assert node.row_labels is not None and node.col_labels is not None
        head = " & " + " & ".join(
            r"\cdots" if j < 0 else self.label(node.col_labels[j]) for j in node.cols
        )
        lines = []
        for i, row in zip(node.rows, printed):
            lab = r"\vdots" if i < 0 else self.label(node.row_labels[i])
            lines.append(
                lab + " & " + " & ".join(self._show(i, j, t) for j, t in zip(node.cols, row))
            )
        spec = "c|" + "c" * len(node.cols)
        return (
            rf"\begin{{array}}{{{spec}}} {head} \\ \hline " + r" \\ ".join(lines) + r" \end{array}"
        )

    @staticmethod
    def label(text: str) -> str:
        """A token as a label inside math."""
        return rf"\text{{{text_escape(text)}}}"

    def vector(self, items: list[str]) -> str:
        shown = items if len(items) <= 8 else [*items[:3], r"\cdots", *items[-2:]]
        return r"\begin{bmatrix} " + " & ".join(shown) + r" \end{bmatrix}"

    def sum_terms(self, node: Sum) -> list[str]:
        """The terms of a sum, printed; a subtracted term keeps its minus sign."""
        return [
            ("-" + self.math(t.body)) if isinstance(t, Minus) else self.math(t) for t in node.terms
        ]

    # -- one method per node --------------------------------------------------------------
    def _print_Name(self, node: Name) -> str:
        return self.name(node)

    def _print_Sym(self, node: Sym) -> str:
        return TEX_SYMBOLS.get(node.name, node.name)

    def _print_Lit(self, node: Lit) -> str:
        return node.text

    def _print_Label(self, node: Label) -> str:
        return self.label(node.text)

    def _print_Value(self, node: Value) -> str:
        return self.value(node.value, node.inline)

    def _print_Number(self, node: Number) -> str:
        return self.number(node)

    def _print_Dec(self, node: Dec) -> str:
        return fmt_decimal(node.value, node.digits)

    def _print_Cell(self, node: Cell) -> str:
        return self.cell(node, prefer_decimal=False)

    def _print_Result(self, node: Result) -> str:
        return self.result(node)

    def _print_Frac(self, node: Frac) -> str:
        return rf"\frac{{{self.math(node.num)}}}{{{self.math(node.den)}}}"

    def _print_Exp(self, node: Exp) -> str:
        return f"e^{{{self.math(node.exponent)}}}"

    def _print_Paren(self, node: Paren) -> str:
        return rf"\left({self.math(node.body)}\right)"

    def _print_Root(self, node: Root) -> str:
        return rf"\sqrt{{{self.math(node.body)}}}"

    def _print_Brackets(self, node: Brackets) -> str:
        return rf"\left[\, {self.math(node.body)} \,\right]"

    def _print_Minus(self, node: Minus) -> str:
        return "- " + self.math(node.body)

    def _print_Product(self, node: Product) -> str:
        return node.glue.value[1].join(self.math(f) for f in node.factors)

    def _print_Sum(self, node: Sum) -> str:
        terms = self.sum_terms(node)
        out = terms[0]
        for term in terms[1:]:
            out += f" - {term[1:]}" if term.startswith("-") else f" + {term}"
        return out

    def _print_Concat(self, node: Concat) -> str:
        return "".join(self.math(p) for p in node.parts)

    def _print_Sub(self, node: Sub) -> str:
        return f"{self.math(node.base)}_{{{node.sub}}}"

    def _print_Sup(self, node: Sup) -> str:
        base = self.math(node.base)
        base = f"{{{base}}}" if "^" in base or "_" in base else base  # {K^{c}}^{\top}
        return base + f"^{{{_SUPERSCRIPTS.get(node.sup, node.sup)}}}"

    def _print_Norm(self, node: Norm) -> str:
        return rf"\left\lVert {self.math(node.body)} \right\rVert"

    def _print_Vector(self, node: Vector) -> str:
        return self.vector([self.math(x) for x in node.items])

    def _print_Table(self, node: Table) -> str:
        return self.table(node)

    def _print_Cases(self, node: Cases) -> str:
        rows = r" \\ ".join(f"{self.math(v)} & {self.math(c)}" for v, c in node.rows)
        return rf"\begin{{cases}} {rows} \end{{cases}}"

    def _print_Relation(self, node: Relation) -> str:
        right = f"{_RELATIONS[node.rel]} {self.math(node.right)}"
        return right if node.left is None else f"{self.math(node.left)} {right}"

    def _print_Join(self, node: Join) -> str:
        return _SEPARATORS[node.sep].join(self.math(x) for x in node.items)

    # -- lines ----------------------------------------------------------------------------
    def line(self, node: Line) -> list[str]:
        """One displayed line as LaTeX lines with one ``&``, broken when too long."""
        lhs = "" if node.lhs is None else self.math(node.lhs)
        note = rf" \quad ({self.label(node.note)})" if node.note else ""
        if not node.aligned:
            parts = " ".join(f"{_RELATIONS[r]} {self.math(x)}" for r, x in node.parts)
            return [f"{lhs} {parts}".strip() + note]
        rhs: list[tuple[str, str | list[str]]] = [
            (_RELATIONS[r], self.sum_terms(x) if isinstance(x, Sum) else self.math(x))
            for r, x in node.parts
        ]
        lines = self.chain(lhs, rhs) if node.breaks else [self._unbroken(lhs, rhs)]
        lines[-1] += note
        tail = "" if node.tail is None else self.math(node.tail)
        return self._merge(lines, tail)

    def _unbroken(self, lhs: str, rhs: list[tuple[str, str | list[str]]]) -> str:
        mark = self.mark
        out = (f"{lhs} {mark}" if lhs else mark) if mark else (lhs or self.start)
        for k, (relation, item) in enumerate(rhs):
            text = item if isinstance(item, str) else " + ".join(item)
            if not relation:
                out += text
                continue
            out += ("" if k == 0 and mark else " ") + f"{relation} {text}"
        return out

    def chain(self, lhs: str, rhs: list[tuple[str, str | list[str]]]) -> list[str]:
        """Aligned lines ``lhs = a = b ≈ c``: content given as a list of terms is a sum.
        Pieces fill a line while they fit; a long sum is broken between its terms."""
        mark = self.mark
        lines: list[str] = []
        current = f"{lhs} {mark}" if mark else lhs
        at_mark = bool(mark)  # nothing written after the alignment point yet
        for k, (relation, item) in enumerate(rhs):
            terms = [item] if isinstance(item, str) else item
            pieces = [
                term if t == 0 else (f"- {term[1:]}" if term.startswith("-") else f"+ {term}")
                for t, term in enumerate(terms)
            ]
            whole = f"{relation} " + " ".join(pieces)
            if k > 0 and width(current + " " + whole) > LINE_BUDGET:
                lines.append(current.rstrip())
                current, at_mark = self.start, True
            current += ("" if at_mark and mark else " ") + f"{relation} {pieces[0]}"
            at_mark = False
            for piece in pieces[1:]:
                if width(current + " " + piece) > LINE_BUDGET:
                    lines.append(current.rstrip())
                    current = mark + r"\quad"
                current += " " + piece
        lines.append(current.rstrip())
        return lines

    def _merge(self, lines: list[str], tail: str) -> list[str]:
        """Put ``= value ≈ decimal`` on the last line when it fits there."""
        if not tail:
            return lines
        if lines and width(lines[-1] + tail) <= LINE_BUDGET:
            return [*lines[:-1], lines[-1] + " " + tail]
        return [*lines, self.start + tail.lstrip()]
