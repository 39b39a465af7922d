"""Attention as a student might compute it: a plan, possibly changed by a mistake model,
run on decimals, with some steps replaced by the student's own answers.

This is what a hand calculation is compared with.  The right method is the plan
itself; each mistake model (:mod:`symattn.check.mistakes`) is a change to the plan,
and the student's earlier answers, given as ``overrides``, give the
error-carried-forward key.

>>> from symattn.load import load
>>> from symattn.plan import forward_plan
>>> p = load({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], "scale": "none"})
>>> out = evaluate(p, forward_plan(p))
>>> [round(float(x), 4) for x in out["weights"][0]]
[0.7311, 0.2689]
"""

from __future__ import annotations

import decimal
from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache

from ..numbers import decimal_context
from ..plan import Plan
from ..problem import Matrix, Problem
from ..steps import Kind, Source, StepSpec
from .values import DecimalMatrix, NotApplicable, apply, dec_matrix

__all__ = ["DecimalMatrix", "NotApplicable", "evaluate"]


@lru_cache(maxsize=256)
def _decimals(matrix: Matrix, precision: int) -> tuple[tuple[Decimal, ...], ...]:
    """A given matrix as decimals (shared by every evaluation of a class's problem)."""
    with decimal.localcontext(decimal_context(precision)):
        return tuple(tuple(row) for row in dec_matrix(matrix))


def _given(matrix: Matrix, precision: int) -> DecimalMatrix:
    return [list(row) for row in _decimals(matrix, precision)]


@lru_cache(maxsize=1024)
def _projection(
    problem: Problem, spec: StepSpec, operands: tuple[Source, ...], precision: int
) -> tuple[tuple[Decimal, ...], ...]:
    """A step made only from given matrices (Q = X W_Q, …), computed once per problem."""
    with decimal.localcontext(decimal_context(precision)):
        args = [_given(source.take(problem), precision) for source in operands]
        return tuple(tuple(row) for row in apply(spec, args, problem))


def evaluate(
    problem: Problem,
    plan: Plan,
    overrides: Mapping[str, DecimalMatrix] | None = None,
    precision: int = 30,
) -> dict[str, DecimalMatrix]:
    """The values of every step of ``plan``, with some steps replaced by ``overrides``.

    Raises :class:`NotApplicable` when the plan does not apply to the problem (a
    transposed score matrix of a problem with n ≠ m, say).
    """
    given = overrides or {}
    if problem.symbolic:
        raise NotApplicable("mistake models need numbers, not symbols")
    origin: dict[str, Source] = dict(plan.inputs)  # matrices the problem gives
    out: dict[str, DecimalMatrix] = {}
    with decimal.localcontext(decimal_context(precision)):
        for spec in plan.specs:
            if spec.id in given:
                out[spec.id] = given[spec.id]
            elif spec.kind == Kind.TOKENS:
                assert problem.lookup is not None
                out[spec.id] = [[Decimal(i)] for i in problem.lookup.ids]
            elif spec.kind in (Kind.GIVEN, Kind.LOOKUP) and spec.source is not None:
                out[spec.id] = _given(spec.source.take(problem), precision)
                origin[spec.id] = spec.source
            elif spec.operands and all(o in origin for o in spec.operands):
                sources = tuple(origin[o] for o in spec.operands)
                projected = _projection(problem, spec, sources, precision)
                out[spec.id] = [list(row) for row in projected]
            else:
                args = [
                    out[o] if o in out else _given(origin[o].take(problem), precision)
                    for o in spec.operands
                ]
                source = _given(spec.source.take(problem), precision) if spec.source else None
                out[spec.id] = apply(spec, args, problem, source)
    return out
