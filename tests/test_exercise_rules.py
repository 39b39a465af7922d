"""Exercises are never degenerate, whatever the seed: a property over seeds and options,
checked with NumPy on the generated problem files (not with symattn's own rules)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symattn.exercises import ExerciseOptions, generate
from symattn.load import load

OPTIONS = (
    st.builds(
        ExerciseOptions,
        level=st.sampled_from([1, 2, 3]),
        mask=st.sampled_from(["none", "causal"]),
        heads=st.sampled_from([1, 1, 2]),
        from_text=st.booleans(),
        lang=st.sampled_from(["en", "zh"]),
        topics=st.sampled_from([(), (), ("gqa",)]),
    )
    | st.builds(  # a block has one head
        ExerciseOptions,
        level=st.sampled_from([1, 2, 3]),
        mask=st.sampled_from(["none", "causal"]),
        from_text=st.booleans(),
        topics=st.just(("block",)),
    )
    | st.builds(  # positions, RoPE, the temperature, additive scores, with one or two heads
        ExerciseOptions,
        level=st.sampled_from([1, 2, 3]),
        mask=st.sampled_from(["none", "causal"]),
        heads=st.sampled_from([1, 2]),
        topics=st.lists(
            st.sampled_from(["positions", "rope", "temperature", "additive", "gqa"]),
            min_size=1,
            max_size=3,
            unique=True,
        ).map(tuple),
    )
    | st.builds(  # the column layout
        ExerciseOptions,
        level=st.sampled_from([1, 2, 3]),
        mask=st.sampled_from(["none", "causal"]),
        topics=st.sampled_from([(), ("temperature",)]),
        layout=st.just("column"),
    )
)


def _no_zero_line(m: np.ndarray) -> bool:
    return bool(np.all(np.any(m != 0, axis=1)) and np.all(np.any(m != 0, axis=0)))


def _distinct_columns(m: np.ndarray) -> bool:
    return len({tuple(np.round(c, 9)) for c in m.T}) == m.shape[1]


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    column = data.get("layout") == "column"
    x = np.array([[float(v) for v in row] for row in problem.X], dtype=float)  # n × d_model
    if column and "X" in data:  # the file writes X as d_model × n
        assert np.allclose(x.T, np.array(data["X"], dtype=float))
    w = {k: np.array(data[k], dtype=float) for k in ("W_Q", "W_K", "W_V")}
    if column:  # the file writes W_Q as d_k × d_model: back to the row layout
        w = {k: m.T for k, m in w.items()}
    for name, m in [("X", x), *w.items()]:
        assert _no_zero_line(m), (name, m)
    if "embedding" in data:
        table = np.array(data["embedding"], dtype=float)
        assert _no_zero_line(table)
        assert len({tuple(r) for r in table}) == len(table)  # no two words alike
    n, d_model, d_k, d_v = options.shape
    assert d_k <= d_model
    additive = data.get("score") == "additive"
    assert ("scale" not in data) if additive else data["scale"] == "sqrt(d_k)"  # √2 stays √2
    if "positions" in data:
        x = x + _positions(data["positions"], n, d_model)
    divide = (1.0 if additive else np.sqrt(d_k)) * _number(data.get("temperature", 1))
    outputs = []
    groups = data.get("kv_heads", options.heads)
    for h in range(options.heads):
        g = h * groups // options.heads  # the K/V head of query head h
        q = x @ w["W_Q"][:, h * d_k : (h + 1) * d_k]
        k = x @ w["W_K"][:, g * d_k : (g + 1) * d_k]
        v = x @ w["W_V"][:, g * d_v : (g + 1) * d_v]
        assert _distinct_columns(v) and np.all(np.any(v != 0, axis=0))
        assert np.all(np.any(v != 0, axis=1)), "a token whose value is all zeros"
        if data.get("rope"):
            q, k = _rope(q), _rope(k)
        if additive:
            hidden = (q @ _matrix(data["W_a"]))[:, None, :] + (k @ _matrix(data["U_a"]))[None]
            s = np.tanh(hidden) @ np.array([_number(v) for v in data["v_a"]]) / divide
        else:
            s = q @ k.T / divide
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
        assert np.all(np.any(np.abs(out) > 1e-12, axis=1)), "an output row of zeros"
        assert _distinct_columns(out), "two equal output columns"
        outputs.append(out)
    key = np.array([[float(c) for c in row] for row in exercise.key.step("output").values])
    assert np.allclose(np.hstack(outputs), key)  # computed in rows in both layouts


def _number(value: object) -> float:
    return float(Fraction(str(value)))


def _matrix(rows: list[list[object]]) -> np.ndarray:
    return np.array([[_number(v) for v in row] for row in rows])


def _positions(given: object, n: int, d_model: int) -> np.ndarray:
    """P: the sinusoidal table of "Attention Is All You Need", or the matrix given."""
    if given != "sinusoidal":
        return _matrix(given)  # type: ignore[arg-type]
    pos, j = np.arange(n)[:, None], np.arange(d_model)[None, :]
    angle = pos / 10000 ** ((j - j % 2) / d_model)
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))


def _rope(m: np.ndarray) -> np.ndarray:
    """Pairs (2i, 2i+1) of row pos turned by pos · 10000^(−2i/d)."""
    n, d = m.shape
    out = m.copy()
    for i in range(0, d, 2):
        theta = np.arange(n) * 10000.0 ** (-i / d)
        c, s = np.cos(theta), np.sin(theta)
        out[:, i], out[:, i + 1] = m[:, i] * c - m[:, i + 1] * s, m[:, i] * s + m[:, i + 1] * c
    return out
