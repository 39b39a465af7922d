"""Side-by-side timings of ``symattn derive`` against named baselines.

Run from anywhere as ``python benchmarks/bench_exact.py [--repeat N] [--seed S]``.

Every measurement is the wall time of a whole process (interpreter start-up included), taken
with ``time.perf_counter`` around ``subprocess.run`` with stdout sent to ``/dev/null``:

1. n = d_model = d_k = d_v = 16: ``python -m symattn derive PROBLEM.json --format json`` against
   ``benchmarks/naive_sympy.py`` (plain SymPy matrices, ``exp``, ``evalf(30)``, ``latex``) on
   the same matrices. Target: symattn at least 30x faster.
2. n = d = 64: ``python -m symattn derive PROBLEM.json --format json``. Target: under 10 s.
3. ``python -m symattn derive --example seed --format json`` against ``python -c "import sympy"``.
   Target: ratio below 2.5.

Fast commands take the best (minimum) of ``--repeat`` runs; the naive pipeline runs once.
Exit status 0 when every target passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
NAIVE_SCRIPT = Path(__file__).resolve().with_name("naive_sympy.py")

SPEEDUP_TARGET = 30.0  # naive SymPy pipeline time / symattn time at n = d = 16
LARGE_TARGET_SECONDS = 10.0  # symattn at n = d = 64
STARTUP_RATIO_TARGET = 2.5  # symattn on the seed example / `import sympy`

FAST_TIMEOUT_SECONDS = 120.0
NAIVE_TIMEOUT_SECONDS = 600.0

Entry = int | str
Matrix = list[list[Entry]]


@dataclass(frozen=True)
class Timing:
    """Best wall time of a command, or why it did not finish successfully."""

    label: str
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def describe(self) -> str:
        """``"label 1.23 s"``, or the label and the failure."""
        if self.error is not None:
            return f"{self.label} FAILED ({self.error})"
        return f"{self.label} {format_seconds(self.seconds)}"


def format_seconds(seconds: float) -> str:
    """Format a duration with about three significant digits: ``0.412 s``, ``15.2 s``."""
    if seconds < 1:
        return f"{seconds:.3f} s"
    if seconds < 100:
        return f"{seconds:.1f} s"
    return f"{seconds:.0f} s"


def verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def random_matrix(rng: random.Random, rows: int, cols: int) -> Matrix:
    """Small exact entries: integers in -3..3 mixed with halves written as ``"k/2"``."""
    matrix: Matrix = []
    for _ in range(rows):
        row: list[Entry] = []
        for _ in range(cols):
            if rng.random() < 0.3:
                row.append(f"{rng.choice((-5, -3, -1, 1, 3, 5))}/2")
            else:
                row.append(rng.randint(-3, 3))
        matrix.append(row)
    return matrix


def write_problem(directory: Path, size: int, seed: int) -> Path:
    """Write a self-attention problem with n = d_model = d_k = d_v = ``size``."""
    rng = random.Random(seed)
    problem = {name: random_matrix(rng, size, size) for name in ("X", "W_Q", "W_K", "W_V")}
    path = directory / f"problem_n{size}_seed{seed}.json"
    path.write_text(json.dumps(problem))
    return path


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no output on stderr"


def time_command(label: str, command: Sequence[str], repeat: int, timeout: float) -> Timing:
    """Best wall time of ``repeat`` runs of ``command``; stops at the first failing run."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            completed = subprocess.run(
                list(command),
                cwd=REPO_ROOT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Timing(label, timeout, f"timed out after {format_seconds(timeout)}")
        elapsed = time.perf_counter() - start
        if completed.returncode != 0:
            message = f"exit {completed.returncode}: {last_line(completed.stderr)}"
            return Timing(label, elapsed, message)
        best = min(best, elapsed)
    return Timing(label, best)


def symattn_derive(*args: str) -> list[str]:
    return [sys.executable, "-m", "symattn", "derive", *args, "--format", "json"]


def bench_speedup(problem: Path, repeat: int) -> bool:
    """Target 1: symattn at least 30x faster than the naive SymPy pipeline at n = d = 16."""
    naive = time_command(
        "naive sympy pipeline",
        [sys.executable, str(NAIVE_SCRIPT), str(problem)],
        repeat=1,
        timeout=NAIVE_TIMEOUT_SECONDS,
    )
    fast = time_command(
        "symattn derive", symattn_derive(str(problem)), repeat, FAST_TIMEOUT_SECONDS
    )
    passed = naive.ok and fast.ok and naive.seconds >= SPEEDUP_TARGET * fast.seconds
    ratio = f"ratio {naive.seconds / fast.seconds:.1f}x  " if naive.ok and fast.ok else ""
    print(
        f"n=d=16  {naive.describe()}  {fast.describe()}  {ratio}"
        f"(target >= {SPEEDUP_TARGET:g}x)  {verdict(passed)}"
    )
    return passed


def bench_large(problem: Path, repeat: int) -> bool:
    """Target 2: symattn derives n = d = 64 in under 10 s."""
    timing = time_command(
        "symattn derive", symattn_derive(str(problem)), repeat, FAST_TIMEOUT_SECONDS
    )
    passed = timing.ok and timing.seconds < LARGE_TARGET_SECONDS
    print(f"n=d=64  {timing.describe()}  (target < {LARGE_TARGET_SECONDS:g} s)  {verdict(passed)}")
    return passed


def bench_startup(repeat: int) -> bool:
    """Target 3: the seed example costs less than 2.5x a bare ``import sympy``."""
    baseline = time_command(
        'python -c "import sympy"',
        [sys.executable, "-c", "import sympy"],
        repeat,
        FAST_TIMEOUT_SECONDS,
    )
    seed = time_command(
        "symattn derive --example seed",
        symattn_derive("--example", "seed"),
        repeat,
        FAST_TIMEOUT_SECONDS,
    )
    passed = baseline.ok and seed.ok and seed.seconds < STARTUP_RATIO_TARGET * baseline.seconds
    ratio = f"ratio {seed.seconds / baseline.seconds:.2f}x  " if baseline.ok and seed.ok else ""
    print(
        f"startup  {baseline.describe()}  {seed.describe()}  {ratio}"
        f"(target < {STARTUP_RATIO_TARGET:g}x)  {verdict(passed)}"
    )
    return passed


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="N",
        help="runs per fast command, best reported (default 3; the naive pipeline runs once)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for the generated matrices (default 0)"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"python {platform.python_version()}  sympy {package_version('sympy')}  "
        f"{platform.machine()}  repeat {args.repeat}  seed {args.seed}"
    )
    # Warm the file-system cache and byte-code so the single naive run is not charged for it.
    subprocess.run([sys.executable, "-c", "import sympy"], cwd=REPO_ROOT, check=False)

    with tempfile.TemporaryDirectory(prefix="symattn-bench-") as tmp:
        directory = Path(tmp)
        results = [
            bench_speedup(write_problem(directory, 16, args.seed), args.repeat),
            bench_large(write_problem(directory, 64, args.seed), args.repeat),
            bench_startup(args.repeat),
        ]

    failed = results.count(False)
    print("all targets PASS" if failed == 0 else f"{failed} of {len(results)} targets FAIL")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
