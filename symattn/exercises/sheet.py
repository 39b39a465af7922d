"""Exercise sheets for students and the teacher's summary of all keys (LaTeX)."""

from __future__ import annotations

from math import isqrt

from ..check import answer_steps
from ..printing import Notation
from ..render.kinds import build_blocks
from ..render.latex import latex_blocks, latex_message
from ..render.math import Name
from ..render.tex import TexPrinter, text_escape
from ..render.tex_document import document
from ..render.walker import plain_table, title_of
from ..words import words
from .generate import Exercise

__all__ = ["render_sheet", "render_summary"]


def _blank(rows: int, cols: int) -> str:
    cell = "\\underline{\\hspace{3em}}"
    body = " \\\\[6pt] ".join(" & ".join([cell] * cols) for _ in range(rows))
    return "\\begin{bmatrix} " + body + " \\end{bmatrix}"


def render_sheet(exercise: Exercise, lang: str) -> str:
    """The student's sheet: the given matrices, and a blank to fill in for each step."""
    w = words(lang)
    printer = TexPrinter(Notation.build("matrix"))
    key, data = exercise.key, exercise.data
    p = key.problem
    body: list[str] = []
    if exercise.student is None:
        body.append(f"{text_escape(w('sheet.name'))} \\underline{{\\hspace{{6cm}}}}")
    body.append(text_escape(w("sheet.intro")))
    body.append(f"\\section*{{{text_escape(w('given'))}}}")
    tokens = ", ".join(text_escape(t) for t in data["tokens"])
    body.append(text_escape(w("sheet.tokens")) + " " + tokens)
    given = [
        f"{printer.math(Name(m))} &= {printer.math(plain_table(getattr(p, m)))}"
        for m in ("X", "W_Q", "W_K", "W_V")
    ]
    body.append("\\begin{align*}\n  " + " \\\\\n  ".join(given) + "\n\\end{align*}")
    if p.scale is None:
        body.append(latex_message(w("sheet.no_scale", d_k=p.d_k)))
    else:
        body.append(
            text_escape(w("sheet.scale")) + f" $\\sqrt{{d_k}} = \\sqrt{{{p.d_k}}} = "
            f"{isqrt(p.d_k)}$" + w("period")
        )
    if p.mask_label == "causal":
        body.append(latex_message(w("sheet.causal")))
    number = 0
    for step_id in answer_steps(key):
        if step_id == "X":
            continue
        number += 1
        rows, cols = key.step(step_id).shape
        title = title_of(key.step(step_id), w)
        body.append(f"\\section*{{{text_escape(w.heading(number, title))}}}")
        body.append(f"\\[ {printer.math(Name(step_id))} = {_blank(rows, cols)} \\]")
    return document(data["title"], "\n\n".join(body) + "\n", parskip="5pt")


def render_summary(exercises: list[Exercise], lang: str) -> str:
    """The teacher's document: every exercise's full derivation, one section each."""
    w = words(lang)
    printer = TexPrinter(Notation.build("matrix"))
    parts: list[str] = []
    for exercise in exercises:
        parts.append(f"\\section*{{{text_escape(exercise.data['title'])}}}")
        blocks = build_blocks(exercise.key, w)
        parts.append("\n".join(latex_blocks(blocks, printer, standalone=False)).rstrip())
        parts.append("\\clearpage")
    return document(w("sheet.summary"), "\n\n".join(parts) + "\n", parskip="5pt")
