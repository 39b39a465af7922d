"""The voices of the writers: how each format writes a :class:`~symattn.messages.Message`
(its words escaped for the format, its formulas by the format's own printer, its entry
names as the format names entries).

The words of words/ still hold some math in Unicode (``√d_k``, ``−∞``, ``aᵢⱼ``), so the
LaTeX and HTML voices (HTML's is :func:`~symattn.render.html.html_voice`, loaded with the
HTML writer) say a message in Unicode first and then set its math runs as math
(:func:`~symattn.render.latex.latex_message`), as the whole sentence is needed to find a
run that a placeholder splits (``√{d_k}``)."""

from __future__ import annotations

from ..messages import Voice
from ..words import Words
from .latex import latex_message
from .unicode_math import UnicodeMath

__all__ = ["latex_voice", "text_voice"]


def text_voice(words: Words, digits: int = 4) -> Voice:
    """Unicode, as the terminal and JSON write it: ``a₁,₂``, ``√d_k``."""
    return Voice.plain(words, UnicodeMath(digits).math)


def latex_voice(words: Words, digits: int = 4) -> Voice:
    """LaTeX: words in text mode, formulas and entry names as inline math."""
    plain = text_voice(words, digits)
    return Voice(words, plain.text, plain.math, plain.entry, latex_message)
