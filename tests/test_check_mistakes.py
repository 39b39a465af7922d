"""Diagnosis that survives real work: new mistake models, backward steps, skipped steps,
scientific notation, two mistakes at once, feedback a student can read.

Every student answer here is made by the independent reference computation
(tests/reference.py), never by symattn's own engine.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.check import check
from symattn.check.feedback import render_feedback_latex, render_feedback_text
from symattn.check.tables import mistake_tables
from symattn.cli import main
from symattn.examples import example_path
from symattn.numbers import round_half_away

from . import reference

#: d_model = d_v = 2 (inputs can be summed instead of values), n = m = 3, scores with no
#: ties and not symmetric; a target for the gradients.
SQUARE: dict[str, Any] = {
    "X": [[1, 0], [0, 2], [1, 1]],
    "W_Q": [[1, "1/2"], [0, 1]],
    "W_K": [[2, -1], ["1/2", 1]],
    "W_V": [[1, 2], [-1, 1]],
    "target": [[1, 0], [0, 1], [1, 1]],
}
CAUSAL = {**SQUARE, "mask": "causal"}
PROBLEMS = {"square": SQUARE, "causal": CAUSAL}
KEYS = {name: symattn.derive(spec, backward=True) for name, spec in PROBLEMS.items()}
FORWARD = ("Q", "K", "V", "scores", "scaled_scores", "masked_scores", "weights", "output")
BACKWARD = ("dO", "dV", "dweights", "dscaled_scores", "dscores", "dQ", "dK", "dW_Q", "dW_K",
            "dW_V", "dX")  # fmt: skip


def written(matrix: list[list[Decimal]], places: int = 4, sci: bool = False) -> list[list[str]]:
    out = []
    for row in matrix:
        cells = []
        for x in row:
            if not x.is_finite():
                cells.append("-inf")
            elif sci and x != 0:
                exponent = x.adjusted()
                cells.append(
                    f"{round_half_away(Fraction(x.scaleb(-exponent)), places)}e{exponent:+03d}"
                )
            else:
                cells.append(round_half_away(Fraction(x), places))
        out.append(cells)
    return out


def ids(result: symattn.check.CheckResult, step: str) -> list[str]:
    return [d.id for s in result.steps if s.id == step for d in s.diagnosis]


#: (mistake, problem, the step answered, and the steps before it that are answered too)
NEW = [
    ("scale_multiplied", "square", "weights", ()),
    ("scale_multiplied", "square", "scaled_scores", ("scores",)),
    ("softmax_global", "square", "weights", ("scaled_scores",)),
    ("softmax_global", "square", "output", ()),
    ("mask_wrong_triangle", "causal", "weights", ("scaled_scores",)),
    ("mask_wrong_triangle", "causal", "masked_scores", ()),
    ("weighted_sum_of_inputs", "square", "output", ("weights",)),
    ("jacobian_diagonal_only", "square", "dscaled_scores", ("dweights",)),
    ("jacobian_diagonal_only", "square", "dQ", ()),
    ("backward_no_scaling", "square", "dscores", ("dscaled_scores",)),
    ("backward_no_scaling", "square", "dK", ()),
    ("backward_transposed", "square", "dV", ("dO",)),
    ("backward_transposed", "square", "dK", ("dscores",)),
]


@pytest.mark.parametrize("sci", [False, True], ids=["decimals", "scientific"])
@pytest.mark.parametrize(("mistake", "name", "step", "earlier"), NEW)
def test_new_mistakes_are_diagnosed(
    mistake: str, name: str, step: str, earlier: tuple[str, ...], sci: bool
) -> None:
    wrong, right = reference.attention(PROBLEMS[name], mistake), reference.attention(PROBLEMS[name])
    answers = {s: written(right[s], sci=sci) for s in earlier}
    answers[step] = written(wrong[step], sci=sci)
    assert answers[step] != written(right[step], sci=sci), "the mistake changes the step"
    result = check(KEYS[name], answers)
    assert ids(result, step) == [mistake], result.to_json()
    assert result.first_error == step and result.exit_status == 1
    (diagnosis,) = [d for s in result.steps for d in s.diagnosis]
    assert diagnosis.entries, "a diagnosis names its entries"
    assert all(s.status == "correct" for s in result.steps if s.id != step)


@pytest.mark.parametrize(
    "step", ["dV", "dweights", "dscaled_scores", "dscores", "dQ", "dK", "dW_Q", "dW_V", "dX"]
)
def test_backward_steps_are_marked_like_forward_ones(step: str) -> None:
    right = reference.attention(SQUARE)
    result = check(KEYS["square"], {step: written(right[step])})
    assert result.verdict == "correct", result.to_json()
    assert check(KEYS["square"], {step: written(right[step], 2)}).verdict == "correct"


def test_backward_errors_are_carried_forward() -> None:
    right = reference.attention(SQUARE)
    slipped = written(right["dweights"])
    slipped[0][0] = str(Decimal(slipped[0][0]) + 1)
    worked = reference.attention(
        SQUARE, overrides={"dweights": [[Decimal(x) for x in r] for r in slipped]}
    )
    result = check(
        KEYS["square"], {"dweights": slipped, "dscaled_scores": written(worked["dscaled_scores"])}
    )
    steps = {s.id: s for s in result.steps}
    assert ids(result, "dweights") == ["arithmetic_slip"]
    assert steps["dscaled_scores"].carried_forward and not steps["dscaled_scores"].diagnosis


def test_check_derives_the_gradients_when_the_answers_name_one(tmp_path: Path) -> None:
    problem = tmp_path / "p.json"
    problem.write_text(json.dumps(SQUARE), encoding="utf-8")
    answers = tmp_path / "a.json"
    answers.write_text(
        json.dumps({"dV": written(reference.attention(SQUARE)["dV"])}), encoding="utf-8"
    )
    assert main(["check", str(problem), str(answers)]) == 0


#: Two mistakes at once: a scale mistake with another.
COMPOUND = [
    ("no_scaling", "softmax_wrong_axis"),
    ("no_scaling", "scores_transposed"),
    ("scaled_by_dk", "weights_transposed"),
    ("scale_multiplied", "weights_transposed"),
    ("scaled_by_d_model", "softmax_global"),
    ("no_scaling", "premature_rounding_0"),
]


@pytest.mark.parametrize(("first", "second"), COMPOUND)
def test_two_mistakes_at_once_are_both_reported(first: str, second: str) -> None:
    spec = {**SQUARE, "X": [[1, 0, 1], [0, 2, 1], [1, 1, 0]], "W_Q": [[1, 0], [0, 1], [1, 1]],
            "W_K": [[2, -1], ["1/2", 1], [0, 1]], "W_V": [[1, 2], [-1, 1], [0, 1]]}  # fmt: skip
    spec.pop("target")
    wrong = reference.attention(spec, (first, second))
    result = check(spec, {"weights": written(wrong["weights"])})
    expected = [first, "premature_rounding" if second.startswith("premature") else second]
    assert ids(result, "weights") == expected, result.to_json()


@pytest.mark.parametrize("sci", [False, True])
def test_weights_without_the_scaled_scores_still_show_no_scaling(sci: bool) -> None:
    """The issue's case: an unscaled softmax, printed in scientific notation, alone."""
    key = symattn.derive(symattn.examples.example_path("seed"))
    wrong = {"weights": [["4.7426e-02", "9.5257e-01"], ["9.9331e-01", "6.6929e-03"]]}
    if not sci:
        wrong = {"weights": [["0.0474", "0.9526"], ["0.9933", "0.0067"]]}
    result = check(key, wrong)
    assert ids(result, "weights") == ["no_scaling"], result.to_json()


