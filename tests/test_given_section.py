"""The Given section says everything the problem gives (a course week's TA found it did
not): the description, the number of heads and how they split the W's, W_O, the mask."""

from __future__ import annotations

import pytest

import symattn
from symattn.examples import example_path
from symattn.exercises.generate import as_columns
from symattn.load.files import read_file
from symattn.render import render


def _given(text: str) -> str:
    return text.split("Step 1:")[0]


def test_heads_and_w_o_are_given() -> None:
    given = _given(render(symattn.derive(example_path("multihead")), "text"))
    assert "three tokens, two heads of width 2 (d_model = 4), joined and projected by W_O" in given
    assert "d_v = 2, h = 2" in given
    assert "W_O =\n    [   1  0 ]" in given
    assert (
        "2 heads: head t takes the t-th block of 2 columns of W_Q and W_K and of 2 columns of "
        "W_V; the heads' outputs, side by side, are projected by W_O." in given
    )


def test_heads_without_w_o_in_the_column_layout() -> None:
    data = read_file(example_path("multihead"))
    data.pop("W_O")
    given = _given(render(symattn.derive(as_columns(data)), "text"))
    assert "heads' outputs are put one under another" in given and "of 2 rows of W_Q" in given
    assert "W_O =" not in given


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("causal", "The mask is causal: query i sees only the keys j ≤ i."),
        ("padding", "The padding tokens are masked: no query sees their keys."),
    ],
)
def test_the_mask_is_given(name: str, sentence: str) -> None:
    assert sentence in _given(render(symattn.derive(example_path(name)), "text"))


def test_every_format_and_language_gives_them() -> None:
    d = symattn.derive(example_path("multihead"))
    for fmt in ("markdown", "tex", "html"):
        assert (
            "W^{O}" in render(d, fmt)
            or "<mi>W</mi><mi>O</mi>" in render(d, fmt)
            or "W_O" in render(d, fmt)
        )
    zh = render(d, "markdown", lang="zh")
    assert "共 2 个头" in zh and "再乘以 $W^{O}$ 投影" in zh  # the words' math set as math
    assert "掩码是因果的" in render(symattn.derive(example_path("causal")), "text", lang="zh")
