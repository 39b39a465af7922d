"""Answers written with a space between the factors of a product are read (reproducer
r03): "2 e^{\\frac{5 \\sqrt{2}}{2}}", "2 sqrt(2)", "1/2 e^2", "e^{2} e^{3}", without
eval of the text; "6.3379 e-02" (a power of ten, or a product?) is refused."""

from __future__ import annotations

from decimal import Decimal

import pytest
import sympy

import symattn
from symattn.check import check
from symattn.examples import example_path
from symattn.load.grammar import ANSWER, ValueSyntaxError, parse
from symattn.load.readings import read_answer

#: r03: the seed's weights and output written as sympy.latex writes them.
R03 = {
    "weights[1,1]": r"\frac{e^{\sqrt{2}}}{e^{\sqrt{2}} + e^{\frac{5 \sqrt{2}}{2}}}",
    "weights[1,2]": r"\frac{e^{\frac{5 \sqrt{2}}{2}}}{e^{\sqrt{2}} + e^{\frac{5 \sqrt{2}}{2}}}",
    "output[1]": [
        r"\frac{e^{\sqrt{2}} + 2 e^{\frac{5 \sqrt{2}}{2}}}"
        r"{e^{\sqrt{2}} + e^{\frac{5 \sqrt{2}}{2}}}",
        None,
    ],
}


def test_the_reproducer_is_read_and_right() -> None:
    result = check(symattn.derive(example_path("seed")), R03)
    statuses = [e.status for s in result.steps for e in s.entries]
    assert statuses == ["ok", "ok", "ok"], statuses


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("2 sqrt(2)", 2 * sympy.sqrt(2)),
        (r"2 \exp(1)", 2 * sympy.E),
        ("1/2 e^2", sympy.E**2 / 2),
        ("e^{2} e^{3}", sympy.E**5),
        # unseen: three factors, a root after a fraction, a bracket after a name
        (r"3 e \sqrt{2}", 3 * sympy.E * sympy.sqrt(2)),
        (r"\frac{1}{3} \sqrt{3} e^{-1}", sympy.sqrt(3) / 3 / sympy.E),
        ("2 e (1 + 1)", 4 * sympy.E),
        ("-2 e^2 + 1", 1 - 2 * sympy.E**2),
    ],
)
def test_a_space_product_has_its_value(written: str, value: sympy.Expr) -> None:
    reading = read_answer(written)
    assert reading is not None
    expected = Decimal(str(sympy.N(value, 40)))
    assert abs(reading.value - expected) < Decimal("1e-35")


@pytest.mark.parametrize("written", ["6.3379 e-02", "2 e 3", "1.5 e+1"])
def test_a_spaced_e_that_may_be_a_power_of_ten_is_refused(written: str) -> None:
    with pytest.raises(ValueSyntaxError, match="power of ten"):
        parse(written, ANSWER)


@pytest.mark.parametrize("written", ["2 3", "2 x"])
def test_what_is_no_product_stays_unread(written: str) -> None:
    """Two numbers side by side are not a product (1 000?); a problem file has no e."""
    with pytest.raises(ValueSyntaxError):
        read_answer(written)
