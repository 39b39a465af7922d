"""Multi-head attention, cross-attention and padding masks (SPEC §1)."""

from __future__ import annotations

import numpy as np
import pytest

import symattn
from symattn.examples import example_path
from symattn.load import read_file
from symattn.render import render

from .helpers import run_cli

PROBLEM = {
    "tokens": ["a", "b", "c"],
    "X": [[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, "1/2"]],
    "heads": 2,
    "W_Q": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 1, 1]],
    "W_K": [[0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 0]],
    "W_V": [[1, 0, 0, 2], [0, 1, 1, 0], [2, 0, 0, 1], [0, 1, 1, 1]],
    "W_O": [[1, 0, 0, 1], [0, 1, 0, 0], [1, 1, 1, 0], ["1/2", 0, 0, 1]],
}


def _floats(rows: list[list[object]]) -> np.ndarray:
    from fractions import Fraction

    return np.array([[float(Fraction(str(v))) for v in row] for row in rows])


def reference(problem: dict[str, object]) -> np.ndarray:
    """Multi-head attention as PyTorch computes it (in_proj layout, transposed)."""
    x = _floats(problem["X"])  # type: ignore[arg-type]
    wq, wk, wv = (_floats(problem[k]) for k in ("W_Q", "W_K", "W_V"))  # type: ignore[arg-type]
    heads = int(problem["heads"])  # type: ignore[call-overload]
    d_k, d_v = wq.shape[1] // heads, wv.shape[1] // heads
    outs = []
    for t in range(heads):
        q = x @ wq[:, t * d_k : (t + 1) * d_k]
        k = x @ wk[:, t * d_k : (t + 1) * d_k]
        v = x @ wv[:, t * d_v : (t + 1) * d_v]
        s = q @ k.T / np.sqrt(d_k)
        a = np.exp(s - s.max(axis=1, keepdims=True))
        outs.append((a / a.sum(axis=1, keepdims=True)) @ v)
    concat = np.hstack(outs)
    return concat @ _floats(problem["W_O"]) if "W_O" in problem else concat  # type: ignore[arg-type]


def test_steps_follow_spec_order() -> None:
    d = symattn.derive(PROBLEM)
    per_head = ["Q", "K", "V", "scores", "scaled_scores", "weights", "output"]
    assert d.step_ids == (
        "X",
        *[f"h1.{s}" for s in per_head],
        *[f"h2.{s}" for s in per_head],
        "concat",
        "output",
    )
    assert d.problem.shapes.d_k == 2 and d.problem.heads == 2
    assert d.crosscheck is not None and d.crosscheck.passed


def test_head_t_uses_the_t_th_block_of_columns() -> None:
    d = symattn.derive(PROBLEM)
    x = _floats(PROBLEM["X"])  # type: ignore[arg-type]
    wq = _floats(PROBLEM["W_Q"])  # type: ignore[arg-type]
    got = np.array([[d.step("h2.Q").float_value(i, j) for j in range(2)] for i in range(3)])
    np.testing.assert_array_equal(got, x @ wq[:, 2:4])


def test_output_matches_a_pytorch_style_reference() -> None:
    d = symattn.derive(PROBLEM)
    out = d.step("output")
    got = np.array([[out.float_value(i, j) for j in range(4)] for i in range(3)])
    np.testing.assert_allclose(got, reference(PROBLEM), rtol=1e-13, atol=1e-13)


def test_matches_torch_multi_head_attention_forward() -> None:
    torch = pytest.importorskip("torch", reason="torch (CPU build) is not installed")
    functional = torch.nn.functional
    x = torch.tensor(_floats(PROBLEM["X"]), dtype=torch.float64).unsqueeze(1)  # (n, 1, d)
    wq, wk, wv, wo = (
        torch.tensor(_floats(PROBLEM[k]), dtype=torch.float64)  # type: ignore[arg-type]
        for k in ("W_Q", "W_K", "W_V", "W_O")
    )
    in_proj = torch.cat([wq.T, wk.T, wv.T])
    out, _ = functional.multi_head_attention_forward(
        x,
        x,
        x,
        4,
        2,
        in_proj,
        torch.zeros(12, dtype=torch.float64),
        None,
        None,
        False,
        0.0,
        wo.T,
        torch.zeros(4, dtype=torch.float64),
        training=False,
        need_weights=False,
    )
    d = symattn.derive(PROBLEM)
    got = np.array([[d.step("output").float_value(i, j) for j in range(4)] for i in range(3)])
    np.testing.assert_allclose(got, out.squeeze(1).numpy(), rtol=1e-12, atol=1e-12)


