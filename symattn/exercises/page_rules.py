"""The marking rules of ``symattn check`` as data, for the self-check page's script.

The page marks as ``check`` does with one source of the rules: everything that
depends on the problem or on a mistake model is computed here, in Python, and written into
the page; the page's script (``self_check_marking.js``) only runs the plan on the numbers a
student typed, with the decimal arithmetic of :mod:`symattn.check` (24 digits for an
evaluation, 28 for a comparison), and compares.

What is written (:func:`marking_data`):

* ``plan`` — the key's plan: each step's kind, operands and fields (``specs``, shared by
  every plan, each written once), the given matrices at the evaluations' precision; a
  topic's kind of step brings its rule (``scripts``, from its ``KindRules.page``) and its
  constants;
* ``key`` — every step's values as the key holds them (the decimals ``check`` compares
  with), ``order`` (the answer steps in order) and ``ancestors`` (what each is made from);
* ``mistakes`` — each mistake model (``MISTAKES`` order) with its family, whether it is
  weaker, the steps it shows in, and each way of making it (a run: its plan, the problem as
  the student read it, its facts); ``pairs`` — two mistakes at once, as the diagnosis
  tries them (a ``scale`` mistake and another).

>>> import symattn
>>> key = symattn.derive({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> data = marking_data(key)
>>> data["order"]
['Q', 'K', 'V', 'scores', 'scaled_scores', 'weights', 'output']
>>> sorted(data["ancestors"]["weights"]), data["supported"]
(['K', 'Q', 'scaled_scores', 'scores'], True)
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any

from ..check.answers import answer_steps
from ..check.compare import PRECISION, key_values
from ..check.marking import ancestors
from ..check.mistakes import MISTAKES, Mistake, pairs, runs
from ..check.tables import key_plan
from ..compute.values import dec_matrix
from ..derivation import Derivation
from ..numbers import decimal_context, evaluate
from ..problem import Problem
from ..steps import Kind, Plan, StepSpec
from ..topics import kind_rules

__all__ = ["SUPPORTED", "marking_data", "nameable"]

#: The kinds of step the page's script evaluates itself; a topic's kind brings its own rule
#: (``KindRules.page``); a page whose plan has a kind with neither is marked against the
#: key alone.
SUPPORTED = frozenset(
    k.value
    for k in (
        Kind.TOKENS,
        Kind.LOOKUP,
        Kind.GIVEN,
        Kind.PRODUCT,
        Kind.WEIGHTED_SUM,
        Kind.SUM_OF_PRODUCTS,
        Kind.SCALE,
        Kind.MASK,
        Kind.SOFTMAX,
        Kind.CONCAT,
        Kind.COPY,
        Kind.DIFFERENCE,
        Kind.COLUMNS,
        Kind.JACOBIAN,
        Kind.ADD,
    )
)
#: Digits of the default decimal context, in which ``check`` compares and bounds.
COMPARE = 28


def _strings(matrix: list[list[Decimal]]) -> list[list[str]]:
    return [[str(x) for x in row] for row in matrix]


def _given(matrix: Any, precision: int) -> list[list[str]]:
    with decimal.localcontext(decimal_context(precision)):
        return _strings(dec_matrix(matrix))


class _Writer:
    """Specs and problems, each written once and named by its index."""

    def __init__(self, key: Derivation) -> None:
        self.key = key
        self.specs: list[dict[str, Any]] = []
        self.spec_index: dict[StepSpec, int] = {}
        self.problems: list[dict[str, Any]] = []
        self.problem_index: list[Problem] = []
        self.kinds: set[str] = set()

    def problem(self, problem: Problem, plan: Plan) -> int:
        for k, known in enumerate(self.problem_index):
            if known is problem or known == problem:
                return k
        inputs = {name: source for name, source in plan.inputs}
        for spec in plan.specs:
            if spec.source is not None:
                inputs.setdefault(spec.source.field + repr(spec.source.columns), spec.source)
        self.problem_index.append(problem)
        self.problems.append(
            {
                "mask": [list(row) for row in problem.mask] if problem.mask is not None else None,
                "inputs": {
                    name: _given(source.take(problem), PRECISION) for name, source in inputs.items()
                },
                "inputs28": {
                    name: _given(source.take(problem), COMPARE) for name, source in inputs.items()
                },
                "tokens": list(problem.lookup.ids) if problem.lookup is not None else None,
            }
        )
        return len(self.problems) - 1

    def spec(self, spec: StepSpec) -> int:
        found = self.spec_index.get(spec)
        if found is not None:
            return found
        self.kinds.add(spec.kind.value)
        out: dict[str, Any] = {"id": spec.id, "kind": spec.kind.value, "ops": list(spec.operands)}
        for name, value in (
            ("tl", spec.transpose_left),
            ("tr", spec.transpose_right),
            ("ma", spec.mask_after),
            ("t", spec.transposed),
            ("diag", spec.diagonal_only),
        ):
            if value:
                out[name] = True
        if spec.softmax != "rows":
            out["softmax"] = spec.softmax
        if spec.round_operand is not None:
            out["round"] = spec.round_operand
        if spec.columns is not None:
            out["columns"] = list(spec.columns)
        if spec.source is not None:
            out["source"] = spec.source.field + repr(spec.source.columns)
        if spec.kind == Kind.SCALE and spec.divisor is not None:
            with decimal.localcontext(decimal_context(PRECISION)):
                out["div"] = str(+evaluate(spec.divisor, PRECISION))  # values.py's divisor
            out["div_abs"] = str(abs(evaluate(spec.divisor, 30)))  # slack.py's
        out |= _page_fields(spec, self.key)
        self.spec_index[spec] = len(self.specs)
        self.specs.append(out)
        return self.spec_index[spec]

    def plan(self, plan: Plan) -> list[int]:
        return [self.spec(s) for s in plan.specs]

    def run(
        self, problem: Problem, plan: Plan, facts: dict[str, Any], base: Plan
    ) -> dict[str, Any]:
        same = {s.id: s for s in base.specs}
        return {
            "problem": self.problem(problem, plan),
            "plan": self.plan(plan),
            "same": [same.get(s.id) == s for s in plan.specs],
            "facts": {k: v for k, v in facts.items() if isinstance(v, (int, str))},
        }


def _page_fields(spec: StepSpec, key: Derivation) -> dict[str, Any]:
    """The constants of a topic's kind of step (its ``KindRules.page``), at the precision of
    an evaluation and of a comparison."""
    rules = kind_rules().get(spec.kind)
    if rules is None or rules.page is None:
        return {}
    p = key.problem
    shape = key.step(spec.id).shape if key.has(spec.id) else (p.n, p.d_model or 0)
    out = {}
    for name, digits in (("24", PRECISION), ("28", COMPARE)):
        with decimal.localcontext(decimal_context(digits)):
            out[name] = rules.page.constants(spec, p, shape)
    return {"page": out}


def nameable(key: Derivation, step_id: str) -> list[str]:
    """Every diagnosis ``check`` can give on ``step_id`` (the page has a sentence for each)."""
    plan = key_plan(key)
    base = step_id.split(".", 1)[-1]
    return [m.id for m in MISTAKES if m.shows(base, plan)] + ["arithmetic_slip"]


def _mistake(m: Mistake, w: _Writer, problem: Problem, plan: Plan) -> dict[str, Any]:
    return {
        "id": m.id,
        "family": m.family,
        "weaker": m.weaker,
        "runs": [w.run(p, changed, facts, plan) for p, changed, facts in runs(m, problem, plan)],
    }


def marking_data(key: Derivation) -> dict[str, Any]:
    """The rules the page marks by (module docstring); ``supported`` is False when the plan
    has a kind of step the page's script cannot evaluate."""
    problem = key.problem
    plan = key_plan(key)
    order = answer_steps(key)
    w = _Writer(key)
    w.problem(problem, plan)
    main = w.plan(plan)
    shown: list[Mistake] = []
    shows: dict[str, list[int]] = {}
    for step_id in order:
        base = step_id.split(".", 1)[-1]
        here = [m for m in MISTAKES if m.shows(base, plan)]
        for m in here:
            if m not in shown:
                shown.append(m)
        shows[step_id] = [MISTAKES.index(m) for m in here]
    mistakes = {MISTAKES.index(m): _mistake(m, w, problem, plan) for m in shown}
    both: dict[str, list[dict[str, Any]]] = {}
    for first in (m for m in shown if m.family == "scale"):
        for second in (m for m in shown if m.family != "scale"):
            found = pairs(first, second, problem, plan)
            if found:
                both[f"{first.id} {second.id}"] = [w.run(p, c, f, plan) for p, c, f in found]
    keys = {s.id: _strings(key_values(key, s.id)) for s in plan.specs if key.has(s.id)}
    scripts = {
        kind.value: rules.page.script
        for kind, rules in kind_rules().items()
        if rules.page is not None and kind.value in w.kinds
    }
    return {
        "supported": w.kinds <= SUPPORTED | set(scripts),
        "scripts": scripts,
        "layout": problem.layout,
        "order": order,
        "ancestors": {s: sorted(ancestors(plan, s)) for s in order},
        "key": keys,
        "specs": w.specs,
        "problems": w.problems,
        "plan": main,
        "shows": {s: [str(k) for k in ks] for s, ks in shows.items()},
        "mistakes": {str(k): v for k, v in mistakes.items()},
        "pairs": both,
    }
