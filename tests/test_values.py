"""The value grammar (SPEC §2): what a matrix entry may be, read exactly and never evaluated.

Accepted: integers, decimals read exactly, ``"3/4"``, ``"sqrt(N)"`` reduced, products and
quotients of these, and symbol names.  Everything else is a :class:`ValueSyntaxError`.
"""

from __future__ import annotations

import builtins
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from symattn.load.values import MAX_VALUE_LENGTH, ValueSyntaxError, parse_value
from symattn.printing import sstr


def _number(raw: object) -> Fraction:
    """The exact rational value of ``raw``; fails the test if it is not a rational number."""
    mono = parse_value(raw)
    assert mono.is_number, f"{raw!r} was read as a symbol expression: {mono}"
    assert mono.coef.is_rational, f"{raw!r} is not rational: {mono.coef}"
    return mono.coef.as_fraction()


# -- numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (0, Fraction(0)),
        (3, Fraction(3)),
        (-7, Fraction(-7)),
        (10**100, Fraction(10**100)),
        ("3", Fraction(3)),
        ("-3", Fraction(-3)),
        ("+5", Fraction(5)),
        ("--2", Fraction(2)),
        ("3/4", Fraction(3, 4)),
        ("-3/4", Fraction(-3, 4)),
        ("6/8", Fraction(3, 4)),
        ("3/4/5", Fraction(3, 20)),
        ("1/2*3", Fraction(3, 2)),
        ("2*3*4", Fraction(24)),
        ("(1/2)", Fraction(1, 2)),
        ("0.1", Fraction(1, 10)),
        ("0.25", Fraction(1, 4)),
        (".5", Fraction(1, 2)),
        ("1.", Fraction(1)),
        ("1e-3", Fraction(1, 1000)),
        ("1.5e2", Fraction(150)),
        ("2.5E-1", Fraction(1, 4)),
        ("0.1/0.3", Fraction(1, 3)),
        ("  3/4  ", Fraction(3, 4)),
        ("3 / 4", Fraction(3, 4)),
        ("2^3", Fraction(8)),
        ("2**-2", Fraction(1, 4)),
        ("(1/2)^2", Fraction(1, 4)),
        ("-0", Fraction(0)),
        ("0.0000", Fraction(0)),
    ],
)
def test_rational_values_are_exact(raw: object, expected: Fraction) -> None:
    assert _number(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (Decimal("0.1"), Fraction(1, 10)),
        (Decimal("0.2"), Fraction(1, 5)),
        (Decimal("0.30000000000000004"), Fraction(30000000000000004, 10**17)),
        (Decimal("-2.50"), Fraction(-5, 2)),
        (Decimal("1E-3"), Fraction(1, 1000)),
        (Decimal("1.5E+2"), Fraction(150)),
        (Decimal("0E-7"), Fraction(0)),
        # A Python float (only from Python callers) is read through its shortest repr.
        (0.1, Fraction(1, 10)),
        (1.5, Fraction(3, 2)),
        (Fraction(2, 6), Fraction(1, 3)),
    ],
)
def test_decimals_are_read_exactly_never_through_binary_floats(
    raw: object, expected: Fraction
) -> None:
    value = _number(raw)
    assert value == expected
    if expected == Fraction(1, 10):
        # The binary float nearest 0.1 is 3602879701896397/36028797018963968, not 1/10.
        assert value != Fraction(0.1)


def test_point_one_plus_point_two_is_exactly_three_tenths() -> None:
    total = _number(Decimal("0.1")) + _number(Decimal("0.2"))
    assert total == Fraction(3, 10)
    assert total == _number("0.3")


@pytest.mark.parametrize(
    ("raw", "expected_str"),
    [
        ("sqrt(2)", "sqrt(2)"),
        ("sqrt(8)", "2*sqrt(2)"),
        ("sqrt(12)", "2*sqrt(3)"),
        ("sqrt(72)", "6*sqrt(2)"),
        ("sqrt(4)", "2"),
        ("sqrt(0)", "0"),
        ("sqrt(1/2)", "sqrt(2)/2"),
        ("sqrt(0.5)", "sqrt(2)/2"),
        ("sqrt(3/4)", "sqrt(3)/2"),
        ("-sqrt(2)/2", "-sqrt(2)/2"),
        ("-3*sqrt(2)/2", "-3*sqrt(2)/2"),
        ("-3*sqrt(8)/4", "-3*sqrt(2)/2"),
        ("3*sqrt(2)/sqrt(8)", "3/2"),
        ("sqrt(8)/sqrt(2)", "2"),
        ("sqrt(2)*sqrt(3)", "sqrt(6)"),
        ("sqrt(2)^2", "2"),
        ("1/sqrt(2)", "sqrt(2)/2"),
        ("2/sqrt(8)", "sqrt(2)/2"),
    ],
)
def test_square_roots_are_reduced(raw: str, expected_str: str) -> None:
    mono = parse_value(raw)
    assert mono.is_number
    assert sstr(mono.coef) == expected_str
    # The printed form is SymPy's, and SymPy reads it back to the same number.
    assert sympy.simplify(mono.to_sympy() - sympy.sympify(expected_str)) == 0


