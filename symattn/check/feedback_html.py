"""Feedback on a checked hand calculation as one self-contained HTML page.

The page shows the verdict; then, for each answered step under its title, every entry
with what was given, what the key says and ✓ or ✗; the step's status, the error carried
forward, the diagnosis in the chosen language, and for the first wrong step the
derivation of its first wrong entry, written by the derivation's own walk.  It is the
document of :func:`.feedback.feedback_document` written by the HTML writer, with the
derivation page's shell, style sheet and MathML (:mod:`symattn.render.html`).

With ``show_key=False`` the page leaves out the key: no expected values, no derived
entry, and a slip is named without its right value.

Entries and steps carry ``data-step``, ``data-row``, ``data-col`` (1-based) and
``data-status``; each diagnosis ``data-diagnosis`` (its id), for tests and scripts.
"""

from __future__ import annotations

from ..render import html_fragment_of, render
from .feedback import feedback_document
from .results import CheckResult, set_presenter

__all__ = ["feedback_fragment", "render_feedback_html"]


def render_feedback_html(
    result: CheckResult,
    lang: str = "en",
    notation: str = "matrix",
    digits: int = 4,
    show_key: bool = True,
    score: tuple[str, str] | None = None,
) -> str:
    """The feedback page of one checked answers file, in ``lang``."""
    doc = feedback_document(result, lang, digits, show_key, score)
    return render(doc, "html", lang=lang, notation=notation, digits=digits)


def feedback_fragment(result: CheckResult, lang: str = "en", show_key: bool = True) -> str:
    """The feedback as a fragment of HTML (no page style sheet): what a notebook shows."""
    return html_fragment_of(feedback_document(result, lang, show_key=show_key))


set_presenter(feedback_fragment)
