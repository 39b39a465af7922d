"""The topics combined (docs/topics.md, "Combining the topics"): positions with an encoder
block, the temperature and RoPE in a decode step, grouped K/V heads with RoPE and a
temperature; and the combinations that are refused, each with one clear line.

The numbers a test compares with come from torch, from the NumPy block reference of
tests/test_gqa_decode_block.py, or from the mpmath reference of tests/reference_topics.py
(sin, cos and RoPE of mpmath) — never from symattn's own engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import symattn
from symattn.check import check
from symattn.topics import score_divisor

from .reference_topics import attention, rope, sinusoidal
from .test_gqa_decode_block import (
    DECODE,
    GQA,
    block_reference,
    floats,
    layer_norm,
    softmax,
    torch_encoder_layer,
    values,
    written,
)

#: A block with d_model = 4, so that P has two frequencies (sin 1, sin 1/100, …).
BLOCK: dict[str, Any] = {
    "X": [[1, 0, 2, 0], [0, 1, 1, 1], [2, 1, 0, 1]],
    "W_Q": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
    "W_K": [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
    "W_V": [[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]],
    "block": True,
    "W_1": [[1, 0], [0, 1], [1, -1], [0, 1]],
    "b_1": [0, 1],
    "W_2": [[1, 0, 0, 1], [0, 1, 0, 0]],
    "b_2": [0, 0, "1/2", 0],
    "gamma": [1, 2, "1/2", 1],
    "beta": [0, "1/2", -1, 0],
    "eps": 0.001,
    "positions": "sinusoidal",
}


def _floats(matrix: list[list[Any]]) -> np.ndarray:
    return np.array([[float(x) for x in row] for row in matrix])


def _values(d: symattn.Derivation) -> dict[str, np.ndarray]:
    """Every step's values (the asserts name no derivation: its repr is long)."""
    return {step: values(d, step) for step in d.step_ids}


def _operands(d: symattn.Derivation) -> dict[str, tuple[str, ...]]:
    return {step: d.step(step).operands for step in d.step_ids}


def _cross_checked(d: symattn.Derivation) -> bool:
    return d.crosscheck is not None and d.crosscheck.passed


def _with_positions(problem: dict[str, Any]) -> np.ndarray:
    """X + P, P from the mpmath reference's sinusoidal table."""
    x = floats(problem["X"])
    return x + _floats(sinusoidal(*x.shape))


# -- positions and an encoder block -------------------------------------------------------
@pytest.mark.parametrize("norm", ["post", "pre"])
def test_a_block_with_positions_reads_x_plus_p(norm: str) -> None:
    spec = {**BLOCK, "norm": norm}
    d = symattn.derive(spec)
    operands = _operands(d)
    assert operands["residual"] == ("X_pos", "output")
    assert operands["Q"][0] == ("X_norm" if norm == "pre" else "X_pos")
    if norm == "pre":
        assert operands["X_norm"] == ("X_pos",)
    reference = block_reference({**spec, "X": _with_positions(spec).tolist()})
    ours = _values(d)
    for step, expected in reference.items():
        assert np.allclose(ours[step], expected, rtol=1e-12, atol=1e-13), step
    passed = _cross_checked(d)
    assert passed


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_a_block_with_positions_agrees_with_torch(norm: str) -> None:
    torch = pytest.importorskip("torch")
    spec = {**BLOCK, "norm": norm}
    layer = torch_encoder_layer(torch, spec)
    with torch.no_grad():
        inputs = torch.tensor(_with_positions(spec), dtype=torch.float64).unsqueeze(0)
        expected = layer(inputs).squeeze(0).numpy()
    ours = _values(symattn.derive(spec))["block_output"]
    assert np.allclose(ours, expected, rtol=1e-12, atol=1e-13)


def test_a_block_with_positions_is_checked_and_says_what_x_is() -> None:
    spec = {**BLOCK, "norm": "post"}
    reference = block_reference({**spec, "X": _with_positions(spec).tolist()})
    answers = {k: written(reference[k]) for k in ("residual", "norm", "block_output")}
    assert check(spec, answers).to_json()["verdict"] == "correct"
    without = block_reference({**spec, "positions": "none"})  # X added back, not X̃
    wrong = check(spec, {"residual": written(without["residual"])}).to_json()
    assert wrong["verdict"] == "incorrect"
    d = symattn.derive(spec)
    english, chinese = d.render("text"), d.render("text", lang="zh")
    assert "the block's X is X̃ = X + P" in english
    assert "编码器块中的 X 指 X̃ = X + P" in chinese


