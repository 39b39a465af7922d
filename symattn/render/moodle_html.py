"""Moodle's question HTML: a quiz question's document (:mod:`.quiz_blocks`) as the HTML
of a Cloze question's text.

Plain HTML only — ``<h3>``, ``<p>`` and tables with a border — since what a Moodle site
shows of MathML or LaTeX depends on its filters: formulas are the terminal's Unicode
(:class:`~.unicode_math.UnicodeMath`), a matrix's name with its subscript as ``<sub>``
(``W<sub>Q</sub>``).  A Cloze field is written as it is.

>>> from symattn.formula import Lit, Name
>>> from .blocks import Heading
>>> from .document import Document
>>> from .quiz_blocks import ClozeCell, QuizTable
>>> table = QuizTable(Name("W_Q"), ((Lit("1"), ClozeCell("{1:NUMERICAL:=2:0.1#<b>}")),))
>>> text = render_moodle(Document("q", (Heading(None, "Given & more"), table)))
>>> print(text.replace(TABLE, "<table>"))
<div>
<h3>Given &amp; more</h3>
<p>W<sub>Q</sub> =</p><table><tr><td>1</td><td>{1:NUMERICAL:=2:0.1#<b>}</td></tr></table>
</div>
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from ..formula import Math, Name, Value
from ..printing import pretty
from .blocks import Heading, Sentence
from .document import BlockWriter, Document, NodePrinter
from .quiz_blocks import ClozeCell
from .unicode_math import UnicodeMath

if TYPE_CHECKING:
    from .quiz_blocks import QuizTable
    from .sheet_blocks import Tokens

__all__ = ["MoodleMath", "MoodleWriter", "render_moodle"]

TABLE = '<table border="1" cellpadding="4" style="border-collapse:collapse">'


def esc(text: object) -> str:
    return html.escape(str(text), quote=False)


class MoodleMath(NodePrinter):
    """Formulas as the question's HTML writes them: a node's own ``_print_<Node>`` here,
    else the terminal's Unicode of it, escaped."""

    def __init__(self, digits: int = 4) -> None:
        self.text = UnicodeMath(digits)

    def math(self, node: Math) -> str:
        method = getattr(self, f"_print_{type(node).__name__}", None)
        return esc(self.text.math(node)) if method is None else str(method(node))

    def _print_Name(self, node: Name) -> str:
        """``W_Q`` → ``W<sub>Q</sub>``; ``h1.Q`` → ``Q⁽¹⁾`` (an entry as the terminal's)."""
        text = esc(self.text.math(node))
        return re.sub(r"_(\w+)", r"<sub>\1</sub>", text) if node.row is None else text

    def _print_Value(self, node: Value) -> str:
        return esc(pretty(node.value))  # a fresh printer for each value


class MoodleWriter(BlockWriter):
    """The writer of a question's text: one line of HTML per block."""

    def __init__(self, digits: int = 4) -> None:
        super().__init__()
        self.printer = MoodleMath(digits)

    def _write_Heading(self, block: Heading) -> None:
        self.out.append(f"<h3>{esc(block.title)}</h3>")

    def _write_Sentence(self, block: Sentence) -> None:
        parts = block.parts
        text = "".join(esc(p) if isinstance(p, str) else self.printer.math(p) for p in parts)
        if text.strip():  # a sentence with no words (a topic's note left empty) is no line
            self.out.append(f"<p>{text}</p>")

    def _write_Tokens(self, block: Tokens) -> None:
        self.out.append(f"<p>{esc(block.label)} {esc(', '.join(block.tokens))}</p>")

    def _write_QuizTable(self, block: QuizTable) -> None:
        name = "" if block.name is None else f"<p>{self.printer.math(block.name)} =</p>"
        self.out.append(name + self.table(block))

    def cell(self, cell: Math | ClozeCell) -> str:
        return cell.markup if isinstance(cell, ClozeCell) else self.printer.math(cell)

    def table(self, block: QuizTable) -> str:
        rows, cols = block.row_labels, block.col_labels
        out = [TABLE]
        if cols:
            head = "".join(f"<th>{esc(c)}</th>" for c in cols)
            out.append(f"<tr>{'<th></th>' if rows else ''}{head}</tr>")
        for i, row in enumerate(block.cells):
            label = f"<th>{esc(rows[i])}</th>" if rows else ""
            cells = "".join(f"<td>{self.cell(c)}</td>" for c in row)
            out.append(f"<tr>{label}{cells}</tr>")
        return "".join(out) + "</table>"


def render_moodle(document: Document, digits: int = 4) -> str:
    """The question's text: its blocks in one ``<div>``, a line each (the title is the
    question's name, which Moodle shows apart)."""
    return "<div>\n" + "\n".join(MoodleWriter(digits).lines(document)) + "\n</div>"
