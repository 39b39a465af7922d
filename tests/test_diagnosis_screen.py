"""Diagnosis screens the mistake models on float64 arrays and evaluates exactly only those
whose floats can explain the numbers (``symattn.check.diagnose.SCREEN``): a property test
that every verdict, entry status and diagnosis (its words included) is what the exhaustive
search gives, on 2,000 answers files — the bundled examples and generated problems,
answered with one mistake model, two at once, a slip, rounded too early or too coarsely,
and a slip carried forward.  The default run marks a sample of them, the slow run all."""

from __future__ import annotations

import decimal
import random
from decimal import Decimal
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

import symattn
from symattn.check import check
from symattn.check import diagnose as diagnose_module
from symattn.check import marking as marking_module
from symattn.check.answers import answer_steps
from symattn.check.compare import close, evaluation, key_values
from symattn.check.mistakes import MISTAKES, pairs, runs
from symattn.check.screen import Screen
from symattn.check.slack import radii
from symattn.compute import derivation
from symattn.compute.floats import Approx, apply_float
from symattn.compute.values import apply
from symattn.compute.variants import DecimalMatrix, evaluate
from symattn.derivation import Derivation
from symattn.errors import NotApplicable
from symattn.examples import example_names, example_path
from symattn.numbers import Surd, decimal_context, round_half_away
from symattn.plan import backward_plan, forward_plan
from symattn.problem import Problem
from symattn.steps import Kind, Plan, StepSpec

CASES = 2000
SAMPLE = 100
EXAMPLES = tuple(n for n in example_names() if n != "symbolic")
Answers = dict[str, list[list[str]]]
SCALE = {m.id for m in MISTAKES if m.family == "scale"}


def _number(rng: random.Random) -> str:
    whole = rng.randint(-3, 3)
    return str(whole) if rng.random() < 0.7 else f"{2 * whole + rng.choice((-1, 1))}/2"


def _matrix(rng: random.Random, rows: int, cols: int) -> list[list[str]]:
    return [[_number(rng) for _ in range(cols)] for _ in range(rows)]


def _generated(seed: int) -> dict[str, Any]:
    """A small random problem: inputs and weights, or Q, K, V; a mask or none; a scale."""
    rng = random.Random(seed)
    n, d_model, d_k = rng.randint(2, 4), rng.randint(2, 4), rng.randint(1, 3)
    d_v = rng.choice((d_k, d_model, 2))
    data: dict[str, Any]
    if rng.random() < 0.6:
        data = {
            "X": _matrix(rng, n, d_model),
            "W_Q": _matrix(rng, d_model, d_k),
            "W_K": _matrix(rng, d_model, d_k),
            "W_V": _matrix(rng, d_model, d_v),
        }
    else:
        m = rng.choice((n, n, n + 1))
        data = {
            "Q": _matrix(rng, n, d_k),
            "K": _matrix(rng, m, d_k),
            "V": _matrix(rng, m, d_v),
        }
    if "X" in data and rng.random() < 0.4:
        data["mask"] = "causal"
    data["scale"] = rng.choice(("sqrt(d_k)", "sqrt(d_k)", "none", "2"))
    return data


@lru_cache(maxsize=64)
def _problem(name: str) -> tuple[Problem, Derivation]:
    """A problem and its key (with the backward pass when the problem gives dO)."""
    if name.startswith("generated"):
        problem = symattn.load(_generated(int(name.split("-")[1])))
    else:
        problem = symattn.load(example_path(name))
    backward = problem.dO is not None or problem.target is not None
    return problem, derivation(problem, backward=backward)


def _plan(problem: Problem) -> Plan:
    plan = forward_plan(problem)
    return plan + backward_plan(problem) if _problem_key_has_gradients(problem) else plan


def _problem_key_has_gradients(problem: Problem) -> bool:
    return problem.dO is not None or problem.target is not None


def _written(values: DecimalMatrix, places: int) -> list[list[str]]:
    return [
        ["-inf" if not v.is_finite() else round_half_away(v, places) for v in r] for r in values
    ]


