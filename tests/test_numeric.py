"""The NumPy path (numeric.forward) and the cross-check against the exact derivation."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

import symattn
from symattn.compute import crosscheck, exact, forward, numeric
from symattn.derivation import Derivation
from symattn.numbers import Surd

BASE: dict[str, Any] = {
    "X": [[1, 0, 1], [0, 2, "1/2"], [-1, 1, 0]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
}

#: X entries up to 30, no scaling: scores of ±1000.
LARGE: dict[str, Any] = {
    "X": [[30, 10], [10, 30], [-30, -10]],
    "W_Q": [[1, 0], [0, 1]],
    "W_K": [[1, 0], [0, 1]],
    "W_V": [[1, 0], [0, 1]],
    "scale": "none",
}


def floats(rows: list[list[Any]]) -> np.ndarray:
    from fractions import Fraction

    return np.array([[float(Fraction(str(v))) for v in row] for row in rows], dtype=np.float64)


def naive_reference(problem: dict[str, Any]) -> dict[str, np.ndarray]:
    """A plain float64 attention written here (rational inputs only)."""
    x = floats(problem["X"])
    q, k, v = (x @ floats(problem[w]) for w in ("W_Q", "W_K", "W_V"))
    s = q @ k.T
    if problem.get("scale", "sqrt(d_k)") == "sqrt(d_k)":
        s = s / np.sqrt(q.shape[1])
    mask = problem.get("mask", "none")
    if mask == "causal":
        s = np.where(np.tril(np.ones(s.shape, dtype=bool)), s, -np.inf)
    elif mask != "none":
        s = np.where(np.array(mask, dtype=bool), s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return {"Q": q, "K": k, "V": v, "weights": w, "output": w @ v}


# -- the float64 path ------------------------------------------------------------------


@pytest.mark.parametrize("mask", ["none", "causal", [[1, 0, 1], [0, 1, 0], [1, 1, 1]]])
def test_forward_is_float64_attention(mask: Any) -> None:
    problem = {**BASE, "mask": mask}
    out = numeric.forward(symattn.load(problem))
    want = naive_reference(problem)
    for key, (values, magnitude) in out.items():
        assert values.dtype == np.float64, key
        assert magnitude.dtype == np.float64, key
        assert values.shape == magnitude.shape
    for key, expected in want.items():
        np.testing.assert_allclose(out[key][0], expected, rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(out["weights"][0].sum(axis=1), 1.0, rtol=1e-15)


def test_forward_masks_are_minus_inf_and_weights_zero() -> None:
    mask = [[1, 0, 1], [0, 1, 0], [1, 1, 1]]
    out = numeric.forward(symattn.load({**BASE, "mask": mask}))
    masked, _ = out["masked_scores"]
    weights, _ = out["weights"]
    allowed = np.array(mask, dtype=bool)
    assert np.all(np.isneginf(masked[~allowed]))
    assert np.all(np.isfinite(masked[allowed]))
    assert np.all(weights[~allowed] == 0.0)
    assert np.all(weights[allowed] > 0.0)


def test_forward_softmax_is_stable_for_large_scores() -> None:
    out = numeric.forward(symattn.load(LARGE))
    scores, _ = out["scores"]
    assert scores[0, 0] == 1000.0 and scores[2, 0] == -1000.0
    weights, _ = out["weights"]
    assert np.all(np.isfinite(weights))
    assert weights[0, 0] == 1.0  # e^1000 / (e^1000 + e^600 + e^-1000)
    assert weights[2, 2] == 1.0
    assert np.all(np.isfinite(out["output"][0]))


def test_forward_softmax_is_stable_for_very_negative_scores() -> None:
    # scores -1000 and -600: exp() of them is 0 in float64, so a naive softmax gives 0/0
    problem = {"Q": [[30, 10]], "K": [[-30, -10], [-10, -30]], "V": [[1], [2]], "scale": "none"}
    out = numeric.forward(symattn.load(problem))
    np.testing.assert_array_equal(out["scores"][0], [[-1000.0, -600.0]])
    weights, _ = out["weights"]
    assert np.all(np.isfinite(weights))
    assert weights[0, 1] == 1.0
    d = symattn.derive(problem)
    assert d.step("weights").decimal_str(0, 1, 4) == "1.0000"
    assert d.crosscheck is not None and d.crosscheck.passed


def test_forward_with_q_k_v_given() -> None:
    problem = {"Q": [[1, 2]], "K": [[1, 0], [0, 1]], "V": [["1/2"], [2]]}
    out = numeric.forward(symattn.load(problem))
    s = np.array([[1.0, 2.0]]) / np.sqrt(2.0)
    w = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
    np.testing.assert_allclose(out["weights"][0], w, rtol=1e-15)
    np.testing.assert_allclose(out["output"][0], w @ np.array([[0.5], [2.0]]), rtol=1e-15)


def test_numeric_module_shares_no_code_with_the_exact_path() -> None:
    tree = ast.parse(inspect.getsource(numeric))
    runtime_imports: list[str] = []
    for node in tree.body:  # module level, outside `if TYPE_CHECKING:`
        if isinstance(node, ast.ImportFrom):
            runtime_imports.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            runtime_imports.extend(alias.name for alias in node.names)
    for name in runtime_imports:
        for own in ("forward", "exact", "values", "variants", "steps", "plan", "numbers"):
            assert own not in name, name
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    assert inner.module not in ("forward", "exact", "steps"), inner.module


def test_forward_runs_with_the_exact_engine_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the NumPy path must not call the exact engine")

    problem = symattn.load(BASE)
    for name in ("matmul", "softmax", "weighted_sum", "scale", "mask", "concat"):
        monkeypatch.setattr(exact, name, broken)
    monkeypatch.setattr(forward, "execute", broken)
    out = numeric.forward(problem)
    np.testing.assert_allclose(out["output"][0], naive_reference(BASE)["output"], rtol=1e-15)


# -- the cross-check ---------------------------------------------------------------------


def test_crosscheck_passes_and_reports_small_errors() -> None:
    d = symattn.derive(BASE)
    check = d.crosscheck
    assert check is not None
    assert check.passed is True
    assert 0.0 <= check.max_rel_error <= crosscheck.TOLERANCE == 1e-12
    assert 0.0 <= check.max_abs_error < 1e-14
    payload = check.to_json()
    assert payload["passed"] is True
    assert payload["max_rel_error"] == check.max_rel_error


def test_crosscheck_passes_with_scores_near_1000() -> None:
    d = symattn.derive(LARGE)
    assert d.step("scores").exact_str(0, 0) == "1000"
    for step_id in ("weights", "output"):
        step = d.step(step_id)
        for i in range(3):
            for j in range(2):
                value = step.values[i][j]
                assert value is not None and value.is_finite()
                assert Decimal(step.decimal_str(i, j, 6) or "nan").is_finite()
    assert d.crosscheck is not None and d.crosscheck.passed


def test_crosscheck_passes_on_cancellation() -> None:
    # Q = 0.1 + 0.2 - 0.3 is exactly 0 but about 5.6e-17 in float64: the error is
    # measured against the size of the terms (0.6), so it is not a disagreement.
    problem = {
        "X": [[0.1, 0.2, -0.3], [0.3, -0.1, -0.2]],
        "W_Q": [[1], [1], [1]],
        "W_K": [[1], [1], [1]],
        "W_V": [[1], [1], [1]],
    }
    d = symattn.derive(problem)
    assert d.step("Q").exact_str(0, 0) == "0"
    assert d.step("X").exact_str(0, 0) == "1/10"
    float_q, _ = numeric.forward(d.problem)["Q"]
    assert float_q[0, 0] != 0.0  # the float path really does see the rounding error
    assert d.crosscheck is not None and d.crosscheck.passed


def test_crosscheck_passes_with_masks_and_underflow() -> None:
    d = symattn.derive({**LARGE, "mask": [[1, 1, 0], [0, 1, 1], [1, 0, 1]]})
    assert d.step("masked_scores").exact_str(1, 0) == "-oo"
    assert d.step("weights").exact_str(1, 0) == "0"
    assert d.crosscheck is not None and d.crosscheck.passed


def test_crosscheck_is_none_for_symbolic_problems() -> None:
    d = symattn.derive(
        {"Q": {"symbol": "a", "shape": [1, 2]}, "K": [[1, 0], [0, 1]], "V": [[1], [2]]}
    )
    assert d.crosscheck is None


def _replace_step(d: Derivation, step_id: str, **changes: Any) -> Derivation:
    steps = tuple(dataclasses.replace(s, **changes) if s.id == step_id else s for s in d.steps)
    return Derivation(d.problem, steps, d.matrices, d.precision)


def _with_entry(matrix: tuple[tuple[Any, ...], ...], i: int, j: int, value: Any) -> Any:
    return tuple(
        tuple(value if (r, c) == (i, j) else x for c, x in enumerate(row))
        for r, row in enumerate(matrix)
    )


@pytest.mark.parametrize("step_id", ["Q", "scores", "weights", "output"])
def test_crosscheck_fails_on_a_corrupted_value(step_id: str) -> None:
    d = symattn.derive(BASE)
    step = d.step(step_id)
    wrong = step.values[1][0] * Decimal("1.000001")  # off by 1e-6, relative
    bad = _replace_step(d, step_id, values=_with_entry(step.values, 1, 0, wrong))
    check = crosscheck.crosscheck(bad)
    assert check is not None
    assert not check.passed
    assert check.worst_step == step_id and check.worst_index == (1, 0)
    assert check.to_json()["worst"] == {"step": step_id, "index": [2, 1]}


@pytest.mark.parametrize(
    ("factor", "passes"), [("1.00000000000001", True), ("1.00000000001", False)]
)
def test_crosscheck_threshold_is_relative_1e12(factor: str, passes: bool) -> None:
    d = symattn.derive(BASE)
    step = d.step("output")
    value = step.values[0][0]
    bad = _replace_step(d, "output", values=_with_entry(step.values, 0, 0, value * Decimal(factor)))
    check = crosscheck.crosscheck(bad)
    assert check is not None and check.passed is passes


def test_crosscheck_fails_when_the_engine_multiplies_wrongly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = exact.matmul

    def off_by_one(left: Any, right: Any) -> Any:
        out = real(left, right)
        return _with_entry(out, 0, 0, out[0][0] + Surd.rational(1))

    monkeypatch.setattr(exact, "matmul", off_by_one)
    d = symattn.derive(BASE)
    assert d.crosscheck is not None
    assert not d.crosscheck.passed


@pytest.mark.parametrize(("step_id", "source"), [("Q", (0, 1)), ("weights", (0, 1))])
def test_crosscheck_fails_on_a_corrupted_exact_entry(step_id: str, source: tuple[int, int]) -> None:
    # SPEC §3: the cross-check compares "the exact values (evaluated at >= 30 digits)" with
    # NumPy.  Put a wrong exact entry into a step (the value of another entry) and leave the
    # step's cached decimals alone: the exact value shown is now wrong, so must the check be.
    d = symattn.derive(BASE)
    step = d.step(step_id)
    other = step.exact[source[0]][source[1]]
    assert step.values[0][0] != step.values[source[0]][source[1]]  # really a different value
    bad = _replace_step(d, step_id, exact=_with_entry(step.exact, 0, 0, other))
    assert bad.step(step_id).exact_str(0, 0) != d.step(step_id).exact_str(0, 0)
    check = crosscheck.crosscheck(bad)
    assert check is not None
    assert not check.passed, (
        f"{step_id}[1,1] shown as {bad.step(step_id).exact_str(0, 0)} (really "
        f"{d.step(step_id).exact_str(0, 0)}), yet the cross-check passed"
    )
