"""Feedback on a checked hand calculation: a terminal table, a LaTeX sheet and the same
sheet as a Word document.

Both are written entirely in the chosen language: the score, the verdict, each step by
its title with every answered entry marked (✓, ✗, too few places, unreadable, right
from the student's own numbers), the diagnosis and the notes, and the derivation of the
first wrong entry (written by the derivation's own walk, so it reads as in ``symattn
derive``).  ``show_key=False`` hides the expected values and that derivation, keeping
the marks, the diagnosis and the hints.
"""

from __future__ import annotations

from ..formula import Name, Sub, Sym
from ..messages import Entries, Message, say
from ..printing import Notation
from ..render import (
    Display,
    RenderOptions,
    Sentence,
    TexPrinter,
    UnicodeMath,
    display,
    docx_from,
    latex_document,
    latex_voice,
    line_text,
    sentence,
    step_blocks,
    text_escape,
    text_voice,
    title_of,
    width,
)
from ..words import Words, words
from .mistakes import mistake_name
from .naming import Naming, entry_name
from .results import CheckResult, StepResult

__all__ = [
    "entry_messages",
    "mark",
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


_SYMBOLS = {"ok": "✓", "wrong": "✗", "too_coarse": "✗", "invalid": "?", "carried": "↪"}
_LATEX_SYMBOLS = {
    "ok": "$\\checkmark$",
    "wrong": "$\\times$",
    "too_coarse": "$\\times$",
    "invalid": "?",
    "carried": "$\\hookrightarrow$",
}


def mark(status: str, language: Words, latex: bool = False) -> str:
    """An entry's mark: ✓ or ✗, and a word when it says more (too few places …)."""
    symbol = (_LATEX_SYMBOLS if latex else _SYMBOLS)[status]
    label = language(f"feedback.label.{status}")
    if latex:
        label = text_escape(label)
    return f"{symbol} {label}".rstrip()


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


def _derived_lines(
    result: CheckResult, step_id: str, i: int, j: int, digits: int, language: Words
) -> list[str]:
    """The key's own line for entry (i, j), as the derivation writes it (after the sum Σᵢ
    that a softmax line names)."""
    wanted = (Name(step_id, i, j), Sub(Sym("Sigma"), str(i + 1)))
    out: list[str] = []
    for block in step_blocks(
        result.derivation, step_id, i, RenderOptions(lang=language.lang, digits=digits)
    ):
        if isinstance(block, Display):
            for line in block.lines:
                if line.lhs in wanted:
                    out += line_text(line, UnicodeMath(digits), "      ")
    return out


def render_feedback_text(
    result: CheckResult, lang: str = "en", digits: int = 4, show_key: bool = True
) -> str:
    w = words(lang)
    out = [w("feedback.title", source=result.source), score_line(result, w), _verdict(result, w)]
    for step in result.steps:
        out.append("")
        out += step_feedback_lines(result, step, w, digits, show_key)
    return "\n".join(out) + "\n"


def step_feedback_lines(
    result: CheckResult, step: StepResult, w: Words, digits: int = 4, show_key: bool = True
) -> list[str]:
    """One step of the text feedback: its title and status, its entries with ✓ or ✗, what
    went wrong and, under the first wrong step, that entry worked out."""
    voice = text_voice(w, digits)
    first = step.id == result.first_error
    good = step.status in ("correct", "partial")
    symbol = "✓" if good else ("✗" if step.entries or step.error else "·")
    title = title_of(result.derivation.step(step.id), w)
    head = f"{'▶' if first else ' '} {title}  {symbol} {w('feedback.' + step.status)}"
    out = [head + (f"   {w('feedback.first')}" if first else "")]
    if step.error is not None:
        out.append(f"    {say(step.error, voice)}")
    if step.carried_forward:
        out.append(f"    {w('feedback.carried')}")
    header = (w("feedback.entry"), w("feedback.given")) + (
        (w("feedback.expected"),) if show_key else ()
    )
    rows = [(*header, "")] if step.entries else []  # no table for a step not read
    for e in step.entries:
        cells = (entry_name(step.id, e.index[0] - 1, e.index[1] - 1), e.given)
        rows.append((*cells, *((e.expected,) if show_key else ()), mark(e.status, w)))
    columns = len(header)
    widths = [max((width(r[k]) for r in rows), default=0) for k in range(columns)]
    for r in rows:
        padded = [r[k] + " " * (widths[k] - width(r[k])) for k in range(columns)]
        out.append("    " + "  ".join(padded) + f"  {r[-1]}".rstrip())
    for message in entry_messages(step):
        out.append("    " + say(message, voice))
    if step.note is not None:
        out.append(f"    {w('feedback.note')} {say(step.note, voice)}")
    if step.diagnosis:
        out.append(f"    {w('feedback.diagnosis')}")
        for d in step.diagnosis:
            name = mistake_name(w, d.id, Naming(result.derivation.problem.layout).variant)
            out.append(f"      • {name} — {say(d.message, voice)}")
    wrong = _first_wrong(step)
    if first and wrong is not None and show_key:
        out.append(f"    {w('feedback.derivation')}")
        out.extend(_derived_lines(result, step.id, *wrong, digits, w))
    return out


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
    w = words(lang)
    names = Notation.build(notation, result.derivation.problem.renames)
    printer = TexPrinter(names, digits)
    voice = latex_voice(w)
    body = [text_escape(score_line(result, w, score)), text_escape(_verdict(result, w))]
    for step in result.steps:
        first = step.id == result.first_error
        symbol = "\\checkmark" if step.status in ("correct", "partial") else "\\times"
        title = title_of(result.derivation.step(step.id), w)
        body.append(
            f"\\subsection*{{{text_escape(title)}: ${symbol}$ "
            f"{text_escape(w('feedback.' + step.status))}"
            + (f" {text_escape(w('feedback.first'))}" if first else "")
            + "}"
        )
        if step.error is not None:
            body.append(say(step.error, voice))
        if step.carried_forward:
            body.append(text_escape(w("feedback.carried")))
        if step.entries:
            head = [w("feedback.entry"), w("feedback.given")] + (
                [w("feedback.expected")] if show_key else []
            )
            spec = "c" * (len(head) + 1)
            body.append(f"\\begin{{tabular}}{{{spec}}}")
            body.append(" & ".join(text_escape(h) for h in head) + " & \\\\ \\hline")
            for e in step.entries:
                i, j = e.index[0] - 1, e.index[1] - 1
                cells = [f"${names.entry(step.id, i, j)}$", text_escape(e.given)]
                cells += [text_escape(e.expected)] if show_key else []
                cells.append(mark(e.status, w, latex=True))
                body.append(" & ".join(cells) + " \\\\")
            body.append("\\end{tabular}")
            for said in entry_messages(step):
                body.append(say(said, voice))
        if step.note is not None:
            body.append(f"{text_escape(w('feedback.note'))} {say(step.note, voice)}")
        if step.diagnosis:
            body.append(text_escape(w("feedback.diagnosis")))
            body.append("\\begin{itemize}")
            for d in step.diagnosis:
                message = say(d.message, voice)
                variant = Naming(result.derivation.problem.layout).variant
                name = text_escape(mistake_name(w, d.id, variant))
                body.append(f"\\item \\textbf{{{name}}}: {message}")
            body.append("\\end{itemize}")
        wrong = _first_wrong(step)
        if first and wrong is not None and show_key:
            body.append(text_escape(w("feedback.derivation")))
            for block in step_blocks(
                result.derivation, step.id, wrong[0], RenderOptions(lang=w.lang, digits=digits)
            ):
                if isinstance(block, Display):
                    body.append(display(block, printer))
                elif isinstance(block, Sentence):
                    body.append(sentence(block, printer))
        body.append("")
    return latex_document(
        w("feedback.sheet"),
        "\n\n".join(body),
        packages=("amsmath", "amssymb"),
        after_title=(f"\\noindent {text_escape(result.source)}",),
    )


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
