"""Every decimal of ``symattn derive --format json`` equals an independent computation.

Random numeric problems (small; integers, fractions and decimals; no scale, √d_k or 2;
no mask, a causal one or a random one) are derived, and every decimal of every step is
compared with attention computed here from scratch: the rational steps with Python
fractions, the softmax and the output with mpmath at 100 digits, each decimal rounded
half away from zero.  Nothing here uses symattn's engine, printers or rounding.  The
default run tries 60 problems; the slow run (``-m slow``) 2,000, at every ``--digits``
0…30.

Every topic key (positions, RoPE, the temperature, grouped and multi-query heads, a
decode step, additive scores, an encoder block, masks, lengths, ALiBi, a window, the
column layout, a memory, the backward pass) is derived too, its numbers redrawn, and
every decimal compared with the mpmath oracle of tests/oracle_mpmath.py, which decides
each digit again from the exact form printed beside it: by default each key once at a
``--digits`` drawn from 0…30 (the block and the backward pass, a second or more each,
only under slow), under slow every key at every ``--digits`` 0…30.
"""

from __future__ import annotations

import json
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn
from symattn.render import render

from .fuzz_harness import Tally
from .fuzz_numbers import TOPICS, oracle_case

DIGITS = 100


def _entry() -> st.SearchStrategy[Any]:
    integers = st.integers(-6, 6)
    fractions = st.tuples(st.integers(-20, 20), st.integers(1, 12)).map(lambda t: f"{t[0]}/{t[1]}")
    decimals = st.integers(-9999, 9999).map(lambda k: str(Decimal(k).scaleb(-3)))
    large = st.integers(-300, 300)
    return st.one_of(integers, fractions, decimals, large)


def _surd_entry() -> st.SearchStrategy[Any]:
    roots = st.tuples(st.integers(-3, 3), st.sampled_from([2, 3, 5, 6])).map(
        lambda t: f"{t[0]}*sqrt({t[1]})"
    )
    return st.one_of(_entry(), roots)


@st.composite
def problems(draw: st.DrawFn) -> dict[str, Any]:
    n, m = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    d_k, d_v = draw(st.integers(1, 3)), draw(st.integers(1, 2))

    entry = _surd_entry() if draw(st.booleans()) else _entry()

    def matrix(rows: int, cols: int) -> list[list[Any]]:
        return [[draw(entry) for _ in range(cols)] for _ in range(rows)]

    problem: dict[str, Any] = {"Q": matrix(n, d_k), "K": matrix(m, d_k), "V": matrix(m, d_v)}
    scale = draw(st.sampled_from(["sqrt(d_k)", "none", "2"]))
    if scale != "sqrt(d_k)":
        problem["scale"] = scale
    mask = draw(st.sampled_from(["none", "causal", "random"]))
    if mask == "causal" and n == m:
        problem["mask"] = "causal"
    elif mask == "random":
        rows = []
        for _ in range(n):
            row = [draw(st.integers(0, 1)) for _ in range(m)]
            row[draw(st.integers(0, m - 1))] = 1
            rows.append(row)
        problem["mask"] = rows
    return problem


# -- the independent computation ------------------------------------------------------
def _fraction(raw: Any) -> Fraction:
    return (
        Fraction(raw) if not isinstance(raw, str) else Fraction(Decimal(raw) if "." in raw else raw)
    )


def _round(value: Fraction | Any, places: int) -> str | None:
    """Half away from zero, from an exact fraction or a 100-digit mpmath number (None
    when 100 digits do not decide it)."""
    if isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        context = Context(prec=200)
        exact = context.divide(Decimal(value.numerator), Decimal(value.denominator))
    else:
        exact = Decimal(
            mpmath.nstr(value, DIGITS, strip_zeros=False, min_fixed=-1e9, max_fixed=1e9)
        )
        # 100 digits cannot decide a tie closer than that (1/(2 + e^-230) at 0 places)
        scaled = exact.copy_abs().scaleb(places)
        floor = scaled.to_integral_value(rounding=ROUND_FLOOR)
        if exact and abs(scaled - floor - Decimal("0.5")) < Decimal(10) ** (
            scaled.adjusted() - DIGITS + 10
        ):
            return None
    context = Context(prec=300, rounding=ROUND_HALF_UP)
    rounded = exact.copy_abs().quantize(Decimal(1).scaleb(-places), context=context)
    text = format(rounded, "f")
    return f"-{text}" if exact < 0 and rounded != 0 else text


def _mp(raw: Any) -> Any:
    """An entry as a 120-digit mpmath number: "c*sqrt(r)", a fraction, a decimal."""
    if isinstance(raw, str) and "sqrt" in raw:
        c, r = raw.split("*sqrt(")
        return mpmath.mpf(int(c)) * mpmath.sqrt(int(r.rstrip(")")))
    q = _fraction(raw)
    return mpmath.mpf(q.numerator) / q.denominator


