"""The results of checking a hand calculation: per entry, per step, for the whole answer.

A step's status, the verdict and the exit status are all read from the entries' own
statuses, so they can never disagree with them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..derivation import Derivation, named
from ..words import words

__all__ = ["STATUSES", "CheckResult", "Diagnosis", "EntryResult", "StepResult", "set_presenter"]

#: How a result shows itself in a notebook: installed by :mod:`.feedback_html`, the
#: feedback page's own fragment, so that this module never imports its renderer.
_PRESENTER: list[Callable[[CheckResult], str]] = []


def set_presenter(fragment: Callable[[CheckResult], str]) -> None:
    """Install the HTML fragment behind :meth:`CheckResult._repr_html_`."""
    _PRESENTER[:] = [fragment]


#: What an answered entry can be.
STATUSES = ("ok", "wrong", "too_coarse", "invalid", "carried")


@dataclass(frozen=True)
class EntryResult:
    index: tuple[int, int]  # 1-based
    given: str
    expected: str  # the key's decimal (4 places, or as many as the student wrote)
    exact: str  # the key's exact value (SymPy str form)
    status: str  # one of STATUSES
    message: str | None = None  # why, in English (an unreadable entry, an exact answer …)
    message_zh: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class Diagnosis:
    id: str
    message: str  # English
    message_zh: str
    entries: tuple[tuple[int, int], ...] = ()  # 1-based: the entries it explains

    @property
    def entry(self) -> tuple[int, int] | None:
        return self.entries[0] if self.entries else None


@dataclass
class StepResult:
    id: str
    entries: list[EntryResult]
    answered: int = 0  # entries given (readable or not)
    total: int = 0  # entries of the step
    diagnosis: list[Diagnosis] = field(default_factory=list)
    note: str | None = None  # English
    note_zh: str | None = None
    error: str | None = None  # the step could not be read as a matrix of its shape
    error_zh: str | None = None

    @property
    def status(self) -> str:
        """``correct``, ``partial`` (right, entries missing), ``incorrect`` or ``missing``."""
        if self.error is not None:
            return "incorrect"
        if not self.entries:
            return "missing"
        if any(not e.ok for e in self.entries):
            return "incorrect"
        return "correct" if self.answered == self.total else "partial"

    @property
    def carried_forward(self) -> bool:
        """Wrong against the key, but right from the student's own earlier answers."""
        wrong = [e for e in self.entries if not e.ok]
        return bool(wrong) and all(e.status == "carried" for e in wrong)

    @property
    def right(self) -> int:
        return sum(e.ok for e in self.entries)


@dataclass
class CheckResult:
    source: str
    steps: list[StepResult]
    derivation: Derivation
    places: int | None = None  # decimal places the answers had to have

    def __repr__(self) -> str:
        """One line: the answers, the problem, the verdict and the count of entries."""
        first = f", first error {self.first_error}" if self.first_error else ""
        return (
            f"<CheckResult of {os.path.basename(self.source) or self.source} against "
            f"{named(self.derivation.problem)}: {self.verdict}{first}; {self.right} of "
            f"{self.answered} entries right in {len(self.steps)} steps>"
        )

    def _repr_html_(self) -> str:
        """Jupyter shows the feedback: the HTML feedback page's own fragment."""
        return _PRESENTER[0](self)

    @property
    def verdict(self) -> str:
        return "incorrect" if self.first_error is not None else "correct"

    @property
    def first_error(self) -> str | None:
        return next((s.id for s in self.steps if s.status == "incorrect"), None)

    @property
    def exit_status(self) -> int:
        return 1 if self.first_error is not None else 0

    @property
    def right(self) -> int:
        return sum(s.right for s in self.steps)

    @property
    def answered(self) -> int:
        return sum(len(s.entries) for s in self.steps)

    def to_json(self, lang: str = "en", show_key: bool = True) -> dict[str, Any]:
        """The JSON object of docs/answers-format.md; messages in ``lang`` (both languages
        are kept too); ``show_key=False`` leaves out the expected values."""
        zh = lang == "zh"
        w = words(lang)

        def entry(e: EntryResult, step_id: str) -> dict[str, Any]:
            out: dict[str, Any] = {"index": list(e.index), "given": e.given}
            if show_key:
                out |= {"expected": e.expected, "exact": e.exact}
            out |= {"ok": e.ok, "status": e.status}
            if e.message:
                out |= {
                    "message": e.message_zh if zh else e.message,
                    "message_en": e.message,
                    "message_zh": e.message_zh,
                }
            if e.status == "invalid":  # the entry named as the answers file names it
                row, col = e.index
                message = (e.message_zh if zh else e.message) or ""
                out["error"] = w("entry.error", step=step_id, row=row, col=col, message=message)
            return out

        def step(s: StepResult) -> dict[str, Any]:
            out: dict[str, Any] = {
                "id": s.id,
                "status": s.status,
                "entries": [entry(e, s.id) for e in s.entries],
                "diagnosis": [
                    {
                        "id": d.id,
                        "message": d.message_zh if zh else d.message,
                        "message_en": d.message,
                        "message_zh": d.message_zh,
                        "entries": [list(x) for x in d.entries],
                    }
                    for d in s.diagnosis
                ],
                "carried_forward": s.carried_forward,
                "score": {"right": s.right, "answered": len(s.entries), "total": s.total},
            }
            if s.note:
                out["note"] = s.note_zh if zh else s.note
            if s.error:
                out["error"] = s.error_zh if zh else s.error
            return out

        return {
            "verdict": self.verdict,
            "first_error": self.first_error,
            "score": {"right": self.right, "answered": self.answered},
            "steps": [step(s) for s in self.steps],
        }
