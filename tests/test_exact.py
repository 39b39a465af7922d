"""Exact numbers (symattn.numbers) and their SymPy-syntax printer (symattn.printing):
Surd arithmetic, ExpRatio closed forms, rounding.

Every printed form is compared with SymPy's own str() of an independently built
SymPy expression, and every value with SymPy at high precision.
"""

from __future__ import annotations

import contextlib
import warnings
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.numbers import NEG_INF, ExpRatio, Surd, evaluate, round_half_away, square_free
from symattn.printing import StrPrinter, sstr

exp_str = StrPrinter().exp

with warnings.catch_warnings():
    # Hypothesis imports libcst to write a patch of failing examples when a test fails;
    # libcst here warns (DeprecationWarning) on import, and under filterwarnings=error that
    # turns any property failure into a pytest INTERNALERROR.  Import it once, quietly.
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(ImportError):  # libcst absent: nothing to silence
        import hypothesis.extra._patching  # noqa: F401

SETTINGS = settings(max_examples=60, deadline=None)

#: Square-free radicands (1 means a rational term).
RADICANDS = (1, 2, 3, 5, 6, 7, 10, 11, 15, 30)

fractions = st.builds(
    Fraction, st.integers(-30, 30), st.sampled_from((1, 2, 3, 4, 5, 6, 7, 8, 9, 12))
)
nonzero_fractions = fractions.filter(lambda q: q != 0)


def sym_rational(q: Fraction) -> sympy.Rational:
    return sympy.Rational(q.numerator, q.denominator)


@st.composite
def surds(draw, max_terms: int = 3) -> tuple[Surd, sympy.Expr]:
    """A Surd and the same number built by SymPy alone."""
    radicands = draw(st.lists(st.sampled_from(RADICANDS), max_size=max_terms, unique=True))
    coefs = [draw(nonzero_fractions) for _ in radicands]
    surd = Surd.rational(0)
    expr = sympy.Integer(0)
    for r, c in zip(radicands, coefs):
        surd = surd + Surd.rational(c) * Surd.sqrt(r)
        expr = expr + sym_rational(c) * sympy.sqrt(r)
    return surd, expr


@st.composite
def monomials(draw) -> tuple[Surd, sympy.Expr]:
    r = draw(st.sampled_from(RADICANDS))
    c = draw(nonzero_fractions)
    return Surd.rational(c) * Surd.sqrt(r), sym_rational(c) * sympy.sqrt(r)


# -- square_free ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, (0, 1)),
        (1, (1, 1)),
        (8, (2, 2)),
        (72, (6, 2)),
        (50, (5, 2)),
        (30, (1, 30)),
        (49, (7, 1)),
        (2 * 3**4 * 7**2, (63, 2)),
    ],
)
def test_square_free_known_values(n: int, expected: tuple[int, int]) -> None:
    assert square_free(n) == expected


@given(st.integers(1, 10**6))
@SETTINGS
def test_square_free_splits_n(n: int) -> None:
    k, r = square_free(n)
    assert k * k * r == n
    assert all(r % (p * p) for p in range(2, int(r**0.5) + 2))


def test_square_free_rejects_negative() -> None:
    with pytest.raises(ValueError):
        square_free(-4)


# -- Surd: str forms are SymPy's -------------------------------------------------


@pytest.mark.parametrize(
    "q", [Fraction(0), Fraction(3), Fraction(-7), Fraction(1, 2), Fraction(-3, 4), Fraction(22, 7)]
)
def test_rational_str_matches_sympy(q: Fraction) -> None:
    assert sstr(Surd.rational(q)) == str(sym_rational(q))


