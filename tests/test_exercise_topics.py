"""Exercises on the rest of the attention unit: ``exercises --with …`` and ``--layout column``.

Each topic's class set is made through the command, its key is checked against its own
problem file (so the file loads and derives the same steps), and each view of what is
given — the sheet, the self-check page and the Moodle quiz — shows what the topic adds.
"""

from __future__ import annotations

import csv
import json
import math
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from symattn.compute import derivation
from symattn.exercises import ExerciseOptions, generate
from symattn.load import load
from symattn.load.files import read_file

from .helpers import run_cli

#: topics, extra options → what problem.toml holds, steps asked, steps not asked, and a
#: word of what the topic gives that the sheet (LaTeX), the self-check page (HTML) and the
#: quiz (Moodle HTML) must each show.
CASES = [
    (
        ("positions",),
        [],
        ["positions = [["],
        ["X_pos", "Q"],
        ["P"],  # a given P is not asked
        ("P &= \\begin{bmatrix}", "Positions: P is given", "<p>P =</p>"),
    ),
    (
        ("positions",),
        ["--level", "3", "--tokens", "3"],
        ['positions = "sinusoidal"'],
        ["P", "X_pos"],
        [],
        ("sinusoidal table", "sinusoidal table", "sinusoidal table"),
    ),
    (
        ("rope",),
        [],
        ["rope = true"],
        ["Q_rot", "K_rot"],
        [],
        ("RoPE: before the scores", "RoPE: before the scores", "RoPE: before the scores"),
    ),
    (
        ("temperature",),
        [],
        ['temperature = "2"'],
        ["scaled_scores", "weights"],
        [],
        ("\\tau", "temperature divides", "τ = 2"),
    ),
    (
        ("additive",),
        [],
        ['score = "additive"', "W_a = ", "U_a = ", "v_a = "],
        ["additive_hidden", "scores", "weights"],
        ["scaled_scores"],
        ("W^{a} &= ", "Additive scores", "W<sub>a</sub>"),
    ),
    (
        ("positions", "block"),
        [],
        ["positions = [[", "block = true"],
        ["X_pos", "residual", "block_output"],
        ["P"],
        ("W_{1}", "encoder block", "W<sub>1</sub>"),
    ),
    (
        ("rope", "gqa"),
        [],
        ["rope = true", "kv_heads = 1", "heads = 2"],
        ["h1.Q_rot", "h2.K_rot", "output"],
        [],
        ("RoPE", "one key/value head", "one key/value head"),
    ),
]


@pytest.mark.parametrize(("topics", "extra", "keys", "asked", "not_asked", "shown"), CASES)
def test_a_topic_exercise_is_made_checked_and_shown(
    tmp_path: Path,
    topics: tuple[str, ...],
    extra: list[str],
    keys: list[str],
    asked: list[str],
    not_asked: list[str],
    shown: tuple[str, str, str],
) -> None:
    quiz = tmp_path / "quiz.xml"
    argv = ["exercises", "--seed", "5", "--count", "2", "--with", ",".join(topics), *extra]
    status, _, err = run_cli([*argv, "--html", "--moodle", str(quiz), "-o", str(tmp_path / "c")])
    assert status == 0, err
    teacher = tmp_path / "c/teacher/01"
    problem = (teacher / "problem.toml").read_text()
    assert all(k in problem for k in keys), problem
    if "additive" in topics:
        assert "scale = " not in problem  # additive scores are not scaled
    answers = json.loads((teacher / "answers.json").read_text())
    assert set(asked) <= set(answers) and not set(not_asked) & set(answers), list(answers)
    status, out, err = run_cli(
        ["check", str(teacher / "problem.toml"), str(teacher / "answers.json")]
    )
    assert status == 0, out + err  # the key is right for the problem file the teacher holds
    student = tmp_path / "c/students/01"
    sheet, page = (student / "sheet.tex").read_text(), (student / "self-check.html").read_text()
    assert shown[0] in sheet, sheet
    assert shown[1] in page
    assert shown[2] in quiz.read_text(encoding="utf-8")
    manifest = json.loads((tmp_path / "c/class.json").read_text())
    assert manifest["options"]["with"] == list(topics)


