"""HTML: the derivation as one self-contained page, its math in MathML.

The formulas are printed by :class:`~.tex.TexPrinter`, the same LaTeX as the LaTeX
document, and converted to MathML by :mod:`.mathml`; browsers typeset MathML
themselves, so the page needs no script, no font and no network.  The page shell and
its style sheet are :mod:`.html_page`; the heatmap is a table of shaded cells.

>>> import symattn
>>> d = symattn.derive({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> text = render_html(d, symattn.words.words("en"), Notation.build())
>>> text.count("<math") > 10, '<html lang="en">' in text, "\\\\frac" in text
(True, True, False)
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from ..derivation import Derivation
from ..formula import Join, Math
from ..messages import Voice
from ..printing import Notation
from ..version import __version__
from ..words import Words, words
from .blocks import Block, Display, Heading, Heatmap, Sentence
from .html_page import esc, fragment, heatmap_html, page
from .kinds import build_blocks
from .latex import latex_message
from .mathml import display_element, math_element, serialize, split_alignment, text_unescape
from .tex import TexPrinter
from .voice import text_voice

__all__ = [
    "display_html",
    "html_blocks",
    "html_fragment",
    "html_voice",
    "inline_html",
    "message_html",
    "render_html",
    "section_id",
    "sentence_html",
]

_DOLLAR = re.compile(r"(?<!\\)\$")


def inline_html(latex: str) -> str:
    """One inline formula, as MathML."""
    return serialize(math_element(latex))


def message_html(text: str) -> str:
    """A sentence of words whose entry names, roots and ∞ are set as math (as in LaTeX).

    >>> message_html("divide s₂,₁ by √d_k")
    'divide <math display="inline"><mrow><msub><mi>s</mi>...</math> by <math ...</math>'
    """
    pieces = _DOLLAR.split(latex_message(text))
    return "".join(
        inline_html(piece) if k % 2 else esc(text_unescape(piece)) for k, piece in enumerate(pieces)
    )


def sentence_html(block: Sentence, printer: TexPrinter) -> str:
    return f"<p>{''.join(_part_html(p, printer) for p in block.parts)}</p>"


def _part_html(part: str | Math, printer: TexPrinter) -> str:
    if isinstance(part, str):
        return message_html(part)
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


def html_blocks(blocks: list[Block], printer: TexPrinter, level: int = 2) -> str:
    """Blocks as HTML: each heading opens a ``<section>`` with an id."""
    out: list[str] = []
    open_section = False
    for index, block in enumerate(blocks):
        if isinstance(block, Heading):
            if open_section:
                out.append("</section>")
            out.append(f'<section id="{section_id(block, index)}">')
            out.append(f"<h{level}>{esc(block.title)}</h{level}>")
            open_section = True
        elif isinstance(block, Sentence):
            out.append(sentence_html(block, printer))
        elif isinstance(block, Display):
            out.append(display_html(block, printer))
        elif isinstance(block, Heatmap):
            out.append(heatmap_html(block))
        else:  # pragma: no cover - every block kind is handled above
            raise TypeError(f"no HTML form for {type(block).__name__}")
    if open_section:
        out.append("</section>")
    return "\n".join(out)


def contents(blocks: list[Block], w: Words) -> str:
    """A folding list of the sections, linked to their anchors."""
    items = "".join(
        f'<li><a href="#{section_id(b, k)}">{esc(b.title)}</a></li>'
        for k, b in enumerate(blocks)
        if isinstance(b, Heading)
    )
    summary = f"<summary>{esc(w('html.contents'))}</summary>"
    return f'<nav class="toc"><details>{summary}<ol>{items}</ol></details></nav>'


def render_html(
    derivation: Derivation,
    words: Words,
    notation: Notation,
    rows: list[int] | None = None,
    digits: int = 4,
    heads_shown: list[int] | None = None,
) -> str:
    """The derivation as one HTML page in ``words``' language."""
    blocks = build_blocks(derivation, words, rows, digits, heads_shown)
    title = derivation.problem.title or words("title")
    body = "\n".join(
        [
            f'<p class="sub">{esc(words("html.subtitle"))}</p>',
            contents(blocks, words),
            "<main>",
            html_blocks(blocks, TexPrinter(notation, digits)),
            "</main>",
        ]
    )
    footer = esc(words("html.footer", version=__version__))
    return page(title, body, words.lang, footer=footer)


def html_fragment(derivation: Derivation, lang: str = "en", notation: str = "matrix") -> str:
    """The derivation as a fragment of HTML (MathML; no contents list, no page style
    sheet): what a notebook shows for it."""
    w = words(lang)
    blocks = build_blocks(derivation, w, None, 4, None)
    printer = TexPrinter(Notation.build(notation, derivation.problem.renames), 4)
    return fragment(derivation.problem.title or w("title"), html_blocks(blocks, printer), lang)


def html_voice(words: Words, digits: int = 4) -> Voice:
    """HTML: words escaped, formulas and entry names as MathML."""
    plain = text_voice(words, digits)
    return Voice(words, plain.text, plain.math, plain.entry, message_html)
