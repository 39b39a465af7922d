"""The kinds of positions, RoPE and additive attention, exactly and on decimals: the
sinusoidal table, the rotations of RoPE, the pairs (i, j) of additive attention and
their tanh scores.

sin, cos and tanh of exact arguments are transcendental: the exact rules keep them as
SymPy's ``sin(1/100)``, ``tanh(2)`` (:mod:`symattn.numbers.transcendental`; a rational
value such as sin 0 stays a :class:`~symattn.numbers.Surd`), the decimal rules take
their certified decimals.  The additive pairs are given the products q_i W_a and k_j U_a
(the caller multiplies, exactly or on decimals).

>>> from symattn.printing import sstr
>>> from symattn.steps import Kind, StepSpec
>>> spec = StepSpec(id="P", kind=Kind.POSITIONS, formula="", angle_base=Surd.rational(10000))
>>> [[sstr(x) for x in row] for row in positions(spec, 2, 2)]
[['0', '1'], ['sin(1)', 'cos(1)']]
"""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from ..numbers import Surd, sinusoid, sinusoid_value, tanh_exact, tanh_value, to_sympy
from ..problem import Matrix
from ..steps import StepSpec
from .block import add

__all__ = [
    "additive_pairs",
    "decimal_additive_pairs",
    "decimal_positions",
    "decimal_rotate",
    "decimal_tanh_score",
    "positions",
    "rope_pairs",
    "rotate",
    "tanh_score",
]

DecimalRows = list[list[Decimal]]


def positions(spec: StepSpec, rows: int, width: int) -> Matrix:
    """P_{pos,2i} = sin(pos / base^{2i/d}), P_{pos,2i+1} = cos(…) (swapped by a mistake)."""
    even, odd = ("cos", "sin") if spec.pe_swapped else ("sin", "cos")
    return tuple(
        tuple(
            sinusoid(odd if c % 2 else even, pos, c - c % 2, width, spec.angle_base)
            for c in range(width)
        )
        for pos in range(rows)
    )


def rope_pairs(width: int, pairs: str) -> list[tuple[int, int]]:
    """The columns turned together: (2i, 2i+1), or (i, i + d/2) as rotate-half does."""
    if pairs == "half":
        return [(i, i + width // 2) for i in range(width // 2)]
    return [(2 * i, 2 * i + 1) for i in range(width // 2)]


def rotate(spec: StepSpec, matrix: Matrix) -> Matrix:
    """RoPE: row pos, pair t = (a, b) turned by θ = pos · base^{−2t/d}:
    (x_a cos θ − x_b sin θ, x_a sin θ + x_b cos θ)."""
    width = len(matrix[0])
    out = []
    for pos, row in enumerate(matrix):
        if pos == 0:
            out.append(tuple(row))
            continue
        new: list[Any] = list(row)
        for t, (a, b) in enumerate(rope_pairs(width, spec.rope_pairs)):
            c = sinusoid("cos", pos, 2 * t, width, spec.angle_base)
            s = sinusoid("sin", pos, 2 * t, width, spec.angle_base)
            x, y = to_sympy(row[a]), to_sympy(row[b])
            new[a], new[b] = x * c - y * s, x * s + y * c
        out.append(tuple(new))
    return tuple(out)


def additive_pairs(qw: Matrix, ku: Matrix) -> Matrix:
    """Row (i, j) = q_i W_a + k_j U_a (the rows i = 1 … n, j = 1 … m in order), from
    the products ``qw`` = Q W_a and ``ku`` = K U_a."""
    return tuple(add((a,), (b,))[0] for a in qw for b in ku)


def tanh_score(hidden: Matrix, v_a: Matrix, n: int) -> Matrix:
    """s_ij = Σ_r tanh(h_ij,r) v_r, an n × m matrix (rows of ``hidden`` are (i, j))."""
    m = len(hidden) // n
    flat = [_sum_of([tanh_exact(h) for h in row], [v[0] for v in v_a]) for row in hidden]
    return tuple(tuple(flat[i * m : (i + 1) * m]) for i in range(n))


def _sum_of(values: Sequence[Any], coefs: Sequence[Any]) -> Any:
    if all(isinstance(x, Surd) for x in values):
        total = Surd()
        for x, c in zip(values, coefs):
            total = total + x * c
        return total
    import sympy

    return sympy.Add(*(to_sympy(x) * to_sympy(c) for x, c in zip(values, coefs)))


# -- on decimals (the values of SymPy entries, and the mistake models) ---------------------
def _digits() -> int:
    return decimal.getcontext().prec


def decimal_positions(spec: StepSpec, rows: int, width: int) -> DecimalRows:
    even, odd = ("cos", "sin") if spec.pe_swapped else ("sin", "cos")
    return [
        [
            sinusoid_value(
                odd if c % 2 else even, pos, c - c % 2, width, spec.angle_base, _digits()
            )
            for c in range(width)
        ]
        for pos in range(rows)
    ]


def decimal_rotate(spec: StepSpec, matrix: DecimalRows) -> DecimalRows:
    width = len(matrix[0])
    out = []
    for pos, row in enumerate(matrix):
        new = list(row)
        for t, (a, b) in enumerate(rope_pairs(width, spec.rope_pairs)):
            c = sinusoid_value("cos", pos, 2 * t, width, spec.angle_base, _digits())
            s = sinusoid_value("sin", pos, 2 * t, width, spec.angle_base, _digits())
            new[a], new[b] = row[a] * c - row[b] * s, row[a] * s + row[b] * c
        out.append(new)
    return out


def decimal_additive_pairs(qw: DecimalRows, ku: DecimalRows) -> DecimalRows:
    return [[x + y for x, y in zip(a, b)] for a in qw for b in ku]


def decimal_tanh_score(hidden: DecimalRows, v_a: DecimalRows, n: int) -> DecimalRows:
    m = len(hidden) // n
    flat = [
        sum((tanh_value(h, _digits()) * v[0] for h, v in zip(row, v_a)), Decimal(0))
        for row in hidden
    ]
    return [flat[i * m : (i + 1) * m] for i in range(n)]
