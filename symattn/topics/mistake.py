"""A topic's mistake models: where each shows, how to compute it, what it says (in words/)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..messages import Fact
from ..problem import Problem
from ..record import Record
from ..steps import Plan, StepSpec

__all__ = ["Compute", "Mistake", "Run", "on", "plan_change"]

# -- mistake models ----------------------------------------------------------------------------
#: One way to compute a mistake: the problem as the student read it, the changed plan,
#: and facts its sentence names.
Run = tuple[Problem, Plan, dict[str, Any]]
Compute = Callable[[Problem, Plan], list[Run]]


class Mistake(Record):
    """A mistake model: where it shows, how to compute it, and (in words/) what it says.

    It shows in the steps ``shows_in`` and in every step made from them; ``family``
    "scale" mistakes combine with "method" and "rounding" ones (two at once); a
    ``weaker`` one is reported only when no other model explains the numbers.
    ``words_facts`` gives the facts its sentence names that come from the problem.
    """

    id: str
    shows_in: tuple[str, ...]
    compute: Compute
    family: str = "method"
    weaker: bool = False
    words_facts: Callable[[Problem], dict[str, Fact]] | None = None

    def shows(self, base: str, plan: Plan) -> bool:
        """Whether this mistake can show in step ``base`` (in any head) of ``plan``."""
        if base in self.shows_in:
            return True
        later = {s.split(".", 1)[-1] for b in self._starts(plan) for s in plan.downstream(b)}
        backward = _backward(plan)
        if not backward & set(self.shows_in):  # a forward mistake: not in the backward pass
            later -= backward
        return base in later

    def _starts(self, plan: Plan) -> list[str]:
        return [s.id for s in plan.specs if s.base in self.shows_in]


def _backward(plan: Plan) -> set[str]:
    """The backward pass's steps (by base id): those made from the upstream gradient."""
    roots = [s.id for s in plan.specs if s.base == "dO"]
    return {s.split(".", 1)[-1] for r in roots for s in (r, *plan.downstream(r))}


def on(base: str, **changes: Any) -> Callable[[StepSpec], StepSpec | None]:
    """Change every spec of step ``base`` (in every head)."""
    return lambda s: s.changed(**changes) if s.base == base else None


def plan_change(base: str, **changes: Any) -> Compute:
    """A mistake that changes the spec of step ``base`` (a field, or its params)."""
    return lambda problem, plan: [(problem, plan.changed(on(base, **changes)), {})]
