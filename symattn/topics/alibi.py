"""ALiBi (``alibi = true`` or ``alibi = [m_1, …, m_h]``; Press et al., 2022): a bias added
to the scaled scores of head t, b_ij = −m_t·|i − j| (1-based i, j), with slopes
m_t = 2^(−8t/h) by default (one head: 1/256) or the exact slopes the file gives (courses
write ½, ¼).  No position embedding is needed with it.

Two steps per head: ``alibi_bias`` (the bias matrix, from the slope: a given, whose
``params`` write its general formula, B = −m·|i − j| (m = ¼)) and ``biased_scores`` =
S' + B.  Its mistake: the bias added with the wrong sign, +m·|i − j|
(``alibi_sign_flipped``).

>>> from symattn.load import load
>>> p = load({"Q": [[1], [1], [1]], "K": [[1], [1], [1]], "V": [[1], [2], [3]],
...           "alibi": ["1/2"]})
>>> from symattn.printing import pretty
>>> [pretty(v) for v in p.given("alibi_bias")[2]]
['-1', '-1/2', '0']
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

from ..formula import (
    Concat,
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
from ..ids import head_prefix
from ..numbers import Surd, to_sympy
from ..printing import Names
from ..problem import Matrix, Problem, TopicConfig
from ..record import Record
from ..steps import Kind, Plan, Source, StepSpec
from ..words import MathName, Words
from . import alibi_numpy
from .base import Builder, LoadContext, Matrices, Mistake, Run, Topic

__all__ = ["TOPIC", "AlibiConfig", "default_slopes"]


class AlibiConfig(TopicConfig):
    slopes: tuple[Any, ...]  # exact, one per head
    biases: tuple[tuple[str, Matrix], ...]  # step id → the bias matrix of its head
    sign: int = -1  # −1: b_ij = −m·|i − j| (a mistake model flips it)

    def givens(self) -> dict[str, Matrix]:
        return dict(self.biases)


class BiasParams(Record):
    """A head's bias: its slope m, and the general formula it is made by."""

    slope: Any

    def general(self, spec: StepSpec, words: Words) -> Line:
        """B = −m·|i − j| (m = the head's slope)."""
        distance = Concat((Lit("|"), Sum((Sym("i"), Minus(Sym("j")))), Lit("|")))
        bias = Product((Minus(Sym("m")), distance), Glue.DOT)
        slope = Paren(Relation(Sym("m"), "=", Value(self.slope)))
        return Line(Name(spec.id), (("=", Concat((bias, Sym("quad"), slope))),), aligned=False)


