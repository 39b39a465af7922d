"""The terminal renderer: what a student reads."""

from __future__ import annotations

import symattn
from symattn.render.text import render_text, rjust, sub, width


def test_subscripts_and_display_width() -> None:
    assert sub(0, 11) == "₁,₁₂"
    assert width("苹果") == 4 and width("ab") == 2 and width("s̃") == 1
    assert rjust("我", 3) == " 我"


def test_chosen_rows_are_written_out_and_others_are_matrices() -> None:
    d = symattn.derive("docs/examples/tiny.toml")
    text = render_text(d, rows=[1], digits=3)
    assert "q₂,₂ = x₂,₁·wq₁,₂ + x₂,₂·wq₂,₂ + x₂,₃·wq₃,₂ = 0·0 + 2·1 + (1/2)·1 = 5/2 = 2.500" in text
    assert "q₁,₁ =" not in text
    assert "s′₂,₁ = s₂,₁ / √d_k = (11/2) / √2 = 11√2/4 ≈ 3.889" in text
    assert "a₂,₁ = exp(s̃₂,₁) / (exp(s̃₂,₁) + exp(s̃₂,₂))" in text
    assert "b₂ = a₂,₁ v₁ + a₂,₂ v₂ = 0.893·[3, 2] + 0.107·[1, 2] ≈ [2.786, 2]" in text
    assert "Cross-check against NumPy float64: passed" in text


def test_masked_entries_read_as_minus_infinity_and_zero() -> None:
    text = render_text(symattn.derive("docs/examples/tiny.toml"), rows=[0])
    assert "a₁,₂ = 0   (masked key: exactly zero weight)" in text
    assert "e^(2√2) / (e^(2√2)) = 1" in text
    assert "     I [    2√2     −∞ ]" in text


def test_large_matrices_are_elided_never_silently() -> None:
    n = 12
    problem = {
        "Q": [[i % 3, 1] for i in range(n)],
        "K": [[1, i % 2] for i in range(n)],
        "V": [[i, 1] for i in range(n)],
    }
    text = render_text(symattn.derive(problem))
    assert "⋯" in text and "⋮" in text
    assert "(4 more entries in this row; see the matrix below)" in text
    assert max(width(line) for line in text.splitlines()) < 400


def test_symbolic_problems_give_general_formulas() -> None:
    d = symattn.derive(
        {
            "X": {"symbol": "x", "shape": [2, 2]},
            "W_Q": {"symbol": "a", "shape": [2, 1]},
            "W_K": {"symbol": "b", "shape": [2, 1]},
            "W_V": {"symbol": "c", "shape": [2, 1]},
        }
    )
    text = render_text(d)
    assert "q₁,₁ = x₁,₁·wq₁,₁ + x₁,₂·wq₂,₁ = a_11·x_11 + a_21·x_12" in text
    assert "s₁,₂ = q₁ · k₂ = q₁,₁·k₂,₁" in text
    assert "≈" not in text
    assert "Cross-check: symbolic problem, no numbers to compare." in text
