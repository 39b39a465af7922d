"""The terminal renderer: what a student reads, in English or Chinese."""

from __future__ import annotations

import re

import symattn
from symattn.render import render
from symattn.render.text import rjust, width
from symattn.render.unicode_math import subscript


def test_subscripts_and_display_width() -> None:
    assert subscript("1,12") == "₁,₁₂"
    assert width("苹果") == 4 and width("ab") == 2 and width("s̃") == 1
    assert rjust("我", 3) == " 我"


def test_chosen_rows_are_written_out_and_others_are_matrices() -> None:
    d = symattn.derive("docs/examples/tiny.toml")
    text = render(d, "text", rows=[1], digits=3)
    assert "q₂,₂ = x₂,₁·wq₁,₂ + x₂,₂·wq₂,₂ + x₂,₃·wq₃,₂ = 0·0 + 2·1 + (1/2)·1 = 5/2 = 2.500" in text
    assert "q₁,₁ =" not in text
    assert "s′₂,₁ = s₂,₁ / √d_k = (11/2) / √2 = 11√2/4 ≈ 3.889" in text
    assert "a₂,₁ = exp(s̃₂,₁) / Σ₂ = e^(11√2/4) / Σ₂ ≈ 0.893" in text
    assert "Σ₂ = exp(s̃₂,₁) + exp(s̃₂,₂) ≈ 54.724" in text
    assert "b₂ = a₂,₁ v₁ + a₂,₂ v₂ = 0.893 [3, 2] + 0.107 [1, 2] ≈ [2.786, 2]" in text
    assert "Cross-check against NumPy float64: passed" in text


def test_masked_entries_read_as_minus_infinity_and_zero() -> None:
    text = render(symattn.derive("docs/examples/tiny.toml"), "text", rows=[0])
    assert "a₁,₂ = 0" in text
    assert "s̃₁,₂ = −∞" in text
    assert "       I [    2√2     −∞ ]" in text


def test_large_matrices_are_elided_never_silently() -> None:
    n = 12
    problem = {
        "Q": [[i % 3, 1] for i in range(n)],
        "K": [[1, i % 2] for i in range(n)],
        "V": [[i, 1] for i in range(n)],
    }
    text = render(symattn.derive(problem), "text")
    assert "⋯" in text and "⋮" in text
    assert "(4 more entries of this row are in the matrix below.)" in text
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
    text = render(d, "text")
    assert "q₁,₁ = x₁,₁·wq₁,₁ + x₁,₂·wq₂,₁ = a_11·x_11 + a_21·x_12" in text
    assert "s₁,₂ = q₁ · k₂ = q₁,₁·k₂,₁" in text
    assert "≈" not in text
    assert "Symbolic problem: there are no numbers to cross-check." in text


def test_symbolic_squares_print_as_powers() -> None:
    """A symbolic square is x_11², never the string-munged x_11··2."""
    d = symattn.derive(
        {
            "X": [["x_11", 0], [0, 1]],
            "W_Q": [["x_11", 0], [0, 1]],
            "W_K": [[1, 0], [0, 1]],
            "W_V": [[1, 0], [0, 1]],
        }
    )
    text = render(d, "text")
    assert "x_11²" in text
    assert "··" not in text and "**" not in text


def test_symbolic_multi_head_problems_derive_in_every_format() -> None:
    """Values of a symbolic multi-head problem are unknown, never an internal error."""
    d = symattn.derive(
        {
            "X": {"symbol": "x", "shape": [2, 2]},
            "W_Q": [[1, 0], [0, 1]],
            "W_K": [[1, 0], [0, 1]],
            "W_V": [[1, 0], [0, 1]],
            "heads": 2,
        }
    )
    assert d.crosscheck is None
    for fmt in ("text", "json", "latex", "tex", "markdown"):
        assert render(d, fmt)
    assert "O⁽¹⁾" in render(d, "text")


def test_the_terminal_speaks_chinese() -> None:
    d = symattn.derive("docs/examples/tiny.toml")
    text = render(d, "text", lang="zh")
    assert "第 2 步：计算查询向量" in text
    assert "一般公式：" in text and "以第 1 行（I）为例，逐项展开：" in text
    english = re.compile(r"\b(?:Step|Row|written|general|All rows|Given|scores are)\b")
    assert not english.search(text), english.findall(text)
