"""symattn exercises: seeded, distinct, nice, checkable, and compiling."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from symattn.exercises import ExerciseOptions, answers_json, generate
from symattn.numbers import NegInf, rational_value, round_half_away

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
    assert {"01/problem.toml", "01/sheet.tex", "01/key.tex", "01/answers.json", "keys.tex"} <= set(
        first
    )
    status, _, _ = run_cli(["exercises", "--seed", "6", "--count", "4", "-o", str(tmp_path / "c")])
    assert _files(tmp_path / "c")["01/problem.toml"] != first["01/problem.toml"]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_numbers_are_nice(level: int) -> None:
    options = ExerciseOptions(level=level)
    top = {1: 1, 2: 2, 3: 3}[level]
    exercises = generate(11, 8, options)
    signatures = {json.dumps([e.data[k] for k in ("X", "W_Q", "W_K", "W_V")]) for e in exercises}
    assert len(signatures) == 8  # distinct
    for exercise in exercises:
        for key in ("X", "W_Q", "W_K", "W_V"):
            assert all(abs(v) <= top for row in exercise.data[key] for v in row)
        key = exercise.key
        assert key.crosscheck is not None and key.crosscheck.passed
        assert exercise.data["scale"] == "sqrt(d_k)"
        scaled = key.step("scaled_scores")
        weights = key.step("weights")
        for i, row in enumerate(scaled.exact):
            values = [rational_value(v) for v in row]
            assert all(v is not None and (2 * v).denominator == 1 for v in values), values
            assert len(set(values)) == len(values), f"tie in row {i + 1}"
            top_weight = max(weights.values[i][j] or Decimal(0) for j in range(len(row)))
            assert round_half_away(top_weight, 4) != "1.0000"


def test_d_k_without_a_whole_root_uses_no_scaling(tmp_path: Path) -> None:
    status, _, err = run_cli(
        ["exercises", "--seed", "3", "--count", "2", "--d-k", "2", "-o", str(tmp_path)]
    )
    assert status == 0
    assert 'd_k = 2 has no whole square root, so the exercises use scale = "none"' in err
    assert 'scale = "none"' in (tmp_path / "01" / "problem.toml").read_text()
    assert "is not a" in (tmp_path / "01" / "sheet.tex").read_text()


def test_causal_exercises_keep_masked_weights_exact(tmp_path: Path) -> None:
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
    for folder in sorted(p for p in tmp_path.iterdir() if p.is_dir()):
        status, out, err = run_cli(
            ["check", str(folder / "problem.toml"), str(folder / "answers.json")]
        )
        assert status == 0, out + err
        assert "Verdict: correct" in out


def test_roster_names_the_variants(tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\nAda Lovelace,a@x\n李雷,l@x\nAlan Turing,t@x\n", encoding="utf-8")
    out = tmp_path / "set"
    status, _, err = run_cli(
        ["exercises", "--seed", "1", "--students", str(roster), "--lang", "zh", "-o", str(out)]
    )
    assert status == 0, err
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [
        "Ada_Lovelace",
        "Alan_Turing",
        "李雷",
    ]
    sheet = (out / "李雷" / "sheet.tex").read_text(encoding="utf-8")
    assert "李雷" in sheet and sheet.startswith("% compile with xelatex")
    summary = (out / "keys.tex").read_text(encoding="utf-8")
    assert summary.count("\\section*{注意力练习") == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--heads", "5"], "--heads: expected 1 … 4"),
        (["--level", "4"], "--level"),
        (["--tokens", "20"], "--tokens: expected 1 … 8"),
        (["--count", "0"], "--count: expected 1 … 1000"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path: Path, argv: list[str], message: str) -> None:
    status, _, err = run_cli(["exercises", "--seed", "1", "-o", str(tmp_path), *argv])
    assert status == 2
    assert err.startswith("symattn: error:") and message in err and err.count("\n") == 1


@pytest.mark.slow
def test_class_set_of_30_compiles(tmp_path: Path) -> None:
    """A class set of 30 has 61 documents; a sheet, a key and the summary of all keys are
    compiled (every document is written by the same three functions)."""
    from .test_latex_compile import _compile, _engine

    status, _, err = run_cli(["exercises", "--seed", "30", "--count", "30", "-o", str(tmp_path)])
    assert status == 0, err
    documents = sorted(tmp_path.rglob("*.tex"))
    assert len(documents) == 61
    for document in (
        tmp_path / "01" / "sheet.tex",
        tmp_path / "17" / "key.tex",
        tmp_path / "keys.tex",
    ):
        _compile(document.parent, document.stem, _engine(document.read_text(encoding="utf-8")))


@pytest.mark.slow
def test_unscaled_causal_sheet_compiles(tmp_path: Path) -> None:
    """The notes a sheet adds (no scaling with d_k = 2, the causal mask) are valid LaTeX."""
    from .test_latex_compile import _compile, _engine

    status, _, err = run_cli(
        ["exercises", "--seed", "2", "--d-k", "2", "--mask", "causal", "-o", str(tmp_path)]
    )
    assert status == 0, err
    for name in ("sheet", "key"):
        document = tmp_path / "01" / f"{name}.tex"
        _compile(document.parent, name, _engine(document.read_text(encoding="utf-8")))


@pytest.mark.slow
def test_multi_head_exercises_check_clean_and_compile(tmp_path: Path) -> None:
    from .test_latex_compile import _compile, _engine

    status, _, err = run_cli(
        [
            "exercises",
            "--seed",
            "4",
            "--count",
            "2",
            "--heads",
            "2",
            "--d-k",
            "1",
            "-o",
            str(tmp_path),
        ]
    )
    assert status == 0, err
    folder = tmp_path / "01"
    assert "heads = 2" in (folder / "problem.toml").read_text()
    answers = json.loads((folder / "answers.json").read_text())
    assert {"h1.weights", "h2.weights", "concat", "output"} <= set(answers)
    status, out, err = run_cli(
        ["check", str(folder / "problem.toml"), str(folder / "answers.json")]
    )
    assert status == 0, out + err
    sheet = (folder / "sheet.tex").read_text(encoding="utf-8")
    assert "Head 2 · Softmax: attention weights" in sheet
    for name in ("sheet", "key"):
        document = folder / f"{name}.tex"
        _compile(folder, name, _engine(document.read_text(encoding="utf-8")))
