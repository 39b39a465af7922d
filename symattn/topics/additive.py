"""Additive (Bahdanau) attention (``score = "additive"`` with ``W_a``, ``U_a``, ``v_a``): in
row vectors, h_ij = q_i W_a + k_j U_a and s_ij = tanh(h_ij) · v_a, in place of q_i · k_j;
not scaled unless ``scale`` is given.

tanh of an exact argument is transcendental: SymPy's ``tanh(2)``, its decimal certified.

>>> from symattn.load import load
>>> p = load({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], "score": "additive",
...           "W_a": [[1], [0]], "U_a": [[0], [1]], "v_a": [1]})
>>> from symattn.plan import forward_plan
>>> forward_plan(p).ids
('Q', 'K', 'V', 'additive_hidden', 'scores', 'weights', 'output')
"""

from __future__ import annotations

import decimal
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, ClassVar

from ..formula import Concat, Glue, Line, Math, Name, Paren, Product, Relation, Sum, Sym
from ..numbers import Surd, tanh_exact, tanh_value, to_sympy
from ..numbers.decimals import matmul as dmatmul
from ..numbers.matrices import add, matmul
from ..printing import Names
from ..problem import Matrix, Problem, TopicConfig
from ..steps import Kind, Ref, Source, Step, StepSpec
from ..words import MathName, Words
from . import additive_numpy
from .base import Builder, KindRules, LoadContext, Matrices, Topic, Writer
from .cells import CellRefs
from .common import call
from .page_rule import PageRule

__all__ = ["ADDITIVE_HIDDEN", "D_A", "TANH_SCORE", "TOPIC", "AdditiveConfig"]

ADDITIVE_HIDDEN = Kind("additive_hidden")  # h_ij = q_i W_a + k_j U_a, row (i, j)
TANH_SCORE = Kind("tanh_score")  # s_ij = tanh(h_ij) · v_a

#: The width of an exercise's hidden layer.
D_A = 2


class AdditiveConfig(TopicConfig):
    W_a: Matrix  # d_k × d_a
    U_a: Matrix  # d_k × d_a
    v_a: Matrix  # d_a × 1, a column

    def givens(self) -> dict[str, Matrix]:
        return {"W_a": self.W_a, "U_a": self.U_a, "v_a": self.v_a}


def pairs(qw: Matrix, ku: Matrix) -> Matrix:
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


def decimal_pairs(qw: list[list[Decimal]], ku: list[list[Decimal]]) -> list[list[Decimal]]:
    return [[x + y for x, y in zip(a, b)] for a in qw for b in ku]


def decimal_tanh_score(
    hidden: list[list[Decimal]], v_a: list[list[Decimal]], n: int
) -> list[list[Decimal]]:
    m = len(hidden) // n
    digits = decimal.getcontext().prec
    flat = [
        sum((tanh_value(h, digits) * v[0] for h, v in zip(row, v_a)), Decimal(0)) for row in hidden
    ]
    return [flat[i * m : (i + 1) * m] for i in range(n)]


def _entry(walk: Writer, matrix: str, i: int, j: int) -> tuple[Ref, Any]:
    return Ref(matrix, i, j), walk.d.matrices[matrix][i][j]