@pytest.mark.parametrize(
    ("surd", "text"),
    [
        (Surd.sqrt(2), "sqrt(2)"),
        (Surd.sqrt(8), "2*sqrt(2)"),
        (Surd.sqrt(Fraction(1, 2)), "sqrt(2)/2"),
        (Surd.sqrt(Fraction(9, 8)), "3*sqrt(2)/4"),
        (Surd.sqrt(4), "2"),
        (Surd.sqrt(0), "0"),
        (-Surd.sqrt(12), "-2*sqrt(3)"),
        (Surd.rational(3) * Surd.sqrt(2) / Surd.rational(2), "3*sqrt(2)/2"),
        (Surd.rational(1) + Surd.sqrt(2), "1 + sqrt(2)"),
        (Surd.rational(2) - Surd.rational(3) * Surd.sqrt(5), "2 - 3*sqrt(5)"),
        (Surd.sqrt(3) - Surd.sqrt(2), "-sqrt(2) + sqrt(3)"),
    ],
)
def test_surd_str_known_forms(surd: Surd, text: str) -> None:
    assert sstr(surd) == text
    assert str(sympy.sympify(text)) == text  # the form is SymPy's own str()


@given(monomials())
@SETTINGS
def test_monomial_str_matches_sympy(pair: tuple[Surd, sympy.Expr]) -> None:
    surd, expr = pair
    assert sstr(surd) == str(expr)
    assert surd.is_monomial


@pytest.mark.parametrize(
    "expr",
    [
        1 + sympy.sqrt(2),
        1 - sympy.sqrt(2),
        -1 + sympy.sqrt(2),
        -1 - sympy.sqrt(2),
        1 + sympy.sqrt(2) / 2,
        sympy.Rational(1, 2) + sympy.sqrt(2) / 2,
        2 - 3 * sympy.sqrt(5),
        sympy.sqrt(3) + sympy.sqrt(10),
        -sympy.sqrt(3) - sympy.sqrt(10),
        1 + sympy.sqrt(2) + sympy.sqrt(3) + sympy.sqrt(6),
    ],
    ids=str,
)
def test_small_sum_str_matches_sympy_known_cases(expr: sympy.Expr) -> None:
    surd = Surd.rational(0)
    for term in sympy.Add.make_args(expr):
        coef, rest = term.as_coeff_Mul()
        radicand = 1 if rest == 1 else int(rest**2)
        surd = surd + Surd.rational(Fraction(int(coef.p), int(coef.q))) * Surd.sqrt(radicand)
    assert sstr(surd) == str(expr)


@given(surds())
@SETTINGS
def test_small_sum_str_matches_sympy(pair: tuple[Surd, sympy.Expr]) -> None:
    surd, expr = pair
    assert sstr(surd) == str(expr)


@given(surds())
@SETTINGS
def test_small_sum_reads_back_to_the_same_value(pair: tuple[Surd, sympy.Expr]) -> None:
    surd, expr = pair
    assert sympy.simplify(sympy.sympify(sstr(surd)) - expr) == 0


@given(surds())
@SETTINGS
def test_surd_to_decimal_matches_sympy(pair: tuple[Surd, sympy.Expr]) -> None:
    surd, expr = pair
    got = surd.to_decimal(50)
    want = Decimal(str(sympy.N(expr, 70)))
    assert abs(got - want) <= Decimal("1e-45") * max(Decimal(1), abs(want))
    assert abs(float(surd) - float(expr)) <= 1e-15 * max(1.0, abs(float(expr)))


# -- Surd arithmetic ---------------------------------------------------------------


def test_multiplication_reduces_radicands() -> None:
    assert sstr(Surd.sqrt(2) * Surd.sqrt(6)) == "2*sqrt(3)"
    assert sstr(Surd.sqrt(6) * Surd.sqrt(10)) == "2*sqrt(15)"
    assert sstr(Surd.sqrt(3) * Surd.sqrt(3)) == "3"
    assert (Surd.sqrt(2) * Surd.sqrt(2)).is_rational
    assert (Surd.sqrt(5) * Surd.sqrt(5)).as_fraction() == 5
    half = Surd.rational(Fraction(1, 2))
    assert sstr(Surd.sqrt(8) * half) == "sqrt(2)"


@given(surds(), surds())
@SETTINGS
def test_sum_difference_product_match_sympy(
    a: tuple[Surd, sympy.Expr], b: tuple[Surd, sympy.Expr]
) -> None:
    (sa, ea), (sb, eb) = a, b
    for got, want in ((sa + sb, ea + eb), (sa - sb, ea - eb), (sa * sb, sympy.expand(ea * eb))):
        assert sympy.simplify(sympy.sympify(sstr(got)) - want) == 0
        # reduced: every radicand square-free, at most one term per radicand
        assert all(square_free(r) == (1, r) for r, _ in got.terms)
        assert len({r for r, _ in got.terms}) == len(got.terms)