def _answers(problem: Problem, name: str, rng: random.Random) -> tuple[str, Answers] | None:
    """One answers file of ``problem``, of a kind drawn by ``rng``."""
    plan = _plan(problem)
    key = evaluate(problem, plan)
    steps = [s for s in answer_steps(_problem(name)[1]) if s in key and s not in ("tokens", "X")]
    places = rng.choice((2, 3, 4, 5))
    kind = rng.choice(("one", "one", "two", "slip", "carried", "rounded"))
    values = key
    label = kind
    if kind in ("one", "two"):
        shown = [m for m in MISTAKES if runs(m, problem, plan)]
        if kind == "two":
            scale = [m for m in shown if m.family == "scale"]
            method = [m for m in shown if m.family != "scale"]
            if not scale or not method:
                return None
            first, second = rng.choice(scale), rng.choice(method)
            found = pairs(first, second, problem, plan)
            label = f"{first.id}+{second.id}"
        else:
            mistake = rng.choice(shown)
            found = runs(mistake, problem, plan)
            label = mistake.id
        if not found:
            return None
        run_problem, run_plan, _ = rng.choice(found)
        try:
            values = evaluate(run_problem, run_plan)
        except Exception:  # a model that does not apply to this problem
            return None
    answers = {s: _written(values.get(s, key[s]), places) for s in steps}
    if kind in ("slip", "carried", "rounded") or rng.random() < 0.3:
        later = steps[rng.randrange(len(steps))] if kind != "carried" else None
        target = later or steps[rng.randrange(max(1, len(steps) - 1))]
        grid = answers[target]
        i, j = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
        if grid[i][j] == "-inf":
            return None
        off = Decimal(rng.choice(("0.2", "-0.3", "1", "0.05")))
        if kind == "rounded":  # written too coarsely, later steps from the rounded numbers
            grid = [[x if x == "-inf" else round_half_away(Decimal(x), 1) for x in r] for r in grid]
        else:
            grid[i][j] = round_half_away(Decimal(grid[i][j]) + off, places)
        answers[target] = grid
        if kind in ("carried", "rounded"):
            own = {
                target: [
                    [Decimal(x) if x != "-inf" else Decimal("-Infinity") for x in r] for r in grid
                ]
            }
            carried = evaluate(problem, plan, own)
            after = steps[steps.index(target) + 1 :]
            answers |= {s: _written(carried[s], places) for s in after}
        label += f"@{target}[{i},{j}]"
    return f"{label}@{places}", answers


