"""English words of the cross-check verdicts, the grading notes and the answers file's
entry errors (docs/derive.md, docs/classroom.md, docs/answers-format.md)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    "derive.within_float64": "passed within float64's error",
    "grade.feedback_failed": "feedback sheet not made: {why}",
    "entry.error": "{step}[{row},{col}]: {message}",
    "grade.why.not_answers": "not an answers file (.json, .toml or .csv)",
}
