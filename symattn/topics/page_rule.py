"""A topic's kind of step on the self-check page: its decimal rule in JavaScript.

The page marks a typed sheet as ``check`` does by running the plan on the typed numbers
(symattn/exercises/self_check_marking.js); a topic's kind brings its own rule there, as it
brings its decimal rule to :mod:`symattn.compute.values` (``KindRules.page``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..problem import Problem
from ..record import Record
from ..steps import StepSpec

__all__ = ["PageRule"]


def _none(spec: StepSpec, problem: Problem, shape: tuple[int, int]) -> dict[str, Any]:
    return {}


class PageRule(Record):
    """``script``: the source of a JavaScript function ``(spec, args, problem, p, k, o)``
    returning the step's matrix, which the page runs with its decimal arithmetic ``o``
    (``o.add(a, b, p)``, ``o.matmul``, ``o.D`` for a decimal string, …) at ``p`` digits;
    ``constants(spec, problem, shape)``: the ``k`` it needs, as JSON, computed in the
    current decimal context (``shape``: the step's)."""

    script: str
    constants: Callable[[StepSpec, Problem, tuple[int, int]], dict[str, Any]] = _none
