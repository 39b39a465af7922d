"""HTML: the derivation as one self-contained page, its math in MathML.

The formulas are printed by :class:`~.tex.TexPrinter`, the same LaTeX as the LaTeX
document, and converted to MathML by :mod:`.mathml`; browsers typeset MathML
themselves, so the page needs no script, no font and no network.  The page shell and
its style sheet are :mod:`.html_page`; the heatmap is a table of shaded cells.

>>> import symattn
>>> d = symattn.derive({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> text = symattn.render(d, "html")
>>> text.count("<math") > 10, '<html lang="en">' in text, "\\\\frac" in text
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree.ElementTree import Element

from ..formula import Join, Math, Name
from ..messages import Voice
from ..printing import Notation
from ..words import Words, words
from .blocks import Block, Display, Heading, Heatmap, Sentence
from .document import BlockWriter, Document
from .html_page import esc, fragment, heatmap_html, page
from .mathml import display_element, math_element, serialize, split_alignment
from .tex import TexPrinter

__all__ = [
    "HtmlWriter",
    "display_html",
    "html_blocks",
    "html_fragment",
    "html_voice",
    "inline_html",
    "render_html",
    "section_id",
    "sentence_html",
]


def inline_html(latex: str) -> str:
    """One inline formula, as MathML."""
    return serialize(math_element(latex))


def sentence_html(block: Sentence, printer: TexPrinter) -> str:
    return f"<p>{''.join(_part_html(p, printer) for p in block.parts)}</p>"


def _part_html(part: str | Math, printer: TexPrinter) -> str:
    if isinstance(part, str):
        return esc(part)
    if isinstance(part, Join) and part.sep == "dims":  # one formula each: a line may break
        last = len(part.items) - 1  # the comma inside its formula: no line starts with one
        return "\u2003".join(  # an em space, as \quad on paper
            inline_html(printer.math(item) + ("," if k < last else ""))
            for k, item in enumerate(part.items)
        )
    return inline_html(printer.math(part))


def display_element_of(block: Display, printer: TexPrinter) -> Element:
    lines = [text for line in block.lines for text in printer.line(line)]
    if len(lines) == 1:
        return math_element("".join(split_alignment(lines[0])), display=True)
    return display_element(lines)


def display_html(block: Display, printer: TexPrinter) -> str:
    """Displayed lines in a box that scrolls sideways when they are wider than the page."""
    return f'<div class="display">{serialize(display_element_of(block, printer))}</div>'


def section_id(heading: Heading, index: int) -> str:
    """The anchor of a section: ``step-3``; ``part-0`` for Given, Result."""
    return f"step-{heading.number}" if heading.number is not None else f"part-{index}"


class HtmlWriter(BlockWriter):
    """HTML: each heading opens a ``<section>`` with an id; sentences are paragraphs,
    formulas MathML, the heatmap a table of shaded cells."""

    def __init__(self, printer: TexPrinter, level: int = 2) -> None:
        super().__init__()
        self.printer = printer
        self.level = level
        self.index = 0
        self.open_section = False

    def lines(self, document: Document | Sequence[Block]) -> list[str]:
        blocks = document.blocks if isinstance(document, Document) else document
        for self.index, block in enumerate(blocks):
            self.write(block)
        if self.open_section:
            self.out.append("</section>")
            self.open_section = False
        return self.out

    def _write_Heading(self, block: Heading) -> None:
        if self.open_section:
            self.out.append("</section>")
        self.out.append(f'<section id="{section_id(block, self.index)}">')
        self.out.append(f"<h{self.level}>{esc(block.title)}</h{self.level}>")
        self.open_section = True

    def _write_Sentence(self, block: Sentence) -> None:
        self.out.append(sentence_html(block, self.printer))

    def _write_Display(self, block: Display) -> None:
        self.out.append(display_html(block, self.printer))

    def _write_Heatmap(self, block: Heatmap) -> None:
        self.out.append(heatmap_html(block))


def html_blocks(blocks: Sequence[Block], printer: TexPrinter, level: int = 2) -> str:
    """Blocks as HTML: each heading opens a ``<section>`` with an id."""
    return "\n".join(HtmlWriter(printer, level).lines(blocks))


def contents(blocks: Sequence[Block], w: Words) -> str:
    """A folding list of the sections, linked to their anchors."""
    items = "".join(
        f'<li><a href="#{section_id(b, k)}">{esc(b.title)}</a></li>'
        for k, b in enumerate(blocks)
        if isinstance(b, Heading)
    )
    summary = f"<summary>{esc(w('html.contents'))}</summary>"
    return f'<nav class="toc"><details>{summary}<ol>{items}</ol></details></nav>'


def render_html(document: Document, printer: TexPrinter) -> str:
    """A document as one HTML page in its language: its subtitle and a list of its
    sections first when it has them, its footer last."""
    w = words(document.lang)
    parts = [] if document.subtitle is None else [f'<p class="sub">{esc(document.subtitle)}</p>']
    if document.contents:
        parts.append(contents(document.blocks, w))
    parts += ["<main>", html_blocks(document.blocks, printer), "</main>"]
    footer = "" if document.footer is None else esc(document.footer)
    return page(document.title, "\n".join(parts), document.lang, footer=footer)


def html_fragment(document: Document, printer: TexPrinter) -> str:
    """A document as a fragment of HTML (MathML; no contents list, no page style sheet):
    what a notebook shows for it."""
    return fragment(document.title, html_blocks(document.blocks, printer), document.lang)


def html_voice(words: Words, digits: int = 4, notation: Notation | None = None) -> Voice:
    """HTML: words escaped, formulas and entry names as MathML."""
    printer = TexPrinter(notation, digits)

    def math(node: object) -> str:
        return inline_html(printer.math(node))  # type: ignore[arg-type]

    def entry(step: str, i: int, j: int) -> str:
        return inline_html(printer.math(Name(step, i, j)))

    return Voice(words, esc, math, entry)
