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

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, overload

from ..derivation import Derivation, set_presenter
from ..errors import SymattnError
from ..formula import Sym
from ..steps import Step, StepSpec, set_formula_printer
from ..words import set_math_printer, words
from .block_type import Block
from .blocks import Display, Heading, Heatmap, Sentence
from .build import derivation_document
from .document import BlockWriter, Document, NodePrinter
from .general import formula_text, general_line, general_lines, says_given
from .given import given_notes, scale_note
from .kinds import build_blocks, step_blocks
from .options import BINARY_FORMATS, DOCUMENT_FORMATS, FORMATS, INTERNAL_FORMATS, RenderOptions
from .text import line_text, render_text, text_blocks, width
from .unicode_math import UnicodeMath
from .view import View, view_of
from .voice import text_voice
from .walker import plain_table, title_fact, title_of

if TYPE_CHECKING:  # the writers but the terminal's, and the blocks but a derivation's, load
    # when first asked for (start-up)
    from .check_blocks import (
        AnswerBox,
        CheckedStep,
        Diagnoses,
        DiagnosisItem,
        EntryList,
        EntryRow,
        Remark,
        Verdict,
    )
    from .json_out import dumps
    from .latex import display, latex_blocks, latex_voice, sentence
    from .page_blocks import (
        AnswerGrid,
        DiagnosisTemplate,
        HandIn,
        Main,
        MaskMatrix,
        Noscript,
        PageData,
        PageSection,
        Script,
        Tally,
    )
    from .quiz_blocks import ClozeCell, QuizTable
    from .report_blocks import (
        BarRow,
        Bars,
        Bin,
        Columns,
        CountRow,
        Counts,
        Headline,
        Histogram,
        Legend,
        Notice,
        SubHeading,
    )
    from .sheet_blocks import (
        AnswerBoxes,
        FromKey,
        GivenMatrices,
        KeySection,
        NameLine,
        Tokens,
        Vocabulary,
    )
    from .tex import TexPrinter, text_escape
    from .tex_document import document as latex_document
    from .tex_document import needs_xelatex

#: The blocks of every producer but a derivation (:mod:`.block_type`), loaded at their
#: first use: each line is a module and names it gives.
_BLOCKS = """
check_blocks AnswerBox CheckedStep Diagnoses DiagnosisItem EntryList EntryRow Remark Verdict
page_blocks AnswerGrid DiagnosisTemplate HandIn Main MaskMatrix
page_blocks Noscript PageData PageSection Script Tally
quiz_blocks ClozeCell QuizTable
report_blocks BarRow Bars Bin Columns CountRow Counts Headline Histogram Legend Notice
report_blocks SubHeading
sheet_blocks AnswerBoxes FromKey GivenMatrices KeySection NameLine Tokens Vocabulary
"""
#: The names that load at their first use: name → (module, its name there): those blocks,
#: and the writers but the terminal's.
_LAZY = {
    **{n: ("." + m, n) for m, *names in map(str.split, _BLOCKS.strip().split("\n")) for n in names},
    "dumps": (".json_out", "dumps"),
    "display": (".latex", "display"),
    "latex_blocks": (".latex", "latex_blocks"),
    "latex_voice": (".latex", "latex_voice"),
    "sentence": (".latex", "sentence"),
    "TexPrinter": (".tex", "TexPrinter"),
    "text_escape": (".tex", "text_escape"),
    "latex_document": (".tex_document", "document"),
    "needs_xelatex": (".tex_document", "needs_xelatex"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module, __name__), attribute)
    globals()[name] = value
    return value


