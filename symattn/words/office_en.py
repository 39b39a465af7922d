"""English words of the Word and spreadsheet outputs (docs/office.md)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- the spreadsheet (--format xlsx): sheet names of at most 31 characters -------------
    "xlsx.given": "Given",
    "xlsx.projections": "Projections",
    "xlsx.scores": "Scores",
    "xlsx.weights": "Weights",
    "xlsx.output": "Output",
    "xlsx.gradients": "Gradients",
    "xlsx.about.given": "The given numbers (blue): change one and every sheet follows.",
    "xlsx.about.projections": "Each entry is a sum of products of the cells it comes from.",
    "xlsx.about.scores": "The scores {math:q_i_dot_k_j}, then scaled; a masked score is "
    "{math:neg_inf}.",
    "xlsx.about.weights": "The softmax of each row: {math:exp_shifted}, their sum, and each "
    "exponential over the sum.",
    "xlsx.about.output": "The output and what follows it, from the weights and the values.",
    "xlsx.about.gradients": "The backward pass, from the upstream gradient.",
    "xlsx.exp": "{math:exp_shifted} and the row sums {math:Sigma}",
    "xlsx.exact": "exact: {value}",
    "xlsx.no_formula": "This step's cells are its values (no spreadsheet formula for it yet).",
}
