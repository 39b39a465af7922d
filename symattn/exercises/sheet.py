"""Exercise sheets for students and the teacher's document of all keys (LaTeX).

A sheet gives the problem — the tokens and X, or the sentence, the vocabulary and the
embedding table — and, for every step it asks for, a matrix of answer boxes wide
enough for a decimal with the places asked for, and working space under it.  Both the
sheet and the teacher's keys are documents (:func:`sheet_document`,
:func:`summary_document`) written by the LaTeX writer of :mod:`symattn.render`.
"""

from __future__ import annotations

from ..formula import Lit, Math, Name
from ..numbers import Surd
from ..render import (
    AnswerBoxes,
    Block,
    Document,
    FromKey,
    GivenMatrices,
    Heading,
    KeySection,
    NameLine,
    Sentence,
    Tokens,
    Vocabulary,
    build_blocks,
    plain_table,
    render,
    title_of,
)
from ..words import Words, words
from .generate import Exercise
from .given import Given, given_of

__all__ = ["render_sheet", "render_summary", "sheet_document", "summary_document"]

#: Lines of working space under a step, by the step's base id (others: 3).
WORKING_LINES = {"tokens": 1, "X": 1, "scores": 5, "scaled_scores": 4, "weights": 8, "output": 6}


def _box_width(step_id: str, places: int) -> float:
    """Room for a sign, a few digits, the point and ``places`` decimals (or √ forms)."""
    if step_id.split(".")[-1] == "tokens":
        return 1.6
    return round(0.55 * (places + 4), 1)


def _table(rows: list[list[int]]) -> Math:
    return plain_table(tuple(tuple(Surd.rational(v) for v in row) for row in rows))


def _given(exercise: Exercise, given: Given, w: Words) -> list[Block]:
    """The inputs: the sentence, its vocabulary and the embedding table, or the tokens
    and X; then W_Q, W_K, W_V side by side."""
    data = exercise.data
    blocks: list[Block] = []
    first: tuple[Math, Math]
    if "text" in data:
        labels = (w("sheet.vocabulary"), w("sheet.token"), w("sheet.id"))
        blocks.append(Vocabulary(w("sheet.sentence"), data["text"], *labels, tuple(data["vocab"])))
        blocks.append(Sentence.of(*w.parts("sheet.embedding")))
        first = (Lit("E"), _table(data["embedding"]))
    else:
        blocks.append(Tokens(w("sheet.tokens"), tuple(data["tokens"])))
        assert given.X is not None
        first = (Name("X"), given.X)
    compact = tuple((Name(name), table) for name, table in given.compact)
    return [*blocks, GivenMatrices(first, compact)]


def sheet_document(exercise: Exercise, lang: str) -> Document:
    """The student's sheet as a document: the given matrices, and boxes and room for
    each step."""
    w = words(lang)
    key, places = exercise.key, exercise.places
    blocks: list[Block] = []
    if exercise.student is None:
        blocks.append(NameLine(w("sheet.name")))
    blocks.append(Sentence.of(*w.parts("sheet.intro", places=places)))
    blocks.append(Heading(None, w("given")))
    given = given_of(key, w)  # the sizes first, then the matrices, then the rest
    blocks.append(FromKey((given.sizes,)))
    blocks += _given(exercise, given, w)
    rest = [given.matrices] if given.matrices is not None else []
    blocks.append(FromKey((*rest, given.scale, *given.notes)))
    if key.problem.mask_label == "causal":
        blocks.append(Sentence.of(*w.parts("sheet.causal")))
    for number, step_id in enumerate(exercise.steps, start=1):
        rows, cols = key.step(step_id).shape
        heading = w.heading(number, title_of(key.step(step_id), w))
        lines = WORKING_LINES.get(step_id.split(".")[-1], 3)
        width = _box_width(step_id, places)
        working = w("sheet.working")
        blocks.append(AnswerBoxes(heading, Name(step_id), rows, cols, width, working, lines))
    return Document(exercise.data["title"], tuple(blocks), lang=lang, kind="sheet")


def render_sheet(exercise: Exercise, lang: str) -> str:
    """The student's sheet (LaTeX): :func:`sheet_document` written by the LaTeX writer."""
    return render(sheet_document(exercise, lang), "tex", lang=lang)


def summary_document(exercises: list[Exercise], lang: str) -> Document:
    """The teacher's keys as a document: every exercise's full derivation, one section
    each."""
    w = words(lang)
    sections = tuple(
        KeySection(exercise.data["title"], tuple(build_blocks(exercise.key, w)))
        for exercise in exercises
    )
    return Document(w("sheet.summary"), sections, lang=lang, kind="sheet")


def render_summary(exercises: list[Exercise], lang: str) -> str:
    """The teacher's document (LaTeX): every exercise's full derivation, one section
    each, run on without forced page breaks (a new exercise starts a page only when it
    must)."""
    return render(summary_document(exercises, lang), "tex", lang=lang)