def _expected(problem: dict[str, Any], places: int) -> dict[str, list[list[str | None]]]:
    if any("sqrt" in str(x) for name in "QKV" for row in problem[name] for x in row):
        with mpmath.workdps(DIGITS + 20):
            return _expected_mp(problem, places)
    q, k, v = ([[_fraction(x) for x in row] for row in problem[name]] for name in "QKV")
    out: dict[str, list[list[str | None]]] = {}
    for name, matrix in (("Q", q), ("K", k), ("V", v)):
        out[name] = [[_round(x, places) for x in row] for row in matrix]
    scores = [[sum((a * b for a, b in zip(qi, kj)), Fraction(0)) for kj in k] for qi in q]
    out["scores"] = [[_round(x, places) for x in row] for row in scores]
    d_k = len(q[0])
    with mpmath.workdps(DIGITS + 20):
        scale = problem.get("scale", "sqrt(d_k)")
        if scale == "none":
            scaled = [[mpmath.mpf(x.numerator) / x.denominator for x in row] for row in scores]
        else:
            c = mpmath.sqrt(d_k) if scale == "sqrt(d_k)" else mpmath.mpf(2)
            scaled = [[mpmath.mpf(x.numerator) / x.denominator / c for x in row] for row in scores]
            if scale == "2":
                out["scaled_scores"] = [[_round(x / 2, places) for x in row] for row in scores]
            else:
                out["scaled_scores"] = [[_round(x, places) for x in row] for row in scaled]
        mask = problem.get("mask")
        if mask is not None:
            keep = (
                [[j <= i for j in range(len(k))] for i in range(len(q))]
                if mask == "causal"
                else [[bool(x) for x in row] for row in mask]
            )
        else:
            keep = [[True] * len(k) for _ in q]
        weights = []
        for row, allowed in zip(scaled, keep):
            top = max(x for x, a in zip(row, allowed) if a)
            e = [mpmath.exp(x - top) if a else mpmath.mpf(0) for x, a in zip(row, allowed)]
            total = mpmath.fsum(e)
            weights.append([x / total for x in e])
        out["weights"] = [[_round(x, places) for x in row] for row in weights]
        vm = [[mpmath.mpf(x.numerator) / x.denominator for x in row] for row in v]
        output = [
            [mpmath.fsum(w * vr[c] for w, vr in zip(row, vm)) for c in range(len(v[0]))]
            for row in weights
        ]
        out["output"] = [[_round(x, places) for x in row] for row in output]
    return out


def _expected_mp(problem: dict[str, Any], places: int) -> dict[str, list[list[str | None]]]:
    """The same, every step in mpmath (problems with square roots)."""
    q, k, v = ([[_mp(x) for x in row] for row in problem[name]] for name in "QKV")
    out: dict[str, list[list[str | None]]] = {}
    for name, matrix in (("Q", q), ("K", k), ("V", v)):
        out[name] = [[_round(x, places) for x in row] for row in matrix]
    scores = [[mpmath.fsum(a * b for a, b in zip(qi, kj)) for kj in k] for qi in q]
    out["scores"] = [[_round(x, places) for x in row] for row in scores]
    scale = problem.get("scale", "sqrt(d_k)")
    c = 1 if scale == "none" else mpmath.sqrt(len(q[0])) if scale == "sqrt(d_k)" else 2
    scaled = [[x / c for x in row] for row in scores]
    if scale != "none":
        out["scaled_scores"] = [[_round(x, places) for x in row] for row in scaled]
    keep = _keep(problem, len(q), len(k))
    weights = []
    for row, allowed in zip(scaled, keep):
        top = max(x for x, a in zip(row, allowed) if a)
        e = [mpmath.exp(x - top) if a else mpmath.mpf(0) for x, a in zip(row, allowed)]
        weights.append([x / mpmath.fsum(e) for x in e])
    out["weights"] = [[_round(x, places) for x in row] for row in weights]
    output = [
        [mpmath.fsum(w * vr[col] for w, vr in zip(row, v)) for col in range(len(v[0]))]
        for row in weights
    ]
    out["output"] = [[_round(x, places) for x in row] for row in output]
    return out


def _keep(problem: dict[str, Any], n: int, m: int) -> list[list[bool]]:
    mask = problem.get("mask")
    if mask is None:
        return [[True] * m for _ in range(n)]
    if mask == "causal":
        return [[j <= i for j in range(m)] for i in range(n)]
    return [[bool(x) for x in row] for row in mask]


def _check(problem: dict[str, Any], places: int) -> None:
    derived = symattn.derive(symattn.load(problem), digits=places)
    payload = json.loads(render(derived, "json", digits=places))
    shown = {step["id"]: step["decimal"] for step in payload["steps"]}
    for step_id, expected in _expected(problem, places).items():
        for got_row, want_row in zip(shown[step_id], expected):
            for got, want in zip(got_row, want_row):
                assert want is None or got == want, (step_id, problem)
    assert payload["crosscheck"]["passed"] is True, problem


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from([0, 2, 4, 30]))
def test_every_decimal_matches_mpmath(problem: dict[str, Any], places: int) -> None:
    _check(problem, places)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 30))
def test_every_decimal_matches_mpmath_long(problem: dict[str, Any], places: int) -> None:
    _check(problem, places)


# -- every topic key -----------------------------------------------------------------------
#: Keys whose derivation and oracle take a second or more: only under slow.
HEAVY = {"block", "backward"}


def _topic(key: str, seed: int, digits: int | None, root: Path) -> None:
    tally = Tally()
    oracle_case(seed, root, tally, key, digits)
    assert tally.clean, "\n".join(tally.failures)
    assert tally.runs == 1


@pytest.mark.parametrize("key", sorted(set(TOPICS) - HEAVY))
def test_every_topic_key_matches_mpmath(key: str, tmp_path: Path) -> None:
    _topic(key, sorted(TOPICS).index(key), None, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("digits", range(31))
@pytest.mark.parametrize("key", sorted(TOPICS))
def test_every_topic_key_at_every_digits(key: str, digits: int, tmp_path: Path) -> None:
    for seed in range(3):
        folder = tmp_path / str(seed)
        folder.mkdir()
        _topic(key, 100 * digits + seed, digits, folder)
