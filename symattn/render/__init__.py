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
from typing import Any, Literal, overload

from ..derivation import Derivation, set_presenter
from ..errors import SymattnError
from ..printing import Notation
from ..words import Words, words
from .json_out import json_chunks, json_text
from .kinds import build_blocks
from .latex import render_latex
from .markdown import markdown_blocks, math_only
from .tex import TexPrinter
from .text import render_text

__all__ = ["BINARY_FORMATS", "FORMATS", "RenderOptions", "docx_from", "render", "render_chunks"]

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


set_presenter(render, _html_fragment)
