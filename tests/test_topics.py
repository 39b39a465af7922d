"""The further topics: positions, RoPE, temperature, additive attention, additive masks,
valid_lens and the column layout — derived, cross-checked, compared with an
independent reference (mpmath, tests/reference_topics.py) and with torch where torch
has the operation, rendered in every format and language, and checked with their
mistake models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy

import symattn
from symattn.check import check
from symattn.errors import SymattnError
from symattn.examples import example_path
from symattn.load.files import read_file

from .reference_topics import attention

TOPICS = ("positions", "rope", "temperature", "additive", "additive_mask", "valid_lens", "column")
NEW_STEPS = {
    "positions": ("P", "X_pos"),
    "rope": ("Q_rot", "K_rot"),
    "additive": ("additive_hidden",),
    "additive_mask": ("masked_scores",),
    "valid_lens": ("masked_scores",),
}


def _problem(name: str) -> dict[str, Any]:
    return dict(read_file(example_path(name)))


def _derived(name: str) -> symattn.Derivation:
    return symattn.derive(example_path(name))


def _agrees(step: symattn.Step, want: list[list[Any]]) -> None:
    """A step's values are the reference's to 30 digits (compared at 40 digits)."""
    assert step.shape == (len(want), len(want[0])), step.id
    with mpmath.workdps(40):
        for i, row in enumerate(want):
            for j, value in enumerate(row):
                got = step.values[i][j]
                assert got is not None
                if value == mpmath.mpf("-inf"):
                    assert got.is_infinite() and got < 0, (step.id, i, j)
                else:
                    error = abs(mpmath.mpf(str(got)) - value)
                    assert error < mpmath.mpf("1e-30"), (step.id, i, j)


@pytest.mark.parametrize("name", TOPICS)
def test_every_step_matches_the_independent_reference(name: str) -> None:
    """The reference computes the column layout in columns; symattn computes in rows
    and only writes the columns, so each of its steps is the reference's transpose."""
    d = _derived(name)
    reference = attention(_problem(name))
    assert d.crosscheck is not None and d.crosscheck.passed
    for step in d.steps:
        want = reference[step.id]
        _agrees(step, [list(r) for r in zip(*want)] if name == "column" else want)
    for step_id in NEW_STEPS.get(name, ()):
        assert step_id in d.step_ids


@pytest.mark.parametrize("name", ["positions", "rope", "additive"])
def test_transcendental_entries_are_exact_closed_forms(name: str) -> None:
    d = _derived(name)
    data = json.loads(d.render("json"))
    step = {"positions": "P", "rope": "Q_rot", "additive": "scores"}[name]
    exact = next(s for s in data["steps"] if s["id"] == step)["exact"]
    text = " ".join(x for row in exact for x in row)
    assert any(f in text for f in ("sin(", "cos(", "tanh("))
    values = d.step(step).values
    for i, row in enumerate(exact):  # sympify reads each back to its value
        for j, entry in enumerate(row):
            got = sympy.N(sympy.sympify(entry), 40)
            assert abs(got - sympy.Float(str(values[i][j]), 40)) < 1e-35


def test_sinusoidal_table_at_position_zero_is_exactly_zero_and_one() -> None:
    d = _derived("positions")
    assert [d.step("P").exact_str(0, j) for j in range(4)] == ["0", "1", "0", "1"]
    assert d.step("P").exact_str(1, 2) == "sin(1/100)"


def _torch_sdpa(q: np.ndarray, k: np.ndarray, v: np.ndarray, **options: Any) -> np.ndarray:
    torch = pytest.importorskip("torch", reason="torch (CPU build) is not installed")
    t = {name: torch.tensor(a, dtype=torch.float64) for name, a in (("q", q), ("k", k), ("v", v))}
    if "attn_mask" in options:
        options["attn_mask"] = torch.tensor(options["attn_mask"])
    out = torch.nn.functional.scaled_dot_product_attention(t["q"], t["k"], t["v"], **options)
    return np.asarray(out.numpy())


def _floats(d: symattn.Derivation, step_id: str) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in d.step(step_id).values])


