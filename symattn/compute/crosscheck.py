"""The cross-check: the exact derivation against the independent NumPy path.

For every entry of every numeric step it measures the absolute error
``|float − exact|`` and a relative error against the larger of ``|exact|`` and the
size of the terms that make the entry (for a product C = AB: Σ_k |a_ik||b_kj|; for a
weight: its share of the terms of its row's scores, at least the row's largest weight).
Float64 cancellation (0.1 + 0.2 − 0.3) and underflow (e^−1000, below
the smallest normal double) are then not reported as disagreement, while a wrong
value is; entries whose float64 terms overflow (scores of 10⁴⁰⁰) are not compared.
``passed`` means a relative error of at most 1e-12 everywhere; the sizes carry the
condition of every step before (a LayerNorm's cancellation, a mask of −1e9 added), so the
bound on an entry is about n·ε·Σ|terms|.  Where an entry is off by more than 1e-12 of its
own value but within that bound, the verdict is "passed within float64's error".

What is compared is what is shown: the forward steps' values are the certified
evaluations of their exact entries (the closed forms themselves, by ball arithmetic),
so a wrong closed form cannot hide behind correct decimals; the gradients' exact
entries (SymPy expressions) are evaluated here too, by one memoised walk, next to
their values.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Sequence
from decimal import Decimal

import numpy as np

from ..derivation import TOLERANCE, Crosscheck, Derivation
from ..numbers import (
    Combination,
    ExpRatio,
    NegInf,
    Surd,
    SympyEvaluator,
    evaluate_matrix,
    in_balls,
    to_sympy,
)
from ..steps import Step
from ..topics import numpy_paths
from .numeric import backward, forward

__all__ = ["TOLERANCE", "Crosscheck", "crosscheck"]

#: Significant digits at which the gradients' exact entries are evaluated.
EVALUATION_DIGITS = 40

#: The smallest normal double: below it float64 has no relative accuracy left.
_TINY = Decimal(np.finfo(np.float64).tiny.item())
_CONTEXT = decimal.Context(
    prec=28, Emin=decimal.MIN_EMIN, Emax=decimal.MAX_EMAX, traps=[decimal.InvalidOperation]
)
_NUMBERS = (Surd, NegInf, ExpRatio, Combination)


def crosscheck(derivation: Derivation) -> Crosscheck | None:
    """Compare every entry of every numeric step with the NumPy path (None for
    symbolic problems)."""
    if derivation.problem.symbolic:
        return None
    paths = numpy_paths(derivation.problem)
    floats = forward(derivation.problem, paths)
    if "dO" in derivation.step_ids:
        backward(derivation.problem, floats, paths)
    max_abs = max_rel = 0.0
    conditioned = False
    worst: tuple[str, tuple[int, int]] | None = None
    sympy_values = SympyEvaluator(EVALUATION_DIGITS)
    for step in derivation.steps:
        if step.id not in floats:
            continue
        numeric, magnitude = floats[step.id]
        own = _own_values(step, sympy_values)
        same = own is step.values  # the values shown are the ones evaluated
        for i, (own_row, value_row, got_row, size_row) in enumerate(
            zip(own, step.values, numeric.tolist(), magnitude.tolist())
        ):
            if same and tuple(got_row) == own_row:  # every float exact: no error in the row
                if worst is None:
                    finite = [j for j, size in enumerate(size_row) if math.isfinite(size)]
                    worst = (step.id, (i, finite[0])) if finite else None
                continue
            for j, (evaluated, shown, got, size) in enumerate(
                zip(own_row, value_row, got_row, size_row)
            ):
                if got == evaluated and (same or shown is None or shown == evaluated):
                    # no error (a float equal to the exact value): (0, 0), as _errors says
                    if worst is None and math.isfinite(size):
                        worst = (step.id, (i, j))
                    continue
                if not math.isfinite(size):  # float64 overflowed on the way
                    continue
                candidates = (
                    [evaluated]
                    if same or shown is None or shown == evaluated
                    else [
                        evaluated,
                        shown,
                    ]
                )
                for exact in candidates:
                    abs_err, rel_err = _errors(got, exact, size)
                    if worst is None or rel_err > max_rel:
                        worst = (step.id, (i, j))
                    if abs_err > max_abs:
                        max_abs = abs_err
                    if rel_err > max_rel:
                        max_rel = rel_err
                    if abs_err > TOLERANCE * abs(float(exact)):
                        conditioned = True
    return Crosscheck(
        max_abs,
        max_rel,
        worst[0] if worst else None,
        worst[1] if worst else None,
        conditioned,
    )


def _own_values(step: Step, sympy_values: SympyEvaluator) -> Sequence[Sequence[Decimal]]:
    """The exact entries evaluated: the step's values when the engine made them from
    these very entries, else evaluated here (closed forms as one ball computation,
    SymPy entries by the memoised walk)."""
    if step.values_evaluate_exact:
        return step.values  # type: ignore[return-value]
    if all(in_balls(x) for row in step.exact for x in row):
        return evaluate_matrix(step.exact, EVALUATION_DIGITS)

    def value(x: object) -> Decimal:  # closed forms and SymPy entries may meet in a step
        if isinstance(x, Decimal):
            return x
        if isinstance(x, NegInf):
            return Decimal("-Infinity")
        if in_balls(x):
            return evaluate_matrix(((x,),), EVALUATION_DIGITS)[0][0]
        return sympy_values(to_sympy(x))

    return [[value(x) for x in row] for row in step.exact]


def _errors(got: float, exact: Decimal, size: float) -> tuple[float, float]:
    """Absolute and relative error of one float against one exact value."""
    if exact.is_infinite() or got == -math.inf:
        same = exact.is_infinite() and got == -math.inf
        return (0.0, 0.0) if same else (math.inf, math.inf)
    if got != got:  # NaN
        return math.inf, math.inf
    if got == exact:
        return 0.0, 0.0
    context = _CONTEXT
    diff = abs(context.subtract(Decimal(got), exact))
    scale = max(abs(exact), Decimal(size))
    if scale < _TINY and diff:  # underflow: float64 has no relative digits down there
        scale = _TINY
    return float(diff), (float(context.divide(diff, scale)) if scale else 0.0)
