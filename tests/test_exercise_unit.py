"""Exercises with the parts of attention that are not topics — W_O, cross-attention, the
backward pass — and the decode step, in both layouts.

Each is drawn through the generator, written as the class set writes it (problem.toml),
read back, derived, and the key's own answers are marked all right by ``check``; the
column layout's exercise is the row layout's transposed, step by step; and the whole loop
(sheet, self-check page, Moodle quiz, ``grade``) runs through the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from symattn.check import check
from symattn.exercises import ExerciseOptions, generate
from symattn.exercises.files import answers_json, problem_toml
from symattn.load import load

from .helpers import run_cli, sampled

#: --with, heads → keys problem.toml must hold, steps the sheet must ask for
CASES = [
    ("wo", 1, ["W_O = [["], ["h1.Q", "concat", "output"]),
    ("wo", 2, ["W_O = [[", "heads = 2"], ["h2.weights", "concat", "output"]),
    ("cross", 1, ["memory = [[", "memory_tokens = ["], ["Q", "K", "weights", "output"]),
    ("cross", 2, ["memory = [["], ["h1.K", "h2.V", "output"]),
    ("backward", 1, ["target = [["], ["dO", "dV", "dscores", "dW_Q", "dX"]),
    ("wo,backward", 2, ["W_O = [[", "target = [["], ["dW_O", "dconcat", "h2.dW_K", "dX"]),
    ("decode", 1, ["decode = true", 'mask = "causal"'], ["cache_K", "cache_V", "decode"]),
    ("decode,wo", 2, ["decode = true", "W_O = [["], ["h1.decode", "h2.cache_V", "output"]),
]


def _draw(topics: str, heads: int, layout: str) -> Any:
    options = ExerciseOptions(topics=tuple(topics.split(",")), heads=heads, layout=layout)
    return generate(11, 1, options)[0]


@pytest.mark.parametrize(
    ("topics", "heads", "keys", "steps"),
    [
        c if c[1] == 1 or c[0] == "decode,wo" else pytest.param(*c, marks=pytest.mark.slow)
        for c in CASES
    ],  # two heads search longer: in the slow run, but for one
)
def test_drawn_in_both_layouts(
    topics: str, heads: int, keys: list[str], steps: list[str], tmp_path: Path
) -> None:
    row = _draw(topics, heads, "row")
    column = _draw(topics, heads, "column")
    for exercise in (row, column):
        text = problem_toml(exercise.data)
        for key in keys:
            assert key in text, (key, text)
        for step in steps:
            assert step in exercise.steps
        # the problem file as written derives the key, and the key's answers are all right
        (tmp_path / "problem.toml").write_text(text, encoding="utf-8")
        answers = answers_json(exercise.key, exercise.places, list(exercise.steps))
        result = check(load(tmp_path / "problem.toml"), answers)
        assert result.steps and all(s.status == "correct" for s in result.steps), [
            (s.id, s.status) for s in result.steps if s.status != "correct"
        ]
        assert {s.id for s in result.steps} == set(exercise.steps)
    # one draw, two views: each step of the column exercise is the row one's transpose
    assert column.steps == row.steps
    for step in row.steps:
        rows = row.key.step(step).values
        assert column.key.step(step).values == rows  # a derivation is always in rows
    row_answers = answers_json(row.key, row.places, list(row.steps))
    column_answers = answers_json(column.key, column.places, list(column.steps))
    for step in row.steps:
        assert column_answers[step] == [list(c) for c in zip(*row_answers[step])]


def test_refused_together() -> None:
    from symattn.errors import SymattnError

    for topics, word in [
        (("cross", "decode"), "decode"),
        (("backward", "rope"), "rope"),
        (("cross", "block"), "block"),
        (("backward", "gqa"), "gqa"),
        (("cross", "window"), "window"),
    ]:
        with pytest.raises(SymattnError, match=word):
            ExerciseOptions(topics=topics)
    with pytest.raises(SymattnError, match="at most 4 tokens"):
        ExerciseOptions(topics=("cross",), tokens=5)
    with pytest.raises(SymattnError, match="from-text"):
        ExerciseOptions(topics=("cross",), from_text=True)


@pytest.mark.parametrize(
    ("level", "tokens"),
    sampled([(level, tokens) for tokens in (4, 3, 2) for level in (3, 2, 1)], every=9),
)
def test_cross_draws_at_every_level_it_accepts(level: int, tokens: int) -> None:
    """Its keys are not built, so it draws as it comes: every level at 2 … 4 tokens."""
    options = ExerciseOptions(topics=("cross",), level=level, tokens=tokens)
    (exercise,) = generate(1115, 1, options)
    assert len(exercise.data["memory"]) == max(2, tokens - 1)


@pytest.mark.parametrize(
    ("topics", "layout"),
    sampled(
        [(t, lay) for t in ("wo", "cross", "backward", "decode") for lay in ("row", "column")],
        every=4,
    ),
)
def test_class_loop(topics: str, layout: str, tmp_path: Path) -> None:
    """The command writes the sheets, pages and quiz; grade marks the key's answers full."""
    out = tmp_path / "set"
    quiz = tmp_path / "quiz.xml"
    args = ["exercises", "--seed", "4", "--count", "2", "--with", topics]
    args += ["--layout", layout, "--html", "--moodle", str(quiz), "-o", str(out)]
    status, _, err = run_cli(args)
    assert status == 0, err
    page = (out / "students" / "01" / "self-check.html").read_text(encoding="utf-8")
    given = page[page.index('<section id="given">') :].split("</section>", 1)[0]
    w_o = "<msup><mi>W</mi><mrow><mi>O</mi></mrow></msup>"
    if topics == "wo":  # one head: W_O shown once among the givens, in the page's layout
        assert given.count(w_o) == 1, given.count(w_o)
    assert '<question type="cloze">' in quiz.read_text(encoding="utf-8")
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "01.json").write_bytes((out / "teacher" / "01" / "answers.json").read_bytes())
    _, stdout, _ = run_cli(["grade", str(out), str(subs)])
    first = next(line for line in stdout.splitlines() if line.startswith("01"))
    got, of = first.split()[1].split("/")
    assert got == of and int(of) > 0, stdout