ADDITIVE = {"score": "additive", "W_a": [[1, 0], [0, 1], [1, 1], [0, 0]],
            "U_a": [[0, 1], [1, 0], [0, 0], [1, 1]], "v_a": [1, -1]}  # fmt: skip


@pytest.mark.parametrize("scores", [{"rope": True, "rope_base": 100}, ADDITIVE])
def test_a_block_after_rope_or_additive_attention(scores: dict[str, Any]) -> None:
    """The softmax of sin, cos or tanh scores (SymPy exponents) flows into the residual."""
    spec = {**{k: v for k, v in BLOCK.items() if k != "positions"}, "norm": "post", **scores}
    d = symattn.derive(spec)
    o = _floats(attention(spec)["output"])  # mpmath's RoPE, tanh and softmax
    r = floats(spec["X"]) + o
    z = layer_norm(r, spec)
    h = np.maximum(z @ floats(spec["W_1"]) + floats(spec["b_1"]), 0)
    y = layer_norm(z + h @ floats(spec["W_2"]) + floats(spec["b_2"]), spec)
    ours = _values(d)
    for step, expected in (("residual", r), ("norm", z), ("block_output", y)):
        assert np.allclose(ours[step], expected, rtol=1e-12, atol=1e-13), step
    passed = _cross_checked(d)
    assert passed


def test_heads_with_rope_and_an_output_projection() -> None:
    """concat · W_O of softmaxes of rotated scores: a sum of closed forms with SymPy
    exponents, evaluated through SymPy (not the ball arithmetic of surd exponents)."""
    spec = {**GQA, "kv_heads": 4, "W_K": GQA["W_Q"], "W_V": GQA["W_Q"], "rope": True}
    spec["W_O"] = [[1, 0, 0, 0, 0, 0, 0, 1]] + [[0] * t + [1] + [0] * (7 - t) for t in range(1, 8)]
    d = symattn.derive(spec)
    x, w_q, w_o = floats(spec["X"]), floats(spec["W_Q"]), floats(spec["W_O"])
    heads = []
    for t in range(4):
        block = (x @ w_q[:, 2 * t : 2 * t + 2]).tolist()
        q = _floats(rope(block, 10000))
        heads.append(softmax(q @ q.T / np.sqrt(2)) @ (x @ w_q[:, 2 * t : 2 * t + 2]))
    ours = _values(d)["output"]
    assert np.allclose(ours, np.hstack(heads) @ w_o, rtol=1e-12, atol=1e-14)
    passed = _cross_checked(d)
    assert passed


# -- the temperature and RoPE in a decode step ----------------------------------------------
@pytest.mark.parametrize(
    ("change", "divisor"),
    [({"temperature": "1/2"}, np.sqrt(2) / 2), ({"temperature": 3, "scale": "none"}, 3.0)],
)
def test_the_decode_step_divides_by_the_temperature(change: dict[str, Any], divisor: float) -> None:
    spec = {**DECODE, **change}
    d = symattn.derive(spec)
    assert d.step("decode").spec.divisor == score_divisor(d.problem)
    x = floats(spec["X"])
    q, k, v = (x @ floats(spec[w]) for w in ("W_Q", "W_K", "W_V"))
    expected = softmax(q[2:] @ k.T / divisor) @ v
    ours = _values(d)
    assert np.allclose(ours["decode"], expected, rtol=1e-13)
    reference = attention({**spec, "mask": "causal"})  # mpmath: the last row of the output
    assert np.allclose(ours["decode"], _floats(reference["output"])[2:], rtol=1e-13)
    passed = _cross_checked(d)
    assert passed
    written_out = d.render("text").split("One decoding step")[-1]
    assert "τ" in written_out
    without = softmax(q[2:] @ k.T / np.sqrt(2)) @ v  # the temperature left out
    assert check(spec, {"decode": written(expected)}).to_json()["verdict"] == "correct"
    assert check(spec, {"decode": written(without)}).to_json()["verdict"] == "incorrect"


