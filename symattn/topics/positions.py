"""Positions: X ← X + P before the projections (``positions = "sinusoidal"`` or a given
n × d_model matrix P).

P_{pos,2i} = sin(pos / 10000^{2i/d_model}), P_{pos,2i+1} = cos(…), pos counted from 0.
sin and cos of exact arguments are transcendental: the exact rule keeps them as SymPy's
``sin(1/100)`` (a rational value such as sin 0 stays a surd), the decimal rule takes their
certified decimals.  Its mistakes: sin and cos swapped, P added after the projection.

>>> from symattn.load import load
>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]],
...           "W_V": [[1, 0], [0, 1]], "positions": "sinusoidal"})
>>> from symattn.plan import forward_plan
>>> forward_plan(p).ids[:3]
('X', 'P', 'X_pos')
"""

from __future__ import annotations

import decimal
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import NotApplicable
from ..formula import Concat, Frac, Line, Lit, Math, Name, Paren, Product, Relation, Sum, Sym
from ..numbers import Surd, sinusoid, sinusoid_value
from ..numbers.decimals import matmul
from ..printing import Names
from ..problem import Matrix, Problem, TopicConfig
from ..record import Record
from ..steps import Kind, Plan, Source, Step, StepSpec
from ..words import MathName, Words
from . import positions_numpy
from .base import (
    Builder,
    KindRules,
    LoadContext,
    Matrices,
    Mistake,
    Run,
    Topic,
    Writer,
    on,
)
from .cells import CellRefs
from .common import TRIG_SYMBOLS, call, expanded_rows, power
from .page_rule import PageRule

__all__ = ["POSITIONS", "PRODUCT_PLUS", "TOPIC", "PositionsConfig"]

POSITIONS = Kind("positions")  # the sinusoidal table P (sin at even, cos at odd columns)
PRODUCT_PLUS = Kind("product_plus")  # X W + P: the positions added after the projection


class PositionsConfig(TopicConfig):
    """``sinusoidal`` (P worked out), or a given P."""

    how: str  # "sinusoidal" or "given"
    P: Matrix | None = None

    def givens(self) -> dict[str, Matrix]:
        return {} if self.P is None else {"P": self.P}


class TableParams(Record):
    """The sinusoidal table: the base of its angles, and sin and cos swapped (a mistake)."""

    base: Surd
    swapped: bool = False


BASE = Surd.rational(10000)


# -- the kind ------------------------------------------------------------------------------
def table(params: TableParams, rows: int, width: int) -> Matrix:
    """P_{pos,2i} = sin(pos / base^{2i/d}), P_{pos,2i+1} = cos(…) (swapped by a mistake)."""
    even, odd = ("cos", "sin") if params.swapped else ("sin", "cos")
    return tuple(
        tuple(
            sinusoid(odd if c % 2 else even, pos, c - c % 2, width, params.base)
            for c in range(width)
        )
        for pos in range(rows)
    )


def decimal_table(params: TableParams, rows: int, width: int) -> list[list[decimal.Decimal]]:
    even, odd = ("cos", "sin") if params.swapped else ("sin", "cos")
    digits = decimal.getcontext().prec
    return [
        [
            sinusoid_value(odd if c % 2 else even, pos, c - c % 2, width, params.base, digits)
            for c in range(width)
        ]
        for pos in range(rows)
    ]


