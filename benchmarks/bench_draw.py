"""Draw time of `symattn exercises` at each size: a grid of tokens, d_model, d_k, heads,
masks and topics, each drawn (or refused) by the generator itself.

Prints one line per size: the seconds it took, the ratio to the 10 s target, and what
happened (drawn, or the refusal's line).  Fails (exit 1) only when a draw fails in any
other way, or when a drawn exercise breaks the weights' bounds (every row's largest
weight ≤ 0.9; from level 2, no weight below 0.02).  `--short` runs a few sizes.

    python benchmarks/bench_draw.py [--short]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from decimal import Decimal
from pathlib import Path

from symattn.errors import SymattnError
from symattn.exercises import ExerciseOptions, generate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' weights oracle
from tests.helpers import weights_rows

TARGET = 10.0

SHORT = [
    {},
    {"heads": 4},
    {"tokens": 8, "d_k": 8},
    {"tokens": 8, "d_model": 8, "d_k": 8, "heads": 4},
    {"tokens": 5, "d_k": 2, "mask": "causal"},
    {"tokens": 8, "d_k": 2},
    {"level": 3, "topics": ("temperature",)},
    {"topics": ("positions", "rope")},
    {"heads": 4, "topics": ("gqa",)},
]


def grid() -> list[dict[str, object]]:
    out: list[dict[str, object]] = list(SHORT)
    for tokens, d_model, d_k, heads in itertools.product((2, 4, 8), (2, 4, 8), (2, 4, 8), (1, 4)):
        out.append({"tokens": tokens, "d_model": d_model, "d_k": d_k, "heads": heads})
    topics = ("positions", "rope", "temperature", "gqa", "block", "additive", "alibi", "window")
    for topic in topics:
        for level in (1, 2, 3):
            out.append({"topics": (topic,), "level": level, "tokens": 4})
    for layout, places in (("column", 2), ("row", 8)):
        out.append({"layout": layout, "places": places, "tokens": 6, "d_k": 4})
    return out


def bounds_broken(exercise: object, level: int) -> str | None:
    for name, kept in weights_rows(exercise.key):  # type: ignore[attr-defined]
        if len(kept) < 2:
            continue
        if max(kept) > Decimal("0.9"):
            return f"{name}: largest weight {max(kept):.4f} > 0.9"
        if level >= 2 and min(kept) < Decimal("0.02"):
            return f"{name}: weight {min(kept):.4f} < 0.02"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a few sizes only")
    args = parser.parse_args()
    failed = 0
    worst = 0.0
    for kw in SHORT if args.short else grid():
        label = " ".join(f"{k}={v}" for k, v in kw.items()) or "defaults"
        start = time.perf_counter()
        try:
            options = ExerciseOptions(**kw)  # type: ignore[arg-type]
        except SymattnError as refused:
            seconds = time.perf_counter() - start
            print(f"{label}: {seconds:.2f} s ({seconds / TARGET:.2f}× target) refused: {refused}")
            continue
        try:
            (exercise,) = generate(1, 1, options)
            broken = bounds_broken(exercise, options.level)
            outcome = "drawn" if broken is None else f"BOUND BROKEN: {broken}"
            failed += broken is not None
        except SymattnError as error:
            outcome = f"FAILED: {error}"
            failed += 1
        seconds = time.perf_counter() - start
        worst = max(worst, seconds)
        print(f"{label}: {seconds:.2f} s ({seconds / TARGET:.2f}× target) {outcome}", flush=True)
    print(
        f"slowest draw {worst:.2f} s ({worst / TARGET:.2f}× the {TARGET:.0f} s target); "
        f"{failed} failed"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
