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
from ..messages import Message, Voice, said_in, say
from ..record import Record
from ..render import text_voice
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


class EntryResult(Record):
    index: tuple[int, int]  # 1-based
    given: str
    expected: str  # the key's decimal (4 places, or as many as the student wrote)
    exact: str  # the key's exact value (SymPy str form)
    status: str  # one of STATUSES
    message: Message | None = None  # why (an unreadable entry, an exact answer …)

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class Diagnosis(Record):
    id: str
    message: Message  # what the mistake is, about which entries
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
    note: Message | None = None
    error: Message | None = None  # the step could not be read as a matrix of its shape

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
        entries = "entry" if self.answered == 1 else "entries"
        steps = "step" if len(self.steps) == 1 else "steps"
        return (
            f"<CheckResult of {os.path.basename(self.source) or self.source} against "
            f"{named(self.derivation.problem)}: {self.verdict}{first}; {self.right} of "
            f"{self.answered} {entries} right in {len(self.steps)} {steps}>"
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

    def to_json(
        self, lang: str = "en", show_key: bool = True, voice: Callable[[str], Voice] | None = None
    ) -> dict[str, Any]:
        """The JSON object of docs/answers-format.md; messages in ``lang`` (and in every
        language, as ``message_<lang>``); ``show_key=False`` leaves out the expected
        values.  ``voice`` gives the writer of each language (default: plain Unicode)."""
        voices = {name: (voice or _plain)(name) for name in ("en", "zh")}
        here = voices[lang] if lang in voices else (voice or _plain)(lang)

        def said(message: Message) -> dict[str, str]:
            return {
                "message": say(message, here),
                **{f"message_{name}": say(message, v) for name, v in voices.items()},
            }

        def entry(e: EntryResult, step_id: str) -> dict[str, Any]:
            out: dict[str, Any] = {"index": list(e.index), "given": e.given}
            if show_key:
                out |= {"expected": e.expected, "exact": e.exact}
            out |= {"ok": e.ok, "status": e.status}
            if e.message is not None:
                out |= said(e.message)
            if e.status == "invalid":  # the entry named as the answers file names it
                row, col = e.index
                message = said_in(e.message, here) or ""
                out["error"] = here.words(
                    "entry.error", step=step_id, row=row, col=col, message=message
                )
            return out

        def step(s: StepResult) -> dict[str, Any]:
            out: dict[str, Any] = {
                "id": s.id,
                "status": s.status,
                "entries": [entry(e, s.id) for e in s.entries],
                "diagnosis": [
                    {"id": d.id, **said(d.message), "entries": [list(x) for x in d.entries]}
                    for d in s.diagnosis
                ],
                "carried_forward": s.carried_forward,
                "score": {"right": s.right, "answered": len(s.entries), "total": s.total},
            }
            if s.note is not None:
                out["note"] = say(s.note, here)
            if s.error is not None:
                out["error"] = say(s.error, here)
            return out

        return {
            "verdict": self.verdict,
            "first_error": self.first_error,
            "score": {"right": self.right, "answered": self.answered},
            "steps": [step(s) for s in self.steps],
        }


def _plain(lang: str) -> Voice:
    return text_voice(words(lang))