def test_rope_makes_d_k_even_and_positions_start_at_0_and_1() -> None:
    (ex,) = generate(1, 1, ExerciseOptions(level=1, topics=("rope", "positions")))
    assert ex.key.problem.d_k == 2  # level 1 has d_k = 1; RoPE turns pairs
    p = ex.data["positions"]
    assert p[0] == ["0", "1"] and p[1] == ["0.8", "0.5"]  # sin 1 ≈ 0.8415, cos 1 ≈ 0.5403
    assert ex.key.crosscheck is not None and ex.key.crosscheck.passed


def test_the_column_layout_writes_tokens_as_columns_and_names_a_row_answer(
    tmp_path: Path,
) -> None:
    argv = ["exercises", "--seed", "2", "--layout", "column", "--with", "temperature"]
    argv += ["--mask", "causal", "--tokens", "4", "--html", "-o", str(tmp_path / "c")]
    status, _, err = run_cli(argv)
    assert status == 0, err
    teacher = tmp_path / "c/teacher/01"
    data = read_file(teacher / "problem.toml")
    assert data["layout"] == "column"
    assert len(data["X"]) == 3 and len(data["X"][0]) == 4  # d_model × n
    assert len(data["W_Q"]) == 2 and len(data["W_Q"][0]) == 3  # d_k × d_model
    key = derivation(load(data))
    # computed in rows (n × d_k), written in columns (d_k × n)
    assert key.step("weights").shape == (4, 4) and key.step("Q").shape == (4, 2)
    assert len(json.loads((teacher / "answers.json").read_text())["Q"]) == 2
    answers = json.loads((teacher / "answers.json").read_text())
    status, out, err = run_cli(
        ["check", str(teacher / "problem.toml"), str(teacher / "answers.json")]
    )
    assert status == 0, out + err
    rows = {k: [list(r) for r in zip(*v)] for k, v in answers.items()}  # the row layout
    row_file = tmp_path / "rows.json"
    row_file.write_text(json.dumps(rows))
    status, out, _ = run_cli(
        ["check", str(teacher / "problem.toml"), str(row_file), "--format", "json"]
    )
    assert status == 1
    report = json.loads(out)
    assert report["first_error"] == "Q"
    assert report["steps"][0]["diagnosis"][0]["id"] == "column_layout_transposed"
    sheet = (tmp_path / "c/students/01/sheet.tex").read_text()
    assert "Column layout" in sheet
    assert "W^{Q} &= \\begin{bmatrix} " in sheet
    w_q = sheet.split("W^{Q} &= \\begin{bmatrix} ")[1].split("\\end{bmatrix}")[0]
    assert w_q.count("\\\\") == 1  # two rows: d_k × d_model, as the column layout writes it


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--with", "rope", "--d-k", "3"], "--d-k: RoPE turns pairs of columns"),
        (["--with", "gqa,block"], "--with: gqa and block do not go together"),
        (["--layout", "diagonal"], "--layout"),
        (["--places", "0"], "--places: expected 1 … 8, found 0"),  # once 30 s, then a wrong hint
        (["--with", "block", "--d-v", "2"], "--d-v: an encoder block adds the attention output"),
        (["--tokens", "1"], "--tokens: expected 2 … 8"),
    ],
)
def test_combinations_not_derived_are_refused_in_one_line(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    status, _, err = run_cli(["exercises", "--seed", "1", "-o", str(tmp_path / "x"), *extra])
    assert status == 2 and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    "extra",
    [
        ["--heads", "2"],
        ["--heads", "2", "--with", "gqa"],
        ["--with", "rope,positions"],
        ["--with", "additive"],
        ["--with", "block"],
        ["--from-text"],
    ],
)
def test_the_column_layout_takes_every_topic_and_its_key_checks_itself(
    tmp_path: Path, extra: list[str]
) -> None:
    """The column layout is a view: every exercise the row layout draws, it draws too,
    and the teacher's own answers (written in columns) check as correct."""
    argv = ["exercises", "--seed", "3", "--layout", "column", "-o", str(tmp_path / "c"), *extra]
    status, _, err = run_cli(argv)
    assert status == 0, err
    teacher = tmp_path / "c/teacher/01"
    assert read_file(teacher / "problem.toml")["layout"] == "column"
    status, out, err = run_cli(
        ["check", str(teacher / "problem.toml"), str(teacher / "answers.json")]
    )
    assert status == 0, out + err


