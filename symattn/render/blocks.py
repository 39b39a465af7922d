"""The shared walk of the LaTeX and Markdown renderers: a Derivation → blocks.

A block is a heading, a sentence (words with inline math), a display of aligned
lines, a matrix, or a heatmap.  Every step is written the way a person writes it by
hand: the general formula first; then, for each expanded row, each entry's formula,
the numbers substituted in the order of the terms (zeros kept, 1/√2 not rationalised),
the exact value and ≈ its decimal.  Long sums are broken over several lines.  The
formulas are the same in every language; only the words change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Union

from ..exact import Combination, ExpRatio, NegInf, Surd, rational_value, round_half_away
from ..notation import Notation, Words
from ..steps import (
    Derivation,
    DotEntry,
    JacobianEntry,
    MaskEntry,
    ScaleEntry,
    SoftmaxEntry,
    Step,
    split_id,
)
from .text import jacobian

__all__ = [
    "Block",
    "Display",
    "Heading",
    "Heatmap",
    "Sentence",
    "build_blocks",
    "latex_message",
    "latex_value",
    "text_escape",
]

#: Rows and columns of a matrix shown before eliding with ⋯.
DISPLAY_LIMIT = 8
#: Entries of one row written out before the rest are left to the matrix.
ENTRY_LIMIT = 8
#: Width budget of one displayed line, in rough characters of typeset math.
LINE_BUDGET = 58


@dataclass(frozen=True)
class Heading:
    number: int | None  # None for unnumbered sections (Given, Result)
    title: str


@dataclass(frozen=True)
class Sentence:
    """Words and inline math: ``parts`` alternate ("text", s) and ("math", latex)."""

    parts: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Display:
    """Aligned display lines; each line holds one ``&`` before its relation sign."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Heatmap:
    """The attention weights as shaded cells with token labels."""

    caption: str
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    labels: tuple[tuple[str, ...], ...]


Block = Union[Heading, Sentence, Display, Heatmap]

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}


def text_escape(text: str) -> str:
    """User text made safe for LaTeX text mode.

    >>> text_escape("50% of a_1 & {x}")
    '50\\\\% of a\\\\_1 \\\\& \\\\{x\\\\}'
    """
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in text)


_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉ᵢⱼₖ", "0123456789ijk")
_MATH = re.compile(
    r"(?P<root>√(?:d_model|d_k|\d+))"
    r"|(?P<entry>[A-Za-zΣ]′?[₀-₉ᵢⱼₖ][₀-₉ᵢⱼₖ,]*)"
    r"|(?P<dim>\bd_(?:model|k)\b)"
    r"|(?P<inf>−∞)"
    r"|(?P<dot>·)"
)


def _math_of(token: str, kind: str) -> str:
    if kind == "root":
        inner = token[1:].replace("d_model", r"d_{\text{model}}")
        return rf"\sqrt{{{inner}}}"
    if kind == "entry":
        head = token[0].replace("Σ", r"\Sigma ")
        prime = "'" if "′" in token else ""
        return f"{head}{prime}_{{{token.lstrip(token[0]).lstrip('′').translate(_SUBSCRIPTS)}}}"
    if kind == "dim":
        return token.replace("d_model", r"d_{\text{model}}")
    return {"inf": r"-\infty", "dot": r"\cdot"}[kind]


def latex_message(text: str) -> str:
    """A diagnosis sentence for LaTeX: its entry names, roots and ∞ set as math.

    >>> print(latex_message("s′₂,₁: divide by √d_k = √2"))
    $s'_{2,1}$: divide by $\\sqrt{d_k}$ = $\\sqrt{2}$
    """
    out, last = [], 0
    for match in _MATH.finditer(text):
        out.append(text_escape(text[last : match.start()]))
        out.append(f"${_math_of(match.group(), match.lastgroup or '')}$")
        last = match.end()
    out.append(text_escape(text[last:]))
    return "".join(out)


def label(text: str) -> str:
    """A token as a label inside math."""
    return rf"\text{{{text_escape(text)}}}"


# -- values -----------------------------------------------------------------------------


