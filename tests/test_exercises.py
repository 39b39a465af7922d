"""symattn exercises: seeded, distinct, nice, checkable, laid out for a class, compiling."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from symattn.exercises import ExerciseOptions, answers_json, generate
from symattn.numbers import NegInf, round_half_away

from .helpers import run_cli


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    for name in ("a", "b"):
        status, _, err = run_cli(
            ["exercises", "--seed", "5", "--count", "4", "-o", str(tmp_path / name)]
        )
        assert status == 0, err
    first, second = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert first == second
    assert {
        "class.json",
        "students/01/sheet.tex",
        "students/01/answers-template.json",
        "teacher/01/problem.toml",
        "teacher/01/key.tex",
        "teacher/01/answers.json",
        "teacher/keys.tex",
    } <= set(first)
    status, _, _ = run_cli(["exercises", "--seed", "6", "--count", "4", "-o", str(tmp_path / "c")])
    assert _files(tmp_path / "c")["teacher/01/problem.toml"] != first["teacher/01/problem.toml"]


def test_students_get_nothing_of_the_key(tmp_path: Path) -> None:
    status, _, err = run_cli(["exercises", "--seed", "5", "--count", "2", "-o", str(tmp_path)])
    assert status == 0, err
    student = tmp_path / "students" / "01"
    assert sorted(p.name for p in student.iterdir()) == ["answers-template.json", "sheet.tex"]
    template = json.loads((student / "answers-template.json").read_text())
    answers = json.loads((tmp_path / "teacher/01/answers.json").read_text())
    assert list(template) == list(answers)
    assert all(v is None for rows in template.values() for row in rows for v in row)
    assert [len(r) for r in template["weights"]] == [len(r) for r in answers["weights"]]
    sheet = (student / "sheet.tex").read_text()
    for row in answers["weights"]:
        for value in row:
            assert value not in sheet or len(value) < 3, value  # no key value on the sheet


@pytest.mark.parametrize("level", [1, 2, 3])
def test_numbers_are_nice(level: int) -> None:
    options = ExerciseOptions(level=level)
    top = {1: 1, 2: 2, 3: 3}[level]
    exercises = generate(11, 8, options)
    signatures = {json.dumps([e.data[k] for k in ("X", "W_Q", "W_K", "W_V")]) for e in exercises}
    assert len(signatures) == 8  # distinct
    _, d_model, d_k, _ = options.shape
    assert d_k <= d_model
    for exercise in exercises:
        for key in ("X", "W_V"):
            assert all(abs(v) <= top for row in exercise.data[key] for v in row)
        for key in ("W_Q", "W_K"):
            assert all(abs(v) <= 1 for row in exercise.data[key] for v in row)
        key = exercise.key
        assert key.crosscheck is not None and key.crosscheck.passed
        assert exercise.data["scale"] == "sqrt(d_k)" and exercise.data["places"] == 4
        scores = key.step("scores").values
        weights = key.step("weights").values
        for i, row in enumerate(scores):
            values = [float(v) for v in row if v is not None]
            assert len(set(values)) == len(values), f"tie in row {i + 1}"
            assert all(abs(v) / math.sqrt(d_k) <= {1: 3, 2: 5, 3: 8}[level] for v in values)
            top_weight = max(w for w in weights[i] if w is not None)
            assert round_half_away(top_weight, 4) != "1.0000"


def test_d_k_2_keeps_the_square_root_of_2(tmp_path: Path) -> None:
    status, _, err = run_cli(
        ["exercises", "--seed", "3", "--count", "2", "--d-k", "2", "-o", str(tmp_path)]
    )
    assert status == 0, err
    problem = (tmp_path / "teacher/01/problem.toml").read_text()
    assert 'scale = "sqrt(d_k)"' in problem and "places = 4" in problem
    sheet = (tmp_path / "students/01/sheet.tex").read_text()
    assert "divided by $\\sqrt{d_k} = \\sqrt{2}$" in sheet
    answers = json.loads((tmp_path / "teacher/01/answers.json").read_text())
    scaled = [v for row in answers["scaled_scores"] for v in row]
    assert any(len(v.split(".")[-1]) == 4 for v in scaled if "." in v)  # s/√2 to 4 places


def test_default_d_k_is_at_most_d_model_and_splits_over_heads() -> None:
    assert ExerciseOptions(level=2).shape == (3, 3, 2, 2)
    assert ExerciseOptions(level=3).shape[2] == 4
    assert ExerciseOptions(level=3, heads=2).shape[2] == 2
    assert ExerciseOptions(level=1, d_model=1).shape[2] == 1
    assert ExerciseOptions(level=2, tokens=2, d_model=1).shape[2] == 1
    assert ExerciseOptions(level=2, heads=2).shape[2] == 2  # at least 2 but for 2 tokens
    assert ExerciseOptions(level=2, tokens=2, d_model=1, d_k=3).shape[2] == 3  # asked: kept


def test_causal_exercises_keep_masked_weights_exact() -> None:
    exercises = generate(4, 3, ExerciseOptions(mask="causal", level=2))
    for exercise in exercises:
        answers = answers_json(exercise.key)
        assert answers["masked_scores"][0][1] == "-inf"
        assert answers["weights"][0] == ["1", "0", "0"]
        masked = exercise.key.step("masked_scores")
        assert isinstance(masked.exact[0][2], NegInf)


def test_every_generated_answers_file_checks_clean(tmp_path: Path) -> None:
    status, _, err = run_cli(
        ["exercises", "--seed", "9", "--count", "5", "--mask", "causal", "-o", str(tmp_path)]
    )
    assert status == 0, err
    folders = sorted(p for p in (tmp_path / "teacher").iterdir() if p.is_dir())
    assert len(folders) == 5
    for folder in folders:
        status, out, err = run_cli(
            ["check", str(folder / "problem.toml"), str(folder / "answers.json")]
        )
        assert status == 0, out + err
        assert "Verdict: correct" in out


def test_from_text_starts_from_a_sentence(tmp_path: Path) -> None:
    status, _, err = run_cli(
        [
            "exercises",
            "--seed",
            "8",
            "--count",
            "2",
            "--from-text",
            "--lang",
            "zh",
            "-o",
            str(tmp_path),
        ]
    )
    assert status == 0, err
    problem = (tmp_path / "teacher/01/problem.toml").read_text(encoding="utf-8")
    assert "text = " in problem and "vocab = " in problem and "embedding = " in problem
    assert "\nX = " not in problem
    answers = json.loads((tmp_path / "teacher/01/answers.json").read_text(encoding="utf-8"))
    assert list(answers)[:3] == ["tokens", "X", "Q"]  # the lookup is part of the work
    sheet = (tmp_path / "students/01/sheet.tex").read_text(encoding="utf-8")
    assert "词表" in sheet and "嵌入表" in sheet
    status, out, err = run_cli(
        [
            "check",
            str(tmp_path / "teacher/01/problem.toml"),
            str(tmp_path / "teacher/01/answers.json"),
        ]
    )
    assert status == 0, out + err


def test_places_reach_the_problem_the_sheet_and_the_answers(tmp_path: Path) -> None:
    status, _, err = run_cli(["exercises", "--seed", "2", "--places", "3", "-o", str(tmp_path)])
    assert status == 0, err
    assert "places = 3" in (tmp_path / "teacher/01/problem.toml").read_text()
    assert "decimals with 3 places" in (tmp_path / "students/01/sheet.tex").read_text()
    weights = json.loads((tmp_path / "teacher/01/answers.json").read_text())["weights"]
    assert all(len(v.split(".")[1]) == 3 for row in weights for v in row if "." in v)


def test_an_existing_set_is_not_mixed_with_a_new_one(tmp_path: Path) -> None:
    target = tmp_path / "set"
    assert run_cli(["exercises", "--seed", "1", "--count", "3", "-o", str(target)])[0] == 0
    before = _files(target)
    status, _, err = run_cli(["exercises", "--seed", "2", "--count", "2", "-o", str(target)])
    assert status == 2 and "already holds a class set" in err and "--replace" in err
    assert _files(target) == before
    status, _, err = run_cli(
        ["exercises", "--seed", "2", "--count", "2", "-o", str(target), "--replace"]
    )
    assert status == 0, err
    assert not (target / "students" / "03").exists()  # nothing left of the old set
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    status, _, err = run_cli(["exercises", "--seed", "2", "-o", str(other), "--replace"])
    assert status == 2 and "not empty" in err
    assert (other / "notes.txt").read_text() == "mine"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no scratch left


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--heads", "5"], "--heads: expected 1 … 4"),
        (["--level", "4"], "--level"),
        (["--tokens", "20"], "--tokens: expected 1 … 8"),
        (["--count", "0"], "--count: expected 1 … 1000"),
        (["--places", "9"], "--places: expected 1 … 8"),
        (  # refused at once, before anything is drawn (issue 24)
            ["--level", "1", "--tokens", "6"],
            "--tokens: 6 tokens cannot have nice weights with d_model = 2, d_k = 2 at level 1",
        ),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path: Path, argv: list[str], message: str) -> None:
    status, _, err = run_cli(["exercises", "--seed", "1", "-o", str(tmp_path / "x"), *argv])
    assert status == 2
    assert err.startswith("symattn: error:") and message in err and err.count("\n") == 1
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_class_set_compiles(tmp_path: Path) -> None:
    """A sheet, a key and the summary of all keys compile (every document is written by
    the same three functions); the summary has no page left half empty before a key."""
    from .test_latex_compile import _compile, _engine

    status, _, err = run_cli(["exercises", "--seed", "30", "--count", "6", "-o", str(tmp_path)])
    assert status == 0, err
    for document in (
        tmp_path / "students/01/sheet.tex",
        tmp_path / "teacher/04/key.tex",
        tmp_path / "teacher/keys.tex",
    ):
        _compile(document.parent, document.stem, _engine(document.read_text(encoding="utf-8")))
    assert "\\clearpage" not in (tmp_path / "teacher/keys.tex").read_text()


@pytest.mark.slow
def test_causal_text_sheet_compiles(tmp_path: Path) -> None:
    from .test_latex_compile import _compile, _engine

    status, _, err = run_cli(
        ["exercises", "--seed", "2", "--from-text", "--mask", "causal", "-o", str(tmp_path)]
    )
    assert status == 0, err
    for document in (tmp_path / "students/01/sheet.tex", tmp_path / "teacher/01/key.tex"):
        _compile(document.parent, document.stem, _engine(document.read_text(encoding="utf-8")))


@pytest.mark.slow
def test_multi_head_exercises_check_clean_and_compile(tmp_path: Path) -> None:
    from .test_latex_compile import _compile, _engine

    status, _, err = run_cli(
        ["exercises", "--seed", "4", "--count", "2", "--heads", "2", "-o", str(tmp_path)]
    )
    assert status == 0, err
    teacher = tmp_path / "teacher/01"
    assert "heads = 2" in (teacher / "problem.toml").read_text()
    answers = json.loads((teacher / "answers.json").read_text())
    assert {"h1.weights", "h2.weights", "concat", "output"} <= set(answers)
    status, out, err = run_cli(
        ["check", str(teacher / "problem.toml"), str(teacher / "answers.json")]
    )
    assert status == 0, out + err
    sheet = (tmp_path / "students/01/sheet.tex").read_text(encoding="utf-8")
    assert "Head 2 · Softmax: attention weights" in sheet
    for document in (tmp_path / "students/01/sheet.tex", teacher / "key.tex"):
        _compile(document.parent, document.stem, _engine(document.read_text(encoding="utf-8")))


def test_html_writes_a_self_check_page_per_student(tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("name\nAda\n张伟\n", encoding="utf-8")
    status, _, err = run_cli(
        ["exercises", "--seed", "3", "--students", str(roster), "--from-text", "--html",
         "-o", str(tmp_path / "set")]
    )  # fmt: skip
    assert status == 0, err
    for folder in ("Ada", "张伟"):
        page = (tmp_path / "set/students" / folder / "self-check.html").read_text(encoding="utf-8")
        assert 'data-step="tokens"' in page and 'data-step="X"' in page
        assert 'class="vocabulary"' in page  # the whole vocabulary, not the rows looked up
        assert "Ada" in page if folder == "Ada" else "张伟" in page
    assert not (tmp_path / "set/teacher/Ada/self-check.html").exists()


def test_a_self_check_page_never_gives_the_lookup_away() -> None:
    from symattn.compute import derivation
    from symattn.errors import SymattnError
    from symattn.examples import example_path
    from symattn.exercises import render_self_check
    from symattn.load import load

    key = derivation(load(example_path("seed")))
    page = render_self_check(key)  # no vocabulary: the lookup is shown, not asked
    assert 'data-step="tokens"' not in page and 'data-step="X"' not in page
    with pytest.raises(SymattnError, match="only with the whole vocabulary"):
        render_self_check(key, steps=["tokens", "X"])


@pytest.mark.parametrize(
    ("topics", "keys", "steps"),
    [
        (("gqa",), ["kv_heads = 1", "heads = 2"], ["h1.weights", "h2.weights"]),
        (("block",), ["block = true", "W_1 = ", "W_2 = "], ["norm", "ffn_hidden", "block_output"]),
    ],
)
def test_exercises_with_more_of_the_unit(
    tmp_path: Path, topics: tuple[str, ...], keys: list[str], steps: list[str]
) -> None:
    argv = ["exercises", "--seed", "4", "--count", "2", "--with", ",".join(topics)]
    status, _, err = run_cli([*argv, "--mask", "causal", "-o", str(tmp_path)])
    assert status == 0, err
    teacher = tmp_path / "teacher/01"
    problem = (teacher / "problem.toml").read_text()
    assert all(k in problem for k in keys), problem
    answers = json.loads((teacher / "answers.json").read_text())
    assert set(steps) <= set(answers)
    status, out, err = run_cli(
        ["check", str(teacher / "problem.toml"), str(teacher / "answers.json")]
    )
    assert status == 0, out + err
    sheet = (tmp_path / "students/01/sheet.tex").read_text()
    if "block" in topics:
        assert "W_{1}" in sheet or "W_1" in sheet  # the block's weights are given
    manifest = json.loads((tmp_path / "class.json").read_text())
    assert manifest["options"]["with"] == list(topics)


def test_unknown_topics_and_a_block_with_heads_are_refused(tmp_path: Path) -> None:
    for extra, message in (
        (["--with", "gqa,bogus"], "--with: expected some of"),
        (["--with", "block", "--heads", "2"], "--heads: an encoder block exercise has one head"),
    ):
        status, _, err = run_cli(["exercises", "--seed", "1", "-o", str(tmp_path / "x"), *extra])
        assert status == 2 and message in err and err.count("\n") == 1
