"""The cross-check: the exact derivation against the independent NumPy path.

For every entry of every numeric step it measures the absolute error
``|float − exact|`` and a relative error against the larger of ``|exact|`` and the
size of the terms that make the entry (for a product C = AB: Σ_k |a_ik||b_kj|; for a
weight: the largest weight of its row).  Float64 cancellation (0.1 + 0.2 − 0.3) and
underflow (e^−1000) are then not reported as disagreement, while a wrong value is.
``passed`` means a relative error of at most 1e-12 everywhere.

Both what is shown is checked: the exact entries themselves (the closed forms,
evaluated here at 40 digits) and the high-precision values the decimals are rounded
from.
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from ..derivation import TOLERANCE, Crosscheck, Derivation
from ..numbers import RowCache, evaluate
from .numeric import backward, forward

__all__ = ["TOLERANCE", "Crosscheck", "crosscheck"]

#: Significant digits at which the exact entries are evaluated for the comparison.
EVALUATION_DIGITS = 40


def crosscheck(derivation: Derivation) -> Crosscheck | None:
    """Compare every entry of every numeric step with the NumPy path.

    The exact entries themselves (the closed forms that are shown) are evaluated at 40
    digits here, so a wrong closed form cannot hide behind correct decimals.  Returns
    None for symbolic problems.
    """
    if derivation.problem.symbolic:
        return None
    floats = forward(derivation.problem)
    if "dO" in derivation.step_ids:
        backward(derivation.problem, floats)
    max_abs = max_rel = 0.0
    worst: tuple[str, tuple[int, int]] | None = None
    cache: RowCache = {}
    with np.errstate(all="ignore"):
        for step in derivation.steps:
            if step.id not in floats:
                continue
            numeric, magnitude = floats[step.id]
            for i, row in enumerate(step.exact):
                for j, entry in enumerate(row):
                    got, size = float(numeric[i, j]), Decimal(float(magnitude[i, j]))
                    shown = step.values[i][j]
                    candidates = [evaluate(entry, EVALUATION_DIGITS, cache)] + (
                        [shown] if shown is not None else []
                    )
                    for exact in candidates:
                        abs_err, rel_err = _errors(got, exact, size)
                        if worst is None or rel_err > max_rel:
                            worst = (step.id, (i, j))
                        max_abs = max(max_abs, abs_err)
                        max_rel = max(max_rel, rel_err)
    return Crosscheck(max_abs, max_rel, worst[0] if worst else None, worst[1] if worst else None)


def _errors(got: float, exact: Decimal, size: Decimal) -> tuple[float, float]:
    """Absolute and relative error of one float against one exact value."""
    if exact.is_infinite() or got == float("-inf"):
        same = exact.is_infinite() and got == float("-inf")
        return (0.0, 0.0) if same else (float("inf"), float("inf"))
    if got != got:  # NaN
        return float("inf"), float("inf")
    diff = abs(Decimal(got) - exact)
    scale = max(abs(exact), size)
    return float(diff), (float(diff / scale) if scale else (0.0 if not diff else 1.0))