def test_sqrt_of_eight_is_two_sqrt_two_as_a_sympy_value() -> None:
    assert parse_value("sqrt(8)").to_sympy() == 2 * sympy.sqrt(2)


# -- symbols -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "powers", "coef"),
    [
        ("a", (("a", 1),), "1"),
        ("w_12", (("w_12", 1),), "1"),
        ("x1", (("x1", 1),), "1"),
        ("wq_11", (("wq_11", 1),), "1"),
        ("alpha_2", (("alpha_2", 1),), "1"),
        ("2*w_12", (("w_12", 1),), "2"),
        ("-w_12/2", (("w_12", 1),), "-1/2"),
        ("sqrt(2)*a", (("a", 1),), "sqrt(2)"),
        ("x^2", (("x", 2),), "1"),
        ("x**-1", (("x", -1),), "1"),
        ("a*b", (("a", 1), ("b", 1)), "1"),
        ("a*b/a", (("b", 1),), "1"),
    ],
)
def test_symbol_expressions(raw: str, powers: tuple[tuple[str, int], ...], coef: str) -> None:
    mono = parse_value(raw)
    assert not mono.is_number
    assert mono.powers == powers
    assert sstr(mono.coef) == coef


def test_symbol_becomes_a_plain_sympy_symbol() -> None:
    expr = parse_value("-3*w_12/2").to_sympy()
    assert expr == sympy.Rational(-3, 2) * sympy.Symbol("w_12")
    assert {s.name for s in expr.free_symbols} == {"w_12"}


def test_quotient_of_a_symbol_by_itself_is_a_number() -> None:
    mono = parse_value("w_12/w_12")
    assert mono.is_number
    assert mono.coef.as_fraction() == 1


# -- rejected values ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("a+b", "sum"),
        ("1 - 2", "sum"),
        ("1+1", "sum"),
        ("1/0", "division by zero"),
        ("x/0", "division by zero"),
        ("0^-1", "division by zero"),
        ("sqrt(-1)", "negative"),
        ("sqrt(-2)", "negative"),
        ("sqrt(x)", "sqrt"),
        ("sqrt()", ")"),
        ("sqrt(2", "ends"),
        ("sqrt", "ends"),
        ("(", "ends"),
        (")", ")"),
        ("x*", "ends"),
        ("*x", "*"),
        ("1 2", "2"),
        ("x y", "y"),
        ("3,4", ","),
        ("1;2", ";"),
        ("½", "½"),
        ("0x10", "x10"),
        ("1_000", "_"),
        ("2^65", "64"),
        ("2^0.5", "exponent"),
        ("2^x", "exponent"),
        ("1e999", "range"),
        ("1e101", "range"),
        ("1e-999", "range"),
        ("sqrt(10000000000001)", "large"),
        ("exp(1)", "exp"),
        ("log(2)", "log"),
        ("sin(1)", "sin"),
        ("pi", "pi"),
        ("E", "E"),
        ("I", "I"),
        ("oo", "oo"),
        ("zoo", "zoo"),
        ("lambda", "lambda"),
        ("True", "True"),
        ("None", "None"),
        ("import", "import"),
        ("x_", "_"),
        ("_x", "_"),
        ("w__1", "_"),
        ("x.y", "."),
        ("'1'", "'"),
        ('"1"', '"'),
        ("[1]", "["),
        ("a@b", "@"),
        ("1 == 1", "="),
        ("1 % 2", "%"),
        ("Rational(1/2)", "Rational"),
        ("Symbol(x)", "Symbol"),
        ("S(1)/2", "S"),
    ],
)
def test_rejected_strings(raw: str, fragment: str) -> None:
    with pytest.raises(ValueSyntaxError) as info:
        parse_value(raw)
    message = str(info.value)
    assert fragment in message, message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (True, "boolean"),
        (False, "boolean"),
        (None, "null"),
        ([1], "list"),
        ([], "list"),
        ({"a": 1}, "dict"),
        ({}, "dict"),
        (10**101, "range"),
        (-(10**101), "range"),
        (Decimal("1E+200"), "range"),
        (Decimal("1E-200"), "range"),
        (object(), "object"),
        (b"1", "bytes"),
    ],
)
def test_rejected_non_string_values(raw: object, fragment: str) -> None:
    with pytest.raises(ValueSyntaxError) as info:
        parse_value(raw)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("√2", "sqrt(2)"),
        ("−3", "-3"),
        ("2√2", "2*sqrt(2)"),
        ("5√2/2", "5*sqrt(2)/2"),
        ("√(2/3)", "sqrt(6)/3"),
        ("\\frac{1}{2}", "1/2"),
        ("\\frac{5\\sqrt{2}}{2}", "5*sqrt(2)/2"),
        ("\\sqrt{8}", "2*sqrt(2)"),
        ("{3}/4", "3/4"),
        ("2²", "4"),
        ("3·2", "6"),
        ("3×2", "6"),
    ],
)
def test_problem_values_read_the_forms_answers_use(raw: str, expected: str) -> None:
    """One grammar: a problem entry may be written as students write their answers."""
    mono = parse_value(raw)
    assert mono.is_number and sstr(mono.coef) == expected


