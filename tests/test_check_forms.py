"""Answers as students really write them: every written form, in every answers format.

The problem is the seed example (我 爱, √2 scale): a₁,₁ = e^√2/(e^√2 + e^(5√2/2)) ≈
0.107042 and s′₁,₁ = √2.  Each form is written in an answers file of each format (JSON,
TOML, CSV) and must be read with the tolerance the contract states.
"""

from __future__ import annotations

import csv
import decimal
import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symattn
from symattn.check import check
from symattn.cli import main
from symattn.examples import example_path
from symattn.load.readings import read_answer
from symattn.numbers import decimal_context, round_half_away

from .helpers import said

SEED = example_path("seed")
KEY = symattn.derive(SEED)
A11 = KEY.step("weights").values[0][0]  # 0.107042…
S11 = KEY.step("scaled_scores").values[0][0]  # √2


def _write(tmp_path: Path, fmt: str, step: str, value: str) -> Path:
    """``value`` as entry (1, 1) of ``step``, in an answers file of format ``fmt``."""
    path = tmp_path / f"answers.{fmt}"
    if fmt == "json":
        path.write_text(json.dumps({f"{step}[1,1]": value}, ensure_ascii=False), encoding="utf-8")
    elif fmt == "toml":
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        path.write_text(f'"{step}[1,1]" = "{escaped}"\n', encoding="utf-8")
    else:
        out = io.StringIO()
        csv.writer(out).writerows([["step", "row", "col", "value"], [step, 1, 1, value]])
        path.write_text(out.getvalue(), encoding="utf-8")
    return path


def _status(tmp_path: Path, fmt: str, step: str, value: str, *extra: str) -> str:
    path = _write(tmp_path, fmt, step, value)
    buffer = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(buffer):
        status = main(["check", str(SEED), str(path), "--format", "json", *extra])
    assert status in (0, 1)
    steps = {s["id"]: s for s in json.loads(buffer.getvalue())["steps"]}
    (entry,) = steps[step]["entries"]
    return str(entry["status"])


FORMATS = ("json", "toml", "csv")

#: (step, written, status): right and wrong ways to write a₁,₁ ≈ 0.1070 and s′₁,₁ = √2.
WRITTEN = [
    ("weights", "0.1070", "ok"),
    ("weights", ".107", "ok"),
    ("weights", "0,107", "ok"),  # decimal comma
    ("weights", "≈0.107", "ok"),
    ("weights", " 0.107 ", "ok"),
    ("weights", "1.07e-1", "ok"),
    ("weights", "1.0704E-1", "ok"),
    ("weights", "1.07×10^-1", "ok"),
    ("weights", "1.07·10⁻¹", "ok"),
    ("weights", "10.7%", "ok"),
    ("weights", "10.70%", "ok"),
    ("weights", "e^(√2)/(e^(√2)+e^(5√2/2))", "ok"),
    ("weights", "exp(sqrt(2))/(exp(sqrt(2)) + exp(5*sqrt(2)/2))", "ok"),
    ("weights", r"\dfrac{e^{\sqrt{2}}}{e^{\sqrt{2}}+e^{5\sqrt{2}/2}}", "ok"),
    ("weights", r"\frac{e^{\sqrt{2}}}{e^{\sqrt{2}} + e^{\frac{5\sqrt{2}}{2}}}", "ok"),
    ("weights", "1/(1 + e^(3√2/2))", "ok"),  # the same number, another closed form
    ("weights", "0.1", "ok"),  # one place: one unit of the last place
    ("weights", "0.12", "wrong"),
    ("weights", "0.1080", "wrong"),
    ("weights", "3/28", "wrong"),  # exact and close: read as exact
    ("weights", "6.3379e-02", "wrong"),  # the unscaled weight
    # products by juxtaposition with a space, as sympy.latex writes them (r03)
    ("weights", "1/(1 + e^(3/2 sqrt(2)))", "ok"),
    ("weights", r"\frac{1}{1 + e^{\frac{3}{2} \sqrt{2}}}", "ok"),
    ("weights", "e^(√2) e^(-5/2 √2) / (1 + e^(√2) e^(-5/2 √2))", "ok"),
    ("weights", "6.3379 e-02", "invalid"),  # a power of ten, or 6.3379·e − 2?
    ("weights", "oops", "invalid"),
    ("weights", "1/0", "invalid"),
    ("weights", "2⁻", "invalid"),  # a lone superscript sign
    ("weights", "7·10⁺", "invalid"),
    ("scaled_scores", "√2", "ok"),
    ("scaled_scores", "2/√2", "ok"),
    ("scaled_scores", "sqrt(2)", "ok"),
    ("scaled_scores", "2^(1/2)", "ok"),
    ("scaled_scores", r"\sqrt{2}", "ok"),
    ("scaled_scores", "1,41", "ok"),
    ("scaled_scores", "1.414", "ok"),
    ("scaled_scores", "1.4142", "ok"),
    ("scaled_scores", "1.41", "ok"),
    ("scaled_scores", "1/2 sqrt(8)", "ok"),
    ("scaled_scores", r"2 \exp(0) \sqrt{2} / 2", "ok"),
    ("scaled_scores", r"e^{2} e^{-2} \sqrt{2}", "ok"),
    ("scaled_scores", "1.43", "wrong"),
    ("scaled_scores", "7/5", "wrong"),
    ("scaled_scores", "2√2", "wrong"),
    ("scaled_scores", "−√2", "wrong"),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("step", "written", "status"), WRITTEN)
