"""Markdown with ``$…$`` and ``$$…$$`` math, for GitHub, Jupyter and Obsidian.

Every math fragment uses only what KaTeX and MathJax both support (aligned, bmatrix,
array, \\frac, \\sqrt, \\text …); the test suite renders each one with KaTeX.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .blocks import Display, Heading, Heatmap, Sentence
from .document import BlockWriter, Document
from .tex import TexPrinter

if TYPE_CHECKING:
    from .block_type import Block

__all__ = ["MarkdownWriter", "markdown_blocks", "math_fragments", "math_only"]


def _md_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_[]<>|$" else ch for ch in text)


def _one_line(text: str) -> str:
    """A heading is one line: a line break in a title would end it."""
    return " ".join(text.split())


def _display(block: Display, printer: TexPrinter) -> str:
    lines = [text for line in block.lines for text in printer.line(line)]
    if len(lines) == 1 and "&" not in lines[0]:
        return "$$\n" + lines[0] + "\n$$"
    env = "aligned" if printer.mark else "gathered"
    return f"$$\n\\begin{{{env}}}\n" + " \\\\\n".join(lines) + f"\n\\end{{{env}}}\n$$"


def _heatmap(block: Heatmap) -> str:
    """A table of the weights; the shade is a block character per cell."""
    shades = " ░▒▓█"
    head = "| | " + " | ".join(_md_escape(c) for c in block.cols) + " |"
    rule = "|---|" + "---|" * len(block.cols)
    lines = [_md_escape(block.caption), "", head, rule]
    for name, values, labels in zip(block.rows, block.values, block.labels):
        cells = [
            text if text == "⋯" else f"{shades[min(4, int(v * 5))]} {text}"
            for v, text in zip(values, labels)
        ]
        lines.append(f"| {_md_escape(name)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


class MarkdownWriter(BlockWriter):
    """Markdown: ``##`` headings, sentences with ``$…$``, displays in ``$$…$$``, the
    heatmap as a table."""

    def __init__(self, printer: TexPrinter) -> None:
        super().__init__()
        self.printer = printer

    def write(self, block: Block) -> None:
        super().write(block)
        self.out.append("")

    def _write_Heading(self, block: Heading) -> None:
        self.out.append(f"## {_md_escape(_one_line(block.title))}")

    def _write_Sentence(self, block: Sentence) -> None:
        math = self.printer.math
        self.out.append(
            "".join(_md_escape(p) if isinstance(p, str) else f"${math(p)}$" for p in block.parts)
        )

    def _write_Display(self, block: Display) -> None:
        self.out.append(_display(block, self.printer))

    def _write_Heatmap(self, block: Heatmap) -> None:
        self.out.append(_heatmap(block))


def markdown_blocks(document: Document, printer: TexPrinter) -> str:
    """A document in Markdown, under its title."""
    writer = MarkdownWriter(printer)
    writer.out += [f"# {_md_escape(_one_line(document.title))}", ""]
    return "\n".join(writer.lines(document)).rstrip() + "\n"


def math_only(document: Document, printer: TexPrinter) -> str:
    """Only the displayed formulas, each as ``$$…$$`` (for ``_repr_latex_``)."""
    shown = [_display(b, printer) for b in document.blocks if isinstance(b, Display)]
    return "\n".join(shown) + "\n"


def math_fragments(markdown: str) -> list[tuple[str, bool]]:
    """Every math fragment of a Markdown text, with True for display math.

    >>> math_fragments("a $x^2$ b\\n$$\\ny\\n$$\\n")
    [('y', True), ('x^2', False)]
    """
    display = re.findall(r"\$\$\n(.*?)\n\$\$", markdown, re.S)
    rest = re.sub(r"\$\$\n.*?\n\$\$", "", markdown, flags=re.S)
    inline = re.findall(r"(?<![\\$])\$([^$\n]+?)\$", rest)
    return [(m, True) for m in display] + [(m, False) for m in inline]