def default_slopes(heads: int) -> tuple[Surd, ...] | None:
    """m_t = 2^(−8t/h), t = 1 … h: exact when h divides 8 (else None)."""
    if 8 % heads:
        return None
    return tuple(Surd.rational(Fraction(1, 2 ** (8 * t // heads))) for t in range(1, heads + 1))


def _biases(
    slopes: tuple[Any, ...], n: int, m: int, heads: int, sign: int, symbolic: bool
) -> tuple[tuple[str, Matrix], ...]:
    out = []
    for t, slope in enumerate(slopes):
        name = ("" if heads == 1 else head_prefix(t)) + "alibi_bias"
        rows = []
        for i in range(n):
            row = []
            for j in range(m):
                value = slope * Surd.rational(Fraction(sign * abs(i - j)))
                row.append(to_sympy(value) if symbolic else value)
            rows.append(tuple(row))
        out.append((name, tuple(rows)))
    return tuple(out)


def _flipped(problem: Problem, plan: Plan) -> list[Run]:
    """The bias added with the wrong sign: +m·|i − j|."""
    config = problem.topic("alibi")
    biases = _biases(config.slopes, problem.n, problem.m, len(config.slopes), 1, False)
    flipped = dataclasses.replace(config, biases=biases, sign=1)
    topics = tuple((n, flipped if n == "alibi" else c) for n, c in problem.topics)
    return [(dataclasses.replace(problem, topics=topics), plan, {})]


class Alibi(Topic):
    name = "alibi"
    draw_scores = "moved"  # for the exercise draw: topics/draw.py
    asked = "alibi"
    keys = ("alibi",)
    backward = True
    mistakes = (Mistake("alibi_sign_flipped", ("biased_scores",), _flipped),)
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {
        "m": ("m", "m"),
        "alibi_bias": (r"b_{ij} = -m \cdot |i - j|", "bᵢⱼ = −m·|i − j|"),
        "alibi_bias_flipped": (r"+m \cdot |i - j|", "+m·|i − j|"),
    }
    names: ClassVar[Mapping[str, Names]] = {
        "alibi_bias": Names("b", "b", "b", "B", "B", "B"),
        "biased_scores": Names("s''", r"\bar{\alpha}", "s″", "S''", r"\bar{\alpha}", "S″"),
    }
    numpy = alibi_numpy.PATH

    def read(self, ctx: LoadContext) -> AlibiConfig | None:
        if not ctx.has("alibi"):
            return None
        raw = ctx.data["alibi"]
        heads = int(ctx.data.get("heads", 1))
        if raw is False:
            return None
        if raw is True:
            slopes = default_slopes(heads)
            if slopes is None:
                raise ctx.error(
                    f"the default slopes 2^(−8t/h) are exact only when heads divides 8 (heads ="
                    f" {heads}); give them: alibi = [m_1, …, m_{heads}]",
                    "alibi",
                )
        elif isinstance(raw, list):
            if len(raw) != heads:
                raise ctx.error(
                    f"expected {heads} slopes (one per head), found {len(raw)}", "alibi"
                )
            slopes = tuple(ctx.number(v, "alibi", None, k) for k, v in enumerate(raw))
            for k, slope in enumerate(slopes):
                if slope.sign() <= 0:
                    raise ctx.error(
                        f"expected a positive slope, found {raw[k]!r}", f"alibi[{k + 1}]"
                    )
        else:
            raise ctx.error(f"expected true or a list of {heads} slopes, found {raw!r}", "alibi")
        n, m = ctx.shapes["n"], ctx.shapes["m"]
        exact = tuple(to_sympy(s) for s in slopes) if ctx.symbolic else slopes
        return AlibiConfig(exact, _biases(slopes, n, m, heads, -1, ctx.symbolic))

    def on_scores(self, b: Builder, config: AlibiConfig) -> None:
        p = b.problem
        t = b.head.index or 0
        bias = f"{b.prefix}alibi_bias"
        b.given(bias)
        b.add(
            StepSpec(
                id=bias,
                kind=Kind.GIVEN,
                params=BiasParams(config.slopes[t]),
                source=Source(bias),
                row_labels=p.tokens,
                col_labels=p.kv_tokens,
            )
        )
        step = b.add(
            StepSpec(
                id=f"{b.prefix}biased_scores",
                kind=Kind.ADD,
                operands=(b.current, bias),
                row_labels=p.tokens,
                col_labels=p.kv_tokens,
            )
        )
        b.scored(step, "S″")

    def notes(
        self, problem: Problem, config: AlibiConfig, w: Words
    ) -> list[tuple[str | Math | MathName, ...]]:
        slopes = [Relation(Sym("m"), "=", Value(s)) for s in config.slopes]
        out: list[tuple[str | Math | MathName, ...]] = [(*w.parts("derive.alibi"), " ")]
        for t, slope in enumerate(slopes):
            lead = "" if len(slopes) == 1 else w("derive.alibi_head", head=t + 1) + " "
            out.append((lead, slope, w("period")))
        return out

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """Slopes ½, ¼, … (one per head), as courses write them."""
        data["alibi"] = [f"1/{2 ** (t + 1)}" for t in range(options.heads)]


TOPIC = Alibi()