def test_written_forms(tmp_path: Path, fmt: str, step: str, written: str, status: str) -> None:
    assert _status(tmp_path, fmt, step, written) == status


@pytest.mark.parametrize(
    ("written", "places", "status"),
    [
        ("0.1", 4, "too_coarse"),
        ("0.107", 4, "too_coarse"),
        ("0.1070", 4, "ok"),
        ("0.10704", 4, "ok"),
        ("0.1070", 2, "ok"),
        ("10.7%", 4, "too_coarse"),  # 0.107: three places
        ("1.0704e-1", 4, "ok"),  # 0.10704: five places
        ("e^(√2)/(e^(√2)+e^(5√2/2))", 4, "ok"),  # exact: no places needed
        ("0.5", 4, "wrong"),  # wrong whatever its places
    ],
)
def test_required_places(tmp_path: Path, written: str, places: int, status: str) -> None:
    assert _status(tmp_path, "json", "weights", written, "--places", str(places)) == status


def test_places_from_the_problem_file(tmp_path: Path) -> None:
    problem = tmp_path / "p.toml"
    problem.write_text(SEED.read_text(encoding="utf-8") + "\nplaces = 4\n", encoding="utf-8")
    result = check(problem, {"weights[1,1]": "0.11", "weights[1,2]": "0.8930"})
    statuses = [e.status for e in result.steps[0].entries]
    assert statuses == ["too_coarse", "ok"]
    assert "4 decimal places" in said(result.steps[0].entries[0].message)
    assert result.exit_status == 1


def test_an_exact_answer_near_the_key_says_it_was_read_as_exact() -> None:
    result = check(KEY, {"weights[1,1]": "3/28"})
    (entry,) = result.steps[0].entries
    assert entry.status == "wrong"
    assert "exact value" in said(entry.message)
    # the key as the tool writes it, which a student may copy: e^(√2) / (e^(√2) + e^(5√2/2))
    assert "e^(√2) / (e^(√2) + e^(5√2/2))" in said(entry.message) and "0.1070" in said(
        entry.message
    )
    assert "精确" in said(entry.message, "zh")


