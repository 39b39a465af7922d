"""How the kinds of a decode step and an encoder block are written: the
K/V cache, one decoding step, a sum entry by entry (a residual; also X + P and an
additive mask), LayerNorm and the feed-forward network.

Each writes, as the other kinds do, the general formula, then for each expanded row
every entry's formula, the numbers substituted, the exact value and its decimal, then
all rows.  The statistics of a LayerNorm row (μ, σ², the root) are the compute layer's
(:mod:`symattn.compute.block`), exact and from the operand's values.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any

from ..compute.block import add, affine_inputs, decimal_statistics, root, statistics
from ..entries import Ref
from ..numbers import NegInf, Surd, decimal_context, rational_value, round_half_away
from ..steps import Kind, Step
from .math import (
    Cell,
    Concat,
    Exp,
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
from .walker import KindMethod, Walker, divisor_symbol

__all__ = [
    "BLOCK_KINDS",
    "add_step",
    "affine_step",
    "decode_step",
    "layer_norm_step",
    "rows_step",
]


def _result(walk: Walker, value: Any, number: Decimal | None) -> Result:
    """``= exact ≈ decimal`` of a value that is not an entry of a step (μ, σ², …)."""
    rational = rational_value(value)
    text = None if number is None else round_half_away(number, walk.digits)
    exact_decimal = rational is not None and (rational * 10**walk.digits).denominator == 1
    return Result(value, text, rational, exact_decimal, walk.symbolic)


def _row_vector(walk: Walker, step: Step, i: int) -> Vector:
    return Vector(
        tuple(
            Cell(step.exact[i][k], step.decimal_str(i, k, walk.digits), True)
            for k in range(step.shape[1])
        )
    )


def rows_step(walk: Walker, step: Step) -> None:
    """A K/V cache: the rows of the tokens before the new one."""
    source = step.operands[0]
    assert step.spec.rows is not None
    last = step.spec.rows[1]
    walk.say(walk.words("derive.cache", last=last))
    rows: tuple[Math, ...] = tuple(Name(source, k) for k in range(min(last, 3)))
    if last > 3:
        rows = (*rows[:2], Lit("…"), Name(source, last - 1))
    walk.show([Line(Name(step.id), (("=", Vector(rows)),), aligned=False)])
    walk.matrix(step)


def decode_step(walk: Walker, step: Step) -> None:
    """The new token's query over the cached keys and its own key; its output row."""
    d = walk.d
    query, cache_k, cache_v, keys, values = step.operands
    prefix = step.id[: -len("decode")]
    weights = d.step(f"{prefix}weights")
    scored = d.step(weights.operands[0])
    n = weights.shape[0]
    last = n - 1
    walk.say(walk.words("derive.decode", n=n, cached=last))

    def key(j: int) -> Name:
        return Name(cache_k, j) if j < last else Name(keys, last)

    def value(j: int) -> Name:
        return Name(cache_v, j) if j < last else Name(values, last)

    c = divisor_symbol(step.spec.divisor_label)
    s_j, s_k = Sub(Sym("s"), "j"), Sub(Sym("s"), "k")
    general = Product((Name(query, last), Name(cache_k, "j")), Glue.INNER)
    softmax = Frac(Exp(s_j), Product((Sym("sum_k"), Exp(s_k))))
    walk.say(walk.words("derive.general"))
    walk.show(
        [
            Line(s_j, (("=", general if step.spec.divisor is None else Frac(general, c)),)),
            Line(Sub(Sym("a"), "j"), (("=", softmax),)),
        ]
    )
    matrices = d.matrices
    q_row = Vector(tuple(Value(x) for x in matrices[query][last]))
    lines = []
    for j in range(min(n, 8)):
        k_row = matrices[cache_k][j] if j < last else matrices[keys][last]
        product = Product((Name(query, last), key(j)), Glue.INNER)
        numbers = Product((q_row, Vector(tuple(Value(x) for x in k_row))), Glue.INNER)
        parts: list[tuple[str, Math]] = [("=", product), ("=", numbers)]
        if step.spec.divisor is not None:
            parts = [("=", Frac(product, c)), ("=", Frac(numbers, Value(step.spec.divisor)))]
        lines.append(Line(Sub(Sym("s"), str(j + 1)), tuple(parts), walk.result(scored, last, j)))
    walk.say(walk.words("derive.decode_scores"))
    walk.show(lines)
    walk.say(walk.words("derive.decode_weights"))
    walk.show(
        [
            Line(
                Sub(Sym("a"), str(j + 1)),
                (("=", Name(weights.id, last, j)),),
                walk.result(weights, last, j),
            )
            for j in range(min(n, 8))
        ]
    )
    names = Sum(tuple(Product((Sub(Sym("a"), str(j + 1)), value(j))) for j in range(n)))
    walk.say(walk.words("derive.decode_output"))
    walk.show([Line(Name(step.id, last), (("=", names), ("≈", _row_vector(walk, step, 0))))])
    output = d.step(f"{prefix}output")
    same = all(a == b for a, b in zip(step.values[0], output.values[last]) if a is not None)
    walk.say(walk.words("derive.decode_same" if same else "derive.decode_differs", n=n))
    walk.matrix(step)


