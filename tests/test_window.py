"""Sliding-window attention (``window = w``, SPEC §11): query i sees keys i − w < j ≤ i.

Derived and cross-checked (the NumPy sibling makes the band again), compared with torch's
scaled_dot_product_attention given the same boolean band mask, combined with the other
masks by AND, with heads, in the column layout and in the backward pass; written in every
format and language; checked with its mistake model and carried-forward errors; drawn by
``exercises --with window`` (sheet, self-check page, Moodle quiz); bad values are one line.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import docx
import numpy as np
import pytest

import symattn
from symattn.check import check
from symattn.exercises import ExerciseOptions, generate, render_self_check
from symattn.exercises.generate import as_columns
from symattn.render import render
from symattn.render.xlsx import MINUS_INFINITY
from symattn.words import words

from .helpers import run_cli
from .spreadsheet import formulas

BASE: dict[str, Any] = {
    "tokens": ["a", "b", "c", "d"],
    "X": [[1, 0], [0, 1], [1, 1], [2, 0]],
    "W_Q": [[1, 0], [0, 1]],
    "W_K": [[1, 1], [0, 1]],
    "W_V": [[1, 2], [0, 1]],
    "window": 2,
}


def _floats(d: symattn.Derivation, step: str) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in d.step(step).values])


def _band(n: int, w: int) -> np.ndarray:
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return (j <= i) & (j > i - w)


def _written(m: np.ndarray) -> list[list[str]]:
    return [["-inf" if np.isneginf(x) else f"{x:.6f}" for x in row] for row in m]


@pytest.mark.parametrize("w", [1, 2, 3, 4, 9])
def test_the_band_is_the_mask_and_matches_torch(w: int) -> None:
    d = symattn.derive({**BASE, "window": w})
    assert [[bool(k) for k in row] for row in d.problem.mask] == _band(4, w).tolist()
    assert d.crosscheck is not None and d.crosscheck.passed
    torch = pytest.importorskip("torch", reason="torch (CPU build) is not installed")
    q, k, v = (torch.tensor(_floats(d, s), dtype=torch.float64) for s in ("Q", "K", "V"))
    mask = torch.tensor(_band(4, w))  # True: the query may attend to the key
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert np.allclose(_floats(d, "output"), want.numpy(), rtol=1e-13, atol=1e-14)


def test_the_window_combines_with_valid_lens_and_padding_by_and() -> None:
    d = symattn.derive({**BASE, "window": 3, "valid_lens": [1, 2, 2, 4]})
    lens = np.arange(4)[None, :] < np.array([1, 2, 2, 4])[:, None]
    assert [[bool(k) for k in r] for r in d.problem.mask] == (_band(4, 3) & lens).tolist()
    assert d.crosscheck is not None and d.crosscheck.passed
    padded = symattn.derive({**BASE, "tokens": ["a", "b", "c", "<pad>"], "pad_token": "<pad>"})
    keep = np.array([[bool(k) for k in r] for r in padded.problem.mask])
    assert not keep[:, 3].any() or keep[3, 3]  # the padded key is masked (but for itself)
    assert (keep <= _band(4, 2)).all()


def test_heads_the_column_layout_and_the_backward_pass() -> None:
    heads = {**BASE, "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 1], [0, 1]], "heads": 2}
    heads["W_V"] = [[1, 2], [0, 1]]
    h = symattn.derive(heads)
    assert h.crosscheck is not None and h.crosscheck.passed
    assert np.isneginf(_floats(h, "h2.masked_scores")[3, 0])
    rows = symattn.derive(BASE)
    columns = symattn.derive(as_columns(dict(BASE)))
    assert rows.step("output").values == columns.step("output").values
    written = {s["id"]: s for s in json.loads(columns.render("json"))["steps"]}
    assert written["weights"]["float"] == [list(c) for c in zip(*_floats(rows, "weights").tolist())]
    back = symattn.derive({**BASE, "dO": [[1, 0], [0, 1], [1, 1], [0, 0]]}, backward=True)
    assert back.crosscheck is not None and back.crosscheck.passed
    assert {"dV", "dQ", "dK"} <= set(back.step_ids)
    dscores = _floats(back, "dscores")
    assert (dscores[~_band(4, 2)] == 0).all()  # a masked score gets no gradient


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_format_says_what_the_window_is(lang: str, tmp_path: Path) -> None:
    d = symattn.derive(BASE)
    sentence = {"en": "sliding window", "zh": "滑动窗口"}[lang]
    for fmt in ("text", "markdown", "latex", "html"):
        out = d.render(fmt, lang=lang)
        assert sentence in out.lower() if lang == "en" else sentence in out, fmt
    data = json.loads(d.render("json", lang=lang))
    assert data["mask"] == "window"
    masked = next(s for s in data["steps"] if s["id"] == "masked_scores")
    assert [[x != "-oo" for x in row] for row in masked["exact"]] == _band(4, 2).tolist()
    # Word: the file is made and its Given section says what the window is
    blob = render(d, "docx", lang=lang)
    assert blob[:2] == b"PK"  # a zip: the Office Open XML container
    text = "\n".join(p.text for p in docx.Document(io.BytesIO(blob)).paragraphs)
    assert sentence in text.lower() if lang == "en" else sentence in text
    # the spreadsheet says it with its cells: −∞ exactly outside the band
    path = tmp_path / f"window-{lang}.xlsx"
    path.write_bytes(render(d, "xlsx", lang=lang))
    cells = formulas(path)["step_masked_scores"]
    assert [[c != MINUS_INFINITY for c in row] for row in cells] == _band(4, 2).tolist()


def test_one_key_too_many_is_diagnosed_and_later_steps_carried_forward() -> None:
    d = symattn.derive(BASE)
    scaled = _floats(d, "scaled_scores")
    wide = np.where(_band(4, 3), scaled, -np.inf)  # i − 2 ≤ j ≤ i: one key more
    weights = np.exp(wide - wide.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    out = weights @ _floats(d, "V")
    result = check(BASE, {"masked_scores": _written(wide), "weights": _written(weights),
                          "output": _written(out)}).to_json()  # fmt: skip
    steps = {s["id"]: s for s in result["steps"]}
    ids = {x["id"] for x in steps["masked_scores"]["diagnosis"]}
    assert "window_off_by_one" in ids
    assert any(e["status"] == "carried" for e in steps["output"]["entries"])
    right = check(BASE, {"output": _written(_floats(d, "output"))}).to_json()
    assert right["verdict"] == "correct"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "window: expected a whole number of keys ≥ 1, found 0"),
        ("2", "found '2'"),
        (True, "found True"),
    ],
)
def test_bad_windows_are_one_line(tmp_path: Path, value: Any, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**BASE, "window": value}))
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2 and message in err and err.count("\n") == 1, err
    assert str(path) in err


def test_a_decode_step_and_an_additive_mask_are_refused() -> None:
    with pytest.raises(symattn.SymattnError, match="a decode step"):
        symattn.load({**BASE, "decode": True})
    with pytest.raises(symattn.SymattnError, match="a mask of numbers"):
        symattn.load({**BASE, "mask": [[0, -9, 0, 0]] * 4})


@pytest.mark.parametrize("layout", ["row", "column"])
def test_exercises_with_a_window_check_themselves(tmp_path: Path, layout: str) -> None:
    out = tmp_path / "c"
    argv = ["exercises", "--seed", "4", "--count", "2", "--with", "window", "--html"]
    argv += ["--layout", layout, "--moodle", str(tmp_path / "quiz.xml"), "-o", str(out)]
    status, _, err = run_cli(argv)
    assert status == 0, err
    for n in ("01", "02"):
        teacher = out / "teacher" / n
        assert "window = " in (teacher / "problem.toml").read_text()
        status, report, err = run_cli(
            ["check", str(teacher / "problem.toml"), str(teacher / "answers.json")]
        )
        assert status == 0, report + err
        assert "sliding window" in (out / "students" / n / "sheet.tex").read_text().lower()
        assert "sliding window" in (out / "students" / n / "self-check.html").read_text().lower()
    assert "sliding window" in (tmp_path / "quiz.xml").read_text().lower()


def test_the_column_page_writes_the_window_keys_down_the_side() -> None:
    """In the column layout a mask is keys × queries on the self-check page, as in the
    problem file."""
    (ex,) = generate(5, 1, ExerciseOptions(layout="column", topics=("window",), tokens=3))
    keep = ex.key.problem.mask  # rows: queries
    written = ["1" if k else "0" for col in zip(*keep) for k in col]  # rows: keys
    assert written != ["1" if k else "0" for row in keep for k in row]
    page = render_self_check(ex.key, "en", steps=ex.steps)
    mask = page.split(words("en")("selfcheck.mask").split(":")[0], 1)[1].split("</div>", 1)[0]
    assert re.findall(r"<mn>(\d)</mn>", mask) == written
