"""How the kinds of an encoder block are written: LayerNorm row by row (μ, σ², the root,
then every entry) and the feed-forward network's affine maps (with ReLU written out).

Each writes, as the other kinds do, the general formula, then for each expanded row
every entry's formula, the numbers substituted, the exact value and its decimal, then
all rows.  The statistics of a LayerNorm row are :mod:`.block_kinds`', exact and from
the operand's values.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any

from ..formula import (
    Concat,
    Frac,
    Glue,
    Join,
    Line,
    Lit,
    Math,
    Minus,
    Name,
    Number,
    Paren,
    Product,
    Result,
    Root,
    Sub,
    Sum,
    Sym,
    Value,
    Vector,
)
from ..numbers import decimal_context, rational_value, round_half_away
from ..numbers.matrices import add
from ..steps import Ref, Step, StepSpec
from ..words import Words
from .base import Writer
from .block_kinds import LayerNormParams, affine_inputs, decimal_statistics, root, statistics

__all__ = ["affine_general", "affine_step", "layer_norm_general", "layer_norm_step"]


def _result(walk: Writer, value: Any, number: Decimal | None) -> Result:
    """``= exact ≈ decimal`` of a value that is not an entry of a step (μ, σ², …)."""
    rational = rational_value(value)
    text = None if number is None else round_half_away(number, walk.digits)
    exact_decimal = rational is not None and (rational * 10**walk.digits).denominator == 1
    return Result(value, text, rational, exact_decimal, walk.symbolic)


def _normalised(src: Math, mean: Math, under: Math, j: Math) -> Math:
    return Sum(
        (
            Product(
                (Sub(Sym("gamma"), _index(j)), Frac(Paren(Sum((src, Minus(mean)))), Root(under)))
            ),
            Sub(Sym("beta"), _index(j)),
        )
    )


def _index(j: Math) -> str:
    return j.text if isinstance(j, Lit) else "j"


def _source(operands: tuple[str, ...], i: int | str, k: int | str) -> Math:
    """Entry (i, k) of what is normalised: x_ik, or (z_ik + f_ik) for a sum."""
    if len(operands) == 1:
        return Name(operands[0], i, k)
    return Paren(Sum((Name(operands[0], i, k), Name(operands[1], i, k))))


def layer_norm_general(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    """yᵢⱼ = γⱼ (xᵢⱼ − μᵢ) / √(σ²ᵢ + ε) + βⱼ."""
    under = Sum((Sub(Sym("sigma2"), "i"), Sym("eps")))
    general = _normalised(_source(spec.operands, "i", "j"), Sub(Sym("mu"), "i"), under, Lit("j"))
    return (Line(Name(spec.id, "i", "j"), (("=", general),), aligned=False),)


def layer_norm_step(walk: Writer, step: Step) -> None:
    """LayerNorm, row by row: μ, σ² (biased), √(σ² + ε), then every entry."""
    walk.say(*walk.words.parts("derive.layer_norm"))
    walk.show(list(layer_norm_general(step.spec, walk.words)))
    walk.say(*walk.words.parts("derive.layer_norm_eps", eps=_plain(step.spec.params.eps)))
    with decimal.localcontext(decimal_context(walk.d.precision)):
        for i in walk.expanded(step):
            walk.heading_row(step, i)
            _layer_norm_row(walk, step, i)
            walk.more(step)
    walk.all_rows(step)


def _layer_norm_row(walk: Writer, step: Step, i: int) -> None:
    params: LayerNormParams = step.spec.params
    operands = step.operands
    exact_row, value_row = _source_row(walk, operands, i)
    width = len(exact_row)
    if len(operands) == 2:
        total = Sum((Name(operands[0], i), Name(operands[1], i)))
        vector = Vector(tuple(_dec(walk, v) for v in value_row))
        walk.show([Line(total, (("≈", vector),))])
    eps = params.eps
    mean, variance = statistics(exact_row)
    mean_value, var_value = decimal_statistics(value_row)
    r_exact, r_value = root(variance, eps), (var_value + eps.in_context()).sqrt()
    mu_i, var_i = Sub(Sym("mu"), str(i + 1)), Sub(Sym("sigma2"), str(i + 1))
    entries = tuple(_source(operands, i, k) for k in range(width))
    squares = tuple(Concat((Paren(Sum((e, Minus(mu_i)))), Sym("squared"))) for e in entries)
    under = Root(Sum((_number(walk, variance, var_value), Value(eps))))
    walk.say(*walk.words.parts("derive.layer_norm_stats", d=width))
    walk.show(
        [
            Line(
                mu_i, (("=", Frac(Sum(entries), Sym("d_model"))),), _result(walk, mean, mean_value)
            ),
            Line(
                var_i,
                (("=", Frac(Sum(squares), Sym("d_model"))),),
                _result(walk, variance, var_value),
            ),
            Line(Root(Sum((var_i, Sym("eps")))), (("=", under),), _result(walk, r_exact, r_value)),
        ]
    )
    walk.say(*walk.words.parts("derive.entries"))
    lines = []
    for j in walk.entry_columns(step):
        names = _normalised(entries[j], mu_i, Sum((var_i, Sym("eps"))), Lit(str(j + 1)))
        centred = Sum(
            (_number(walk, exact_row[j], value_row[j]), Minus(_number(walk, mean, mean_value)))
        )
        gamma, beta = params.gamma[0][j], params.beta[0][j]
        numbers = Sum(
            (
                Product((Number(gamma), Frac(Paren(centred), _number(walk, r_exact, r_value)))),
                Number(beta),
            )
        )
        lines.append(
            Line(Name(step.id, i, j), (("=", names), ("=", numbers)), walk.result(step, i, j))
        )
    walk.show(lines)


def _plain(value: Any) -> str:
    q = rational_value(value)
    return "0" if q is None or q == 0 else str(q)


def _dec(walk: Writer, value: Decimal) -> Lit:
    return Lit(round_half_away(value, walk.digits))


def _number(walk: Writer, value: Any, number: Decimal) -> Math:
    """A substituted intermediate: exact when rational, else its decimal."""
    return Number(value, round_half_away(number, walk.digits))


def _source_row(walk: Writer, operands: tuple[str, ...], i: int) -> tuple[Any, list[Decimal]]:
    d = walk.d
    rows = [d.matrices[o][i] for o in operands]
    values = [[v if v is not None else Decimal(0) for v in d.step(o).values[i]] for o in operands]
    if len(operands) == 1:
        return rows[0], values[0]
    exact = add((rows[0],), (rows[1],))[0]
    return exact, [a + b for a, b in zip(values[0], values[1])]


def _max(body: Math) -> Math:
    """``max(0, body)``: ReLU written out."""
    return Concat((Sym("max"), Paren(Join((Lit("0"), body), "comma"))))


def affine_general(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    """``H = ReLU(Z W_1 + b_1)`` or ``F = H W_2 + b_2``."""
    x, weights, bias = spec.operands
    inner: Math = Sum((Product((Name(x), Name(weights))), Name(bias)))
    relu = spec.params.activation == "relu"
    general: Math = Concat((Sym("relu"), Paren(inner))) if relu else inner
    return (Line(Name(spec.id), (("=", general),), aligned=False),)


def affine_step(walk: Writer, step: Step) -> None:
    """``x W + b`` (and ReLU): each entry a dot product plus its bias."""
    d = walk.d
    x, weights, bias = step.operands
    relu = step.spec.params.activation == "relu"
    b = Sym("b1") if bias == "b_1" else Sym("b2")
    walk.say(*walk.words.parts("derive.general"))
    walk.show(list(affine_general(step.spec, walk.words)))
    if relu:
        walk.say(*walk.words.parts("derive.relu"))
    matrix_x, matrix_w, matrix_b = (d.matrices[o] for o in step.operands)
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        pre = affine_inputs(d.step(x).values[i], matrix_w, matrix_b)
        lines = []
        for j in walk.entry_columns(step):
            terms = tuple(
                Product((Name(x, i, k), Name(weights, k, j))) for k in range(len(matrix_w))
            )
            names: Math = Sum((*terms, Sub(b, str(j + 1))))
            numbers: Math = Sum(
                (
                    *(
                        Product(
                            (
                                walk.number(Ref(x, i, k), matrix_x[i][k]),
                                walk.number(Ref(weights, k, j), matrix_w[k][j]),
                            ),
                            Glue.DOT,
                        )
                        for k in range(len(matrix_w))
                    ),
                    Number(matrix_b[0][j]),
                )
            )
            parts: list[tuple[str, Math]] = []
            if relu:
                names = _max(names)
                parts = [("=", names), ("=", _max(numbers))]
                parts.append(("≈", _max(Lit(round_half_away(pre[j], walk.digits)))))
            else:
                parts = [("=", names), ("=", numbers)]
            lines.append(Line(Name(step.id, i, j), tuple(parts), walk.result(step, i, j)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)
