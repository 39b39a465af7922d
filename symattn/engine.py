"""The exact pipeline: Problem → Derivation, one Step per matrix (SPEC §1, §3).

Rational matrices are multiplied as integer matrices over a common denominator
(fast and exact); surds and symbols fall back to term-by-term arithmetic.  The
softmax is never simplified: each weight is an :class:`~symattn.exact.ExpRatio`
``exp(s'_ij) / Σ_k exp(s'_ik)``, and each output entry is the same closed form with
the values in the numerator.  High-precision decimals are computed alongside, row
by row, with the largest exponent subtracted first.
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import lcm
from operator import mul
from typing import Any

from .exact import NEG_INF, Combination, ExpRatio, Surd, decimal_context, exp_str
from .spec import Matrix, Problem
from .steps import Derivation, Step, Values

__all__ = ["WORKING_PRECISION", "Variant", "VariantError", "evaluate", "run"]

#: Significant digits of the high-precision values (more are added for --digits).
WORKING_PRECISION = 50


def _transpose(matrix: Matrix) -> Matrix:
    return tuple(zip(*matrix))


def _is_rational(matrix: Matrix) -> bool:
    return all(isinstance(x, Surd) and x.is_rational for row in matrix for x in row)


def _integer_rows(matrix: Matrix) -> tuple[list[list[int]], int]:
    fractions = [[x.as_fraction() for x in row] for row in matrix]
    den = lcm(*(f.denominator for row in fractions for f in row))
    return [[f.numerator * (den // f.denominator) for f in row] for row in fractions], den


def matmul(left: Matrix, right: Matrix) -> Matrix:
    """Exact ``left · right``; rational matrices go through integer arithmetic."""
    if _is_rational(left) and _is_rational(right):
        a, da = _integer_rows(left)
        b, db = _integer_rows(_transpose(right))
        den = da * db
        return tuple(
            tuple(Surd.rational(Fraction(sum(map(mul, row, col)), den)) for col in b) for row in a
        )
    columns = _transpose(right)
    if any(isinstance(x, ExpRatio) for row in left for x in row):  # concat · W_O
        return tuple(tuple(Combination(list(zip(col, row))) for col in columns) for row in left)
    if isinstance(left[0][0], Surd):
        zero = Surd()
        out: list[tuple[Any, ...]] = []
        for row in left:
            entries = []
            for col in columns:
                total = zero
                for x, y in zip(row, col):
                    total = total + x * y
                entries.append(total)
            out.append(tuple(entries))
        return tuple(out)
    import sympy

    return tuple(
        tuple(sympy.Add(*(x * y for x, y in zip(row, col))) for col in columns) for row in left
    )


def _surd_values(matrix: Matrix, precision: int) -> Values:
    """High-precision values of a numeric matrix; None for symbolic entries."""
    out: list[tuple[Decimal | None, ...]] = []
    with decimal.localcontext(decimal_context(precision)):
        for row in matrix:
            values: list[Decimal | None] = []
            for x in row:
                if isinstance(x, (ExpRatio, Combination)):
                    values.append(x.to_decimal(precision))
                elif isinstance(x, Surd):
                    if x.is_rational:
                        q = x.as_fraction()
                        values.append(Decimal(q.numerator) / Decimal(q.denominator))
                    else:
                        values.append(x.to_decimal(precision))
                else:
                    values.append(_sympy_value(x, precision))
            out.append(tuple(values))
    return tuple(out)


def _sympy_value(expr: Any, precision: int) -> Decimal | None:
    if getattr(expr, "free_symbols", None):
        return None
    import sympy

    return Decimal(str(sympy.N(expr, precision)))


def _softmax(scores: Matrix, values: Values, precision: int) -> tuple[Matrix, Values]:
    """Closed-form weights and their values, row by row (masked entries exactly 0)."""
    zero, one = Surd(), Surd.rational(1)
    exact_rows: list[tuple[Any, ...]] = []
    value_rows: list[tuple[Decimal | None, ...]] = []
    for row, row_values in zip(scores, values):
        keep = [j for j, x in enumerate(row) if x is not NEG_INF]
        exponents = tuple(row[j] for j in keep)
        exp_strs = tuple(exp_str(x) for x in exponents)
        distinct = len(set(exponents)) == len(exponents)
        entries: list[Any] = []
        for j, x in enumerate(row):
            if x is NEG_INF:
                entries.append(zero)
            elif len(keep) == 1:  # e^x / e^x
                entries.append(one)
            else:
                coefs = [one if k == j else zero for k in keep]
                entries.append(ExpRatio(coefs, exponents, exp_strs, distinct))
        exact_rows.append(tuple(entries))
        numeric = [row_values[j] for j in keep]
        if any(v is None for v in numeric):
            value_rows.append(tuple(None for _ in row))
            continue
        with decimal.localcontext(decimal_context(precision)):
            top = max(v for v in numeric if v is not None)
            exps = {j: (v - top).exp() for j, v in zip(keep, numeric) if v is not None}
            total = sum(exps.values(), Decimal(0))
            value_rows.append(
                tuple(exps[j] / total if j in exps else Decimal(0) for j in range(len(row)))
            )
    return tuple(exact_rows), tuple(value_rows)


def _weighted_sum(
    weights: Matrix, weight_values: Values, v: Matrix, v_values: Values, precision: int
) -> tuple[Matrix, Values]:
    """Output b_i = Σ_j a_ij v_j, exact in closed form, values from the weights' values."""
    exact_rows: list[tuple[Any, ...]] = []
    value_rows: list[tuple[Decimal | None, ...]] = []
    for a_row, a_values in zip(weights, weight_values):
        keep = [j for j, a in enumerate(a_row) if not (isinstance(a, Surd) and a.is_zero())]
        if len(keep) == 1:
            exact_rows.append(v[keep[0]])
        else:
            template = a_row[keep[0]]
            assert isinstance(template, ExpRatio)
            exact_rows.append(
                tuple(
                    ExpRatio(
                        [v[j][col] for j in keep],
                        template.exponents,
                        template.exp_strs(),
                        template._distinct,
                    )
                    for col in range(len(v[0]))
                )
            )
        entries: list[Decimal | None] = []
        with decimal.localcontext(decimal_context(precision)):
            for col in range(len(v[0])):
                terms = [(a_values[j], v_values[j][col]) for j in keep]
                if any(a is None or x is None for a, x in terms):
                    entries.append(None)
                else:
                    entries.append(sum((a * x for a, x in terms if a and x), Decimal(0)))
        value_rows.append(tuple(entries))
    return tuple(exact_rows), tuple(value_rows)