#: Sums that are residual connections (the others: X + P, S' + an additive mask).
RESIDUALS = ("residual", "block_output")


def add_step(walk: Walker, step: Step) -> None:
    """A sum entry by entry, ``r_ij = x_ij + o_ij`` (−∞ + s = −∞ for a masked score)."""
    left, right = step.operands
    residual = step.spec.base in RESIDUALS
    walk.say(walk.words("derive.residual" if residual else "derive.general"))
    walk.show([Line(Name(step.id), (("=", Sum((Name(left), Name(right)))),), aligned=False)])
    matrices = walk.d.matrices
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        lines = []
        for r, j in walk.cells(step, i):
            names = Sum((Name(left, r, j), Name(right, r, j)))
            if isinstance(step.exact[r][j], NegInf):
                lines.append(Line(Name(step.id, r, j), (("=", names), ("=", Sym("neg_inf")))))
                continue
            numbers = Sum(
                (
                    walk.number(Ref(left, r, j), matrices[left][r][j]),
                    walk.number(Ref(right, r, j), matrices[right][r][j]),
                )
            )
            lines.append(
                Line(Name(step.id, r, j), (("=", names), ("=", numbers)), walk.result(step, r, j))
            )
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


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


def layer_norm_step(walk: Walker, step: Step) -> None:
    """LayerNorm, row by row: μ, σ² (biased), √(σ² + ε), then every entry."""
    operands = step.operands
    walk.say(walk.words("derive.layer_norm"))
    under = Sum((Sub(Sym("sigma2"), "i"), Sym("eps")))
    general = _normalised(_source(operands, "i", "j"), Sub(Sym("mu"), "i"), under, Lit("j"))
    walk.show([Line(Name(step.id, "i", "j"), (("=", general),), aligned=False)])
    walk.say(walk.words("derive.layer_norm_eps", eps=_plain(walk.d.problem.eps)))
    with decimal.localcontext(decimal_context(walk.d.precision)):
        for i in walk.expanded(step):
            walk.heading_row(step, i)
            _layer_norm_row(walk, step, i)
            walk.more(step)
    walk.all_rows(step)


def _layer_norm_row(walk: Walker, step: Step, i: int) -> None:
    p, operands = walk.d.problem, step.operands
    exact_row, value_row = _source_row(walk, operands, i)
    width = len(exact_row)
    if len(operands) == 2:
        total = Sum((Name(operands[0], i), Name(operands[1], i)))
        vector = Vector(tuple(_dec(walk, v) for v in value_row))
        walk.show([Line(total, (("≈", vector),))])
    eps = p.eps if p.eps is not None else Surd()
    mean, variance = statistics(exact_row)
    mean_value, var_value = decimal_statistics(value_row)
    r_exact, r_value = root(variance, eps), (var_value + eps.in_context()).sqrt()
    mu_i, var_i = Sub(Sym("mu"), str(i + 1)), Sub(Sym("sigma2"), str(i + 1))
    entries = tuple(_source(operands, i, k) for k in range(width))
    squares = tuple(Concat((Paren(Sum((e, Minus(mu_i)))), Sym("squared"))) for e in entries)
    under = Root(Sum((_number(walk, variance, var_value), Value(eps))))
    walk.say(walk.words("derive.layer_norm_stats", d=width))
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
    walk.say(walk.words("derive.entries"))
    lines = []
    for j in walk.entry_columns(step):
        names = _normalised(entries[j], mu_i, Sum((var_i, Sym("eps"))), Lit(str(j + 1)))
        centred = Sum(
            (_number(walk, exact_row[j], value_row[j]), Minus(_number(walk, mean, mean_value)))
        )
        gamma = p.gamma[0][j] if p.gamma else Surd.rational(1)
        beta = p.beta[0][j] if p.beta else Surd()
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


def _dec(walk: Walker, value: Decimal) -> Lit:
    return Lit(round_half_away(value, walk.digits))


def _number(walk: Walker, value: Any, number: Decimal) -> Math:
    """A substituted intermediate: exact when rational, else its decimal."""
    return Number(value, round_half_away(number, walk.digits))


def _source_row(walk: Walker, operands: tuple[str, ...], i: int) -> tuple[Any, list[Decimal]]:
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


def affine_step(walk: Walker, step: Step) -> None:
    """``x W + b`` (and ReLU): each entry a dot product plus its bias."""
    d = walk.d
    x, weights, bias = step.operands
    relu = step.spec.activation == "relu"
    b = Sym("b1") if bias == "b_1" else Sym("b2")
    inner: Math = Sum((Product((Name(x), Name(weights))), Name(bias)))
    general: Math = Concat((Sym("relu"), Paren(inner))) if relu else inner
    walk.say(walk.words("derive.general"))
    walk.show([Line(Name(step.id), (("=", general),), aligned=False)])
    if relu:
        walk.say(walk.words("derive.relu"))
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


BLOCK_KINDS: dict[Kind, KindMethod] = {
    Kind.ROWS: rows_step,
    Kind.DECODE: decode_step,
    Kind.ADD: add_step,
    Kind.LAYERNORM: layer_norm_step,
    Kind.AFFINE: affine_step,
}
