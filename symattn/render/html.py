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
from typing import TYPE_CHECKING
from xml.etree.ElementTree import Element

from ..formula import Join, Math, Name
from ..messages import Voice, say
from ..printing import Notation
from ..words import Words, words
from .blocks import Display, Heading, Heatmap, Sentence
from .document import Document
from .html_counts import COUNTS_STYLE, bars_html, counts_html, histogram_html, legend_html
from .html_page import esc, fragment, heatmap_html, page
from .html_page_blocks import PageBlockWriter
from .mathml import display_element, math_element, serialize, split_alignment
from .tex import TexPrinter
from .text import MARKS

if TYPE_CHECKING:
    from .block_type import Block
    from .check_blocks import AnswerBox, CheckedStep, Diagnoses, EntryList, Remark, Verdict
    from .report_blocks import Bars, Counts, Headline, Histogram, Legend, SubHeading

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


class HtmlWriter(PageBlockWriter):
    """HTML: each heading opens a ``<section>`` with an id; sentences are paragraphs,
    formulas MathML, the heatmap a table of shaded cells; the self-check page's blocks
    by :class:`~.html_page_blocks.PageBlockWriter`."""

    def __init__(self, printer: TexPrinter, level: int = 2, lang: str = "en") -> None:
        super().__init__()
        self.printer = printer
        self.level = level
        self.index = 0
        self.open_section = False
        self.open_main = False  # check's feedback: <main> opened after the verdict
        self.words = words(lang)

    def lines(self, document: Document | Sequence[Block]) -> list[str]:
        blocks = document.blocks if isinstance(document, Document) else document
        for self.index, block in enumerate(blocks):
            self.write(block)
        if self.open_section:
            self.out.append("</section>")
            self.open_section = False
        if self.open_main:
            self.out.append("</main>")
            self.open_main = False
        return self.out

    def _write_Heading(self, block: Heading) -> None:
        if self.open_section:
            self.out.append("</section>")
        self.out.append(f'<section id="{section_id(block, self.index)}">')
        self.out.append(f"<h{self.level}>{esc(block.title)}</h{self.level}>")
        self.open_section = True

    def voice(self) -> Voice:
        return html_voice(self.words)

    def sentence(self, block: Sentence) -> str:
        return sentence_html(block, self.printer)

    def _write_Sentence(self, block: Sentence) -> None:
        self.out.append(self.sentence(block))

    def _write_Display(self, block: Display) -> None:
        self.out.append(display_html(block, self.printer))

    def _write_Heatmap(self, block: Heatmap) -> None:
        self.out.append(heatmap_html(block))

    # -- check's feedback: the verdict, then a section for each checked step -----------

    def _write_Verdict(self, block: Verdict) -> None:
        self.out += [
            f'<p class="score" data-right="{block.right}" data-answered="{block.answered}">'
            f"{esc(block.score)}</p>",
            f'<p class="verdict {"ok" if block.ok else "bad"}" '
            f'data-verdict="{esc(block.verdict_id)}">{esc(block.verdict)}</p>',
            "<main>",
        ]
        self.open_main = True

    def _write_CheckedStep(self, block: CheckedStep[Block]) -> None:
        mark = "✓" if block.good else ("✗" if block.entries else "·")
        css = "ok" if block.good else "bad"
        badge = f'<span class="badge {css}">{mark} {esc(block.status_word)}</span>'
        flag = f' <span class="bad">{esc(block.page_first_label)}</span>' if block.first else ""
        step = esc(block.step_id)
        self.out += [
            f'<section id="check-{step}" class="step{" first" if block.first else ""}" '
            f'data-step="{step}" data-status="{esc(block.status)}">',
            f"<h2>{esc(block.title)} {badge}{flag}</h2>",
        ]
        for inner in block.blocks:
            self.write(inner)
        self.out.append("</section>")

    def _write_Remark(self, block: Remark) -> None:
        if block.message is None:
            css = ' class="muted"' if block.muted else ""
            self.out.append(f"<p{css}>{esc(block.words)}</p>")
            return
        said = say(block.message, html_voice(self.words))
        self.out.append(f"<p>{esc(block.prefix)} {said}</p>" if block.prefix else f"<p>{said}</p>")

    def _write_EntryList(self, block: EntryList) -> None:
        head = "".join(f'<th scope="col">{esc(h)}</th>' for h in block.heads)
        rows = []
        for e in block.rows:
            name = inline_html(self.printer.notation.entry(block.step_id, e.row - 1, e.col - 1))
            expected = "" if e.expected is None else f"<td>{esc(e.expected)}</td>"
            css = "ok" if e.status == "ok" else "bad"
            spoken, shown = esc(e.spoken), esc(e.label)
            said = f" {shown}" if shown else f'<span class="vh"> {spoken}</span>'
            rows.append(
                f'<tr data-step="{esc(block.step_id)}" data-row="{e.row}" data-col="{e.col}" '
                f'data-status="{esc(e.status)}"><td>{name}</td><td>{esc(e.given)}</td>{expected}'
                f'<td class="{css}" title="{spoken}">{MARKS.get(e.status, "·")}'
                f"{said}</td></tr>"
            )
        self.out.append(
            f'<div class="scroll"><table class="entries"><thead><tr>{head}<td></td></tr>'
            f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
        )

    def _write_Diagnoses(self, block: Diagnoses) -> None:
        voice = html_voice(self.words)
        for d in block.items:
            self.out.append(
                f'<div class="diagnosis" data-diagnosis="{esc(d.id)}"><strong>'
                f"{esc(d.page_name)}</strong> — {say(d.page_message, voice)}</div>"
            )

    def _write_AnswerBox(self, block: AnswerBox[Block]) -> None:
        if not block.lines:  # an empty line, as the page always had
            self.out.append("")
            return
        shown = display_html(Display(block.lines), self.printer)
        self.out.append(f"<p>{esc(block.heading)}</p>" + shown)

    # -- the class at a glance -------------------------------------------------------

    def _write_Headline(self, block: Headline) -> None:
        data = "" if block.most_common is None else f' data-most-common="{esc(block.most_common)}"'
        css = "ok" if block.ok else "bad"
        self.out.append(f'<p class="verdict {css}"{data}>{esc(block.text)}</p>')

    def _write_SubHeading(self, block: SubHeading) -> None:
        self.out.append(f"<h{self.level}>{esc(block.title)}</h{self.level}>")

    def _write_Legend(self, block: Legend) -> None:
        self.out.append(legend_html(block))

    def _write_Bars(self, block: Bars) -> None:
        self.out.append(bars_html(block))

    def _write_Counts(self, block: Counts) -> None:
        self.out.append(counts_html(block))

    def _write_Histogram(self, block: Histogram) -> None:
        self.out.append(histogram_html(block))