def test_the_decode_step_reads_the_rotated_queries_and_keys() -> None:
    spec = {**DECODE, "rope": True, "rope_base": 100}
    d = symattn.derive(spec)
    operands = _operands(d)
    assert operands["decode"][:2] == ("Q_rot", "cache_K") and operands["decode"][3] == "K_rot"
    assert operands["cache_K"] == ("K_rot",)
    reference = attention({**spec, "mask": "causal"})  # mpmath's sin and cos
    ours = _values(d)
    assert np.allclose(ours["cache_K"], _floats(reference["K_rot"])[:2], rtol=1e-13)
    assert np.allclose(ours["decode"], _floats(reference["output"])[2:], rtol=1e-13)
    last, decoded = d.step("output").values[2], d.step("decode").values[0]
    assert decoded == last
    passed = _cross_checked(d)
    assert passed
    unrotated = check(spec, {"decode": written(_values(symattn.derive(DECODE))["decode"])})
    assert unrotated.to_json()["verdict"] == "incorrect"


# -- grouped K/V heads with RoPE and a temperature --------------------------------------------
def test_grouped_heads_with_rope_and_a_temperature_agree_with_torch() -> None:
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torch.nn.functional")
    spec = {**GQA, "rope": True, "temperature": 2}
    x = floats(GQA["X"])
    n, h, g, d_k = 3, 4, 2, 2

    def turned(m: np.ndarray, heads: int) -> Any:  # RoPE of mpmath, head by head
        blocks = [
            _floats(rope(m[:, t * d_k : (t + 1) * d_k].tolist(), 10000)) for t in range(heads)
        ]
        return torch.tensor(np.stack(blocks), dtype=torch.float64).unsqueeze(0)

    q = turned(x @ floats(GQA["W_Q"]), h)
    k = turned(x @ floats(GQA["W_K"]), g)
    v = torch.tensor(x @ floats(GQA["W_V"]), dtype=torch.float64)
    v = v.reshape(n, g, d_k).transpose(0, 1).unsqueeze(0)
    out = functional.scaled_dot_product_attention(
        q, k, v, enable_gqa=True, scale=1 / (np.sqrt(d_k) * 2)
    )
    expected = out.squeeze(0).transpose(0, 1).reshape(n, h * d_k).numpy()
    d = symattn.derive(spec)
    ours = _values(d)["output"]
    assert np.allclose(ours, expected, rtol=1e-12, atol=1e-14)
    passed = _cross_checked(d)
    assert passed


# -- every pairing: the independent NumPy path agrees ------------------------------------------
GQA_ADDITIVE = {**ADDITIVE, "W_a": [[1, 0], [0, 1]], "U_a": [[0, 1], [1, 0]]}
PAIRED = {
    "positions": {"positions": "sinusoidal"},
    "rope": {"rope": True},
    "temperature": {"temperature": "1/2"},
    "additive_mask": {"mask": [[0, -99, -99], [0, 0, -99], [0, 0, 0]]},
    "valid_lens": {"valid_lens": [2, 3, 3]},
}
BASES = {
    "block_post": {**{k: v for k, v in BLOCK.items() if k != "positions"}, "norm": "post"},
    "block_pre": {**{k: v for k, v in BLOCK.items() if k != "positions"}, "norm": "pre"},
    "gqa": GQA,
    "decode": DECODE,
    "gqa_decode": {**GQA, "decode": True},
}
PAIRS = [
    (base, name)
    for base in BASES
    for name in (*PAIRED, "additive")
    if "decode" not in base or name in ("positions", "rope", "temperature")
]


@pytest.mark.parametrize(("base", "topic"), PAIRS)
def test_every_pairing_passes_the_cross_check(base: str, topic: str) -> None:
    extra = PAIRED.get(topic) or (GQA_ADDITIVE if base.startswith("gqa") else ADDITIVE)
    d = symattn.derive({**BASES[base], **extra})
    passed = _cross_checked(d)
    assert passed
    last = {"gqa": "output", "decode": "decode", "gqa_decode": "h4.decode"}
    assert d.step_ids[-1] == last.get(base, "block_output")


# -- refused, one line each -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("problem", "message"),
    [
        (
            {**DECODE, "score": "additive", "W_a": [[1], [0]], "U_a": [[0], [1]], "v_a": [1]},
            "decode: a decode step scores by the dot product; not available with score = "
            '"additive" yet',
        ),
        ({**DECODE, "valid_lens": [1, 2, 3]}, "decode: a decode step is causal; leave out"),
        (
            {**DECODE, "mask": [[0, -99, -99], [0, 0, -99], [0, 0, 0]]},
            "decode: a decode step is causal",
        ),
    ],
)
def test_combinations_not_derived_yet_are_one_clear_error(
    problem: dict[str, Any], message: str
) -> None:
    with pytest.raises(symattn.SymattnError) as raised:
        symattn.load(problem, source="p.toml")
    text = str(raised.value)
    assert message in text and text.startswith("p.toml: ") and "\n" not in text
