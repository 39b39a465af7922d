"""The voices of the writers: how each format writes a :class:`~symattn.messages.Message`
(its words escaped for the format, its formulas — and the math its sentence names — by
the format's own printer, its entry names as the format names entries).  HTML's voice is
:func:`~symattn.render.html.html_voice`, loaded with the HTML writer."""

from __future__ import annotations

from ..formula import Name
from ..messages import Voice
from ..printing import Notation
from ..words import Words
from .tex import TexPrinter, text_escape
from .unicode_math import UnicodeMath

__all__ = ["latex_voice", "text_voice"]


def text_voice(words: Words, digits: int = 4) -> Voice:
    """Unicode, as the terminal and JSON write it: ``a₁,₂``, ``√d_k``."""
    return Voice.plain(words, UnicodeMath(digits).math)


def latex_voice(words: Words, digits: int = 4, notation: Notation | None = None) -> Voice:
    """LaTeX: words in text mode, formulas and entry names as inline math."""
    printer = TexPrinter(notation, digits)

    def math(node: object) -> str:
        return f"${printer.math(node)}$"  # type: ignore[arg-type]

    def entry(step: str, i: int, j: int) -> str:
        return f"${printer.math(Name(step, i, j))}$"

    return Voice(words, text_escape, math, entry)
