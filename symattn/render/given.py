"""The Given section's words about a problem: how the scores are scaled, and each topic's
sentences (each topic's own: how its matrices are made, its angles, scores, divisors,
the K/V groups, the block), then the layout's.  The derivation says them after the given
matrices; the exercise views say them too."""

from __future__ import annotations

from ..formula import Math, Relation, Sym, Value
from ..problem import Problem
from ..topics import active
from ..words import Words
from .blocks import Sentence, math_part
from .view import View

__all__ = ["given_notes", "given_shown", "scale_note", "scale_sentence"]

#: The core's given matrices shown in the Given section (a topic adds its own).
SHOWN = ("W_Q", "W_K", "W_V", "W_O")
#: The parts of a mask that no topic describes, each with its sentence in the Given section.
MASKS = ("causal", "explicit", "padding")


def given_shown(p: Problem) -> tuple[str, ...]:
    """The names of the given matrices the Given section shows with the W's."""
    return SHOWN + tuple(name for topic, _ in active(p) for name in topic.shown)


def scale_note(p: Problem) -> str | None:
    """The words key of a topic's sentence for unscaled scores (the temperature alone
    divides them), or None."""
    return next((k for topic, c in active(p) if (k := topic.scale_note(p, c)) is not None), None)


def scale_sentence(p: Problem, w: Words) -> Sentence:
    """How the scores are scaled (or why they are not)."""
    if p.scale_label == "none":
        return Sentence.of(*w.parts(scale_note(p) or "derive.no_scale"))
    c: Math = Value(p.scale)
    if p.scale_label == "sqrt(d_k)":
        c = Relation(Sym("sqrt_dk"), "=", Value(p.scale))
    return Sentence((w("derive.scale") + " ", c, w("period")))


def given_notes(p: Problem, w: Words, view: View) -> list[Sentence]:
    """The heads' and the mask's sentences, the topics', and the layout's (after the
    scale's)."""
    out = []
    if p.heads > 1:
        key = "derive.given_heads_wo" if p.W_O is not None else "derive.given_heads"
        key += ".column" if view.columns else ""
        out.append(Sentence.of(*w.parts(key, h=p.heads, d_k=p.d_k, d_v=p.d_v)))
    for part in p.mask_label.split("+"):
        if part in MASKS:
            out.append(Sentence.of(*w.parts(f"derive.given_mask.{part}")))
    for topic, config in active(p):
        out += [
            Sentence(tuple(view.math(math_part(part)) for part in parts))
            for parts in topic.notes(p, config, w)
        ]
    if view.columns:
        out.append(Sentence.of(*w.parts("derive.column_layout")))
    return out