__all__ = [
    "BINARY_FORMATS",
    "FORMATS",
    "AnswerBox",
    "AnswerBoxes",
    "AnswerGrid",
    "BarRow",
    "Bars",
    "Bin",
    "Block",
    "BlockWriter",
    "CheckedStep",
    "ClozeCell",
    "Columns",
    "CountRow",
    "Counts",
    "Diagnoses",
    "DiagnosisItem",
    "DiagnosisTemplate",
    "Display",
    "Document",
    "EntryList",
    "EntryRow",
    "FromKey",
    "GivenMatrices",
    "HandIn",
    "Heading",
    "Headline",
    "Heatmap",
    "Histogram",
    "KeySection",
    "Legend",
    "Main",
    "MaskMatrix",
    "NameLine",
    "NodePrinter",
    "Noscript",
    "Notice",
    "PageData",
    "PageSection",
    "QuizTable",
    "Remark",
    "RenderOptions",
    "Script",
    "Sentence",
    "SubHeading",
    "Tally",
    "TexPrinter",
    "Tokens",
    "UnicodeMath",
    "Verdict",
    "View",
    "Vocabulary",
    "build_blocks",
    "derivation_document",
    "display",
    "docx_from",
    "dumps",
    "formula_text",
    "general_line",
    "general_lines",
    "given_notes",
    "html_fragment_of",
    "latex_blocks",
    "latex_document",
    "latex_voice",
    "line_text",
    "needs_xelatex",
    "plain_table",
    "render",
    "render_chunks",
    "says_given",
    "scale_note",
    "sentence",
    "step_blocks",
    "text_blocks",
    "text_escape",
    "text_voice",
    "title_fact",
    "title_of",
    "view_of",
    "width",
]

Target = Derivation | Document


def _options(options: RenderOptions | str, keywords: dict[str, Any]) -> RenderOptions:
    """The options of a call: a :class:`RenderOptions`, or a format and keywords
    (``render(d, "latex", rows=[0, 1])``); the keywords change given options."""
    if isinstance(options, RenderOptions):
        if keywords:
            RenderOptions.of(options.fmt, **keywords)  # an unknown keyword: its error
        return options.but(**keywords)
    return RenderOptions.of(options, **keywords)


@overload
def render(  # a Literal before str, as typeshed's open()
    target: Target, options: Literal["docx", "xlsx"], **keywords: Any
) -> bytes: ...


@overload
def render(target: Target, options: str = ..., **keywords: Any) -> str: ...


@overload
def render(target: Target, options: RenderOptions, **keywords: Any) -> str | bytes: ...


def render(target: Target, options: RenderOptions | str = "text", **keywords: Any) -> str | bytes:
    """A derivation or a document in one format: text, json, latex (fragment), tex
    (document), markdown, html (a self-contained page), moodle (a document: a Moodle
    quiz question's text, :mod:`.moodle_html`), or the bytes of a file: docx
    (Word, native equations), xlsx (a workbook of live formulas).

    ``options`` is a :class:`RenderOptions`, or the format with the options as keywords:
    ``lang`` (en, zh) and ``notation`` (matrix, token) apply to every format that has
    words or names (JSON: the titles); ``rows`` (0-based) and ``heads_shown`` (1-based)
    are the rows and heads written out entry by entry, each checked against the problem.
    JSON and xlsx write a derivation's data, so they take a derivation only.
    """
    opts = _options(options, keywords)
    if isinstance(target, Document):
        return write(target, opts)
    if opts.fmt == "moodle":
        raise SymattnError("moodle: writes a quiz question's document, not a derivation")
    derivation = target
    opts.fit(derivation.problem.n, derivation.problem.heads)
    opts.names(derivation.problem.renames)  # checked, for every format
    if opts.fmt == "json":
        from .json_out import json_text

        return json_text(derivation, opts.words, opts.digits)
    if opts.fmt == "xlsx":  # the spreadsheet writer loads when asked for (derive's start-up)
        from .xlsx import render_xlsx

        return render_xlsx(derivation, opts.words, opts.digits)
    return write(derivation_document(derivation, opts), opts)


def write(doc: Document, options: RenderOptions) -> str | bytes:
    """A document in the format of ``options``, by that format's writer."""
    fmt = options.fmt
    if fmt not in DOCUMENT_FORMATS:
        raise SymattnError(
            f"{fmt}: a document of blocks is written as one of "
            f"{', '.join(f for f in DOCUMENT_FORMATS if f not in INTERNAL_FORMATS)}; "
            f"{fmt} writes a derivation"
        )
    names = options.names(doc.renames)
    if fmt == "text":
        return render_text(doc, options.digits)
    if fmt == "moodle":  # a quiz question's text: plain HTML, Unicode formulas
        from .moodle_html import render_moodle

        return render_moodle(doc, options.digits)
    # each writer but the terminal's loads when it is asked for (derive's start-up)
    from .markdown import markdown_blocks, math_only
    from .tex import TexPrinter

    if fmt in ("latex", "tex"):
        from .latex import render_latex

        return render_latex(doc, TexPrinter(names, options.digits), standalone=fmt == "tex")
    if fmt == "markdown":
        return markdown_blocks(doc, TexPrinter(names, options.digits))
    if fmt == "docx":  # no alignment points: editors other than Word do not align
        markdown = markdown_blocks(doc, TexPrinter(names, options.digits, aligned=False))
        return docx_from(markdown, "markdown", doc.lang, doc.title)
    if fmt == "html":
        from .html import render_html

        return render_html(doc, TexPrinter(names, options.digits))
    return math_only(doc, TexPrinter(names, options.digits))


