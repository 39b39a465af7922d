"""`symattn check`: marking a hand calculation (SPEC §4) and its errors (SPEC §6).

Wrong answers are made the way a student makes them: the problem is recomputed with a
mistake by an independent reference computation (tests/reference.py) and every entry is
written to 4 places, rounded half away from zero.  The problem is chosen so that the
mistakes cannot coincide: the scores are not symmetric, d_model = 3 ≠ d_k = 2 (so
√d_model, d_k and √d_k are three different divisors), and the masked variant uses a
causal mask so that masking before and after the softmax differ.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import re
import subprocess
import sys
import warnings
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn
from symattn.check import CheckResult, StepResult, check
from symattn.check.naming import entry_name
from symattn.cli import main
from symattn.examples import example_path
from symattn.numbers import round_half_away

from . import reference
from .helpers import said

DecimalMatrix = list[list[Decimal]]

with warnings.catch_warnings():
    # Hypothesis imports libcst to write a patch of failing examples when a test fails;
    # libcst here warns (DeprecationWarning) on import, and under filterwarnings=error that
    # turns any property failure into a pytest INTERNALERROR.  Import it once, quietly.
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(ImportError):  # libcst absent: nothing to silence
        import hypothesis.extra._patching  # noqa: F401

# -- the problem --------------------------------------------------------------------------

#: X is 3 × 3 (d_model = 3); the W's are 3 × 2 (d_k = d_v = 2).  The scores are
#: [[1, -7/4, 2], [1/4, -1, 7/2], [7/4, -23/8, 5/2]]: no two entries equal, not symmetric.
BASE: dict[str, Any] = {
    "X": [[1, 0, 1], [0, 2, "1/2"], [1, 1, 0]],
    "W_Q": [[1, 0], ["1/2", 1], [0, 1]],
    "W_K": [[2, "1/2"], [-1, "1/2"], ["-1/2", -1]],
    "W_V": [[1, -1], [2, 2], [-1, 0]],
}
CAUSAL: dict[str, Any] = {**BASE, "mask": "causal"}
SPECS = {"plain": BASE, "causal": CAUSAL}

#: The steps a student may answer, in the order of the computation.
STEPS = ("Q", "K", "V", "scores", "scaled_scores", "masked_scores", "weights", "output")
NEG_INF = Decimal("-Infinity")
CJK = re.compile(r"[\u4e00-\u9fff]")


@functools.cache
def problem(name: str) -> symattn.Problem:
    return symattn.load(SPECS[name])


@functools.cache
def key(name: str) -> symattn.Derivation:
    return symattn.derive(problem(name))


@functools.cache
def right(name: str) -> dict[str, DecimalMatrix]:
    return reference.attention(SPECS[name])


def text(x: Decimal, places: int = 4) -> str:
    return "-inf" if x == NEG_INF else round_half_away(Fraction(x), places)


def written(matrix: DecimalMatrix, places: int = 4) -> list[list[str]]:
    """A matrix as a student writes it: every entry rounded to ``places``."""
    return [[text(x, places) for x in row] for row in matrix]


def decimals(rows: list[list[str]]) -> DecimalMatrix:
    return [[NEG_INF if t == "-inf" else Decimal(t) for t in row] for row in rows]


def steps_of(name: str) -> tuple[str, ...]:
    return tuple(s for s in STEPS if s in right(name))


def by_id(result: CheckResult) -> dict[str, StepResult]:
    return {s.id: s for s in result.steps}


def all_ids(result: CheckResult) -> list[str]:
    return [d.id for s in result.steps for d in s.diagnosis]


def summary(result: CheckResult) -> list[tuple[str, str, bool, list[str]]]:
    """What a failing assertion shows: (step, status, carried_forward, diagnosis ids)."""
    return [(s.id, s.status, s.carried_forward, [d.id for d in s.diagnosis]) for s in result.steps]


# -- the mistakes -------------------------------------------------------------------------

#: Mistakes made by dividing by another number (the problem file's own `scale` key).
SCALES: dict[str, Any] = {"no_scaling": 1, "scaled_by_d_model": "sqrt(3)", "scaled_by_dk": 2}
SCORE_STEPS = ("scaled_scores", "masked_scores", "weights", "output")
#: mistake → the steps it changes (masked_scores only where there is a mask).
AFFECTED: dict[str, tuple[str, ...]] = {
    "no_scaling": SCORE_STEPS,
    "scaled_by_d_model": SCORE_STEPS,
    "scaled_by_dk": SCORE_STEPS,
    "no_softmax": ("weights", "output"),
    "softmax_wrong_axis": ("weights", "output"),
    "exp_missing_in_softmax": ("weights", "output"),
    "scores_transposed": ("scores", *SCORE_STEPS),
    "weights_transposed": ("weights", "output"),
    "weighted_sum_of_keys": ("output",),
    "mask_after_softmax": ("weights", "output"),
    "premature_rounding_0": ("weights", "output"),
    "premature_rounding_1": ("weights", "output"),
}


def diagnosis_id(mistake: str) -> str:
    return "premature_rounding" if mistake.startswith("premature_rounding") else mistake


@functools.cache
def mistaken(mistake: str, name: str) -> dict[str, DecimalMatrix]:
    """Every step's values when ``mistake`` is made on problem ``name``."""
    return reference.attention(SPECS[name], mistake)


def affected(mistake: str, name: str) -> list[str]:
    return [s for s in AFFECTED[mistake] if s in right(name)]


def before(step: str, name: str) -> list[str]:
    return [s for s in steps_of(name) if STEPS.index(s) < STEPS.index(step)]


MISTAKE_CASES = [
    pytest.param(mistake, name, step, with_earlier, id=f"{mistake}-{name}-{step}-{label}")
    for mistake in AFFECTED
    for name in SPECS
    if mistake != "mask_after_softmax" or name == "causal"
    for step in AFFECTED[mistake]
    if step != "masked_scores" or name == "causal"
    for with_earlier, label in ((False, "alone"), (True, "with-earlier"))
]


