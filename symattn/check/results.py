"""The results of checking a hand calculation: per entry, per step, for the whole answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..derivation import Derivation

__all__ = ["CheckResult", "Diagnosis", "EntryResult", "StepResult"]


@dataclass(frozen=True)
class EntryResult:
    index: tuple[int, int]  # 1-based
    given: str
    expected: str  # the key's decimal (4 places, or as many as the student wrote)
    exact: str  # the key's exact value (SymPy str form)
    ok: bool


@dataclass(frozen=True)
class Diagnosis:
    id: str
    message: str  # English
    message_zh: str
    entry: tuple[int, int] | None = None  # 1-based, when one entry is meant


@dataclass
class StepResult:
    id: str
    status: str  # correct | incorrect | partial | missing
    entries: list[EntryResult]
    diagnosis: list[Diagnosis] = field(default_factory=list)
    carried_forward: bool = False
    note: str | None = None


@dataclass
class CheckResult:
    source: str
    steps: list[StepResult]
    derivation: Derivation

    @property
    def verdict(self) -> str:
        return "incorrect" if self.first_error is not None else "correct"

    @property
    def first_error(self) -> str | None:
        return next((s.id for s in self.steps if s.status == "incorrect"), None)

    @property
    def exit_status(self) -> int:
        return 1 if self.first_error is not None else 0

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The JSON object of docs/answers-format.md; each diagnosis ``message`` is in
        ``lang`` (both languages are kept too)."""
        return {
            "verdict": self.verdict,
            "first_error": self.first_error,
            "steps": [
                {
                    "id": s.id,
                    "status": s.status,
                    "entries": [
                        {
                            "index": list(e.index),
                            "given": e.given,
                            "expected": e.expected,
                            "exact": e.exact,
                            "ok": e.ok,
                        }
                        for e in s.entries
                    ],
                    "diagnosis": [
                        {
                            "id": d.id,
                            "message": d.message_zh if lang == "zh" else d.message,
                            "message_en": d.message,
                            "message_zh": d.message_zh,
                        }
                        | ({"entry": list(d.entry)} if d.entry else {})
                        for d in s.diagnosis
                    ],
                    "carried_forward": s.carried_forward,
                }
                | ({"note": s.note} if s.note else {})
                for s in self.steps
            ],
        }


# -- reading answers ----------------------------------------------------------------------
