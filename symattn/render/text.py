"""The terminal: the blocks of a derivation as Unicode text, in the chosen language.

Sentences are indented under their step, formula lines a little more; matrices are
aligned in columns with their tokens beside and above them (CJK characters take two
columns), elided with ⋯ past the display limit, never silently.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..formula import Cell, Line, Table
from ..messages import say
from ..numbers import ExpRatio, NegInf, Surd
from ..printing import TERMINAL
from ..words import words
from .blocks import Display, Heading, Heatmap, Sentence
from .document import BlockWriter, Document
from .unicode_math import UnicodeMath
from .voice import text_voice

if TYPE_CHECKING:
    from .block_type import Block
    from .check_blocks import AnswerBox, CheckedStep, Diagnoses, EntryList, Remark, Verdict
    from .report_blocks import Columns, Notice

__all__ = ["MARKS", "TextWriter", "heatmap_lines", "render_text", "rjust", "text_blocks", "width"]

#: Shades from no attention to all of it.
SHADES = " ·░▒▓█"
#: The mark of an answered entry by its status (the terminal's and the page's).
MARKS = {"ok": "✓", "wrong": "✗", "too_coarse": "✗", "invalid": "?", "carried": "↪"}
#: Exact entries longer than this are shown as decimals in a matrix.
CELL_LIMIT = 24


def width(text: str) -> int:
    """Terminal columns of ``text``: CJK characters take two, combining marks none."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def rjust(text: str, columns: int) -> str:
    return " " * max(columns - width(text), 0) + text


def _short(cell: Cell, printer: UnicodeMath) -> bool:
    value = cell.value
    if isinstance(value, (Surd, NegInf)):
        return True
    return not isinstance(value, ExpRatio) and len(printer.value(value)) <= CELL_LIMIT


def table_lines(lhs: str, rel: str, node: Table, printer: UnicodeMath, indent: str) -> list[str]:
    """``Q =`` and the matrix under it, columns aligned, tokens beside and above."""
    cells = [c for row in node.cells for c in row if isinstance(c, Cell)]
    grid = node.cells
    if cells and all(_short(c, printer) for c in cells):
        shown = [
            [printer.cell(c) if isinstance(c, Cell) else printer.math(c) for c in r] for r in grid
        ]
    elif node.names is not None:
        shown = [[printer.math(c) for c in r] for r in node.names]
    else:
        shown = [
            [
                printer.cell(c, prefer_decimal=True) if isinstance(c, Cell) else printer.math(c)
                for c in r
            ]
            for r in grid
        ]
        if any(isinstance(c.value, (ExpRatio,)) or not _short(c, printer) for c in cells):
            rel = "≈"
    shown = [
        ["⋯" if j < 0 else ("⋮" if i < 0 else text) for j, text in zip(node.cols, row)]
        for i, row in zip(node.rows, shown)
    ]
    heads = ["⋯" if j < 0 else node.col_labels[j] for j in node.cols] if node.col_labels else None
    widths = [
        max([width(r[c]) for r in shown] + ([width(heads[c])] if heads else []))
        for c in range(len(node.cols))
    ]
    labels = [(node.row_labels[i] if node.row_labels and i >= 0 else "") for i in node.rows]
    label_width = max((width(x) for x in labels), default=0)
    lead = label_width + 1 if label_width else 0
    out = [f"{indent}{lhs} {rel}".rstrip()]
    if heads:
        out.append(
            f"{indent}{' ' * lead}  " + "  ".join(rjust(h, w) for h, w in zip(heads, widths))
        )
    for lab, row in zip(labels, shown):
        prefix = f"{rjust(lab, label_width)} " if label_width else ""
        out.append(
            f"{indent}{prefix}[ " + "  ".join(rjust(c, w) for c, w in zip(row, widths)) + " ]"
        )
    return out


def line_text(node: Line, printer: UnicodeMath, indent: str) -> list[str]:
    lhs = "" if node.lhs is None else printer.math(node.lhs)
    for k, (rel, part) in enumerate(node.parts):
        if isinstance(part, Table):
            before = " ".join(f"{r} {printer.math(x)}" for r, x in node.parts[:k])
            head = f"{lhs} {before}".strip() if before else lhs
            return table_lines(head, rel, part, printer, indent)
    pieces = [lhs] if lhs else []
    for rel, part in node.parts:
        text = printer.math(part)
        pieces.append(f"{rel} {text}" if rel else text)
    if node.tail is not None:
        tail = printer.math(node.tail)
        if tail:
            pieces.append(tail)
    text = " ".join(pieces)
    if node.note:
        text += f"   ({node.note})"
    return [indent + text]