def _fraction(q: Fraction, inline: bool) -> str:
    sign = "-" if q < 0 else ""
    num, den = abs(q.numerator), q.denominator
    if den == 1:
        return f"{sign}{num}"
    return f"{sign}{num}/{den}" if inline else rf"{sign}\frac{{{num}}}{{{den}}}"


def _surd(value: Surd, inline: bool) -> str:
    if not value.terms:
        return "0"
    parts = []
    for radicand, coef in value.terms:
        if radicand == 1:
            parts.append(_fraction(coef, inline))
            continue
        sign = "-" if coef < 0 else ""
        num, den = abs(coef.numerator), coef.denominator
        body = rf"\sqrt{{{radicand}}}" if num == 1 else rf"{num}\sqrt{{{radicand}}}"
        if den == 1:
            parts.append(f"{sign}{body}")
        else:
            parts.append(f"{sign}{body}/{den}" if inline else rf"{sign}\frac{{{body}}}{{{den}}}")
    out = parts[0]
    for part in parts[1:]:
        out += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
    return out


def exp_latex(x: Any) -> str:
    return f"e^{{{latex_value(x, inline=True)}}}"


def latex_value(value: Any, inline: bool = False) -> str:
    """LaTeX of an exact value; ``inline`` writes fractions with a slash (for exponents)."""
    if isinstance(value, NegInf):
        return r"-\infty"
    if isinstance(value, Surd):
        return _surd(value, inline)
    if isinstance(value, ExpRatio):
        den = " + ".join(exp_latex(x) for x in value.exponents)
        terms = []
        for c, x in zip(value.coefs, value.exponents):
            if isinstance(c, Surd) and c.is_zero():
                continue
            coef = latex_value(c)
            terms.append(exp_latex(x) if coef == "1" else f"{_factor(coef)} {exp_latex(x)}")
        num = " + ".join(terms).replace("+ -", "- ") or "0"
        return rf"\frac{{{num}}}{{{den}}}"
    if isinstance(value, Combination):
        parts = [
            f"{'' if str(c) == '1' else _factor(latex_value(c)) + ' '}{latex_value(r)}"
            for c, r in value.terms
        ]
        return " + ".join(parts) or "0"
    import sympy

    return str(sympy.latex(value))


def _factor(text: str) -> str:
    """Bracket a value that would be ambiguous as a factor: negatives and sums."""
    body = text[1:] if text.startswith("-") else text
    if text.startswith("-") or " + " in body or " - " in body:
        return rf"\left({text}\right)"
    return text


def width(latex: str) -> int:
    """A rough count of typeset characters, for breaking long lines."""
    text = re.sub(r"\\(?:frac|sqrt|left|right|text|mathrm|tilde|hat|begin|end)", "", latex)
    text = re.sub(r"\\(?:cdot|approx|infty|alpha|Sigma|sum|quad|to|mapsto|top)", "x", text)
    text = re.sub(r"\{bmatrix\}|[{}&]|\\\\", "", text)
    text = re.sub(r"\^\{?[^ ]{0,12}?\}?(?= |$)", "xx", text)
    return len(text)


Rhs = list[tuple[str, Union[str, list[str]]]]


def chain(lhs: str, rhs: Rhs) -> list[str]:
    """Aligned lines ``lhs = a = b ≈ c``: ``rhs`` holds (relation, content) pairs, where
    content given as a list of terms is a sum.  Pieces fill a line while they fit; a
    long sum is broken between its terms."""
    lines: list[str] = []
    current = f"{lhs} &"
    for k, (relation, item) in enumerate(rhs):
        terms = [item] if isinstance(item, str) else item
        pieces = [
            term if t == 0 else (f"- {term[1:]}" if term.startswith("-") else f"+ {term}")
            for t, term in enumerate(terms)
        ]
        whole = f"{relation} " + " ".join(pieces)
        if k > 0 and width(current + " " + whole) > LINE_BUDGET:
            lines.append(current.rstrip())
            current = "&"
        current += ("" if current.endswith("&") else " ") + f"{relation} {pieces[0]}"
        for piece in pieces[1:]:
            if width(current + " " + piece) > LINE_BUDGET:
                lines.append(current.rstrip())
                current = r"&\quad"
            current += " " + piece
    lines.append(current.rstrip())
    return lines


