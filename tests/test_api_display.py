"""The API as a notebook user meets it: example names and NumPy arrays accepted, short
reprs, rich HTML displays, 1-based entries with a clear error, the public types
importable from ``symattn``, and SymattnError a ValueError."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import symattn
from symattn.budget import TimeLimitExceeded
from symattn.check.results import CheckResult
from symattn.exercises import Exercise
from symattn.numbers.ties import exact_rational
from symattn.render import RenderOptions

from .helpers import ROOT

ANSWERS = ROOT / "docs" / "examples" / "answers-no-scaling.json"


def test_the_public_types_are_the_real_ones() -> None:
    assert symattn.CheckResult is CheckResult and symattn.Exercise is Exercise
    assert symattn.RenderOptions is RenderOptions
    assert issubclass(symattn.SymattnError, ValueError)


def test_derive_takes_an_example_name(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    d = symattn.derive("seed")
    assert d.problem.title == "我 爱: self-attention by hand"
    with pytest.raises(symattn.SymattnError, match=r"no bundled example .*examples: seed, "):
        symattn.derive("seeds")
    # a file of that name wins over the example
    (tmp_path / "seed").write_text(json.dumps({"Q": [[1]], "K": [[1]], "V": [[7]]}))
    assert symattn.derive("seed").step("output").entry(1, 1) == "7"


def test_load_and_check_take_an_example_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every verb that takes a problem takes an example's name, as derive does."""
    monkeypatch.chdir(tmp_path)
    problem = symattn.load("seed")
    assert problem.title == "我 爱: self-attention by hand"
    result = symattn.check("seed", ANSWERS)
    assert result.first_error == "weights" and result.derivation.problem.title == problem.title
    assert repr(result) == repr(symattn.check(symattn.derive("seed"), ANSWERS))
    for verb in (symattn.load, lambda name: symattn.check(name, ANSWERS)):
        with pytest.raises(symattn.SymattnError, match=r"^seeds: no such file.*examples: seed, "):
            verb("seeds")
        with pytest.raises(symattn.SymattnError, match=r"^seeds\.toml: no such file$"):
            verb("seeds.toml")  # a path, not a name: the error it always was
    # a file of that name wins over the example
    (tmp_path / "seed").write_text(json.dumps({"Q": [[1]], "K": [[1]], "V": [[7]]}))
    assert symattn.load("seed").source == "seed" and symattn.load("seed").shapes.n == 1
    assert symattn.check("seed", {"output": [[7]]}).verdict == "correct"


def test_numpy_arrays_are_matrices() -> None:
    given = {
        "X": np.array([[1, 0, 1], [0, 2, 1]]),
        "W_Q": np.eye(3, 2),  # floats: 1.0 and 0.0, read exactly
        "W_K": [[np.int64(0), 1], [1, 0], [1, 1]],  # NumPy scalars in lists
        "W_V": np.array([[0.5, 2], [0, 1], [2, 0]]),
    }
    d = symattn.derive(given)
    plain = symattn.derive(
        {
            "X": [[1, 0, 1], [0, 2, 1]],
            "W_Q": [[1, 0], [0, 1], [0, 0]],
            "W_K": [[0, 1], [1, 0], [1, 1]],
            "W_V": [["1/2", 2], [0, 1], [2, 0]],
        }
    )

    def entries(x: symattn.Derivation) -> list[str]:
        return [
            s.entry(i + 1, j + 1) for s in x for i in range(s.shape[0]) for j in range(s.shape[1])
        ]

    assert entries(d) == entries(plain) and d.step_ids == plain.step_ids
    with pytest.raises(symattn.SymattnError, match=r"W_Q row 1, column 1: .*not a finite"):
        symattn.derive({**given, "W_Q": np.full((3, 2), np.nan)})


def test_numpy_answers_are_marked_not_dropped() -> None:
    """An array of answers used to be read as nothing answered (0 of 0 entries)."""
    key = symattn.derive("seed")
    result = symattn.check(key, {"weights": np.array([["0.1070", "0.8930"], ["0.9717", "0"]])})
    assert [e.status for e in result.steps[0].entries] == ["ok", "ok", "ok", "wrong"]


def test_reprs_are_one_short_line() -> None:
    block = symattn.derive("block")
    text = repr(block)
    assert len(text) < 300 and "\n" not in text, text
    assert text.startswith("<Derivation of 'An encoder block by hand") and "(block.toml)" in text
    assert "13 steps: X, Q, K, V, …, ffn_output, block_output; cross-check passed" in text
    step = repr(block.step("weights"))
    formula = "aᵢ,ⱼ = exp(s′ᵢ,ⱼ) / Σₖ exp(s′ᵢ,ₖ)"  # the derivation's general formula
    assert step == f"<Step weights (softmax, 2 × 2) of block.toml: {formula}>"
    result = symattn.check(symattn.derive("seed"), ANSWERS)
    assert repr(result) == (
        "<CheckResult of answers-no-scaling.json against '我 爱: self-attention by hand' "
        "(seed.toml): incorrect, first error weights; 4 of 8 entries right in 2 steps>"
    )


def test_a_check_result_counts_in_the_singular_too() -> None:
    key = symattn.derive("seed")
    one = symattn.check(key, {"weights[1,2]": "0.8930"})
    assert repr(one).endswith(": correct; 1 of 1 entry right in 1 step>"), repr(one)
    two = symattn.check(key, {"weights[1,2]": "0.8930", "output[1,1]": "0"})
    assert repr(two).endswith("; 1 of 2 entries right in 2 steps>"), repr(two)


