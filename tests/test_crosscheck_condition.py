"""The cross-check allows for the condition of the computation (reproducers r05, r05b,
r05c): the sizes of the terms carry on from step to step, so float64's cancellation after
a LayerNorm or next to an additive −1e9 is "passed within float64's error", while a wrong
value still fails."""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal
from typing import Any

import pytest

import symattn
from symattn.compute import crosscheck
from symattn.derivation import Derivation
from tests.helpers import run_cli

#: r05: X_norm[1, 2] = 3(1 − √2/2)/σ − 3 ≈ −1.7e-4, a cancellation against β = −3.
PRE_NORM_BETA: dict[str, Any] = {
    "X": [["sqrt(2)", 2]],
    "W_Q": [[0, -2], ["2*sqrt(2)", -1.6]],
    "W_K": [[2, -2], ["1/5", 1]],
    "W_V": [[-0.2, "5/5"], [3, -2.6]],
    "scale": 2,
    "mask": [[1]],
    "block": True,
    "norm": "pre",
    "W_1": [[-3, 0, 3], [-3, -3, 3]],
    "W_2": [[-1, 1], [1, -1], [-1, 3]],
    "b_1": [0, -1, 3],
    "b_2": [3, 0],
    "gamma": [0, 3],
    "beta": [-3, -3],
    "eps": 1e-5,
}

#: r05b: an additive mask of −1e9 on a whole row (s − 1e9 loses the digits of s).
ADDITIVE_1E9: dict[str, Any] = {
    "X": [[3, -1], [-2, 3], [-3, -2.7]],
    "W_Q": [[-1, "-1/4", "-5/5"], [-1, 2.9, -3]],
    "W_K": [[-2, "2*sqrt(2)", "sqrt(2)"], [3, "-1/4", "sqrt(5)"]],
    "W_V": [[1, -0.9, -2], [0, -1, 1]],
    "score": "additive",
    "W_a": [["-1*sqrt(3)"], [3], ["sqrt(3)"]],
    "U_a": [[2], ["-4/2"], [-2]],
    "v_a": [-1],
    "scale": "3/2",
    "mask": [[0, 0, 0], [-1e9, -1e9, 0], [-1e9, -1e9, "-inf"]],
    "positions": "sinusoidal",
}

#: r05c: a pre-norm block whose ffn_hidden[1, 2] cancels.
PRE_NORM_FFN: dict[str, Any] = {
    "X": [[1, "3/3"], ["-1*sqrt(2)", "4/4"], ["2*sqrt(3)", 3]],
    "W_Q": [[-3, "sqrt(2)", "-1*sqrt(2)"], ["-4/3", "-4/2", "5/3"]],
    "W_K": [[-2, "sqrt(2)", "sqrt(2)"], ["sqrt(5)", -2.7, -3]],
    "W_V": [["0/4", 1.2], [2, 3]],
    "block": True,
    "norm": "pre",
    "W_1": [[1, 3], [-1, -2]],
    "W_2": [[1, -1], [2, -2]],
    "b_1": [0, 0],
    "b_2": [-3, 1],
    "gamma": [-2, 3],
    "eps": 1e-5,
}

#: Unseen: a post-norm block whose β nearly cancels the normalised value, and a plain
#: attention with a −1e12 additive mask on every entry of a row.
POST_NORM_BETA: dict[str, Any] = {
    **PRE_NORM_BETA,
    "X": [["sqrt(3)", 1], [2, "sqrt(5)"]],
    "mask": "none",
    "norm": "post",
    "gamma": [3, "sqrt(2)"],
    "beta": [-3, "-sqrt(2)"],
}
ADDITIVE_1E12: dict[str, Any] = {
    "X": [[1, "sqrt(2)"], ["1/3", -1]],
    "W_Q": [[1, 0], [0, 1]],
    "W_K": [[1, 0], [0, 1]],
    "W_V": [[1, 2], [3, 4]],
    "mask": [[0, 0], [-1e12, -1e12]],
}

CONDITIONED = [PRE_NORM_BETA, ADDITIVE_1E9, PRE_NORM_FFN, POST_NORM_BETA, ADDITIVE_1E12]


@pytest.mark.parametrize("problem", CONDITIONED)
def test_cancellation_passes_within_float64s_error(problem: dict[str, Any]) -> None:
    check = symattn.derive(problem).crosscheck
    assert check is not None
    assert check.passed, check
    assert check.within_float64_error
    assert check.to_json()["within_float64_error"] is True


def test_a_well_conditioned_problem_is_plainly_passed() -> None:
    check = symattn.derive(
        {
            "X": [[1, 2], [3, 4]],
            "W_Q": [[1, 0], [0, 1]],
            "W_K": [[1, 0], [0, 1]],
            "W_V": [[1, 0], [0, 1]],
        }
    ).crosscheck
    assert check is not None and check.passed and not check.within_float64_error
    assert "within_float64_error" not in check.to_json()


@pytest.mark.parametrize("problem", [PRE_NORM_BETA, ADDITIVE_1E9, POST_NORM_BETA])
@pytest.mark.parametrize("step_id", ["Q", "output"])
def test_a_wrong_value_still_fails_where_float64_cancels(
    problem: dict[str, Any], step_id: str
) -> None:
    d = symattn.derive(problem)
    step = d.step(step_id)
    rows = [list(row) for row in step.values]
    rows[0][0] = rows[0][0] * Decimal("1.000001") + Decimal("1e-6")
    steps = tuple(
        dataclasses.replace(s, values=tuple(map(tuple, rows))) if s.id == step_id else s
        for s in d.steps
    )
    check = crosscheck.crosscheck(Derivation(d.problem, steps, d.matrices, d.precision))
    assert check is not None and not check.passed
    assert check.worst_step == step_id


def test_the_verdict_is_said_in_text_and_json(tmp_path: Any) -> None:
    path = tmp_path / "r05.json"
    path.write_text(json.dumps(PRE_NORM_BETA), encoding="utf-8")
    status, text, _ = run_cli(["derive", str(path)])
    assert status == 0
    assert "Cross-check against NumPy float64: passed within float64's error" in text
    assert "FAILED" not in text
    data = json.loads(run_cli(["derive", str(path), "--format", "json"])[1])
    assert data["crosscheck"]["passed"] is True
    assert data["crosscheck"]["within_float64_error"] is True
    assert "在 float64 的误差范围内通过" in run_cli(["derive", str(path), "--lang", "zh"])[1]
