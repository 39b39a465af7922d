"""The JSON of ``symattn derive --format json`` is byte for byte what it was before the
engine moved to ball arithmetic and batched printing (issue 15): sha256 sums of the
output of the code before that change, for fixed problems (multi-head with W_O and a
causal mask, surds, decimals, a scale of 2 and of 1/2) and for the benchmark's random
problems at n = 8, 16, 32 (seed 0).  One problem changed on purpose (its "changed" says why;
"sha256_before" keeps the old sum).

The cross-check's numbers changed on purpose when its bound took the condition of the
computation into account (a cancellation is measured against the size of its terms): so
the sums are of the JSON without its "crosscheck" object (keys sorted), taken from the
code just before that change, whose whole output still had the sums of before.

The general formulas ("formula") became the plain print of the formula trees that the
derivation's "In general" lines print after the sums were taken: each case's
"formulas_before" (step id → formula) writes them back as they were before hashing, as
benchmarks/bench_exact.py does (its FORMULAS_BEFORE)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

import symattn
from symattn.render import render

#: name → problem and the sha256 of its JSON (4 and 6 digits) before the change
CASES = json.loads((Path(__file__).parent / "data" / "identity_problems.json").read_text())

BENCH = [
    (8, "e1c29fbcbb723d5e2c456393b04dec1f7d791c73ed42ee742e31b8ad1c5789b0"),
    (16, "f6d7b71c13144d0c6482574ae9f51958003cd5b9f78a497a60b4fe142c05bf0d"),
    (32, "7a44d12329ee3cc6c80df760d93ccea8527e124880af07a2d399cd66e10822b5"),
]


#: The bench problems' formulas as they were when the sums were taken (step id → formula).
BENCH_FORMULAS_BEFORE = {"weights": "A = softmax(S') (row by row)"}


def _sha(text: str, formulas_before: dict[str, str]) -> str:
    """The sum of the JSON without its cross-check, each formula of ``formulas_before``
    written back (see the module's docstring)."""
    data = json.loads(text)
    data.pop("crosscheck", None)
    for step in data["steps"]:
        step["formula"] = formulas_before.get(step["id"], step["formula"])
    body = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _json(problem: dict[str, object], digits: int = 4) -> str:
    return render(symattn.derive(symattn.load(problem), digits=digits), "json", digits=digits)


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_is_byte_identical_to_before(name: str) -> None:
    case = CASES[name]
    before = case["formulas_before"]
    assert _sha(_json(case["problem"]), before) == case["sha256_without_crosscheck"]
    assert (
        _sha(_json(case["problem"], digits=6), before) == case["sha256_digits6_without_crosscheck"]
    )


def _bench_problem(size: int, seed: int) -> dict[str, object]:
    """The matrices of benchmarks/bench_exact.py (integers in -3..3 and halves)."""
    rng = random.Random(seed)

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


@pytest.mark.parametrize(("size", "sha"), BENCH, ids=[f"n{b[0]}" for b in BENCH])
def test_benchmark_json_is_byte_identical_to_before(size: int, sha: str) -> None:
    assert _sha(_json(_bench_problem(size, 0)), BENCH_FORMULAS_BEFORE) == sha
