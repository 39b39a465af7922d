"""Checking hand calculations: reading answers (:mod:`.answers`), the mistake models
(:mod:`.mistakes`), marking (:mod:`.marking`), feedback (:mod:`.feedback`) and a
whole class (:mod:`.grade`)."""

from __future__ import annotations

from . import feedback_html  # noqa: F401  (installs CheckResult's rich display)
from .answers import Answers, answer_steps, load_answers
from .mistakes import MISTAKES, Mistake
from .results import CheckResult, Diagnosis, EntryResult, StepResult
from .run import check, key_for

__all__ = [
    "MISTAKES",
    "Answers",
    "CheckResult",
    "Diagnosis",
    "EntryResult",
    "Mistake",
    "StepResult",
    "answer_steps",
    "check",
    "key_for",
    "load_answers",
]
