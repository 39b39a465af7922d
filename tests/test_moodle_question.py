"""The Moodle question is a document (issue 20): :func:`question_document` makes its
blocks — the given matrices as tables, one table of Cloze fields per step asked for —
and render's ``moodle`` writer writes the question's HTML, which the quiz puts in its XML."""

from __future__ import annotations

from typing import Any

import pytest

from symattn.check import answer_steps
from symattn.compute import derivation
from symattn.errors import SymattnError
from symattn.exercises import QuizItem, moodle_quiz, question_document
from symattn.formula import Name
from symattn.load import load
from symattn.render import FORMATS, ClozeCell, Document, QuizTable, render

from .moodle_reader import read_fields, read_quiz

PROBLEM: dict[str, Any] = {
    "tokens": ["<a>", "b&c", "d"],
    "X": [[1, 0, 2], [0, 1, 1], [2, 1, 0]],
    "W_Q": [[1, 0], [0, 2], [1, 1]],
    "W_K": [[0, 1], [1, 0], [2, 1]],
    "W_V": [[1, 2], [0, 1], [1, 0]],
    "mask": [[1, 0, 1], [1, 1, 0], [0, 1, 1]],
}


@pytest.mark.parametrize("layout", ["row", "column"])
def test_the_question_is_a_document_of_tables(layout: str) -> None:
    data = dict(PROBLEM, layout=layout)
    if layout == "column":  # tokens are columns: X and the W's transposed
        data.update({k: [list(c) for c in zip(*PROBLEM[k])] for k in ("X", "W_Q", "W_K", "W_V")})
    key = derivation(load(data))
    steps = tuple(s for s in answer_steps(key) if s != "X")
    item = QuizItem("Ada & <Bo>", key, 4, steps)
    doc = question_document(item, "en")
    assert isinstance(doc, Document) and doc.title == item.name and doc.lang == "en"
    tables = [b for b in doc.blocks if isinstance(b, QuizTable)]
    asked = [t for t in tables if any(isinstance(c, ClozeCell) for r in t.cells for c in r)]
    assert [t.name for t in asked] == [Name(s) for s in steps]  # one table a step, in order
    for table, step_id in zip(asked, steps):
        assert all(isinstance(c, ClozeCell) for r in table.cells for c in r)
        rows, cols = key.step(step_id).shape
        assert (len(table.cells), len(table.cells[0])) == (
            (cols, rows) if layout == "column" else (rows, cols)
        )
    given = [t.name for t in tables if t not in asked]
    assert given == [Name("X"), Name("W_Q"), Name("W_K"), Name("W_V"), None]  # None: the mask
    # writing the document gives the question's text, which the quiz puts in its XML
    text = render(doc, "moodle")
    ((name, written),) = read_quiz(moodle_quiz([item]))
    assert name == item.name and written == text
    assert len(read_fields(text)) == sum(len(r) for t in asked for r in t.cells)
    cloze = asked[0].cells[0][0]
    assert isinstance(cloze, ClozeCell) and f"<td>{cloze.markup}</td>" in text  # as it is
    assert "<th>&lt;a&gt;</th>" in text and "<th>b&amp;c</th>" in text  # words escaped
    assert "<p>W<sub>Q</sub> =</p>" in text and "<math" not in text and "\\(" not in text


def test_the_moodle_format_is_the_librarys_own() -> None:
    """The command offers no ``--format moodle``: it writes a quiz question's document,
    which the quiz makes; a derivation is not one."""
    assert "moodle" not in FORMATS
    key = derivation(load(PROBLEM))
    with pytest.raises(SymattnError, match="moodle: writes a quiz question's document"):
        render(key, "moodle")