def test_topic_exercises_are_reproducible(tmp_path: Path) -> None:
    argv = ["exercises", "--seed", "9", "--count", "3", "--with", "positions,rope,temperature"]
    for name in ("a", "b"):
        status, _, err = run_cli([*argv, "-o", str(tmp_path / name)])
        assert status == 0, err
    for path in (tmp_path / "a").rglob("*"):
        if path.is_file():
            assert (
                path.read_bytes()
                == (tmp_path / "b" / path.relative_to(tmp_path / "a")).read_bytes()
            )


def test_a_topic_class_is_graded_against_each_problem(tmp_path: Path) -> None:
    argv = ["exercises", "--seed", "6", "--count", "2", "--with", "positions,rope,temperature"]
    status, _, err = run_cli([*argv, "-o", str(tmp_path / "c")])
    assert status == 0, err
    subs = tmp_path / "subs"
    subs.mkdir()
    right = json.loads((tmp_path / "c/teacher/01/answers.json").read_text())
    (subs / "01.json").write_text(json.dumps(right))
    wrong = json.loads((tmp_path / "c/teacher/02/answers.json").read_text())
    wrong["Q_rot"] = wrong["Q"]  # forgot to turn the queries
    (subs / "02.json").write_text(json.dumps(wrong))
    report = tmp_path / "grades.csv"
    status, out, err = run_cli(["grade", str(tmp_path / "c"), str(subs), "--report", str(report)])
    assert status == 0, out + err
    rows = {r["name"]: r for r in csv.DictReader(report.read_text(encoding="utf-8").splitlines())}
    assert float(rows["01"]["percent"]) == 100.0 and rows["01"]["Q_rot"] == "1"
    assert 0 < float(rows["02"]["percent"]) < 100.0 and rows["02"]["first_error"] == "Q_rot"


def test_a_softmax_over_tanh_scores_and_an_exact_one_is_evaluated() -> None:
    # found by the property test: with a causal mask a row of weights mixed a score that
    # is an exact number with tanh scores, and the engine sent it to ball arithmetic
    (ex,) = generate(0, 1, ExerciseOptions(level=1, mask="causal", topics=("additive",)))
    assert ex.key.crosscheck is not None and ex.key.crosscheck.passed