@pytest.mark.parametrize(
    "written",
    [
        r"\begin{bmatrix} 0.1070 & 0.8930 \\ 0.9717 & 0.0283 \end{bmatrix}",
        r"\left[\begin{matrix} 0.1070 & 0.8930 \\ 0.9717 & 0.0283 \end{matrix}\right]",
        r"\begin{pmatrix} 0.1070 & 0.8930 \\ 0.9717 & 0.0283 \end{pmatrix}",
        r"\begin{array}{cc} 0.1070 & 0.8930 \\ 0.9717 & 0.0283 \end{array}",
        "[[0.1070, 0.8930], [0.9717, 0.0283]]",
        "[[0.1070,0.8930],[0.9717,0.0283]]",
        "0.1070 0.8930; 0.9717 0.0283",
        "0,1070 0,8930\n0,9717 0,0283",
        "0.1070, 0.8930; 0.9717, 0.0283",
    ],
)
def test_whole_matrix_strings(written: str) -> None:
    result = check(KEY, {"weights": written})
    assert result.verdict == "correct", result.to_json()
    assert len(result.steps[0].entries) == 4


def test_one_row_and_one_entry_can_be_answered_alone() -> None:
    """The seed's own "以我为例计算 b1": only the first output row."""
    result = check(KEY, {"output[1]": ["1.89", "2.45"]})
    (step,) = result.steps
    assert step.id == "output" and step.status == "partial" and len(step.entries) == 2
    assert check(KEY, {"output[1]": "1.89 2.45"}).verdict == "correct"
    assert check(KEY, {"weights[2,1]": "0.9717"}).verdict == "correct"
    wrong = check(KEY, {"weights[2,1]": "0.0283"})
    assert wrong.verdict == "incorrect" and wrong.steps[0].entries[0].index == (2, 1)


def test_a_csv_answers_file(tmp_path: Path) -> None:
    path = tmp_path / "answers.csv"
    path.write_text(
        'step,row,col,value\nscores,1,1,2\nscores,1,2,5\nweights,1,1,"0,1070"\nweights,1,2,0.8930\n',
        encoding="utf-8",
    )
    result = check(KEY, str(path))
    assert result.verdict == "correct"
    assert [len(s.entries) for s in result.steps] == [2, 2]


def test_minus_infinity_in_every_spelling() -> None:
    key = symattn.derive(example_path("causal"))
    for written in ("-inf", "−∞", "-oo", r"-\infty", "-∞"):
        result = check(key, {"masked_scores[1,2]": written})
        assert result.verdict == "correct", written


def test_one_unreadable_entry_leaves_the_rest_marked(tmp_path: Path) -> None:
    result = check(KEY, {"weights": [["oops", "0.8930"], ["0.9717", "0.0283"]]})
    statuses = [e.status for e in result.steps[0].entries]
    assert statuses == ["invalid", "ok", "ok", "ok"]
    assert result.exit_status == 1
    message = said(result.steps[0].entries[0].message)
    assert "oops" in message and "could not be read" in message


# -- the tolerance rule as a property --------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(places=st.integers(1, 8), offset=st.integers(-30, 30))
def test_any_decimal_within_one_unit_is_accepted_and_no_other(places: int, offset: int) -> None:
    """Write a₁,₁ to ``places`` places, then move it ``offset`` tenths of a unit: accepted
    exactly when it stays within one unit of its last place."""
    unit = Fraction(1, 10**places)
    written = Fraction(Decimal(round_half_away(A11, places))) + unit * offset / 10
    text = round_half_away(written, places + 1)
    value = Fraction(Decimal(text))
    within = abs(value - Fraction(A11)) <= Fraction(1, 10 ** (places + 1))
    assert read_answer(text).radius == Decimal(1).scaleb(-(places + 1))
    result = check(KEY, {"weights[1,1]": text})
    assert (result.verdict == "correct") == within, (text, float(A11))