def _scaled(scores: Matrix, divisor: Any) -> Matrix:
    if isinstance(divisor, Surd) and divisor.is_rational and _is_rational(scores):
        c = divisor.as_fraction()
        return tuple(tuple(Surd.rational(x.as_fraction() / c) for x in row) for row in scores)
    return tuple(tuple(x / divisor for x in row) for row in scores)


def run(problem: Problem, digits: int = 4) -> Derivation:
    """Derive every step of ``problem`` exactly (no cross-check; see :func:`symattn.derive`)."""
    precision = WORKING_PRECISION + digits
    steps: list[Step] = []
    matrices: dict[str, Matrix] = {}
    tokens = problem.tokens
    kv_tokens = problem.memory_tokens if problem.memory is not None else tokens

    def add(
        step_id: str,
        symbol: str,
        formula: str,
        kind: str,
        exact: Matrix,
        values: Values | None = None,
        operands: tuple[str, ...] = (),
        transpose_right: bool = False,
        rows: tuple[str, ...] | None = None,
        cols: tuple[str, ...] | None = None,
    ) -> Step:
        step = Step(
            step_id,
            symbol,
            formula,
            kind,
            exact,
            values if values is not None else _surd_values(exact, precision),
            operands,
            transpose_right,
            rows,
            cols,
        )
        steps.append(step)
        matrices[step_id] = exact
        return step

    for name in ("W_Q", "W_K", "W_V", "memory"):
        given = getattr(problem, name)
        if given is not None:
            matrices[name] = given

    if problem.lookup is not None:
        ids = tuple((Surd.rational(i),) for i in problem.lookup.ids)
        add("tokens", "t", "text → tokens → ids", "given", ids, rows=problem.lookup.tokens)
    if problem.X is not None:
        kind = "lookup" if problem.lookup is not None else "given"
        formula = "x_i = E[id_i]" if problem.lookup is not None else "X (given)"
        add("X", "X", formula, kind, problem.X, rows=tokens)

    def columns(matrix: Matrix, block: int | None, width: int) -> Matrix:
        if block is None:
            return matrix
        return tuple(tuple(row[block * width : (block + 1) * width]) for row in matrix)

    def attend(prefix: str, block: int | None) -> Step:
        """One head (or the single head): Q, K, V, scores, …, output, ids prefixed."""
        d_k, d_v = problem.d_k, problem.d_v
        head = f" of head {block + 1}" if block is not None else ""
        if problem.Q is not None and problem.K is not None and problem.V is not None:
            q, k, v = (
                add(
                    f"{prefix}{name}",
                    name,
                    f"{name}{head} (given)",
                    "given",
                    columns(getattr(problem, name), block, width),
                    rows=labels,
                )
                for name, width, labels in (
                    ("Q", d_k, tokens),
                    ("K", d_k, kv_tokens),
                    ("V", d_v, kv_tokens),
                )
            )
        else:
            assert problem.X is not None and problem.W_Q is not None
            assert problem.W_K is not None and problem.W_V is not None
            kv_name = "memory" if problem.memory is not None else "X"
            kv = problem.memory if problem.memory is not None else problem.X
            for name, width in (("W_Q", d_k), ("W_K", d_k), ("W_V", d_v)):
                matrices[f"{prefix}{name}"] = columns(getattr(problem, name), block, width)
            q = add(
                f"{prefix}Q",
                "Q",
                f"Q = X W_Q{head}",
                "product",
                matmul(problem.X, matrices[f"{prefix}W_Q"]),
                operands=("X", f"{prefix}W_Q"),
                rows=tokens,
            )
            k, v = (
                add(
                    f"{prefix}{name}",
                    name,
                    f"{name} = {kv_name} {weight}{head}",
                    "product",
                    matmul(kv, matrices[f"{prefix}{weight}"]),
                    operands=(kv_name, f"{prefix}{weight}"),
                    rows=kv_tokens,
                )
                for name, weight in (("K", "W_K"), ("V", "W_V"))
            )
        current = add(
            f"{prefix}scores",
            "S",
            "S = Q Kᵀ",
            "product",
            matmul(q.exact, _transpose(k.exact)),
            operands=(q.id, k.id),
            transpose_right=True,
            rows=tokens,
            cols=kv_tokens,
        )
        if problem.scale is not None:
            label = "√d_k" if problem.scale_label == "sqrt(d_k)" else problem.scale_label
            current = add(
                f"{prefix}scaled_scores",
                "S'",
                f"S' = S / {label}",
                "scale",
                _scaled(current.exact, problem.scale),
                operands=(current.id,),
                rows=tokens,
                cols=kv_tokens,
            )
        if problem.mask is not None:
            masked = tuple(
                tuple(x if allowed else NEG_INF for x, allowed in zip(row, mask_row))
                for row, mask_row in zip(current.exact, problem.mask)
            )
            masked_values = tuple(
                tuple(v if allowed else Decimal("-Infinity") for v, allowed in zip(row, mask_row))
                for row, mask_row in zip(current.values, problem.mask)
            )
            current = add(
                f"{prefix}masked_scores",
                "M",
                f"M = {current.symbol} + mask (−∞ where masked)",
                "mask",
                masked,
                masked_values,
                operands=(current.id,),
                rows=tokens,
                cols=kv_tokens,
            )
        weights, weight_values = _softmax(current.exact, current.values, precision)
        a = add(
            f"{prefix}weights",
            "A",
            f"A = softmax({current.symbol}) (row by row)",
            "softmax",
            weights,
            weight_values,
            operands=(current.id,),
            rows=tokens,
            cols=kv_tokens,
        )
        output, output_values = _weighted_sum(a.exact, a.values, v.exact, v.values, precision)
        return add(
            f"{prefix}output",
            "O",
            "O = A V",
            "product",
            output,
            output_values,
            operands=(a.id, v.id),
            rows=tokens,
        )

    if problem.heads == 1 and problem.W_O is None:
        attend("", None)
    else:
        heads = problem.heads
        outputs = [attend(f"h{t + 1}.", t) for t in range(heads)]
        concat = tuple(tuple(x for out in outputs for x in out.exact[i]) for i in range(problem.n))
        parts = ", ".join(f"O{t + 1}" for t in range(heads))
        add(
            "concat",
            "C",
            f"C = concat({parts})",
            "concat",
            concat,
            operands=tuple(o.id for o in outputs),
            rows=tokens,
        )
        if problem.W_O is not None:
            matrices["W_O"] = problem.W_O
            add(
                "output",
                "O",
                "O = C W_O",
                "product",
                matmul(concat, problem.W_O),
                operands=("concat", "W_O"),
                rows=tokens,
            )
        else:
            add("output", "O", "O = C", "given", concat, rows=tokens)
    return Derivation(problem, tuple(steps), matrices, precision)