def _merge_value(lines: list[str], tail: str) -> list[str]:
    """Put ``= value ≈ decimal`` on the last line when it fits there."""
    if not tail:
        return lines
    if lines and width(lines[-1] + tail) <= LINE_BUDGET:
        return [*lines[:-1], lines[-1] + " " + tail]
    return [*lines, "&" + tail.lstrip()]


# -- matrices ------------------------------------------------------------------------------


def _index(count: int) -> list[int]:
    """Indices shown of ``count``; -1 stands for the elided middle."""
    if count <= DISPLAY_LIMIT:
        return list(range(count))
    return [0, 1, 2, -1, count - 2, count - 1]


def cell(step: Step, i: int, j: int, digits: int, prefer_decimal: bool) -> str:
    entry = step.exact[i][j]
    exact = rational_value(entry)
    if exact is not None and not isinstance(entry, ExpRatio):
        return _fraction(exact, inline=False)
    if isinstance(entry, ExpRatio) and exact is not None:
        return _fraction(exact, inline=False)
    if isinstance(entry, NegInf) or not prefer_decimal:
        return latex_value(entry)
    dec = step.decimal_str(i, j, digits)
    return dec if dec is not None else latex_value(entry)


def matrix_latex(step: Step, digits: int, labels: bool) -> str:
    """The step's matrix: bmatrix, or an array with token labels; elided past 8."""
    rows, cols = step.shape
    prefer_decimal = any(isinstance(e, (ExpRatio, Combination)) for row in step.exact for e in row)
    if not prefer_decimal:
        prefer_decimal = any(
            width(latex_value(e)) > 14 for row in step.exact[:DISPLAY_LIMIT] for e in row[:4]
        ) and all(v is not None for row in step.values for v in row)
    r_idx, c_idx = _index(rows), _index(cols)

    def show(i: int, j: int) -> str:
        if i < 0 and j < 0:
            return r"\ddots"
        if i < 0:
            return r"\vdots"
        if j < 0:
            return r"\cdots"
        return cell(step, i, j, digits, prefer_decimal)

    body = [[show(i, j) for j in c_idx] for i in r_idx]
    if labels and step.row_labels and step.col_labels:
        head = " & " + " & ".join(r"\cdots" if j < 0 else label(step.col_labels[j]) for j in c_idx)
        lines = []
        for i, row in zip(r_idx, body):
            lab = r"\vdots" if i < 0 else label(step.row_labels[i])
            lines.append(lab + " & " + " & ".join(row))
        spec = "c|" + "c" * len(c_idx)
        return (
            rf"\begin{{array}}{{{spec}}} {head} \\ \hline " + r" \\ ".join(lines) + r" \end{array}"
        )
    return r"\begin{bmatrix} " + r" \\ ".join(" & ".join(r) for r in body) + r" \end{bmatrix}"


def vector_latex(values: list[str]) -> str:
    shown = values if len(values) <= DISPLAY_LIMIT else [*values[:3], r"\cdots", *values[-2:]]
    return r"\begin{bmatrix} " + " & ".join(shown) + r" \end{bmatrix}"


def _approx(step: Step, i: int, j: int, digits: int) -> str:
    """``≈ 0.1070`` (or ``= 1.2000`` when the decimal is exact; nothing for integers)."""
    dec = step.decimal_str(i, j, digits)
    exact = rational_value(step.exact[i][j])
    if dec is None or isinstance(step.exact[i][j], NegInf):
        return ""
    if exact is not None:
        if exact.denominator == 1:
            return ""
        return f"= {dec}" if step.is_exact_decimal(i, j, digits) else rf"\approx {dec}"
    return rf"\approx {dec}"


def fmt_decimal(value: Decimal, digits: int) -> str:
    """A decimal for display: fixed point, or a × 10^k when very large or small."""
    if value == 0 or Decimal("1e-4") <= abs(value) < Decimal("1e7"):
        return round_half_away(value, digits)
    exponent = value.adjusted()
    mantissa = value.scaleb(-exponent)
    return rf"{round_half_away(mantissa, digits)} \times 10^{{{exponent}}}"


# -- the walk -----------------------------------------------------------------------------


