"""The symbols of formulas (``Sym`` nodes of :mod:`symattn.formula`) in each target: LaTeX
for the documents, Markdown and HTML, Unicode for the terminal.  A new symbol is a line in
both tables; a topic's symbols (sin, τ, μ, …) come with its module (:mod:`symattn.topics`).
"""

from __future__ import annotations

from ..topics import symbols

__all__ = ["TEX_SYMBOLS", "UNICODE_SYMBOLS"]

TEX_SYMBOLS: dict[str, str] = {
    "d_model": r"d_{\text{model}}",
    "d_mem": r"d_{\text{mem}}",
    "sqrt_dk": r"\sqrt{d_k}",
    "neg_inf": r"-\infty",
    "Sigma": r"\Sigma",
    "sum_k": r"\sum_{k}",
    "diag": r"\mathrm{diag}",
    **{name: tex for name, (tex, _) in symbols().items()},
}

UNICODE_SYMBOLS: dict[str, str] = {
    "d_model": "d_model",
    "d_mem": "d_mem",
    "sqrt_dk": "√d_k",
    "neg_inf": "−∞",
    "Sigma": "Σ",
    "sum_k": "Σₖ",
    "diag": "diag",
    **{name: text for name, (_, text) in symbols().items()},
}