@given(surds(), monomials())
@SETTINGS
def test_division_by_monomial_matches_sympy(
    a: tuple[Surd, sympy.Expr], b: tuple[Surd, sympy.Expr]
) -> None:
    (sa, ea), (sb, eb) = a, b
    got = sa / sb
    assert sympy.simplify(sympy.sympify(sstr(got)) - ea / eb) == 0
    assert all(square_free(r) == (1, r) for r, _ in got.terms)


def test_division_rationalises_the_denominator() -> None:
    assert sstr(Surd.rational(3) / Surd.sqrt(2)) == "3*sqrt(2)/2"
    assert sstr(Surd.rational(1) / Surd.sqrt(Fraction(1, 3))) == "sqrt(3)"
    assert sstr(Surd.sqrt(6) / Surd.sqrt(3)) == "sqrt(2)"
    assert sstr((Surd.rational(1) + Surd.sqrt(2)) / Surd.sqrt(2)) == "sqrt(2)/2 + 1"  # as SymPy


def test_division_errors() -> None:
    with pytest.raises(ZeroDivisionError):
        Surd.rational(1) / Surd.rational(0)
    with pytest.raises(ValueError):
        Surd.rational(1) / (Surd.rational(1) + Surd.sqrt(2))


def test_sqrt_of_negative_is_rejected() -> None:
    with pytest.raises(ValueError):
        Surd.sqrt(-2)


def test_equality_and_hash_follow_the_value() -> None:
    a = Surd.sqrt(8)
    b = Surd.rational(2) * Surd.sqrt(2)
    assert a == b
    assert hash(a) == hash(b)
    assert a != Surd.sqrt(2)
    assert Surd.sqrt(2) - Surd.sqrt(2) == Surd.rational(0)
    assert not (Surd.sqrt(2) - Surd.sqrt(2))


@given(surds())
@SETTINGS
def test_sign_matches_sympy(pair: tuple[Surd, sympy.Expr]) -> None:
    surd, expr = pair
    want = 0 if expr == 0 else (1 if expr > 0 else -1)
    assert surd.sign() == want


def test_sign_of_close_surds() -> None:
    # 665857/470832 is a continued-fraction convergent of sqrt(2): they differ by ~1.6e-12.
    assert (Surd.sqrt(2) - Surd.rational(Fraction(665857, 470832))).sign() == -1
    assert (Surd.rational(Fraction(665857, 470832)) - Surd.sqrt(2)).sign() == 1


@pytest.mark.parametrize("q", [Fraction(1, 10**50), Fraction(-3, 10**45)])
def test_sign_of_tiny_rationals_is_exact(q: Fraction) -> None:
    # The sign of a rational needs no numerics: it must never be "undecidable".
    assert Surd.rational(q).sign() == (1 if q > 0 else -1)


# -- ExpRatio -------------------------------------------------------------------


def test_exp_str_uses_sympy_forms() -> None:
    assert exp_str(Surd.rational(0)) == "1" == str(sympy.exp(0))
    assert exp_str(Surd.rational(1)) == "E" == str(sympy.exp(1))
    assert exp_str(Surd.sqrt(2)) == "exp(sqrt(2))" == str(sympy.exp(sympy.sqrt(2)))
    assert exp_str(Surd.rational(Fraction(-1, 2))) == "exp(-1/2)" == str(sympy.exp(-sympy.S.Half))


def test_neg_inf_prints_as_sympy_minus_oo() -> None:
    assert sstr(NEG_INF) == "-oo" == str(-sympy.oo)
    assert sympy.sympify(sstr(NEG_INF)) == -sympy.oo
    assert float(NEG_INF) == float("-inf")


def _ratio(coefs: list[Fraction], exps: list[Surd]) -> ExpRatio:
    return ExpRatio([Surd.rational(c) for c in coefs], exps)