def heatmap_lines(block: Heatmap, indent: str = "  ") -> list[str]:
    """The weights as shaded blocks, darker for more attention — on the scale 0 … 1 that
    every format uses, not relative to the largest weight — with token labels."""
    cell = max([4, *(width(c) for c in block.cols)])
    lead = max(width(r) for r in block.rows)
    out = [indent + block.caption]
    out.append(indent + " " * (lead + 1) + " ".join(rjust(c, cell) for c in block.cols))
    for name, values, labels in zip(block.rows, block.values, block.labels):
        cells = []
        for value, label in zip(values, labels):
            if label == "⋯":
                cells.append(rjust("⋯", cell))
                continue
            shade = SHADES[min(len(SHADES) - 1, round(value * (len(SHADES) - 1)))]
            cells.append(shade * cell)
        out.append(f"{indent}{rjust(name, lead)} " + " ".join(cells))
    return out


class TextWriter(BlockWriter):
    """The terminal's writer: headings flush left, the rest indented; formulas printed
    by :class:`~.unicode_math.UnicodeMath`."""

    def __init__(self, digits: int = 4, indent: str = "  ", lang: str = "en") -> None:
        super().__init__()
        self.printer = UnicodeMath(digits)
        self.indent = indent
        self.voice = text_voice(words(lang), digits)

    def _write_Heading(self, block: Heading) -> None:
        self.out += ["", block.title]

    def _write_Sentence(self, block: Sentence) -> None:
        math = self.printer.math
        self.out.append(
            self.indent + "".join(p if isinstance(p, str) else math(p) for p in block.parts)
        )

    def _write_Display(self, block: Display) -> None:
        for line in block.lines:
            self.out += line_text(line, self.printer, self.indent * 2)

    def _write_Heatmap(self, block: Heatmap) -> None:
        self.out += heatmap_lines(block, self.indent)

    # -- check's feedback: the verdict, then each step checked, indented under its title

    def _write_Verdict(self, block: Verdict) -> None:
        self.out += [block.score, block.verdict]

    def _write_CheckedStep(self, block: CheckedStep[Block]) -> None:
        symbol = "✓" if block.good else ("✗" if block.entries or block.error else "·")
        head = f"{'▶' if block.first else ' '} {block.title}  {symbol} {block.status_word}"
        self.out += ["", head + (f"   {block.first_label}" if block.first else "")]
        for inner in block.blocks:
            self.write(inner)

    def _write_Remark(self, block: Remark) -> None:
        if block.message is None:
            self.out.append(f"    {block.words}")
            return
        said = say(block.message, self.voice)
        self.out.append(f"    {block.prefix} {said}" if block.prefix else f"    {said}")

    def _write_EntryList(self, block: EntryList) -> None:
        rows = [(*block.heads, "")]
        for e in block.rows:
            cells = (TERMINAL.entry(block.step_id, e.row - 1, e.col - 1), e.given)
            expected = () if e.expected is None else (e.expected,)
            rows.append((*cells, *expected, f"{MARKS[e.status]} {e.label}".rstrip()))
        columns = len(block.heads)
        widths = [max(width(r[k]) for r in rows) for k in range(columns)]
        for r in rows:
            padded = [r[k] + " " * (widths[k] - width(r[k])) for k in range(columns)]
            self.out.append("    " + "  ".join(padded) + f"  {r[-1]}".rstrip())

    def _write_Diagnoses(self, block: Diagnoses) -> None:
        self.out.append(f"    {block.heading}")
        for d in block.items:
            self.out.append(f"      • {d.name} — {say(d.message, self.voice)}")

    def _write_AnswerBox(self, block: AnswerBox[Block]) -> None:
        self.out.append(f"    {block.heading}")
        for line in block.lines:
            self.out += line_text(line, self.printer, "      ")

    # -- a report: a table of words, then what it leaves out --------------------------

    def _write_Columns(self, block: Columns) -> None:
        k = block.aligned
        widths = [max(width(r[c]) for r in block.rows) for c in range(k)]
        for r in block.rows:
            cells = [r[c] + " " * (widths[c] - width(r[c])) for c in range(k)]
            self.out.append(("  ".join(cells) + "  " + "  ".join(r[k:])).rstrip())

    def _write_Notice(self, block: Notice) -> None:
        self.out.append(block.text)


def text_blocks(blocks: Sequence[Block], digits: int = 4, indent: str = "  ") -> list[str]:
    """Lines of text for ``blocks``: headings flush left, the rest indented."""
    return TextWriter(digits, indent).lines(blocks)


def render_text(document: Document, digits: int = 4) -> str:
    """A document for the terminal: its title underlined, then its blocks (check's
    feedback and a report: its subtitle, if any, then its blocks)."""
    if document.kind in ("feedback", "report"):
        lines = [] if document.subtitle is None else [document.subtitle]
        lines += TextWriter(digits, lang=document.lang).lines(document)
        return "\n".join(lines) + "\n"
    title = document.title
    rule = "=" * min(width(title), 72)
    return "\n".join([title, rule, *text_blocks(document.blocks, digits)]) + "\n"
