"""RoPE (``rope = true``, ``rope_base = 10000``): rotary position embedding of the queries
and the keys, pairs (2i, 2i+1) of row pos turned by θ = pos · base^(−2i/d_k).

The turned entries are sums of products with cos θ and sin θ, kept unexpanded (SymPy's
``cos(1)``); their decimals come from certified values.  Its mistake: the wrong columns
turned together (i and i + d/2, as rotate-half does).

>>> from symattn.load import load
>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]],
...           "W_V": [[1, 0], [0, 1]], "rope": True})
>>> from symattn.plan import forward_plan
>>> forward_plan(p).ids[1:7]
('Q', 'K', 'V', 'Q_rot', 'K_rot', 'scores')
"""

from __future__ import annotations

import decimal
import random
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar

from ..errors import SymattnError
from ..formula import (
    Concat,
    Frac,
    Glue,
    Line,
    Lit,
    Math,
    Minus,
    Name,
    Paren,
    Product,
    Relation,
    Sum,
    Sym,
    Value,
)
from ..numbers import Surd, angle, sinusoid, sinusoid_value, to_sympy
from ..printing import Names, pretty
from ..problem import Matrix, Problem, TopicConfig
from ..record import Record
from ..steps import Kind, Plan, Ref, Step, StepSpec
from ..words import MathName, Words
from . import rope_numpy
from .base import (
    Builder,
    KindRules,
    LoadContext,
    Matrices,
    Mistake,
    Run,
    Topic,
    Writer,
)
from .cells import CellRefs
from .common import TRIG_SYMBOLS, call, expanded_rows, power
from .page_rule import PageRule

__all__ = ["ROTATE", "TOPIC", "RopeConfig", "pairs"]

ROTATE = Kind("rotate")  # pairs (2i, 2i+1) of row pos turned by pos · base^(−2i/d)


class RopeConfig(TopicConfig):
    base: Any  # the base of the angles, exact (10000 by default)


class RotateParams(Record):
    base: Any
    pairs: str = "interleaved"  # (2i, 2i+1); "half": (i, i + d/2), a mistake


