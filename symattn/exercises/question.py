"""A Moodle quiz's question as a document: what the sheet gives, then a table of Cloze
fields per step asked for (:mod:`.cloze`).

:func:`question_document` makes the blocks — the intro, the Given heading, the sentence
or the tokens, the vocabulary, each given matrix as a table, the scale's, the mask's and
the topics' sentences, the mask's table, then per step its heading and a table whose
cells are its fields (:class:`~symattn.render.ClozeCell`) — and ``render(doc,
"moodle")`` writes them as the question's HTML (:mod:`.moodle` puts that in the XML).

Every step is worth the same: the fields of a step share its weight equally (Cloze
weights are whole numbers, so a step of k entries has fields of weight L / k, L the
least common multiple of the step sizes).

>>> from symattn.compute import derivation
>>> from symattn.load import load
>>> key = derivation(load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                        "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}))
>>> doc = question_document(QuizItem("Ada", key, 4, ("Q",)))
>>> [type(block).__name__ for block in doc.blocks][-2:]
['Heading', 'QuizTable']
"""

from __future__ import annotations

from collections.abc import Sequence
from math import isqrt, lcm

from ..check.pair_tables import pair_tables
from ..check.tables import mistake_tables
from ..derivation import Derivation
from ..errors import SymattnError
from ..formula import Lit, Math, Name, Sym, Value
from ..record import Record
from ..render import (
    Block,
    ClozeCell,
    Document,
    Heading,
    QuizTable,
    Sentence,
    Tokens,
    given_notes,
    scale_note,
    title_of,
    view_of,
)
from ..words import Words, words
from .cloze import entry_fields

__all__ = ["GIVEN", "MAX_WEIGHT", "QuizItem", "question_document", "step_weights"]

#: Matrices a problem may give, in the order a sheet shows them (after X, a topic's that K
#: and V come from; then a topic's).
GIVEN = ("W_Q", "W_K", "W_V", "Q", "K", "V", "W_O")
#: Above this, every field weighs 1 (a step of many entries then weighs more).
MAX_WEIGHT = 10_000


class QuizItem(Record):
    """One question of the quiz: whose it is, its key, and what its sheet asks for."""

    name: str  # the question's name: the student's name, or "Attention exercise 01"
    key: Derivation  # the exact key (symattn.compute.derivation(problem))
    places: int  # decimal places the answers must have (e.g. 4)
    steps: tuple[str, ...]  # step ids the sheet asks for, in order
    #: the vocabulary and its embedding rows, when the exercise starts from a sentence
    vocabulary: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _cells(rows: Sequence[Sequence[object]]) -> tuple[tuple[Math, ...], ...]:
    return tuple(tuple(Value(x) for x in row) for row in rows)


def _given(item: QuizItem, w: Words) -> list[Block]:
    """The blocks of what the problem gives."""
    p = item.key.problem
    out: list[Block] = [Heading(None, w("given"))]
    if p.lookup is not None:
        out.append(Sentence((w("moodle.text"), " ", p.lookup.text)))
    if p.tokens:
        out.append(Tokens(w("sheet.tokens"), tuple(p.tokens)))
    if item.vocabulary:
        out.append(Sentence.of(*w.parts("moodle.vocabulary")))
        embedding = tuple(tuple(Lit(x) for x in row) for _, row in item.vocabulary)
        out.append(QuizTable(None, embedding, tuple(token for token, _ in item.vocabulary)))
    view = view_of(p.layout)  # the matrices as the problem's layout writes them
    rows_of = {"X": p.tokens} if p.keys_from is None else {"X": p.tokens, p.keys_from: p.kv_tokens}
    topic_given = tuple(n for _, c in p.topics for n in c.givens() if n not in rows_of)
    for name in (*rows_of, *GIVEN, *topic_given):
        matrix = p.given(name)
        if matrix is None or name in item.steps:
            continue
        labels = rows_of.get(name)
        labels = None if labels is None else tuple(labels)
        cells = _cells(view.given(name, matrix))
        turned = view.columns and name in rows_of  # tokens above, not beside
        rows, cols = (None, labels) if turned else (labels, None)
        out.append(QuizTable(Name(name), cells, rows, cols))
    out += _sentences(item, w)
    out += given_notes(p, w, view)
    if p.mask is not None and p.mask_label != "causal":
        keep = view.matrix(p.mask)  # keys × queries in the column layout
        out.append(QuizTable(None, tuple(tuple(Lit("1" if k else "0") for k in r) for r in keep)))
    return out


def _sentences(item: QuizItem, w: Words) -> list[Block]:
    """The scale, the mask, and how to type −∞ (the sheet's words where they fit)."""
    p, out = item.key.problem, list[Block]()
    if p.scale is None:
        out.append(Sentence.of(*w.parts(scale_note(p) or "moodle.no_scale")))
    elif p.scale_label == "sqrt(d_k)":
        root = isqrt(p.d_k)
        whole: tuple[str | Math, ...] = (" = ", Lit(str(root))) if root * root == p.d_k else ()
        root_of = Lit(f"√{p.d_k}")
        parts = (w("sheet.scale") + " ", Sym("sqrt_dk"), " = ", root_of, *whole, w("period"))
        out.append(Sentence(parts))
    else:
        out.append(Sentence((w("sheet.scale") + " ", Value(p.scale), w("period"))))
    if p.mask_label == "causal":
        out.append(Sentence.of(*w.parts("sheet.causal")))
    elif p.mask is not None:
        out.append(Sentence.of(*w.parts("moodle.mask")))
    if p.mask is not None and any(s.split(".")[-1] == "masked_scores" for s in item.steps):
        out.append(Sentence.of(*w.parts("moodle.neg_inf")))
    return out


def step_weights(item: QuizItem) -> dict[str, int]:
    """Each step the same total weight, shared by its fields in whole numbers."""
    sizes = {s: item.key.step(s).shape[0] * item.key.step(s).shape[1] for s in item.steps}
    total = lcm(*sizes.values())
    if total > MAX_WEIGHT:
        return dict.fromkeys(sizes, 1)
    return {s: total // size for s, size in sizes.items()}


def question_document(item: QuizItem, lang: str = "en") -> Document:
    """The question's text as a document (its title: the question's name)."""
    if not 0 <= item.places <= 10:
        raise SymattnError(f"{item.name}: places: expected 0 … 10, found {item.places}")
    if not item.steps:
        raise SymattnError(f"{item.name}: no steps to ask for")
    w = words(lang)
    tables = [*mistake_tables(item.key), *pair_tables(item.key)]  # every value, unrounded
    intro = Sentence.of(*w.parts("moodle.intro", places=item.places))
    blocks: list[Block] = [intro, *_given(item, w)]
    weights = step_weights(item)
    view = view_of(item.key.problem.layout)  # each step as the problem's layout writes it
    for number, step_id in enumerate(item.steps, start=1):
        step = item.key.step(step_id)
        fields = entry_fields(item.key, step_id, item.places, weights[step_id], tables, w)
        cells = [[ClozeCell(field.cloze()) for field in row] for row in fields]
        rows, cols = (
            (step.col_labels, step.row_labels)
            if view.columns
            else (step.row_labels, step.col_labels)
        )
        blocks.append(Heading(number, w.heading(number, title_of(step, w))))
        grid = tuple(tuple(row) for row in view.matrix(cells))
        blocks.append(QuizTable(Name(step_id), grid, _labels(rows), _labels(cols)))
    return Document(item.name, tuple(blocks), lang=lang, kind="question")


def _labels(labels: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if labels is None else tuple(labels)
