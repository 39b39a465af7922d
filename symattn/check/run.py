"""``check``: a hand calculation against the exact key, from files or objects."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..compute import derivation
from ..derivation import Derivation
from ..errors import SymattnError
from ..load import load
from ..plan import backward_plan
from ..problem import Problem
from .answers import Answers, answer_steps, load_answers, read_places, step_ids_of, step_named
from .marking import Marker
from .results import CheckResult

__all__ = ["check", "key_for"]


def _tolerance(raw: float | str | Decimal) -> Decimal:
    try:
        value = Decimal(str(raw))
    except ArithmeticError:
        raise SymattnError(f"expected a number, found {raw!r}", option="tolerance") from None
    if not value.is_finite() or value < 0 or value > 10**6:
        raise SymattnError(f"expected a number from 0 to 1000000, found {raw}", option="tolerance")
    return value


def _required(key: Derivation, answers: Answers) -> int | None:
    """The places every inexact answer must have, without ``--places``: the problem's and
    the answers file's, the more of the two (a student may ask more of themselves than
    the exercise does, never less)."""
    given = [p for p in (key.problem.places, answers.places) if p is not None]
    return max(given) if given else None


def key_for(
    problem: Problem | str | os.PathLike[str] | Mapping[str, Any],
    answers: str | os.PathLike[str] | Mapping[str, Any] | Answers | None = None,
) -> Derivation:
    """The key of ``problem``; with the backward pass when the answers name a gradient."""
    loaded = problem if isinstance(problem, Problem) else load(problem)
    if loaded.symbolic:
        raise SymattnError(
            f"{loaded.source}: the problem has symbols, so there are no numbers to check "
            "answers against"
        )
    backward = False
    if (loaded.dO is not None or loaded.target is not None) and answers is not None:
        named = set(answers.steps) if isinstance(answers, Answers) else step_ids_of(answers)
        gradients = {s.id for s in backward_plan(loaded).specs}
        backward = any(step_named(n, sorted(gradients)) for n in named)  # dq: dQ
    return derivation(loaded, backward=backward)


def check(
    problem: Problem | Derivation | str | os.PathLike[str] | Mapping[str, Any],
    answers: str | os.PathLike[str] | Mapping[str, Any] | Answers,
    *,
    tolerance: float | str | Decimal | None = None,
    places: int | None = None,
    source: str | None = None,
) -> CheckResult:
    """Check a hand calculation against the exact key.

    ``problem`` may be an already derived key (a :class:`Derivation`), which is how a
    whole class is graded with the key computed once.  ``places`` (else the more of
    ``places`` in the problem file and ``places`` in the answers file) is the number of
    decimal places every inexact answer must have.
    """
    key = problem if isinstance(problem, Derivation) else key_for(problem, answers)
    if key.problem.symbolic:
        raise SymattnError(
            f"{key.problem.source}: the problem has symbols, so there are no numbers to check "
            "answers against"
        )
    loaded = (
        answers
        if isinstance(answers, Answers)
        else load_answers(answers, answer_steps(key), key, source)
    )
    if tolerance is not None:
        loaded = dataclasses.replace(loaded, tolerance=_tolerance(tolerance))
    required = read_places(places) if places is not None else _required(key, loaded)
    return CheckResult(loaded.source, Marker(key, loaded, required).run(), key, required)