# -- values under mistake models ----------------------------------------------------------


class VariantError(ValueError):
    """A mistake model that cannot apply to this problem (a shape that does not fit)."""


@dataclass(frozen=True)
class Variant:
    """A way to compute attention wrongly, as students do (see :mod:`symattn.check`).

    The default computes attention correctly; :func:`evaluate` with it and the
    student's own earlier answers as ``overrides`` is the error-carried-forward key.
    """

    transpose_scores: bool = False  # S = K Qᵀ
    softmax: str = "rows"  # rows | columns | no_exp (s / Σ s) | none (weights = scores)
    mask_after_softmax: bool = False  # softmax over every key, then zero the masked ones
    transpose_weights: bool = False  # Aᵀ
    values: str = "V"  # V | K (a weighted sum of the keys)
    round_before_softmax: int | None = None  # softmax input rounded to this many places
    round_weights: int | None = None  # weights rounded before the weighted sum


DecimalMatrix = list[list[Decimal]]


def _dec_matrix(matrix: Matrix) -> DecimalMatrix:
    if not all(isinstance(x, Surd) for row in matrix for x in row):
        raise VariantError("mistake models need numbers, not symbols")
    return [[x.in_context() for x in row] for row in matrix]


def _dec_matmul(left: DecimalMatrix, right: DecimalMatrix) -> DecimalMatrix:
    if len(left[0]) != len(right):
        raise VariantError("shapes do not fit")
    columns = list(zip(*right))
    return [[sum((a * b for a, b in zip(row, col)), Decimal(0)) for col in columns] for row in left]


