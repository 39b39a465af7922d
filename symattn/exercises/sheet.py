"""Exercise sheets for students and the teacher's document of all keys (LaTeX).

A sheet gives the problem — the tokens and X, or the sentence, the vocabulary and the
embedding table — and, for every step it asks for, a matrix of answer boxes wide
enough for a decimal with the places asked for, and working space under it.
"""

from __future__ import annotations

from ..formula import Name
from ..numbers import Surd
from ..printing import Notation
from ..render import (
    Sentence,
    TexPrinter,
    build_blocks,
    latex_blocks,
    latex_document,
    plain_table,
    sentence,
    text_escape,
    title_of,
)
from ..words import Words, words
from .generate import Exercise
from .given import Given, given_of

__all__ = ["render_sheet", "render_summary"]

#: Lines of working space under a step, by the step's base id (others: 3).
WORKING_LINES = {"tokens": 1, "X": 1, "scores": 5, "scaled_scores": 4, "weights": 8, "output": 6}
#: The answer box: a frame as wide as the widest answer (set per sheet) and one line high.
BOX = "\\newcommand{\\answerbox}[1]{\\fbox{\\rule[-0.45em]{0pt}{1.5em}\\hspace{#1em}}}"


def _boxes(rows: int, cols: int, width: float) -> str:
    cell = f"\\answerbox{{{width:.1f}}}"
    body = " \\\\[10pt] ".join(" & ".join([cell] * cols) for _ in range(rows))
    return "\\begin{bmatrix} " + body + " \\end{bmatrix}"


def _box_width(step_id: str, places: int) -> float:
    """Room for a sign, a few digits, the point and ``places`` decimals (or √ forms)."""
    if step_id.split(".")[-1] == "tokens":
        return 1.6
    return round(0.55 * (places + 4), 1)


def _table(rows: list[list[int]]) -> object:
    return plain_table(tuple(tuple(Surd.rational(v) for v in row) for row in rows))


def _given(exercise: Exercise, given: Given, w: Words, printer: TexPrinter) -> list[str]:
    data = exercise.data
    body: list[str] = []
    if "text" in data:
        body.append(text_escape(w("sheet.sentence")) + " " + text_escape(data["text"]))
        vocab = data["vocab"]
        cells = " & ".join(text_escape(t) for t in vocab)
        ids = " & ".join(str(i) for i in range(len(vocab)))
        body.append(
            text_escape(w("sheet.vocabulary"))
            + f"\n\n\\begin{{tabular}}{{l|{'c' * len(vocab)}}}\n"
            + f"{text_escape(w('sheet.token'))} & {cells} \\\\ \\hline\n"
            + f"{text_escape(w('sheet.id'))} & {ids}\n\\end{{tabular}}"
        )
        lines = [f"E &= {printer.math(_table(data['embedding']))}"]  # type: ignore[arg-type]
        body.append(text_escape(w("sheet.embedding")))
    else:
        tokens = ", ".join(text_escape(t) for t in data["tokens"])
        body.append(text_escape(w("sheet.tokens")) + " " + tokens)
        assert given.X is not None
        lines = [f"{printer.math(Name('X'))} &= {printer.math(given.X)}"]
    lines.append(
        " \\qquad ".join(
            f"{printer.math(Name(name))} = {printer.math(table)}" for name, table in given.compact
        ).replace(" = ", " &= ", 1)
    )
    body.append("\\begin{align*}\n  " + " \\\\\n  ".join(lines) + "\n\\end{align*}")
    return body


def render_sheet(exercise: Exercise, lang: str) -> str:
    """The student's sheet: the given matrices, and boxes and room for each step."""
    w = words(lang)
    printer = TexPrinter(Notation.build("matrix"))
    key, places = exercise.key, exercise.places
    problem = key.problem
    body: list[str] = []
    if exercise.student is None:
        body.append(f"{text_escape(w('sheet.name'))} \\underline{{\\hspace{{6cm}}}}")
    body.append(sentence(Sentence.of(*w.parts("sheet.intro", places=places)), printer))
    body.append(f"\\section*{{{text_escape(w('given'))}}}")
    given = given_of(key, w)  # the sizes first, then the matrices, then the rest
    body += latex_blocks([given.sizes], printer, standalone=False)
    body += _given(exercise, given, w, printer)
    rest = [given.matrices] if given.matrices is not None else []
    body += latex_blocks([*rest, given.scale, *given.notes], printer, standalone=False)
    if problem.mask_label == "causal":
        body.append(sentence(Sentence.of(*w.parts("sheet.causal")), printer))
    for number, step_id in enumerate(exercise.steps, start=1):
        rows, cols = key.step(step_id).shape
        title = title_of(key.step(step_id), w)
        lines = WORKING_LINES.get(step_id.split(".")[-1], 3)
        body.append(f"\\Needspace{{{lines + 2 * rows + 4}\\baselineskip}}")
        body.append(f"\\section*{{{text_escape(w.heading(number, title))}}}")
        boxes = _boxes(rows, cols, _box_width(step_id, places))
        body.append(f"\\[ {printer.math(Name(step_id))} = {boxes} \\]")
        body.append(
            f"\\textit{{{text_escape(w('sheet.working'))}}}\\par\\vspace{{{lines}\\baselineskip}}"
        )
    return latex_document(
        exercise.data["title"],
        "\n\n".join(body) + "\n",
        packages=("amsmath", "xcolor", "needspace"),
        parskip="5pt",
        preamble=(BOX,),
    )


def render_summary(exercises: list[Exercise], lang: str) -> str:
    """The teacher's document: every exercise's full derivation, one section each, run
    on without forced page breaks (a new exercise starts a page only when it must)."""
    w = words(lang)
    printer = TexPrinter(Notation.build("matrix"))
    parts: list[str] = []
    for exercise in exercises:
        parts.append("\\Needspace{12\\baselineskip}")
        parts.append(f"\\section*{{{text_escape(exercise.data['title'])}}}")
        blocks = build_blocks(exercise.key, w)
        parts.append("\n".join(latex_blocks(blocks, printer, standalone=False)).rstrip())
    return latex_document(
        w("sheet.summary"),
        "\n\n".join(parts) + "\n",
        packages=("amsmath", "xcolor", "needspace"),
        parskip="5pt",
    )
