"""Feedback on a checked hand calculation as one self-contained HTML page.

The page shows the verdict; then, for each answered step under its title, every entry
with what was given, what the key says and ✓ or ✗; the step's status, the error carried
forward, the diagnosis in the chosen language, and for the first wrong step the
derivation of its first wrong entry, written by the derivation's own walk.  It shares
its shell, style sheet and MathML with the derivation page (:mod:`symattn.render.html`).

With ``show_key=False`` the page leaves out the key: no expected values, no derived
entry, and a slip is named without its right value.

Entries and steps carry ``data-step``, ``data-row``, ``data-col`` (1-based) and
``data-status``; each diagnosis ``data-diagnosis`` (its id), for tests and scripts.
"""

from __future__ import annotations

from ..formula import Line, Name, Sub, Sym
from ..messages import Entries, Message, say
from ..printing import Notation
from ..render import (
    Display,
    RenderOptions,
    TexPrinter,
    display_html,
    esc,
    fragment,
    html_voice,
    inline_html,
    page,
    step_blocks,
    title_of,
)
from ..words import Words, words
from .feedback import entry_messages, score_line
from .results import CheckResult, Diagnosis, StepResult, set_presenter

__all__ = ["feedback_fragment", "render_feedback_html"]

#: The mark of an entry by its status.
MARKS = {"ok": "✓", "wrong": "✗", "too_coarse": "✗", "invalid": "?", "carried": "↪"}


def _step_title(result: CheckResult, step_id: str, w: Words) -> str:
    return title_of(result.derivation.step(step_id), w)


def _first_wrong(step: StepResult) -> tuple[int, int] | None:
    for e in step.entries:
        if not e.ok and e.status != "invalid":
            return e.index[0] - 1, e.index[1] - 1
    return None


def _derived(
    result: CheckResult, step_id: str, i: int, j: int, w: Words, printer: TexPrinter
) -> str:
    """The key's own lines for entry (i, j), as the derivation writes them (with the sum
    Σᵢ that a softmax line names)."""
    wanted = (Name(step_id, i, j), Sub(Sym("Sigma"), str(i + 1)))
    lines: list[Line] = []
    for block in step_blocks(
        result.derivation, step_id, i, RenderOptions(lang=w.lang, digits=printer.digits)
    ):
        if isinstance(block, Display):
            lines += [line for line in block.lines if line.lhs in wanted]
    if not lines:
        return ""
    return f"<p>{esc(w('feedback.derivation'))}</p>" + display_html(Display(tuple(lines)), printer)


def _message(d: Diagnosis, step: StepResult, show_key: bool) -> Message:
    """The diagnosis, without the right values when the key is hidden."""
    if d.id == "arithmetic_slip" and not show_key:  # its sentence names the right values
        cells = tuple((e.index[0] - 1, e.index[1] - 1) for e in step.entries if not e.ok)
        return Message.of("feedback.slip_hidden", entries=Entries(step.id, cells))
    return d.message


def _entries(step: StepResult, w: Words, printer: TexPrinter, show_key: bool) -> str:
    heads = [w("feedback.entry"), w("feedback.given")]
    if show_key:
        heads.append(w("feedback.expected"))
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in heads)
    rows = []
    for e in step.entries:
        i, j = e.index
        status = e.status
        name = inline_html(printer.notation.entry(step.id, i - 1, j - 1))
        expected = f"<td>{esc(e.expected)}</td>" if show_key else ""
        css = "ok" if status == "ok" else "bad"
        label = esc(w(f"html.mark.{status}"))
        shown = esc(w(f"feedback.label.{status}"))
        said = f" {shown}" if shown else f'<span class="vh"> {label}</span>'
        rows.append(
            f'<tr data-step="{esc(step.id)}" data-row="{i}" data-col="{j}" '
            f'data-status="{esc(status)}"><td>{name}</td><td>{esc(e.given)}</td>{expected}'
            f'<td class="{css}" title="{label}">{MARKS.get(status, "·")}'
            f"{said}</td></tr>"
        )
    return (
        f'<div class="scroll"><table class="entries"><thead><tr>{head}<td></td></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _step(
    result: CheckResult, step: StepResult, w: Words, printer: TexPrinter, show_key: bool
) -> str:
    first = step.id == result.first_error
    good = step.status in ("correct", "partial")
    mark = "✓" if good else ("✗" if step.entries else "·")
    status_key = f"feedback.{step.status}"
    status = w(status_key) if w.has(status_key) else step.status
    badge = f'<span class="badge {"ok" if good else "bad"}">{mark} {esc(status)}</span>'
    flag = f' <span class="bad">{esc(w("html.first_error"))}</span>' if first else ""
    out = [
        f'<section id="check-{esc(step.id)}" class="step{" first" if first else ""}" '
        f'data-step="{esc(step.id)}" data-status="{esc(step.status)}">',
        f"<h2>{esc(_step_title(result, step.id, w))} {badge}{flag}</h2>",
    ]
    voice = html_voice(w)
    if step.error is not None:
        out.append(f"<p>{say(step.error, voice)}</p>")
    if step.carried_forward:
        out.append(f'<p class="muted">{esc(w("feedback.carried"))}</p>')
    if step.entries:
        out.append(_entries(step, w, printer, show_key))
    for said in entry_messages(step):
        out.append(f"<p>{say(said, voice)}</p>")
    if step.note is not None:
        out.append(f"<p>{esc(w('feedback.note'))} {say(step.note, voice)}</p>")
    for d in step.diagnosis:
        message = say(_message(d, step, show_key), voice)
        out.append(
            f'<div class="diagnosis" data-diagnosis="{esc(d.id)}"><strong>'
            f"{esc(w('mistake.' + d.id))}</strong> — {message}</div>"
        )
    wrong = _first_wrong(step)
    if first and wrong is not None and show_key:
        out.append(_derived(result, step.id, *wrong, w, printer))
    out.append("</section>")
    return "\n".join(out)


def render_feedback_html(
    result: CheckResult,
    lang: str = "en",
    notation: str = "matrix",
    digits: int = 4,
    show_key: bool = True,
    score: tuple[str, str] | None = None,
) -> str:
    """The feedback page of one checked answers file, in ``lang``."""
    w = words(lang)
    body = _body(result, w, notation, digits, show_key, score)
    return page(w("feedback.sheet"), body, lang)


def feedback_fragment(result: CheckResult, lang: str = "en", show_key: bool = True) -> str:
    """The feedback as a fragment of HTML (no page style sheet): what a notebook shows."""
    w = words(lang)
    return fragment(w("feedback.sheet"), _body(result, w, "matrix", 4, show_key, None), lang)


set_presenter(feedback_fragment)


def _body(
    result: CheckResult,
    w: Words,
    notation: str,
    digits: int,
    show_key: bool,
    score: tuple[str, str] | None,
) -> str:
    printer = TexPrinter(Notation.build(notation, result.derivation.problem.renames), digits)
    if result.first_error is None:
        verdict = w("feedback.verdict_correct")
    else:
        verdict = w("feedback.verdict_incorrect", step=_step_title(result, result.first_error, w))
    body = [
        f'<p class="sub">{esc(w("feedback.title", source=result.source))}</p>',
        f'<p class="score" data-right="{result.right}" data-answered="{result.answered}">'
        f"{esc(score_line(result, w, score))}</p>",
        f'<p class="verdict {"ok" if result.first_error is None else "bad"}" '
        f'data-verdict="{esc(result.verdict)}">{esc(verdict)}</p>',
        "<main>",
        *(_step(result, step, w, printer, show_key) for step in result.steps),
        "</main>",
    ]
    return "\n".join(body)