def _general_hidden(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    q, k, w_a, u_a = spec.operands
    general = Sum((Product((Name(q, "i"), Name(w_a))), Product((Name(k, "j"), Name(u_a)))))
    return (Line(Name(spec.id, "ij"), (("=", general),), aligned=False),)


def _write_hidden(walk: Writer, step: Step) -> None:
    q, k, w_a, u_a = step.operands
    walk.say(walk.words("derive.general"))
    walk.show(list(_general_hidden(step.spec, walk.words)))
    walk.say(*walk.words.parts("derive.additive_rows"))
    m = walk.d.problem.m
    width = len(walk.d.matrices[w_a])
    for flat in walk.expanded(step):
        i, j = divmod(flat, m)
        walk.heading_row(step, flat)
        lines = []
        for r, c in walk.cells(step, flat):
            names = Sum(
                tuple(Product((Name(q, i, t), Name(w_a, t, c))) for t in range(width))
                + tuple(Product((Name(k, j, t), Name(u_a, t, c))) for t in range(width))
            )

            def term(m: str, row: int, w: str, t: int, c: int = c) -> Product:
                pair = (walk.number(*_entry(walk, m, row, t)), walk.number(*_entry(walk, w, t, c)))
                return Product(pair, Glue.DOT)

            numbers = Sum(
                tuple(term(q, i, w_a, t) for t in range(width))
                + tuple(term(k, j, u_a, t) for t in range(width))
            )
            target = Name(step.id, f"({i + 1},{j + 1})", c)
            lines.append(Line(target, (("=", names), ("=", numbers)), walk.result(step, r, c)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


def _general_scores(spec: StepSpec, words: Words) -> tuple[Line, ...]:
    hidden, v_a = spec.operands
    general = Product((call("tanh", Name(hidden, "ij")), Name(v_a)))
    return (Line(Name(spec.id, "i", "j"), (("=", general),), aligned=False),)


def _write_scores(walk: Writer, step: Step) -> None:
    hidden, v_a = step.operands
    walk.say(walk.words("derive.general"))
    walk.show(list(_general_scores(step.spec, walk.words)))
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
                    Product((call("tanh", Name(hidden, pair, t)), Name(v_a, t, 0)))
                    for t in range(d_a)
                )
            )
            numbers = Sum(
                tuple(
                    Product(
                        (
                            call("tanh", walk.number(*_entry(walk, hidden, flat, t))),
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


def _hidden_cells(spec: StepSpec, refs: CellRefs, r: int, c: int) -> str:
    """h_(i,j),c = Σ_k q_ik (W_a)_kc + Σ_k k_jk (U_a)_kc, row r = i·m + j."""
    i, j = divmod(r, refs.height(1))
    q = [f"{refs.cell(0, i, k)}*{refs.cell(2, k, c)}" for k in range(refs.width(0))]
    k = [f"{refs.cell(1, j, t)}*{refs.cell(3, t, c)}" for t in range(refs.width(1))]
    return "+".join(q + k)


def _score_cells(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str:
    """s_ij = Σ_r tanh(h_(i,j),r) (v_a)_r."""
    row = i * refs.size()[1] + j
    return "+".join(
        f"TANH({refs.cell(0, row, t)})*{refs.cell(1, t, 0)}" for t in range(refs.width(0))
    )


class Additive(Topic):
    name = "additive"
    draw_scores = "own"  # for the exercise draw: topics/draw.py
    asked = 'score = "additive"'
    fixed = ("v_a",)
    keys = ("score", "W_a", "U_a", "v_a")
    laid_out = ("W_a", "U_a")
    shown = ("W_a", "U_a", "v_a")
    kinds = (
        KindRules(
            ADDITIVE_HIDDEN,
            lambda spec, args, p: pairs(matmul(args[0], args[2]), matmul(args[1], args[3])),
            lambda spec, args, p, given: decimal_pairs(
                dmatmul(args[0], args[2]), dmatmul(args[1], args[3])
            ),
            _write_hidden,
            cells=_hidden_cells,
            general=_general_hidden,
            page=PageRule(
                """(spec, args, problem, p, k, o) => {
  const qw = o.matmul(args[0], args[2], p);
  const ku = o.matmul(args[1], args[3], p);
  return qw.flatMap((a) => ku.map((b) => a.map((x, c) => o.add(x, b[c], p))));
}"""
            ),
        ),
        KindRules(
            TANH_SCORE,
            lambda spec, args, p: tanh_score(args[0], args[1], p.n),
            lambda spec, args, p, given: decimal_tanh_score(args[0], args[1], p.n),
            _write_scores,
            cells=_score_cells,
            general=_general_scores,
            page=PageRule(
                """(spec, args, problem, p, k, o) => {
  const m = args[0].length / k.n;
  const flat = args[0].map((row) =>
    o.sum(row.map((h, r) => o.mul(o.R.tanh(h, p), args[1][r][0], p)), p));
  return Array.from({ length: k.n }, (_, i) => flat.slice(i * m, (i + 1) * m));
}""",
                lambda spec, p, shape: {"n": p.n},
            ),
        ),
    )
    names: ClassVar[Mapping[str, Names]] = {
        "additive_hidden": Names("h", "h", "h", "H", "H", "H"),
        "W_a": Names("w^{a}", "w^{a}", "wa", "W^{a}", "W^{a}", "W_a"),
        "U_a": Names("u^{a}", "u^{a}", "ua", "U^{a}", "U^{a}", "U_a"),
        "v_a": Names("v^{a}", "v^{a}", "va", "v^{a}", "v^{a}", "v_a"),
    }
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {"tanh": (r"\tanh", "tanh")}
    numpy = additive_numpy.PATH

    def default_scale(self, data: Mapping[str, Any]) -> str | None:
        return "none" if data.get("score") == "additive" else None

    def read(self, ctx: LoadContext) -> AdditiveConfig | None:
        score = ctx.data.get("score", "dot")
        if score not in ("dot", "additive"):
            raise ctx.error(f'expected "dot" or "additive", found {score!r}', "score")
        given = [k for k in ("W_a", "U_a", "v_a") if ctx.has(k)]
        if score == "dot":
            if given:
                raise ctx.error('given without score = "additive"', given[0])
            return None
        missing = [k for k in ("W_a", "U_a", "v_a") if not ctx.has(k)]
        if missing:
            raise ctx.error(
                f"missing {', '.join(missing)}: additive attention needs W_a, U_a "
                "(d_k × d_a) and v_a (d_a entries)"
            )
        d_k = ctx.shapes["d_k"]
        w_a, u_a = ctx.matrix("W_a"), ctx.matrix("U_a")
        raw = ctx.data["v_a"]
        if isinstance(raw, list) and raw and not any(isinstance(x, list) for x in raw):
            v_a = ctx.convert(tuple((ctx.reader.value(x, "v_a", k),) for k, x in enumerate(raw)))
        else:
            v_a = ctx.matrix("v_a", laid_out=False)
        d_a = ctx.shape_rule(w_a, "W_a", d_k, None, "d_k × d_a: q_i W_a")
        ctx.shape_rule(u_a, "U_a", d_k, d_a, "d_k × d_a, as W_a: k_j U_a")
        ctx.shape_rule(v_a, "v_a", d_a, 1, "one entry per column of W_a")
        return AdditiveConfig(w_a, u_a, v_a)

    def scores(self, b: Builder, config: AdditiveConfig) -> bool:
        p, head = b.problem, b.head
        for name in ("W_a", "U_a", "v_a"):
            b.inputs[name] = Source(name)
        kv = p.kv_tokens
        if p.tokens is not None and kv is not None:
            labels = tuple(f"{a}→{c}" for a in p.tokens for c in kv)
        else:
            labels = tuple(f"{i + 1},{j + 1}" for i in range(p.n) for j in range(p.m))
        hidden = b.add(
            StepSpec(
                id=f"{b.prefix}additive_hidden",
                kind=ADDITIVE_HIDDEN,
                operands=(head.q, head.k, "W_a", "U_a"),
                row_labels=labels,
            )
        )
        b.add(
            StepSpec(
                id=f"{b.prefix}scores",
                kind=TANH_SCORE,
                operands=(hidden, "v_a"),
                row_labels=p.tokens,
                col_labels=kv,
            )
        )
        return True

    def notes(
        self, problem: Problem, config: AdditiveConfig, w: Words
    ) -> list[tuple[str | Math | MathName, ...]]:
        q, k, hidden = Name("Q", "i"), Name("K", "j"), Name("additive_hidden", "ij")
        h = Relation(hidden, "=", Sum((Product((q, Name("W_a"))), Product((k, Name("U_a"))))))
        tanh = Concat((Sym("tanh"), Paren(hidden)))
        s = Relation(Name("scores", "i", "j"), "=", Product((tanh, Name("v_a"))))
        return [(*w.parts("derive.given_additive"), " ", h, ", ", s, w("period"))]

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """d_a = 2, W_a and U_a in −1 … 1, v_a in {−1, 1, 2}, not scaled."""
        d_k = options.shape[2]
        data.pop("scale", None)  # additive scores are not scaled
        data |= {
            "score": "additive",
            "W_a": matrix(d_k, D_A, 1, sparse=True),
            "U_a": matrix(d_k, D_A, 1, sparse=True),
            "v_a": [rng.choice((-1, 1, 2)) for _ in range(D_A)],
        }


TOPIC = Additive()