# -- 0. the problem and the mistaken answers are what they claim --------------------------


def test_the_problem_avoids_coincidences() -> None:
    p = problem("plain")
    assert (p.d_model, p.d_k, p.n, p.m) == (3, 2, 3, 3)
    scores = right("plain")["scores"]
    flat = [x for row in scores for x in row]
    assert len(set(flat)) == 9  # no ties, so no row or column of the softmax is uniform
    assert all(scores[i][j] != scores[j][i] for i in range(3) for j in range(3) if i != j)
    assert written(scores) == [
        ["1.0000", "-1.7500", "2.0000"],
        ["0.2500", "-1.0000", "3.5000"],
        ["1.7500", "-2.8750", "2.5000"],
    ]
    assert key("causal").step("masked_scores").decimal_str(0, 1, 4) == "-inf"


def test_the_mistakes_compute_what_they_name() -> None:
    """The generators, checked by hand, so that the checker is not tested against itself."""
    ok, s = right("plain"), right("plain")["scaled_scores"]
    a = ok["weights"]
    quantum = Decimal("1e-20")

    def same(x: DecimalMatrix, y: DecimalMatrix) -> bool:
        return all(abs(p - q) < quantum for r1, r2 in zip(x, y) for p, q in zip(r1, r2))

    def transpose(x: DecimalMatrix) -> DecimalMatrix:
        return [list(c) for c in zip(*x)]

    assert same(mistaken("no_scaling", "plain")["scaled_scores"], ok["scores"])
    assert same(
        mistaken("scaled_by_dk", "plain")["scaled_scores"],
        [[x / 2 for x in row] for row in ok["scores"]],
    )
    root3 = Decimal(3).sqrt()
    assert all(
        abs(x * root3 - y) < Decimal("1e-25")
        for r1, r2 in zip(mistaken("scaled_by_d_model", "plain")["scaled_scores"], ok["scores"])
        for x, y in zip(r1, r2)
    )
    assert same(mistaken("no_softmax", "plain")["weights"], s)
    assert same(mistaken("scores_transposed", "plain")["scores"], transpose(ok["scores"]))
    assert same(mistaken("weights_transposed", "plain")["weights"], transpose(a))
    columns = mistaken("softmax_wrong_axis", "plain")["weights"]
    assert all(abs(sum(col) - 1) < quantum for col in zip(*columns))
    assert any(abs(sum(row) - 1) > Decimal("0.01") for row in columns)
    no_exp = mistaken("exp_missing_in_softmax", "plain")["weights"]
    assert same(no_exp, [[x / sum(row) for x in row] for row in s])
    keys = mistaken("weighted_sum_of_keys", "plain")["output"]
    assert same(
        keys, [[sum(a[i][j] * ok["K"][j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    )
    after = mistaken("mask_after_softmax", "causal")["weights"]
    assert after[0][1] == after[0][2] == after[1][2] == 0
    assert all(abs(sum(row) - 1) > Decimal("0.01") for row in after[:2])
    assert same([after[2]], [right("plain")["weights"][2]])  # nothing masked in row 3


@pytest.mark.parametrize("mistake", list(AFFECTED))
def test_each_mistake_shows_in_the_steps_it_claims(mistake: str) -> None:
    name = "causal" if mistake == "mask_after_softmax" else "plain"
    wrong, ok = mistaken(mistake, name), right(name)
    for step in steps_of(name):
        differs = written(wrong[step]) != written(ok[step])
        assert differs == (step in AFFECTED[mistake]), step


# -- 1. every mistake model is diagnosed, and nothing else --------------------------------


@pytest.mark.parametrize(("mistake", "name", "step", "with_earlier"), MISTAKE_CASES)
def test_mistake_is_diagnosed(mistake: str, name: str, step: str, with_earlier: bool) -> None:
    wrong, ok = mistaken(mistake, name), right(name)
    answers: dict[str, Any] = {}
    if with_earlier:  # the steps before the mistake, right
        first = affected(mistake, name)[0]
        answers = {s: written(ok[s]) for s in before(first, name)}
    answers[step] = written(wrong[step])
    result = check(key(name), answers)
    steps = by_id(result)
    assert steps[step].status == "incorrect", summary(result)
    assert [d.id for d in steps[step].diagnosis] == [diagnosis_id(mistake)], summary(result)
    assert not steps[step].carried_forward
    assert all_ids(result) == [diagnosis_id(mistake)], summary(result)  # no unrelated id
    assert all(s.status == "correct" for s in result.steps if s.id != step), summary(result)
    assert (result.verdict, result.first_error, result.exit_status) == ("incorrect", step, 1)
    (diagnosis,) = steps[step].diagnosis
    first_name = entry_name(step, *(k - 1 for k in diagnosis.entries[0]))  # names its entries
    assert first_name in said(diagnosis.message) and first_name in said(diagnosis.message, "zh")
    assert CJK.search(said(diagnosis.message, "zh")) and not CJK.search(said(diagnosis.message))


FIX_FACTS = {
    "no_scaling": "√2",  # √d_k = √2
    "scaled_by_d_model": "√3",
    "scaled_by_dk": "d_k = 2",
    "no_softmax": "softmax",
    "softmax_wrong_axis": "row",
    "exp_missing_in_softmax": "exp",
    "scores_transposed": "transposed",
    "weights_transposed": "transposed",
    "weighted_sum_of_keys": "V",
    "mask_after_softmax": "−∞",
    "premature_rounding_0": "0 decimal places",
    "premature_rounding_1": "1 decimal place",
}


@pytest.mark.parametrize("mistake", list(FIX_FACTS))
def test_diagnosis_message_names_the_fix(mistake: str) -> None:
    name = "causal" if mistake == "mask_after_softmax" else "plain"
    step = affected(mistake, name)[0]
    result = check(key(name), {step: written(mistaken(mistake, name)[step])})
    (diagnosis,) = by_id(result)[step].diagnosis
    assert FIX_FACTS[mistake] in said(diagnosis.message), said(diagnosis.message)
    assert CJK.search(said(diagnosis.message, "zh")), said(diagnosis.message, "zh")


@pytest.mark.parametrize(
    ("mistake", "name"),
    [
        pytest.param(mistake, name, id=f"{mistake}-{name}")
        for mistake in AFFECTED
        for name in SPECS
        if mistake != "mask_after_softmax" or name == "causal"
    ],
)
def test_whole_mistaken_calculation(mistake: str, name: str) -> None:
    """Every step written: the first wrong step has the diagnosis; the later steps, worked
    correctly from it, are carried forward (their method is right) and not re-diagnosed."""
    wrong = mistaken(mistake, name)
    answers = {s: written(wrong[s]) for s in steps_of(name)}
    result = check(key(name), answers)
    first, *later = affected(mistake, name)
    steps = by_id(result)
    assert result.first_error == first, summary(result)
    assert [d.id for d in steps[first].diagnosis] == [diagnosis_id(mistake)], summary(result)
    for step in later:
        assert steps[step].status == "incorrect", summary(result)
        assert steps[step].carried_forward, summary(result)
        assert steps[step].diagnosis == [], summary(result)


# -- arithmetic slips ---------------------------------------------------------------------

SLIP_STEPS = ("Q", "scores", "scaled_scores", "weights", "output")


def slipped(name: str, step: str, count: int) -> list[list[str]]:
    rows = written(right(name)[step])
    rows[0][1] = str(Decimal(rows[0][1]) + Decimal("0.5"))
    if count == 2:
        rows[2][0] = str(Decimal(rows[2][0]) - Decimal("0.25"))
    return rows


@pytest.mark.parametrize("with_earlier", [False, True], ids=["alone", "with-earlier"])
@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("step", SLIP_STEPS)
def test_arithmetic_slip(step: str, count: int, with_earlier: bool) -> None:
    ok = right("plain")
    answers = {s: written(ok[s]) for s in before(step, "plain")} if with_earlier else {}
    answers[step] = slipped("plain", step, count)
    result = check(key("plain"), answers)
    steps = by_id(result)
    assert all_ids(result) == ["arithmetic_slip"], summary(result)
    (slip,) = steps[step].diagnosis
    assert slip.entry == (1, 2)
    assert sum(not e.ok for e in steps[step].entries) == count
    assert result.first_error == step
    # the message names each wrong entry, what was written and what it should be
    assert answers[step][0][1] in said(slip.message)
    assert written(ok[step])[0][1] in said(slip.message)
    assert "₁,₂" in said(slip.message) and "₁,₂" in said(slip.message, "zh")
    if count == 2:
        assert "₃,₁" in said(slip.message) and answers[step][2][0] in said(slip.message)


def test_four_entries_off_is_not_a_slip() -> None:
    """A slip is a minority: up to a third of the step (3 of 9 here), not 4."""
    rows = slipped("plain", "scores", 2)
    rows[1][1] = "7"
    rows[0][0] = "9"
    result = check(key("plain"), {"scores": rows})
    assert "arithmetic_slip" not in all_ids(result), summary(result)
    assert result.first_error == "scores"


# -- premature rounding -------------------------------------------------------------------


@pytest.mark.parametrize("places", [0, 1])
def test_weights_from_coarsely_rounded_scores_not_written(places: int) -> None:
    ok = right("plain")
    wrong = mistaken(f"premature_rounding_{places}", "plain")
    answers = {s: written(ok[s]) for s in ("Q", "K", "V", "scores")}
    answers["weights"] = written(wrong["weights"])
    result = check(key("plain"), answers)
    (diagnosis,) = by_id(result)["weights"].diagnosis
    assert diagnosis.id == "premature_rounding"
    assert not by_id(result)["weights"].carried_forward
    assert result.first_error == "weights"


def test_written_intermediates_at_one_place_are_premature_rounding_carried_forward() -> None:
    rough = written(right("plain")["scaled_scores"], 1)
    assert rough[1][2] == "2.5"  # 2.4749 written as 2.5
    worked = reference.attention(BASE, overrides={"scaled_scores": decimals(rough)})
    answers = {"scaled_scores": rough, "weights": written(worked["weights"])}
    result = check(key("plain"), answers)
    steps = by_id(result)
    assert steps["scaled_scores"].status == "correct", summary(result)  # within 0.1
    assert steps["weights"].status == "incorrect", summary(result)
    assert steps["weights"].carried_forward, summary(result)
    assert [d.id for d in steps["weights"].diagnosis] == ["premature_rounding"], summary(result)
    assert "Scaled scores" in said(steps["weights"].diagnosis[0].message)
    assert result.exit_status == 1


# -- 2. carried rounding is not punished --------------------------------------------------


def rounded_chain(spec: dict[str, Any], places: int) -> dict[str, list[list[str]]]:
    """Correct answers, each step worked from the previous step as written (rounded)."""
    answers: dict[str, list[list[str]]] = {}
    overrides: dict[str, DecimalMatrix] = {}
    for step in (s for s in STEPS if s in reference.attention(spec)):
        values = reference.attention(spec, overrides=overrides)
        answers[step] = written(values[step], places)
        overrides[step] = decimals(answers[step])
    return answers


@pytest.mark.parametrize("name", list(SPECS))
@pytest.mark.parametrize("places", [2, 3, 4])
def test_rounded_intermediates_pass(name: str, places: int, tmp_path: Path) -> None:
    answers = rounded_chain(SPECS[name], places)
    result = check(key(name), answers)
    assert result.verdict == "correct", summary(result)
    assert all(s.status == "correct" and not s.diagnosis for s in result.steps), summary(result)
    assert [s.id for s in result.steps] == list(steps_of(name))
    problem_file, answers_file = write_problem(tmp_path, name), tmp_path / "answers.json"
    answers_file.write_text(json.dumps(answers), encoding="utf-8")
    assert main(["check", str(problem_file), str(answers_file)]) == 0


def test_rounded_chain_actually_drifts() -> None:
    """The 2-place chain is a real test: some later entry is off the key by more than the
    one unit in the last place that the entry itself would be allowed."""
    answers = rounded_chain(BASE, 2)
    key_output = right("plain")["output"]
    drift = max(
        abs(Decimal(g) - x)
        for row, krow in zip(answers["output"], key_output)
        for g, x in zip(row, krow)
    )
    assert drift > Decimal("0.01"), drift


# -- 3. property: rounded correct answers always pass -------------------------------------

#: -2 … 2 in steps of 1/2, written as a problem file would: 2, -1, "3/2", "-1/2".
entries = st.integers(-4, 4).map(lambda k: k // 2 if k % 2 == 0 else f"{k}/2")


def matrices(rows: int, cols: int) -> st.SearchStrategy[list[list[Any]]]:
    return st.lists(st.lists(entries, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


@st.composite
def small_problems(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 3))
    d_model, d_k, d_v = (draw(st.integers(1, 3)) for _ in range(3))
    spec: dict[str, Any] = {
        "X": draw(matrices(n, d_model)),
        "W_Q": draw(matrices(d_model, d_k)),
        "W_K": draw(matrices(d_model, d_k)),
        "W_V": draw(matrices(d_model, d_v)),
    }
    if draw(st.booleans()):
        spec["mask"] = "causal"
    return spec


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=small_problems(), places=st.integers(2, 4))
def test_property_rounded_correct_answers_pass(spec: dict[str, Any], places: int) -> None:
    p = symattn.load(spec)
    answers = rounded_chain(spec, places)
    result = check(p, answers)
    assert result.verdict == "correct", (answers, summary(result))
    assert result.exit_status == 0


# -- 4. carried forward -------------------------------------------------------------------


def slipped_scores() -> list[list[str]]:
    rows = written(right("plain")["scores"])
    rows[1][2] = "4.5000"  # 7/2 written as 4.5
    return rows


def test_error_carried_forward_from_a_slip() -> None:
    scores = slipped_scores()
    worked = reference.attention(BASE, overrides={"scores": decimals(scores)})
    answers = {"scores": scores, "weights": written(worked["weights"])}
    result = check(key("plain"), answers)
    steps = by_id(result)
    assert steps["scores"].status == "incorrect"
    assert [d.id for d in steps["scores"].diagnosis] == ["arithmetic_slip"]
    assert steps["scores"].diagnosis[0].entry == (2, 3)
    assert not steps["scores"].carried_forward
    assert steps["weights"].status == "incorrect"
    assert steps["weights"].carried_forward
    assert steps["weights"].diagnosis == []
    assert not all(e.ok for e in steps["weights"].entries)  # wrong against the key
    assert (result.first_error, result.exit_status) == ("scores", 1)
    assert result.to_json()["steps"][1]["carried_forward"] is True


def test_error_carried_forward_through_every_later_step() -> None:
    scores = slipped_scores()
    worked = reference.attention(BASE, overrides={"scores": decimals(scores)})
    answers = {s: written(right("plain")[s]) for s in ("Q", "K", "V")}
    answers["scores"] = scores
    answers["scaled_scores"] = written(worked["scaled_scores"])
    answers["weights"] = written(worked["weights"])
    result = check(key("plain"), answers)
    steps = by_id(result)
    assert all(steps[s].status == "correct" for s in ("Q", "K", "V"))
    for s in ("scaled_scores", "weights"):
        assert steps[s].carried_forward and not steps[s].diagnosis, summary(result)
    assert all_ids(result) == ["arithmetic_slip"]


def test_model_composes_with_a_carried_error() -> None:
    scores = slipped_scores()
    worked = reference.attention({**BASE, "scale": 1}, overrides={"scores": decimals(scores)})
    answers = {"scores": scores, "weights": written(worked["weights"])}
    result = check(key("plain"), answers)
    steps = by_id(result)
    assert [d.id for d in steps["scores"].diagnosis] == ["arithmetic_slip"]
    assert [d.id for d in steps["weights"].diagnosis] == ["no_scaling"], summary(result)
    assert not steps["weights"].carried_forward


def test_output_worked_from_own_mistaken_weights_is_carried_forward() -> None:
    """The student keeps their own (no-scaling) weights in the calculator and writes them
    to 4 places; the output is then right from those weights: carried forward, not a slip
    (the difference from the 4-place weights is carried rounding)."""
    scores = slipped_scores()
    worked = reference.attention({**BASE, "scale": 1}, overrides={"scores": decimals(scores)})
    answers = {s: written(worked[s]) for s in ("scores", "weights", "output")}
    result = check(key("plain"), answers)
    steps = by_id(result)
    assert [d.id for d in steps["weights"].diagnosis] == ["no_scaling"], summary(result)
    assert steps["output"].carried_forward, summary(result)
    assert steps["output"].diagnosis == [], summary(result)


# -- 5. statuses, tolerance, fractions, −∞ ------------------------------------------------


def test_status_correct_partial_missing() -> None:
    ok = right("plain")
    weights: list[list[Any]] = written(ok["weights"])
    weights[1][0] = None
    weights[2][2] = ""
    answers = {
        "scores": written(ok["scores"]),
        "weights": weights,
        "output": [[None, None], ["", None], [None, ""]],
    }
    result = check(key("plain"), answers)
    statuses = {s.id: s.status for s in result.steps}
    assert statuses == {"scores": "correct", "weights": "partial", "output": "missing"}
    assert len(by_id(result)["weights"].entries) == 7  # the unanswered are not listed
    assert by_id(result)["output"].entries == []
    assert (result.verdict, result.first_error, result.exit_status) == ("correct", None, 0)


def test_partial_step_with_a_wrong_entry_is_incorrect() -> None:
    weights: list[list[Any]] = written(right("plain")["weights"])
    weights[0][0], weights[1][1] = None, "0.5"
    result = check(key("plain"), {"weights": weights})
    assert by_id(result)["weights"].status == "incorrect"
    assert result.exit_status == 1


def one_entry(value: str) -> dict[str, Any]:
    """A problem whose output is the one number ``value`` (one key, weight exactly 1)."""
    return {"Q": [[1]], "K": [[1]], "V": [[value]]}


@pytest.mark.parametrize(
    ("exact", "accepted"),
    [("0.72", True), ("0.74", True), ("0.7350", True), ("0.7411", False), ("0.7199", False)],
)
def test_one_unit_of_the_last_place_written(exact: str, accepted: bool) -> None:
    result = check(one_entry(exact), {"output": [["0.73"]]})
    (entry,) = by_id(result)["output"].entries
    assert entry.ok is accepted
    assert entry.given == "0.73"
    assert result.exit_status == (0 if accepted else 1)


def test_expected_shows_as_many_places_as_written() -> None:
    result = check(one_entry("0.7411"), {"output": [["0.73"]]})
    assert by_id(result)["output"].entries[0].expected == "0.7411"
    result = check(one_entry("1/3"), {"output": [["0.333333"]]})
    (entry,) = by_id(result)["output"].entries
    assert entry.ok and entry.expected == "0.333333" and entry.exact == "1/3"


def test_fractions_are_exact() -> None:
    halves = {"Q": [[0]], "K": [[1], [2]], "V": [[1], [3]]}  # equal scores: weights 1/2, 1/2
    result = check(halves, {"weights": [["1/2", "1/2"]], "output": [["2"]]})
    assert result.verdict == "correct", summary(result)
    entries = by_id(result)["weights"].entries
    assert all(e.ok and e.given == "1/2" for e in entries)
    half = sympy.Rational(1, 2)
    assert all(sympy.sympify(e.expected) == half == sympy.sympify(e.exact) for e in entries)
    # an exact answer gets no rounding allowance; a decimal one does
    assert check(one_entry("0.7501"), {"output": [["3/4"]]}).exit_status == 1
    assert check(one_entry("0.7501"), {"output": [["0.750"]]}).exit_status == 0
    assert check(one_entry("1/4"), {"output": [["1/4"]]}).exit_status == 0


def test_masked_scores_accept_minus_infinity() -> None:
    ok = written(right("causal")["masked_scores"])
    assert ok[0][1] == ok[0][2] == ok[1][2] == "-inf"
    assert check(key("causal"), {"masked_scores": ok}).verdict == "correct"
    a_number = [row[:] for row in ok]
    a_number[0][2] = "-100"
    result = check(key("causal"), {"masked_scores": a_number})
    assert [e.index for e in by_id(result)["masked_scores"].entries if not e.ok] == [(1, 3)]
    misplaced = [row[:] for row in ok]
    misplaced[1][0] = "-inf"
    result = check(key("causal"), {"masked_scores": misplaced})
    assert [e.index for e in by_id(result)["masked_scores"].entries if not e.ok] == [(2, 1)]


def test_minus_infinity_in_toml(tmp_path: Path) -> None:
    ok = written(right("causal")["masked_scores"])
    rows = ", ".join(
        "[" + ", ".join("-inf" if t == "-inf" else f'"{t}"' for t in row) + "]" for row in ok
    )
    answers = tmp_path / "answers.toml"
    answers.write_text(f"masked_scores = [{rows}]\n", encoding="utf-8")
    assert "-inf," in answers.read_text()  # a bare TOML float, not a string
    result = check(key("causal"), answers)
    assert result.verdict == "correct", summary(result)


def off_by(matrix: DecimalMatrix, delta: str) -> list[list[str]]:
    return [[text(x + Decimal(delta)) for x in row] for row in matrix]


def test_tolerance_from_the_file() -> None:
    weights = right("plain")["weights"]
    near, far = off_by(weights, "0.03"), off_by(weights, "0.06")
    assert check(key("plain"), {"weights": near}).exit_status == 1  # 4 places: too far
    assert check(key("plain"), {"tolerance": 0.05, "weights": near}).verdict == "correct"
    assert check(key("plain"), {"tolerance": "0.05", "weights": near}).verdict == "correct"
    result = check(key("plain"), {"tolerance": 0.05, "weights": far})
    assert result.verdict == "incorrect"
    assert not any(e.ok for e in by_id(result)["weights"].entries)


def test_tolerance_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem_file = write_problem(tmp_path, "plain")
    near = tmp_path / "near.json"
    near.write_text(json.dumps({"weights": off_by(right("plain")["weights"], "0.03")}))
    far = tmp_path / "far.json"
    far.write_text(json.dumps({"weights": off_by(right("plain")["weights"], "0.06")}))
    assert main(["check", str(problem_file), str(near)]) == 1
    assert main(["check", str(problem_file), str(near), "--tolerance", "0.05"]) == 0
    assert main(["check", str(problem_file), str(far), "--tolerance", "0.05"]) == 1
    assert main(["check", str(problem_file), str(near), "--tolerance", "abc"]) == 2
    assert main(["check", str(problem_file), str(near), "--tolerance", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.count("symattn: error:") == 2 and "--tolerance" in err
    assert check(key("plain"), near, tolerance="0.05").verdict == "correct"


# -- 6. the command: exit status, JSON, LaTeX, Chinese ------------------------------------


def write_problem(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(SPECS[name]), encoding="utf-8")
    return path


def write_answers(tmp_path: Path, answers: dict[str, Any], name: str = "answers.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    return path


def no_scaling_answers() -> dict[str, Any]:
    ok = right("plain")
    answers: dict[str, Any] = {s: written(ok[s]) for s in ("Q", "K", "V", "scores")}
    answers["weights"] = written(mistaken("no_scaling", "plain")["weights"])
    return answers


def test_exit_status_0_1_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem_file = write_problem(tmp_path, "plain")
    good = write_answers(tmp_path, {"scores": written(right("plain")["scores"])}, "good.json")
    bad = write_answers(tmp_path, no_scaling_answers(), "bad.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"scores": [[1, 2', encoding="utf-8")

    assert main(["check", str(problem_file), str(good)]) == 0
    out, err = capsys.readouterr()
    assert "Verdict: correct" in out and err == ""

    assert main(["check", str(problem_file), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert "Verdict: incorrect" in out and "attention weights" in out and "scores not scaled" in out
    assert err == ""

    assert main(["check", str(problem_file), str(broken)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("symattn: error:") and err.count("\n") == 1


def test_subprocess_run(tmp_path: Path) -> None:
    problem_file = write_problem(tmp_path, "plain")
    bad = write_answers(tmp_path, no_scaling_answers())
    run = subprocess.run(
        [sys.executable, "-m", "symattn", "check", str(problem_file), str(bad), "--format", "json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr == ""
    data = json.loads(run.stdout)
    assert data["first_error"] == "weights"
    assert [d["id"] for s in data["steps"] for d in s["diagnosis"]] == ["no_scaling"]


def test_json_matches_spec_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem_file = write_problem(tmp_path, "plain")
    answers = no_scaling_answers()
    answers["weights"][2] = [None, None, None]
    answers_file = write_answers(tmp_path, answers)
    assert main(["check", str(problem_file), str(answers_file), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {"verdict", "first_error", "steps"} <= set(data)
    assert (data["verdict"], data["first_error"]) == ("incorrect", "weights")
    assert [s["id"] for s in data["steps"]] == ["Q", "K", "V", "scores", "weights"]
    for step in data["steps"]:
        assert {"id", "status", "entries", "diagnosis", "carried_forward"} <= set(step)
        assert step["status"] in ("correct", "incorrect", "partial", "missing")
        assert isinstance(step["carried_forward"], bool)
        for entry in step["entries"]:
            assert {"index", "given", "expected", "ok"} <= set(entry)
            i, j = entry["index"]
            assert isinstance(i, int) and isinstance(j, int) and i >= 1 and j >= 1
            assert isinstance(entry["given"], str) and isinstance(entry["expected"], str)
            assert isinstance(entry["ok"], bool)
    weights = data["steps"][-1]
    assert weights["status"] == "incorrect" and weights["carried_forward"] is False
    assert [e["index"] for e in weights["entries"]] == [
        [1, 1],
        [1, 2],
        [1, 3],
        [2, 1],
        [2, 2],
        [2, 3],
    ]
    assert weights["entries"][0]["given"] == answers["weights"][0][0]
    assert weights["entries"][0]["expected"] == "0.3153"
    assert not weights["entries"][0]["ok"]
    (diagnosis,) = weights["diagnosis"]
    assert diagnosis["id"] == "no_scaling" and "a₁,₁" in diagnosis["message"]
    assert diagnosis["entries"][0] == [1, 1]
    assert not CJK.search(diagnosis["message"])
    # the exact value reads back with SymPy to the expected decimal
    exact = sympy.sympify(weights["entries"][0]["exact"])
    assert abs(float(exact) - 0.3153) < 1e-4
    scores = data["steps"][3]
    assert scores["status"] == "correct" and scores["diagnosis"] == []


def test_latex_feedback_is_a_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem_file = write_problem(tmp_path, "plain")
    answers_file = write_answers(tmp_path, no_scaling_answers())
    assert main(["check", str(problem_file), str(answers_file), "--format", "latex"]) == 1
    tex = capsys.readouterr().out
    assert "\\documentclass" in tex
    assert tex.index("\\documentclass") < tex.index("\\begin{document}")
    assert tex.rstrip().endswith("\\end{document}")
    assert "scores not scaled" in tex and "Softmax: attention weights" in tex
    out = tmp_path / "sheet.tex"
    assert (
        main(
            [
                "check",
                str(problem_file),
                str(answers_file),
                "--format",
                "latex",
                "--lang",
                "zh",
                "-o",
                str(out),
            ]
        )
        == 1
    )
    zh = out.read_text(encoding="utf-8")
    assert zh.rstrip().endswith("\\end{document}") and "xeCJK" in zh
    assert "诊断" in zh and "结论" in zh


def test_lang_zh_prints_chinese_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem_file = write_problem(tmp_path, "plain")
    answers_file = write_answers(tmp_path, no_scaling_answers())
    message_zh = by_id(check(key("plain"), no_scaling_answers()))["weights"].diagnosis[0]
    assert main(["check", str(problem_file), str(answers_file), "--lang", "zh"]) == 1
    out = capsys.readouterr().out
    assert said(message_zh.message, "zh") in out
    assert said(message_zh.message) not in out
    assert "结论" in out
    assert main(["check", str(problem_file), str(answers_file)]) == 1
    out = capsys.readouterr().out
    assert said(message_zh.message) in out and not CJK.search(out)
    assert (
        main(["check", str(problem_file), str(answers_file), "--lang", "zh", "--format", "json"])
        == 1
    )
    data = json.loads(capsys.readouterr().out)
    (diagnosis,) = data["steps"][-1]["diagnosis"]
    assert CJK.search(diagnosis["message"])


# -- 7. bad answer files ------------------------------------------------------------------

SCORES_OK = [[1, -1.75, 2], [0.25, -1, 3.5], [1.75, -2.875, 2.5]]
WEIGHTS = [
    ["0.3153", "0.0451", "0.6395"],
    ["0.0880", "0.0363", "0.8757"],
    ["0.3653", "0.0139", "0.6208"],
]


def with_cell(matrix: list[list[Any]], i: int, j: int, value: Any) -> list[list[Any]]:
    rows = [list(r) for r in matrix]
    rows[i][j] = value
    return rows


#: Files that cannot be read at all: exit 2, one line naming the file.
BAD_FILES = [
    pytest.param(json.dumps({"attention": [[1]]}), ["attention"], id="unknown-step"),
    pytest.param(json.dumps({"scorse": [[1]]}), ["scorse", "did you mean 'scores'"], id="typo"),
    pytest.param('{"scores": [[1, 2, 3],', ["line 1"], id="malformed-json"),
    pytest.param(json.dumps({"masked_scores": SCORES_OK}), ["masked_scores"], id="no-mask"),
    pytest.param('{"tolerance": "wide", "scores": [[1]]}', ["tolerance"], id="bad-tolerance"),
    pytest.param('{"tolerance": "1e999999999"}', ["tolerance"], id="huge-tolerance"),
    pytest.param("[1, 2]", [], id="not-an-object"),
]


@pytest.mark.parametrize(("content", "named"), BAD_FILES)
def test_unreadable_answers_file(
    content: str, named: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem_file = write_problem(tmp_path, "plain")
    answers = tmp_path / "student.json"
    answers.write_text(content, encoding="utf-8")
    assert main(["check", str(problem_file), str(answers)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("symattn: error: ") and err.endswith("\n")
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    assert str(answers) in err
    for part in named:
        assert part in err, (part, err)


#: A step or an entry that cannot be read: that step or entry is marked so, the rest is
#: marked as usual, exit 1.
BAD_PARTS = [
    pytest.param({"scores": [[1, 2, 3], [4, 5, 6]]}, "scores", None, "3 rows", id="rows"),
    pytest.param(
        {"scores": [SCORES_OK[0], [0.25, -1], SCORES_OK[2]]},
        "scores",
        None,
        "row 2",
        id="short-row",
    ),
    pytest.param({"scores": 3}, "scores", None, "3 rows", id="scalar"),
    pytest.param({"scores": with_cell(SCORES_OK, 1, 1, "abc")}, "scores", [2, 2], "abc", id="text"),
    pytest.param(
        {"weights": with_cell(WEIGHTS, 0, 2, True)}, "weights", [1, 3], "true", id="boolean"
    ),
    pytest.param({"weights": with_cell(WEIGHTS, 1, 1, "a")}, "weights", [2, 2], "'a'", id="symbol"),
    pytest.param(
        {"weights": with_cell(WEIGHTS, 2, 0, [1])}, "weights", [3, 1], "list", id="nested-list"
    ),
    pytest.param(
        {"weights": with_cell(WEIGHTS, 0, 0, "oops")}, "weights", [1, 1], "oops", id="oops"
    ),
]


@pytest.mark.parametrize(("answers", "step", "entry", "named"), BAD_PARTS)
def test_an_unreadable_part_is_marked_and_the_rest_too(
    answers: dict[str, Any],
    step: str,
    entry: list[int] | None,
    named: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    problem_file = write_problem(tmp_path, "plain")
    answers = {"Q": written(right("plain")["Q"]), **answers}
    answers_file = write_answers(tmp_path, answers, "student.json")
    assert main(["check", str(problem_file), str(answers_file), "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    steps = {s["id"]: s for s in json.loads(out)["steps"]}
    assert steps["Q"]["status"] == "correct"  # the rest is still marked
    assert steps[step]["status"] == "incorrect"
    if entry is None:
        assert named in steps[step]["error"]
    else:
        (bad,) = [e for e in steps[step]["entries"] if e["index"] == entry]
        assert bad["status"] == "invalid" and bad["ok"] is False and named in bad["message"]
        others = [e for e in steps[step]["entries"] if e["index"] != entry]
        assert others and all(e["status"] == "ok" for e in others)


def test_bad_toml_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem_file = write_problem(tmp_path, "plain")
    answers = tmp_path / "student.toml"
    answers.write_text('scores = [[1, -1.75, 2], [0.25, "x y", 3.5], [1, 2, 3]]\n')
    assert main(["check", str(problem_file), str(answers)]) == 1  # one entry unreadable
    out = capsys.readouterr().out
    assert "x y" in out and "unreadable" in out
    answers.write_text("scores = [[1, 2, 3]\n")
    assert main(["check", str(problem_file), str(answers)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symattn: error:") and err.count("\n") == 1 and "student.toml" in err


def test_missing_answers_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem_file = write_problem(tmp_path, "plain")
    missing = tmp_path / "nobody.json"
    assert main(["check", str(problem_file), str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symattn: error:") and "nobody.json" in err and err.count("\n") == 1


# -- 8. a whole class ---------------------------------------------------------------------


def class_answers() -> dict[str, tuple[dict[str, Any], str, str]]:
    """file stem → (answers, first wrong step, diagnosis) on the causal problem."""
    ok = right("causal")
    out: dict[str, tuple[dict[str, Any], str, str]] = {
        "correct": ({s: written(ok[s]) for s in steps_of("causal")}, "", "")
    }
    for mistake in AFFECTED:
        step = affected(mistake, "causal")[0]
        answers: dict[str, Any] = {s: written(ok[s]) for s in before(step, "causal")}
        answers[step] = written(mistaken(mistake, "causal")[step])
        out[mistake] = (answers, step, f"{step}:{diagnosis_id(mistake)}")
    slip = {s: written(ok[s]) for s in ("Q", "K", "V")}
    slip["scores"] = written(ok["scores"])
    slip["scores"][1][0] = "1.2500"
    out["slip"] = (slip, "scores", "scores:arithmetic_slip")
    return out


def make_class(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    for stem, (answers, _, _) in class_answers().items():
        write_answers(folder, answers, f"{stem}.json")
    (folder / "zz_broken.json").write_text('{"weights": [["0.3"', encoding="utf-8")
    (folder / "notes.txt").write_text("not an answers file", encoding="utf-8")
    return folder


def test_grading_a_class(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem_file = write_problem(tmp_path, "causal")
    folder = make_class(tmp_path)
    report = tmp_path / "report.csv"
    status = main(["check", str(problem_file), str(folder), "--report", str(report)])
    out, err = capsys.readouterr()
    assert status == 2  # one file is unreadable
    assert out == ""
    rows = list(csv.DictReader(io.StringIO(report.read_text(encoding="utf-8"))))
    expected = class_answers()
    assert len(rows) == len(expected) + 1  # one per answers file; notes.txt is not one
    assert {"file", "verdict", "first_error", "diagnoses"} <= set(rows[0])
    assert set(steps_of("causal")) <= set(rows[0])
    by_stem = {Path(r["file"]).stem: r for r in rows}
    broken = by_stem.pop("zz_broken")
    assert broken["verdict"] == "error"
    assert "zz_broken.json" in broken["error"] and "malformed JSON" in broken["error"]
    assert set(by_stem) == set(expected)
    for stem, (answers, first, diagnosis) in expected.items():
        row = by_stem[stem]
        assert row["verdict"] == ("incorrect" if first else "correct"), row
        assert row["first_error"] == first, row
        assert row["diagnoses"] == diagnosis, row
        for step in steps_of("causal"):
            if step not in answers:
                assert row[step] == "", (stem, step)
                continue
            total = sum(t is not None for r in answers[step] for t in r)
            right_entries, answered = (int(x) for x in row[step].split("/"))
            assert answered == total
            assert (right_entries == total) == (step != first), (stem, step, row[step])
    assert [line for line in err.splitlines() if line.startswith("symattn: error:")] == [
        f"symattn: error: {broken['error']}"
    ]
    assert "grading [" not in err and "\r" not in err  # stderr is not a terminal
    assert "1 unreadable" in err


def test_class_without_errors_exits_1_or_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem_file = write_problem(tmp_path, "causal")
    folder = make_class(tmp_path)
    (folder / "zz_broken.json").unlink()
    assert main(["check", str(problem_file), str(folder)]) == 1  # some are wrong
    out = capsys.readouterr().out
    assert out.startswith("file,verdict,first_error,diagnoses,")  # the CSV on stdout
    assert len(out.splitlines()) == len(class_answers()) + 1
    # a glob is the files it matches, as the shell would pass them: several are a class,
    # one is checked alone (batch mode never comes from the glob's characters)
    assert main(["check", str(problem_file), str(folder / "*o*.json")]) == 1
    out = capsys.readouterr().out
    names = [Path(r["file"]).name for r in csv.DictReader(io.StringIO(out))]
    assert len(names) > 1 and names == sorted(names)
    assert main(["check", str(problem_file), str(folder / "slip*.json")]) == 1
    out = capsys.readouterr().out
    assert not out.startswith("file,verdict") and "Checking" in out
    assert main(["check", str(problem_file), str(folder / "slip.json")]) == 1
    assert capsys.readouterr().out == out
    files = [str(folder / "correct.json"), str(folder / "no_softmax.json")]
    assert main(["check", str(problem_file), *files]) == 1
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["verdict"] for r in rows] == ["correct", "incorrect"]
    only_correct = tmp_path / "good"
    only_correct.mkdir()
    (folder / "correct.json").rename(only_correct / "correct.json")
    assert (
        main(["check", str(problem_file), str(only_correct), "--report", str(tmp_path / "r.csv")])
        == 0
    )


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    problem_file = write_problem(tmp_path, "causal")
    folder = make_class(tmp_path)
    argv = ["check", str(problem_file), str(folder), "--report", str(tmp_path / "r.csv")]
    monkeypatch.delenv("SYMATTN_NO_PROGRESS", raising=False)
    assert main(argv) == 2
    assert "grading [" not in capsys.readouterr().err
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(argv) == 2
    assert "grading [" in terminal.getvalue()  # the control: a terminal does get the bar


def test_grading_a_class_in_a_subprocess(tmp_path: Path) -> None:
    problem_file = write_problem(tmp_path, "causal")
    folder = make_class(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "symattn", "check", str(problem_file), str(folder)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert len(run.stdout.splitlines()) == len(class_answers()) + 2  # header + broken
    assert "grading [" not in run.stderr and "\r" not in run.stderr


@pytest.mark.parametrize(
    "written",
    ["2", "(2*exp(sqrt(2)) + 2*exp(5*sqrt(2)/2))/(exp(sqrt(2)) + exp(5*sqrt(2)/2))", "2.0000"],
)
def test_an_exact_answer_right_from_a_wrong_earlier_step_is_carried(written: str) -> None:
    """v₁,₁ = 2 (it is 1), then b₁,₁ from it: exactly 2. The value recomputed from the
    student's V carries noise in its last digits; an exact answer is carried, not wrong."""
    report = check(
        symattn.derive(example_path("seed")),
        {"V": [["2", "2"], ["2", "5/2"]], "output": [[written, "2.4465"], ["2.0000", "2.0142"]]},
    ).to_json()
    output = next(s for s in report["steps"] if s["id"] == "output")
    assert [e["status"] for e in output["entries"]] == ["carried", "ok", "carried", "ok"]
    assert output["carried_forward"]
    wrong = check(
        symattn.derive(example_path("seed")),
        {"V": [["2", "2"], ["2", "5/2"]], "output": [["2.0003", "2.4465"], ["2", "2.0142"]]},
    ).to_json()
    statuses = [e["status"] for s in wrong["steps"] if s["id"] == "output" for e in s["entries"]]
    assert statuses == ["wrong", "ok", "carried", "ok"]
