"""What an exercise gives, as its key's own Given section says it: one source for the sheet
(LaTeX), the self-check page (HTML) and the Moodle quiz.

The key's Given section is a sentence of sizes, a display of the given matrices (the W's
in the problem's layout, then any matrices of the topic: W_a, γ, W_1, …), the scale, and
the topics' sentences (each topic's own, the layout, groups, the
block). The views set X and the W's themselves; the rest they show as the key does.
A matrix the problem gives as a step of its own (a given P) is shown with the givens.
"""

from __future__ import annotations

import dataclasses

from ..derivation import Derivation
from ..formula import Line, Math, Name
from ..record import Record
from ..render import Block, Display, Heading, Sentence, build_blocks, plain_table
from ..steps import Kind
from ..words import Words

__all__ = ["COMPACT", "Given", "given_of"]

#: Given matrices the views set side by side themselves.
COMPACT = ("W_Q", "W_K", "W_V")


class Given(Record):
    """The parts of an exercise's Given section."""

    sizes: Block  # n = …, d_model = …, d_k = …, d_v = …
    X: Math | None  # X as the problem's layout writes it (None when looked up from text)
    compact: tuple[tuple[str, Math], ...]  # W_Q, W_K, W_V in the problem's layout
    matrices: Display | None  # the topic's further matrices (W_a, γ, W_1, a given P, …)
    scale: Block  # how the scores are scaled
    notes: tuple[Block, ...]  # the topic's sentences


def given_of(key: Derivation, w: Words) -> Given:
    """The Given parts of ``key``, in ``w``'s language."""
    blocks = build_blocks(key, w)
    start = next(i for i, b in enumerate(blocks) if isinstance(b, Heading)) + 1
    end = next(i for i, b in enumerate(blocks) if isinstance(b, Heading) and b.number is not None)
    section = blocks[start:end]
    sizes = section[0]
    display = next((b for b in section[1:] if isinstance(b, Display)), Display(()))
    scale, *notes = [b for b in section[1:] if b is not display]  # the scale comes first
    assert isinstance(sizes, Sentence)
    compact: list[tuple[str, Math]] = []
    more: list[Line] = []
    for line in display.lines:
        if isinstance(line.lhs, Name) and line.lhs.matrix in COMPACT:
            compact.append((line.lhs.matrix, line.parts[0][1]))
        else:
            more.append(line)
    for step in key.steps:  # matrices given as steps of their own (a given P)
        if step.kind is Kind.GIVEN and step.id not in ("X", "Q", "K", "V"):
            more.append(Line(Name(step.id), (("=", plain_table(step.exact)),), breaks=False))
    x = None
    if key.has("X") and key.step("X").kind is Kind.GIVEN:
        x = plain_table(key.step("X").exact)
    matrices = dataclasses.replace(display, lines=tuple(more)) if more else None
    return Given(sizes, x, tuple(compact), matrices, scale, tuple(notes))
