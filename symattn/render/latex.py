"""LaTeX: a fragment to paste into a report (amsmath only), or a standalone document.

The standalone document compiles with pdflatex when all its text is ASCII, and with
xelatex + xeCJK when any text is CJK (Chinese words, or tokens such as 我 and 爱); its
first line then says so, and the CJK font is named in one place, ``\\symattnCJKfont``.
"""

from __future__ import annotations

import re
import unicodedata

from ..notation import Notation, Words
from ..steps import Derivation
from .blocks import (
    Block,
    Display,
    Heading,
    Heatmap,
    Sentence,
    build_blocks,
    latex_message,
    text_escape,
)

__all__ = ["CJK_FONT", "needs_xelatex", "render_latex"]

#: The CJK font of standalone documents (from Debian's fonts-noto-cjk).
CJK_FONT = "Noto Serif CJK SC"


def _is_cjk(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def needs_xelatex(text: str) -> bool:
    """True when ``text`` holds characters that pdflatex cannot typeset (CJK)."""
    return any(_is_cjk(ch) for ch in text)


def _keep_spaces(text: str) -> str:
    """xeCJK drops a space between two CJK characters; a tie keeps it (我 爱 stays apart)."""
    return re.sub(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])", "~", text)


def _sentence(block: Sentence) -> str:
    out = []
    for kind, text in block.parts:
        out.append(f"${text}$" if kind == "math" else latex_message(text))
    return "".join(out)


def _display(block: Display) -> str:
    if len(block.lines) == 1 and "&" not in block.lines[0]:
        return "\\[\n  " + block.lines[0] + "\n\\]"
    return "\\begin{align*}\n  " + " \\\\\n  ".join(block.lines) + "\n\\end{align*}"


def _heatmap(block: Heatmap) -> str:
    """Shaded cells with xcolor only: darker blue for more attention."""
    cols = "r" + "c" * len(block.cols)
    lines = [
        text_escape(block.caption),
        "",
        "\\begin{center}",
        "\\setlength{\\fboxsep}{3pt}",
        f"\\begin{{tabular}}{{{cols}}}",
        " & "
        + " & ".join("$\\cdots$" if c == "⋯" else text_escape(c) for c in block.cols)
        + " \\\\",
    ]
    for name, values, labels in zip(block.rows, block.values, block.labels):
        cells = []
        for value, text in zip(values, labels):
            if text == "⋯":
                cells.append("$\\cdots$")
                continue
            shade = round(max(0.0, min(1.0, value)) * 80)
            ink = "white" if shade > 45 else "black"
            cells.append(
                f"\\colorbox{{blue!{shade}!white}}{{\\makebox[3em]{{\\color{{{ink}}}{text}}}}}"
            )
        lines.append(text_escape(name) + " & " + " & ".join(cells) + " \\\\")
    lines += ["\\end{tabular}", "\\end{center}"]
    return "\n".join(lines)


def _body(blocks: list[Block], standalone: bool) -> list[str]:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            command = "\\section*" if standalone else "\\subsection*"
            out.append(f"{command}{{{text_escape(block.title)}}}")
        elif isinstance(block, Sentence):
            out.append(_sentence(block))
        elif isinstance(block, Display):
            out.append(_display(block))
        elif isinstance(block, Heatmap):
            if standalone:
                out.append(_heatmap(block))
        else:  # pragma: no cover - every block kind is handled above
            raise TypeError(f"no LaTeX form for {type(block).__name__}")
        out.append("")
    return out


def render_latex(
    derivation: Derivation,
    *,
    standalone: bool,
    words: Words,
    notation: Notation,
    rows: list[int] | None = None,
    digits: int = 4,
    heads_shown: list[int] | None = None,
) -> str:
    """The derivation as a LaTeX fragment (``standalone=False``) or a whole document."""
    blocks = build_blocks(derivation, notation, words, rows, digits, heads_shown)
    body = _body(blocks, standalone)
    if not standalone:
        head = "% symattn derivation: needs \\usepackage{amsmath}"
        return "\n".join([head, "", *body]).rstrip() + "\n"
    title = derivation.problem.title or words("title")
    text = "\n".join(body) + title
    cjk = needs_xelatex(text)
    preamble = []
    if cjk:
        preamble += [
            "% compile with xelatex (the text holds CJK characters)",
            "% !TEX program = xelatex",
        ]
    else:
        preamble += ["% compile with pdflatex", "% !TEX program = pdflatex"]
    preamble += [
        "\\documentclass[11pt]{article}",
        "\\usepackage[a4paper,margin=2cm]{geometry}",
        "\\usepackage{amsmath}",
        "\\usepackage{xcolor}",
        "\\allowdisplaybreaks",
    ]
    if cjk:
        preamble += [
            "\\usepackage{xeCJK}",
            f"\\newcommand{{\\symattnCJKfont}}{{{CJK_FONT}}}",
            "\\setCJKmainfont{\\symattnCJKfont}",
            "\\setCJKsansfont{\\symattnCJKfont}",
            "\\setCJKmonofont{\\symattnCJKfont}",
        ]
    else:
        preamble += ["\\usepackage[T1]{fontenc}", "\\usepackage{lmodern}"]
    preamble += [
        "\\setlength{\\parindent}{0pt}",
        "\\setlength{\\parskip}{4pt}",
        f"\\title{{{_keep_spaces(text_escape(title))}}}",
        "\\date{}",
        "",
        "\\begin{document}",
        "\\maketitle",
        "",
    ]
    return "\n".join([*preamble, *body, "\\end{document}"]) + "\n"
