"""The terminal derivation: Unicode formulas, one step after another.

Each step shows its general formula; each entry of the chosen query rows is written
out — the formula, the numbers substituted in the order of the terms, the exact
value and its decimal — and the other rows appear as matrices.  Matrices larger than
the display limit are elided with ⋯ (never silently).
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from typing import Any

from ..exact import Combination, ExpRatio, NegInf, Surd, rational_value, round_half_away
from ..steps import Derivation as _Derivation
from ..steps import (
    DotEntry,
    EntryFormula,
    GivenEntry,
    JacobianEntry,
    LookupEntry,
    MaskEntry,
    Ref,
    ScaleEntry,
    SoftmaxEntry,
    Step,
    split_id,
)

__all__ = ["render_text"]

#: Matrices with more rows or columns than this are shown with ⋯.
DISPLAY_LIMIT = 8
#: Sums with more terms than this are shown with ⋯ in the middle.
TERM_LIMIT = 8
#: Symbolic values longer than this are left to the JSON output.
SYMBOLIC_VALUE_LIMIT = 60

_SQRT = re.compile(r"sqrt\((\d+)\)")
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

#: Entry names in the terminal: matrix id → letter.
ENTRY_NAMES = {
    "X": "x",
    "memory": "m",
    "W_Q": "wq",
    "W_K": "wk",
    "W_V": "wv",
    "Q": "q",
    "K": "k",
    "V": "v",
    "scores": "s",
    "scaled_scores": "s′",
    "masked_scores": "s̃",
    "weights": "a",
    "output": "b",
    "tokens": "id",
    "concat": "c",
    "W_O": "wo",
    "dO": "do",
    "dV": "dv",
    "dweights": "da",
    "dscaled_scores": "ds′",
    "dscores": "ds",
    "dQ": "dq",
    "dK": "dk",
    "dW_Q": "dwq",
    "dW_K": "dwk",
    "dW_V": "dwv",
    "dX": "dx",
    "dW_O": "dwo",
    "dconcat": "dc",
}


def sub(*indices: int) -> str:
    """1-based subscripts: ``sub(0, 1)`` is ``₁,₂``."""
    return ",".join(str(i + 1).translate(_SUB) for i in indices)


_SUPER = str.maketrans("0123456789()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾")


def ref_name(ref: Ref) -> str:
    """``q₁,₂``; a head's entries carry its number: ``q⁽²⁾₁,₂``."""
    head, base = split_id(ref.matrix)
    mark = f"({head})".translate(_SUPER) if head is not None else ""
    return f"{ENTRY_NAMES.get(base, base)}{mark}{sub(ref.row, ref.col)}"


def _number(value: Any, digits: int) -> str:
    """A substituted value: exact when short, else its decimal (a closed form)."""
    exact = rational_value(value)
    if exact is not None and not isinstance(value, Surd):
        return _paren(str(exact))
    if isinstance(value, (ExpRatio, Combination)) and exact is None:
        return _paren(round_half_away(value.to_decimal(30), digits))
    if not isinstance(value, (Surd, NegInf)) and not getattr(value, "free_symbols", True):
        text = pretty(value)  # a SymPy number (the backward pass): long forms as decimals
        if len(text) > 12:
            import sympy

            return _paren(round_half_away(Decimal(str(sympy.N(value, 30))), digits))
        return _paren(text)
    return _paren(pretty(value))


def pretty(value: Any) -> str:
    """Unicode form of an exact value: ``3√2/2``, ``e^(1/2)/(e^(1/2) + e²)``, ``−∞``."""
    if isinstance(value, NegInf):
        return "−∞"
    if isinstance(value, Surd):
        return value.pretty()
    if isinstance(value, ExpRatio):
        return _pretty_ratio(value)
    return _SQRT.sub(r"√\1", str(value)).replace("*", "·")


def _pretty_exp(x: Any) -> str:
    text = pretty(x)
    if text == "0":
        return "1"
    if text == "1":
        return "e"
    return f"e^{text}" if text.isdigit() else f"e^({text})"


def _pretty_ratio(r: ExpRatio) -> str:
    den = " + ".join(_pretty_exp(x) for x in r.exponents)
    parts = []
    for c, x in zip(r.coefs, r.exponents):
        c_text = pretty(c)
        if c_text == "0":
            continue
        e = _pretty_exp(x)
        parts.append(e if c_text == "1" else f"{_paren(c_text)}·{e}")
    if not parts:
        return "0"
    if len(r.exponents) == 1:
        return pretty(r.coefs[0])
    num = " + ".join(parts).replace("+ -", "− ")
    num = f"({num})" if len(parts) > 1 else num
    return f"{num} / ({den})"


