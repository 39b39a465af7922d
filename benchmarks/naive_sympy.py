"""Naive SymPy attention pipeline: the baseline that ``bench_exact.py`` compares against.

Usage: ``python benchmarks/naive_sympy.py PROBLEM.json``

Reads the same problem file as ``python -m symattn derive`` (``X``, ``W_Q``, ``W_K``, ``W_V``,
entries integers or strings such as ``"1/2"``), computes single-head attention with plain SymPy
matrices, evaluates every softmax weight and output entry to 30 digits and prints the LaTeX of
the exact output matrix.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import sympy

Entry = int | str


def to_matrix(rows: list[list[Entry]]) -> sympy.Matrix:
    """Build a SymPy matrix of exact ``Rational`` entries."""
    return sympy.Matrix([[sympy.Rational(entry) for entry in row] for row in rows])


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} PROBLEM.json", file=sys.stderr)
        return 2
    problem = json.loads(Path(argv[1]).read_text())
    x = to_matrix(problem["X"])
    w_q = to_matrix(problem["W_Q"])
    w_k = to_matrix(problem["W_K"])
    w_v = to_matrix(problem["W_V"])

    q = x * w_q
    k = x * w_k
    v = x * w_v
    d_k = k.shape[1]
    scores = q * k.T / sympy.sqrt(d_k)

    n_rows, n_cols = scores.shape
    weight_rows: list[list[sympy.Expr]] = []
    for i in range(n_rows):
        exps = [sympy.exp(scores[i, j]) for j in range(n_cols)]
        denominator = sympy.Add(*exps)
        weight_rows.append([e / denominator for e in exps])
    weights = sympy.Matrix(weight_rows)
    output = weights * v

    weights_num = weights.applyfunc(lambda entry: entry.evalf(30))
    output_num = output.applyfunc(lambda entry: entry.evalf(30))

    print(sympy.latex(output))
    # Keep the numeric results observable so the evaluation cannot be skipped.
    print(weights_num[0, 0], output_num[0, 0], file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
