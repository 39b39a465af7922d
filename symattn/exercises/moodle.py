"""A Moodle XML question bank: one Cloze ("embedded answers") question per exercise.

Each question shows what the sheet gives (tokens, X, the W's, the scale, the mask) as HTML
tables — not LaTeX, which depends on a Moodle site's filters — then, step by step, a table
with one field per entry (:mod:`.cloze`).  Every step is worth the same: the fields of a
step share its weight equally (Cloze weights are whole numbers, so a step of k entries has
fields of weight L / k, L the least common multiple of the step sizes).

>>> from symattn.compute import derivation
>>> from symattn.load import load
>>> key = derivation(load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                        "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}))
>>> xml = moodle_quiz([QuizItem("Ada", key, 4, ("Q",))])
>>> xml.count('<question type="cloze">'), "{1:NUMERICAL:=1:0.0001#Right.}" in xml
(1, True)
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import isqrt, lcm

from ..check.pair_tables import pair_tables
from ..check.tables import mistake_tables
from ..derivation import Derivation
from ..errors import SymattnError
from ..printing import TERMINAL, pretty
from ..render import given_notes, scale_note, text_blocks, title_of, view_of
from ..words import Words, words
from .cloze import Field, entry_fields, tolerance

__all__ = ["QuizItem", "moodle_quiz"]

#: Matrices a problem may give, in the order a sheet shows them (then a topic's).
GIVEN = ("X", "memory", "W_Q", "W_K", "W_V", "Q", "K", "V", "W_O")
#: Above this, every field weighs 1 (a step of many entries then weighs more).
MAX_WEIGHT = 10_000
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class QuizItem:
    """One question of the quiz: whose it is, its key, and what its sheet asks for."""

    name: str  # the question's name: the student's name, or "Attention exercise 01"
    key: Derivation  # the exact key (symattn.compute.derivation(problem))
    places: int  # decimal places the answers must have (e.g. 4)
    steps: tuple[str, ...]  # step ids the sheet asks for, in order
    #: the vocabulary and its embedding rows, when the exercise starts from a sentence
    vocabulary: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _esc(text: object) -> str:
    return html.escape(str(text), quote=False)


def _name_html(mid: str) -> str:
    """``W_Q`` → ``W<sub>Q</sub>``; ``h1.Q`` → ``Q⁽¹⁾``."""
    return re.sub(r"_(\w+)", r"<sub>\1</sub>", _esc(TERMINAL.matrix(mid)))


def _table(
    cells: Sequence[Sequence[str]],
    rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None,
) -> str:
    """An HTML table of ready-made cells, with optional row and column labels."""
    out = ['<table border="1" cellpadding="4" style="border-collapse:collapse">']
    if cols:
        head = "".join(f"<th>{_esc(c)}</th>" for c in cols)
        out.append(f"<tr>{'<th></th>' if rows else ''}{head}</tr>")
    for i, row in enumerate(cells):
        label = f"<th>{_esc(rows[i])}</th>" if rows else ""
        out.append("<tr>" + label + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    return "".join(out) + "</table>"


def _matrix(
    name: str,
    cells: Sequence[Sequence[str]],
    rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None,
) -> str:
    return f"<p>{_name_html(name)} =</p>{_table(cells, rows, cols)}"


def _given(item: QuizItem, w: Words) -> list[str]:
    """The blocks of what the problem gives."""
    p = item.key.problem
    out = [f"<h3>{_esc(w('given'))}</h3>"]
    if p.lookup is not None:
        out.append(f"<p>{_esc(w('moodle.text'))} {_esc(p.lookup.text)}</p>")
    if p.tokens:
        out.append(f"<p>{_esc(w('sheet.tokens'))} {_esc(', '.join(p.tokens))}</p>")
    if item.vocabulary:
        out.append(f"<p>{_esc(w('moodle.vocabulary'))}</p>")
        tokens = [token for token, _ in item.vocabulary]
        out.append(_table([[_esc(x) for x in row] for _, row in item.vocabulary], tokens))
    view = view_of(p.layout)  # the matrices as the problem's layout writes them
    topic_given = tuple(name for _, config in p.topics for name in config.givens())
    for name in (*GIVEN, *topic_given):
        matrix = p.given(name)
        if matrix is None or name in item.steps:
            continue
        labels = p.tokens if name == "X" else p.memory_tokens if name == "memory" else None
        matrix = view.given(name, matrix)
        cells = [[_esc(pretty(x)) for x in row] for row in matrix]
        turned = view.columns and name in ("X", "memory")  # tokens above, not beside
        out.append(_matrix(name, cells, None, labels) if turned else _matrix(name, cells, labels))
    out.extend(f"<p>{_esc(text)}</p>" for text in _sentences(item, w))
    notes = text_blocks(list(given_notes(p, w, view)), indent="")
    out.extend(f"<p>{_esc(text)}</p>" for text in notes if text.strip())
    if p.mask is not None and p.mask_label != "causal":
        keep = view.matrix(p.mask)  # keys × queries in the column layout
        out.append(_table([["1" if k else "0" for k in row] for row in keep]))
    return out


def _sentences(item: QuizItem, w: Words) -> list[str]:
    """The scale, the mask, and how to type −∞ (the sheet's words where they fit)."""
    p, out = item.key.problem, []
    if p.scale is None:
        out.append(w(scale_note(p) or "moodle.no_scale"))
    elif p.scale_label == "sqrt(d_k)":
        root = isqrt(p.d_k)
        whole = f" = {root}" if root * root == p.d_k else ""
        out.append(f"{w('sheet.scale')} √d_k = √{p.d_k}{whole}{w('period')}")
    else:
        out.append(f"{w('sheet.scale')} {pretty(p.scale)}{w('period')}")
    if p.mask_label == "causal":
        out.append(w("sheet.causal"))
    elif p.mask is not None:
        out.append(w("moodle.mask"))
    if p.mask is not None and any(s.split(".")[-1] == "masked_scores" for s in item.steps):
        out.append(w("moodle.neg_inf"))
    return out


def _weights(item: QuizItem) -> dict[str, int]:
    """Each step the same total weight, shared by its fields in whole numbers."""
    sizes = {s: item.key.step(s).shape[0] * item.key.step(s).shape[1] for s in item.steps}
    total = lcm(*sizes.values())
    if total > MAX_WEIGHT:
        return dict.fromkeys(sizes, 1)
    return {s: total // size for s, size in sizes.items()}


def _question_text(item: QuizItem, w: Words) -> str:
    if not 0 <= item.places <= 10:
        raise SymattnError(f"{item.name}: places: expected 0 … 10, found {item.places}")
    if not item.steps:
        raise SymattnError(f"{item.name}: no steps to ask for")
    tables = [*mistake_tables(item.key), *pair_tables(item.key)]  # every value, unrounded
    blocks = [f"<p>{_esc(w('moodle.intro', places=item.places))}</p>", *_given(item, w)]
    weights = _weights(item)
    view = view_of(item.key.problem.layout)  # each step as the problem's layout writes it
    for number, step_id in enumerate(item.steps, start=1):
        step = item.key.step(step_id)
        fields = entry_fields(item.key, step_id, item.places, weights[step_id], tables, w)
        labels = (
            (step.col_labels, step.row_labels)
            if view.columns
            else (step.row_labels, step.col_labels)
        )
        blocks.append(f"<h3>{_esc(w.heading(number, title_of(step, w)))}</h3>")
        blocks.append(_matrix(step_id, view.matrix(_cells(fields)), *labels))
    return "<div>\n" + "\n".join(blocks) + "\n</div>"


def _cells(fields: list[list[Field]]) -> list[list[str]]:
    return [[field.cloze() for field in row] for row in fields]


def _cdata(text: str) -> str:
    """A CDATA section; a ``]]>`` inside is split across two sections."""
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _xml_text(text: str) -> str:
    return html.escape(text, quote=False)


def _category(path: str) -> str:
    full = path if path.startswith("$") else f"$course$/top/{path}"
    return (
        '  <question type="category">\n'
        f"    <category>\n      <text>{_xml_text(full)}</text>\n    </category>\n"
        "  </question>\n"
    )


def _question(item: QuizItem, w: Words) -> str:
    general = w("moodle.general", tolerance=tolerance(item.places))
    return (
        '  <question type="cloze">\n'
        f"    <name>\n      <text>{_xml_text(item.name)}</text>\n    </name>\n"
        '    <questiontext format="html">\n'
        f"      <text>{_cdata(_question_text(item, w))}</text>\n"
        "    </questiontext>\n"
        '    <generalfeedback format="html">\n'
        f"      <text>{_cdata(f'<p>{_esc(general)}</p>')}</text>\n"
        "    </generalfeedback>\n"
        "    <penalty>0.3333333</penalty>\n"
        "    <hidden>0</hidden>\n"
        "  </question>\n"
    )


def moodle_quiz(items: Sequence[QuizItem], lang: str = "en", category: str | None = None) -> str:
    """A Moodle XML question bank (Question bank → Import → Moodle XML format): a
    category when given (``Week 5`` is put under ``$course$/top/``), then one Cloze
    question per item.  See docs/moodle.md."""
    w = words(lang)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n']
    if category is not None:
        parts.append(_category(category))
    parts.extend(_question(item, w) for item in items)
    parts.append("</quiz>\n")
    return _NOT_XML.sub("", "".join(parts))
