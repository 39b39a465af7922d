"""Grouped K/V heads, a decode step with a K/V cache, an encoder block (docs/topics.md).

The numbers a test compares with come from the independent NumPy reference below (or
from torch where torch has the operation), never from symattn's own engine; student
answers are made by the same reference, with the mistake made on purpose.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import symattn
from symattn.check import check
from symattn.compute.numeric import forward
from symattn.examples import example_names
from symattn.render import render
from symattn.topics import numpy_paths

from .helpers import run_cli

X = [[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, "1/2"]]
GQA: dict[str, Any] = {
    "X": X,
    "heads": 4,
    "kv_heads": 2,
    "W_Q": [
        [1, 0, 0, 1, 1, 0, 0, 1],
        [0, 1, 1, 0, 0, 1, 1, 0],
        [1, 0, 0, 0, 0, 1, 1, 1],
        [0, 0, 1, 1, 1, 0, 0, 0],
    ],
    "W_K": [[0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 0]],
    "W_V": [[1, 0, 0, 2], [0, 1, 1, 0], [2, 0, 0, 1], [0, 1, 1, 1]],
}
DECODE: dict[str, Any] = {
    "X": X,
    "W_Q": [[1, 0], [0, 1], [1, 0], [0, 0]],
    "W_K": [[0, 1], [1, 0], [1, 1], [0, 0]],
    "W_V": [[1, 0], [0, 1], [2, 0], [0, 1]],
    "decode": True,
}
BLOCK: dict[str, Any] = {
    "X": [[1, 0, 2], [0, 1, 1], [2, 1, 0]],
    "W_Q": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "W_K": [[0, 1, 0], [1, 0, 0], [0, 0, 1]],
    "W_V": [[1, 0, 1], [0, 1, 0], [1, 0, 0]],
    "block": True,
    "W_1": [[1, 0, -1, 0], [0, 1, 0, 1], [1, -1, 0, 0]],
    "b_1": [0, 1, 1, "1/2"],
    "W_2": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, -1]],
    "b_2": [0, 0, "1/2"],
    "gamma": [1, 2, "1/2"],
    "beta": [0, "1/2", -1],
    "eps": 0.001,
}


def floats(rows: Any) -> np.ndarray:
    if rows and not isinstance(rows[0], list):
        rows = [rows]
    return np.array([[float(Fraction(str(v))) for v in row] for row in rows])


# -- the independent reference ------------------------------------------------------------
def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def gqa_reference(problem: dict[str, Any], in_turn: bool = False) -> dict[str, np.ndarray]:
    x = floats(problem["X"])
    h, g = problem["heads"], problem["kv_heads"]
    wq, wk, wv = (floats(problem[k]) for k in ("W_Q", "W_K", "W_V"))
    d_k, d_v = wq.shape[1] // h, wv.shape[1] // g
    out: dict[str, np.ndarray] = {}
    for t in range(h):
        group = t % g if in_turn else t // (h // g)
        q = x @ wq[:, t * d_k : (t + 1) * d_k]
        k = x @ wk[:, group * d_k : (group + 1) * d_k]
        v = x @ wv[:, group * d_v : (group + 1) * d_v]
        out[f"h{t + 1}.K"] = k
        out[f"h{t + 1}.output"] = softmax(q @ k.T / np.sqrt(d_k)) @ v
    out["output"] = np.hstack([out[f"h{t + 1}.output"] for t in range(h)])
    return out


def layer_norm(x: np.ndarray, p: dict[str, Any], unbiased: bool = False) -> np.ndarray:
    d = x.shape[1]
    gamma = floats(p.get("gamma", [1] * d))
    beta = floats(p.get("beta", [0] * d))
    eps = float(Fraction(str(p.get("eps", 0))))
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).sum(axis=1, keepdims=True) / (d - 1 if unbiased else d)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def block_reference(p: dict[str, Any], unbiased: bool = False) -> dict[str, np.ndarray]:
    x = floats(p["X"])
    pre = p.get("norm") == "pre"
    attended = layer_norm(x, p, unbiased) if pre else x
    q, k, v = (attended @ floats(p[w]) for w in ("W_Q", "W_K", "W_V"))
    o = softmax(q @ k.T / np.sqrt(q.shape[1])) @ v
    r = x + o
    z = layer_norm(r, p, unbiased)
    h = np.maximum(z @ floats(p["W_1"]) + floats(p["b_1"]), 0)
    f = h @ floats(p["W_2"]) + floats(p["b_2"])
    y = r + f if pre else layer_norm(z + f, p, unbiased)
    out = {"residual": r, "norm": z, "ffn_hidden": h, "ffn_output": f, "block_output": y}
    if pre:
        out["X_norm"] = attended
    return out


def values(derivation: symattn.Derivation, step: str) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in derivation.step(step).values])


def written(matrix: np.ndarray) -> list[list[str]]:
    return [[f"{x:.6f}" for x in row] for row in matrix]


# -- grouped-query attention ----------------------------------------------------------------
def test_gqa_heads_share_their_groups_k_and_v() -> None:
    d = symattn.derive(GQA)
    assert d.problem.topic("gqa").groups == 2 and d.problem.d_k == 2 and d.problem.d_v == 2
    assert d.step("h1.K").exact == d.step("h2.K").exact
    assert d.step("h3.K").exact == d.step("h4.K").exact != d.step("h1.K").exact
    ref = gqa_reference(GQA)
    for step in ("h1.K", "h4.K", "h2.output", "h3.output", "output"):
        assert np.allclose(values(d, step), ref[step], rtol=1e-13), step
    assert d.crosscheck is not None and d.crosscheck.passed


def test_gqa_agrees_with_torch_sdpa_enable_gqa() -> None:
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torch.nn.functional")
    x = torch.tensor(floats(GQA["X"]), dtype=torch.float64)
    wq, wk, wv = (torch.tensor(floats(GQA[k]), dtype=torch.float64) for k in ("W_Q", "W_K", "W_V"))
    n, h, g, d_k = 3, 4, 2, 2
    q = (x @ wq).reshape(n, h, d_k).transpose(0, 1).unsqueeze(0)
    k = (x @ wk).reshape(n, g, d_k).transpose(0, 1).unsqueeze(0)
    v = (x @ wv).reshape(n, g, d_k).transpose(0, 1).unsqueeze(0)
    out = functional.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    expected = out.squeeze(0).transpose(0, 1).reshape(n, h * d_k).numpy()
    d = symattn.derive(GQA)
    assert np.allclose(values(d, "output"), expected, rtol=1e-12, atol=1e-14)


def test_kv_heads_equal_to_heads_is_multi_head_attention_as_torch_has_it() -> None:
    torch = pytest.importorskip("torch")
    spec = {**GQA, "kv_heads": 4, "W_K": GQA["W_Q"], "W_V": GQA["W_Q"], "heads": 4}
    plain = {k: v for k, v in spec.items() if k != "kv_heads"}
    ours = values(symattn.derive(spec), "output")
    assert np.array_equal(ours, values(symattn.derive(plain), "output"))
    mha = torch.nn.MultiheadAttention(8, 4, bias=False, dtype=torch.float64)
    # nn.MultiheadAttention has embed_dim = h·d_k = 8 columns in and out: X gets 4 zero
    # columns and W 4 zero rows (x8 w8 = x w), and the output projection is the identity
    w = torch.tensor(floats(GQA["W_Q"]), dtype=torch.float64)
    w8 = torch.cat([w, torch.zeros(4, 8, dtype=torch.float64)])
    x8 = torch.cat([torch.tensor(floats(X)), torch.zeros(3, 4, dtype=torch.float64)], dim=1)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([w8.T, w8.T, w8.T]))
        mha.out_proj.weight.copy_(torch.eye(8, dtype=torch.float64))
        expected, _ = mha(x8, x8, x8, need_weights=False)
    assert np.allclose(ours, expected.numpy(), rtol=1e-12, atol=1e-14)


def test_multi_query_attention_one_kv_head() -> None:
    spec = {
        **GQA,
        "kv_heads": 1,
        "W_K": [r[:2] for r in GQA["W_K"]],
        "W_V": [r[:2] for r in GQA["W_V"]],
    }
    d = symattn.derive(spec)
    assert all(d.step(f"h{t}.K").exact == d.step("h1.K").exact for t in range(2, 5))
    assert np.allclose(values(d, "output"), gqa_reference(spec)["output"], rtol=1e-13)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kv_heads": 3}, "do not split 4 query heads"),
        ({"kv_heads": 0}, "kv_heads: expected a whole number 1 … heads = 4"),
        ({"kv_heads": 2, "W_K": [r[:2] for r in GQA["W_K"]]}, "kv_heads · d_k"),
        ({"kv_heads": 2, "target": [[0] * 8] * 3}, "backward pass of grouped K/V heads"),
    ],
)
def test_bad_kv_heads_is_one_clear_error(change: dict[str, Any], message: str) -> None:
    with pytest.raises(symattn.SymattnError) as raised:
        symattn.load({**GQA, **change})
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_check_finds_query_heads_matched_in_turn() -> None:
    wrong = gqa_reference(GQA, in_turn=True)
    answers = {"h2.K": written(wrong["h2.K"]), "h2.output": written(wrong["h2.output"])}
    result = check(GQA, answers).to_json()
    assert result["verdict"] == "incorrect"
    ids = {d["id"] for s in result["steps"] for d in s["diagnosis"]}
    assert "gqa_group_wrong" in ids
    right = gqa_reference(GQA)
    assert check(GQA, {"h2.K": written(right["h2.K"])}).to_json()["verdict"] == "correct"


# -- a decode step ----------------------------------------------------------------------------
def test_decode_is_the_last_row_from_the_cache() -> None:
    d = symattn.derive(DECODE)
    assert d.step_ids[-3:] == ("cache_K", "cache_V", "decode")
    assert d.problem.mask_label == "causal"
    assert d.step("cache_K").exact == d.step("K").exact[:2]
    assert d.step("decode").values[0] == d.step("output").values[2]
    x = floats(X)
    q, k, v = (x @ floats(DECODE[w]) for w in ("W_Q", "W_K", "W_V"))
    expected = softmax(q[2:] @ k.T / np.sqrt(2)) @ v
    assert np.allclose(values(d, "decode"), expected, rtol=1e-13)
    assert d.crosscheck is not None and d.crosscheck.passed


def test_decode_with_heads_has_a_cache_per_head() -> None:
    d = symattn.derive({**GQA, "decode": True})
    for t in range(1, 5):
        assert d.step(f"h{t}.decode").values[0] == d.step(f"h{t}.output").values[2]
    assert d.crosscheck is not None and d.crosscheck.passed


def test_decode_rejects_a_non_causal_mask_and_cross_attention() -> None:
    with pytest.raises(symattn.SymattnError, match="decode step is causal"):
        symattn.load({**DECODE, "mask": [[1, 1, 1], [1, 1, 1], [1, 1, 1]]})
    with pytest.raises(symattn.SymattnError, match="leave out memory"):
        symattn.load({**DECODE, "memory": X})


def test_check_finds_attention_to_the_future() -> None:
    x = floats(X)
    q, k, v = (x @ floats(DECODE[w]) for w in ("W_Q", "W_K", "W_V"))
    unmasked = softmax(q @ k.T / np.sqrt(2))
    result = check(DECODE, {"weights": written(unmasked), "output": written(unmasked @ v)})
    ids = {d["id"] for s in result.to_json()["steps"] for d in s["diagnosis"]}
    assert "decode_uses_future" in ids
    expected = softmax(q[2:] @ k.T / np.sqrt(2)) @ v
    assert check(DECODE, {"decode": written(expected)}).to_json()["verdict"] == "correct"


# -- an encoder block -------------------------------------------------------------------------
@pytest.mark.parametrize("norm", ["post", "pre"])
def test_block_against_the_reference(norm: str) -> None:
    spec = {**BLOCK, "norm": norm}
    d = symattn.derive(spec)
    ref = block_reference(spec)
    for step, expected in ref.items():
        assert np.allclose(values(d, step), expected, rtol=1e-12, atol=1e-13), step
    assert d.crosscheck is not None and d.crosscheck.passed


def test_layer_norm_of_a_rational_row_is_a_surd() -> None:
    d = symattn.derive({**BLOCK, "norm": "pre", "gamma": [1, 1, 1], "beta": [0, 0, 0], "eps": 0})
    # row (1, 0, 2): μ = 1, σ² = 2/3, (x − μ)/√(2/3) = (0, −1, 1) · √6/2
    assert [str(x) for x in (d.step("X_norm").exact_str(0, j) for j in range(3))] == [
        "0",
        "-sqrt(6)/2",
        "sqrt(6)/2",
    ]


def torch_encoder_layer(torch: Any, spec: dict[str, Any]) -> Any:
    """PyTorch's encoder layer with the block's weights: one head, W_O = I, no biases
    in attention, γ, β and ε of the spec (the same for both norms)."""
    d_model, d_ff = len(spec["W_1"]), len(spec["W_1"][0])
    layer = torch.nn.TransformerEncoderLayer(
        d_model, 1, dim_feedforward=d_ff, dropout=0.0, batch_first=True,
        norm_first=spec["norm"] == "pre", dtype=torch.float64,
    )  # fmt: skip
    names = ("W_Q", "W_K", "W_V", "W_1", "b_1", "W_2", "b_2")
    t = {k: torch.tensor(floats(spec[k]), dtype=torch.float64) for k in names}
    with torch.no_grad():
        layer.self_attn.in_proj_weight.copy_(torch.cat([t["W_Q"].T, t["W_K"].T, t["W_V"].T]))
        layer.self_attn.in_proj_bias.zero_()
        layer.self_attn.out_proj.weight.copy_(torch.eye(d_model, dtype=torch.float64))
        layer.self_attn.out_proj.bias.zero_()
        layer.linear1.weight.copy_(t["W_1"].T)
        layer.linear1.bias.copy_(t["b_1"][0])
        layer.linear2.weight.copy_(t["W_2"].T)
        layer.linear2.bias.copy_(t["b_2"][0])
        for ln in (layer.norm1, layer.norm2):
            ln.weight.copy_(torch.tensor(floats(spec["gamma"])[0]))
            ln.bias.copy_(torch.tensor(floats(spec["beta"])[0]))
            ln.eps = float(Fraction(str(spec["eps"])))
    return layer.eval()


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_block_agrees_with_torch_encoder_layer(norm: str) -> None:
    torch = pytest.importorskip("torch")
    spec = {**BLOCK, "norm": norm}
    layer = torch_encoder_layer(torch, spec)
    with torch.no_grad():
        expected = layer(torch.tensor(floats(spec["X"]), dtype=torch.float64).unsqueeze(0))
    ours = values(symattn.derive(spec), "block_output")
    assert np.allclose(ours, expected.squeeze(0).numpy(), rtol=1e-12, atol=1e-13)


def test_layer_norm_agrees_with_torch() -> None:
    torch = pytest.importorskip("torch")
    d = symattn.derive(BLOCK)
    r = torch.tensor(values(d, "residual"), dtype=torch.float64)
    gamma, beta = (
        torch.tensor(floats(BLOCK[k])[0], dtype=torch.float64) for k in ("gamma", "beta")
    )
    expected = torch.nn.functional.layer_norm(r, (3,), gamma, beta, eps=0.001)
    assert np.allclose(values(d, "norm"), expected.numpy(), rtol=1e-12)


def _read_back(every: bool) -> None:
    """The JSON exact strings of the block example, read by SymPy and evaluated with
    mpmath at 30 digits, against the JSON decimals."""
    sympy = pytest.importorskip("sympy")
    mpmath = pytest.importorskip("mpmath")
    status, out, err = run_cli(["derive", "--example", "block", "--format", "json"])
    assert status == 0, err
    for step in json.loads(out)["steps"][-5:]:
        cells = [
            (exact, decimal)
            for exact_row, decimal_row in zip(step["exact"], step["decimal"])
            for exact, decimal in zip(exact_row, decimal_row)
        ]
        if step["id"] != "norm" and not every:
            continue  # the longer closed forms are slow for SymPy to walk: with -m slow
        for exact, decimal in cells:
            with mpmath.workdps(30):  # never the global precision: other tests rely on it
                value = Decimal(str(sympy.lambdify([], sympy.sympify(exact), "mpmath")()))
            assert abs(value - Decimal(decimal)) <= Decimal("0.00005"), (step["id"], exact)


def test_block_exact_entries_read_back_to_their_values() -> None:
    _read_back(every=False)


@pytest.mark.slow
def test_every_block_exact_entry_reads_back_to_its_value() -> None:
    _read_back(every=True)


def test_zero_variance_without_eps_is_a_clear_error(tmp_path: Path) -> None:
    flat = {**BLOCK, "X": [[1, 1, 1], [0, 1, 1], [2, 1, 0]], "norm": "pre", "eps": 0}
    path = tmp_path / "flat.json"
    path.write_text(json.dumps(flat), encoding="utf-8")
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2 and err.startswith("symattn: error:") and "variance 0" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"norm": "middle"}, 'norm: expected "post" or "pre"'),
        ({"eps": -1}, "eps: expected a rational number ≥ 0"),
        ({"W_1": None}, "missing W_1"),
        ({"W_2": [[1, 0, 0]]}, "W_2: has 1 rows but needs 4"),
        ({"W_V": [[1, 0], [0, 1], [1, 0]]}, "the residual X + output needs them equal"),
        ({"block": False}, "only for an encoder block; add block = true"),
        ({"block": "yes"}, "block: expected true or false"),
        (
            {
                "W_Q": None,
                "W_K": None,
                "W_V": None,
                "Q": [[1]] * 3,
                "K": [[1]] * 3,
                "V": [[1, 0, 0]] * 3,
            },
            "needs X (or text) and the W's",
        ),
    ],
)
def test_bad_block_keys_are_one_clear_error(change: dict[str, Any], message: str) -> None:
    spec = {k: v for k, v in {**BLOCK, **change}.items() if v is not None}
    with pytest.raises(symattn.SymattnError) as raised:
        symattn.load(spec)
    assert message in str(raised.value), str(raised.value)


def test_check_marks_block_steps_with_carried_forward_errors() -> None:
    ref = block_reference(BLOCK)
    slipped = ref["residual"].copy()
    slipped[0, 0] += 1  # a slip in the residual, then the right method on it
    own = {"residual": slipped, "norm": layer_norm(slipped, BLOCK)}
    result = check(BLOCK, {k: written(v) for k, v in own.items()}).to_json()
    status = {s["id"]: (s["status"], s["carried_forward"]) for s in result["steps"]}
    assert status["residual"][0] == "incorrect" and status["norm"] == ("incorrect", True)
    right = check(BLOCK, {k: written(v) for k, v in ref.items()}).to_json()
    assert right["verdict"] == "correct" and len(right["steps"]) == 5


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_check_finds_the_unbiased_variance(norm: str) -> None:
    spec = {**BLOCK, "norm": norm}
    wrong = block_reference(spec, unbiased=True)
    step = "X_norm" if norm == "pre" else "norm"
    result = check(spec, {step: written(wrong[step])}).to_json()
    ids = {d["id"] for s in result["steps"] for d in s["diagnosis"]}
    assert "layernorm_unbiased_variance" in ids
    for lang in ("en", "zh"):
        text = render(symattn.derive(spec), "text", lang=lang)
        assert ("LayerNorm" in text) and ("ReLU" in text)


def test_examples_are_bundled_and_their_chinese_has_no_english_sentence() -> None:
    """Every format of the examples is in the golden files (text, JSON, LaTeX, Markdown),
    tests/test_html.py (HTML) and tests/test_latex_compile.py (compiled, -m slow)."""
    assert {"gqa", "decode", "block"} <= set(example_names())
    for name in ("gqa", "decode", "block"):
        status, out, err = run_cli(["derive", "--example", name, "--lang", "zh"])
        assert status == 0, err
        out = out.split("\n", 3)[3]  # the problem's own title and description may be English
        assert not re.search(r"\b(?:the|is|are|of|and|each|with)\b", out), name


@pytest.mark.parametrize(
    "spec", [GQA, DECODE, {**GQA, "decode": True}, BLOCK, {**BLOCK, "norm": "pre"}]
)
def test_the_numpy_path_covers_every_step(spec: dict[str, Any]) -> None:
    d = symattn.derive(spec)
    missing = set(d.step_ids) - set(forward(d.problem, numpy_paths(d.problem)))
    assert not missing, missing