def test_a_wrong_answer_is_never_called_correct() -> None:
    """The issue's case: right one-place scaled scores (nothing was rounded) grant no
    slack to a wrong second row of weights."""
    problem = {"Q": [[1, 0], [0, 1]], "K": [[2, 1], [1, 3]], "V": [[1, 0], [0, 1]], "scale": 2}
    answers = {"scaled_scores": [["1.0", "0.5"], ["0.5", "1.5"]],
               "weights": [["0.6225", "0.3775"], ["0.2700", "0.7300"]]}  # fmt: skip
    result = check(problem, answers)
    weights = next(s for s in result.steps if s.id == "weights")
    assert [e.ok for e in weights.entries] == [True, True, False, False]
    assert weights.status == "incorrect"
    assert (result.verdict, result.exit_status) == ("incorrect", 1)
    for step in result.steps:  # a step never disagrees with its entries
        assert (step.status in ("correct", "partial")) == all(e.ok for e in step.entries)


def test_a_symbolic_problem_cannot_check_numbers(tmp_path: Path) -> None:
    problem = tmp_path / "p.json"
    problem.write_text(
        json.dumps({"Q": [["a", 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1], [0]]})
    )
    answers = tmp_path / "a.json"
    answers.write_text(json.dumps({"Q": [[0, 0], [0, 0]], "weights": [[0, 0], [0, 0]]}))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["check", str(problem), str(answers)]) == 2
    assert "symbols" in err.getvalue() and err.getvalue().count("\n") == 1


@pytest.mark.parametrize(
    "answer",
    [
        {"scores": [[1e1000000, 5], [5, 0]]},
        {"scores": [["1e-1000000", 5], [5, 0]]},
        {"weights": [["0." + "1" * 5000, "0.8930"], ["0.9717", "0.0283"]]},
    ],
    ids=["huge", "tiny", "many-places"],
)
def test_absurd_entries_are_unreadable_not_fatal(answer: dict[str, Any]) -> None:
    key = symattn.derive(symattn.examples.example_path("seed"))
    result = check(key, answer)
    statuses = [e.status for s in result.steps for e in s.entries]
    assert "invalid" in statuses and result.exit_status == 1