def _paren(text: str) -> str:
    body = text[1:] if text.startswith("-") else text
    if text.startswith("-") or any(ch in body for ch in " +/"):
        return f"({text})"
    return text


def _elide(items: list[str], limit: int = TERM_LIMIT) -> list[str]:
    if len(items) <= limit:
        return items
    return [*items[:3], "⋯", *items[-2:]]


def _decimal_tail(step: Step, i: int, j: int, digits: int) -> str:
    dec = step.decimal_str(i, j, digits)
    if dec is None or isinstance(step.exact[i][j], NegInf):
        return ""
    if step.is_exact_decimal(i, j, digits):
        exact = rational_value(step.exact[i][j])
        if (
            exact is not None
            and exact.denominator == 1
            and not isinstance(step.exact[i][j], ExpRatio)
        ):
            return ""
        return f" = {dec}" if exact is None or exact.denominator != 1 else f" = {exact}"
    return f" ≈ {dec}"


def entry_line(d: _Derivation, f: EntryFormula, step: Step, digits: int) -> str:
    i, j = f.target.row, f.target.col
    name = ref_name(f.target)
    value = pretty(f.value)
    tail = _decimal_tail(step, i, j, digits)
    if d.problem.symbolic and not isinstance(f, (LookupEntry, GivenEntry)):
        return _symbolic_line(f, name, value)
    if isinstance(f, DotEntry):
        symbols = _elide([f"{ref_name(t.left)}·{ref_name(t.right)}" for t in f.terms])
        if _is_weighted_sum(step):
            numbers = _elide(
                [f"{ref_name(t.left)}·{_number(t.right_value, digits)}" for t in f.terms]
            )
        else:
            numbers = _elide(
                [
                    f"{_number(t.left_value, digits)}·{_number(t.right_value, digits)}"
                    for t in f.terms
                ]
            )
        head = f"{name} = "
        if split_id(step.id)[1] == "scores":
            q, k = (ref_name(Ref(m, 0, 0))[: -len(sub(0, 0))] for m in step.operands)
            head += f"{q}{sub(i)} · {k}{sub(j)} = "
        if isinstance(f.value, Combination) or len(value) > 40:  # its decimal says it
            return f"{head}{' + '.join(symbols)} = {' + '.join(numbers)}{tail}"
        return f"{head}{' + '.join(symbols)} = {' + '.join(numbers)} = {value}{tail}"
    if isinstance(f, ScaleEntry):
        label = "√d_k" if f.divisor_label == "sqrt(d_k)" else "c"
        shown = f" = {value}" if len(value) <= 40 else ""
        return (
            f"{name} = {ref_name(f.source)} / {label} = {_number(f.source_value, digits)} / "
            f"{_paren(pretty(f.divisor))}{shown}{tail}"
        )
    if isinstance(f, MaskEntry):
        if not f.allowed:
            return f"{name} = −∞   (masked: query {i + 1} may not attend to key {j + 1})"
        return f"{name} = {ref_name(f.source)} = {value}{tail}"
    if isinstance(f, SoftmaxEntry):
        if f.numerator is None:
            return f"{name} = 0   (masked key: exactly zero weight)"
        den_sym = " + ".join(_elide([f"exp({ref_name(r)})" for r, _ in f.row]))
        den_num = " + ".join(_elide([_pretty_exp(x) for _, x in f.row]))
        num_value = next(x for r, x in f.row if r == f.numerator)
        exact = f" = {_short(f.value)}" if _is_rational(f.value) else ""
        return (
            f"{name} = exp({ref_name(f.numerator)}) / ({den_sym}) = "
            f"{_pretty_exp(num_value)} / ({den_num}){exact}{tail}"
        )
    if isinstance(f, JacobianEntry):
        a_i, g_i = f.weights[f.column], f.upstream[f.column]
        inner_sym = " + ".join(
            _elide(
                [f"{ref_name(r)}·{ref_name(g)}" for (r, _), (g, _) in zip(f.weights, f.upstream)]
            )
        )
        inner_num = " + ".join(
            _elide(
                [
                    f"{_number(a, digits)}·{_number(g, digits)}"
                    for (_, a), (_, g) in zip(f.weights, f.upstream)
                ]
            )
        )
        return (
            f"{name} = {ref_name(a_i[0])}·({ref_name(g_i[0])} − ({inner_sym})) = "
            f"{_number(a_i[1], digits)}·({_number(g_i[1], digits)} − ({inner_num})){tail}"
        )
    if isinstance(f, (LookupEntry, GivenEntry)):
        if len(value) > 40:
            return f"{name}{tail}"
        return f"{name} = {value}{tail}"
    raise TypeError(f"no text form for {type(f).__name__}")