@dataclass
class _Walk:
    d: Derivation
    notation: Notation
    words: Words
    rows: list[int]
    digits: int
    heads_shown: list[int] | None = None
    blocks: list[Block] = field(default_factory=list)

    def say(self, *parts: tuple[str, str]) -> None:
        self.blocks.append(Sentence(tuple(parts)))

    def show(self, lines: list[str]) -> None:
        if lines:
            self.blocks.append(Display(tuple(lines)))

    # names
    def e(self, ref_matrix: str, i: int, j: int) -> str:
        return self.notation.entry(ref_matrix, i, j)

    def m(self, mid: str) -> str:
        return self.notation.matrix(mid)

    def general(self, step: Step) -> str:
        n = self.notation
        if step.kind in ("product", "product_sum"):
            pairs = zip(step.operands[::2], step.operands[1::2])
            terms = [
                f"{_t(n.matrix(left), step.transpose_left)} "
                f"{_t(n.matrix(right), step.transpose_right)}"
                for left, right in pairs
            ]
            return f"{n.matrix(step.id)} = " + " + ".join(terms)
        if step.kind == "jacobian":
            a_i, g_i = n.row(step.operands[0], "i"), n.row(step.operands[1], "i")
            return (
                rf"{n.row(step.id, 'i')} = \left(\mathrm{{diag}}({a_i}) - {a_i} {_t(a_i, True)}"
                rf"\right) {g_i}"
            )
        if step.kind == "scale":
            src = step.operands[0]
            c = r"\sqrt{d_k}" if self.d.problem.scale_label == "sqrt(d_k)" else "c"
            return rf"{n.matrix(step.id)} = \frac{{{n.matrix(src)}}}{{{c}}}"
        if step.kind == "mask":
            src = step.operands[0]
            return (
                rf"{n.entry(step.id, 'i', 'j')} = \begin{{cases}} {n.entry(src, 'i', 'j')} "
                r"& \text{allowed} \\ -\infty & \text{masked} \end{cases}"
            )
        if step.kind == "softmax":
            src = step.operands[0]
            a, s_ij, s_ik = (
                n.entry(step.id, "i", "j"),
                n.entry(src, "i", "j"),
                n.entry(src, "i", "k"),
            )
            return rf"{a} = \frac{{e^{{{s_ij}}}}}{{\sum_{{k}} e^{{{s_ik}}}}}"
        return n.matrix(step.id)

    def run(self) -> list[Block]:
        d, w = self.d, self.words
        p = d.problem
        self.blocks.append(Heading(None, w("given")))
        dims = [f"n = {p.n}"] + (
            [f"m = {p.m}"] if p.memory is not None or p.d_model is None else []
        )
        if p.d_model is not None:
            dims.append(rf"d_{{\text{{model}}}} = {p.d_model}")
        dims += [f"d_k = {p.d_k}", f"d_v = {p.d_v}"]
        self.say(("math", r",\quad ".join(dims)))
        givens = [
            f"{self.m(name)} &= {_plain_matrix(getattr(p, name))}"
            for name in ("W_Q", "W_K", "W_V", "memory")
            if getattr(p, name) is not None
        ]
        self.show(givens)
        if p.scale_label == "none":
            self.say(("text", w("no_scale")))
        else:
            c = (
                r"\sqrt{d_k} = " + latex_value(p.scale)
                if p.scale_label == "sqrt(d_k)"
                else (latex_value(p.scale))
            )
            self.say(("text", w("scale") + " "), ("math", c), ("text", w("period")))
        for number, step in enumerate(d.steps, start=1):
            title = "X_given" if step.id == "X" and step.kind == "given" else step.id
            if step.id == "output" and step.operands[:1] == ("concat",):
                title = "projection"
            self.blocks.append(Heading(number, w.heading(number, title)))
            getattr(self, f"_{step.kind}")(step)
        self.blocks.append(Heading(None, w("result")))
        self._matrix(d.step("output"))
        check = d.crosscheck
        if check is None:
            self.say(("text", w("symbolic_check")))
        else:
            verdict = w("passed") if check.passed else w("failed")
            self.say(("text", w("crosscheck", verdict=verdict, error=f"{check.max_rel_error:.1e}")))
        return self.blocks

    def _row_heading(self, step: Step, i: int) -> None:
        self.say(("text", self.words("row", i=i + 1, label=self._row_label(step, i))))

    def _all_rows(self, step: Step) -> None:
        self.say(("text", self.words("rows_as_matrix")))
        self._matrix(step)

    def _row_label(self, step: Step, i: int) -> str:
        if step.row_labels:
            return (
                f" ({step.row_labels[i]})"
                if self.words.lang == "en"
                else f"（{step.row_labels[i]}）"
            )
        return ""

    def _expanded(self, step: Step) -> list[int]:
        head = split_id(step.id)[0]
        if head is not None and self.heads_shown is not None and head not in self.heads_shown:
            return []
        return [i for i in self.rows if i < step.shape[0]]

    def _matrix(self, step: Step) -> None:
        if self.d.problem.symbolic and any(
            width(latex_value(e)) > 30 for row in step.exact for e in row
        ):  # too long to show: name the entries, which are written out above
            self.show([f"{self.m(step.id)} &= {self._names_matrix(step)}"])
            return
        labels = split_id(step.id)[1] in ("scores", "scaled_scores", "masked_scores", "weights")
        sign = (
            r"\approx "
            if any(
                isinstance(e, (ExpRatio, Combination)) and rational_value(e) is None
                for r in step.exact
                for e in r
            )
            else "= "
        )
        self.show([f"{self.m(step.id)} &{sign}{matrix_latex(step, self.digits, labels)}"])

    def _names_matrix(self, step: Step) -> str:
        r_idx, c_idx = _index(step.shape[0]), _index(step.shape[1])

        def show(i: int, j: int) -> str:
            if i < 0:
                return r"\ddots" if j < 0 else r"\vdots"
            return r"\cdots" if j < 0 else self.e(step.id, i, j)

        rows = [" & ".join(show(i, j) for j in c_idx) for i in r_idx]
        return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"

    # -- kinds of step
    def _given(self, step: Step) -> None:
        if step.id == "tokens":
            lookup = self.d.problem.lookup
            assert lookup is not None
            self.say(("text", self.words("split")))
            pieces = r" \mid ".join(label(t) for t in lookup.tokens)
            ids = r", \quad ".join(
                rf"{label(t)} \mapsto {i}" for t, i in zip(lookup.tokens, lookup.ids)
            )
            self.show([rf"{label(lookup.text)} &\to {pieces}", f"&{ids}"])
            return
        self.say(("text", self.words("given_matrix")))
        self._matrix(step)

    def _jacobian(self, step: Step) -> None:
        self.say(("text", self.words("general")))
        self.show([self.general(step)])
        weights_id = step.operands[0]
        for i in self._expanded(step):
            self._row_heading(step, i)
            matrix = jacobian(self.d.step(weights_id), i)
            if matrix is not None:
                self.say(("text", self.words("jacobian")))
                cells = r" \\ ".join(
                    " & ".join(round_half_away(x, self.digits) for x in row) for row in matrix
                )
                self.show([rf"J_{{{i + 1}}} &\approx \begin{{bmatrix}} {cells} \end{{bmatrix}}"])
            lines: list[str] = []
            for j in self._entries(step, i):
                f = self.d.entry(step.id, i, j)
                assert isinstance(f, JacobianEntry)
                a, g = f.weights[f.column], f.upstream[f.column]
                inner = [
                    f"{self.e(r.matrix, r.row, r.col)} {self.e(h.matrix, h.row, h.col)}"
                    for (r, _), (h, _) in zip(f.weights, f.upstream)
                ]
                names = (
                    rf"{self.e(a[0].matrix, i, j)} \left({self.e(g[0].matrix, i, j)} - "
                    rf"\left({' + '.join(inner)}\right)\right)"
                )
                rhs: Rhs = [("=", names)]
                if not self.d.problem.symbolic:
                    nums = [
                        f"{self._number(x)} \\cdot {self._number(y)}"
                        for (_, x), (_, y) in zip(f.weights, f.upstream)
                    ]
                    rhs.append(
                        (
                            "=",
                            rf"{self._number(a[1])} \left({self._number(g[1])} - "
                            rf"\left({' + '.join(nums)}\right)\right)",
                        )
                    )
                lines.extend(
                    _merge_value(chain(self.e(step.id, i, j), rhs), self._value(step, i, j))
                )
            self.show(lines)
            self._more(step)
        self._all_rows(step)

    def _product_sum(self, step: Step) -> None:
        self._product(step)

    def _concat(self, step: Step) -> None:
        parts = ", ".join(self.m(o) for o in step.operands)
        self.say(("text", self.words("general")))
        self.show([rf"{self.m(step.id)} = \left[\, {parts} \,\right]"])
        self._all_rows(step)

    def _lookup(self, step: Step) -> None:
        lookup = self.d.problem.lookup
        assert lookup is not None
        self.say(("text", self.words("lookup")))
        lines = []
        for i, (token, token_id) in enumerate(zip(lookup.tokens, lookup.ids)):
            row = vector_latex([latex_value(e) for e in step.exact[i]])
            lines.append(
                rf"{self.notation.row('X', i)} &= E_{{{token_id},:}} = {row}"
                rf" \quad ({label(token)})"
            )
        self.show(lines)
        self._matrix(step)

    def _entries(self, step: Step, i: int) -> list[int]:
        return list(range(min(step.shape[1], ENTRY_LIMIT)))

    def _more(self, step: Step) -> None:
        if step.shape[1] > ENTRY_LIMIT:
            self.say(("text", self.words("more_entries", count=step.shape[1] - ENTRY_LIMIT)))

    def _product(self, step: Step) -> None:
        self.say(("text", self.words("general")))
        self.show([self.general(step)])
        symbolic = self.d.problem.symbolic
        for i in self._expanded(step):
            self._row_heading(step, i)
            if _is_weighted_sum(step):
                self._weighted_sum(step, i)
            lines: list[str] = []
            for j in self._entries(step, i):
                f = self.d.entry(step.id, i, j)
                assert isinstance(f, DotEntry)
                names = [
                    f"{self.e(t.left.matrix, t.left.row, t.left.col)} "
                    f"{self.e(t.right.matrix, t.right.row, t.right.col)}"
                    for t in f.terms
                ]
                rhs: Rhs = []
                if split_id(step.id)[1] == "scores":
                    q_row = self.notation.row(step.operands[0], i)
                    k_row = self.notation.row(step.operands[1], j)
                    rhs.append(("=", rf"{q_row} \cdot {k_row}"))
                rhs.append(("=", names))
                if not symbolic:
                    if _is_weighted_sum(step):
                        numbers = [
                            f"{self.e(t.left.matrix, i, t.left.col)} \\cdot "
                            f"{self._number(t.right_value)}"
                            for t in f.terms
                        ]
                    else:
                        numbers = [
                            f"{self._number(t.left_value)} \\cdot {self._number(t.right_value)}"
                            for t in f.terms
                        ]
                    rhs.append(("=", numbers))
                lines.extend(
                    _merge_value(chain(self.e(step.id, i, j), rhs), self._value(step, i, j))
                )
            self.show(lines)
            self._more(step)
        self._all_rows(step)

    def _number(self, value: Any) -> str:
        """A substituted value: exact, or the decimal of a closed form (a head's output, a
        weight in the backward pass, a gradient)."""
        exact = rational_value(value)
        if exact is not None and not isinstance(value, Surd):
            return _factor(_fraction(exact, inline=False))
        if isinstance(value, (ExpRatio, Combination)) and exact is None:
            return _factor(round_half_away(value.to_decimal(30), self.digits))
        if not isinstance(value, (Surd, NegInf)) and not getattr(value, "free_symbols", True):
            text = latex_value(value)
            if width(text) > 12:
                import sympy

                return _factor(round_half_away(Decimal(str(sympy.N(value, 30))), self.digits))
            return _factor(text)
        return _factor(latex_value(value))

    def _value(self, step: Step, i: int, j: int) -> str:
        """``= exact ≈ decimal`` for entry (i, j), short enough for one line."""
        entry = step.exact[i][j]
        if isinstance(entry, Combination):  # a sum of closed forms: its decimal says it
            return _approx(step, i, j, self.digits)
        if self.d.problem.symbolic:
            text = latex_value(entry)
            return f"= {text}" if width(text) <= LINE_BUDGET - 10 else ""
        if isinstance(entry, ExpRatio):
            exact = rational_value(entry)
            if exact is not None:
                return f"= {_fraction(exact, inline=False)}"
            closed = latex_value(entry)
            tail = _approx(step, i, j, self.digits)
            return f"= {closed} {tail}" if width(closed) <= LINE_BUDGET - 16 else tail
        text = latex_value(entry)
        if width(text) > LINE_BUDGET - 16:
            return _approx(step, i, j, self.digits)
        return f"= {text} {_approx(step, i, j, self.digits)}".rstrip()

    def _weighted_sum(self, step: Step, i: int) -> None:
        weights, v = self.d.step(step.operands[0]), self.d.step(step.operands[1])
        n = self.notation
        names = [f"{self.e(weights.id, i, j)} {n.row(v.id, j)}" for j in range(weights.shape[1])]
        rhs: Rhs = [("=", names)]
        if not self.d.problem.symbolic:
            numbers = []
            for j in range(weights.shape[1]):
                a = cell(weights, i, j, self.digits, prefer_decimal=True)
                numbers.append(f"{a} {vector_latex([latex_value(e) for e in v.exact[j]])}")
            rhs.append(("=", numbers))
            result = vector_latex(
                [cell(step, i, k, self.digits, prefer_decimal=True) for k in range(step.shape[1])]
            )
            exact = all(rational_value(e) is not None for e in step.exact[i])
            rhs.append(("=" if exact else r"\approx", result))
        self.say(("text", self.words("weighted")))
        self.show(chain(n.row(step.id, i), rhs))
        self.say(("text", self.words("entries")))

    def _scale(self, step: Step) -> None:
        self.say(("text", self.words("general")))
        self.show([self.general(step)])
        c = r"\sqrt{d_k}" if self.d.problem.scale_label == "sqrt(d_k)" else "c"
        for i in self._expanded(step):
            self._row_heading(step, i)
            lines = []
            for j in self._entries(step, i):
                f = self.d.entry(step.id, i, j)
                assert isinstance(f, ScaleEntry)
                src = self.e(f.source.matrix, f.source.row, f.source.col)
                rhs: Rhs = [("=", rf"\frac{{{src}}}{{{c}}}")]
                if not self.d.problem.symbolic:
                    quotient = (
                        rf"\frac{{{self._number(f.source_value)}}}{{{latex_value(f.divisor)}}}"
                    )
                    rhs.append(("=", quotient))
                lines.extend(
                    _merge_value(chain(self.e(step.id, i, j), rhs), self._value(step, i, j))
                )
            self.show(lines)
            self._more(step)
        self._all_rows(step)

    def _mask(self, step: Step) -> None:
        self.say(("text", self.words("mask")))
        self.show([self.general(step)])
        for i in self._expanded(step):
            self._row_heading(step, i)
            lines = []
            for j in self._entries(step, i):
                f = self.d.entry(step.id, i, j)
                assert isinstance(f, MaskEntry)
                target = self.e(step.id, i, j)
                if f.allowed:
                    src = self.e(f.source.matrix, f.source.row, f.source.col)
                    lines.append(f"{target} &= {src} = {latex_value(f.value)}")
                else:
                    lines.append(rf"{target} &= -\infty")
            self.show(lines)
        self._all_rows(step)

    def _softmax(self, step: Step) -> None:
        self.say(("text", self.words("general")))
        self.show([self.general(step)])
        for i in self._expanded(step):
            self._row_heading(step, i)
            first = self.d.entry(step.id, i, 0)
            assert isinstance(first, SoftmaxEntry)
            sigma = rf"\Sigma_{{{i + 1}}}"
            if first.exps is None:  # symbolic: name the sum all the same
                names = [f"e^{{{self.e(r.matrix, r.row, r.col)}}}" for r, _ in first.row]
                self.show(chain(sigma, [("=", names)]))
            if first.exps is not None and first.total is not None:
                self.say(("text", self.words("exps")))
                lines = []
                shown = list(zip(first.row, first.exps))[:ENTRY_LIMIT]
                for (ref, x), value in shown:
                    name = self.e(ref.matrix, ref.row, ref.col)
                    lines.append(
                        rf"e^{{{name}}} &= {exp_latex(x)} \approx "
                        f"{fmt_decimal(value, self.digits)}"
                    )
                names = [f"e^{{{self.e(r.matrix, r.row, r.col)}}}" for r, _ in first.row]
                total = chain(sigma, [("=", names)])
                lines.extend(
                    _merge_value(total, rf"\approx {fmt_decimal(first.total, self.digits)}")
                )
                self.show(lines)
            self.say(("text", self.words("quotients")))
            lines = []
            for j in self._entries(step, i):
                f = self.d.entry(step.id, i, j)
                assert isinstance(f, SoftmaxEntry)
                target = self.e(step.id, i, j)
                if f.numerator is None:
                    lines.append(rf"{target} &= 0")
                    continue
                num_name = self.e(f.numerator.matrix, f.numerator.row, f.numerator.col)
                num_value = next(x for r, x in f.row if r == f.numerator)
                rhs: Rhs = [("=", rf"\frac{{e^{{{num_name}}}}}{{{sigma}}}")]
                if not self.d.problem.symbolic:
                    rhs.append(("=", rf"\frac{{{exp_latex(num_value)}}}{{{sigma}}}"))
                lines.extend(_merge_value(chain(target, rhs), self._value(step, i, j)))
            self.show(lines)
            self._more(step)
        self._all_rows(step)
        if not self.d.problem.symbolic:
            self.blocks.append(_heatmap(step, self.digits, self.words("heatmap")))


