"""Each step's general formula, once, as a formula tree: the one source that the walk's
"In general" line prints (in every format) and that JSON's ``formula`` and the
spreadsheet's titles print as plain Unicode (:func:`formula_text`).

A core kind's tree is made here (:func:`general_line`), a topic's kind's by its
``KindRules.general``; a topic's given (a bias of the scores) carries its own in its ``params``
(a ``general`` method).  Every kind has one: a given's says "X (given)", the tokens'
"text → tokens → ids", with the words of :mod:`symattn.words` as labels.  The layout's
view turns the tree (:meth:`.view.View.math`), so the column layout's JSON says
``Q = W_Q X`` with no rewriting of strings.

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
    Minus,
    Name,
    Norm,
    Paren,
    Product,
    Relation,
    Sub,
    Sum,
    Sup,
    Sym,
)
from ..steps import Kind, StepSpec
from ..topics import kind_rules
from ..topics.common import divisor_symbol, numbered, worded
from ..words import Words
from .text import line_text
from .unicode_math import UnicodeMath
from .view import ROWS, View

__all__ = ["divisor_symbol", "formula_text", "general_line", "general_lines", "says_given"]


def general_lines(spec: StepSpec, words: Words, columns: bool = False) -> tuple[Line, ...] | None:
    """The general formula of a step, as trees (in the row layout; the view turns them):
    a topic's kind's from its :class:`~symattn.topics.base.KindRules` ``general`` (one
    line or more); None for a kind that has none.  ``columns``: a given says that its
    column i is token i."""
    rules = kind_rules().get(spec.kind)
    if rules is not None:
        return rules.general(spec, words) if rules.general is not None else None
    line = general_line(spec, words, columns)
    return None if line is None else (line,)


def says_given(spec: StepSpec) -> bool:
    """Does the step's general formula only say that the matrix is given (X (given))?
    The walk shows the matrix under "Given:" instead."""
    return spec.kind == Kind.GIVEN and getattr(spec.params, "general", None) is None


def general_line(spec: StepSpec, words: Words, columns: bool = False) -> Line | None:
    """The general formula of a step of a core kind, as one tree, or None."""
    lhs = Name(spec.id)
    kind = spec.kind
    if kind == Kind.GIVEN:
        own = getattr(spec.params, "general", None)  # a topic's given says how it is made
        if own is not None:
            line: Line = own(spec, words)
            return line
        key = "formula.given_columns" if columns else "formula.given"
        return Line(worded(words, key, name=lhs), aligned=False)
    if kind == Kind.TOKENS:
        arrows = (("→", Label(words("formula.tokens"))), ("→", Label(words("formula.ids"))))
        return Line(Label(words("formula.text")), arrows, aligned=False)
    if kind == Kind.LOOKUP:
        row = Concat((Sym("E"), Brackets(Sub(Sym("id"), "i"))))
        return Line(Name(spec.id, "i"), (("=", row),), aligned=False)
    if kind == Kind.COPY:
        return Line(lhs, (("=", Name(spec.operands[0])),), aligned=False)
    if kind == Kind.DIFFERENCE:  # dO = O − T, the gradient of L = ½‖O − T‖²
        error = Sum((Name(spec.operands[0]), Minus(Sym("T"))))
        loss = Concat((Sym("half"), Sup(Norm(error), "2")))
        note = Paren(Relation(Sym("L"), "=", loss))
        return Line(lhs, (("=", Concat((error, Sym("quad"), note))),), aligned=False)
    if kind == Kind.COLUMNS and spec.columns is not None:
        start, stop = spec.columns
        block = worded(
            words,
            "formula.columns_of",
            range=numbered(start + 1, stop),
            matrix=Name(spec.operands[0]),
        )
        return Line(lhs, (("=", block),), aligned=False)
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
    of :func:`general_lines` as ``view`` writes them (two or more joined by "; "; a
    given's saying, in the column layout, that column i is token i); a kind without a
    tree (none left in symattn's own kinds), the plan's words."""
    lines = general_lines(spec, words, view.columns)
    if lines is None:
        return spec.formula
    printed = (line_text(view.math(line), UnicodeMath(), "") for line in lines)
    return "; ".join(text for texts in printed for text in texts)
