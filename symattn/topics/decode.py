"""A decode step (``decode = true``): the last row again, as one step of a decoder with a
K/V cache — ``cache_K``, ``cache_V`` (rows 1 … n−1 of K and V; of K̂ with RoPE, as a
decoder caches its rotated keys) and ``decode``: the last query attends to the cached keys
and its own, never the future, divided as the scores are (√d_k, and τ with a
temperature).  The problem is causal.  Its mistake: attending to the future.

>>> from symattn.load import load
>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]],
...           "W_V": [[1, 0], [0, 1]], "decode": True})
>>> from symattn.plan import forward_plan
>>> forward_plan(p).ids[-3:]
('cache_K', 'cache_V', 'decode')
"""

from __future__ import annotations

import dataclasses
import decimal
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..errors import SymattnError
from ..formula import (
    Brackets,
    Cell,
    Concat,
    Exp,
    Frac,
    Glue,
    Join,
    Line,
    Lit,
    Math,
    Name,
    Paren,
    Product,
    Sub,
    Sum,
    Sup,
    Sym,
    Value,
    Vector,
)
from ..numbers import evaluate
from ..numbers.decimals import matmul as dmatmul
from ..numbers.decimals import softmax_rows
from ..numbers.decimals import transpose as dtranspose
from ..numbers.matrices import matmul, scale, softmax, transpose, weighted_sum
from ..printing import Names
from ..problem import Matrix, Problem, TopicConfig
from ..record import Record
from ..steps import Kind, Plan, Step, StepSpec
from ..words import Words
from . import decode_numpy
from .base import Builder, KindRules, LoadContext, Mistake, Run, Topic, Writer
from .cells import CellRefs
from .common import divisor_symbol, numbered, worded
from .draw import Matrices
from .page_rule import PageRule

__all__ = ["DECODE", "ROWS", "TOPIC", "DecodeConfig"]

ROWS = Kind("rows")  # a block of the operand's rows (a K/V cache)
DECODE = Kind("decode")  # the last query over the cached keys and its own: one output row


class DecodeConfig(TopicConfig):
    """A decode step of the last token."""


class RowsParams(Record):
    """Rows start … stop − 1 (0-based): a cache's, or the new token's row (a decode's)."""

    start: int
    stop: int


def decode(args: Sequence[Matrix], divisor: Any) -> Matrix:
    """One decoding step: the last query over the cached keys and its own key, never a
    later one, divided as the scores are; the weighted sum of the cached values and its own
    (a 1-row matrix)."""
    queries, cache_k, cache_v, keys, values = args
    scores = matmul((queries[-1],), transpose((*cache_k, keys[-1])))
    if divisor is not None:
        scores = scale(scores, divisor)
    return weighted_sum(softmax(scores), (*cache_v, values[-1]))


def decimal_decode(spec: StepSpec, args: list[Any], p: Problem, given: Any) -> Any:
    queries, cache_k, cache_v, keys, values = args
    scores = dmatmul([queries[-1]], dtranspose([*cache_k, keys[-1]]))
    if spec.divisor is not None:
        c = +evaluate(spec.divisor, decimal.getcontext().prec)
        scores = [[s / c for s in row] for row in scores]
    return dmatmul(softmax_rows(scores), [*cache_v, values[-1]])


def _rows(spec: StepSpec, matrix: Any) -> Any:
    params: RowsParams = spec.params
    return tuple(matrix[params.start : params.stop])


def _row_vector(walk: Writer, step: Step, i: int) -> Vector:
    return Vector(
        tuple(
            Cell(step.exact[i][k], step.decimal_str(i, k, walk.digits), True)
            for k in range(step.shape[1])
        )
    )