def _plain_matrix(matrix: Any) -> str:
    r_idx, c_idx = _index(len(matrix)), _index(len(matrix[0]))

    def show(i: int, j: int) -> str:
        if i < 0:
            return r"\ddots" if j < 0 else r"\vdots"
        return r"\cdots" if j < 0 else latex_value(matrix[i][j])

    rows = [" & ".join(show(i, j) for j in c_idx) for i in r_idx]
    return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"


def _heatmap(step: Step, digits: int, caption: str) -> Heatmap:
    rows, cols = step.shape
    r_idx, c_idx = _index(rows), _index(cols)
    values, labels = [], []
    for i in r_idx:
        if i < 0:
            continue
        values.append(tuple(0.0 if j < 0 else float(step.float_value(i, j) or 0.0) for j in c_idx))
        labels.append(
            tuple("⋯" if j < 0 else (step.decimal_str(i, j, min(digits, 2)) or "") for j in c_idx)
        )
    row_names = tuple(
        (step.row_labels[i] if step.row_labels else str(i + 1)) for i in r_idx if i >= 0
    )
    col_names = tuple(
        "⋯" if j < 0 else (step.col_labels[j] if step.col_labels else str(j + 1)) for j in c_idx
    )
    return Heatmap(caption, row_names, col_names, tuple(values), tuple(labels))


