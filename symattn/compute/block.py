"""The kinds of an encoder block, exactly and on decimals: a sum entry by entry (a
residual; also X + P and an additive mask), LayerNorm, and an affine map with ReLU.

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

from ..errors import SymattnError
from ..numbers import NEG_INF, Combination, ExpRatio, Surd, SympyEvaluator, to_sympy
from ..problem import Matrix, Problem

__all__ = [
    "add",
    "affine",
    "affine_inputs",
    "decimal_add",
    "decimal_affine",
    "decimal_layer_norm",
    "decimal_statistics",
    "layer_norm",
    "layer_norm_row",
    "root",
    "statistics",
]

_CLOSED = (Surd, ExpRatio, Combination)


def _rational_row(row: Sequence[Any]) -> bool:
    return all(isinstance(x, Surd) and x.is_rational for x in row)


def _sympy_row(row: Sequence[Any]) -> list[Any]:
    return [to_sympy(x) for x in row]


def add(left: Matrix, right: Matrix) -> Matrix:
    """``left + right`` (a residual, X + P, S' + an additive mask): surds stay surds,
    closed forms a sum of them, −∞ absorbs, else SymPy (sin(1) + 1)."""
    out = []
    for a_row, b_row in zip(left, right):
        if all(isinstance(x, Surd) for x in (*a_row, *b_row)):
            out.append(tuple(a + b for a, b in zip(a_row, b_row)))
        elif all(isinstance(x, _CLOSED) for x in (*a_row, *b_row)):
            out.append(tuple(_combination(a, b) for a, b in zip(a_row, b_row)))
        else:
            out.append(tuple(_one(a, b) for a, b in zip(a_row, b_row)))
    return tuple(out)


def _one(a: Any, b: Any) -> Any:
    if a is NEG_INF or b is NEG_INF:  # a masked score stays masked
        return NEG_INF
    if isinstance(a, Surd) and isinstance(b, Surd):
        return a + b
    return to_sympy(a) + to_sympy(b)


def _combination(a: Any, b: Any) -> Any:
    one = Surd.rational(1)
    terms: list[tuple[Surd, Any]] = []
    for x in (a, b):
        if isinstance(x, Combination):
            terms.extend(x.terms)
        elif not (isinstance(x, Surd) and x.is_zero()):
            terms.append((one, x))
    return Combination(terms)


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
        factors = [f for f in (to_sympy(g), x - mean) if f != 1]
        term = sympy.Mul(*factors, inverse_root, evaluate=False)
        shift = to_sympy(b)
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
        except ValueError:
            pass
    import sympy

    return sympy.Pow(to_sympy(variance) + to_sympy(epsilon), sympy.Rational(1, 2), evaluate=False)


def layer_norm(args: Sequence[Matrix], problem: Problem) -> Matrix:
    """LN of each row of ``args[0]`` (of ``args[0] + args[1]``)."""
    rows = add(args[0], args[1]) if len(args) == 2 else args[0]
    gamma = problem.gamma[0] if problem.gamma else None
    beta = problem.beta[0] if problem.beta else None
    eps = problem.eps if isinstance(problem.eps, Surd) else Surd()
    return tuple(layer_norm_row(row, gamma, beta, eps) for row in rows)


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
DecimalRows = list[list[Decimal]]


def _vector(matrix: Matrix | None, width: int, default: int) -> list[Decimal]:
    if matrix is None:
        return [Decimal(default)] * width
    return [x.in_context() for x in matrix[0]]


def decimal_statistics(row: Sequence[Decimal], unbiased: bool = False) -> tuple[Decimal, Decimal]:
    """μ and σ² of a row of decimals (σ² over d − 1 when ``unbiased``: a mistake)."""
    d = len(row)
    mean = sum(row, Decimal(0)) / d
    var = sum(((x - mean) ** 2 for x in row), Decimal(0)) / (d - 1 if unbiased else d)
    return mean, var


def decimal_layer_norm(
    args: Sequence[DecimalRows], problem: Problem, unbiased: bool
) -> DecimalRows:
    rows = decimal_add(args[0], args[1]) if len(args) == 2 else args[0]
    width = len(rows[0])
    gamma = _vector(problem.gamma, width, 1)
    beta = _vector(problem.beta, width, 0)
    eps = problem.eps.in_context() if isinstance(problem.eps, Surd) else Decimal(0)
    out = []
    for row in rows:
        mean, var = decimal_statistics(row, unbiased)
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


def decimal_add(left: DecimalRows, right: DecimalRows) -> DecimalRows:
    return [[a + b for a, b in zip(r, s)] for r, s in zip(left, right)]


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
