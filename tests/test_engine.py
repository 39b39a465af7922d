"""The exact pipeline (engine.py via symattn.derive), checked against SymPy computed here.

The reference below builds SymPy matrices of Rationals (and sqrt's) itself, with
Q = X W_Q, S = Q Kᵀ, weights exp(s)/Σ exp and so on, and never calls symattn.
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy

import symattn
from symattn.entries import DotEntry, MaskEntry, Ref, ScaleEntry, SoftmaxEntry
from symattn.printing import sstr
from symattn.render.json_out import dumps, render_json
from symattn.words import words

EXAMPLES = Path(symattn.__file__).resolve().parent / "examples"

#: X with W's: 3 tokens, d_model = 3, d_k = 2, d_v = 2, fractions included.
BASE: dict[str, Any] = {
    "X": [[1, 0, 1], [0, 2, "1/2"], [-1, 1, 0]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
}


# -- an independent SymPy reference --------------------------------------------------


def to_sympy(value: Any) -> sympy.Expr:
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, (float, Decimal)):
        return sympy.Rational(str(value))
    return sympy.sympify(value)  # our own test input, never user text


def sym_matrix(rows: list[list[Any]]) -> sympy.Matrix:
    return sympy.Matrix([[to_sympy(v) for v in row] for row in rows])


def reference(problem: dict[str, Any]) -> dict[str, sympy.Matrix]:
    """Every step of SPEC §1, computed with SymPy from the problem dict."""
    out: dict[str, sympy.Matrix] = {}
    if "Q" in problem:
        q, k, v = (sym_matrix(problem[name]) for name in ("Q", "K", "V"))
    else:
        x = sym_matrix(problem["X"])
        kv = sym_matrix(problem["memory"]) if "memory" in problem else x
        out["X"] = x
        q = x * sym_matrix(problem["W_Q"])
        k = kv * sym_matrix(problem["W_K"])
        v = kv * sym_matrix(problem["W_V"])
    out["Q"], out["K"], out["V"] = q, k, v
    scores = q * k.T
    out["scores"] = scores
    scale = problem.get("scale", "sqrt(d_k)")
    if scale != "none":
        c = sympy.sqrt(q.shape[1]) if scale == "sqrt(d_k)" else to_sympy(scale)
        scores = scores.applyfunc(lambda s: s / c)
        out["scaled_scores"] = scores
    n, m = scores.shape
    mask = problem.get("mask", "none")
    if mask == "causal":
        allowed = [[j <= i for j in range(m)] for i in range(n)]
    elif mask == "none":
        allowed = [[True] * m for _ in range(n)]
    else:
        allowed = [[bool(a) for a in row] for row in mask]
    if mask != "none":
        scores = sympy.Matrix(n, m, lambda i, j: scores[i, j] if allowed[i][j] else -sympy.oo)
        out["masked_scores"] = scores

    def weight(i: int, j: int) -> sympy.Expr:
        if not allowed[i][j]:
            return sympy.Integer(0)
        den = sympy.Add(*(sympy.exp(scores[i, t]) for t in range(m) if allowed[i][t]))
        return sympy.exp(scores[i, j]) / den

    weights = sympy.Matrix(n, m, weight)
    out["weights"] = weights
    out["output"] = weights * v
    return out


def n50(expr: sympy.Expr) -> Decimal:
    return Decimal(str(sympy.N(expr, 60)))


def same_value(text: str, want: sympy.Expr) -> bool:
    """``text`` (an exact string) read back by sympify is the value ``want``."""
    got = sympy.sympify(text)
    if want in (sympy.oo, -sympy.oo):
        return got == want
    if not got.has(sympy.exp) and not want.has(sympy.exp):
        return sympy.simplify(got - want) == 0
    scale = max(Decimal(1), abs(n50(want)))
    return abs(n50(got - want)) <= Decimal("1e-45") * scale


def rounded(want: sympy.Expr, digits: int) -> str:
    """``want`` to ``digits`` places, half away from zero, computed without symattn."""
    quantum = Decimal(1).scaleb(-digits)
    with localcontext() as ctx:
        ctx.prec = 100
        if want.is_Rational:  # exact: ties must round away from zero
            value = Decimal(int(want.p)) / Decimal(int(want.q))
            if Fraction(int(want.p), int(want.q)) != Fraction(value):
                value = Decimal(str(sympy.N(want, 80)))
        else:
            value = Decimal(str(sympy.N(want, 80)))
        text = str(value.quantize(quantum, rounding=ROUND_HALF_UP))
    return text[1:] if text.startswith("-") and Decimal(text) == 0 else text


def exact_table(derivation: symattn.Derivation, step_id: str) -> list[list[str]]:
    step = derivation.step(step_id)
    rows, cols = step.shape
    return [[step.exact_str(i, j) for j in range(cols)] for i in range(rows)]


def assert_matches_reference(problem: dict[str, Any], digits: int = 4) -> symattn.Derivation:
    derivation = symattn.derive(problem, digits=digits)
    ref = reference(problem)
    for step_id, want in ref.items():
        step = derivation.step(step_id)
        assert step.shape == want.shape, step_id
        for i in range(want.rows):
            for j in range(want.cols):
                text = step.exact_str(i, j)
                assert same_value(text, want[i, j]), (step_id, i, j, text, want[i, j])
                if want[i, j] == -sympy.oo:
                    continue
                got_decimal = step.decimal_str(i, j, digits)
                assert got_decimal == rounded(want[i, j], digits), (step_id, i, j, got_decimal)
    return derivation


# -- step order (SPEC §3) -------------------------------------------------------------


def test_steps_in_spec_order_with_projections() -> None:
    d = symattn.derive(BASE)
    assert d.step_ids == ("X", "Q", "K", "V", "scores", "scaled_scores", "weights", "output")


def test_steps_without_scaling() -> None:
    d = symattn.derive({**BASE, "scale": "none"})
    assert d.step_ids == ("X", "Q", "K", "V", "scores", "weights", "output")


@pytest.mark.parametrize("mask", ["causal", [[1, 0, 1], [0, 1, 0], [1, 1, 1]]])
def test_steps_with_a_mask(mask: Any) -> None:
    d = symattn.derive({**BASE, "mask": mask})
    assert d.step_ids == (
        "X",
        "Q",
        "K",
        "V",
        "scores",
        "scaled_scores",
        "masked_scores",
        "weights",
        "output",
    )
    d = symattn.derive({**BASE, "mask": mask, "scale": "none"})
    assert d.step_ids == ("X", "Q", "K", "V", "scores", "masked_scores", "weights", "output")


def test_steps_with_q_k_v_given() -> None:
    d = symattn.derive({"Q": [[1, 2]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
    assert d.step_ids == ("Q", "K", "V", "scores", "scaled_scores", "weights", "output")


def test_tokens_step_only_with_text_and_vocab() -> None:
    d = symattn.derive(EXAMPLES / "seed.toml")
    assert d.step_ids == (
        "tokens",
        "X",
        "Q",
        "K",
        "V",
        "scores",
        "scaled_scores",
        "weights",
        "output",
    )
    assert exact_table(d, "tokens") == [["1"], ["2"]]  # 我 → 1, 爱 → 2
    assert exact_table(d, "X") == [["1", "0", "1", "0"], ["0", "2", "0", "1"]]
    assert "tokens" not in symattn.derive({**BASE, "tokens": ["a", "b", "c"]}).step_ids


def test_tokens_with_a_table_vocabulary() -> None:
    d = symattn.derive(EXAMPLES / "apple.toml")
    assert d.step_ids[:2] == ("tokens", "X")
    assert exact_table(d, "tokens") == [["1"], ["2"], ["1024"]]
    assert exact_table(d, "X")[2] == ["1/10", "-1/2", "9/10", "1/5"]


# -- exact values against the SymPy reference -----------------------------------------


@pytest.mark.parametrize(
    "problem",
    [
        BASE,
        {**BASE, "scale": "none"},
        {**BASE, "scale": 2},
        {**BASE, "scale": "1/2"},
        {**BASE, "scale": "sqrt(3)"},
        {**BASE, "mask": "causal"},
        {**BASE, "mask": [[0, 1, 1], [1, 0, 0], [1, 1, 0]]},
        {
            "Q": [["sqrt(2)", 1], [0, "-1/2"]],
            "K": [[1, 1], [0, "sqrt(3)"], ["1/3", -2]],
            "V": [[1, "-1/2"], ["sqrt(2)", 0], [3, 1]],
        },
        {
            "X": [[1, 0], [0, 1]],
            "memory": [[1, 1], [2, 0], [0, "-1/2"]],
            "W_Q": [[1, 0, 1], [0, 1, 1]],
            "W_K": [[1, 1, 0], [0, 1, 1]],
            "W_V": [[1], [2]],
        },
    ],
    ids=[
        "base",
        "no-scale",
        "scale-2",
        "scale-half",
        "scale-sqrt3",
        "causal",
        "explicit-mask",
        "surds",
        "cross-attention",
    ],
)
def test_every_step_matches_sympy(problem: dict[str, Any]) -> None:
    assert_matches_reference(problem)


@pytest.mark.parametrize("name", ["seed", "apple", "lecture4"])
def test_examples_match_sympy(name: str) -> None:
    d = symattn.derive(EXAMPLES / f"{name}.toml")
    # Rebuild the problem from the derivation's own X and W's (the lookup is tested above).
    problem = d.problem
    as_text = {
        key: [[sstr(v) for v in row] for row in getattr(problem, key)]
        for key in ("X", "W_Q", "W_K", "W_V")
    }
    assert exact_table(d, "X") == as_text["X"]
    ref = reference(as_text)
    for step_id, want in ref.items():
        for i in range(want.rows):
            for j in range(want.cols):
                assert same_value(d.step(step_id).exact_str(i, j), want[i, j]), (step_id, i, j)
    assert d.crosscheck is not None and d.crosscheck.passed


def test_decimal_input_is_exact() -> None:
    # 0.1 + 0.2 - 0.3 is exactly 0; decimals in a TOML/JSON file are read as Decimal.
    problem = {
        "X": [[Decimal("0.1"), Decimal("0.2"), Decimal("-0.3")]],
        "W_Q": [[1], [1], [1]],
        "W_K": [[1], [1], [1]],
        "W_V": [[1], [1], [1]],
    }
    d = assert_matches_reference(problem)
    assert exact_table(d, "Q") == [["0"]]
    assert exact_table(d, "X") == [["1/10", "1/5", "-3/10"]]


def test_scaled_scores_keep_one_over_sqrt_dk_visible() -> None:
    # score 3 with d_k = 2: 3/√2 = 3*sqrt(2)/2
    d = symattn.derive({"Q": [[1, 1]], "K": [[1, 2], [0, 0]], "V": [[1], [0]]})
    assert exact_table(d, "scores") == [["3", "0"]]
    assert exact_table(d, "scaled_scores") == [["3*sqrt(2)/2", "0"]]
    assert sympy.sympify("3*sqrt(2)/2") == 3 / sympy.sqrt(2)


def test_weights_and_output_stay_in_closed_form() -> None:
    d = symattn.derive(BASE)
    for step_id in ("weights", "output"):
        for row in exact_table(d, step_id):
            for text in row:
                assert "exp(" in text, (step_id, text)
                assert not sympy.sympify(text).is_Rational  # not collapsed to a number
    w = exact_table(d, "weights")
    # each row: exp(s_ij) / (Σ_k exp(s_ik)) with one shared denominator
    for row in w:
        dens = {text.split("/(", 1)[1] for text in row}
        assert len(dens) == 1


def test_exact_strings_are_sympy_str_syntax() -> None:
    d = symattn.derive({**BASE, "mask": "causal"})
    for step in d:
        rows, cols = step.shape
        for i in range(rows):
            for j in range(cols):
                text = step.exact_str(i, j)
                expr = sympy.sympify(text)  # parses
                # SymPy reads its own output back: re-printing and re-reading is stable
                assert sympy.sympify(str(expr)) == expr
                assert "√" not in text and "·" not in text and "^" not in text


# -- masks ---------------------------------------------------------------------------


def test_causal_mask_gives_exact_zero_and_minus_oo() -> None:
    d = assert_matches_reference({**BASE, "mask": "causal"})
    masked = exact_table(d, "masked_scores")
    weights = exact_table(d, "weights")
    for i in range(3):
        for j in range(3):
            if j > i:
                assert masked[i][j] == "-oo"
                assert weights[i][j] == "0"
                assert d.step("weights").decimal_str(i, j, 4) == "0.0000"
            else:
                assert masked[i][j] != "-oo"
                assert weights[i][j] != "0"
    # query 1 sees only key 1: its weight is exactly 1 and its output is v_1
    assert weights[0][0] == "1"
    assert exact_table(d, "output")[0] == exact_table(d, "V")[0]


def test_explicit_mask_gives_exact_zero_and_minus_oo() -> None:
    mask = [[0, 1, 1], [1, 0, 0], [1, 1, 0]]
    d = assert_matches_reference({**BASE, "mask": mask})
    masked, weights = exact_table(d, "masked_scores"), exact_table(d, "weights")
    for i, row in enumerate(mask):
        for j, allowed in enumerate(row):
            assert (masked[i][j] == "-oo") == (not allowed)
            assert (weights[i][j] == "0") == (not allowed)
            if not allowed:
                assert sympy.sympify(masked[i][j]) == -sympy.oo
    assert d.step("masked_scores").float_value(0, 0) is None  # JSON-safe: no -inf float


# -- decimals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"), [("1/8", "0.13"), ("-1/8", "-0.13"), ("3/8", "0.38"), ("-5/8", "-0.63")]
)
def test_decimal_ties_round_half_away_from_zero(value: str, text: str) -> None:
    problem = {"X": [[value, 0]], "W_Q": [[1], [0]], "W_K": [[1], [0]], "W_V": [[1], [0]]}
    d = symattn.derive(problem, digits=2)
    for step_id in ("X", "Q", "K", "V"):
        assert d.step(step_id).decimal_str(0, 0, 2) == text
    payload = render_json(d, words("en"), 2)
    x_step = next(s for s in payload["steps"] if s["id"] == "X")
    assert x_step["decimal"][0][0] == text


@pytest.mark.parametrize(
    ("v", "digits"),
    [
        (["1/8", "1/8", "1/8"], 2),  # output (3/8)/3 = 1/8 → 0.13
        (["-1", "-1", "-1/4"], 1),  # output (-9/4)/3 = -3/4 → -0.8
        (["1/4", "1/8", "0"], 2),  # output (3/8)/3 = 1/8 → 0.13
        (["0", "1/4", "1/2"], 1),  # output (3/4)/3 = 1/4 → 0.3
    ],
)
def test_rational_output_ties_round_half_away(v: list[str], digits: int) -> None:
    # Equal scores make every weight 1/3, so the output is the mean of V: a rational number
    # whose decimal may be an exact tie.  Every digit shown must be correct.
    problem = {"Q": [[0]], "K": [[0], [0], [0]], "V": [[x] for x in v]}
    d = symattn.derive(problem, digits=digits)
    exact = sum((Fraction(x) for x in v), Fraction(0)) / 3
    assert sympy.sympify(d.step("output").exact_str(0, 0)) == sympy.Rational(
        exact.numerator, exact.denominator
    )
    want = rounded(sympy.Rational(exact.numerator, exact.denominator), digits)
    assert d.step("output").decimal_str(0, 0, digits) == want


def test_digits_ten_of_weights_match_sympy_at_30_digits() -> None:
    d = symattn.derive(EXAMPLES / "lecture4.toml", digits=10)
    weights = d.step("weights")
    rows, cols = weights.shape
    for i in range(rows):
        for j in range(cols):
            value = Decimal(str(sympy.N(sympy.sympify(weights.exact_str(i, j)), 30)))
            want = str(value.quantize(Decimal("1e-10"), rounding=ROUND_HALF_UP))
            assert weights.decimal_str(i, j, 10) == want
    payload = render_json(d, words("en"), 10)
    w_json = next(s for s in payload["steps"] if s["id"] == "weights")
    assert all(len(x.split(".")[1]) == 10 for row in w_json["decimal"] for x in row)


@pytest.mark.parametrize("digits", [0, 1, 4, 7])
def test_decimal_places_follow_digits(digits: int) -> None:
    d = symattn.derive(BASE, digits=digits)
    for step in d:
        rows, cols = step.shape
        for i in range(rows):
            for j in range(cols):
                text = step.decimal_str(i, j, digits)
                assert text is not None
                if digits:
                    assert len(text.split(".")[1]) == digits
                else:
                    assert "." not in text


# -- large scores --------------------------------------------------------------------


def test_scores_near_1000_give_finite_weights() -> None:
    problem = {
        "X": [[30, 10], [10, 30], [-30, -10]],
        "W_Q": [[1, 0], [0, 1]],
        "W_K": [[1, 0], [0, 1]],
        "W_V": [[1, 0], [0, 1]],
        "scale": "none",
    }
    d = assert_matches_reference(problem)
    assert exact_table(d, "scores")[0] == ["1000", "600", "-1000"]
    for step_id in ("weights", "output"):
        step = d.step(step_id)
        for i in range(3):
            for j in range(2):
                text = step.decimal_str(i, j, 4)
                assert text is not None and Decimal(text).is_finite()
                value = step.float_value(i, j)
                assert value is not None and value == value
    assert d.step("weights").decimal_str(0, 0, 4) == "1.0000"
    assert d.crosscheck is not None and d.crosscheck.passed


# -- per-entry formulas ----------------------------------------------------------------


def test_score_entry_is_a_dot_product_of_q_and_k_rows() -> None:
    problem = {"Q": [[1, 0, 2], [3, 1, 0]], "K": [[0, 1, 1], [5, 7, 0]], "V": [[1], [2]]}
    d = symattn.derive(problem)
    entry = d.entry("scores", 0, 1)
    assert isinstance(entry, DotEntry)
    assert entry.target == Ref("scores", 0, 1)
    assert [t.left for t in entry.terms] == [Ref("Q", 0, k) for k in range(3)]
    assert [t.right for t in entry.terms] == [Ref("K", 1, k) for k in range(3)]
    assert [sstr(t.left_value) for t in entry.terms] == ["1", "0", "2"]
    assert [sstr(t.right_value) for t in entry.terms] == ["5", "7", "0"]
    assert len(entry.terms) == 3  # 1·5 + 0·7 + 2·0: zero terms kept
    total = sum(
        (
            sympy.sympify(sstr(t.left_value)) * sympy.sympify(sstr(t.right_value))
            for t in entry.terms
        ),
        sympy.Integer(0),
    )
    assert total == sympy.sympify(sstr(entry.value)) == 5


def test_projection_entry_is_a_dot_product_of_x_row_and_w_column() -> None:
    d = symattn.derive(BASE)
    entry = d.entry("Q", 1, 0)
    assert isinstance(entry, DotEntry)
    assert [t.left for t in entry.terms] == [Ref("X", 1, k) for k in range(3)]
    assert [t.right for t in entry.terms] == [Ref("W_Q", k, 0) for k in range(3)]
    assert [sstr(t.left_value) for t in entry.terms] == ["0", "2", "1/2"]
    assert [sstr(t.right_value) for t in entry.terms] == ["1", "0", "1"]
    assert sstr(entry.value) == "1/2"
    out = d.entry("output", 0, 1)
    assert isinstance(out, DotEntry)
    assert [t.left for t in out.terms] == [Ref("weights", 0, k) for k in range(3)]
    assert [t.right for t in out.terms] == [Ref("V", k, 1) for k in range(3)]


def test_scale_mask_and_softmax_entries() -> None:
    d = symattn.derive({**BASE, "mask": "causal"})
    scale = d.entry("scaled_scores", 1, 0)
    assert isinstance(scale, ScaleEntry)
    assert scale.source == Ref("scores", 1, 0)
    assert sympy.sympify(sstr(scale.value)) == sympy.sympify(sstr(scale.source_value)) / sympy.sqrt(
        2
    )
    masked = d.entry("masked_scores", 0, 2)
    assert isinstance(masked, MaskEntry) and not masked.allowed
    assert sstr(masked.value) == "-oo"
    kept = d.entry("masked_scores", 2, 1)
    assert isinstance(kept, MaskEntry) and kept.allowed
    soft = d.entry("weights", 1, 0)
    assert isinstance(soft, SoftmaxEntry)
    assert soft.numerator == Ref("masked_scores", 1, 0)
    assert [ref for ref, _ in soft.row] == [Ref("masked_scores", 1, 0), Ref("masked_scores", 1, 1)]
    zero = d.entry("weights", 0, 1)
    assert isinstance(zero, SoftmaxEntry) and zero.numerator is None
    assert sstr(zero.value) == "0"


def test_entry_out_of_range_is_an_error() -> None:
    d = symattn.derive(BASE)
    with pytest.raises(symattn.SymattnError):
        d.entry("scores", 3, 0)
    with pytest.raises(symattn.SymattnError):
        d.step("masked_scores")


# -- fully symbolic problems ----------------------------------------------------------

SYMBOLIC: dict[str, Any] = {
    "X": {"symbol": "x", "shape": [2, 2]},
    "W_Q": {"symbol": "q", "shape": [2, 2]},
    "W_K": {"symbol": "k", "shape": [2, 2]},
    "W_V": {"symbol": "v", "shape": [2, 2]},
}


def generic(name: str, rows: int, cols: int) -> sympy.Matrix:
    return sympy.Matrix(rows, cols, lambda i, j: sympy.Symbol(f"{name}_{i + 1}{j + 1}"))


def test_symbolic_problem_gives_general_formulas() -> None:
    d = symattn.derive(SYMBOLIC)
    assert d.step_ids == ("X", "Q", "K", "V", "scores", "scaled_scores", "weights", "output")
    x = generic("x", 2, 2)
    q, k, v = x * generic("q", 2, 2), x * generic("k", 2, 2), x * generic("v", 2, 2)
    s = (q * k.T) / sympy.sqrt(2)
    weights = sympy.Matrix(
        2, 2, lambda i, j: sympy.exp(s[i, j]) / (sympy.exp(s[i, 0]) + sympy.exp(s[i, 1]))
    )
    want = {
        "X": x,
        "Q": q,
        "K": k,
        "V": v,
        "scores": q * k.T,
        "scaled_scores": s,
        "weights": weights,
        "output": weights * v,
    }
    # a random rational point at which to compare the exp() forms
    point = {
        sym: sympy.Rational((7 * idx) % 11 - 5, 3)
        for idx, sym in enumerate(
            sorted(
                x.free_symbols
                | generic("q", 2, 2).free_symbols
                | generic("k", 2, 2).free_symbols
                | generic("v", 2, 2).free_symbols,
                key=str,
            )
        )
    }
    for step_id, matrix in want.items():
        for i in range(2):
            for j in range(2):
                text = d.step(step_id).exact_str(i, j)
                got = sympy.sympify(text)
                assert got.free_symbols, (step_id, text)
                if step_id in ("weights", "output"):
                    assert "exp(" in text
                    diff = sympy.N((got - matrix[i, j]).subs(point), 50)
                    assert abs(diff) < sympy.Float("1e-40")
                else:
                    assert sympy.expand(got - matrix[i, j]) == 0, (step_id, text)
                assert d.step(step_id).decimal_str(i, j, 4) is None
                assert d.step(step_id).float_value(i, j) is None
    assert "sqrt(2)" in d.step("scaled_scores").exact_str(0, 0)
    assert d.crosscheck is None


def test_symbolic_json_has_no_numbers() -> None:
    d = symattn.derive(EXAMPLES / "symbolic.toml")
    payload = json.loads(dumps(render_json(d, words("en"), 4)))
    assert payload["crosscheck"]["passed"] is None
    for step in payload["steps"]:
        assert all(x is None for row in step["decimal"] for x in row)
        assert all(x is None for row in step["float"] for x in row)
        for row in step["exact"]:
            for text in row:
                sympy.sympify(text)


# -- the JSON object of SPEC §3 -------------------------------------------------------


def test_json_object_shape_and_contents() -> None:
    d = symattn.derive({**BASE, "mask": "causal"}, digits=3)
    payload = json.loads(dumps(render_json(d, words("en"), 3)))
    assert payload["symattn_version"] == symattn.__version__
    assert payload["shapes"] == {"n": 3, "m": 3, "d_model": 3, "d_k": 2, "d_v": 2, "heads": 1}
    assert [s["id"] for s in payload["steps"]] == list(d.step_ids)
    ref = reference({**BASE, "mask": "causal"})
    for step in payload["steps"]:
        for key in ("id", "title", "formula", "exact", "decimal", "float"):
            assert key in step
        want = ref[step["id"]]
        for i in range(want.rows):
            for j in range(want.cols):
                assert same_value(step["exact"][i][j], want[i, j])
                if want[i, j] == -sympy.oo:
                    assert step["float"][i][j] is None
                    continue
                assert step["decimal"][i][j] == rounded(want[i, j], 3)
                assert step["float"][i][j] == pytest.approx(
                    float(want[i, j]), rel=1e-15, abs=1e-300
                )
    check = payload["crosscheck"]
    assert check["passed"] is True
    assert 0 <= check["max_rel_error"] <= 1e-12
    assert check["max_abs_error"] >= 0
