"""Cross-attention from a memory of its own width (SPEC §10: ``memory`` with d_mem ≠ d_model):
W_Q reads X (d_model rows), W_K and W_V read the memory (d_mem rows), as PyTorch's
``kdim``/``vdim`` do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import symattn
from symattn.check import check
from symattn.errors import SymattnError
from symattn.examples import example_path
from symattn.load import load

from .helpers import run_cli

WIDE: dict[str, Any] = {
    "tokens": ["I", "love"],
    "memory_tokens": ["ich", "liebe", "dich", "sehr"],
    "X": [[1, 0], [0, 1]],
    "memory": [[1, 0, 1], [0, 1, 1], [1, 1, 0], [2, 0, -1]],
    "W_Q": [[1, 0], [0, 1]],
    "W_K": [[1, 0], [0, 1], [1, 1]],
    "W_V": [[1, 2], [0, 1], [1, 0]],
}


def _values(d: symattn.Derivation, step: str) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in d.step(step).values])


def test_the_memory_may_have_its_own_width() -> None:
    p = load(WIDE)
    d_mem = p.shapes.as_dict()["d_mem"]  # the memory topic's width
    assert (p.n, p.m, p.d_model, d_mem, p.d_k, p.d_v) == (2, 4, 2, 3, 2, 2)
    assert p.keys_from == "memory" and p.topic("memory").memory == load(WIDE).given("memory")
    d = symattn.derive(WIDE)
    assert d.step("K").shape == (4, 2) and d.step("weights").shape == (2, 4)
    x, m = np.array(WIDE["X"], float), np.array(WIDE["memory"], float)
    q, k = x @ np.array(WIDE["W_Q"], float), m @ np.array(WIDE["W_K"], float)
    v = m @ np.array(WIDE["W_V"], float)
    s = q @ k.T / np.sqrt(2)
    a = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    assert np.allclose(_values(d, "output"), a @ v, rtol=1e-12)
    assert d.crosscheck is not None and d.crosscheck.passed


def test_the_memory_width_agrees_with_torch_kdim_vdim() -> None:
    torch = pytest.importorskip("torch")
    mha = torch.nn.MultiheadAttention(
        2, 1, bias=False, kdim=3, vdim=3, batch_first=True, dtype=torch.float64
    )
    t = {
        k: torch.tensor(WIDE[k], dtype=torch.float64) for k in ("X", "memory", "W_Q", "W_K", "W_V")
    }
    with torch.no_grad():
        mha.q_proj_weight.copy_(t["W_Q"].T)
        mha.k_proj_weight.copy_(t["W_K"].T)
        mha.v_proj_weight.copy_(t["W_V"].T)
        mha.out_proj.weight.copy_(torch.eye(2, dtype=torch.float64))
        out, weights = mha(t["X"][None], t["memory"][None], t["memory"][None])
    d = symattn.derive(WIDE)
    assert np.allclose(_values(d, "output"), out[0].numpy(), rtol=1e-12, atol=1e-14)
    assert np.allclose(_values(d, "weights"), weights[0].numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"W_K": [[1, 0], [0, 1]]},
            "memory W_K needs as many rows in W_K as columns in memory (d_mem = 3)",
        ),
        (
            {"W_V": [[1, 2], [0, 1]]},
            "memory W_V needs as many rows in W_V as columns in memory (d_mem = 3)",
        ),
        (
            {"W_Q": [[1, 0], [0, 1], [1, 1]]},
            "X W_Q needs as many rows in W_Q as columns in X (d_model = 2)",
        ),
    ],
)
def test_each_w_is_measured_against_what_it_multiplies(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(SymattnError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load({**WIDE, **change})


def test_json_says_d_mem_only_when_it_differs(tmp_path: Path) -> None:
    status, out, err = run_cli(["derive", "--example", "cross_width", "--format", "json"])
    assert status == 0, err
    assert json.loads(out)["shapes"]["d_mem"] == 3
    status, out, err = run_cli(["derive", "--example", "cross", "--format", "json"])
    assert status == 0, err
    assert "d_mem" not in json.loads(out)["shapes"]


def test_a_wrong_key_row_is_found_with_the_memory_width() -> None:
    d = symattn.derive(example_path("cross_width"))
    right = {s: [[float(x) for x in row] for row in d.step(s).values] for s in ("Q", "K", "V")}
    assert check(example_path("cross_width"), right).to_json()["verdict"] == "correct"
    wrong = {**right, "K": [[1, 0], [0, 1], [1, 1]]}  # W_K's rows, not M W_K
    assert check(example_path("cross_width"), wrong).to_json()["first_error"] == "K"
