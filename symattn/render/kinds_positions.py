"""How the kinds of positions, RoPE and additive attention are written: the sinusoidal
table, RoPE's rotations, and additive attention's hidden vectors and tanh scores (X + P
and an additive mask are sums entry by entry, :func:`.kinds_block.add`).  Each method
writes its general formula, one row (or pair of rows) with the numbers substituted,
the exact values and their decimals, then the matrix.
"""

from __future__ import annotations

from typing import Any

from ..entries import Ref
from ..numbers import Surd, angle, to_sympy
from ..steps import Kind, Step
from .math import (
    Concat,
    Frac,
    Glue,
    Line,
    Lit,
    Math,
    Minus,
    Name,
    Number,
    Paren,
    Product,
    Sum,
    Sym,
    Value,
)
from .walker import KindMethod, Walker

__all__ = ["POSITION_KINDS"]


def _call(function: str, argument: Math) -> Math:
    if isinstance(argument, Number) and isinstance(argument.value, Surd):
        argument = Value(argument.value, inline=True)  # tanh(-1), not tanh((-1))
    return Concat((Sym(function), Paren(argument)))


def _entry(walk: Walker, matrix: str, i: int, j: int) -> tuple[Ref, Any]:
    return Ref(matrix, i, j), walk.d.matrices[matrix][i][j]


def _rows(walk: Walker, step: Step) -> list[int]:
    """The expanded rows; row 1 (position 0) is trivial, so position 1 comes with it."""
    rows = walk.expanded(step)
    if rows == [0] and step.shape[0] > 1:
        rows = [0, 1]
    return rows


def _power(base: Any, twice_i: int, width: int) -> Math:
    import sympy

    return Value(sympy.Pow(to_sympy(base), sympy.Rational(twice_i, width), evaluate=False))