def _symbolic_line(f: EntryFormula, name: str, value: str) -> str:
    """Symbolic problems: the formula in entry names, and the value when it is short."""
    if isinstance(f, DotEntry):
        formula = " + ".join(_elide([f"{ref_name(t.left)}·{ref_name(t.right)}" for t in f.terms]))
        if f.target.matrix == "scores":
            formula = f"q{sub(f.target.row)} · k{sub(f.target.col)} = {formula}"
    elif isinstance(f, ScaleEntry):
        label = "√d_k" if f.divisor_label == "sqrt(d_k)" else "c"
        formula = f"{ref_name(f.source)} / {label}"
    elif isinstance(f, MaskEntry):
        formula = ref_name(f.source) if f.allowed else "−∞   (masked)"
    elif isinstance(f, SoftmaxEntry):
        if f.numerator is None:
            return f"{name} = 0   (masked key: exactly zero weight)"
        den = " + ".join(_elide([f"exp({ref_name(r)})" for r, _ in f.row]))
        formula = f"exp({ref_name(f.numerator)}) / ({den})"
    else:
        formula = value
    short = len(value) <= SYMBOLIC_VALUE_LIMIT and value != formula
    return f"{name} = {formula}" + (f" = {value}" if short else "")


def _matrix_lines(step: Step, digits: int, indent: str = "  ") -> list[str]:
    rows, cols = step.shape
    short = all(
        isinstance(e, (Surd, NegInf)) or (not isinstance(e, ExpRatio) and len(str(e)) <= 24)
        for row in step.exact
        for e in row
    )
    if short:
        cells = [[pretty(e) for e in row] for row in step.exact]
        label = f"{step.symbol} ="
    elif any(v is None for row in step.values for v in row):
        return [
            f"{indent}{step.symbol}: entries as written out above (symbolic; "
            "--format json has them all)"
        ]
    else:
        cells = [
            [
                _short(e) if _is_rational(e) else (step.decimal_str(i, j, digits) or pretty(e))
                for j, e in enumerate(row)
            ]
            for i, row in enumerate(step.exact)
        ]
        label = f"{step.symbol} ≈"
    row_idx = list(range(rows)) if rows <= DISPLAY_LIMIT else [0, 1, 2, -1, rows - 2, rows - 1]
    col_idx = list(range(cols)) if cols <= DISPLAY_LIMIT else [0, 1, 2, -1, cols - 2, cols - 1]

    def cell(i: int, j: int) -> str:
        return "⋯" if j < 0 else ("⋮" if i < 0 else cells[i][j])

    shown = [[cell(i, j) for j in col_idx] for i in row_idx]
    heads = ["⋯" if j < 0 else step.col_labels[j] for j in col_idx] if step.col_labels else None
    widths = [
        max([width(r[c]) for r in shown] + ([width(heads[c])] if heads else []))
        for c in range(len(col_idx))
    ]
    labels = [(step.row_labels[i] if step.row_labels and i >= 0 else "") for i in row_idx]
    label_width = max((width(x) for x in labels), default=0)
    lead = label_width + 1 if label_width else 0
    out = [f"{indent}{label}"]
    if heads:
        out.append(
            f"{indent}{' ' * lead}  " + "  ".join(rjust(h, w) for h, w in zip(heads, widths))
        )
    for lab, r in zip(labels, shown):
        prefix = f"{rjust(lab, label_width)} " if label_width else ""
        out.append(f"{indent}{prefix}[ " + "  ".join(rjust(c, w) for c, w in zip(r, widths)) + " ]")
    return out


