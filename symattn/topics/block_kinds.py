"""The kinds of an encoder block: LayerNorm and an affine map with ReLU, exactly, on
decimals, and as they are written.

LayerNorm of a rational row is exact in surds: with μ and σ² (biased, over d) and ε
rational, σ² + ε is rational and γ (x − μ) / √(σ² + ε) + β is a surd, one square root
per row.  A row that holds closed forms (a residual after the softmax) or several
square roots has a nested root; its entries are SymPy expressions, built as written,
evaluated by ball arithmetic like the gradients.  ReLU keeps an entry when its sign
is positive, decided exactly (a surd's sign, or a certified ball).

>>> from symattn.printing import sstr
>>> row = [Surd.rational(1), Surd.rational(2), Surd.rational(6)]
>>> [sstr(x) for x in layer_norm_row(row, None, None, Surd())]
['-sqrt(42)/7', '-sqrt(42)/14', '3*sqrt(42)/14']
"""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..errors import NotApplicable, SymattnError
from ..numbers import Surd, SympyEvaluator, to_sympy
from ..numbers.decimals import add as add_decimals
from ..numbers.matrices import add
from ..problem import Matrix, Problem
from ..record import Record
from ..steps import Kind, StepSpec

__all__ = [
    "AFFINE",
    "LAYERNORM",
    "RESIDUAL",
    "AffineParams",
    "LayerNormParams",
    "SumParams",
    "affine",
    "decimal_affine",
    "decimal_layer_norm",
    "layer_norm",
    "layer_norm_row",
]

LAYERNORM = Kind("layernorm")  # γ (x − μ) / √(σ² + ε) + β over each row (of the operands' sum)
AFFINE = Kind("affine")  # operands[0] · operands[1] + operands[2] (a bias row), then activation

DecimalRows = list[list[Decimal]]


class LayerNormParams(Record):
    eps: Surd
    gamma: Matrix  # 1 × d
    beta: Matrix  # 1 × d
    unbiased: bool = False  # the variance over d − 1 (a mistake model)


class AffineParams(Record):
    activation: str = ""  # "relu", or none


class SumParams(Record):
    """A sum's params (the core's kind ``add``): the words key of its first sentence."""

    sentence: str


#: The block's residual connections, as the walk introduces them.
RESIDUAL = SumParams("derive.residual")


def _rational_row(row: Sequence[Any]) -> bool:
    return all(isinstance(x, Surd) and x.is_rational for x in row)


def _sympy_row(row: Sequence[Any]) -> list[Any]:
    return [to_sympy(x) for x in row]


def statistics(row: Sequence[Any], unbiased: bool = False) -> tuple[Any, Any]:
    """μ and σ² of a row, exactly (rational for a rational row, else SymPy)."""
    d = len(row)
    divisor = d - 1 if unbiased else d
    if _rational_row(row):
        xs = [x.as_fraction() for x in row]
        mean = sum(xs, Fraction(0)) / d
        var = sum(((x - mean) ** 2 for x in xs), Fraction(0)) / divisor
        return Surd.rational(mean), Surd.rational(var)
    import sympy

    xs = _sympy_row(row)
    mean = sympy.Add(*xs) / d
    var = sympy.Add(*((x - mean) ** 2 for x in xs)) / divisor
    return mean, var


def layer_norm_row(
    row: Sequence[Any], gamma: Sequence[Any] | None, beta: Sequence[Any] | None, eps: Surd
) -> tuple[Any, ...]:
    """γ (x − μ) / √(σ² + ε) + β over one row, exactly."""
    d = len(row)
    gamma = gamma or [Surd.rational(1)] * d
    beta = beta or [Surd()] * d
    mean, var = statistics(row)
    if isinstance(var, Surd):
        under = var.as_fraction() + eps.as_fraction()
        if under == 0:
            raise SymattnError(_ZERO_VARIANCE)
        try:
            inverse = Surd.sqrt(1 / under)
        except SymattnError:  # a time limit
            raise
        except ValueError:  # a radicand too large to factor: SymPy takes the root
            inverse = None
        if inverse is not None:
            return tuple(g * (x - mean) * inverse + b for x, g, b in zip(row, gamma, beta))
    import sympy

    xs = _sympy_row(row)
    mean, var = statistics(xs) if isinstance(var, Surd) else (mean, var)
    under = var + to_sympy(eps)
    if under == 0:
        raise SymattnError(_ZERO_VARIANCE)
    # built as written: sympy.sqrt, or dividing by the root, would ask the sum for its
    # sign and evaluate it (seconds for a row of softmax closed forms)
    inverse_root = sympy.Pow(under, sympy.Rational(-1, 2), evaluate=False)

    def entry(x: Any, g: Any, b: Any) -> Any:
        scale, centred, shift = to_sympy(g), x - mean, to_sympy(b)
        if scale == 0 or centred == 0:  # an exact 0 factor: the entry is β, nothing to carry
            return shift
        factors = [f for f in (scale, centred) if f != 1]
        term = sympy.Mul(*factors, inverse_root, evaluate=False)
        return term if shift == 0 else sympy.Add(term, shift, evaluate=False)

    return tuple(entry(x, g, b) for x, g, b in zip(xs, gamma, beta))