@settings(max_examples=100, deadline=None)
@given(places=st.integers(1, 6), exponent=st.integers(-3, 3))
def test_scientific_notation_takes_its_tolerance_from_the_mantissa(
    places: int, exponent: int
) -> None:
    value = Fraction(A11)
    mantissa = value / Fraction(10) ** exponent
    text = f"{round_half_away(mantissa, places)}e{exponent:+d}"
    reading = read_answer(text)
    assert reading.radius == Decimal(1).scaleb(exponent - places)
    assert check(KEY, {"weights[1,1]": text}).verdict == "correct", text


def test_readings_are_never_eval(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import builtins

    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("eval called")

    monkeypatch.setattr(builtins, "eval", forbidden)
    target = tmp_path / "pwned"
    for text in (f"__import__('os').system('touch {target}')", "exec('1')", "[x for x in '1']"):
        result = check(KEY, {"weights[1,1]": text})
        assert result.steps[0].entries[0].status == "invalid"
    assert not target.exists()


@settings(max_examples=300, deadline=None)
@given(
    st.from_regex(r"-?[0-9]{1,6}(\.[0-9]{1,8})?", fullmatch=True),
)
def test_plain_decimals_read_as_the_parser_reads_them(text: str) -> None:
    """The fast path for plain decimals gives exactly the parser's reading."""
    from symattn.load.grammar import ANSWER, parse
    from symattn.load.readings import PRECISION, _interval

    fast = read_answer(text)
    with decimal.localcontext(decimal_context(PRECISION)):
        slow = _interval(parse(text, ANSWER))
    assert (fast.value, fast.radius) == (+slow.mid, +slow.rad)
    assert str(fast.value) == str(+slow.mid) and str(fast.radius) == str(+slow.rad)


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("1.4142", "ok"),
        ("1.414200", "ok"),  # more places than asked: one unit of the 4th place (SPEC §13)
        ("1.41421356", "ok"),
        ("1.4143", "ok"),  # 0.86 of a unit above √2 = 1.4142136
        ("1.414300", "ok"),
        ("1.414100", "wrong"),  # 1.14 units below
        ("1.4141", "wrong"),
        ("1.41", "too_coarse"),
        ("√2", "ok"),
    ],
)
def test_places_hold_every_decimal_to_the_asked_place(written: str, status: str) -> None:
    result = check(KEY, {"scaled_scores[1,1]": written}, places=4)
    assert [e.status for e in result.steps[0].entries] == [status]


def test_an_exact_value_with_few_places_is_not_coarse() -> None:
    """2 for the score 2 and 0 for 0 have fewer than 4 places and are exact: right."""
    result = check(KEY, {"scores": [["2", "5"], ["5.0", "0"]]}, places=4)
    assert [e.status for e in result.steps[0].entries] == ["ok"] * 4


def test_an_exact_value_from_a_wrong_step_is_not_premature_rounding() -> None:
    """Scores divided by d_k = 2 are 1 and 2.5 (exact, not rounded): the weights worked
    from them carry that error; it is never 'rounded too early'."""
    answers = {
        "scaled_scores": [["1", "2.5"], ["2.5", "0"]],
        "weights": [["0.1824", "0.8176"], ["0.9241", "0.0759"]],
    }
    result = check(KEY, answers)
    steps = {s.id: s for s in result.steps}
    assert [d.id for d in steps["scaled_scores"].diagnosis] == ["scaled_by_d_model", "scaled_by_dk"]
    assert steps["weights"].carried_forward and not steps["weights"].diagnosis
    assert "Scaled scores" in said(steps["weights"].note)
    for lang in ("en", "zh"):
        assert "premature_rounding" not in json.dumps(result.to_json(lang, True))


def test_a_rounded_step_is_still_premature_rounding() -> None:
    """The same weights worked from scaled scores rounded to 1 place are: 1.4 and 3.5."""
    answers = {
        "scaled_scores": [["1.4", "3.5"], ["3.5", "0"]],
        "weights": [["0.1096", "0.8904"], ["0.9707", "0.0293"]],
    }
    result = check(KEY, answers)
    steps = {s.id: s for s in result.steps}
    assert [d.id for d in steps["weights"].diagnosis] == ["premature_rounding"]
