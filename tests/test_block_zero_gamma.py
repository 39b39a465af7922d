"""A LayerNorm with an exact 0 in γ gives exactly β in that column (reproducer r13): no
0·(…) factor is carried into the later steps, so such a block derives in seconds."""

from __future__ import annotations

import time
from typing import Any

import pytest
import sympy

import symattn
from symattn.numbers import to_sympy

#: r13: a pre-norm block with γ = [0, 1, 1] ran for more than 120 s.
R13: dict[str, Any] = {
    "X": [[-1.7, "2*sqrt(3)", -2], [1, -3, "3/2"], [-2, 1, -1]],
    "W_Q": [[-1, 0, -2, -3], [0.5, 1, 0, -3], [-0.9, 3, 0, 0]],
    "W_K": [[2.2, "5/2", -1, 0], [-1, 2, -1, "-1/2"], [-3, 2.1, "sqrt(5)", 1]],
    "W_V": [["-5/4", -2, 0], [2, -2, -0.7], [-0.5, 0, 2]],
    "block": True,
    "norm": "pre",
    "W_1": [[2, 3, 1], [3, 1, 1], [-3, 1, 0]],
    "W_2": [[0, -2, 2], [-3, 1, -1], [2, -3, 3]],
    "b_1": [-2, -2, 1],
    "b_2": [1, -2, 0],
    "gamma": [0, 1, 1],
}

#: Unseen: the zero in the middle of γ, with a β, post-norm, other surds.
VARIANT: dict[str, Any] = {
    **R13,
    "X": [["sqrt(2)", -1, 3], [2, "sqrt(7)", -1], [0.5, -2, "sqrt(3)"]],
    "norm": "post",
    "gamma": [2, 0, "1/2"],
    "beta": ["1/3", -1, 0],
}


@pytest.mark.parametrize(
    ("problem", "step_id", "column", "beta"),
    [
        (R13, "X_norm", 0, "0"),
        (VARIANT, "norm", 1, "-1"),
    ],
)
def test_a_zero_gamma_derives_fast_and_gives_beta(
    problem: dict[str, Any], step_id: str, column: int, beta: str
) -> None:
    start = time.process_time()
    d = symattn.derive(problem)
    assert time.process_time() - start < 10
    step = d.step(step_id)
    assert all(to_sympy(row[column]) == sympy.Rational(beta) for row in step.exact)
    assert d.crosscheck is not None and d.crosscheck.passed