def build_blocks(
    derivation: Derivation,
    notation: Notation,
    words: Words,
    rows: list[int] | None = None,
    digits: int = 4,
    heads_shown: list[int] | None = None,
) -> list[Block]:
    """The derivation as blocks, ready for the LaTeX or Markdown writer."""
    walk = _Walk(derivation, notation, words, [0] if rows is None else rows, digits, heads_shown)
    return walk.run()


def _t(name: str, transposed: bool) -> str:
    """``K^{\\top}``; a name with its own superscript is braced first: ``{W^{Q}}^{\\top}``."""
    if not transposed:
        return name
    return f"{{{name}}}^{{\\top}}" if "^" in name else f"{name}^{{\\top}}"


def _is_weighted_sum(step: Step) -> bool:
    """The step b_i = Σ_j a_ij v_j (of the single head, or of one head)."""
    return (
        step.kind == "product"
        and not step.transpose_left
        and split_id(step.operands[0])[1] == "weights"
    )


def step_blocks(
    derivation: Derivation,
    step_id: str,
    row: int,
    notation: Notation,
    words: Words,
    digits: int = 4,
) -> list[Block]:
    """One step written out for one row only (the feedback sheet derives a wrong entry)."""
    walk = _Walk(derivation, notation, words, [row], digits)
    step = derivation.step(step_id)
    getattr(walk, f"_{step.kind}")(step)
    return walk.blocks