@pytest.mark.slow
def test_feedback_on_rotated_entries_compiles(tmp_path: Path) -> None:
    """A rotated query's entry is q̂ in a message and an exact fraction near a sin/cos
    key gets a note with ≈: both are set as LaTeX math, and the PDF is made."""
    if shutil.which("latexmk") is None or shutil.which("pdftotext") is None:
        pytest.skip("needs latexmk and pdftotext")
    argv = ["exercises", "--seed", "6", "--count", "2", "--with", "positions,rope,temperature"]
    assert run_cli([*argv, "-o", str(tmp_path / "c")])[0] == 0
    subs = tmp_path / "subs"
    subs.mkdir()
    for folder in ("01", "02"):
        answers = json.loads((tmp_path / f"c/teacher/{folder}/answers.json").read_text())
        near = Fraction(answers["Q_rot"][2][0]).limit_denominator(10)  # exact, and near
        answers["Q_rot"][2][0] = str(near)
        if folder == "02":
            answers["K_rot"] = answers["K"]  # the keys not turned
        (subs / f"{folder}.json").write_text(json.dumps(answers))
    feedback = tmp_path / "fb"
    status, out, err = run_cli(
        ["grade", str(tmp_path / "c"), str(subs), "--feedback", str(feedback)]
    )
    assert status == 0 and "could not be made" not in err, out + err
    for folder in ("01", "02"):
        assert (feedback / f"{folder}.pdf").exists(), err
    text = subprocess.run(
        ["pdftotext", str(feedback / "02.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "was read as an exact value" in text and "≈" in text


@pytest.mark.slow
def test_a_check_report_with_unicode_signs_compiles_with_pdflatex(tmp_path: Path) -> None:
    """A student's −2 (U+2212), 9√2/4, and a message with ≤ and →: pdflatex has no glyph
    for them in text, so they are set as math (a feedback PDF failed on them)."""
    if shutil.which("latexmk") is None:
        pytest.skip("needs latexmk")
    answers = {
        "scores": [["2", "5", "−1"], ["5", "−1", "0"], ["1", "2", "3"]],
        "scaled_scores": [["√2", "5√2/2 ≤ 4", "x→y"], ["0", "1", "2"], ["1", "1", "1"]],
    }
    path = tmp_path / "a.json"
    path.write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    tex = tmp_path / "report.tex"
    status, out, err = run_cli(
        ["check", "symattn/examples/causal.toml", str(path), "--format", "latex", "-o", str(tex)]
    )
    assert status == 1, out + err
    assert tex.read_text(encoding="utf-8").startswith("% compile with pdflatex")
    made = subprocess.run(
        ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", tex.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stdout[-2000:]


def test_column_layout_mistakes_speak_of_columns(tmp_path: Path) -> None:
    """A column-layout student who normalised each row is told the softmax runs down the
    columns (not the row layout's sentence), in English and Chinese; a student who worked
    everything in rows is told that alone, once per step."""
    argv = ["exercises", "--seed", "1", "--layout", "column", "--with", "temperature"]
    assert run_cli([*argv, "--mask", "causal", "-o", str(tmp_path / "c")])[0] == 0
    problem = tmp_path / "c/teacher/01/problem.toml"
    key = json.loads((tmp_path / "c/teacher/01/answers.json").read_text())
    masked = [
        [-math.inf if str(x) == "-inf" else float(x) for x in r] for r in key["masked_scores"]
    ]
    along_rows = []
    for row in masked:  # keys × queries, each row normalised: the row layout's softmax
        exps = [math.exp(x) for x in row]
        along_rows.append([f"{e / sum(exps):.4f}" for e in exps])
    (tmp_path / "rows.json").write_text(json.dumps({**key, "weights": along_rows}))
    for lang, words in (
        ("en", "every column of the weights sums to 1"),
        ("zh", "每一列的权重之和为 1"),
    ):
        status, out, _ = run_cli(
            ["check", str(problem), str(tmp_path / "rows.json"), "--format", "json", "--lang", lang]
        )
        report = json.loads(out)
        (weights,) = [s for s in report["steps"] if s["id"] == "weights"]
        assert [d["id"] for d in weights["diagnosis"]] == ["softmax_wrong_axis"]
        assert words in weights["diagnosis"][0]["message"]
    transposed = {k: [list(r) for r in zip(*v)] for k, v in key.items()}
    (tmp_path / "all-rows.json").write_text(json.dumps(transposed))
    status, out, _ = run_cli(
        ["check", str(problem), str(tmp_path / "all-rows.json"), "--format", "json"]
    )
    assert status == 1
    named = {s["id"]: [d["id"] for d in s["diagnosis"]] for s in json.loads(out)["steps"]}
    assert named["Q"] == ["column_layout_transposed"]
    for step_id, ids in named.items():  # (a step right from the student's own is not named)
        assert ids in ([], ["column_layout_transposed"]), step_id


def test_no_token_has_a_value_of_zeros_in_either_layout() -> None:
    # found by a user review: seed 5, column layout, gave V = [[0, 2, -2], [0, 4, -5]]
    for layout in ("column", "row"):
        options = ExerciseOptions(layout=layout, topics=("temperature",), mask="causal")
        for exercise in generate(5, 3, options):
            v = exercise.key.step("V").values
            tokens = list(zip(*v)) if layout == "column" else v
            assert all(any(x != 0 for x in token) for token in tokens), (layout, v)
