"""Feedback on a checked hand calculation: a terminal table, a LaTeX sheet and the same
sheet as a Word document.

Both are written entirely in the chosen language: the score, the verdict, each step by
its title with every answered entry marked (✓, ✗, too few places, unreadable, right
from the student's own numbers), the diagnosis and the notes, and the derivation of the
first wrong entry (written by the derivation's own walk, so it reads as in ``symattn
derive``).  :func:`feedback_document` makes one :class:`~symattn.render.Document` of it
(a verdict and the checked steps); every format is that document written by
:func:`symattn.render.render`, the HTML page included (:mod:`.feedback_html`).
``show_key=False`` hides the expected values and that derivation, keeping
the marks, the diagnosis and the hints.
"""

from __future__ import annotations

from ..formula import Name, Sub, Sym
from ..messages import Entries, Message
from ..render import (
    AnswerBox,
    Block,
    CheckedStep,
    Diagnoses,
    DiagnosisItem,
    Display,
    Document,
    EntryList,
    EntryRow,
    Remark,
    RenderOptions,
    Verdict,
    docx_from,
    render,
    step_blocks,
    title_of,
)
from ..words import Words, words
from .mistakes import mistake_name
from .naming import Naming
from .results import CheckResult, Diagnosis, StepResult

__all__ = [
    "entry_messages",
    "feedback_document",
    "render_feedback_docx",
    "render_feedback_latex",
    "render_feedback_text",
    "score_line",
    "step_feedback_lines",
]


def _first_wrong(step: StepResult) -> tuple[int, int] | None:
    for e in step.entries:
        if not e.ok and e.status != "invalid":
            return e.index[0] - 1, e.index[1] - 1
    return None


def score_line(result: CheckResult, language: Words, score: tuple[str, str] | None = None) -> str:
    """How many answered entries are right; with ``score`` (points earned, points
    possible, as a grade gives them) the points first."""
    answered = result.answered
    percent = round(100 * result.right / answered) if answered else 0
    line = language("feedback.score", right=result.right, answered=answered, percent=percent)
    if score is not None:
        line = language("feedback.points", score=score[0], max=score[1]) + " " + line
    return line


def _verdict(result: CheckResult, language: Words) -> str:
    if result.first_error is None:
        return language("feedback.verdict_correct")
    step = title_of(result.derivation.step(result.first_error), language)
    return language("feedback.verdict_incorrect", step=step)


def entry_messages(step: StepResult) -> list[Message]:
    """What is said of single entries, each message once with the entries it is about."""
    said: dict[Message, list[tuple[int, int]]] = {}
    for e in step.entries:
        if e.message is not None:
            said.setdefault(e.message, []).append((e.index[0] - 1, e.index[1] - 1))
    return [
        Message.of("feedback.entry_message", names=Entries(step.id, tuple(cells)), message=m)
        for m, cells in said.items()
    ]


def feedback_document(
    result: CheckResult,
    lang: str = "en",
    digits: int = 4,
    show_key: bool = True,
    score: tuple[str, str] | None = None,
) -> Document:
    """The feedback on one checked answers file as a document, in ``lang``: the verdict,
    then every step with its entries marked, what went wrong and, under the first wrong
    step, the key's working of its first wrong entry (left out with ``show_key=False``,
    as are the expected values)."""
    w = words(lang)
    verdict = Verdict(
        result.source,
        score_line(result, w, score),
        _verdict(result, w),
        result.first_error is None,
        result.verdict,
        result.right,
        result.answered,
    )
    steps = tuple(_checked_step(result, step, w, digits, show_key) for step in result.steps)
    return Document(
        w("feedback.sheet"),
        (verdict, *steps),
        subtitle=w("feedback.title", source=result.source),
        lang=lang,
        renames=result.derivation.problem.renames,
        kind="feedback",
    )