def html_blocks(
    blocks: Sequence[Block], printer: TexPrinter, level: int = 2, lang: str = "en"
) -> str:
    """Blocks as HTML: each heading opens a ``<section>`` with an id."""
    return "\n".join(HtmlWriter(printer, level, lang).lines(blocks))


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
    if document.kind == "report":  # the class at a glance: no <main>, its own styles
        parts.append(html_blocks(document.blocks, printer, lang=document.lang))
        return page(document.title, "\n".join(parts), document.lang, head=COUNTS_STYLE)
    if document.kind == "feedback":  # the verdict's blocks open and close <main>
        parts.append(html_blocks(document.blocks, printer, lang=document.lang))
        return page(document.title, "\n".join(parts), document.lang)
    if document.kind == "self_check":  # its blocks hold <main>; its style in the head
        parts.append(html_blocks(document.blocks, printer, lang=document.lang))
        footer = "" if document.footer is None else esc(document.footer)
        head = f"<style>\n{document.style}</style>\n" if document.style else ""
        return page(document.title, "\n".join(parts), document.lang, footer=footer, head=head)
    if document.contents:
        parts.append(contents(document.blocks, w))
    parts += ["<main>", html_blocks(document.blocks, printer), "</main>"]
    footer = "" if document.footer is None else esc(document.footer)
    return page(document.title, "\n".join(parts), document.lang, footer=footer)


def html_fragment(document: Document, printer: TexPrinter) -> str:
    """A document as a fragment of HTML (MathML; no contents list, no page style sheet):
    what a notebook shows for it; check's feedback with its subtitle)."""
    body = html_blocks(document.blocks, printer, lang=document.lang)
    if document.kind == "feedback" and document.subtitle is not None:
        body = f'<p class="sub">{esc(document.subtitle)}</p>\n{body}'
    return fragment(document.title, body, document.lang)


def html_voice(words: Words, digits: int = 4, notation: Notation | None = None) -> Voice:
    """HTML: words escaped, formulas and entry names as MathML."""
    printer = TexPrinter(notation, digits)

    def math(node: object) -> str:
        return inline_html(printer.math(node))  # type: ignore[arg-type]

    def entry(step: str, i: int, j: int) -> str:
        return inline_html(printer.math(Name(step, i, j)))

    return Voice(words, esc, math, entry)