def test_temperature_matches_torch_sdpa_with_the_scale() -> None:
    d = _derived("temperature")
    q, k, v = (_floats(d, s) for s in ("Q", "K", "V"))
    tau = 0.5
    want = _torch_sdpa(q, k, v, scale=1 / (np.sqrt(2) * tau))
    assert np.allclose(_floats(d, "output"), want, rtol=1e-13, atol=1e-13)


def test_additive_mask_matches_torch_sdpa_with_a_float_mask() -> None:
    d = _derived("additive_mask")
    q, k, v = (_floats(d, s) for s in ("Q", "K", "V"))
    mask = np.array(_problem("additive_mask")["mask"], dtype=np.float64)
    want = _torch_sdpa(q, k, v, attn_mask=mask)
    assert np.allclose(_floats(d, "output"), want, rtol=1e-13, atol=1e-13)
    assert 0 < d.step("weights").values[0][1] < 1e-40  # tiny, not 0


def test_valid_lens_matches_torch_sdpa_with_a_boolean_mask() -> None:
    d = _derived("valid_lens")
    q, k, v = (_floats(d, s) for s in ("Q", "K", "V"))
    keep = np.array([[j < n for j in range(3)] for n in (2, 3, 3)])
    want = _torch_sdpa(q, k, v, attn_mask=keep)
    assert np.allclose(_floats(d, "output"), want, rtol=1e-13, atol=1e-13)
    assert d.step("weights").exact_str(0, 2) == "0"


def test_column_layout_matches_torch_on_the_transposes() -> None:
    """Computed in rows (tokens × features), written in columns: the JSON's matrices are
    the transposes, and the written weights sum to 1 down each column."""
    d = _derived("column")
    assert d.step("Q").shape == (3, 2) and d.step("output").shape == (3, 2)
    q, k, v = (_floats(d, s) for s in ("Q", "K", "V"))
    mask = np.array(_problem("column")["mask"], dtype=np.float64).T
    want = _torch_sdpa(q, k, v, attn_mask=mask)
    assert np.allclose(_floats(d, "output"), want, rtol=1e-13, atol=1e-13)
    written = {s["id"]: s for s in json.loads(d.render("json"))["steps"]}
    assert np.allclose(np.array(written["output"]["float"]), want.T, rtol=1e-13, atol=1e-13)
    columns = np.array(written["weights"]["float"])  # every written column sums to 1
    assert columns.shape == (3, 3) and np.allclose(columns.sum(axis=0), 1.0, rtol=1e-15)


@pytest.mark.parametrize("name", TOPICS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_format_writes_the_new_steps(name: str, lang: str) -> None:
    d = _derived(name)
    titles = [symattn.words.words(lang).title(s) for s in NEW_STEPS.get(name, ())]
    for fmt in ("text", "markdown", "tex", "latex", "html"):
        out = d.render(fmt, lang=lang)
        for title in titles:
            if fmt != "latex":
                assert title in out, (name, fmt, title)


def _answers(values: dict[str, Any], ids: tuple[str, ...]) -> dict[str, Any]:
    def cell(x: Any) -> str:
        return (
            "-inf"
            if x == mpmath.mpf("-inf")
            else mpmath.nstr(x, 8, min_fixed=-50, strip_zeros=False)
        )

    return {s: [[cell(x) for x in row] for row in values[s]] for s in ids}


@pytest.mark.parametrize(
    ("name", "mistake", "ids", "change"),
    [
        ("positions", "pe_sin_cos_swapped", ("P",), {}),
        ("positions", "pe_sin_cos_swapped", ("weights",), {}),
        (
            "positions",
            "pe_added_after_projection",
            ("Q", "weights"),
            {
                "W_Q": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]],
                "W_K": [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
            },
        ),
        ("rope", "rope_pairs_wrong", ("Q_rot",), {}),
        ("rope", "rope_pairs_wrong", ("weights",), {}),
        ("column", "row_layout", ("weights",), {}),
    ],
)
def test_mistakes_of_the_topics_are_diagnosed(
    name: str, mistake: str, ids: tuple[str, ...], change: dict[str, Any]
) -> None:
    problem = {**_problem(name), **change}
    answers = _answers(attention(problem, mistake), ids)
    result = check(problem, answers).to_json()
    want = "column_layout_transposed" if mistake == "row_layout" else mistake
    for step in result["steps"]:
        assert step["status"] == "incorrect", step
        assert want in [x["id"] for x in step["diagnosis"]], step