def positions(walk: Walker, step: Step) -> None:
    spec = step.spec
    walk.say(walk.words("derive.general"))
    angle_of = Frac(Sym("pos"), Sym("base_power"))
    even, odd = ("cos", "sin") if spec.pe_swapped else ("sin", "cos")
    walk.show(
        [
            Line(Name(step.id, "pos", "2i"), (("=", _call(even, angle_of)),)),
            Line(Name(step.id, "pos", "2i+1"), (("=", _call(odd, angle_of)),)),
        ]
    )
    walk.say(walk.words("derive.positions"))
    width = step.shape[1]
    for i in _rows(walk, step):
        walk.heading_row(step, i)
        lines = []
        for r, j in walk.cells(step, i):
            twice_i = j - j % 2
            function = odd if j % 2 else even
            shown = Frac(Lit(str(r)), _power(spec.angle_base, twice_i, width))
            parts: list[tuple[str, Math]] = [("=", _call(function, shown))]
            lines.append(Line(Name(step.id, r, j), tuple(parts), walk.result(step, r, j)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


def _pairs(width: int, how: str) -> list[tuple[int, int]]:
    if how == "half":
        return [(t, t + width // 2) for t in range(width // 2)]
    return [(2 * t, 2 * t + 1) for t in range(width // 2)]


def rotate(walk: Walker, step: Step) -> None:
    spec = step.spec
    (src,) = step.operands
    theta = Name("theta", "pos", "i")
    walk.say(walk.words("derive.general"))
    a, b = Name(src, "pos", "2i"), Name(src, "pos", "2i+1")
    cos, sin = _call("cos", theta), _call("sin", theta)
    walk.show(
        [
            Line(
                Name(step.id, "pos", "2i"),
                (("=", Sum((Product((a, cos)), Minus(Product((b, sin)))))),),
            ),
            Line(
                Name(step.id, "pos", "2i+1"), (("=", Sum((Product((a, sin)), Product((b, cos))))),)
            ),
            Line(theta, (("=", Product((Sym("pos"), Sym("rope_power")), Glue.DOT)),)),
        ]
    )
    width = step.shape[1]
    for i in _rows(walk, step):
        walk.heading_row(step, i)
        lines = []
        for t, (ca, cb) in enumerate(_pairs(width, spec.rope_pairs)):
            exact = angle(i, 2 * t, width, spec.angle_base)
            rows = Frac(Lit(str(i)), _power(spec.angle_base, 2 * t, width))
            angle_value = Value(exact, inline=True)
            lines.append(Line(Name("theta", i, t), (("=", rows), ("=", angle_value)), breaks=False))
            (x_ref, x), (y_ref, y) = _entry(walk, src, i, ca), _entry(walk, src, i, cb)
            for col, first, second in ((ca, "cos", "sin"), (cb, "sin", "cos")):
                names = (
                    Product((Name(src, i, ca), _call(first, Name("theta", i, t)))),
                    Product((Name(src, i, cb), _call(second, Name("theta", i, t)))),
                )
                numbers = (
                    Product((walk.number(x_ref, x), _call(first, angle_value)), Glue.DOT),
                    Product((walk.number(y_ref, y), _call(second, angle_value)), Glue.DOT),
                )
                joined: Math
                if col == ca:
                    joined, substituted = (
                        Sum((names[0], Minus(names[1]))),
                        Sum((numbers[0], Minus(numbers[1]))),
                    )
                else:
                    joined, substituted = Sum(names), Sum(numbers)
                lines.append(
                    Line(
                        Name(step.id, i, col),
                        (("=", joined), ("=", substituted)),
                        walk.result(step, i, col),
                    )
                )
        walk.show(lines)
    walk.all_rows(step)


def additive_hidden(walk: Walker, step: Step) -> None:
    q, k, w_a, u_a = step.operands
    walk.say(walk.words("derive.general"))
    general = Sum((Product((Name(q, "i"), Name(w_a))), Product((Name(k, "j"), Name(u_a)))))
    walk.show([Line(Name(step.id, "ij"), (("=", general),), aligned=False)])
    walk.say(walk.words("derive.additive_rows"))
    m = walk.d.problem.m
    for flat in walk.expanded(step):
        i, j = divmod(flat, m)
        walk.heading_row(step, flat)
        lines = []
        for r, c in walk.cells(step, flat):
            width = len(walk.d.matrices[w_a])
            names = Sum(
                tuple(Product((Name(q, i, t), Name(w_a, t, c))) for t in range(width))
                + tuple(Product((Name(k, j, t), Name(u_a, t, c))) for t in range(width))
            )
            numbers = Sum(
                tuple(
                    Product(
                        (
                            walk.number(*_entry(walk, q, i, t)),
                            walk.number(*_entry(walk, w_a, t, c)),
                        ),
                        Glue.DOT,
                    )
                    for t in range(width)
                )
                + tuple(
                    Product(
                        (
                            walk.number(*_entry(walk, k, j, t)),
                            walk.number(*_entry(walk, u_a, t, c)),
                        ),
                        Glue.DOT,
                    )
                    for t in range(width)
                )
            )
            target = Name(step.id, f"({i + 1},{j + 1})", c)
            lines.append(Line(target, (("=", names), ("=", numbers)), walk.result(step, r, c)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


def tanh_score(walk: Walker, step: Step) -> None:
    hidden, v_a = step.operands
    walk.say(walk.words("derive.general"))
    general = Product(
        (_call("tanh", Name(hidden, "ij")), Name(v_a)),
    )
    walk.show([Line(Name(step.id, "i", "j"), (("=", general),), aligned=False)])
    m = walk.d.problem.m
    d_a = len(walk.d.matrices[v_a])
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        lines = []
        for r, j in walk.cells(step, i):
            flat = r * m + j
            pair = f"({r + 1},{j + 1})"
            names = Sum(
                tuple(
                    Product((_call("tanh", Name(hidden, pair, t)), Name(v_a, t, 0)))
                    for t in range(d_a)
                )
            )
            numbers = Sum(
                tuple(
                    Product(
                        (
                            _call("tanh", walk.number(*_entry(walk, hidden, flat, t))),
                            walk.number(*_entry(walk, v_a, t, 0)),
                        ),
                        Glue.DOT,
                    )
                    for t in range(d_a)
                )
            )
            lines.append(
                Line(Name(step.id, r, j), (("=", names), ("=", numbers)), walk.result(step, r, j))
            )
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


POSITION_KINDS: dict[Kind, KindMethod] = {
    Kind.POSITIONS: positions,
    Kind.ROTATE: rotate,
    Kind.ADDITIVE_HIDDEN: additive_hidden,
    Kind.TANH_SCORE: tanh_score,
}