def _case(number: int) -> tuple[str, str, Answers]:
    """Answers file ``number``: of a bundled example or a generated problem, in turn."""
    name = EXAMPLES[number // 2 % len(EXAMPLES)] if number % 2 == 0 else f"generated-{number}"
    problem = _problem(name)[0]
    for attempt in range(50):
        case = _answers(problem, name, random.Random(number * 100 + attempt))
        if case is not None:
            return name, *case
    raise AssertionError(f"no answers file for {name}")


def _marks(result: symattn.check.CheckResult) -> list[Any]:
    return [
        (
            s.id,
            s.status,
            [e.status for e in s.entries],
            [(d.id, d.message, d.entries) for d in s.diagnosis],
            s.note,
            s.carried_forward,
        )
        for s in result.steps
    ]


def _exact_fits(
    screen: Screen,
    problem: Problem,
    upto: Plan,
    step_id: str,
    extra: dict[str, DecimalMatrix],
    from_key: tuple[str, ...],
    rounding: dict[str, DecimalMatrix],
) -> bool:
    """What the decimal evaluation says of one model the screen set aside."""
    given = dict(extra) | {s: key_values(screen.key, s) for s in from_key}
    values = evaluation(problem, upto, given)
    if values is None or step_id not in values:
        return False
    slack = radii(problem, upto, values, {s: rounding[s] for s in extra}, step_id)
    tolerance = screen.answers.tolerance
    return all(
        g is None or not g.valid or close(g, values[step_id][i][j], tolerance, slack[i][j])
        for i, row in enumerate(screen.answers.steps[step_id])
        for j, g in enumerate(row)
    )


def _compare(numbers: range, monkeypatch: pytest.MonkeyPatch, verify: bool) -> dict[str, int]:
    """Mark each answers file screened and exhaustively: the same marks; and (``verify``)
    every model the screen sets aside is one the decimal evaluation does not fit either."""
    diagnosed: dict[str, int] = {"set aside": 0, "trials skipped": 0, "two at once": 0}
    may_fit = Screen.may_fit

    def checked(screen: Screen, *args: Any) -> bool:
        fits = may_fit(screen, *args)
        if not fits:
            assert not (verify and _exact_fits(screen, *args)), args[2]
            diagnosed["set aside"] += 1
        return fits

    within = marking_module.within

    def counted(*args: Any) -> bool:
        possible = within(*args)
        diagnosed["trials skipped"] += not possible
        return possible

    monkeypatch.setattr(Screen, "may_fit", checked)
    monkeypatch.setattr(marking_module, "within", counted)
    for number in numbers:
        name, label, answers = _case(number)
        key = _problem(name)[1]
        screened = _marks(check(key, answers))
        diagnose_module.SCREEN = False
        try:
            exhaustive = _marks(check(key, answers))
        finally:
            diagnose_module.SCREEN = True
        assert screened == exhaustive, (number, name, label)
        for step in screened:
            scale = [d for d in step[3] if d[0] in SCALE]
            diagnosed["two at once"] += bool(scale) and len(step[3]) == 2
            for found in step[3]:
                diagnosed[found[0]] = diagnosed.get(found[0], 0) + 1
    return diagnosed


@pytest.mark.parametrize("part", range(4))
def test_the_screen_gives_the_exhaustive_diagnoses_on_a_sample(
    part: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    step = CASES // SAMPLE
    diagnosed = _compare(range(part * step // 4, CASES, step), monkeypatch, verify=False)
    assert diagnosed.pop("set aside") > 20  # the screen does set models aside
    assert diagnosed.pop("trials skipped") > 0  # and trials
    diagnosed.pop("two at once")
    assert sum(diagnosed.values()) > 5  # and the sample reaches diagnoses


@pytest.mark.slow
def test_the_screen_gives_the_exhaustive_diagnoses_on_2000_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    diagnosed = _compare(range(CASES), monkeypatch, verify=True)
    print(f"{CASES} answers files marked both ways, the same: {sorted(diagnosed.items())}")
    # one mistake, two at once, slips and rounding are all among them
    assert diagnosed.pop("set aside") > 10000
    assert diagnosed.pop("trials skipped") > 100
    assert diagnosed.pop("two at once") > 10
    assert {"arithmetic_slip", "no_scaling", "premature_rounding"} <= set(diagnosed)
    assert sum(diagnosed.values()) > 1000


SPECS = [
    {"kind": Kind.SOFTMAX, "softmax": mode, "round_operand": places}
    for mode in ("rows", "columns", "global", "no_exp", "none")
    for places in (None, 1)
] + [
    {"kind": Kind.PRODUCT, "transpose_right": True},
    {"kind": Kind.SCALE, "divisor": Surd.sqrt(3)},
    {"kind": Kind.JACOBIAN, "diagonal_only": False},
    {"kind": Kind.JACOBIAN, "diagonal_only": True},
    {"kind": Kind.ADD},
]


@pytest.mark.parametrize("fields", SPECS, ids=lambda f: "-".join(str(v) for v in f.values()))
def test_each_float_rule_bounds_its_distance_to_the_decimal_rule(fields: dict[str, Any]) -> None:
    """Each kind on floats, from inputs already off by a known amount, stays within its
    bound of the decimal rule applied to the exact inputs."""
    rng = random.Random(7)
    spec = StepSpec(id="x", formula="x", **fields)
    problem = symattn.load({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
    for _ in range(30):
        rows, cols = rng.randint(1, 4), rng.randint(2, 4)
        exact = [
            [[Decimal(rng.randint(-400, 400)) / 64 for _ in range(cols)] for _ in range(rows)]
            for _ in range(2)
        ]
        floats = []
        for matrix in exact:  # off by up to 1e-9 each, and told so
            value = np.array([[float(x) + rng.uniform(-1e-9, 1e-9) for x in r] for r in matrix])
            floats.append(Approx(value, np.full(value.shape, 1e-9)))
        with decimal.localcontext(decimal_context(30)):
            try:
                want = apply(spec, exact, problem)
            except (NotApplicable, ArithmeticError):
                continue
        got = apply_float(spec, floats, problem)
        for i, row in enumerate(want):
            for j, w in enumerate(row):
                assert abs(float(w) - got.value[i, j]) <= got.error[i, j] + 1e-15, (i, j)
