"""In-process timing of ``symattn.render.render(d, "tex")`` against ``sympy.latex``.

Run from anywhere as ``python benchmarks/bench_latex.py [--repeat N] [--seed S]``.

Everything happens in this one process, with the inputs built untimed beforehand. At
n = d_model = d_k = d_v = 16, on the matrices ``bench_exact.py`` generates for the same seed:

- symattn: ``d = symattn.derive(problem)`` once, then ``symattn.render.render(d, "tex")`` (the
  whole standalone LaTeX document of the derivation), best of ``--repeat`` runs.
- baseline: the output matrix of the naive SymPy pipeline (``naive_sympy.py``: ``Matrix`` of
  ``Rational``s, ``Q K^T / sqrt(d_k)``, softmax with ``exp``, ``weights * V``), then
  ``sympy.latex(output)``, best of 2 runs (each takes several seconds).

Target: symattn at least 20x faster. Exit status 0 when the target passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence

import sympy
from bench_exact import Matrix, Timing, package_version, random_matrix, verdict
from naive_sympy import to_matrix

import symattn
from symattn.render import render

SIZE = 16  # n = d_model = d_k = d_v
SPEEDUP_TARGET = 20.0  # sympy.latex(naive output) time / symattn render tex time
BASELINE_REPEAT = 2  # sympy.latex runs, best reported


def make_problem(size: int, seed: int) -> dict[str, Matrix]:
    """The self-attention problem ``bench_exact.write_problem`` writes for ``size`` and ``seed``."""
    rng = random.Random(seed)
    return {name: random_matrix(rng, size, size) for name in ("X", "W_Q", "W_K", "W_V")}


def naive_output(problem: dict[str, Matrix]) -> sympy.Matrix:
    """The exact attention output as ``naive_sympy.py`` computes it, before ``latex``."""
    x = to_matrix(problem["X"])
    q = x * to_matrix(problem["W_Q"])
    k = x * to_matrix(problem["W_K"])
    v = x * to_matrix(problem["W_V"])
    scores = q * k.T / sympy.sqrt(k.shape[1])

    n_rows, n_cols = scores.shape
    weight_rows: list[list[sympy.Expr]] = []
    for i in range(n_rows):
        exps = [sympy.exp(scores[i, j]) for j in range(n_cols)]
        denominator = sympy.Add(*exps)
        weight_rows.append([e / denominator for e in exps])
    return sympy.Matrix(weight_rows) * v


def time_call(label: str, call: Callable[[], str], repeat: int) -> Timing:
    """Best wall time of ``repeat`` calls of ``call``; stops at the first one that raises."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        try:
            text = call()
        except Exception as error:  # report any failure as a FAIL line, not a traceback
            elapsed = time.perf_counter() - start
            return Timing(label, elapsed, f"{type(error).__name__}: {error}"[:200])
        elapsed = time.perf_counter() - start
        if not text:
            return Timing(label, elapsed, "empty output")
        best = min(best, elapsed)
    return Timing(label, best)


def bench_latex(seed: int, repeat: int) -> bool:
    """symattn's whole .tex document at least 20x faster than ``sympy.latex`` of the output."""
    problem = make_problem(SIZE, seed)
    derivation = symattn.derive(problem)
    output = naive_output(problem)

    fast = time_call("symattn render tex", lambda: render(derivation, "tex"), repeat)
    naive = time_call("sympy.latex(naive output)", lambda: sympy.latex(output), BASELINE_REPEAT)

    passed = naive.ok and fast.ok and naive.seconds >= SPEEDUP_TARGET * fast.seconds
    ratio = f"ratio {naive.seconds / fast.seconds:.1f}x  " if naive.ok and fast.ok else ""
    print(
        f"n=d={SIZE}  {naive.describe()}  {fast.describe()}  {ratio}"
        f"(target >= {SPEEDUP_TARGET:g}x)  {verdict(passed)}"
    )
    return passed


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        metavar="N",
        help=f"symattn render runs, best reported (default 5; sympy.latex runs {BASELINE_REPEAT})",
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
    return 0 if bench_latex(args.seed, args.repeat) else 1


if __name__ == "__main__":
    sys.exit(main())
