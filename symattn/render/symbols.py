"""The symbols of formulas (``Sym`` nodes of :mod:`symattn.formula`) in each target: LaTeX
for the documents, Markdown and HTML, Unicode for the terminal.  A new symbol is a line in
both tables; a topic's symbols (sin, τ, μ, …) come with its module (:mod:`symattn.topics`).

The math that a sentence of :mod:`symattn.words` names (``{math:sqrt_dk}``) is one of these
symbols: the words carry no math, and each writer prints the symbol with its own printer
(``WORD_SYMBOLS`` holds those that no formula uses).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..topics import TopicTable

__all__ = ["TEX_SYMBOLS", "UNICODE_SYMBOLS", "WORD_SYMBOLS"]

#: Math named by sentences of words/: (LaTeX, Unicode).  Entry names with free indices
#: (aᵢⱼ) are the sentences' general ones; the weights are named as on paper (W^{Q}).
WORD_SYMBOLS: dict[str, tuple[str, str]] = {
    "A_ij": ("A_{ij}", "Aᵢⱼ"),
    "A_ik": ("A_{ik}", "Aᵢₖ"),
    "S_prime_ij": ("S'_{ij}", "S′ᵢⱼ"),
    "Sigma_j": (r"\Sigma _{j}", "Σⱼ"),
    "Sigma_k": (r"\Sigma _{k}", "Σₖ"),
    "W_K": ("W^{K}", "W_K"),
    "W_O": ("W^{O}", "W_O"),
    "W_Q": ("W^{Q}", "W_Q"),
    "W_V": ("W^{V}", "W_V"),
    "X_tilde": (r"\tilde{X}", "X̃"),
    "a_i": ("a_{i}", "aᵢ"),
    "a_ij": ("a_{ij}", "aᵢⱼ"),
    "a_ik": ("a_{ik}", "aᵢₖ"),
    "a_ji": ("a_{ji}", "aⱼᵢ"),
    "approx": (r"\approx", "≈"),
    "b_i": ("b_{i}", "bᵢ"),
    "d_k": ("d_k", "d_k"),
    "dS_prime": ("dS'", "dS′"),
    "dot": (r"\cdot", "·"),
    "k_j": ("k_{j}", "kⱼ"),
    "minus": ("-", "−"),
    "q_i": ("q_{i}", "qᵢ"),
    "s_ij": ("s_{ij}", "sᵢⱼ"),
    "s_prime_ij": ("s'_{ij}", "s′ᵢⱼ"),
    "s_prime_ik": ("s'_{ik}", "s′ᵢₖ"),
    "s_prime_ji": ("s'_{ji}", "s′ⱼᵢ"),
    "s_prime_ki": ("s'_{ki}", "s′ₖᵢ"),
    "sqrt_2": (r"\sqrt{2}", "√2"),
    "sqrt_d_model": (r"\sqrt{d_{\text{model}}}", "√d_model"),
    "sqrt_var_eps": (r"\sqrt{\sigma^{2} + \varepsilon}", "√(σ² + ε)"),
    "v_j": ("v_{j}", "vⱼ"),
    "x_k": ("x_{k}", "xₖ"),
    # the indices and the small formulas that sentences name whole ("query i sees the keys
    # j ≤ i"): one symbol each, so that no sentence sets math as upright text
    "i": ("i", "i"),
    "j": ("j", "j"),
    "t": ("t", "t"),
    "x": ("x", "x"),
    "j_le_i": (r"j \le i", "j ≤ i"),
    "j_ge_i": (r"j \ge i", "j ≥ i"),
    "one_to_i": (r"1 \ldots i", "1 … i"),
    "q_dot_k": (r"q \cdot k", "q · k"),
    "score_dot": (r"s_{ij} = q_{i} \cdot k_{j}", "sᵢⱼ = qᵢ · kⱼ"),
    "scaled_score": (r"s'_{ij} = s_{ij} / \sqrt{d_k}", "s′ᵢⱼ = sᵢⱼ / √d_k"),
    "softmax_row": (
        r"a_{ij} = \exp(s'_{ij}) / \sum_{k} \exp(s'_{ik})",
        "aᵢⱼ = exp(s′ᵢⱼ) / Σₖ exp(s′ᵢₖ)",
    ),
    "softmax_column": (
        r"a_{ji} = \exp(s'_{ji}) / \sum_{k} \exp(s'_{ki})",
        "aⱼᵢ = exp(s′ⱼᵢ) / Σₖ exp(s′ₖᵢ)",
    ),
    "softmax_of_row": (r"\exp(s'_{ij}) / \sum_{k} \exp(s'_{ik})", "exp(s′ᵢⱼ) / Σₖ exp(s′ᵢₖ)"),
    "softmax_of_column": (r"\exp(s'_{ji}) / \sum_{k} \exp(s'_{ki})", "exp(s′ⱼᵢ) / Σₖ exp(s′ₖᵢ)"),
    "output_sum": (r"b_{i} = \sum_{j} a_{ij} v_{j}", "bᵢ = Σⱼ aᵢⱼ vⱼ"),
    "V_eq_X_W_V": (r"V = X W^{V}", "V = X W_V"),
    "jacobian_diagonal": (r"a_{ij} (1 - a_{ij})", "aᵢⱼ(1 − aᵢⱼ)"),
    "jacobian": (r"\mathrm{diag}(a_{i}) - a_{i} a_{i}^{\top}", "diag(aᵢ) − aᵢ aᵢᵀ"),
    "dS_prime_ij": (
        r"dS'_{ij} = a_{ij} (dA_{ij} - \sum_{k} a_{ik} dA_{ik})",
        "dS′ᵢⱼ = aᵢⱼ (dAᵢⱼ − Σₖ aᵢₖ dAᵢₖ)",
    ),
    "dS_scaled": (r"dS = dS' / \sqrt{d_k}", "dS = dS′ / √d_k"),
    "S_column": (r"S = K^{\top} Q", "S = Kᵀ Q"),
    "Q_column": (r"Q = W^{Q} X", "Q = W_Q X"),
    "XW_plus_P": ("X W + P", "X W + P"),
    "Q_with_positions": (r"Q = (X + P) W^{Q}", "Q = (X + P) W_Q"),
    "X_tilde_sum": (r"\tilde{X} = X + P", "X̃ = X + P"),
    "dV_backward": (r"dV = A^{\top} dO", "dV = Aᵀ dO"),
    "dK_backward": (r"dK = dS^{\top} Q", "dK = dSᵀ Q"),
    "c": ("c", "c"),
    # the spreadsheet's own (its cells' names: q_i, s_ij)
    "q_i_dot_k_j": (r"q_{i} \cdot k_{j}", "q_i · k_j"),
    "exp_shifted": (r"\exp(s_{ij} - \max_{j} s_{ij})", "exp(s_ij − max_j s_ij)"),
}

#: A symbol's LaTeX: the core's and the words', then the loaded topics' (a problem's own
#: topics are loaded); a symbol in none of them prints as its name.
TEX_SYMBOLS: Mapping[str, str] = TopicTable(
    {
        "d_model": r"d_{\text{model}}",
        "sqrt_dk": r"\sqrt{d_k}",
        "neg_inf": r"-\infty",
        "Sigma": r"\Sigma",
        "sum_k": r"\sum_{k}",
        "diag": r"\mathrm{diag}",
        "softmax": r"\mathrm{softmax}",
        "id": r"\mathrm{id}",
        "half": r"\tfrac{1}{2}",
        "quad": r"\quad ",
        "ldots": r"\ldots ",
        **{name: tex for name, (tex, _) in WORD_SYMBOLS.items()},
    },
    lambda topic: {name: tex for name, (tex, _) in topic.symbols.items()},
    complete=False,
)

#: A symbol's Unicode, found as :data:`TEX_SYMBOLS` finds its LaTeX.
UNICODE_SYMBOLS: Mapping[str, str] = TopicTable(
    {
        "d_model": "d_model",
        "sqrt_dk": "√d_k",
        "neg_inf": "−∞",
        "Sigma": "Σ",
        "sum_k": "Σₖ",
        "diag": "diag",
        "softmax": "softmax",
        "id": "id",
        "half": "½",
        "quad": " ",
        "ldots": "…",
        **{name: text for name, (_, text) in WORD_SYMBOLS.items()},
    },
    lambda topic: {name: text for name, (_, text) in topic.symbols.items()},
    complete=False,
)
