"""The words the self-check page's script shows, in the page's language: the marks, the
notes and the tally, each a template whose ``{…}`` the script fills (the math a template
names is printed here, as plain text)."""

from __future__ import annotations

from ..words import Words

__all__ = ["script_words"]


def script_words(w: Words, places: int | None) -> dict[str, str]:
    """The page's words that the script shows (``{…}`` filled in by the script)."""
    marks = ("ok", "wrong", "too_coarse", "invalid", "carried")
    return {
        **{status: w(f"selfcheck.mark.{status}") for status in marks},
        "too_coarse_note": w("entry.too_coarse", places=places) if places else "",
        "invalid_note": w.template("selfcheck.invalid"),
        "exact_close_note": w.template("selfcheck.exact_close"),
        "entry_note": w.template("selfcheck.entry_note"),
        "carried_note": w.template("selfcheck.note.carried"),
        "rounded_note": w.template("selfcheck.note.rounded"),
        "tally": w.template("selfcheck.tally"),
        "total": w.template("selfcheck.total"),
    }