def _round(matrix: DecimalMatrix, places: int) -> DecimalMatrix:
    step = Decimal(1).scaleb(-places)
    return [
        [x if not x.is_finite() else x.quantize(step, rounding=decimal.ROUND_HALF_UP) for x in row]
        for row in matrix
    ]


def _softmax_rows(matrix: DecimalMatrix, allowed: list[list[bool]], exp: bool) -> DecimalMatrix:
    out = []
    for row, keep in zip(matrix, allowed):
        kept = [x for x, k in zip(row, keep) if k]
        if not kept:
            raise VariantError("a row with every key masked")
        if exp:
            top = max(kept)
            terms = [(x - top).exp() if k else Decimal(0) for x, k in zip(row, keep)]
        else:
            terms = [x if k else Decimal(0) for x, k in zip(row, keep)]
        total = sum(terms, Decimal(0))
        if total == 0:
            raise VariantError("the row sums to zero")
        out.append([t / total for t in terms])
    return out


def _transpose_dec(matrix: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in zip(*matrix)]


_PROJECTIONS: dict[tuple[int, int], tuple[Problem, tuple[DecimalMatrix, ...]]] = {}


def _projections(problem: Problem, precision: int) -> tuple[DecimalMatrix, ...]:
    """Q, K and V of a problem as decimals, computed once per problem (grading a class
    evaluates the same problem under many mistakes and many students' answers)."""
    memo = (id(problem), precision)
    if memo in _PROJECTIONS and _PROJECTIONS[memo][0] is problem:
        return _PROJECTIONS[memo][1]
    if problem.Q is not None and problem.K is not None and problem.V is not None:
        out = tuple(_dec_matrix(m) for m in (problem.Q, problem.K, problem.V))
    else:
        assert problem.X is not None and problem.W_Q is not None
        assert problem.W_K is not None and problem.W_V is not None
        x = _dec_matrix(problem.X)
        kv = _dec_matrix(problem.memory) if problem.memory is not None else x
        out = (
            _dec_matmul(x, _dec_matrix(problem.W_Q)),
            _dec_matmul(kv, _dec_matrix(problem.W_K)),
            _dec_matmul(kv, _dec_matrix(problem.W_V)),
        )
    if len(_PROJECTIONS) > 64:
        _PROJECTIONS.clear()
    _PROJECTIONS[memo] = (problem, out)  # holding the problem keeps its id its own
    return out


