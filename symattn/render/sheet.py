"""Exercise sheets for students and the teacher's summary of all keys (LaTeX)."""

from __future__ import annotations

from math import isqrt
from typing import TYPE_CHECKING

from ..notation import Notation, words
from .blocks import _plain_matrix, latex_message, text_escape
from .latex import CJK_FONT, needs_xelatex, render_latex

if TYPE_CHECKING:
    from ..exercises import Exercise

__all__ = ["render_sheet", "render_summary"]

_WORDS = {
    "en": {
        "name": "Name:",
        "intro": "Compute every step by hand and write your answers in the boxes. Give exact "
        "values where you can (integers, fractions); otherwise round to 4 decimal places.",
        "given": "Given",
        "tokens": "Tokens:",
        "scale": "Divide the scores by",
        "no_scale": "Do not scale the scores in this exercise: with d_k = {d_k}, √d_k is not a "
        "whole number, and the scaled scores would not be nice.",
        "causal": "Causal mask: query i may attend only to keys 1 … i; masked scores are −∞ "
        "and their weights are 0.",
        "summary": "Answer keys",
        "key": "Answer key",
    },
    "zh": {
        "name": "姓名：",
        "intro": "请手算每一步，并把答案写在空格中。"
        "能写精确值（整数、分数）的写精确值，否则保留 4 位小数。",
        "given": "已知",
        "tokens": "词元：",
        "scale": "注意力分数除以",
        "no_scale": "本题不对分数做缩放：d_k = {d_k} 时 √d_k 不是整数，缩放后的分数不便手算。",
        "causal": "因果掩码：查询 i 只能关注键 1 … i；被掩码的分数为 −∞，其权重为 0。",
        "summary": "全部答案",
        "key": "答案",
    },
}  # fmt: skip


def _preamble(title: str, body: str) -> list[str]:
    cjk = needs_xelatex(title + body)
    head = [
        "% compile with xelatex (the text holds CJK characters)"
        if cjk
        else "% compile with pdflatex",
        "\\documentclass[11pt]{article}",
        "\\usepackage[a4paper,margin=2cm]{geometry}",
        "\\usepackage{amsmath}",
        "\\usepackage{xcolor}",
    ]
    if cjk:
        head += [
            "\\usepackage{xeCJK}",
            f"\\newcommand{{\\symattnCJKfont}}{{{CJK_FONT}}}",
            "\\setCJKmainfont{\\symattnCJKfont}",
        ]
    else:
        head += ["\\usepackage[T1]{fontenc}", "\\usepackage{lmodern}"]
    head += [
        "\\setlength{\\parindent}{0pt}",
        "\\setlength{\\parskip}{5pt}",
        f"\\title{{{text_escape(title)}}}",
        "\\date{}",
        "\\begin{document}",
        "\\maketitle",
        "",
    ]
    return head


def _blank(rows: int, cols: int) -> str:
    cell = "\\underline{\\hspace{3em}}"
    body = " \\\\[6pt] ".join(" & ".join([cell] * cols) for _ in range(rows))
    return "\\begin{bmatrix} " + body + " \\end{bmatrix}"


def render_sheet(exercise: Exercise, lang: str) -> str:
    """The student's sheet: the given matrices, and a blank to fill in for each step."""
    from ..check import answer_steps

    w, language = _WORDS[lang], words(lang)
    names = Notation.build("matrix")
    key, data = exercise.key, exercise.data
    p = key.problem
    body: list[str] = []
    if exercise.student is None:
        body.append(f"{text_escape(w['name'])} \\underline{{\\hspace{{6cm}}}}")
    body.append(text_escape(w["intro"]))
    body.append(f"\\section*{{{text_escape(w['given'])}}}")
    body.append(text_escape(w["tokens"]) + " " + ", ".join(text_escape(t) for t in data["tokens"]))
    given = [
        f"{names.matrix(m)} &= {_plain_matrix(getattr(p, m))}" for m in ("X", "W_Q", "W_K", "W_V")
    ]
    body.append("\\begin{align*}\n  " + " \\\\\n  ".join(given) + "\n\\end{align*}")
    if p.scale is None:
        body.append(latex_message(w["no_scale"].format(d_k=p.d_k)))
    else:
        body.append(
            text_escape(w["scale"]) + f" $\\sqrt{{d_k}} = \\sqrt{{{p.d_k}}} = "
            f"{isqrt_str(p.d_k)}$" + language("period")
        )
    if p.mask_label == "causal":
        body.append(latex_message(w["causal"]))
    number = 0
    for step_id in answer_steps(key):
        if step_id == "X":
            continue
        number += 1
        rows, cols = key.step(step_id).shape
        body.append(f"\\section*{{{text_escape(language.heading(number, step_id))}}}")
        body.append(f"\\[ {names.matrix(step_id)} = {_blank(rows, cols)} \\]")
    text = "\n\n".join(body)
    return "\n".join([*_preamble(data["title"], text), text, "", "\\end{document}"]) + "\n"


def isqrt_str(d_k: int) -> str:
    return str(isqrt(d_k))


def render_summary(exercises: list[Exercise], lang: str) -> str:
    """The teacher's document: every exercise's full derivation, one section each."""
    w, language = _WORDS[lang], words(lang)
    names = Notation.build("matrix")
    parts: list[str] = []
    for exercise in exercises:
        parts.append(f"\\section*{{{text_escape(exercise.data['title'])}}}")
        fragment = render_latex(exercise.key, standalone=False, words=language, notation=names)
        parts.append("\n".join(line for line in fragment.splitlines() if not line.startswith("%")))
        parts.append("\\clearpage")
    text = "\n\n".join(parts)
    return "\n".join([*_preamble(w["summary"], text), text, "", "\\end{document}"]) + "\n"
