"""``symattn check`` of large answers files gives byte for byte the JSON report it gave
before the marking was made faster (issue 15, part 4: the trials made only when the key
does not explain an entry, one printer per step, zero terms of a radius skipped): sha256
sums of the report of the code before that change.

The problems are the benchmark's (benchmarks/bench_exact.py, seed 0); the answers are
written from the key as a student writes them (benchmarks/bench_check_size.py): exact
strings for Q, K, V and the scores, 4 places for the rest; ``slip`` has one score off by 1
and every later step carried forward from it, ``no_scaling`` the scores not divided by
√d_k, ``right`` every step right.
"""

from __future__ import annotations

import hashlib
import random
from decimal import Decimal
from fractions import Fraction

import pytest

import symattn
from symattn.check.mistakes import by_id, runs
from symattn.compute.variants import DecimalMatrix, evaluate
from symattn.numbers import round_half_away
from symattn.plan import forward_plan
from symattn.render.json_out import dumps

STEPS = ("Q", "K", "V", "scores", "scaled_scores", "weights", "output")
EXACT_STEPS = frozenset(("Q", "K", "V", "scores"))

#: (n, kind) → sha256 of ``dumps(result.to_json()) + "\n"`` (what ``check --format json``
#: writes) before the change
PINNED = {
    (32, "slip"): "4477c98d555b14bd487d658d6f13c9f6b03bb756312cd3e828c0c7bb23ecc850",
    (16, "no_scaling"): "ee5a705ebbace7aef5530adac1e4bf06c091c6a9977b058880d137fd422da5c4",
    (16, "right"): "505f7453ed509df540c530e03129b15db38011f2df339ce259b4008b21c1e8f9",
}


def _problem(size: int) -> dict[str, object]:
    """The matrices of benchmarks/bench_exact.py (integers in -3..3 and halves), seed 0."""
    rng = random.Random(0)

    def matrix() -> list[list[object]]:
        rows: list[list[object]] = []
        for _ in range(size):
            row: list[object] = []
            for _ in range(size):
                if rng.random() < 0.3:
                    row.append(f"{rng.choice((-5, -3, -1, 1, 3, 5))}/2")
                else:
                    row.append(rng.randint(-3, 3))
            rows.append(row)
        return rows

    return {name: matrix() for name in ("X", "W_Q", "W_K", "W_V")}


def _written(step_id: str, value: Decimal | Fraction) -> int | str:
    if step_id in EXACT_STEPS:
        exact = Fraction(value)
        return int(exact) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"
    return round_half_away(value, 4)


def _answers(values: dict[str, DecimalMatrix]) -> dict[str, list[list[int | str]]]:
    return {s: [[_written(s, v) for v in row] for row in values[s]] for s in STEPS}


def _answer_set(problem: symattn.Problem, kind: str) -> dict[str, list[list[int | str]]]:
    plan = forward_plan(problem)
    right = _answers(evaluate(problem, plan))
    if kind == "right":
        return right
    if kind == "no_scaling":
        _, changed, _ = runs(by_id("no_scaling"), problem, plan)[0]
        return right | {s: _answers(evaluate(problem, changed))[s] for s in STEPS[4:]}
    scores = [list(row) for row in right["scores"]]
    scores[1][2] = _written("scores", Fraction(str(scores[1][2])) + 1)
    read = [
        [Decimal(Fraction(str(x)).numerator) / Fraction(str(x)).denominator for x in row]
        for row in scores
    ]
    carried = _answers(evaluate(problem, plan, {"scores": read}))
    return right | {"scores": scores} | {s: carried[s] for s in STEPS[4:]}


@pytest.mark.parametrize(
    ("size", "kind"), sorted(PINNED), ids=[f"n{n}-{k}" for n, k in sorted(PINNED)]
)
def test_check_report_is_byte_identical_to_before(size: int, kind: str) -> None:
    problem = symattn.load(_problem(size))
    result = symattn.check(symattn.derive(problem), _answer_set(problem, kind))
    text = dumps(result.to_json("en")) + "\n"
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == PINNED[(size, kind)]