def _evaluate_head(
    problem: Problem,
    variant: Variant,
    prefix: str,
    projections: tuple[DecimalMatrix, DecimalMatrix, DecimalMatrix],
    take: Any,
) -> DecimalMatrix:
    """One head under ``variant``; step ids get ``prefix`` (h1., h2., … or none)."""
    q = take(f"{prefix}Q", lambda: projections[0])
    k = take(f"{prefix}K", lambda: projections[1])
    v = take(f"{prefix}V", lambda: projections[2])
    n, m = len(q), len(k)
    if variant.transpose_scores:
        if n != m:
            raise VariantError("transposed scores need n = m")
        current = take(f"{prefix}scores", lambda: _dec_matmul(k, _transpose_dec(q)))
    else:
        current = take(f"{prefix}scores", lambda: _dec_matmul(q, _transpose_dec(k)))
    if problem.scale is not None:
        c = problem.scale.in_context()
        source = current
        current = take(f"{prefix}scaled_scores", lambda: [[s / c for s in row] for row in source])
    allowed = [list(r) for r in problem.mask] if problem.mask else [[True] * m] * n
    unmasked = current
    if problem.mask is not None:
        source = current
        current = take(
            f"{prefix}masked_scores",
            lambda: [
                [s if a else Decimal("-Infinity") for s, a in zip(row, keep)]
                for row, keep in zip(source, allowed)
            ],
        )

    def weights() -> DecimalMatrix:
        scores = current
        if variant.round_before_softmax is not None:
            scores = _round(scores, variant.round_before_softmax)
        keep = allowed
        if variant.mask_after_softmax:
            scores = unmasked if problem.mask is not None else scores
            keep = [[True] * m] * n
        if variant.softmax == "none":
            a = [[s if k_ else Decimal(0) for s, k_ in zip(r, kr)] for r, kr in zip(scores, keep)]
        elif variant.softmax == "columns":
            a = _transpose_dec(
                _softmax_rows(_transpose_dec(scores), _transpose_dec(keep), exp=True)
            )
        else:
            a = _softmax_rows(scores, keep, exp=variant.softmax != "no_exp")
        if variant.mask_after_softmax:
            a = [[w if k_ else Decimal(0) for w, k_ in zip(r, kr)] for r, kr in zip(a, allowed)]
        if variant.transpose_weights:
            if n != m:
                raise VariantError("transposed weights need n = m")
            a = _transpose_dec(a)
        return a

    a = take(f"{prefix}weights", weights)
    if variant.round_weights is not None:
        a = _round(a, variant.round_weights)
    summed = k if variant.values == "K" else v
    result: DecimalMatrix = take(f"{prefix}output", lambda: _dec_matmul(a, summed))
    return result


def evaluate(
    problem: Problem,
    variant: Variant = Variant(),
    overrides: dict[str, DecimalMatrix] | None = None,
    precision: int = 30,
) -> dict[str, DecimalMatrix]:
    """The values of every step under ``variant``, with some steps replaced by ``overrides``.

    Only values (no closed forms): this is what a hand calculation is compared with.
    Raises :class:`VariantError` when the variant does not apply to the problem.
    """
    given = overrides or {}
    out: dict[str, DecimalMatrix] = {}

    def take(step_id: str, compute: Any) -> DecimalMatrix:
        out[step_id] = given[step_id] if step_id in given else compute()
        return out[step_id]

    with decimal.localcontext(decimal_context(precision)):
        q_all, k_all, v_all = _projections(problem, precision)
        if problem.heads == 1 and problem.W_O is None:
            _evaluate_head(problem, variant, "", (q_all, k_all, v_all), take)
            return out
        d_k, d_v = problem.d_k, problem.d_v
        outputs = []
        for t in range(problem.heads):
            blocks = (
                [row[t * d_k : (t + 1) * d_k] for row in q_all],
                [row[t * d_k : (t + 1) * d_k] for row in k_all],
                [row[t * d_v : (t + 1) * d_v] for row in v_all],
            )
            outputs.append(_evaluate_head(problem, variant, f"h{t + 1}.", blocks, take))
        concat = take(
            "concat", lambda: [[x for o in outputs for x in o[i]] for i in range(len(q_all))]
        )
        if problem.W_O is not None:
            w_o = _dec_matrix(problem.W_O)
            take("output", lambda: _dec_matmul(concat, w_o))
        else:
            take("output", lambda: concat)
    return out
