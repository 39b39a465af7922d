"""The voices of the writers: how each format writes a :class:`~symattn.messages.Message`
(its words escaped for the format, its formulas — and the math its sentence names — by
the format's own printer, its entry names as the format names entries).  LaTeX's voice is
:func:`~symattn.render.latex.latex_voice` and HTML's :func:`~symattn.render.html.html_voice`,
each loaded with its writer."""

from __future__ import annotations

from ..messages import Voice
from ..words import Words
from .unicode_math import UnicodeMath

__all__ = ["text_voice"]


def text_voice(words: Words, digits: int = 4) -> Voice:
    """Unicode, as the terminal and JSON write it: ``a₁,₂``, ``√d_k``."""
    return Voice.plain(words, UnicodeMath(digits).math)
