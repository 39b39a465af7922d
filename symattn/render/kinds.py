"""How each kind of step is written: one method per :class:`~symattn.steps.Kind`.

A new kind of step needs one method here (and its entry in :data:`KINDS`); every
format — terminal, LaTeX, Markdown, HTML — then writes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..derivation import Derivation
from ..entries import DotEntry, JacobianEntry, MaskEntry, ScaleEntry, SoftmaxEntry
from ..formula import (
    Cell,
    Dec,
    Exp,
    Frac,
    Glue,
    Join,
    Label,
    Line,
    Lit,
    Math,
    Minus,
    Name,
    Paren,
    Product,
    Relation,
    Sub,
    Sum,
    Sym,
    Table,
    Value,
    Vector,
)
from ..ids import split_id
from ..numbers import NegInf, round_half_away
from ..steps import Kind, Ref, Step
from ..topics import CORE_KINDS, TopicTable
from ..words import Words
from .general import says_given
from .options import RenderOptions
from .view import view_of
from .walker import ENTRY_LIMIT, KindMethod, Walker, divisor_symbol, heatmap

if TYPE_CHECKING:
    from .block_type import Block

__all__ = ["KINDS", "build_blocks", "step_blocks"]


def given(walk: Walker, step: Step) -> None:
    """A given matrix; a step made from others by a formula without entries to write out
    (O = C, dO = O − T, a head's columns of dO, a topic's bias) says its formula first."""
    if says_given(step.spec):
        walk.say(walk.words("derive.given_matrix"))
    else:
        walk.general_block(step)
    walk.matrix(step)


def tokens(walk: Walker, step: Step) -> None:
    lookup = walk.d.problem.lookup
    assert lookup is not None
    walk.say(walk.words("derive.split"))
    pieces = Join(tuple(Label(t) for t in lookup.tokens), "bar")
    ids = Join(
        tuple(Relation(Label(t), "↦", Lit(str(i))) for t, i in zip(lookup.tokens, lookup.ids)),
        "list",
    )
    walk.show(
        [
            Line(Label(lookup.text), (("→", pieces),), breaks=False),
            Line(None, (("", ids),), breaks=False),
        ]
    )


def lookup(walk: Walker, step: Step) -> None:
    found = walk.d.problem.lookup
    assert found is not None
    walk.say(walk.words("derive.lookup"))
    lines = []
    for i, (token, token_id) in enumerate(zip(found.tokens, found.ids)):
        row = Vector(tuple(Value(e) for e in step.exact[i]))
        lines.append(
            Line(
                Name("X", i),
                (("=", Sub(Sym("E"), f"{token_id},:")), ("=", row)),
                breaks=False,
                note=token,
            )
        )
    walk.show(lines)
    walk.matrix(step)


def product(walk: Walker, step: Step) -> None:
    walk.general_block(step)
    weighted = step.kind == Kind.WEIGHTED_SUM and not walk.columns
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        if weighted:
            weighted_row(walk, step, i)
        lines = []
        for r, j in walk.cells(step, i):
            f = walk.d.entry(step.id, r, j)
            assert isinstance(f, DotEntry)
            names = Sum(
                tuple(
                    Product(
                        (
                            Name(t.left.matrix, t.left.row, t.left.col),
                            Name(t.right.matrix, t.right.row, t.right.col),
                        ),
                        flips=True,
                    )
                    for t in f.terms
                )
            )
            parts: list[tuple[str, Math]] = []
            if split_id(step.id)[1] == "scores":
                rows = Product(
                    (Name(step.operands[0], r), Name(step.operands[1], j)), Glue.INNER, flips=True
                )
                parts.append(("=", rows))
            parts.append(("=", names))
            if not walk.symbolic:
                numbers = Sum(
                    tuple(
                        Product(
                            (
                                Name(t.left.matrix, r, t.left.col)
                                if weighted
                                else walk.number(t.left, t.left_value),
                                walk.number(t.right, t.right_value),
                            ),
                            Glue.DOT,
                            flips=True,
                        )
                        for t in f.terms
                    )
                )
                parts.append(("=", numbers))
            lines.append(Line(Name(step.id, r, j), tuple(parts), walk.result(step, r, j)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


def weighted_row(walk: Walker, step: Step, i: int) -> None:
    """b_i = Σ_j a_ij v_j with the vectors written out."""
    weights, values = walk.d.step(step.operands[0]), walk.d.step(step.operands[1])
    names = Sum(
        tuple(
            Product((Name(weights.id, i, j), Name(values.id, j)), Glue.SPACE)
            for j in range(weights.shape[1])
        )
    )
    parts: list[tuple[str, Math]] = [("=", names)]
    if not walk.symbolic:
        numbers = Sum(
            tuple(
                Product(
                    (
                        Cell(weights.exact[i][j], weights.decimal_str(i, j, walk.digits), True),
                        Vector(tuple(Value(e) for e in values.exact[j])),
                    ),
                    Glue.SPACE,
                )
                for j in range(weights.shape[1])
            )
        )
        parts.append(("=", numbers))
        result = Vector(
            tuple(
                Cell(step.exact[i][k], step.decimal_str(i, k, walk.digits), True)
                for k in range(step.shape[1])
            )
        )
        exact = all(walk.result(step, i, k).rational is not None for k in range(step.shape[1]))
        parts.append(("=" if exact else "≈", result))
    walk.say(walk.words("derive.weighted"))
    walk.show([Line(Name(step.id, i), tuple(parts))])
    walk.say(walk.words("derive.entries"))


def scale(walk: Walker, step: Step) -> None:
    walk.general_block(step)
    c = divisor_symbol(step.spec.divisor_label)
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        lines = []
        for r, j in walk.cells(step, i):
            f = walk.d.entry(step.id, r, j)
            assert isinstance(f, ScaleEntry)
            parts: list[tuple[str, Math]] = [("=", Frac(Name(f.source.matrix, r, j), c))]
            if not walk.symbolic:
                parts.append(("=", Frac(walk.number(f.source, f.source_value), Value(f.divisor))))
            lines.append(Line(Name(step.id, r, j), tuple(parts), walk.result(step, r, j)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


def mask(walk: Walker, step: Step) -> None:
    walk.say(*walk.words.parts("derive.mask"))
    walk.show([walk.general(step)])
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        lines = []
        for r, j in walk.cells(step, i):
            f = walk.d.entry(step.id, r, j)
            assert isinstance(f, MaskEntry)
            if f.allowed:
                parts: tuple[tuple[str, Math], ...] = (
                    ("=", Name(f.source.matrix, r, j)),
                    ("=", Value(f.value)),
                )
            else:
                parts = (("=", Sym("neg_inf")),)
            lines.append(Line(Name(step.id, r, j), parts, breaks=False))
        walk.show(lines)
    walk.all_rows(step)


def softmax(walk: Walker, step: Step) -> None:
    walk.general_block(step)
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        first = walk.d.entry(step.id, *walk.cells(step, i)[0])
        assert isinstance(first, SoftmaxEntry)
        sigma = Sub(Sym("Sigma"), str(i + 1))
        names = Sum(tuple(Exp(Name(r.matrix, r.row, r.col)) for r, _ in first.row))
        if first.exps is None or first.total is None:  # symbolic: name the sum all the same
            walk.show([Line(sigma, (("=", names),))])
        else:
            walk.say(walk.words("derive.exps"))
            lines = [
                Line(
                    Exp(Name(ref.matrix, ref.row, ref.col)),
                    (("=", Exp(Value(x, inline=True))), ("≈", Dec(value, walk.digits))),
                    breaks=False,
                )
                for (ref, x), value in list(zip(first.row, first.exps))[:ENTRY_LIMIT]
            ]
            lines.append(
                Line(sigma, (("=", names),), Relation(None, "≈", Dec(first.total, walk.digits)))
            )
            walk.show(lines)
        walk.say(walk.words("derive.quotients"))
        lines = []
        for r, j in walk.cells(step, i):
            f = walk.d.entry(step.id, r, j)
            assert isinstance(f, SoftmaxEntry)
            target = Name(step.id, r, j)
            if f.numerator is None:
                lines.append(Line(target, (("=", Lit("0")),), breaks=False))
                continue
            numerator = Name(f.numerator.matrix, f.numerator.row, f.numerator.col)
            value = next(x for r, x in f.row if r == f.numerator)
            parts: list[tuple[str, Math]] = [("=", Frac(Exp(numerator), sigma))]
            if not walk.symbolic:
                parts.append(("=", Frac(Exp(Value(value, inline=True)), sigma)))
            lines.append(Line(target, tuple(parts), walk.result(step, r, j)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)
    if not walk.symbolic:
        walk.blocks.append(heatmap(step, walk.digits, walk.words("derive.heatmap"), walk.view))


def jacobian(walk: Walker, step: Step) -> None:
    walk.general_block(step)
    for i in walk.expanded(step):
        walk.heading_row(step, i)
        first = walk.d.entry(step.id, i, 0)
        assert isinstance(first, JacobianEntry)
        if first.jacobian is not None:
            walk.say(walk.words("derive.jacobian"))
            size = len(first.jacobian)
            cells = tuple(
                tuple(Lit(round_half_away(x, walk.digits)) for x in row) for row in first.jacobian
            )
            j_matrix = Table(cells, tuple(range(size)), tuple(range(size)))
            walk.show([Line(Sub(Sym("J"), str(i + 1)), (("≈", j_matrix),), breaks=False)])
        lines = []
        for j in walk.entry_columns(step):
            f = walk.d.entry(step.id, i, j)
            assert isinstance(f, JacobianEntry)
            (a_ref, a), (g_ref, g) = f.weights[f.column], f.upstream[f.column]
            inner = Sum(
                tuple(
                    Product((Name(r.matrix, r.row, r.col), Name(h.matrix, h.row, h.col)))
                    for (r, _), (h, _) in zip(f.weights, f.upstream)
                )
            )
            names = Product(
                (
                    Name(a_ref.matrix, i, j),
                    Paren(Sum((Name(g_ref.matrix, i, j), Minus(Paren(inner))))),
                )
            )
            parts: list[tuple[str, Math]] = [("=", names)]
            if not walk.symbolic:
                nums = Sum(
                    tuple(
                        Product((walk.number(r, x), walk.number(h, y)), Glue.DOT)
                        for (r, x), (h, y) in zip(f.weights, f.upstream)
                    )
                )
                substituted = Product(
                    (walk.number(a_ref, a), Paren(Sum((walk.number(g_ref, g), Minus(Paren(nums))))))
                )
                parts.append(("=", substituted))
            lines.append(Line(Name(step.id, i, j), tuple(parts), walk.result(step, i, j)))
        walk.show(lines)
        walk.more(step)
    walk.all_rows(step)


def add_step(walk: Walker, step: Step) -> None:
    """A sum entry by entry, ``r_ij = x_ij + o_ij`` (−∞ + s = −∞ for a masked score)."""
    left, right = step.operands
    # a topic's sum may say its own first sentence (its params' ``sentence``)
    walk.say(walk.words(getattr(step.spec.params, "sentence", None) or "derive.general"))
    walk.show([walk.general(step)])
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


def concat(walk: Walker, step: Step) -> None:
    walk.general_block(step)
    walk.all_rows(step)


KINDS: Mapping[Kind, KindMethod] = TopicTable(
    {
        Kind.TOKENS: tokens,
        Kind.LOOKUP: lookup,
        Kind.GIVEN: given,
        Kind.COPY: given,
        Kind.DIFFERENCE: given,
        Kind.COLUMNS: given,
        Kind.PRODUCT: product,
        Kind.SUM_OF_PRODUCTS: product,
        Kind.WEIGHTED_SUM: product,
        Kind.SCALE: scale,
        Kind.MASK: mask,
        Kind.SOFTMAX: softmax,
        Kind.JACOBIAN: jacobian,
        Kind.CONCAT: concat,
        Kind.ADD: add_step,
    },
    lambda topic: {rules.kind: rules.write for rules in topic.kinds},
    theirs=CORE_KINDS,
)


def build_blocks(derivation: Derivation, options: RenderOptions | Words) -> list[Block]:
    """The derivation as blocks, ready for any writer (``options``: what to write; words
    alone: the defaults in that language)."""
    if isinstance(options, Words):
        options = RenderOptions(lang=options.lang)
    options.fit(derivation.problem.n, derivation.problem.heads)
    walk = Walker(derivation, options, KINDS, view=view_of(derivation.problem.layout))
    return walk.run()


def step_blocks(
    derivation: Derivation, step_id: str, row: int, options: RenderOptions
) -> list[Block]:
    """One step written out for one row only (feedback derives a wrong entry)."""
    walk = Walker(
        derivation, options.but(rows=(row,)), KINDS, view=view_of(derivation.problem.layout)
    )
    walk.step(derivation.step(step_id))
    return walk.blocks