def width(text: str) -> int:
    """Terminal columns of ``text``: CJK characters take two, combining marks none."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def rjust(text: str, columns: int) -> str:
    return " " * max(columns - width(text), 0) + text


def _is_rational(value: Any) -> bool:
    return rational_value(value) is not None


def _short(value: Any) -> str:
    """A rational entry as its fraction (``2``, ``-3/4``), whatever form it is held in."""
    exact = rational_value(value)
    return pretty(value) if exact is None else str(exact)


def _vector(values: list[str]) -> str:
    return "[" + ", ".join(_elide(values)) + "]"


def _step_lines(d: _Derivation, step: Step, rows: list[int], digits: int) -> list[str]:
    out: list[str] = []
    n_rows, n_cols = step.shape
    if step.id == "tokens":
        lookup = d.problem.lookup
        assert lookup is not None
        out.append(f"  text {lookup.text!r} → tokens " + " | ".join(lookup.tokens))
        out.extend(f"  {tok} → id {tid}" for tok, tid in zip(lookup.tokens, lookup.ids))
        return out
    if step.kind == "lookup":
        lookup = d.problem.lookup
        assert lookup is not None
        for i, (tok, tid) in enumerate(zip(lookup.tokens, lookup.ids)):
            row = _vector([pretty(e) for e in step.exact[i]])
            out.append(f"  x{sub(i)} = E[{tid}] (row {tid}, {tok}) = {row}")
        out.extend(_matrix_lines(step, digits))
        return out
    expand = [i for i in rows if i < n_rows] if step.kind != "given" else []
    for i in expand:
        label = f" ({step.row_labels[i]})" if step.row_labels else ""
        out.append(f"  row {i + 1}{label}:")
        shown_cols = list(range(min(n_cols, DISPLAY_LIMIT)))
        for j in shown_cols:
            out.append("    " + entry_line(d, d.entry(step.id, i, j), step, digits))
        if n_cols > len(shown_cols):
            out.append(
                f"    ⋯ ({n_cols - len(shown_cols)} more entries in this row; see the matrix below)"
            )
        if _is_weighted_sum(step):
            out.append("    " + _output_vector(d, step, i, digits))
        if step.kind == "jacobian":
            out.extend(_jacobian_lines(d.step(step.operands[0]), i, digits))
    out.extend(_matrix_lines(step, digits))
    if split_id(step.id)[1] == "weights" and not d.problem.symbolic:
        out.extend(heatmap_lines(step))
    return out


#: Shades from no attention to all of it.
SHADES = " ·░▒▓█"


def heatmap_lines(step: Step, indent: str = "  ") -> list[str]:
    """The weights as shaded blocks, darker for more attention, with token labels."""
    rows, cols = step.shape
    row_idx = list(range(rows)) if rows <= DISPLAY_LIMIT else [0, 1, 2, -1, rows - 2, rows - 1]
    col_idx = list(range(cols)) if cols <= DISPLAY_LIMIT else [0, 1, 2, -1, cols - 2, cols - 1]
    row_names = [
        "⋮" if i < 0 else (step.row_labels[i] if step.row_labels else str(i + 1)) for i in row_idx
    ]
    col_names = [
        "⋯" if j < 0 else (step.col_labels[j] if step.col_labels else str(j + 1)) for j in col_idx
    ]
    cell = max([4, *(width(c) for c in col_names)])
    lead = max(width(r) for r in row_names)
    top = max((step.float_value(i, j) or 0.0) for i in range(rows) for j in range(cols)) or 1.0
    out = [f"{indent}heatmap (darker = more attention; █ = the largest weight, {top:.2f}):"]
    out.append(indent + " " * (lead + 1) + " ".join(rjust(c, cell) for c in col_names))
    for i, name in zip(row_idx, row_names):
        cells = []
        for j in col_idx:
            if i < 0 or j < 0:
                cells.append(rjust("⋯" if i >= 0 else "⋮", cell))
                continue
            value = (step.float_value(i, j) or 0.0) / top
            shade = SHADES[min(len(SHADES) - 1, round(value * (len(SHADES) - 1)))]
            cells.append(shade * cell)
        out.append(f"{indent}{rjust(name, lead)} " + " ".join(cells))
    return out


def jacobian(weights: Step, i: int) -> list[list[Decimal]] | None:
    """J = diag(a_i) − a_i a_iᵀ of row i, from the weights' values (None when symbolic)."""
    row = weights.values[i]
    if any(a is None for a in row):
        return None
    a = [x for x in row if x is not None]
    return [
        [(x if j == k else Decimal(0)) - x * y for k, y in enumerate(a)] for j, x in enumerate(a)
    ]