def _general_rows(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    """K_cache = rows 1…n−1 of K."""
    params: RowsParams = spec.params
    cached = worded(
        words,
        "formula.rows_of",
        range=numbered(params.start + 1, params.stop),
        matrix=Name(spec.operands[0]),
    )
    return (Line(Name(spec.id), (("=", cached),)),)


def _general_decode(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    """O_dec = softmax(qₙ [K_cache; kₙ]ᵀ / √d_k) [V_cache; vₙ], n the new token's row."""
    query, cache_k, cache_v, keys, values = spec.operands
    last = spec.params.start
    scores: Math = Product(
        (
            Name(query, last),
            Sup(Brackets(Join((Name(cache_k), Name(keys, last)), "semicolon")), "T"),
        )
    )
    if spec.divisor is not None:
        scores = Frac(scores, divisor_symbol(spec.divisor_label))
    weights = Concat((Sym("softmax"), Paren(scores)))
    stacked = Brackets(Join((Name(cache_v), Name(values, last)), "semicolon"))
    return (Line(Name(spec.id), (("=", Product((weights, stacked))),)),)


def _write_rows(walk: Writer, step: Step) -> None:
    """A K/V cache: the rows of the tokens before the new one."""
    source = step.operands[0]
    last = step.spec.params.stop
    walk.say(walk.words("derive.cache", last=last))
    rows: tuple[Math, ...] = tuple(Name(source, k) for k in range(min(last, 3)))
    if last > 3:
        rows = (*rows[:2], Lit("…"), Name(source, last - 1))
    vector = Line(Name(step.id), (("=", Vector(rows)),))
    walk.show([*_general_rows(step.spec, walk.words), vector])
    walk.matrix(step)


def _write_decode(walk: Writer, step: Step) -> None:
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

    c = walk.divisor_symbol(step.spec.divisor_label)
    s_j, s_k = Sub(Sym("s"), "j"), Sub(Sym("s"), "k")
    general = Product((Name(query, last), Name(cache_k, "j")), Glue.INNER)
    quotient = Frac(Exp(s_j), Product((Sym("sum_k"), Exp(s_k))))
    walk.say(walk.words("derive.general"))
    walk.show(
        [
            *_general_decode(step.spec, walk.words),
            Line(s_j, (("=", general if step.spec.divisor is None else Frac(general, c)),)),
            Line(Sub(Sym("a"), "j"), (("=", quotient),)),
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


def _future(problem: Problem, plan: Plan) -> list[Run]:
    """The causal mask of a decoder left out: every query sees every key."""
    everything = tuple(tuple(True for _ in range(problem.m)) for _ in range(problem.n))
    return [(dataclasses.replace(problem, mask=everything), plan, {})]


def _rows_cells(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str:
    return refs.cell(0, spec.params.start + i, j)


def _decode_cells(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str:
    """o_j = Σ_t e^{s_t} v_tj / Σ_t e^{s_t}, s_t = q·k_t (scaled), over the cached keys
    and values and the new token's own."""
    last = refs.height(0) - 1
    keys = [(1, t) for t in range(refs.height(1))] + [(3, last)]
    values = [(2, t) for t in range(refs.height(2))] + [(4, last)]
    divisor = "" if spec.divisor is None else f"/{refs.constant(spec.divisor)}"
    exps = [
        "EXP(("
        + "+".join(f"{refs.cell(0, last, k)}*{refs.cell(m, t, k)}" for k in range(refs.width(0)))
        + f"){divisor})"
        for m, t in keys
    ]
    top = "+".join(f"{e}*{refs.cell(m, t, j)}" for e, (m, t) in zip(exps, values))
    return f"({top})/({'+'.join(exps)})"


class Decode(Topic):
    name = "decode"
    with_memory = False  # attends over its own tokens
    asked = "decode"
    keys = ("decode",)
    backward = True
    kinds = (
        KindRules(
            ROWS,
            lambda spec, args, p: _rows(spec, args[0]),
            lambda spec, args, p, given: [list(r) for r in _rows(spec, args[0])],
            _write_rows,
            cells=_rows_cells,
            general=_general_rows,
            page=PageRule(
                "(spec, args, problem, p, k, o) => args[0].slice(k.start, k.stop).map((r) => "
                "r.slice())",
                lambda spec, p, shape: {"start": spec.params.start, "stop": spec.params.stop},
            ),
        ),
        KindRules(
            DECODE,
            lambda spec, args, p: decode(args, spec.divisor),
            decimal_decode,
            _write_decode,
            cells=_decode_cells,
            general=_general_decode,
            page=PageRule(
                """(spec, args, problem, p, k, o) => {
  const [queries, cacheK, cacheV, keys, values] = args;
  const last = (m) => m[m.length - 1];
  let scores = o.matmul([last(queries)], o.t([...cacheK, last(keys)]), p);
  if (k.div !== null) scores = scores.map((row) => row.map((s) => o.div(s, o.D(k.div), p)));
  return o.matmul(o.softmaxRows(scores, true, p), [...cacheV, last(values)], p);
}""",
                lambda spec, p, shape: {
                    "div": None
                    if spec.divisor is None
                    else str(+evaluate(spec.divisor, decimal.getcontext().prec))
                },
            ),
        ),
    )
    mistakes = (Mistake("decode_uses_future", ("masked_scores", "weights"), _future),)
    names: ClassVar[Mapping[str, Names]] = {
        "cache_K": Names(
            r"k^{\mathrm{c}}",
            r"{k^{\mathrm{c}}}",
            "kᶜ",
            r"K^{\mathrm{cache}}",
            r"K^{\mathrm{cache}}",
            "K_cache",
        ),
        "cache_V": Names(
            r"v^{\mathrm{c}}",
            r"{v^{\mathrm{c}}}",
            "vᶜ",
            r"V^{\mathrm{cache}}",
            r"V^{\mathrm{cache}}",
            "V_cache",
        ),
        "decode": Names(
            r"b^{\mathrm{dec}}",
            r"{b^{\mathrm{dec}}}",
            "bᵈᵉᶜ",
            r"O^{\mathrm{dec}}",
            r"O^{\mathrm{dec}}",
            "O_dec",
        ),
    }
    numpy = decode_numpy.PATH

    def read(self, ctx: LoadContext) -> DecodeConfig | None:
        if not ctx.flag("decode"):
            return None
        if ctx.has("memory"):
            raise ctx.error("a decode step is self-attention; leave out memory", "decode")
        n = ctx.shapes["n"]
        if n < 2:
            raise ctx.error("needs at least 2 tokens (a cache and a new one)", "decode")
        if ctx.has("valid_lens"):
            reason = "a decode step is causal; leave out valid_lens (its keys are the cached ones"
            raise ctx.error(reason + " and its own)", "decode")
        if ctx.mask_label not in ("none", "causal"):
            raise ctx.error('a decode step is causal; give mask = "causal" or no mask', "decode")
        ctx.mask = tuple(tuple(j <= i for j in range(n)) for i in range(n))
        ctx.mask_label = "causal"
        return DecodeConfig()

    # -- exercises -----------------------------------------------------------------------
    def check_options(self, options: Any) -> None:
        if getattr(options, "mask", "none") not in ("none", "causal"):
            raise SymattnError("a decode step is causal; give --mask causal or none", option="with")
        if options.shape[0] < 2:
            raise SymattnError(
                "a decode step needs at least 2 tokens (a cache and a new one)", option="tokens"
            )

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """The last token again, as one decoding step from the K/V cache (causal)."""
        data["decode"] = True
        data["mask"] = "causal"

    def after_attention(self, b: Builder, config: DecodeConfig) -> None:
        p = b.problem
        n = p.n
        cached = p.tokens[: n - 1] if p.tokens else None
        for head in b.heads:
            sources = {"K": head.k, "V": head.v}
            for name in ("K", "V"):
                b.add(
                    StepSpec(
                        id=f"{head.prefix}cache_{name}",
                        kind=ROWS,
                        operands=(sources[name],),
                        params=RowsParams(0, n - 1),
                        row_labels=cached,
                    )
                )
            b.add(
                StepSpec(
                    id=f"{head.prefix}decode",
                    kind=DECODE,
                    params=RowsParams(n - 1, n),  # the new token's row
                    operands=(
                        head.q,
                        f"{head.prefix}cache_K",
                        f"{head.prefix}cache_V",
                        head.k,
                        head.v,
                    ),
                    divisor=b.divisor,
                    divisor_label=b.divisor_label,
                    row_labels=p.tokens[n - 1 :] if p.tokens else None,
                )
            )


TOPIC = Decode()
