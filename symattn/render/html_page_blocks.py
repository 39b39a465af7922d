"""HTML for the blocks of a page worked on in a browser (:mod:`.page_blocks`): the
self-check page's main part and given section, a grid of ``<input>`` boxes per step, the
templates of its diagnoses, its data and its scripts inline.

:class:`PageBlockWriter` is the part of :class:`~.html.HtmlWriter` that writes them.
Each box carries ``data-step``, ``data-row`` and ``data-col`` (1-based, as the layout
writes the step) and the ids its script looks for (``in-<step>-<row>-<col>`` and its
mark ``mk-…``); the data is JSON that can stand inside its ``<script>`` element.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..messages import Voice, say
from ..words import Words
from .blocks import Sentence
from .document import BlockWriter
from .html_page import esc
from .mathml import math_element, serialize
from .tex import TexPrinter

if TYPE_CHECKING:
    from .block_type import Block
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
    from .sheet_blocks import Tokens, Vocabulary

__all__ = ["PageBlockWriter", "script_json"]


def script_json(data: Any) -> str:
    """JSON that can stand inside a ``<script>`` element as it is."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class PageBlockWriter(BlockWriter):
    """The HTML writer's methods for the page blocks (and for the inputs the exercise
    sheet shares with the page: its tokens, its vocabulary)."""

    printer: TexPrinter
    words: Words

    def voice(self) -> Voice:
        """How a message is said on this page (:func:`~.html.html_voice`)."""
        raise NotImplementedError

    def sentence(self, block: Sentence) -> str:
        """A sentence as a paragraph (:func:`~.html.sentence_html`)."""
        raise NotImplementedError

    def _write_Main(self, block: Main[Block]) -> None:
        self.out.append("<main>")
        for inner in block.blocks:
            self.write(inner)
        self.out.append("</main>")

    def _write_PageSection(self, block: PageSection[Block]) -> None:
        self.out.append(f'<section id="{esc(block.anchor)}"><h2>{esc(block.title)}</h2>')
        for inner in block.blocks:
            self.write(inner)
        self.out.append("</section>")

    def _write_Tokens(self, block: Tokens) -> None:
        self.out.append(f"<p>{esc(block.label)} {esc(', '.join(block.tokens))}</p>")

    def _write_Vocabulary(self, block: Vocabulary) -> None:
        head = "".join(f"<td>{esc(token)}</td>" for token in block.tokens)
        ids = "".join(f"<td>{i}</td>" for i in range(len(block.tokens)))
        self.out += [
            f"<p>{esc(block.sentence_label)} {esc(block.text)}</p>",
            f"<p>{esc(block.label)}</p>",
            f'<div class="scroll"><table class="vocabulary"><tr><th scope="row">'
            f'{esc(block.token_label)}</th>{head}</tr><tr><th scope="row">'
            f"{esc(block.id_label)}</th>{ids}</tr></table></div>",
        ]

    def _write_MaskMatrix(self, block: MaskMatrix) -> None:
        rows = " \\\\ ".join(" & ".join("1" if k else "0" for k in row) for row in block.keep)
        matrix = math_element(f"\\begin{{bmatrix}} {rows} \\end{{bmatrix}}", display=True)
        said = self.sentence(Sentence(block.parts))
        self.out.append(f'{said}<div class="display">{serialize(matrix)}</div>')

    def _write_Noscript(self, block: Noscript) -> None:
        self.out.append(f"<noscript><p>{esc(block.text)}</p></noscript>")

    def _write_Tally(self, block: Tally) -> None:
        self.out.append('<p class="tally" id="total" aria-live="polite"></p>')

    def _write_HandIn(self, block: HandIn) -> None:
        self.out.append(
            f'<p class="hand-in"><button type="button" data-action="download-answers">'
            f"{esc(block.button)}</button> {esc(block.kept)}</p>"
        )

    def _write_AnswerGrid(self, block: AnswerGrid) -> None:
        n, step = block.number, esc(block.step_id)
        name = serialize(math_element(self.printer.math(block.name)))
        self.out += [
            f'<section id="step-{n}" class="step" data-step="{step}">',
            f'<h2 id="title-{n}">{esc(block.title)} <span class="tally"></span></h2>',
            f'<div class="answer" role="group" aria-labelledby="title-{n}">'
            f'<span class="lhs">{name} =</span>{_grid(block)}</div>',
            '<ul class="notes" aria-live="polite"></ul>',
            '<div class="diagnoses" aria-live="polite"></div>',
            "</section>",
        ]

    def _write_DiagnosisTemplate(self, block: DiagnosisTemplate) -> None:
        said = "" if block.message is None else f" — {say(block.message, self.voice())}"
        self.out.append(
            f'<template data-template="{block.number}"><div class="diagnosis" '
            f'data-diagnosis="{esc(block.mistake_id)}"><strong>{esc(block.name)}</strong>'
            f"{said}</div></template>"
        )

    def _write_PageData(self, block: PageData) -> None:
        self.out.append(
            f'<script type="application/json" id="{esc(block.element_id)}">'
            f"{script_json(block.data)}</script>"
        )

    def _write_Script(self, block: Script) -> None:
        if "</" in block.text:  # would close the inline <script> early
            raise ValueError(f"{block.name} must not contain '</'")
        self.out.append(f"<script>\n{block.text}</script>")


def _grid(block: AnswerGrid) -> str:
    """The boxes as a table laid out as the matrix (its brackets drawn by the style
    sheet on the edge cells: ``l``, ``r``, ``t``, ``b``), the labels beside and above."""
    rows, cols, step = block.rows, block.cols, esc(block.step_id)
    row_labels, col_labels = block.row_labels, block.col_labels
    head = ""
    if col_labels:
        head = "<tr><td></td>" if row_labels else "<tr>"
        head += "".join(f'<th scope="col">{esc(c)}</th>' for c in col_labels) + "</tr>"
    body = []
    for i in range(rows):
        cells = [f'<th scope="row">{esc(row_labels[i])}</th>'] if row_labels else []
        for j in range(cols):
            where = f"{step}-{i + 1}-{j + 1}"
            side = " ".join(c for c, edge in (("l", j == 0), ("r", j == cols - 1)) if edge)
            cells.append(
                f'<td class="{side}"><input type="text" id="in-{where}" '
                f'data-step="{step}" data-row="{i + 1}" data-col="{j + 1}" '
                f'aria-label="{esc(block.entry_names[i][j])}" aria-describedby="mk-{where}" '
                'autocomplete="off" autocapitalize="off" spellcheck="false">'
                f'<span class="mark" id="mk-{where}"></span></td>'
            )
        edge = " ".join(c for c, on in (("t", i == 0), ("b", i == rows - 1)) if on)
        body.append(f'<tr class="{edge}">{"".join(cells)}</tr>')
    return f'<table class="grid" role="presentation">{head}{"".join(body)}</table>'
