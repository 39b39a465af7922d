"""The Given section's sentences about a problem's topic: how the positions are made,
RoPE's angle, the additive score, the temperature, the layout, the K/V groups and the
block. The derivation says them after the scale; the exercise views say them too."""

from __future__ import annotations

from ..printing import pretty
from ..problem import Problem
from ..words import Words
from .blocks import Sentence
from .math import (
    Concat,
    Frac,
    Glue,
    Math,
    Minus,
    Name,
    Paren,
    Product,
    Relation,
    Sum,
    Sym,
    Value,
)

__all__ = ["given_notes"]


def given_notes(p: Problem, w: Words) -> list[Sentence]:
    """The Given section's sentences about the topic: positions, RoPE, additive scores,
    the temperature, the layout, the K/V groups and the block (after the scale)."""
    out: list[Sentence] = []

    def say(*parts: str | Math) -> None:
        out.append(Sentence(tuple(parts)))

    if p.positions == "sinusoidal":
        angle = Paren(Frac(Sym("pos"), Sym("base_power")))
        even = Relation(Name("P", "pos", "2i"), "=", Concat((Sym("sin"), angle)))
        odd = Relation(Name("P", "pos", "2i+1"), "=", Concat((Sym("cos"), angle)))
        say(w("derive.given_positions_sinusoidal") + " ", even, ", ", odd, w("period"))
    elif p.positions != "none":
        say(w("derive.given_positions_given"))
    if p.rope:
        theta = Relation(
            Name("theta", "pos", "i"), "=", Product((Sym("pos"), Sym("rope_power")), Glue.DOT)
        )
        say(
            w("derive.given_rope") + " ",
            theta,
            w("derive.given_rope_base", base=pretty(p.rope_base)),
        )
        a, b = Name("Q", "pos", "2i"), Name("Q", "pos", "2i+1")
        cos = Concat((Sym("cos"), Paren(Name("theta", "pos", "i"))))
        sin = Concat((Sym("sin"), Paren(Name("theta", "pos", "i"))))
        first = Sum((Product((a, cos)), Minus(Product((b, sin)))))
        second = Sum((Product((a, sin)), Product((b, cos))))
        say(
            w("derive.given_rope_turn") + " ",
            Relation(Name("Q_rot", "pos", "2i"), "=", first),
            ", ",
            Relation(Name("Q_rot", "pos", "2i+1"), "=", second),
            w("period"),
        )
    if p.score == "additive":
        q, k, hidden = Name("Q", "i"), Name("K", "j"), Name("additive_hidden", "ij")
        h = Relation(hidden, "=", Sum((Product((q, Name("W_a"))), Product((k, Name("U_a"))))))
        tanh = Concat((Sym("tanh"), Paren(hidden)))
        s = Relation(Name("scores", "i", "j"), "=", Product((tanh, Name("v_a"))))
        say(w("derive.given_additive") + " ", h, ", ", s, w("period"))
    if p.temperature is not None:
        tau = Relation(Sym("tau"), "=", Value(p.temperature))
        alone = p.scale_label == "none"  # no √d_k: the temperature is the only divisor
        say(
            w("derive.temperature_alone" if alone else "derive.temperature") + " ", tau, w("period")
        )
    if p.layout == "column":
        say(w("derive.column_layout"))
    if p.kv_heads == 1:
        say(w("derive.kv_one", heads=p.heads))
    elif p.kv_heads is not None:
        size = p.heads // p.kv_heads
        assignment = w.kv_groups(p.heads, p.kv_heads)
        say(
            w(
                "derive.kv_groups",
                heads=p.heads,
                groups=p.kv_heads,
                size=size,
                assignment=assignment,
            )
        )
    if p.norm is not None:
        say(w(f"derive.block_{p.norm}"))
        say(w("derive.given_layernorm", eps=pretty(p.eps)))
        if p.positions != "none":
            say(w("derive.block_positions"))
    return out
