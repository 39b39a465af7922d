"""The exact engine: a plan and a problem → a :class:`~symattn.derivation.Derivation`.

Each step gets its exact entries from the rule of its kind (:mod:`.exact` forward,
:mod:`.backward` for gradients) and its high-precision values from the exact entries
themselves: surds and rationals evaluate directly, the closed forms of a numeric
problem by ball arithmetic (:func:`~symattn.numbers.evaluate_matrix`, certified to the
last digit but one).  Gradients (SymPy entries) take their values from their
operands' values by the same decimal rule the mistake models use (:mod:`.values`).
"""

from __future__ import annotations

import decimal
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..derivation import Derivation
from ..numbers import (
    GUARD,
    NegInf,
    RowBalls,
    Surd,
    decimal_context,
    evaluate,
    evaluate_matrix,
    evaluate_or_none,
    in_balls,
)
from ..plan import Plan, forward_plan
from ..problem import Matrix, Problem
from ..steps import Kind, Step, StepSpec, Values
from . import values as decimal_rules
from .exact import FORWARD_RULES, ExactRule

__all__ = ["WORKING_PRECISION", "execute", "run"]

#: Significant digits of the high-precision values (more are added for --digits).
WORKING_PRECISION = 50


def _direct(entry: Any) -> bool:
    """Entries whose value comes straight from the entry (no closed form to follow)."""
    return isinstance(entry, (Surd, NegInf))


def _closed_numeric(entries: Matrix) -> bool:
    """Closed forms of numbers only (a numeric problem's softmax, output, concat · W_O, a
    residual): never of transcendental scores (sin, cos, tanh), whose exponents are SymPy's."""
    return all(in_balls(x) for row in entries for x in row)


class _Values:
    """The values of every matrix a step may name, evaluated when first asked for."""

    def __init__(self, problem: Problem, precision: int, known: Mapping[str, Values]) -> None:
        self.problem, self.precision = problem, precision
        self.known: dict[str, Values] = dict(known)
        self._guard = decimal_context(precision + GUARD)
        self._roots: dict[int, Decimal] = {}
        self.rows: RowBalls = {}  # the softmax rows' balls, for the weights and the output

    def of(self, name: str, matrix: Matrix) -> Values:
        if name not in self.known:
            self.known[name] = self.direct(matrix)
        return self.known[name]

    def direct(self, matrix: Matrix) -> Values:
        context = decimal_context(self.precision)
        seen: dict[int, Decimal | None] = {}  # entries repeat (the same objects)
        with decimal.localcontext(context):
            return tuple(self._row(row, context, seen) for row in matrix)

    def _row(
        self, row: tuple[Any, ...], context: decimal.Context, seen: dict[int, Decimal | None]
    ) -> tuple[Decimal | None, ...]:
        """``_one`` of each entry, once per entry object; rationals inline."""
        out: list[Decimal | None] = []
        divide = context.divide
        for x in row:
            key = id(x)
            if key in seen:
                out.append(seen[key])
                continue
            terms = x.terms if type(x) is Surd else None
            value: Decimal | None
            if terms is not None and len(terms) == 1 and terms[0][0] == 1:
                q = terms[0][1]
                value = divide(Decimal(q.numerator), Decimal(q.denominator))
            else:
                value = self._one(x, context)
            seen[key] = value
            out.append(value)
        return tuple(out)

    def _one(self, x: Any, context: decimal.Context) -> Decimal | None:
        if isinstance(x, Surd) and x.is_rational:  # a quotient, correctly rounded
            q = x.as_fraction()
            return context.divide(Decimal(q.numerator), Decimal(q.denominator))
        if isinstance(x, Surd) and len(x.terms) == 1:  # c √r: as evaluate() does it
            r, c = x.terms[0]
            guard = self._guard
            root = self._roots.get(r)
            if root is None:
                root = self._roots[r] = guard.sqrt(Decimal(r))
            term = guard.divide(Decimal(c.numerator), Decimal(c.denominator))
            return context.plus(guard.multiply(term, root))
        if _direct(x):
            return evaluate(x, self.precision)
        return evaluate_or_none(x, self.precision)

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
        evaluated: Matrix | None = entries
        if all(_direct(x) for row in entries for x in row):
            step_values = values.direct(entries)
        elif not problem.symbolic and _closed_numeric(entries):
            # the closed forms themselves, by ball arithmetic, one matrix at a time
            balls = evaluate_matrix(entries, precision, values.rows)
            step_values = tuple(tuple(row) for row in balls)
        else:
            evaluated = None
            given = spec.source.take(problem) if spec.source is not None else None
            operand_values = [values.of(o, matrices[o]) for o in spec.operands]
            found = values.computed(spec, operand_values, given)
            step_values = found or tuple(tuple(None for _ in row) for row in entries)
        values.known[spec.id] = step_values
        matrices[spec.id] = entries
        steps.append(Step(spec, entries, step_values, evaluated_from=evaluated))
    return Derivation(problem, tuple(steps), matrices, precision)


def run(problem: Problem, digits: int = 4) -> Derivation:
    """Derive every forward step of ``problem`` exactly (no cross-check)."""
    return execute(forward_plan(problem), problem, FORWARD_RULES, WORKING_PRECISION + digits)