def test_rich_html_displays() -> None:
    d = symattn.derive("seed")
    html = d._repr_html_()
    assert html.startswith('<div class="symattn" lang="en"><style>.symattn ')
    assert "<math" in html and "<html" not in html and "<body" not in html
    assert html.count('<section id="step-') == len(d.steps)  # a section per step
    assert "softmax" in html.lower() and 'nav class="toc"' not in html
    result = symattn.check(d, ANSWERS)
    feedback = result._repr_html_()
    assert feedback.startswith('<div class="symattn"') and "<html" not in feedback
    assert 'data-diagnosis="no_scaling"' in feedback
    assert feedback.count('data-status="wrong"') == sum(
        e.status == "wrong" for s in result.steps for e in s.entries
    )
    # every style the fragment brings is scoped to it: a notebook's own styles stay
    style = feedback.split("<style>")[1].split("</style>")[0]
    rules = [r for r in style.split("}") if r]
    assert rules and all(
        all(sel.strip().startswith(".symattn ") for sel in r.split("{")[0].split(","))
        for r in rules
    )


def test_a_step_shows_itself_in_a_notebook() -> None:
    """A Step's rich display: its title, general formula and table with the tokens."""
    d = symattn.derive("seed")
    html = d.step("weights")._repr_html_()
    assert html.startswith('<div class="symattn"><p><b>Softmax: attention weights</b>')
    assert "aᵢ,ⱼ = exp(s′ᵢ,ⱼ) / Σₖ exp(s′ᵢ,ₖ)" in html
    assert "<th>我</th><td>0.1070</td><td>0.8930</td>" in html
    q = symattn.derive("multihead").step("h1.Q")._repr_html_()
    assert "<td>2</td><td>0</td>" in q  # whole numbers exactly
    assert "<script" not in d.step("X")._repr_html_()


@pytest.mark.parametrize(
    ("i", "j"), [(0, 1), (3, 1), (1, 3), (-1, 1), (True, 1), (1.0, 1)], ids=str
)
def test_entry_is_1_based_with_a_clear_error(i: object, j: object) -> None:
    w = symattn.derive("seed").step("weights")
    assert (
        w.entry(1, 2) == w.exact_str(0, 1) == "exp(5*sqrt(2)/2)/(exp(sqrt(2)) + exp(5*sqrt(2)/2))"
    )
    with pytest.raises(symattn.SymattnError) as error:
        w.entry(i, j)  # type: ignore[arg-type]
    assert str(error.value) == (
        f"step weights: no entry ({i}, {j}); its entries are 1-based: row 1 … 2, column 1 … 2"
    )


@pytest.mark.parametrize(
    ("i", "j"), [(2, 0), (0, 2), (-1, 0), (0, -1), (True, 0), (0.0, 0)], ids=str
)
def test_the_0_based_accessors_have_the_clear_error_too(i: object, j: object) -> None:
    """exact_str and its siblings used to raise a bare IndexError (or read row -1)."""
    w = symattn.derive("seed").step("weights")
    span = "row 0 … 1, column 0 … 1 (Step.entry(i, j) is 1-based)"
    accessors = {
        "exact_str": lambda: w.exact_str(i, j),  # type: ignore[arg-type]
        "decimal_str": lambda: w.decimal_str(i, j, 4),  # type: ignore[arg-type]
        "float_value": lambda: w.float_value(i, j),  # type: ignore[arg-type]
        "is_exact_decimal": lambda: w.is_exact_decimal(i, j, 4),  # type: ignore[arg-type]
    }
    for name, read in accessors.items():
        with pytest.raises(symattn.SymattnError) as error:
            read()
        assert str(error.value) == (
            f"step weights: no entry ({i}, {j}); {name} is 0-based, as Python indexes: {span}"
        )
    assert w.exact_str(1, 1) == w.entry(2, 2) and w.decimal_str(0, 1, 4) == "0.8930"


@pytest.mark.parametrize("i", [2, -1, True], ids=str)
def test_the_row_accessors_have_the_clear_error_too(i: object) -> None:
    w = symattn.derive("seed").step("weights")
    for name, read in {
        "decimal_row": lambda: w.decimal_row(i, 4),
        "float_row": lambda: w.float_row(i),
    }.items():  # type: ignore[arg-type]
        with pytest.raises(symattn.SymattnError) as error:
            read()
        assert str(error.value) == (
            f"step weights: no row {i}; {name} is 0-based, as Python indexes: row 0 … 1"
        )
    assert w.decimal_row(1, 4) == ["0.9717", "0.0283"]


def test_symattn_errors_are_value_errors_and_keep_their_message() -> None:
    with pytest.raises(ValueError, match=r"^<problem>: W_Q row 2, column 1: bad value '1/0'"):
        symattn.derive({"X": [[1, 0]], "W_Q": [[1], ["1/0"]], "W_K": [[1], [0]], "W_V": [[1], [0]]})


def test_a_time_limit_is_not_taken_for_a_failed_rewriting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ``except ValueError`` that skips a rewriting SymPy cannot do (and SymPy's own,
    inside it) must let the command's time limit through: it ends the derivation, not
    just the rewriting."""
    import contextlib
    import threading
    import time

    import sympy

    from symattn.budget import time_budget

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("the budget's timer signal needs the main thread")

    def slow_rewriting(expr: object) -> object:
        end = time.monotonic() + 5
        while time.monotonic() < end:
            with contextlib.suppress(ValueError):  # as SymPy's sign test does
                sympy.Integer(2) ** 100
        raise ValueError("not rewritten")

    monkeypatch.setattr(sympy, "expand", slow_rewriting)
    start = time.monotonic()
    with pytest.raises(TimeLimitExceeded, match="deriving"), time_budget(0.1, "deriving"):
        exact_rational(sympy.sin(1) ** 2 + sympy.cos(1) ** 2)
    assert time.monotonic() - start < 1
