"""Exercises are never degenerate, whatever the seed: a property over seeds and options,
checked with NumPy on the generated problem files (not with symattn's own rules)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symattn.exercises import ExerciseOptions, generate
from symattn.load import load

OPTIONS = st.builds(
    ExerciseOptions,
    level=st.sampled_from([1, 2, 3]),
    mask=st.sampled_from(["none", "causal"]),
    heads=st.sampled_from([1, 1, 2]),
    from_text=st.booleans(),
    lang=st.sampled_from(["en", "zh"]),
    topics=st.sampled_from([(), (), ("gqa",)]),
) | st.builds(  # a block has one head
    ExerciseOptions,
    level=st.sampled_from([1, 2, 3]),
    mask=st.sampled_from(["none", "causal"]),
    from_text=st.booleans(),
    topics=st.just(("block",)),
)


def _no_zero_line(m: np.ndarray) -> bool:
    return bool(np.all(np.any(m != 0, axis=1)) and np.all(np.any(m != 0, axis=0)))


def _distinct_columns(m: np.ndarray) -> bool:
    return len({tuple(np.round(c, 9)) for c in m.T}) == m.shape[1]


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_no_exercise_is_degenerate(seed: int, options: ExerciseOptions) -> None:
    _check(seed, options)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_no_exercise_is_degenerate_long(seed: int, options: ExerciseOptions) -> None:
    _check(seed, options)


def _check(seed: int, options: ExerciseOptions) -> None:
    (exercise,) = generate(seed, 1, options)
    data = exercise.data
    problem = load(dict(data))
    x = np.array([[float(v) for v in row] for row in problem.X], dtype=float)
    w = {k: np.array(data[k], dtype=float) for k in ("W_Q", "W_K", "W_V")}
    for name, m in [("X", x), *w.items()]:
        assert _no_zero_line(m), (name, m)
    if "embedding" in data:
        table = np.array(data["embedding"], dtype=float)
        assert _no_zero_line(table)
        assert len({tuple(r) for r in table}) == len(table)  # no two words alike
    n, d_model, d_k, d_v = options.shape
    assert d_k <= d_model
    assert data["scale"] == "sqrt(d_k)"  # √2 stays √2
    outputs = []
    groups = data.get("kv_heads", options.heads)
    for h in range(options.heads):
        g = h * groups // options.heads  # the K/V head of query head h
        q = x @ w["W_Q"][:, h * d_k : (h + 1) * d_k]
        k = x @ w["W_K"][:, g * d_k : (g + 1) * d_k]
        v = x @ w["W_V"][:, g * d_v : (g + 1) * d_v]
        assert _distinct_columns(v) and np.all(np.any(v != 0, axis=0))
        s = q @ k.T / np.sqrt(d_k)
        if options.mask == "causal":
            s = np.where(np.tril(np.ones((n, n))) > 0, s, -np.inf)
        a = _softmax(s)
        for i in range(n):
            kept = a[i][np.isfinite(s[i])]
            if len(kept) > 1:
                assert np.ptp(kept) > 1e-9, ("equal weights", i)
                assert kept.max() < 0.99995, ("a weight rounds to 1", i)
        out = a @ v
        assert np.all(np.any(np.abs(out) > 1e-12, axis=0)), "an output column of zeros"
        assert _distinct_columns(out), "two equal output columns"
        outputs.append(out)
    assert np.allclose(
        np.hstack(outputs), [[float(c) for c in row] for row in exercise.key.step("output").values]
    )