def pairs(width: int, how: str) -> list[tuple[int, int]]:
    """The columns turned together: (2i, 2i+1), or (i, i + d/2) as rotate-half does."""
    if how == "half":
        return [(i, i + width // 2) for i in range(width // 2)]
    return [(2 * i, 2 * i + 1) for i in range(width // 2)]


def rotate(params: RotateParams, matrix: Matrix) -> Matrix:
    """Row pos, pair t = (a, b) turned by θ = pos · base^{−2t/d}:
    (x_a cos θ − x_b sin θ, x_a sin θ + x_b cos θ)."""
    width = len(matrix[0])
    out = []
    for pos, row in enumerate(matrix):
        if pos == 0:
            out.append(tuple(row))
            continue
        new: list[Any] = list(row)
        for t, (a, b) in enumerate(pairs(width, params.pairs)):
            c = sinusoid("cos", pos, 2 * t, width, params.base)
            s = sinusoid("sin", pos, 2 * t, width, params.base)
            x, y = to_sympy(row[a]), to_sympy(row[b])
            new[a], new[b] = x * c - y * s, x * s + y * c
        out.append(tuple(new))
    return tuple(out)


def decimal_rotate(params: RotateParams, matrix: list[list[Decimal]]) -> list[list[Decimal]]:
    width = len(matrix[0])
    digits = decimal.getcontext().prec
    out = []
    for pos, row in enumerate(matrix):
        new = list(row)
        for t, (a, b) in enumerate(pairs(width, params.pairs)):
            c = sinusoid_value("cos", pos, 2 * t, width, params.base, digits)
            s = sinusoid_value("sin", pos, 2 * t, width, params.base, digits)
            new[a], new[b] = row[a] * c - row[b] * s, row[a] * s + row[b] * c
        out.append(new)
    return out


def _page_angles(params: RotateParams, rows: int, width: int) -> dict[str, Any]:
    """The pairs turned and, for each row and pair, cos θ and sin θ in the current decimal
    context (the self-check page's constants)."""
    digits = decimal.getcontext().prec
    turned = pairs(width, params.pairs)
    angles = [
        [
            [
                str(sinusoid_value(f, pos, 2 * t, width, params.base, digits))
                for t in range(len(turned))
            ]
            for f in ("cos", "sin")
        ]
        for pos in range(rows)
    ]
    return {"pairs": [list(pair) for pair in turned], "angles": angles}


def _general(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    """Each pair (2i, 2i+1) of row pos turned by θ_{pos,i} = pos · base^(−2i/d_k)."""
    (src,) = spec.operands
    theta = Name("theta", "pos", "i")
    a, b = Name(src, "pos", "2i"), Name(src, "pos", "2i+1")
    cos, sin = call("cos", theta), call("sin", theta)
    return (
        Line(
            Name(spec.id, "pos", "2i"), (("=", Sum((Product((a, cos)), Minus(Product((b, sin)))))),)
        ),
        Line(Name(spec.id, "pos", "2i+1"), (("=", Sum((Product((a, sin)), Product((b, cos))))),)),
        Line(theta, (("=", Product((Sym("pos"), Sym("rope_power")), Glue.DOT)),)),
    )


def _write(walk: Writer, step: Step) -> None:
    params: RotateParams = step.spec.params
    (src,) = step.operands
    walk.say(walk.words("derive.general"))
    walk.show(list(_general(step.spec, walk.words)))
    width = step.shape[1]
    matrix = walk.d.matrices[src]
    for i in expanded_rows(walk, step):
        walk.heading_row(step, i)
        lines = []
        for t, (ca, cb) in enumerate(pairs(width, params.pairs)):
            exact = angle(i, 2 * t, width, params.base)
            rows = Frac(Lit(str(i)), power(params.base, 2 * t, width))
            angle_value = Value(exact, inline=True)
            lines.append(Line(Name("theta", i, t), (("=", rows), ("=", angle_value)), breaks=False))
            x, y = matrix[i][ca], matrix[i][cb]
            for col, first, second in ((ca, "cos", "sin"), (cb, "sin", "cos")):
                names = (
                    Product((Name(src, i, ca), call(first, Name("theta", i, t)))),
                    Product((Name(src, i, cb), call(second, Name("theta", i, t)))),
                )
                numbers = (
                    Product((walk.number(Ref(src, i, ca), x), call(first, angle_value)), Glue.DOT),
                    Product((walk.number(Ref(src, i, cb), y), call(second, angle_value)), Glue.DOT),
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


def _pairs_wrong(problem: Problem, plan: Plan) -> list[Run]:
    """Columns i and i + d/2 turned together (rotate-half) instead of (2i, 2i+1)."""
    if problem.d_k < 4:
        return []

    def change(spec: StepSpec) -> StepSpec | None:
        if spec.kind != ROTATE:
            return None
        return spec.changed(params=RotateParams(spec.params.base, "half"))

    return [(problem, plan.changed(change), {})]


def _cells(spec: StepSpec, refs: CellRefs, pos: int, col: int) -> str:
    """Pair t = (a, b) of row pos: (x_a cos θ − x_b sin θ, x_a sin θ + x_b cos θ)."""
    if pos == 0:
        return refs.cell(0, pos, col)
    width = refs.width(0)
    for t, (a, b) in enumerate(pairs(width, spec.params.pairs)):
        if col in (a, b):
            c = refs.constant(sinusoid("cos", pos, 2 * t, width, spec.params.base))
            s = refs.constant(sinusoid("sin", pos, 2 * t, width, spec.params.base))
            xa, xb = refs.cell(0, pos, a), refs.cell(0, pos, b)
            return f"{xa}*{c}-{xb}*{s}" if col == a else f"{xa}*{s}+{xb}*{c}"
    return refs.cell(0, pos, col)  # an odd width's last column is not turned


class Rope(Topic):
    name = "rope"
    draw_scores = "moved"  # for the exercise draw: topics/draw.py
    asked = "rope"
    fixed = ("theta",)
    keys = ("rope", "rope_base")
    kinds = (
        KindRules(
            ROTATE,
            lambda spec, args, p: rotate(spec.params, args[0]),
            lambda spec, args, p, given: decimal_rotate(spec.params, args[0]),
            _write,
            cells=_cells,
            general=_general,
            page=PageRule(
                """(spec, args, problem, p, k, o) => args[0].map((row, pos) => {
  const out = row.slice();
  k.pairs.forEach(([a, b], t) => {
    const c = o.D(k.angles[pos][0][t]);
    const s = o.D(k.angles[pos][1][t]);
    out[a] = o.sub(o.mul(row[a], c, p), o.mul(row[b], s, p), p);
    out[b] = o.add(o.mul(row[a], s, p), o.mul(row[b], c, p), p);
  });
  return out;
})""",
                lambda spec, p, shape: _page_angles(spec.params, *shape),
            ),
        ),
    )
    mistakes = (Mistake("rope_pairs_wrong", ("Q_rot", "K_rot"), _pairs_wrong),)
    names: ClassVar[Mapping[str, Names]] = {
        "Q_rot": Names(r"\hat{q}", r"\hat{q}", "q̂", r"\hat{Q}", r"\hat{Q}", "Q̂"),
        "K_rot": Names(r"\hat{k}", r"\hat{k}", "k̂", r"\hat{K}", r"\hat{K}", "K̂"),
        "theta": Names(r"\theta", r"\theta", "θ", r"\Theta", r"\Theta", "Θ"),
    }
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {
        **TRIG_SYMBOLS,
        "rope_power": (r"\mathrm{base}^{-2i/d_k}", "base^(−2i/d_k)"),
        "base": (r"\mathrm{base}", "base"),
        "i_plus_half_d": ("i + d/2", "i + d/2"),
        "rope_pair": ("(2i, 2i+1)", "(2i, 2i+1)"),
    }
    numpy = rope_numpy.PATH

    def read(self, ctx: LoadContext) -> RopeConfig | None:
        rope = ctx.flag("rope")
        if not rope:
            if ctx.has("rope_base"):
                raise ctx.error("given without rope = true", "rope_base")
            return None
        d_k = ctx.shapes["d_k"]
        if d_k % 2:
            raise ctx.error(f"d_k = {d_k} is odd; RoPE rotates pairs of columns", "rope")
        base = ctx.positive("rope_base") if ctx.has("rope_base") else Surd.rational(10000)
        return RopeConfig(base)

    def after_qk(self, b: Builder, config: RopeConfig) -> None:
        p, head = b.problem, b.head
        for name, labels in (("q", p.tokens), ("k", p.kv_tokens)):
            letter = name.upper()
            step_id = b.add(
                StepSpec(
                    id=f"{b.prefix}{letter}_rot",
                    kind=ROTATE,
                    operands=(getattr(head, name),),
                    params=RotateParams(config.base),
                    row_labels=labels,
                )
            )
            setattr(head, name, step_id)

    def notes(
        self, problem: Problem, config: RopeConfig, w: Words
    ) -> list[tuple[str | Math | MathName, ...]]:
        theta = Relation(
            Name("theta", "pos", "i"), "=", Product((Sym("pos"), Sym("rope_power")), Glue.DOT)
        )
        a, b = Name("Q", "pos", "2i"), Name("Q", "pos", "2i+1")
        cos = Concat((Sym("cos"), Paren(Name("theta", "pos", "i"))))
        sin = Concat((Sym("sin"), Paren(Name("theta", "pos", "i"))))
        first = Sum((Product((a, cos)), Minus(Product((b, sin)))))
        second = Sum((Product((a, sin)), Product((b, cos))))
        return [
            (
                *w.parts("derive.given_rope"),
                " ",
                theta,
                *w.parts("derive.given_rope_base", base=pretty(config.base)),
            ),
            (
                w("derive.given_rope_turn") + " ",
                Relation(Name("Q_rot", "pos", "2i"), "=", first),
                ", ",
                Relation(Name("Q_rot", "pos", "2i+1"), "=", second),
                w("period"),
            ),
        ]

    def check_options(self, options: Any) -> None:
        if options.d_k is not None and options.d_k % 2:
            raise SymattnError(
                f"RoPE turns pairs of columns: expected an even d_k, found {options.d_k}",
                option="d-k",
            )

    def d_k(self, options: Any, d_k: int) -> int:
        return d_k + d_k % 2  # RoPE turns pairs of columns

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        data["rope"] = True


TOPIC = Rope()