def _checked_step(
    result: CheckResult, step: StepResult, w: Words, digits: int, show_key: bool
) -> CheckedStep[Block]:
    blocks: list[Remark | EntryList | Diagnoses | AnswerBox[Block]] = []
    if step.error is not None:
        blocks.append(Remark(step.error))
    if step.carried_forward:
        blocks.append(Remark(words=w("feedback.carried"), muted=True))
    if step.entries:
        heads: tuple[str, ...] = (w("feedback.entry"), w("feedback.given"))
        heads += (w("feedback.expected"),) if show_key else ()
        rows = tuple(
            EntryRow(
                *e.index,
                e.given,
                e.expected if show_key else None,
                e.status,
                w(f"feedback.label.{e.status}"),
                w(f"html.mark.{e.status}"),
            )
            for e in step.entries
        )
        blocks.append(EntryList(step.id, heads, rows))
    blocks += [Remark(said) for said in entry_messages(step)]
    if step.note is not None:
        blocks.append(Remark(step.note, prefix=w("feedback.note")))
    if step.diagnosis:
        variant = Naming(result.derivation.problem.layout).variant
        items = tuple(
            DiagnosisItem(
                d.id,
                mistake_name(w, d.id, variant),
                w("mistake." + d.id),
                d.message,
                _page_message(d, step, show_key),
            )
            for d in step.diagnosis
        )
        blocks.append(Diagnoses(w("feedback.diagnosis"), items))
    first = step.id == result.first_error
    wrong = _first_wrong(step)
    if first and wrong is not None and show_key:
        blocks.append(_answer_box(result, step.id, *wrong, digits, w))
    key = f"feedback.{step.status}"
    return CheckedStep(
        step.id,
        title_of(result.derivation.step(step.id), w),
        step.status,
        w(key) if w.has(key) else step.status,
        step.status in ("correct", "partial"),
        bool(step.entries),
        step.error is not None,
        first,
        w("feedback.first"),
        w("html.first_error"),
        tuple(blocks),
    )


def _page_message(d: Diagnosis, step: StepResult, show_key: bool) -> Message:
    """The diagnosis as the page says it: without the right values when the key is
    hidden (a slip's sentence names them)."""
    if d.id == "arithmetic_slip" and not show_key:
        cells = tuple((e.index[0] - 1, e.index[1] - 1) for e in step.entries if not e.ok)
        return Message.of("feedback.slip_hidden", entries=Entries(step.id, cells))
    return d.message


def _answer_box(
    result: CheckResult, step_id: str, i: int, j: int, digits: int, w: Words
) -> AnswerBox[Block]:
    """The key's working of entry (i, j): the derived row of its step, and its own lines
    (after the sum Σᵢ that a softmax line names)."""
    wanted = (Name(step_id, i, j), Sub(Sym("Sigma"), str(i + 1)))
    derived = step_blocks(result.derivation, step_id, i, RenderOptions(lang=w.lang, digits=digits))
    lines = tuple(
        line
        for block in derived
        if isinstance(block, Display)
        for line in block.lines
        if line.lhs in wanted
    )
    return AnswerBox(w("feedback.derivation"), lines, tuple(derived))


def render_feedback_text(
    result: CheckResult, lang: str = "en", digits: int = 4, show_key: bool = True
) -> str:
    doc = feedback_document(result, lang, digits, show_key)
    return render(doc, "text", lang=lang, digits=digits)


def step_feedback_lines(
    result: CheckResult, step: StepResult, w: Words, digits: int = 4, show_key: bool = True
) -> list[str]:
    """One step of the text feedback: its title and status, its entries with ✓ or ✗, what
    went wrong and, under the first wrong step, that entry worked out."""
    block = _checked_step(result, step, w, digits, show_key)
    doc = Document("", (block,), lang=w.lang, kind="feedback")
    return render(doc, "text", lang=w.lang, digits=digits).split("\n")[1:-1]


def render_feedback_latex(
    result: CheckResult,
    lang: str = "en",
    notation: str = "matrix",
    digits: int = 4,
    show_key: bool = True,
    score: tuple[str, str] | None = None,
) -> str:
    """A feedback sheet a teacher can hand back: a standalone document (with the points
    when ``score`` is given)."""
    doc = feedback_document(result, lang, digits, show_key, score)
    return render(doc, "tex", lang=lang, notation=notation, digits=digits)


def render_feedback_docx(
    result: CheckResult,
    lang: str = "en",
    notation: str = "matrix",
    digits: int = 4,
    show_key: bool = True,
    score: tuple[str, str] | None = None,
) -> bytes:
    """The feedback sheet as a Word document: the LaTeX sheet converted by pandoc, so the
    formulas are native Word equations and the step titles Word headings."""
    sheet = render_feedback_latex(result, lang, notation, digits, show_key, score)
    return docx_from(sheet, "latex", lang, words(lang)("feedback.sheet"))
