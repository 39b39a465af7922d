"""LaTeX and Markdown: the derivation written as a careful person writes it by hand."""

from __future__ import annotations

import re

import pytest

import symattn
from symattn.errors import SymattnError
from symattn.examples import example_path
from symattn.render import render
from symattn.render.markdown import math_fragments
from symattn.render.tex import LINE_BUDGET, text_escape, width


def seed(fmt: str = "latex", **options: object) -> str:
    return render(symattn.derive(example_path("seed")), fmt, **options)  # type: ignore[arg-type]


def test_fragment_needs_amsmath_only() -> None:
    text = seed("latex")
    code = [line for line in text.splitlines() if not line.startswith("%")]
    assert not any("\\documentclass" in line or "\\usepackage" in line for line in code)
    assert "\\colorbox" not in text and "\\begin{align*}" in text and "bmatrix" in text


def test_general_formula_comes_first_then_entries() -> None:
    text = seed("latex")
    assert text.index("Q = X W^{Q}") < text.index("q_{1,1} &=")
    assert "S = Q K^{\\top}" in text
    assert "s_{1,2} &= q_{1} \\cdot k_{2} = q_{1,1} k_{2,1} + q_{1,2} k_{2,2}" in text


def test_numbers_substituted_in_order_with_zero_terms_kept() -> None:
    text = seed("latex")
    # q_{1,2} = x_{1,1} w_{1,2} + … = 1·0 + 0·1 + 1·0 + 0·1/2: four terms, zeros included
    assert "1 \\cdot 0 + 0 \\cdot 1 + 1 \\cdot 0 + 0 \\cdot \\frac{1}{2} = 0" in text


def test_one_over_root_dk_is_not_rationalised_before_the_value() -> None:
    text = seed("latex")
    assert "\\frac{5}{\\sqrt{2}} = \\frac{5\\sqrt{2}}{2} \\approx 3.5355" in text


def test_softmax_shows_exponentials_sum_and_quotients() -> None:
    text = seed("latex")
    assert "e^{s'_{1,1}} &= e^{\\sqrt{2}} \\approx 4.1133" in text
    assert "\\Sigma_{1} &= e^{s'_{1,1}} + e^{s'_{1,2}} \\approx 38.4266" in text
    assert "\\frac{e^{\\sqrt{2}}}{e^{\\sqrt{2}} + e^{5\\sqrt{2}/2}} \\approx 0.1070" in text


def test_weighted_sum_writes_the_vectors_out() -> None:
    text = seed("latex")
    assert "b_{1} &= a_{1,1} v_{1} + a_{1,2} v_{2}" in text
    assert "0.1070 \\begin{bmatrix} 1 & 2 \\end{bmatrix}" in text


def test_long_sums_break_across_lines() -> None:
    d = 16
    problem = {
        "X": [[(i + j) % 3 - 1 for j in range(d)] for i in range(2)],
        "W_Q": [[(i * j) % 3 for j in range(2)] for i in range(d)],
        "W_K": [[(i + 2 * j) % 3 for j in range(2)] for i in range(d)],
        "W_V": [[(i + j) % 2 for j in range(2)] for i in range(d)],
    }
    text = render(symattn.derive(problem), "latex")
    assert "&\\quad +" in text
    for line in text.splitlines():
        if "&" in line and "bmatrix" not in line and "array" not in line:
            assert width(line) <= LINE_BUDGET + 30, line


def test_large_matrices_are_elided() -> None:
    n = 12
    problem = {
        "Q": [[i % 3, 1] for i in range(n)],
        "K": [[1, i % 2] for i in range(n)],
        "V": [[i, 1] for i in range(n)],
    }
    text = render(symattn.derive(problem), "tex")
    assert "\\cdots" in text and "\\vdots" in text and "\\ddots" in text
    assert "more entries of this row" in text


def test_chinese_words_identical_formulas() -> None:
    en, zh = seed("markdown", lang="en"), seed("markdown", lang="zh")
    assert "## 第 6 步：计算注意力分数" in zh and "## Step 6: Attention scores" in en
    assert [m for m, display in math_fragments(en) if display] == [
        m for m, display in math_fragments(zh) if display
    ]


def test_standalone_engine_follows_the_text() -> None:
    tex = seed("tex")
    assert tex.splitlines()[0].startswith("% compile with xelatex")
    assert "\\usepackage{xeCJK}" in tex and tex.count("Noto Serif CJK SC") == 1
    plain = render(symattn.derive(example_path("lecture4")), "tex")
    assert plain.splitlines()[0] == "% compile with pdflatex" and "xeCJK" not in plain


def test_tokens_label_score_and_weight_matrices() -> None:
    text = seed("latex")
    assert "\\begin{array}{c|cc}  & \\text{我} & \\text{爱} \\\\ \\hline \\text{我}" in text


def test_heatmap_is_xcolor_cells_in_the_document() -> None:
    tex = seed("tex")
    assert tex.count("\\colorbox{blue!") == 4
    assert "\\includegraphics" not in tex


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("a_b", "a\\_b"),
        ("50%", "50\\%"),
        ("x&y", "x\\&y"),
        ("{#}", "\\{\\#\\}"),
        ("~^\\$", "\\textasciitilde{}\\textasciicircum{}\\textbackslash{}\\$"),
    ],
)
def test_user_text_is_escaped(raw: str, escaped: str) -> None:
    assert text_escape(raw) == escaped


def test_tokens_and_title_are_escaped_in_documents() -> None:
    problem = {
        "title": "50% of a_b",
        "tokens": ["a_1", "b&c"],
        "Q": [[1], [0]],
        "K": [[1], [1]],
        "V": [[1], [2]],
    }
    tex = render(symattn.derive(problem), "tex")
    assert "\\title{50\\% of a\\_b}" in tex
    assert "\\text{a\\_1}" in tex and "\\text{b\\&c}" in tex


def test_token_notation_and_renames() -> None:
    token = seed("latex", notation="token")
    assert "\\alpha_{1,2} &= q^{1} \\cdot k^{2}" in token
    assert "b^{1} &= \\alpha'_{1,1} v^{1} + \\alpha'_{1,2} v^{2}" in token
    problem = {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], "notation": {"weights": "a"}}
    renamed = render(symattn.derive(problem), "latex", notation="token")
    assert re.search(r"a_\{1,1\} &= \\frac\{e\^", renamed)


@pytest.mark.parametrize("bad", [{"weights": "a}"}, {"weights": "\\input{x}"}, {"nope": "a"}])
def test_bad_renames_are_refused(bad: dict[str, str]) -> None:
    with pytest.raises(SymattnError, match="notation"):
        symattn.load({"Q": [[1]], "K": [[1]], "V": [[1]], "notation": bad})


def test_symbolic_documents_give_formulas_without_decimals() -> None:
    text = render(symattn.derive(example_path("symbolic")), "latex")
    assert "\\approx" not in text
    assert "q_{1,1} &= x_{1,1} w^{Q}_{1,1} + x_{1,2} w^{Q}_{2,1}" in text


def test_masked_weights_are_zero_and_scores_minus_infinity() -> None:
    text = render(symattn.derive("docs/examples/tiny.toml"), "latex")
    assert "-\\infty" in text and "a_{1,2} &= 0" in text
