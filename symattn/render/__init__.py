"""Renderers: each reads a Derivation and writes one output format; none computes.

The walk (:mod:`.kinds`) turns a derivation into format-neutral blocks; each format
writes those blocks: the terminal (:mod:`.text`), LaTeX (:mod:`.latex`), Markdown
(:mod:`.markdown`), HTML (:mod:`.html`); JSON (:mod:`.json_out`) writes the steps' data.

>>> import symattn
>>> d = symattn.derive({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> render(d, "latex").splitlines()[0]
'% symattn derivation: needs \\\\usepackage{amsmath}'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, overload

from ..derivation import Derivation, set_presenter
from ..errors import SymattnError
from ..printing import Notation
from ..words import Words, words
from .blocks import Block, Display, Heading, Heatmap, Sentence
from .given import given_notes, scale_note
from .json_out import dumps, json_chunks, json_text
from .kinds import build_blocks, step_blocks
from .latex import display, latex_blocks, latex_message, render_latex, sentence
from .markdown import markdown_blocks, math_only
from .tex import TexPrinter, text_escape
from .tex_document import document, needs_xelatex
from .text import line_text, render_text, text_blocks, width
from .unicode_math import UnicodeMath
from .view import View, view_of
from .voice import latex_voice, text_voice
from .walker import plain_table, title_fact, title_of

if TYPE_CHECKING:  # loaded when first asked for (derive's start-up): see __getattr__
    from .html import display_html, html_voice, inline_html, message_html, sentence_html
    from .html_page import esc, fragment, page
    from .mathml import math_element, serialize

__all__ = [
    "BINARY_FORMATS",
    "FORMATS",
    "Block",
    "Display",
    "Heading",
    "Heatmap",
    "RenderOptions",
    "Sentence",
    "TexPrinter",
    "UnicodeMath",
    "View",
    "build_blocks",
    "display",
    "display_html",
    "document",
    "docx_from",
    "dumps",
    "esc",
    "fragment",
    "given_notes",
    "html_voice",
    "inline_html",
    "latex_blocks",
    "latex_message",
    "latex_voice",
    "line_text",
    "math_element",
    "message_html",
    "needs_xelatex",
    "page",
    "plain_table",
    "render",
    "render_chunks",
    "scale_note",
    "sentence",
    "sentence_html",
    "serialize",
    "step_blocks",
    "text_blocks",
    "text_escape",
    "text_voice",
    "title_fact",
    "title_of",
    "view_of",
    "width",
]

FORMATS = ("text", "json", "latex", "tex", "markdown", "html", "docx", "xlsx")
#: The formats whose :func:`render` is bytes (a file to write, not text to print).
BINARY_FORMATS = ("docx", "xlsx")


@dataclass(frozen=True)
class RenderOptions:
    """How a derivation is rendered; checked when built, the allowed values in the error.

    ``rows`` are the 0-based query rows written out entry by entry (default: the first);
    ``heads_shown`` the 1-based heads whose rows are written out (default: all).
    """

    fmt: str = "text"
    lang: str = "en"
    notation: str = "matrix"
    rows: tuple[int, ...] | None = None
    digits: int = 4
    heads_shown: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.fmt not in (*FORMATS, "math"):
            raise SymattnError(f"format: expected one of {', '.join(FORMATS)}, found {self.fmt!r}")
        words(self.lang)  # raises with the languages there are
        if not 0 <= self.digits <= 30:
            raise SymattnError(f"digits: expected 0 … 30, found {self.digits}")

    @property
    def words(self) -> Words:
        return words(self.lang)


@overload
def render(  # type: ignore[overload-overlap]  # a Literal before str, as typeshed's open()
    derivation: Derivation,
    fmt: Literal["docx", "xlsx"],
    *,
    lang: str = ...,
    notation: str = ...,
    rows: list[int] | None = ...,
    digits: int = ...,
    heads_shown: list[int] | None = ...,
) -> bytes: ...


@overload
def render(
    derivation: Derivation,
    fmt: str = ...,
    *,
    lang: str = ...,
    notation: str = ...,
    rows: list[int] | None = ...,
    digits: int = ...,
    heads_shown: list[int] | None = ...,
) -> str: ...


def render(
    derivation: Derivation,
    fmt: str = "text",
    *,
    lang: str = "en",
    notation: str = "matrix",
    rows: list[int] | None = None,
    digits: int = 4,
    heads_shown: list[int] | None = None,
) -> str | bytes:
    """The derivation in one format: text, json, latex (fragment), tex (document), markdown,
    html (a self-contained page), or the bytes of a file: docx (Word, native equations),
    xlsx (a workbook of live formulas).

    ``lang`` (en, zh) and ``notation`` (matrix, token) apply to every format that has
    words or names (JSON: the titles).
    """
    options = RenderOptions(
        fmt,
        lang,
        notation,
        tuple(rows) if rows is not None else None,
        digits,
        tuple(heads_shown) if heads_shown is not None else None,
    )
    language = options.words
    names = Notation.build(notation, derivation.problem.renames)
    if fmt == "json":
        return json_text(derivation, language, digits)
    if fmt in ("latex", "tex"):
        return render_latex(
            derivation,
            standalone=fmt == "tex",
            words=language,
            notation=names,
            rows=rows,
            digits=digits,
            heads_shown=heads_shown,
        )
    # the HTML, Word and spreadsheet writers load when asked for (derive's start-up)
    if fmt == "xlsx":
        from .xlsx import render_xlsx

        return render_xlsx(derivation, language, digits)
    if fmt == "html":
        from .html import render_html

        return render_html(derivation, language, names, rows, digits, heads_shown)
    blocks = build_blocks(derivation, language, rows, digits, heads_shown)
    title = derivation.problem.title or language("title")
    if fmt == "text":
        return render_text(blocks, title, digits)
    if fmt == "markdown":
        return markdown_blocks(blocks, title, TexPrinter(names, digits))
    if fmt == "docx":  # no alignment points: editors other than Word do not align
        markdown = markdown_blocks(blocks, title, TexPrinter(names, digits, aligned=False))
        return docx_from(markdown, "markdown", lang, title)
    return math_only(blocks, TexPrinter(names, digits))


def render_chunks(derivation: Derivation, fmt: str = "text", **options: Any) -> Iterator[str]:
    """``render(derivation, fmt, **options)`` in pieces, to be written as they come:
    JSON row by row (:func:`~.json_out.json_chunks`), every other format in one piece."""
    if fmt in BINARY_FORMATS:
        raise SymattnError(f"{fmt}: a binary format; use render(), which gives its bytes")
    if fmt != "json":
        yield render(derivation, fmt, **options)
        return
    digits = options.get("digits", 4)
    checked = RenderOptions(fmt, options.get("lang", "en"), digits=digits)
    Notation.build(options.get("notation", "matrix"), derivation.problem.renames)
    yield from json_chunks(derivation, checked.words, digits)


def docx_from(text: str, source_format: str, lang: str, title: str | None = None) -> bytes:
    """``text`` (``markdown`` or ``latex``) as the bytes of a Word document
    (:func:`.docx.docx_from`, loaded at its first use)."""
    from .docx import docx_from as convert

    return convert(text, source_format, lang, title)


def _html_fragment(derivation: Derivation) -> str:
    """:func:`.html.html_fragment` (Jupyter's ``_repr_html_``), loaded at its first use."""
    from .html import html_fragment

    return html_fragment(derivation)


#: The names loaded with the HTML writer, at their first use.
_HTML = ("display_html", "html_voice", "inline_html", "message_html", "sentence_html")
_HTML_PAGE = ("esc", "fragment", "page")
_MATHML = ("math_element", "serialize")


def __getattr__(name: str) -> Any:
    """The HTML writer's names, imported when first asked for: ``derive`` to the terminal
    never loads the HTML writer."""
    if name in _HTML:
        from . import html

        return getattr(html, name)
    if name in _HTML_PAGE:
        from . import html_page

        return getattr(html_page, name)
    if name in _MATHML:
        from . import mathml

        return getattr(mathml, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


set_presenter(render, _html_fragment)