def _general(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    """P_{pos,2i} = sin(pos / 10000^{2i/d_model}), P_{pos,2i+1} = cos(…)."""
    params: TableParams = spec.params
    angle_of = Frac(Sym("pos"), Sym("base_power"))
    even, odd = ("cos", "sin") if params.swapped else ("sin", "cos")
    return (
        Line(Name(spec.id, "pos", "2i"), (("=", call(even, angle_of)),)),
        Line(Name(spec.id, "pos", "2i+1"), (("=", call(odd, angle_of)),)),
    )


def _write(walk: Writer, step: Step) -> None:
    params: TableParams = step.spec.params
    walk.say(walk.words("derive.general"))
    walk.show(list(_general(step.spec, walk.words)))
    even, odd = ("cos", "sin") if params.swapped else ("sin", "cos")
    walk.say(*walk.words.parts("derive.positions"))
    width = step.shape[1]
    for i in expanded_rows(walk, step):
        walk.heading_row(step, i)
        lines = []
        for r, j in walk.cells(step, i):
            function = odd if j % 2 else even
            shown = Frac(Lit(str(r)), power(params.base, j - j % 2, width))
            parts: list[tuple[str, Math]] = [("=", call(function, shown))]
            lines.append(Line(Name(step.id, r, j), tuple(parts), walk.result(step, r, j)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


def _plus(spec: StepSpec, args: list[Any], p: Problem, given: Any) -> Any:
    """X W + P (the positions added after the projection, as a mistake does)."""
    total = matmul(args[0], args[1])
    if len(args[2][0]) != len(total[0]):
        raise NotApplicable("P has d_model columns, the projection d_k")
    return [[a + b for a, b in zip(r, s)] for r, s in zip(total, args[2])]


def _general_plus(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    """Q = X W_Q + P: the mistake's formula (its diagnosis names it)."""
    x, w, p = spec.operands
    plus = Sum((Product((Name(x), Name(w)), flips=True), Name(p)))
    return (Line(Name(spec.id), (("=", plus),), aligned=False),)


def _not_exact(spec: StepSpec, args: list[Matrix], p: Problem) -> Matrix:
    raise NotApplicable("a mistake model's step is computed on decimals only")


def _not_written(walk: Writer, step: Step) -> None:
    raise NotApplicable("a mistake model's step is never written")


# -- mistakes --------------------------------------------------------------------------------
def _swapped(problem: Problem, plan: Plan) -> list[Run]:
    """cos at the even columns of P and sin at the odd ones."""
    config = problem.topic("positions")
    if config is None or config.how != "sinusoidal":
        return []
    change = on("P", params=TableParams(BASE, swapped=True))
    return [(problem, plan.changed(change), {})]


def _after_projection(problem: Problem, plan: Plan) -> list[Run]:
    """Q = X W_Q + P (and K, V alike): the positions added after the projection."""

    widths = {"Q": problem.d_k, "K": problem.d_k, "V": problem.d_v}

    def change(spec: StepSpec) -> StepSpec | None:
        if spec.kind != Kind.PRODUCT or spec.operands[:1] != ("X_pos",):
            return None
        if problem.d_model is None or widths.get(spec.base) != problem.d_model * problem.heads:
            return None  # P (n × d_model) cannot be added to an n × d_k projection
        return spec.changed(kind=PRODUCT_PLUS, operands=("X", spec.operands[1], "P"))

    changed = plan.changed(change)
    return [] if changed == plan else [(problem, changed, {})]


def _cells(spec: StepSpec, refs: CellRefs, pos: int, c: int) -> str:
    """P_{pos,c}: sin (even c) or cos (odd c) of pos / base^{(c − c mod 2)/d}."""
    even, odd = ("cos", "sin") if spec.params.swapped else ("sin", "cos")
    width = refs.size()[1]
    return refs.constant(sinusoid(odd if c % 2 else even, pos, c - c % 2, width, spec.params.base))


class Positions(Topic):
    name = "positions"
    draw_scores = "moved"  # for the exercise draw: topics/draw.py
    asked = "positions"
    keys = ("positions",)
    laid_out = ("positions",)
    kinds = (
        KindRules(
            POSITIONS,
            lambda spec, args, p: table(spec.params, p.n, p.d_model or 0),
            lambda spec, args, p, given: decimal_table(spec.params, p.n, p.d_model or 0),
            _write,
            cells=_cells,
            general=_general,
            page=PageRule(
                "(spec, args, problem, p, k, o) => k.table.map((row) => row.map(o.D))",
                lambda spec, p, shape: {
                    "table": [
                        [str(x) for x in row]
                        for row in decimal_table(spec.params, p.n, p.d_model or 0)
                    ]
                },
            ),
        ),
        KindRules(
            PRODUCT_PLUS,
            _not_exact,
            _plus,
            _not_written,
            general=_general_plus,
            page=PageRule(
                """(spec, args, problem, p, k, o) => {
  const total = o.matmul(args[0], args[1], p);
  if (args[2][0].length !== total[0].length) throw new o.NotApplicable("P: d_model columns");
  return total.map((r, i) => r.map((x, j) => o.add(x, args[2][i][j], p)));
}"""
            ),
        ),
    )
    mistakes = (
        Mistake("pe_sin_cos_swapped", ("P", "X_pos"), _swapped),
        Mistake("pe_added_after_projection", ("Q", "K", "V"), _after_projection),
    )
    names: ClassVar[Mapping[str, Names]] = {
        "P": Names("p", "p", "p", "P", "P", "P"),
        "X_pos": Names(r"\tilde{x}", r"\tilde{x}", "x̃", r"\tilde{X}", r"\tilde{X}", "X̃"),
    }
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {
        **TRIG_SYMBOLS,
        "base_power": (r"10000^{2i/d_{\text{model}}}", "10000^(2i/d_model)"),
    }
    numpy = positions_numpy.PATH

    def read(self, ctx: LoadContext) -> PositionsConfig | None:
        raw = ctx.data.get("positions", "none")
        if raw == "none":
            return None
        if "d_model" not in ctx.shapes:
            raise ctx.error("need X (they are added to it)", "positions")
        if isinstance(raw, list):
            matrix = ctx.matrix("positions")
            n, d_model = ctx.shapes["n"], ctx.shapes["d_model"]
            ctx.shape_rule(matrix, "positions", n, d_model, "n × d_model, added to X")
            return PositionsConfig("given", matrix)
        if raw != "sinusoidal":
            raise ctx.error(
                f'expected "sinusoidal", "none" or an n × d_model matrix, found {raw!r}',
                "positions",
            )
        return PositionsConfig("sinusoidal")

    def after_x(self, b: Builder, config: PositionsConfig) -> None:
        tokens = b.problem.tokens
        if config.how == "given":
            b.add(
                StepSpec(
                    id="P",
                    kind=Kind.GIVEN,
                    source=Source("P"),
                    row_labels=tokens,
                )
            )
        else:
            b.add(
                StepSpec(
                    id="P",
                    kind=POSITIONS,
                    params=TableParams(BASE),
                    row_labels=tokens,
                )
            )
        b.x = b.attended = b.add(
            StepSpec(
                id="X_pos",
                kind=Kind.ADD,
                operands=(b.x, "P"),
                row_labels=tokens,
            )
        )

    def notes(
        self, problem: Problem, config: PositionsConfig, w: Words
    ) -> list[tuple[str | Math | MathName, ...]]:
        if config.how == "given":
            return [w.parts("derive.given_positions_given")]
        angle = Paren(Frac(Sym("pos"), Sym("base_power")))
        even = Relation(Name("P", "pos", "2i"), "=", Concat((Sym("sin"), angle)))
        odd = Relation(Name("P", "pos", "2i+1"), "=", Concat((Sym("cos"), angle)))
        return [(*w.parts("derive.given_positions_sinusoidal"), " ", even, ", ", odd, w("period"))]

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """At levels 1 and 2 P is given, the sinusoidal table rounded to one place (row 0
        is exactly 0, 1, 0, 1, …); at level 3 it is the sinusoidal table itself."""
        n, d_model, _, _ = options.shape
        if options.level < 3:
            rows = positions_numpy.sinusoidal(n, d_model)
            data["positions"] = [[_short(float(v)) for v in row] for row in rows]
        else:
            data["positions"] = "sinusoidal"


def _short(value: float) -> str:
    """One decimal place, as a course's table prints it: 0.8415 → "0.8", 1.0 → "1"."""
    text = f"{round(value, 1):.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


TOPIC = Positions()
