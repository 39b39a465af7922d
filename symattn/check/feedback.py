"""Feedback on a checked hand calculation: a terminal table and a LaTeX sheet.

Both show, per step, every answered entry with ✓ or ✗, the first wrong step marked,
the diagnosis in the chosen language, and the derivation of the first wrong entry
(written by the derivation's own walk, so it reads as in ``symattn derive``).
"""

from __future__ import annotations

from ..printing import Notation
from ..render.blocks import Display, Sentence
from ..render.kinds import step_blocks
from ..render.latex import display, latex_message, sentence
from ..render.math import Name, Sub, Sym
from ..render.tex import TexPrinter, text_escape
from ..render.tex_document import document
from ..render.text import line_text, width
from ..render.unicode_math import UnicodeMath
from ..words import words
from .marking import entry_name
from .results import CheckResult, StepResult

__all__ = ["render_feedback_latex", "render_feedback_text"]


def _first_wrong(step: StepResult) -> tuple[int, int] | None:
    for e in step.entries:
        if not e.ok:
            return e.index[0] - 1, e.index[1] - 1
    return None


def _derived_line(
    result: CheckResult, step_id: str, i: int, j: int, digits: int, lang: str
) -> list[str]:
    """The key's own line for entry (i, j), as the derivation writes it (after the sum Σᵢ
    that a softmax line names)."""
    wanted = (Name(step_id, i, j), Sub(Sym("Sigma"), str(i + 1)))
    out: list[str] = []
    for block in step_blocks(result.derivation, step_id, i, words(lang), digits):
        if isinstance(block, Display):
            for line in block.lines:
                if line.lhs in wanted:
                    out += line_text(line, UnicodeMath(digits), "      ")
    return out


def render_feedback_text(result: CheckResult, lang: str = "en", digits: int = 4) -> str:
    w = words(lang)
    out = [w("feedback.title", source=result.source)]
    if result.first_error is None:
        out.append(w("feedback.verdict_correct"))
    else:
        out.append(w("feedback.verdict_incorrect", step=result.first_error))
    for step in result.steps:
        out.append("")
        mark = "✓" if step.status in ("correct", "partial") else ("✗" if step.entries else "·")
        first = step.id == result.first_error
        head = f"{'▶' if first else ' '} {step.id}  {mark} {w('feedback.' + step.status)}"
        out.append(head + (f"   {w('feedback.first')}" if first else ""))
        if step.carried_forward:
            out.append(f"    {w('feedback.carried')}")
        rows = [(w("feedback.entry"), w("feedback.given"), w("feedback.expected"), "")]
        for e in step.entries:
            name = entry_name(step.id, e.index[0] - 1, e.index[1] - 1)
            rows.append((name, e.given, e.expected, "✓" if e.ok else "✗"))
        widths = [max(width(r[k]) for r in rows) for k in range(3)]
        for r in rows:
            cells = [r[k] + " " * (widths[k] - width(r[k])) for k in range(3)]
            out.append("    " + "  ".join(cells) + f"  {r[3]}".rstrip())
        if step.note:
            out.append(f"    {w('feedback.note')} {step.note}")
        if step.diagnosis:
            out.append(f"    {w('feedback.diagnosis')}")
            for d in step.diagnosis:
                message = d.message_zh if lang == "zh" else d.message
                out.append(f"      • {d.id}: {message}")
        wrong = _first_wrong(step)
        if first and wrong is not None:
            out.append(f"    {w('feedback.derivation')}")
            out.extend(_derived_line(result, step.id, *wrong, digits, lang))
    return "\n".join(out) + "\n"


def render_feedback_latex(
    result: CheckResult, lang: str = "en", notation: str = "matrix", digits: int = 4
) -> str:
    """A feedback sheet a teacher can hand back: a standalone document."""
    w = words(lang)
    names = Notation.build(notation, result.derivation.problem.renames)
    printer = TexPrinter(names, digits)
    body: list[str] = []
    if result.first_error is None:
        body.append(text_escape(w("feedback.verdict_correct")))
    else:
        body.append(text_escape(w("feedback.verdict_incorrect", step=result.first_error)))
    for step in result.steps:
        first = step.id == result.first_error
        mark = "\\checkmark" if step.status in ("correct", "partial") else "\\times"
        body.append(
            f"\\subsection*{{{text_escape(step.id)}: ${mark}$ "
            f"{text_escape(w('feedback.' + step.status))}"
            + (f" {text_escape(w('feedback.first'))}" if first else "")
            + "}"
        )
        if step.carried_forward:
            body.append(text_escape(w("feedback.carried")))
        if step.entries:
            body.append("\\begin{tabular}{cccc}")
            body.append(
                f"{text_escape(w('feedback.entry'))} & {text_escape(w('feedback.given'))} & "
                f"{text_escape(w('feedback.expected'))} & \\\\ \\hline"
            )
            for e in step.entries:
                i, j = e.index[0] - 1, e.index[1] - 1
                ok = "$\\checkmark$" if e.ok else "$\\times$"
                body.append(
                    f"${names.entry(step.id, i, j)}$ & {text_escape(e.given)} & "
                    f"{text_escape(e.expected)} & {ok} \\\\"
                )
            body.append("\\end{tabular}")
        if step.note:
            body.append(text_escape(f"{w('feedback.note')} {step.note}"))
        if step.diagnosis:
            body.append(text_escape(w("feedback.diagnosis")))
            body.append("\\begin{itemize}")
            for d in step.diagnosis:
                message = d.message_zh if lang == "zh" else d.message
                body.append(f"\\item \\texttt{{{text_escape(d.id)}}}: {latex_message(message)}")
            body.append("\\end{itemize}")
        wrong = _first_wrong(step)
        if first and wrong is not None:
            body.append(text_escape(w("feedback.derivation")))
            for block in step_blocks(result.derivation, step.id, wrong[0], w, digits):
                if isinstance(block, Display):
                    body.append(display(block, printer))
                elif isinstance(block, Sentence):
                    body.append(sentence(block, printer))
        body.append("")
    return document(
        w("feedback.sheet"),
        "\n\n".join(body),
        packages=("amsmath", "amssymb"),
        after_title=(f"\\noindent {text_escape(result.source)}",),
    )
