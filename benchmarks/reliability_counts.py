"""The reliability counts of issue 23: every fuzz class run over seeds, and the totals.

    python benchmarks/reliability_counts.py [-n N] [--slow] [--first SEED]

Classes (tests/fuzz_files.py, tests/fuzz_numbers.py; the same cases as
tests/test_fuzz_classes.py and tests/test_property_mpmath.py):

- ``collisions``: every command with an output that is an input, inside an input folder,
  or another output, spelled as ``./x``, an absolute path, ``d/../x``, a symbolic or a
  hard link — refused before anything is written;
- ``ties``: exact ties written with sin, cos, exp and square roots — half away from zero
  or refused;
- ``zeros``: gamma, weights and rows with zeros — no blow-up, bounded time, every digit
  right;
- ``controls``: bidi, zero-width, C0 and C1 characters in titles, tokens, file names,
  answers, roster fields and submissions' names — never raw on the terminal;
- ``csv``: CSV answers files and rosters with long fields, entries given twice, many
  rows (``--slow``: 100,000);
- ``oracle``: a problem of every topic key at a ``--digits`` drawn from 0…30 (``--slow``:
  every key at every ``--digits``), each decimal against the mpmath oracle.

``-n N`` scales the seeds of every class (default 1: about a minute); ``--slow`` runs the
full sizes.  Prints one line per class and ``runs R, mismatches M, hangs H, clobbers C``;
the exit status is 1 when M, H or C is not 0 (the failures are listed first).
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzz_files import collision_case, controls_case, csv_case
from tests.fuzz_harness import Case, Tally
from tests.fuzz_numbers import TOPICS, oracle_case, tie_case, zero_case

#: Seeds per class for each unit of ``-n``: (default, --slow).
SEEDS = {
    "collisions": (40, 300),
    "ties": (40, 250),
    "zeros": (10, 75),
    "controls": (40, 300),
    "csv": (16, 40),
}


def _plan(n: int, slow: bool, first: int) -> list[tuple[str, Callable[[Path, Tally], None]]]:
    """Every (class, one case) to run."""
    cases: dict[str, Case] = {
        "collisions": collision_case,
        "ties": tie_case,
        "zeros": zero_case,
        "controls": controls_case,
        "csv": functools.partial(csv_case, many=100_000 if slow else 3000),
    }
    plan: list[tuple[str, Callable[[Path, Tally], None]]] = []
    for name, case in cases.items():
        for seed in range(first, first + n * SEEDS[name][slow]):
            plan.append((name, functools.partial(case, seed)))
    for k in range(n):
        for key in sorted(TOPICS):
            digits_list = range(31) if slow else [None]
            for digits in digits_list:
                seed = first + 1000 * k + (digits or 0)
                plan.append(
                    ("oracle", functools.partial(oracle_case, seed, key=key, digits=digits))
                )
    return plan


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1, help="scale the seeds of every class")
    parser.add_argument("--slow", action="store_true", help="the full sizes")
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    args = parser.parse_args()
    totals: dict[str, Tally] = {}
    seconds: dict[str, float] = {}
    plan = _plan(args.n, args.slow, args.first)
    for k, (name, run_one) in enumerate(plan):
        tally = totals.setdefault(name, Tally())
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="symattn-fuzz-") as folder:
            run_one(Path(folder), tally)
        seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - start
        if k + 1 == len(plan) or plan[k + 1][0] != name:  # the class is done
            extra = f", {tally.decimals} decimals compared" if tally.decimals else ""
            print(f"{name:<11} {tally.line}{extra} ({seconds[name]:.0f} s)", flush=True)
    whole = Tally()
    for tally in totals.values():
        whole.add(tally)
    for failure in whole.failures:
        print(failure, file=sys.stderr)
    print(whole.line)
    return 0 if whole.clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
