"""Problem → derivation: the exact forward pass, the backward pass when asked for,
and the cross-check against NumPy."""

from __future__ import annotations

from ..derivation import Derivation
from ..problem import Problem
from . import backward as backward_pass
from .crosscheck import crosscheck as cross_check
from .forward import run

__all__ = ["derivation"]


def derivation(
    problem: Problem, *, digits: int = 4, crosscheck: bool = True, backward: bool = False
) -> Derivation:
    """Every step of ``problem`` exactly (and its gradients), cross-checked with NumPy."""
    derived = run(problem, digits=digits)
    if backward:
        derived = backward_pass.extend(derived)
    if crosscheck:
        derived = derived.with_crosscheck(cross_check(derived))
    return derived
