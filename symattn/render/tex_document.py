"""The one LaTeX preamble: every standalone document symattn writes starts here.

A document compiles with pdflatex when all its text is ASCII, and with xelatex +
xeCJK when any text is CJK (Chinese words, or tokens such as 我 and 爱); its first
lines then say so, and the CJK font is named in one place, ``\\symattnCJKfont``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .tex_text import is_cjk, text_escape

__all__ = ["CJK_FONT", "document", "keep_spaces", "needs_xelatex"]

#: The CJK font of standalone documents (from Debian's fonts-noto-cjk).
CJK_FONT = "Noto Serif CJK SC"


def needs_xelatex(text: str) -> bool:
    """True when ``text`` holds characters that pdflatex cannot typeset (CJK)."""
    return any(is_cjk(ch) for ch in text)


def keep_spaces(text: str) -> str:
    """xeCJK drops a space between two CJK characters; a tie keeps it (我 爱 stays apart)."""
    return re.sub(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])", "~", text)


def document(
    title: str,
    body: str,
    *,
    packages: Sequence[str] = ("amsmath", "xcolor"),
    parskip: str = "4pt",
    after_title: Sequence[str] = (),
    preamble: Sequence[str] = (),
) -> str:
    """A whole document: the preamble for ``body``'s script, the title, the body."""
    # the engine from all the text: the title, the body and what follows the title
    text = "".join((text_escape(title), body, *after_title, *preamble))
    cjk = needs_xelatex(text)
    if "\\checkmark" in text and "amssymb" not in packages:  # a ✓ in a title or an answer
        packages = (*packages, "amssymb")
    program = "xelatex" if cjk else "pdflatex"
    why = " (the text holds CJK characters)" if cjk else ""
    lines = [
        f"% compile with {program}{why}",
        f"% !TEX program = {program}",
        "\\documentclass[11pt]{article}",
        "\\usepackage[a4paper,margin=2cm]{geometry}",
        *(f"\\usepackage{{{p}}}" for p in packages),
        "\\allowdisplaybreaks",
    ]
    if cjk:
        lines += [
            "\\usepackage{xeCJK}",
            f"\\newcommand{{\\symattnCJKfont}}{{{CJK_FONT}}}",
            "\\setCJKmainfont{\\symattnCJKfont}",
            "\\setCJKsansfont{\\symattnCJKfont}",
            "\\setCJKmonofont{\\symattnCJKfont}",
        ]
    else:
        lines += ["\\usepackage[T1]{fontenc}", "\\usepackage{lmodern}"]
    lines += [
        *preamble,
        "\\setlength{\\parindent}{0pt}",
        f"\\setlength{{\\parskip}}{{{parskip}}}",
        f"\\title{{{keep_spaces(text_escape(title))}}}",
        "\\date{}",
        "",
        "\\begin{document}",
        "\\maketitle",
        *after_title,
        "",
    ]
    return "\n".join([*lines, body, "\\end{document}"]) + "\n"