def render_chunks(
    target: Target, options: RenderOptions | str = "text", **keywords: Any
) -> Iterator[str]:
    """``render(target, options)`` in pieces, to be written as they come: JSON row by
    row (:func:`~.json_out.json_chunks`), every other format in one piece."""
    opts = _options(options, keywords)
    if opts.fmt in BINARY_FORMATS:
        raise SymattnError(f"{opts.fmt}: a binary format; use render(), which gives its bytes")
    if opts.fmt != "json" or isinstance(target, Document):
        text = render(target, opts)
        assert isinstance(text, str)
        yield text
        return
    opts.fit(target.problem.n, target.problem.heads)
    opts.names(target.problem.renames)
    from .json_out import json_chunks

    yield from json_chunks(target, opts.words, opts.digits)


def docx_from(text: str, source_format: str, lang: str, title: str | None = None) -> bytes:
    """``text`` (``markdown`` or ``latex``) as the bytes of a Word document
    (:func:`.docx.docx_from`, loaded at its first use)."""
    from .docx import docx_from as convert

    return convert(text, source_format, lang, title)


def html_fragment_of(document: Document, options: RenderOptions | None = None) -> str:
    """A document as a fragment of HTML (no page style sheet): what a notebook shows
    (:func:`.html.html_fragment`, loaded at its first use)."""
    from .html import html_fragment
    from .tex import TexPrinter

    opts = options or RenderOptions("html", lang=document.lang)
    return html_fragment(document, TexPrinter(opts.names(document.renames), opts.digits))


def _html_fragment(derivation: Derivation) -> str:
    """:func:`.html.html_fragment` (Jupyter's ``_repr_html_``), loaded at its first use."""
    from .html import html_fragment
    from .tex import TexPrinter

    options = RenderOptions("html")
    doc = derivation_document(derivation, options)
    return html_fragment(doc, TexPrinter(options.names(doc.renames), options.digits))


def _plain_math(name: str) -> str:
    """The math a sentence names, as plain text says it (the terminal's Unicode)."""
    return UnicodeMath().math(Sym(name))


set_presenter(render, _html_fragment)


def _formula(spec: StepSpec) -> str:
    """A step's general formula as JSON writes it in the row layout, in English."""
    return formula_text(spec, words("en"))


def _step_html(step: Step) -> str:
    """Jupyter's view of one step: its title, its general formula and its table (a whole
    number or fraction exactly, else 4 decimal places), with the tokens as labels."""
    import re
    from html import escape

    def shown(i: int, j: int) -> str:
        exact = step.exact_str(i, j)
        if re.fullmatch(r"-?\d+(/\d+)?", exact):
            return exact
        return step.decimal_str(i, j, 4) or exact

    rows, cols = step.shape
    head = "".join(f"<th>{escape(c)}</th>" for c in (step.col_labels or ()))
    lines = [f"<tr><th></th>{head}</tr>"] if head else []
    for i in range(rows):
        label = f"<th>{escape(step.row_labels[i])}</th>" if step.row_labels else ""
        cells = "".join(f"<td>{escape(shown(i, j))}</td>" for j in range(cols))
        lines.append(f"<tr>{label}{cells}</tr>")
    title = title_of(step, words("en"))
    return (
        f'<div class="symattn"><p><b>{escape(title)}</b> ({escape(step.id)}, {rows} × '
        f"{cols}): {escape(step.formula)}</p><table>{''.join(lines)}</table></div>"
    )


setattr(Step, "_repr_html_", _step_html)  # noqa: B010  (steps.py is a layer below)
set_formula_printer(_formula)
set_math_printer(_plain_math)
