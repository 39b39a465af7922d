"""The symbols of formulas (``Sym`` nodes of :mod:`.math`) in each target: LaTeX for
the documents, Markdown and HTML, Unicode for the terminal.  A new symbol is a line in
both tables.
"""

from __future__ import annotations

__all__ = ["TEX_SYMBOLS", "UNICODE_SYMBOLS"]

TEX_SYMBOLS: dict[str, str] = {
    "d_model": r"d_{\text{model}}",
    "d_mem": r"d_{\text{mem}}",
    "sqrt_dk": r"\sqrt{d_k}",
    "neg_inf": r"-\infty",
    "Sigma": r"\Sigma",
    "sum_k": r"\sum_{k}",
    "diag": r"\mathrm{diag}",
    # positions, RoPE, the temperature, additive attention
    "sin": r"\sin",
    "cos": r"\cos",
    "tanh": r"\tanh",
    "tau": r"\tau",
    "pos": r"\mathrm{pos}",
    "base_power": r"10000^{2i/d_{\text{model}}}",
    "rope_power": r"\mathrm{base}^{-2i/d_k}",
    # LayerNorm and the feed-forward network of an encoder block
    "mu": r"\mu",
    "sigma2": r"\sigma^{2}",
    "eps": r"\varepsilon",
    "gamma": r"\gamma",
    "beta": r"\beta",
    "b1": r"b^{(1)}",
    "b2": r"b^{(2)}",
    "relu": r"\mathrm{ReLU}",
    "max": r"\max",
    "squared": "^{2}",
}

UNICODE_SYMBOLS: dict[str, str] = {
    "d_model": "d_model",
    "d_mem": "d_mem",
    "sqrt_dk": "√d_k",
    "neg_inf": "−∞",
    "Sigma": "Σ",
    "sum_k": "Σₖ",
    "diag": "diag",
    # positions, RoPE, the temperature, additive attention
    "sin": "sin",
    "cos": "cos",
    "tanh": "tanh",
    "tau": "τ",
    "pos": "pos",
    "base_power": "10000^(2i/d_model)",
    "rope_power": "base^(−2i/d_k)",
    # LayerNorm and the feed-forward network of an encoder block
    "mu": "μ",
    "sigma2": "σ²",
    "eps": "ε",
    "gamma": "γ",
    "beta": "β",
    "b1": "b⁽¹⁾",
    "b2": "b⁽²⁾",
    "relu": "ReLU",
    "max": "max",
    "squared": "²",
}
