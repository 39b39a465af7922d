"""Properties of attention that every derivation must satisfy, on random small problems.

Entries are small rationals (integers -3..3 and halves); n, m, d ≤ 4.  Example counts
are kept modest: CI has two cores.
"""

from __future__ import annotations

import contextlib
import warnings
from decimal import Decimal
from typing import Any

import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn

with warnings.catch_warnings():
    # Hypothesis imports libcst to write a patch of failing examples when a test fails;
    # libcst here warns (DeprecationWarning) on import, and under filterwarnings=error that
    # turns any property failure into a pytest INTERNALERROR.  Import it once, quietly.
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(ImportError):  # libcst absent: nothing to silence
        import hypothesis.extra._patching  # noqa: F401

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: -3 … 3 in steps of 1/2, written as a problem file would: 2, -1, "3/2", "-1/2".
entries = st.integers(-6, 6).map(lambda k: k // 2 if k % 2 == 0 else f"{k}/2")


def matrices(rows: int, cols: int) -> st.SearchStrategy[list[list[Any]]]:
    return st.lists(st.lists(entries, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


scales = st.sampled_from(["sqrt(d_k)", "none", 2, "1/2", "sqrt(3)"])


@st.composite
def qkv_problems(draw: st.DrawFn, max_n: int = 4, max_m: int = 4) -> dict[str, Any]:
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    d_k = draw(st.integers(1, 4))
    d_v = draw(st.integers(1, 4))
    return {
        "Q": draw(matrices(n, d_k)),
        "K": draw(matrices(m, d_k)),
        "V": draw(matrices(m, d_v)),
        "scale": draw(scales),
    }


@st.composite
def projected_problems(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 4))
    d_model = draw(st.integers(1, 4))
    d_k = draw(st.integers(1, 4))
    d_v = draw(st.integers(1, 4))
    return {
        "X": draw(matrices(n, d_model)),
        "W_Q": draw(matrices(d_model, d_k)),
        "W_K": draw(matrices(d_model, d_k)),
        "W_V": draw(matrices(d_model, d_v)),
        "scale": draw(scales),
    }


@st.composite
def masks(draw: st.DrawFn, n: int, m: int) -> list[list[int]]:
    """A random n × m 0/1 mask whose every row keeps at least one key."""
    rows = []
    for _ in range(n):
        row = draw(st.lists(st.integers(0, 1), min_size=m, max_size=m))
        if not any(row):
            row[draw(st.integers(0, m - 1))] = 1
        rows.append(row)
    return rows


@st.composite
def masked_problems(draw: st.DrawFn) -> dict[str, Any]:
    problem = draw(st.one_of(qkv_problems(), projected_problems()))
    n = len(problem["Q"] if "Q" in problem else problem["X"])
    m = len(problem["K"]) if "K" in problem else n
    problem["mask"] = draw(masks(n, m))
    return problem


def table(derivation: symattn.Derivation, step_id: str) -> list[list[str]]:
    step = derivation.step(step_id)
    rows, cols = step.shape
    return [[step.exact_str(i, j) for j in range(cols)] for i in range(rows)]


def value50(text: str) -> Decimal:
    return Decimal(str(sympy.N(sympy.sympify(text), 50)))


# (1) every row of weights sums to exactly 1 ---------------------------------------------


@given(st.one_of(qkv_problems(max_n=3, max_m=3), masked_problems()))
@PROPERTY
def test_weight_rows_sum_to_exactly_one(problem: dict[str, Any]) -> None:
    d = symattn.derive(problem, crosscheck=False)
    for row in table(d, "weights")[:3]:
        total = sympy.Add(*(sympy.sympify(text) for text in row))
        assert sympy.simplify(sympy.together(total) - 1) == 0, row


# (2) permuting keys and values together leaves the output unchanged ----------------------


@given(st.data())
@PROPERTY
def test_permuting_keys_and_values_leaves_output_unchanged(data: st.DataObject) -> None:
    problem = data.draw(qkv_problems())
    m = len(problem["K"])
    perm = data.draw(st.permutations(range(m)))
    permuted = {
        **problem,
        "K": [problem["K"][p] for p in perm],
        "V": [problem["V"][p] for p in perm],
    }
    before = symattn.derive(problem, crosscheck=False)
    after = symattn.derive(permuted, crosscheck=False)
    # scores and weights are permuted column-wise, the output not at all
    for step_id in ("scores", "weights"):
        t0, t1 = table(before, step_id), table(after, step_id)
        for i, row in enumerate(t1):
            for j, text in enumerate(row):
                if step_id == "scores":
                    assert text == t0[i][perm[j]]
                else:
                    assert sympy.sympify(text) == sympy.sympify(t0[i][perm[j]])
    for a_row, b_row in zip(table(before, "output"), table(after, "output")):
        for a, b in zip(a_row, b_row):
            ea, eb = sympy.sympify(a), sympy.sympify(b)
            if ea != eb:  # not the same canonical SymPy expression: compare at 50 digits
                va, vb = value50(a), value50(b)
                assert abs(va - vb) <= Decimal("1e-40") * max(Decimal(1), abs(va)), (a, b)


# (3) the exact path and NumPy agree --------------------------------------------------------


@given(st.one_of(qkv_problems(), projected_problems(), masked_problems()))
@PROPERTY
def test_exact_and_numpy_agree(problem: dict[str, Any]) -> None:
    d = symattn.derive(problem)
    assert d.crosscheck is not None
    assert d.crosscheck.passed, (problem, d.crosscheck)
    assert d.crosscheck.max_rel_error <= 1e-12


# (4) masked weights are exactly zero ---------------------------------------------------------


@given(masked_problems())
@PROPERTY
def test_masked_weights_are_exactly_zero(problem: dict[str, Any]) -> None:
    d = symattn.derive(problem)
    weights, masked = table(d, "weights"), table(d, "masked_scores")
    for i, mask_row in enumerate(problem["mask"]):
        for j, allowed in enumerate(mask_row):
            if allowed:
                assert masked[i][j] != "-oo"
                assert weights[i][j] != "0"
                assert sympy.N(sympy.sympify(weights[i][j]), 30) > 0
            else:
                assert masked[i][j] == "-oo"
                assert weights[i][j] == "0"
                assert d.step("weights").decimal_str(i, j, 4) == "0.0000"
        if sum(mask_row) == 1:  # one key left: its weight is exactly 1, the output is its value
            j = mask_row.index(1)
            assert weights[i][j] == "1"
    assert d.crosscheck is not None and d.crosscheck.passed