# -- feedback a student can read -------------------------------------------------------------

ENGLISH = re.compile(r"\b(?:the|you|your|is|are|was|were|of|and|right|wrong|step|entry|"
                     r"scores|weights|divide|places|write)\b", re.I)  # fmt: skip


def _cli(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(list(argv))
    return out.getvalue()


@pytest.fixture()
def files(tmp_path: Path) -> tuple[str, str]:
    right, wrong = reference.attention(SQUARE), reference.attention(SQUARE, "no_scaling")
    output = written(wrong["output"])
    output[0][0] = "oops"
    answers = {
        "scores": written(right["scores"]),
        "weights": written(wrong["weights"]),
        "output": output,
        "scaled_scores": written(right["scaled_scores"], 1),
    }
    problem, answers_file = tmp_path / "p.json", tmp_path / "a.json"
    problem.write_text(json.dumps({**SQUARE, "places": 4}), encoding="utf-8")
    answers_file.write_text(json.dumps(answers), encoding="utf-8")
    return str(problem), str(answers_file)


def test_chinese_feedback_has_no_english_sentence(files: tuple[str, str]) -> None:
    for fmt in ("text", "latex"):
        out = _cli("check", *files, "--lang", "zh", "--format", fmt)
        out = out.replace(files[1], "").replace(files[1].replace("_", "\\_"), "")  # the path
        out = out.split("\\begin{document}")[-1]  # what a reader sees, not the preamble
        prose = re.sub(r"\\[A-Za-z]+|\$[^$]*\$|[a-z]+_[a-z_]+", " ", out)  # commands, math, ids
        found = ENGLISH.findall(prose)
        assert not found, (fmt, found)
        assert "得分" in out and "诊断" in out


def test_feedback_uses_titles_and_a_score(files: tuple[str, str]) -> None:
    out = _cli("check", *files)
    assert "Score: " in out and "Softmax: attention weights" in out
    assert "scaled_scores" not in out and "no_scaling" not in out  # no code names
    assert "too few places" in out and "unreadable" in out


def test_no_key_hides_the_expected_values(files: tuple[str, str]) -> None:
    shown, hidden = _cli("check", *files), _cli("check", *files, "--no-key")
    key = symattn.derive(SQUARE)
    expected = key.step("weights").decimal_str(0, 0, 4)
    assert expected in shown and expected not in hidden
    assert "derived" in shown and "derived" not in hidden
    assert "✗" in hidden and "scores were not divided" in hidden  # marks and hints stay
    data = json.loads(_cli("check", *files, "--no-key", "--format", "json"))
    assert all("expected" not in e for s in data["steps"] for e in s["entries"])
    sheet = _cli("check", *files, "--no-key", "--format", "latex")
    assert expected not in sheet


def test_feedback_objects_render_in_both_languages(files: tuple[str, str]) -> None:
    result = check(*files)
    for lang in ("en", "zh"):
        assert render_feedback_text(result, lang).count("\n") > 10
        assert "\\end{document}" in render_feedback_latex(result, lang)


def test_heads_final_output_is_diagnosed_without_a_crash() -> None:
    """With heads, the final output is concat · W_O, not a weighted sum: the model "keys
    summed instead of values" applies to each head's output only."""
    key = symattn.derive(example_path("multihead"))
    for step_id in ("h1.output", "output"):
        written = [[str(v) for v in row] for row in key.step(step_id).values]
        written[0][0] = "9"
        result = check(key, {step_id: written})
        assert result.verdict == "incorrect" and result.steps[0].diagnosis
    tables = {(t.id, s) for t in mistake_tables(key, 4) for s in t.values}
    assert ("weighted_sum_of_keys", "h1.output") in tables


def test_keys_summed_only_when_they_are_as_wide_as_the_values() -> None:
    """With d_k ≠ d_v, summing the keys gives a matrix of another shape: no student's
    answer of the output's shape can come from it (and mistake_tables used to fail)."""
    problem = {
        "X": [[1, 0, 2], [0, 1, 1], [2, 1, 0]],
        "W_Q": [[1, 0, 1], [0, 2, 0], [1, 1, 1]],
        "W_K": [[0, 1, 1], [1, 0, 0], [2, 1, 1]],
        "W_V": [[1, 2], [0, 1], [1, 0]],
    }
    key = symattn.derive(problem)
    ids = {t.id for t in mistake_tables(key, 4)}
    assert "weighted_sum_of_keys" not in ids and "no_scaling" in ids
    square = symattn.derive(
        {**problem, "W_Q": [[1, 0], [0, 2], [1, 1]], "W_K": [[0, 1], [1, 0], [2, 1]]}
    )
    assert "weighted_sum_of_keys" in {t.id for t in mistake_tables(square, 4)}
