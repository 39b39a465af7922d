"""ALiBi (``alibi``, SPEC §11): the bias b_ij = −m_t·|i − j| added to head t's scaled scores.

Exact slopes (the default 2^(−8t/h), or ½, ¼ as courses write them), cross-checked by the
NumPy sibling, compared with torch's scaled_dot_product_attention given the bias as its
float mask, with heads, in the column layout and the backward pass; written in every
format and language; checked with its mistake model (``alibi_sign_flipped``) and
carried-forward errors; drawn by ``exercises --with alibi``; bad slopes are one line.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import docx
import numpy as np
import openpyxl
import pytest

import symattn
from symattn.check import check
from symattn.exercises.generate import as_columns
from symattn.printing import pretty
from symattn.render import render

from .helpers import run_cli

BASE: dict[str, Any] = {
    "tokens": ["a", "b", "c", "d"],
    "X": [[1, 0], [0, 1], [1, 1], [2, 0]],
    "W_Q": [[1, 0], [0, 1]],
    "W_K": [[1, 1], [0, 1]],
    "W_V": [[1, 2], [0, 1]],
    "alibi": ["1/2"],
}
HEADS: dict[str, Any] = {
    **BASE,
    "heads": 2,
    "W_Q": [[1, 0, 0, 1], [0, 1, 1, 0]],
    "W_K": [[1, 1, 0, 1], [0, 1, 1, 0]],
    "W_V": [[1, 2, 0, 1], [0, 1, 1, 1]],
    "alibi": True,
}


def _floats(d: symattn.Derivation, step: str) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in d.step(step).values])


def _distance(n: int) -> np.ndarray:
    return np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]).astype(float)


def _docx_text(data: bytes) -> str:
    assert data[:2] == b"PK"  # a zip: the Office Open XML container
    return "\n".join(p.text for p in docx.Document(io.BytesIO(data)).paragraphs)


def _written(m: np.ndarray) -> list[list[str]]:
    return [[f"{x:.6f}" for x in row] for row in m]


def test_the_default_slopes_are_exact_powers_of_two() -> None:
    for heads, want in (
        (1, ["1/256"]),
        (2, ["1/16", "1/256"]),
        (4, ["1/4", "1/16", "1/64", "1/256"]),
    ):
        spec = {**BASE, "heads": heads, "alibi": True, "W_Q": [[1] * heads * 2] * 2,
                "W_K": [[1] * heads * 2] * 2, "W_V": [[1] * heads * 2] * 2}  # fmt: skip
        slopes = symattn.load(spec).topic("alibi").slopes
        assert [pretty(s) for s in slopes] == want


@pytest.mark.parametrize("spec", [BASE, HEADS], ids=["one head", "two heads"])
def test_the_bias_is_added_and_matches_torch(spec: dict[str, Any]) -> None:
    d = symattn.derive(spec)
    assert d.crosscheck is not None and d.crosscheck.passed
    torch = pytest.importorskip("torch", reason="torch (CPU build) is not installed")
    heads = spec.get("heads", 1)
    slopes = [float(s) for s in d.problem.topic("alibi").slopes]
    for t in range(heads):
        p = "" if heads == 1 else f"h{t + 1}."
        bias = -slopes[t] * _distance(4)
        assert np.allclose(_floats(d, f"{p}alibi_bias"), bias, rtol=0, atol=0)
        q, k, v = (torch.tensor(_floats(d, f"{p}{s}"), dtype=torch.float64) for s in "QKV")
        want = torch.nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=torch.tensor(bias, dtype=torch.float64)
        )
        assert np.allclose(_floats(d, f"{p}output"), want.numpy(), rtol=1e-13, atol=1e-14)


def test_the_column_layout_and_the_backward_pass() -> None:
    rows, columns = symattn.derive(HEADS), symattn.derive(as_columns(dict(HEADS)))
    assert rows.step("output").values == columns.step("output").values
    assert columns.crosscheck is not None and columns.crosscheck.passed
    back = symattn.derive({**BASE, "dO": [[1, 0], [0, 1], [1, 1], [0, 0]]}, backward=True)
    assert back.crosscheck is not None and back.crosscheck.passed
    assert {"dV", "dQ", "dK"} <= set(back.step_ids)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_format_writes_the_bias(lang: str) -> None:
    d = symattn.derive(HEADS)
    titles = [symattn.words.words(lang).title(s) for s in ("alibi_bias", "biased_scores")]
    for fmt in ("text", "markdown", "tex", "html"):
        out = d.render(fmt, lang=lang)
        for title in titles:
            assert title in out, (fmt, title)
    data = json.loads(d.render("json", lang=lang))
    steps = {s["id"]: s for s in data["steps"]}
    for head in ("h1.", "h2."):
        assert steps[f"{head}alibi_bias"]["title"].endswith(titles[0])
        bias = [[Fraction(x) for x in row] for row in steps[f"{head}alibi_bias"]["exact"]]
        slope = Fraction(1, 2 ** (8 * int(head[1]) // 2))  # 2^(−8t/h), h = 2
        assert bias == [[-slope * int(x) for x in row] for row in _distance(4)]
    # Word and the spreadsheet: the file is made, and its headings name ALiBi's steps
    text = _docx_text(render(d, "docx", lang=lang))
    assert all(title in text for title in titles), text
    book = openpyxl.load_workbook(io.BytesIO(render(d, "xlsx", lang=lang)))
    cells = {c.value for sheet in book for row in sheet.iter_rows() for c in row}
    assert all(any(isinstance(v, str) and title in v for v in cells) for title in titles)


def test_the_wrong_sign_is_diagnosed_and_later_steps_carried_forward() -> None:
    d = symattn.derive(BASE)
    flipped = _floats(d, "scaled_scores") + 0.5 * _distance(4)
    weights = np.exp(flipped - flipped.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    answers = {"biased_scores": _written(flipped), "weights": _written(weights)}
    result = check(BASE, answers).to_json()
    steps = {s["id"]: s for s in result["steps"]}
    assert "alibi_sign_flipped" in {x["id"] for x in steps["biased_scores"]["diagnosis"]}
    assert steps["weights"]["carried_forward"]
    right = check(BASE, {"output": _written(_floats(d, "output"))}).to_json()
    assert right["verdict"] == "correct"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"alibi": "yes"}, "alibi: expected true or a list of 1 slopes"),
        ({"alibi": ["1/2", "1/4"]}, "alibi: expected 1 slopes (one per head), found 2"),
        ({"alibi": ["-1/2"]}, "alibi[1]: expected a positive slope"),
        ({"alibi": ["x"]}, "alibi"),
        (
            {**HEADS, "heads": 3, "W_Q": [[1] * 6] * 2, "W_K": [[1] * 6] * 2, "W_V": [[1] * 6] * 2},
            "heads divides 8",
        ),
    ],
)
def test_bad_slopes_are_one_line(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**BASE, **change}))
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2 and message in err and err.count("\n") == 1, err


@pytest.mark.parametrize("layout", ["row", "column"])
def test_exercises_with_alibi_and_a_window_check_themselves(tmp_path: Path, layout: str) -> None:
    out = tmp_path / "c"
    argv = ["exercises", "--seed", "5", "--count", "2", "--with", "alibi,window", "--html"]
    argv += ["--heads", "2", "--layout", layout, "--moodle", str(tmp_path / "q.xml")]
    status, _, err = run_cli([*argv, "-o", str(out)])
    assert status == 0, err
    for n in ("01", "02"):
        teacher = out / "teacher" / n
        assert "alibi = " in (teacher / "problem.toml").read_text()
        status, report, err = run_cli(
            ["check", str(teacher / "problem.toml"), str(teacher / "answers.json")]
        )
        assert status == 0, report + err
        assert "ALiBi" in (out / "students" / n / "self-check.html").read_text()
    assert "ALiBi" in (tmp_path / "q.xml").read_text()