def test_expratio_softmax_weight_form() -> None:
    half = Surd.rational(Fraction(1, 2))
    ratio = ExpRatio((Surd.rational(1), Surd.rational(0)), (half, Surd.rational(2)))
    assert sstr(ratio) == "exp(1/2)/(exp(1/2) + exp(2))"
    want = sympy.exp(sympy.S.Half) / (sympy.exp(sympy.S.Half) + sympy.exp(2))
    assert sympy.sympify(sstr(ratio)) == want


def test_expratio_single_exponent_is_the_coefficient() -> None:
    assert sstr(_ratio([Fraction(3, 4)], [Surd.sqrt(2)])) == "3/4"


def test_expratio_zero_numerator_is_zero() -> None:
    assert sstr(_ratio([Fraction(0), Fraction(0)], [Surd.sqrt(2), Surd.rational(1)])) == "0"


def test_expratio_rejects_mismatched_lengths() -> None:
    with pytest.raises(ValueError):
        ExpRatio([Surd.rational(1)], [])
    with pytest.raises(ValueError):
        ExpRatio([Surd.rational(1)], [Surd.rational(1), Surd.rational(2)])


@given(
    st.lists(st.tuples(surds(2), surds(2)), min_size=1, max_size=4),
)
@SETTINGS
def test_expratio_reads_back_and_evaluates(
    entries: list[tuple[tuple[Surd, sympy.Expr], tuple[Surd, sympy.Expr]]],
) -> None:
    coefs = [c for (c, _), _ in entries]
    exps = [x for _, (x, _) in entries]
    ratio = ExpRatio(coefs, exps)
    want = sympy.Add(*(ce * sympy.exp(xe) for (_, ce), (_, xe) in entries)) / sympy.Add(
        *(sympy.exp(xe) for _, (_, xe) in entries)
    )
    text = sstr(ratio)
    got = sympy.sympify(text)
    scale = max(Decimal(1), abs(Decimal(str(sympy.N(want, 60)))))
    assert abs(Decimal(str(sympy.N(got - want, 60)))) <= Decimal("1e-45") * scale
    assert abs(evaluate(ratio, 50) - Decimal(str(sympy.N(want, 70)))) <= Decimal("1e-45") * scale


def test_expratio_to_decimal_is_stable_for_huge_exponents() -> None:
    ratio = _ratio([Fraction(1), Fraction(0)], [Surd.rational(1000), Surd.rational(600)])
    got = evaluate(ratio, 40)
    want = Decimal(str(sympy.N(1 / (1 + sympy.exp(-400)), 60)))
    assert got.is_finite()
    assert abs(got - want) < Decimal("1e-38")


# -- rounding --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        (Fraction(1, 8), 2, "0.13"),
        (Fraction(-1, 8), 2, "-0.13"),
        (Decimal("0.125"), 2, "0.13"),
        (Decimal("-0.125"), 2, "-0.13"),
        (Fraction(5, 2), 0, "3"),
        (Fraction(-5, 2), 0, "-3"),
        (Fraction(1, 3), 4, "0.3333"),
        (Fraction(2, 3), 4, "0.6667"),
        (Fraction(7), 3, "7.000"),
        (Fraction(1, 20000), 4, "0.0001"),
        (Fraction(-1, 20000), 4, "-0.0001"),
        (Decimal("0.99995"), 4, "1.0000"),
    ],
)
def test_round_half_away_known_values(value: Fraction | Decimal, digits: int, text: str) -> None:
    assert round_half_away(value, digits) == text


def test_round_half_away_tiny_negative_rounds_to_zero() -> None:
    assert Decimal(round_half_away(Fraction(-1, 10**6), 4)) == 0


@given(
    st.integers(-(10**7), 10**7),
    st.sampled_from((1, 2, 4, 5, 8, 10, 16, 20, 25, 40, 125, 1000, 1024)),
    st.integers(0, 6),
)
@SETTINGS
def test_round_half_away_matches_decimal_half_up(num: int, den: int, digits: int) -> None:
    # Denominators 2^a 5^b make the Decimal quotient exact, so quantize is the reference
    # (decimal's ROUND_HALF_UP rounds ties away from zero).
    with localcontext() as ctx:
        ctx.prec = 60
        exact = Decimal(num) / Decimal(den)
        want = exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    got = round_half_away(Fraction(num, den), digits)
    assert Decimal(got) == want
    assert len(got.partition(".")[2]) == digits