def test_without_w_o_the_output_is_the_concatenation() -> None:
    problem = {k: v for k, v in PROBLEM.items() if k != "W_O"}
    d = symattn.derive(problem)
    assert d.step("output").exact == d.step("concat").exact
    got = np.array([[d.step("output").float_value(i, j) for j in range(4)] for i in range(3)])
    np.testing.assert_allclose(got, reference(problem), rtol=1e-13)


def test_every_format_renders_the_heads() -> None:
    d = symattn.derive(example_path("multihead"))
    text = render(d, "text")
    assert "Head 2 · Softmax: attention weights" in text and "b⁽¹⁾₁ = a⁽¹⁾₁,₁ v⁽¹⁾₁" in text
    latex = render(d, "latex")
    assert "s^{(2)}_{1,1} &= q^{(2)}_{1} \\cdot k^{(2)}_{1}" in latex
    assert "C = \\left[\\, O^{(1)}, O^{(2)} \\,\\right]" in latex
    assert "{}^{(" not in latex  # never a left superscript: it reads as a power (issue 22)
    zh = render(d, "markdown", lang="zh")
    assert "第 2 个头 · 计算注意力分数" in zh


def test_heads_shown_expands_only_those_heads() -> None:
    status, out, _ = run_cli(["derive", "--example", "multihead", "--heads-shown", "2"])
    assert status == 0
    assert "q⁽¹⁾₁,₁ =" not in out and "q⁽²⁾₁,₁ =" in out
    status, _, err = run_cli(["derive", "--example", "multihead", "--heads-shown", "3"])
    assert status == 2 and "--heads-shown: 3 is out of range; the problem has 2 heads" in err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"heads": 3}, "W_Q has 4 columns, which do not split into 3 heads"),
        ({"W_O": [[1, 0], [0, 1]]}, "W_O has shape 2 × 2 but the concatenated heads have 4"),
        ({"heads": 0}, "heads: expected a whole number 1 … 16"),
    ],
)
def test_multi_head_shape_errors(change: dict[str, object], message: str) -> None:
    with pytest.raises(symattn.SymattnError, match=message):
        symattn.load({**PROBLEM, **change})


def test_cross_attention_scores_are_n_by_m_with_both_labels() -> None:
    d = symattn.derive(example_path("cross"))
    weights = d.step("weights")
    assert weights.shape == (3, 2)
    assert weights.row_labels == ("je", "t'", "aime") and weights.col_labels == ("I", "love")
    assert d.step("K").formula == "K = M W_K"
    assert d.crosscheck is not None and d.crosscheck.passed


def test_padding_masks_the_pad_keys_in_every_format() -> None:
    d = symattn.derive(example_path("padding"))
    assert d.problem.mask_label == "padding"
    assert [d.step("weights").exact_str(i, 2) for i in range(3)] == ["0", "0", "0"]
    assert [d.step("masked_scores").exact_str(i, 2) for i in range(3)] == ["-oo"] * 3
    assert "−∞" in render(d, "text") and "-\\infty" in render(d, "latex")
    causal = symattn.load(
        {
            **{k: v for k, v in read_file(example_path("padding")).items()},
            "mask": "causal",
        }
    )
    assert causal.mask_label == "causal+padding"


def test_a_query_with_only_padding_is_an_error() -> None:
    with pytest.raises(symattn.SymattnError, match="may attend to no key once the padding"):
        symattn.load(
            {
                "tokens": ["<pad>", "x"],
                "Q": [[1], [1]],
                "K": [[1], [1]],
                "V": [[1], [2]],
                "mask": "causal",
                "pad_token": "<pad>",
            }
        )