@pytest.mark.parametrize("raw", ["(((2^64)^64)^64)^64", "((10^64)^64)^2", "(2^64)^64"])
def test_towers_of_powers_are_refused_at_once(raw: str) -> None:
    """A power may not build a number past about 10^200: refused before it is computed."""
    with pytest.raises(ValueSyntaxError) as info:
        parse_value(raw)
    assert "range" in str(info.value)


@pytest.mark.parametrize("name", ["re", "im", "Ei", "Si", "QQ", "Eq", "Lt", "Gt", "Ne", "ff"])
def test_names_that_sympy_reads_as_something_else_are_reserved(name: str) -> None:
    """Every accepted symbol name reads back through sympify as the same symbol."""
    with pytest.raises(ValueSyntaxError) as info:
        parse_value(name)
    assert "reserved" in str(info.value)


def test_accepted_symbol_names_round_trip_through_sympify() -> None:
    for name in ("a", "w_12", "x1", "alpha_2", "wq", "b_h"):
        assert sympy.sympify(name) == sympy.Symbol(name)
        assert parse_value(name).powers == ((name, 1),)


def test_overlong_value_is_rejected_before_parsing() -> None:
    assert _number("1" * 10) == 1111111111
    with pytest.raises(ValueSyntaxError) as info:
        parse_value("1*" * MAX_VALUE_LENGTH + "1")
    assert str(MAX_VALUE_LENGTH) in str(info.value)


@pytest.mark.parametrize(
    "raw",
    [
        "nan",
        "NaN",
        "-nan",
        "inf",
        "-inf",
        "+inf",
        "INF",
        "Infinity",
        "-Infinity",
        "infinity",
        Decimal("NaN"),
        Decimal("-NaN"),
        Decimal("sNaN"),
        Decimal("Infinity"),
        Decimal("-Infinity"),
        float("nan"),
        float("inf"),
        float("-inf"),
    ],
    ids=repr,
)
def test_nan_and_infinity_are_not_finite_numbers(raw: object) -> None:
    with pytest.raises(ValueSyntaxError) as info:
        parse_value(raw)
    assert "finite" in str(info.value), str(info.value)


# -- safety: nothing is evaluated ----------------------------------------------------------


def _injections(target: Path) -> list[str]:
    return [
        f"__import__('os').system('touch {target}')",
        f"open('{target}', 'w')",
        f"exec(\"open('{target}', 'w')\")",
        f"eval(\"open('{target}', 'w')\")",
        f"os.system('touch {target}')",
        f"sympify(\"open('{target}', 'w')\")",
        f"lambda: open('{target}', 'w')",
        f"[open('{target}', 'w') for _ in '1']",
        f"1 if open('{target}', 'w') else 0",
    ]


def test_code_in_a_value_is_rejected_and_nothing_runs(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    for raw in _injections(target):
        with pytest.raises(ValueSyntaxError):
            parse_value(raw)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_the_issue_payload_is_rejected_and_does_not_touch_tmp_pwned() -> None:
    target = Path("/tmp/pwned")
    if target.exists():
        pytest.skip("/tmp/pwned already exists; cannot tell whether the parser created it")
    with pytest.raises(ValueSyntaxError) as info:
        parse_value("__import__('os').system('touch /tmp/pwned')")
    assert "_" in str(info.value)
    assert not target.exists()


def test_parsing_never_calls_eval_exec_or_sympify(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def forbidden(name: str):  # type: ignore[no-untyped-def]
        def fail(*args: object, **kwargs: object) -> None:
            calls.append(name)
            raise AssertionError(f"{name} called on {args!r}")

        return fail

    monkeypatch.setattr(builtins, "eval", forbidden("eval"))
    monkeypatch.setattr(builtins, "exec", forbidden("exec"))
    monkeypatch.setattr(builtins, "compile", forbidden("compile"))
    monkeypatch.setattr(sympy, "sympify", forbidden("sympify"))
    monkeypatch.setattr(sympy, "parse_expr", forbidden("parse_expr"), raising=False)
    values = ["3/4", "-3*sqrt(8)/4", "2*w_12", "x^2", "0.1", "sqrt(1/2)", "a*b/c"]
    parsed = [parse_value(v) for v in values]
    for bad in ("__import__('os')", "exp(1)", "a+b"):
        with pytest.raises(ValueSyntaxError):
            parse_value(bad)
    monkeypatch.undo()
    assert calls == []
    assert [p.is_number for p in parsed] == [True, True, False, False, True, True, False]
