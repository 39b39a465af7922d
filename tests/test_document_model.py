"""The document model (issue 20): writers dispatch by block type and printers by node
type, each with a fallback that raises; brackets come from the precedence table."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from symattn.formula import Exp, Frac, Lit, Name, Number, Product, Sum, Sym, Value
from symattn.numbers import Surd
from symattn.render import TexPrinter, UnicodeMath


@dataclass(frozen=True)
class Unknown:
    """A node no printer knows."""

    text: str


@pytest.mark.parametrize("printer", [UnicodeMath(), TexPrinter()])
def test_a_printer_refuses_a_node_it_has_no_method_for(printer: UnicodeMath | TexPrinter) -> None:
    with pytest.raises(TypeError, match="no way to print a Unknown"):
        printer.math(Unknown("x"))  # type: ignore[arg-type]


def test_a_denominator_is_bracketed_by_what_it_is_not_by_how_it_prints() -> None:
    u = UnicodeMath()
    half = Value(Fraction(1, 2))
    assert u.math(Frac(Lit("4"), half)) == "4 / (1/2)"
    assert u.math(Frac(Lit("4"), Value(Surd.sqrt(2) / Surd.rational(Fraction(2))))) == "4 / (√2/2)"
    # a power or a function of a quotient is one piece: no brackets
    assert u.math(Frac(Lit("pos"), Exp(half))) == "pos / e^(1/2)"
    assert u.math(Frac(Name("scores", 0, 1), Sym("sqrt_dk"))) == "s₁,₂ / √d_k"
    # a sum or a spaced quotient as a numerator is bracketed
    assert u.math(Frac(Sum((Lit("a"), Lit("b"))), Lit("c"))) == "(a + b) / c"
    assert u.math(Frac(Frac(Lit("a"), Lit("b")), Lit("c"))) == "(a / b) / c"


def test_a_substituted_number_brackets_itself_by_its_value() -> None:
    u, t = UnicodeMath(), TexPrinter()
    factors = (
        Number(-2),
        Number(Fraction(3, 4)),
        Number(Surd.sqrt(2)),
        Number(Surd.sqrt(2) / Surd.rational(Fraction(2))),
    )
    assert u.math(Product(factors)) == "(-2) (3/4) √2 (√2/2)"
    assert t.math(Product(factors)) == r"\left(-2\right) \frac{3}{4} \sqrt{2} \frac{\sqrt{2}}{2}"
    one_plus = Number(Surd.sqrt(3) + Surd.rational(Fraction(1)))
    assert u.math(one_plus).startswith("(") and t.math(one_plus).startswith(r"\left(")
