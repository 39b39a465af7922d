"""The JSON of ``symattn derive --format json`` is byte for byte what it was before the
engine moved to ball arithmetic and batched printing (issue 15): sha256 sums of the
output of the code before that change, for fixed problems (multi-head with W_O and a
causal mask, surds, decimals, a scale of 2 and of 1/2) and for the benchmark's random
problems at n = 8, 16, 32 (seed 0).  One problem changed on purpose (its "changed" says why;
"sha256_before" keeps the old sum)."""

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
    (8, "1155ecf8e6ed643f5230865b535553fad9896d2598c33456cb7ea3473217ef84"),
    (16, "eb20ce566cd8e5ca6ac6876ad91df9bd7a01c4b7956f15bd1ccc6c80d326a3e2"),
    (32, "eafc6969417ed436aea8415c5855edfba227381a827ca29656aa91fbfcb86a2f"),
]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _json(problem: dict[str, object], digits: int = 4) -> str:
    return render(symattn.derive(symattn.load(problem), digits=digits), "json", digits=digits)


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_is_byte_identical_to_before(name: str) -> None:
    case = CASES[name]
    assert _sha(_json(case["problem"])) == case["sha256"]
    assert _sha(_json(case["problem"], digits=6)) == case["sha256_digits6"]


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
    assert _sha(_json(_bench_problem(size, 0))) == sha
