"""The exact engine: a plan and a problem → a :class:`~symattn.derivation.Derivation`.

Each step gets its exact entries from the rule of its kind (:mod:`.exact` forward,
:mod:`.backward` for gradients) and its high-precision values either from the exact
entries themselves (surds and rationals evaluate directly) or, for closed forms, from
its operands' values by the same decimal rule the mistake models use
(:mod:`.values`).
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Mapping
from typing import Any

from ..derivation import Derivation
from ..numbers import NegInf, Surd, decimal_context, evaluate, evaluate_or_none
from ..plan import Plan, forward_plan
from ..problem import Matrix, Problem
from ..steps import Kind, Step, StepSpec, Values
from . import exact
from . import values as decimal_rules

__all__ = ["WORKING_PRECISION", "ExactRule", "execute", "run"]

#: Significant digits of the high-precision values (more are added for --digits).
WORKING_PRECISION = 50

ExactRule = Callable[[StepSpec, list[Matrix], Problem], Matrix]


def _ids(problem: Problem) -> Matrix:
    assert problem.lookup is not None
    return tuple((Surd.rational(i),) for i in problem.lookup.ids)


def _given(spec: StepSpec, problem: Problem) -> Matrix:
    assert spec.source is not None
    return spec.source.take(problem)


FORWARD_RULES: dict[Kind, ExactRule] = {
    Kind.TOKENS: lambda spec, args, p: _ids(p),
    Kind.LOOKUP: lambda spec, args, p: _given(spec, p),
    Kind.GIVEN: lambda spec, args, p: _given(spec, p),
    Kind.PRODUCT: lambda spec, args, p: exact.matmul(
        exact.transpose(args[0]) if spec.transpose_left else args[0],
        exact.transpose(args[1]) if spec.transpose_right else args[1],
    ),
    Kind.SCALE: lambda spec, args, p: exact.scale(args[0], spec.divisor),
    Kind.MASK: lambda spec, args, p: exact.mask(args[0], p.mask or ()),
    Kind.SOFTMAX: lambda spec, args, p: exact.softmax(args[0]),
    Kind.WEIGHTED_SUM: lambda spec, args, p: exact.weighted_sum(args[0], args[1]),
    Kind.CONCAT: lambda spec, args, p: exact.concat(args),
    Kind.COPY: lambda spec, args, p: args[0],
}


def _direct(entry: Any) -> bool:
    """Entries whose value comes straight from the entry (no closed form to follow)."""
    return isinstance(entry, (Surd, NegInf))


class _Values:
    """The values of every matrix a step may name, evaluated when first asked for."""

    def __init__(self, problem: Problem, precision: int, known: Mapping[str, Values]) -> None:
        self.problem, self.precision = problem, precision
        self.known: dict[str, Values] = dict(known)

    def of(self, name: str, matrix: Matrix) -> Values:
        if name not in self.known:
            self.known[name] = self.direct(matrix)
        return self.known[name]

    def direct(self, matrix: Matrix) -> Values:
        with decimal.localcontext(decimal_context(self.precision)):
            return tuple(
                tuple(
                    evaluate(x, self.precision)
                    if _direct(x)
                    else evaluate_or_none(x, self.precision)
                    for x in row
                )
                for row in matrix
            )

    def computed(
        self, spec: StepSpec, operands: list[Values], given: Matrix | None
    ) -> Values | None:
        """The step's values by its decimal rule; None when any input has no number."""
        known = [_known(m) for m in operands]
        given_values = _known(self.direct(given)) if given is not None else None
        if any(m is None for m in known) or (given is not None and given_values is None):
            return None
        with decimal.localcontext(decimal_context(self.precision)):
            out = decimal_rules.apply(
                spec, [m for m in known if m is not None], self.problem, given_values
            )
        return tuple(tuple(row) for row in out)


def _known(matrix: Values) -> decimal_rules.DecimalMatrix | None:
    """The values as a decimal matrix, or None when any is unknown (symbols)."""
    out: decimal_rules.DecimalMatrix = []
    for row in matrix:
        cells = []
        for v in row:
            if v is None:
                return None
            cells.append(v)
        out.append(cells)
    return out


def execute(
    plan: Plan,
    problem: Problem,
    rules: Mapping[Kind, ExactRule],
    precision: int,
    before: Derivation | None = None,
) -> Derivation:
    """Run ``plan`` exactly, after the steps of ``before`` (a forward pass, say)."""
    matrices: dict[str, Matrix] = dict(before.matrices) if before else {}
    steps: list[Step] = list(before.steps) if before else []
    values = _Values(problem, precision, {s.id: s.values for s in steps})
    for name, source in plan.inputs:
        matrices[name] = source.take(problem)
    for spec in plan.specs:
        args = [matrices[o] for o in spec.operands]
        entries = rules[spec.kind](spec, args, problem)
        if all(_direct(x) for row in entries for x in row):
            step_values = values.direct(entries)
        else:
            given = spec.source.take(problem) if spec.source is not None else None
            operand_values = [values.of(o, matrices[o]) for o in spec.operands]
            found = values.computed(spec, operand_values, given)
            step_values = found or tuple(tuple(None for _ in row) for row in entries)
        values.known[spec.id] = step_values
        matrices[spec.id] = entries
        steps.append(Step(spec, entries, step_values))
    return Derivation(problem, tuple(steps), matrices, precision)


def run(problem: Problem, digits: int = 4) -> Derivation:
    """Derive every forward step of ``problem`` exactly (no cross-check)."""
    return execute(forward_plan(problem), problem, FORWARD_RULES, WORKING_PRECISION + digits)