def _jacobian_lines(weights: Step, i: int, digits: int) -> list[str]:
    matrix = jacobian(weights, i)
    if matrix is None:
        return []
    cells = [[round_half_away(x, digits) for x in row] for row in matrix]
    widths = [max(len(r[c]) for r in cells) for c in range(len(cells[0]))]
    out = [f"    J{sub(i)} = diag(a{sub(i)}) − a{sub(i)} a{sub(i)}ᵀ ≈"]
    out += ["      [ " + "  ".join(c.rjust(w) for c, w in zip(r, widths)) + " ]" for r in cells]
    return out


def _is_weighted_sum(step: Step) -> bool:
    """The step b_i = Σ_j a_ij v_j (of the single head, or of one head)."""
    return (
        step.kind == "product"
        and not step.transpose_left
        and split_id(step.operands[0])[1] == "weights"
    )


def _output_vector(d: _Derivation, step: Step, i: int, digits: int) -> str:
    weights, v = d.step(step.operands[0]), d.step(step.operands[1])
    terms, numbers = [], []
    v_name = ref_name(Ref(v.id, 0, 0))[: -len(sub(0, 0))]
    b_name = ref_name(Ref(step.id, 0, 0))[: -len(sub(0, 0))]
    for j in range(weights.shape[1]):
        terms.append(f"{ref_name(Ref(weights.id, i, j))} {v_name}{sub(j)}")
    if d.problem.symbolic:
        return f"{b_name}{sub(i)} = {' + '.join(_elide(terms))}"
    for j in range(weights.shape[1]):
        weight = weights.exact[i][j]
        a = _short(weight) if _is_rational(weight) else weights.decimal_str(i, j, digits)
        numbers.append(f"{a}·{_vector([pretty(e) for e in v.exact[j]])}")
    if all(_is_rational(e) for e in step.exact[i]):
        result, sign = [_short(e) for e in step.exact[i]], "="
    else:
        result = [
            _short(e) if _is_rational(e) else str(step.decimal_str(i, j, digits))
            for j, e in enumerate(step.exact[i])
        ]
        sign = "≈"
    return (
        f"{b_name}{sub(i)} = {' + '.join(_elide(terms))} = {' + '.join(_elide(numbers))} "
        f"{sign} {_vector(result)}"
    )


def render_text(
    derivation: _Derivation,
    rows: list[int] | None = None,
    digits: int = 4,
    heads_shown: list[int] | None = None,
) -> str:
    """The derivation for the terminal; ``rows`` are 0-based query rows to expand, and
    ``heads_shown`` (1-based) the heads whose rows are expanded (default: all)."""
    p = derivation.problem
    rows = [0] if rows is None else rows
    title = p.title or "Attention, step by step"
    out = [title, "=" * min(len(title) * 2, 72)]
    dims = [f"n = {p.n}", f"m = {p.m}"] if p.memory is not None else [f"n = {p.n}"]
    if p.d_model is not None:
        dims.append(f"d_model = {p.d_model}")
    dims += [f"d_k = {p.d_k}", f"d_v = {p.d_v}"]
    if p.heads > 1:
        dims.append(f"heads = {p.heads}")
    scale = {"sqrt(d_k)": f"√d_k = {pretty(p.scale)}", "none": "none"}.get(
        p.scale_label, pretty(p.scale)
    )
    out.append(f"{', '.join(dims)}; scale {scale}; mask {p.mask_label}")
    out.append("Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V")
    for name in ("W_Q", "W_K", "W_V"):
        given = getattr(p, name)
        if given is not None:
            out.append("")
            out.extend(_matrix_lines(_given_step(name, given), digits))
    for number, step in enumerate(derivation.steps, start=1):
        out.append("")
        out.append(f"Step {number}. {step.title}: {step.formula}")
        head = split_id(step.id)[0]
        expand = rows if head is None or heads_shown is None or head in heads_shown else []
        out.extend(_step_lines(derivation, step, expand, digits))
    out.append("")
    check = derivation.crosscheck
    if check is None:
        out.append("Cross-check: symbolic problem, no numbers to compare.")
    else:
        verdict = "passed" if check.passed else "FAILED"
        out.append(
            f"Cross-check against NumPy float64: {verdict} (max abs error "
            f"{check.max_abs_error:.1e}, max rel error {check.max_rel_error:.1e})"
        )
    return "\n".join(out) + "\n"


def _given_step(name: str, matrix: Any) -> Step:
    return Step(name, name, name, "given", matrix, tuple(tuple(None for _ in r) for r in matrix))