_ZERO_VARIANCE = (
    "LayerNorm: a row has variance 0 and eps = 0, so its normalisation divides by 0; "
    "give eps > 0 (for example eps = 1e-5)"
)


def root(variance: Any, eps: Surd | None) -> Any:
    """√(σ² + ε), exactly: a surd when σ² is rational, else SymPy's root."""
    epsilon = eps if eps is not None else Surd()
    if isinstance(variance, Surd) and variance.is_rational:
        try:
            return Surd.sqrt(variance.as_fraction() + epsilon.as_fraction())
        except SymattnError:  # a time limit
            raise
        except ValueError:
            pass
    import sympy

    return sympy.Pow(to_sympy(variance) + to_sympy(epsilon), sympy.Rational(1, 2), evaluate=False)


def layer_norm(args: Sequence[Matrix], params: LayerNormParams) -> Matrix:
    """LN of each row of ``args[0]`` (of ``args[0] + args[1]``)."""
    rows = add(args[0], args[1]) if len(args) == 2 else args[0]
    gamma = params.gamma[0] if params.gamma else None
    beta = params.beta[0] if params.beta else None
    return tuple(layer_norm_row(row, gamma, beta, params.eps) for row in rows)


def affine(x: Matrix, weights: Matrix, bias: Matrix, activation: str) -> Matrix:
    """``x W + b``, then ReLU when asked: exact, the sign of each entry decided exactly."""
    columns = list(zip(*weights))
    out = []
    symbolic = not all(isinstance(v, Surd) for row in x for v in row)
    evaluator = SympyEvaluator(30) if symbolic else None
    for row in x:
        entries: list[Any] = []
        for col, b in zip(columns, bias[0]):
            if evaluator is None:
                total = b
                for v, w in zip(row, col):
                    total = total + v * w
                if activation == "relu" and total.sign() < 0:
                    total = Surd()
            else:
                import sympy

                total = sympy.Add(*(to_sympy(v) * to_sympy(w) for v, w in zip(row, col) if w))
                total = total + to_sympy(b)
                if activation == "relu" and evaluator(total) <= 0:
                    total = sympy.Integer(0)
            entries.append(total)
        out.append(tuple(entries))
    return tuple(out)


# -- on decimals (the values of SymPy entries, and the mistake models) ---------------------
def decimal_statistics(row: Sequence[Decimal], unbiased: bool = False) -> tuple[Decimal, Decimal]:
    """μ and σ² of a row of decimals (σ² over d − 1 when ``unbiased``: a mistake)."""
    d = len(row)
    mean = sum(row, Decimal(0)) / d
    var = sum(((x - mean) ** 2 for x in row), Decimal(0)) / (d - 1 if unbiased else d)
    return mean, var


def decimal_layer_norm(args: Sequence[DecimalRows], params: LayerNormParams) -> DecimalRows:
    rows = add_decimals(args[0], args[1]) if len(args) == 2 else args[0]
    gamma = [x.in_context() for x in params.gamma[0]]
    beta = [x.in_context() for x in params.beta[0]]
    eps = params.eps.in_context()
    out = []
    for row in rows:
        mean, var = decimal_statistics(row, params.unbiased)
        if var + eps <= 0:
            raise decimal.DivisionByZero(_ZERO_VARIANCE)
        root = (var + eps).sqrt()
        out.append([g * (x - mean) / root + b for x, g, b in zip(row, gamma, beta)])
    return out


def affine_inputs(row: Sequence[Decimal | None], weights: Matrix, bias: Matrix) -> list[Decimal]:
    """Σ_k x_k w_kj + b_j of one row of values, before the activation (for the page)."""
    x = [v if v is not None else Decimal(0) for v in row]
    columns = list(zip(*weights))
    return [
        sum((v * w.in_context() for v, w in zip(x, col)), b.in_context())
        for col, b in zip(columns, bias[0])
    ]


def decimal_affine(
    x: DecimalRows, weights: DecimalRows, bias: DecimalRows, activation: str
) -> DecimalRows:
    columns = list(zip(*weights))
    out = []
    for row in x:
        values = [sum((v * w for v, w in zip(row, col)), b) for col, b in zip(columns, bias[0])]
        if activation == "relu":
            values = [v if v > 0 else Decimal(0) for v in values]
        out.append(values)
    return out


def decimal_layer_norm_rule(spec: StepSpec, args: list[Any], p: Problem, given: Any) -> Any:
    if len(args[0][0]) < 2 and spec.params.unbiased:
        raise NotApplicable("an unbiased variance needs two entries")
    try:
        return decimal_layer_norm(args, spec.params)
    except decimal.DivisionByZero as exc:
        raise NotApplicable(str(exc)) from None
