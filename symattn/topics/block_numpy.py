"""The independent NumPy path of an encoder block: LayerNorm from NumPy's mean and variance,
the residual, and the ReLU feed-forward network, post- or pre-norm.  The block's input is
X, or X̃ = X + P with positions (what attention read before its projections)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import Array, Attention, NumpyPath, Out, Pair, floats

__all__ = ["PATH", "layer_norm"]


def layer_norm(config: Any, x: Array, mag: Array) -> Pair:
    """LayerNorm of each row, biased variance; size: the terms (|x| + |μ|) |γ| / σ + |β|, plus
    what σ's own cancellation brings in: |γ| |x − μ| / σ times the condition of the variance,
    mean(|x − μ| (|x| + |μ|)) / (σ² + ε)."""
    gamma, beta, eps = floats(config.gamma), floats(config.beta), float(config.eps)
    mean = np.mean(x, axis=1, keepdims=True)
    centred = x - mean
    variance = np.mean(centred**2, axis=1, keepdims=True)
    sigma = np.sqrt(variance + eps)
    terms = mag + np.mean(mag, axis=1, keepdims=True)
    condition = np.mean(np.abs(centred) * terms, axis=1, keepdims=True) / (variance + eps)
    size = (terms + np.abs(centred) * condition) * np.abs(gamma) / sigma + np.abs(beta)
    return gamma * centred / sigma + beta, size


class BlockPath(NumpyPath):
    def attended(self, problem: Any, config: Any, x: str, out: Out) -> str:
        if config.norm != "pre":
            return x
        values, size = out[x]
        out["X_norm"] = layer_norm(config, values, size)
        return "X_norm"

    def after_attention(self, problem: Any, config: Any, out: Out, attention: Attention) -> None:
        """Residual, LayerNorm and the ReLU feed-forward network, post- or pre-norm."""
        x, mx = out[attention.x]
        o, mo = out[attention.output]
        w1, b1, w2, b2 = (floats(m) for m in (config.W_1, config.b_1, config.W_2, config.b_2))
        out["residual"] = (x + o, mx + mo)
        out["norm"] = layer_norm(config, x + o, mx + mo)
        z, mz = out["norm"]
        hidden = z @ w1 + b1
        out["ffn_hidden"] = (np.maximum(hidden, 0.0), mz @ np.abs(w1) + np.abs(b1))
        h, mh = out["ffn_hidden"]
        f, mf = out["ffn_output"] = (h @ w2 + b2, mh @ np.abs(w2) + np.abs(b2))
        if config.norm == "pre":
            out["block_output"] = (x + o + f, mx + mo + mf)
        else:
            out["block_output"] = layer_norm(config, z + f, mz + mf)


PATH = BlockPath()
