r"""The exact forms symattn prints are answers (reproducer r12, issue 22): ``cos(1/10)``,
``\sin{\left(\frac{1}{10} \right)}``, ``3*tanh(1)``, ``E``; every exact value that
``derive`` prints for the topics with functions (positions, RoPE, additive attention,
ALiBi), in its text form (``--format json``) and its LaTeX form (``--format tex``), is
read back by the reader of answers as that same exact value.  Absurd input (too long,
too deep) is refused in one line, never evaluated, never a stack overflow."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
import sympy

import symattn
from symattn.check import check
from symattn.examples import example_path
from symattn.load.grammar import (
    ANSWER,
    MAX_ANSWER_LENGTH,
    MAX_DEPTH,
    MAX_VALUE_LENGTH,
    ValueSyntaxError,
    parse,
)
from symattn.load.readings import read_answer
from symattn.printing.latex import LatexPrinter

from .helpers import ROOT

#: The topics whose exact forms hold sin, cos, tanh (and ALiBi's slopes, for good measure).
SOURCES = {
    "positions": example_path("positions"),
    "rope": example_path("rope"),
    "additive": example_path("additive"),
    "alibi": ROOT / "docs" / "examples" / "alibi.toml",
}


def _same_exact(written: str, reference: str) -> None:
    """``written`` is read as an exact answer equal to ``reference`` (a SymPy string) to
    55 significant digits; -oo (a masked score) as −∞."""
    reading = read_answer(written)
    assert reading.exact, (written, reading)
    expected = sympy.sympify(reference)
    if expected == -sympy.oo:
        assert reading.value == Decimal("-Infinity"), written
        return
    value = Decimal(str(sympy.N(expected, 70)))
    assert abs(reading.value - value) <= Decimal("1e-55") * max(1, abs(value)), (
        written,
        reading.value,
        value,
    )


def _entries(name: str) -> list[tuple[str, str, str]]:
    """(step, text form as printed in the JSON, LaTeX form as the tex document prints it)."""
    derivation = symattn.derive(str(SOURCES[name]))
    printed = json.loads(derivation.render("json"))
    latex = LatexPrinter()
    out = []
    for step in printed["steps"]:
        exact = derivation.step(step["id"]).exact
        for i, row in enumerate(step["exact"]):
            for j, text in enumerate(row):
                if isinstance(text, str):
                    out.append((step["id"], text, latex(exact[i][j])))
    return out


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_printed_exact_value_reads_back_as_itself(name: str) -> None:
    entries = _entries(name)
    functions = 0
    for _, text, tex in entries:
        _same_exact(text, text)
        _same_exact(tex, text)
        functions += any(f in text for f in ("sin(", "cos(", "tanh("))
    assert entries
    if name != "alibi":  # the forms this test is about are really there
        assert functions > 0, name


def test_a_whole_rope_derivation_answered_with_its_own_forms_is_right() -> None:
    key = symattn.derive(str(SOURCES["rope"]))
    latex = LatexPrinter()
    for form in ("text", "latex"):
        answers = {}
        for step in key:
            rows, cols = step.shape
            for i in range(rows):
                for j in range(cols):
                    value = step.exact[i][j]
                    written = step.exact_str(i, j) if form == "text" else latex(value)
                    answers[f"{step.id}[{i + 1},{j + 1}]"] = written
        result = check(key, answers)
        statuses = {e.status for s in result.steps for e in s.entries}
        assert statuses == {"ok"}, (form, statuses)


@pytest.mark.parametrize(
    ("written", "reference"),
    [
        ("cos(1/10)", "cos(1/10)"),
        (r"\sin{\left(\frac{1}{10} \right)}", "sin(1/10)"),
        (r"\cos{2}", "cos(2)"),
        (r"\cos 2", "cos(2)"),
        ("3*tanh(1)", "3*tanh(1)"),
        ("3 tanh(1)", "3*tanh(1)"),
        (r"3 \tanh{\left(1 \right)}", "3*tanh(1)"),
        ("-sin(1) + cos(1/10)", "-sin(1) + cos(1/10)"),
        ("sin(1)^2 + cos(1)^2", "1"),
        ("tanh(-1/2)", "-tanh(1/2)"),
        ("sin(1e-30)", "sin(1/10**30)"),
        ("E", "E"),
        ("2E", "2*E"),
        ("E^2/(E^2 + E^5)", "exp(2)/(exp(2) + exp(5))"),
        ("exp(cos(1/10)/2 - sin(1)/2)", "exp(cos(1/10)/2 - sin(1)/2)"),
    ],
)
def test_functions_by_name_and_by_latex_command(written: str, reference: str) -> None:
    _same_exact(written, reference)


def test_a_decimal_inside_a_function_keeps_its_unit() -> None:
    reading = read_answer("sin(0.10)")  # 0.10 ± 0.01, and |sin′| ≤ 1
    assert not reading.exact
    assert reading.radius == Decimal("0.01")
    assert abs(reading.value - Decimal(str(sympy.N(sympy.sin(sympy.Rational(1, 10)), 70)))) < (
        Decimal("1e-50")
    )


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("sin", "ends too early"),
        ("sin 1", "expected '('"),
        ("sin(2000)", "too large"),
        ("tanh(-1e4)", "too large"),
        ("x" * (MAX_ANSWER_LENGTH + 1), f"longer than {MAX_ANSWER_LENGTH}"),
        ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), f"nested more than {MAX_DEPTH}"),
        ("sin(" * 600 + "1" + ")" * 600, f"nested more than {MAX_DEPTH}"),
        ("-" * 3000 + "1", f"nested more than {MAX_DEPTH}"),
        ("2^" * 1500 + "2", f"nested more than {MAX_DEPTH}"),
        ("+".join(["1"] * 1500), f"nested more than {MAX_DEPTH}"),
        ("*".join(["cos(1)"] * 500), f"nested more than {MAX_DEPTH}"),
    ],
)
def test_absurd_answers_are_refused_in_one_line(written: str, reason: str) -> None:
    with pytest.raises(ValueSyntaxError) as info:
        read_answer(written)
    message = str(info.value)
    assert reason in message and "\n" not in message and len(message) < 200, message


def test_just_under_the_limits_is_read() -> None:
    assert read_answer("(" * (MAX_DEPTH - 1) + "2" + ")" * (MAX_DEPTH - 1)).value == 2
    assert read_answer("+".join(["1"] * (MAX_DEPTH - 1))).value == MAX_DEPTH - 1
    long = "+".join(["cos(1/10)"] * 80) + " " * (MAX_ANSWER_LENGTH - 799)  # 80 terms, 4,000
    assert len(long) == MAX_ANSWER_LENGTH and read_answer(long.strip()).exact
    with pytest.raises(ValueSyntaxError, match="out of range") as info:
        read_answer("0." + "1" * 3000)  # the message shows the start of the text, not all
    assert len(str(info.value)) < 80


def test_problem_files_still_take_neither_functions_nor_long_values() -> None:
    from symattn.load.values import parse_value

    with pytest.raises(ValueSyntaxError):
        parse_value(r"\sin{1}")
    with pytest.raises(ValueSyntaxError, match=str(MAX_VALUE_LENGTH)):
        parse_value("1+" * MAX_VALUE_LENGTH + "1")
    assert type(parse("sin(1)", ANSWER)).__name__ == "Func"


def test_the_reproducer_r12_is_right() -> None:
    answers = {
        "Q_rot[2,4]": "cos(1/10)",
        "K_rot[2,4]": r"\sin{\left(\frac{1}{10} \right)}",
    }
    result = check(symattn.derive(str(SOURCES["rope"])), answers)
    assert [e.status for s in result.steps for e in s.entries] == ["ok", "ok"]