def test_right_answers_for_every_new_step_are_correct() -> None:
    for name in TOPICS:
        problem = _problem(name)
        values = attention(problem)
        d = _derived(name)
        answers = _answers(values, d.step_ids)
        result = check(problem, answers)
        assert result.verdict == "correct", (name, result.first_error)


def test_a_wrong_p_is_carried_forward_into_x_pos() -> None:
    problem = _problem("positions")
    wrong = attention(problem, "pe_sin_cos_swapped")
    answers = _answers(wrong, ("P", "X_pos", "Q", "K"))
    steps = {s["id"]: s for s in check(problem, answers).to_json()["steps"]}
    assert steps["P"]["status"] == "incorrect"
    for later in ("X_pos", "Q", "K"):
        assert steps[later]["carried_forward"], steps[later]


def test_a_row_layout_answer_of_another_shape_is_named() -> None:
    problem = _problem("column")
    right = attention(problem)
    q_rows = [list(r) for r in zip(*right["Q"])]  # n × d_k: the row layout's Q = X W_Q
    answers = _answers({"Q": q_rows}, ("Q",))
    step = check(problem, answers).to_json()["steps"][0]
    assert step["status"] == "incorrect"
    assert [d["id"] for d in step["diagnosis"]] == ["column_layout_transposed"]


BASE = {"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]],
        "W_V": [[1, 0], [0, 1]]}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"positions": "learned"}, "positions: expected"),
        ({"positions": [[0, 1]]}, "positions: has shape 1 × 2"),
        ({"rope": "yes"}, "rope: expected true or false"),
        ({"W_Q": [[1], [0]], "W_K": [[1], [0]], "rope": True}, "d_k = 1 is odd"),
        ({"rope_base": 100}, "rope_base: given without rope"),
        ({"temperature": 0}, "temperature: expected a positive number"),
        ({"score": "additive"}, "missing W_a, U_a, v_a"),
        ({"W_a": [[1]]}, 'W_a: given without score = "additive"'),
        ({"valid_lens": [3, 1]}, "valid_lens[1]: expected a whole number 1 … 2"),
        ({"valid_lens": [1]}, "valid_lens: expected a whole number or a list of 2"),
        ({"mask": [[0, 5], [-1, 0]]}, "mask row 1, column 2: an additive mask holds 0"),
        ({"mask": [["-inf", "-inf"], [0, 0]]}, "every key is −∞"),
        ({"layout": "diagonal"}, 'layout: expected "row" or "column"'),
        ({"positions": "sinusoidal", "target": [[0, 0], [0, 0]]}, "backward pass is not"),
    ],
)
def test_bad_topic_keys_are_one_clear_error(change: dict[str, Any], message: str) -> None:
    with pytest.raises(SymattnError) as error:
        symattn.load({**BASE, **change}, source="p.toml")
    assert message in str(error.value)
    assert str(error.value).startswith("p.toml: ")


def test_the_docs_page_has_a_section_per_topic() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "topics.md").read_text("utf-8")
    for name in TOPICS:
        assert f"--example {name}" in text, name


@pytest.mark.parametrize("name", ["positions", "rope", "additive"])
def test_answers_with_many_places_are_marked_against_transcendental_keys(name: str) -> None:
    # a student who pastes 40 places: the key is rounded to 40 places too, where the
    # engine's own decimals sit next to a tie and a softmax of sin/cos/tanh scores must
    # be evaluated again (it once ended in "only numbers have a ball")
    d = symattn.derive(example_path(name))
    steps = [s for s in d.step_ids if d.step(s).kind.value not in ("given", "tokens", "lookup")]
    answers = {s: [[str(v) for v in row] for row in d.step(s).values] for s in steps}
    first = steps[0]
    answers[first][0][0] = str(float(answers[first][0][0]) + 1)
    report = check(example_path(name), answers).to_json()
    assert report["verdict"] == "incorrect" and report["first_error"] == first
    statuses = {s["id"]: s["status"] for s in report["steps"]}
    assert statuses.pop(first) == "incorrect"
    assert set(statuses.values()) == {"correct"}  # the rest were the key's own values
