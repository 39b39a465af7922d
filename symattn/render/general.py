"""Each step's general formula, once, as a formula tree: the one source that the walk's
"In general" line prints (in every format) and that JSON's ``formula`` and the
spreadsheet's titles print as plain Unicode (:func:`formula_text`).

A core kind's tree is made here (:func:`general_line`), a topic's kind's by its
``KindRules.general``; a kind without one (the givens, the tokens, a lookup, a topic's
kind that has none yet) keeps the words of its plan (``StepSpec.formula``) for JSON.
The layout's view turns the tree (:meth:`.view.View.math`), so the column layout's JSON
says ``Q = W_Q X`` with no rewriting of strings.

>>> from symattn.steps import Kind, StepSpec
>>> from symattn.words import words
>>> spec = StepSpec(id="scores", kind=Kind.PRODUCT, formula="", operands=("Q", "K"),
...                 transpose_right=True)
>>> formula_text(spec, words("en"))
'S = Q Kᵀ'
>>> from .view import COLUMNS
>>> formula_text(spec, words("en"), COLUMNS)
'S = Kᵀ Q'
"""

from __future__ import annotations

from ..formula import (
    Brackets,
    Cases,
    Concat,
    Exp,
    Frac,
    Join,
    Label,
    Line,
    Lit,
    Math,
    Minus,
    Name,
    Paren,
    Product,
    Sum,
    Sym,
)
from ..steps import Kind, StepSpec
from ..topics import kind_rules
from ..words import Words
from .text import line_text
from .unicode_math import UnicodeMath
from .view import ROWS, View

__all__ = ["divisor_symbol", "formula_text", "general_line", "general_lines"]


def divisor_symbol(label: str) -> Math:
    """√d_k, c, τ, √d_k · τ or c · τ: what the scores are divided by, as a symbol (each
    part of the label a symbol: "sqrt(d_k)*tau" → (√d_k · τ))."""
    parts = tuple(Sym("sqrt_dk" if part == "sqrt(d_k)" else part) for part in label.split("*"))
    return parts[0] if len(parts) == 1 else Paren(Product(parts))


def general_lines(spec: StepSpec, words: Words) -> tuple[Line, ...] | None:
    """The general formula of a step, as trees (in the row layout; the view turns them):
    a topic's kind's from its :class:`~symattn.topics.base.KindRules` ``general`` (one
    line or more); None for a kind that has none."""
    rules = kind_rules().get(spec.kind)
    if rules is not None:
        return rules.general(spec, words) if rules.general is not None else None
    line = general_line(spec, words)
    return None if line is None else (line,)


def general_line(spec: StepSpec, words: Words) -> Line | None:
    """The general formula of a step of a core kind, as one tree, or None."""
    lhs = Name(spec.id)
    kind = spec.kind
    if kind in (Kind.PRODUCT, Kind.SUM_OF_PRODUCTS, Kind.WEIGHTED_SUM):
        terms = tuple(
            Product(
                (
                    Name(left, transposed=spec.transpose_left),
                    Name(right, transposed=spec.transpose_right),
                ),
                flips=True,
            )
            for left, right in zip(spec.operands[::2], spec.operands[1::2])
        )
        return Line(lhs, (("=", terms[0] if len(terms) == 1 else Sum(terms)),), aligned=False)
    if kind == Kind.JACOBIAN:
        a_i, g_i = Name(spec.operands[0], "i"), Name(spec.operands[1], "i")
        diag = Concat((Sym("diag"), Lit("("), a_i, Lit(")")))
        jac = Sum((diag, Minus(Product((a_i, Name(a_i.matrix, "i", None, True))))))
        return Line(Name(spec.id, "i"), (("=", Product((Paren(jac), g_i))),), aligned=False)
    if kind == Kind.SCALE:
        c = divisor_symbol(spec.divisor_label)
        return Line(lhs, (("=", Frac(Name(spec.operands[0]), c)),), aligned=False)
    if kind == Kind.MASK:
        cases = Cases(
            (
                (Name(spec.operands[0], "i", "j"), Label(words("derive.allowed"))),
                (Sym("neg_inf"), Label(words("derive.masked"))),
            )
        )
        return Line(Name(spec.id, "i", "j"), (("=", cases),), aligned=False)
    if kind == Kind.SOFTMAX:
        src = spec.operands[0]
        quotient = Frac(Exp(Name(src, "i", "j")), Product((Sym("sum_k"), Exp(Name(src, "i", "k")))))
        return Line(Name(spec.id, "i", "j"), (("=", quotient),), aligned=False)
    if kind == Kind.CONCAT:
        parts = Join(tuple(Name(o) for o in spec.operands), "comma")
        return Line(lhs, (("=", Brackets(parts)),), aligned=False)
    if kind == Kind.ADD:
        left, right = spec.operands
        return Line(lhs, (("=", Sum((Name(left), Name(right)))),), aligned=False)
    return None


def formula_text(spec: StepSpec, words: Words, view: View = ROWS) -> str:
    """The general formula as JSON and the spreadsheet write it: the plain Unicode print
    of :func:`general_lines` as ``view`` writes them (two or more joined by "; "); a kind
    without a tree, the plan's words (a given's "(given)" saying, in the column layout,
    that column i is token i)."""
    lines = general_lines(spec, words)
    if lines is not None:
        printed = (line_text(view.math(line), UnicodeMath(), "") for line in lines)
        return "; ".join(text for texts in printed for text in texts)
    text = spec.formula
    if view.columns and spec.kind in (Kind.GIVEN, Kind.LOOKUP) and text.endswith("(given)"):
        return text[: -len(")")] + "; column i is token i)"
    return text
