"""Feedback on a checked hand calculation: a terminal table and a LaTeX sheet.

Both show, per step, every answered entry with ✓ or ✗, the first wrong step marked,
the diagnosis in the chosen language, and the derivation of the first wrong entry
(written by the derivation renderers, so it reads as in ``symattn derive``).
"""

from __future__ import annotations

from ..check import CheckResult, StepResult, entry_name
from ..notation import Notation, words
from .blocks import Display, Sentence, latex_message, step_blocks, text_escape
from .latex import _display, _sentence, needs_xelatex
from .text import entry_line, width

__all__ = ["render_feedback_latex", "render_feedback_text"]

_WORDS = {
    "en": {
        "title": "Checking {source}",
        "verdict_correct": "Verdict: correct. Every answered entry is right.",
        "verdict_incorrect": "Verdict: incorrect. The first wrong step is {step}.",
        "correct": "correct", "incorrect": "incorrect", "partial": "partial (entries missing)",
        "missing": "not answered", "first": "← first error",
        "carried": "error carried forward: right when computed from your own earlier answers",
        "diagnosis": "Diagnosis:", "derivation": "The first wrong entry, derived:",
        "entry": "entry", "given": "given", "expected": "expected", "note": "Note:",
        "sheet": "Feedback on your attention calculation",
    },
    "zh": {
        "title": "检查 {source}",
        "verdict_correct": "结论：正确。所有作答的分量都对。",
        "verdict_incorrect": "结论：有错误。第一个出错的步骤是 {step}。",
        "correct": "正确", "incorrect": "错误", "partial": "部分作答", "missing": "未作答",
        "first": "← 第一个错误",
        "carried": "错误来自前面的步骤：用你自己前面的答案计算，这一步的方法是对的",
        "diagnosis": "诊断：", "derivation": "第一个出错分量的推导：",
        "entry": "分量", "given": "你的答案", "expected": "正确答案", "note": "说明：",
        "sheet": "注意力计算作业反馈",
    },
}  # fmt: skip


def _first_wrong(step: StepResult) -> tuple[int, int] | None:
    for e in step.entries:
        if not e.ok:
            return e.index[0] - 1, e.index[1] - 1
    return None


def render_feedback_text(result: CheckResult, lang: str = "en", digits: int = 4) -> str:
    w = _WORDS[words(lang).lang]
    out = [w["title"].format(source=result.source)]
    if result.first_error is None:
        out.append(w["verdict_correct"])
    else:
        out.append(w["verdict_incorrect"].format(step=result.first_error))
    for step in result.steps:
        out.append("")
        mark = "✓" if step.status in ("correct", "partial") else ("✗" if step.entries else "·")
        first = step.id == result.first_error
        head = f"{'▶' if first else ' '} {step.id}  {mark} {w[step.status]}"
        out.append(head + (f"   {w['first']}" if first else ""))
        if step.carried_forward:
            out.append(f"    {w['carried']}")
        rows = [(w["entry"], w["given"], w["expected"], "")]
        for e in step.entries:
            name = entry_name(step.id, e.index[0] - 1, e.index[1] - 1)
            rows.append((name, e.given, e.expected, "✓" if e.ok else "✗"))
        widths = [max(width(r[k]) for r in rows) for k in range(3)]
        for r in rows:
            cells = [r[k] + " " * (widths[k] - width(r[k])) for k in range(3)]
            out.append("    " + "  ".join(cells) + f"  {r[3]}".rstrip())
        if step.note:
            out.append(f"    {w['note']} {step.note}")
        if step.diagnosis:
            out.append(f"    {w['diagnosis']}")
            for d in step.diagnosis:
                message = d.message_zh if lang == "zh" else d.message
                out.append(f"      • {d.id}: {message}")
        wrong = _first_wrong(step)
        if first and wrong is not None:
            key = result.derivation
            key_step = key.step(step.id)
            line = entry_line(key, key.entry(step.id, *wrong), key_step, digits)
            out.append(f"    {w['derivation']}")
            out.append(f"      {line}")
    return "\n".join(out) + "\n"


def render_feedback_latex(
    result: CheckResult, lang: str = "en", notation: str = "matrix", digits: int = 4
) -> str:
    """A feedback sheet a teacher can hand back: a standalone document."""
    w, language = _WORDS[words(lang).lang], words(lang)
    names = Notation.build(notation, result.derivation.problem.notation)
    body: list[str] = []
    if result.first_error is None:
        body.append(text_escape(w["verdict_correct"]))
    else:
        body.append(text_escape(w["verdict_incorrect"].format(step=result.first_error)))
    for step in result.steps:
        first = step.id == result.first_error
        mark = "\\checkmark" if step.status in ("correct", "partial") else "\\times"
        body.append(
            f"\\subsection*{{{text_escape(step.id)}: ${mark}$ {text_escape(w[step.status])}"
            + (f" {text_escape(w['first'])}" if first else "")
            + "}"
        )
        if step.carried_forward:
            body.append(text_escape(w["carried"]))
        if step.entries:
            body.append("\\begin{tabular}{cccc}")
            body.append(
                f"{text_escape(w['entry'])} & {text_escape(w['given'])} & "
                f"{text_escape(w['expected'])} & \\\\ \\hline"
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
            body.append(text_escape(f"{w['note']} {step.note}"))
        if step.diagnosis:
            body.append(text_escape(w["diagnosis"]))
            body.append("\\begin{itemize}")
            for d in step.diagnosis:
                message = d.message_zh if lang == "zh" else d.message
                body.append(f"\\item \\texttt{{{text_escape(d.id)}}}: {latex_message(message)}")
            body.append("\\end{itemize}")
        wrong = _first_wrong(step)
        if first and wrong is not None:
            body.append(text_escape(w["derivation"]))
            for block in step_blocks(result.derivation, step.id, wrong[0], names, language, digits):
                if isinstance(block, Display):
                    body.append(_display(block))
                elif isinstance(block, Sentence):
                    body.append(_sentence(block))
        body.append("")
    text = "\n\n".join(body)
    title = w["sheet"]
    cjk = needs_xelatex(text + title)
    head = [
        "% compile with xelatex" if cjk else "% compile with pdflatex",
        "\\documentclass[11pt]{article}",
        "\\usepackage[a4paper,margin=2cm]{geometry}",
        "\\usepackage{amsmath,amssymb}",
    ]
    if cjk:
        head += [
            "\\usepackage{xeCJK}",
            "\\newcommand{\\symattnCJKfont}{Noto Serif CJK SC}",
            "\\setCJKmainfont{\\symattnCJKfont}",
            "\\setCJKmonofont{\\symattnCJKfont}",
        ]
    else:
        head += ["\\usepackage[T1]{fontenc}", "\\usepackage{lmodern}"]
    head += [
        "\\setlength{\\parindent}{0pt}",
        "\\setlength{\\parskip}{4pt}",
        f"\\title{{{text_escape(title)}}}",
        "\\date{}",
        "\\begin{document}",
        "\\maketitle",
        f"\\noindent {text_escape(result.source)}",
        "",
    ]
    return "\n".join([*head, text, "\\end{document}"]) + "\n"
