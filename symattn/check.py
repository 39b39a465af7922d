"""Checking a hand calculation (SPEC §4): which entry is wrong, where it starts, and why.

An answers file holds any subset of the steps (Q, K, V, scores, scaled_scores,
masked_scores, weights, output, …) as matrices of numbers, decimal strings or
fractions; ``null`` or ``""`` means "not answered".  An entry passes when it is within
one unit of the last decimal place the student wrote (``0.73`` accepts 0.72 … 0.74),
or within ``tolerance`` when one is given; integers and fractions are exact answers.

A step that is wrong against the key is recomputed from the student's own earlier
answers (error carried forward).  If it then matches, its method is right: when the
earlier answers were only rounded, the step passes (carried rounding is not punished);
when they were wrong, the step is marked ``carried_forward``.  A step that is still
wrong is re-run under mistake models (:class:`~symattn.engine.Variant`), and every model
that explains the student's numbers is reported, with one sentence in English and in
Chinese that names the entry and the fix.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from . import engine
from .engine import DecimalMatrix, Variant, VariantError
from .errors import SymattnError, where
from .exact import Surd, rational_value, round_half_away
from .spec import Problem, read_file
from .steps import Derivation, split_id
from .values import ValueSyntaxError, parse_value

__all__ = [
    "MODELS",
    "Answers",
    "CheckResult",
    "Diagnosis",
    "EntryResult",
    "StepResult",
    "check",
    "load_answers",
]

#: Steps a student may answer, in the order of the computation.
ORDER = ("X", "Q", "K", "V", "scores", "scaled_scores", "masked_scores", "weights", "output")


def answer_steps(key: Derivation) -> list[str]:
    """The steps of this problem a student may answer, in order (h1.Q … with heads)."""
    return [s for s in key.step_ids if s != "tokens"]


#: Tolerance of answers given exactly (integers, fractions, sqrt): equality, up to noise.
EXACT_TOLERANCE = Decimal("1e-30")
#: Intermediate answers with this many places or fewer count as coarsely rounded.
COARSE_PLACES = 1
NEG_INF = Decimal("-Infinity")


@dataclass(frozen=True)
class Given:
    """One answered entry: its value, as written, and how precisely it was written."""

    text: str
    value: Decimal  # -Infinity for a masked score
    places: int | None  # decimal places written; None for an exact answer


@dataclass(frozen=True)
class Answers:
    """A student's answers: step id → rows of entries (None = not answered)."""

    source: str
    steps: dict[str, list[list[Given | None]]]
    tolerance: Decimal | None = None


@dataclass(frozen=True)
class EntryResult:
    index: tuple[int, int]  # 1-based
    given: str
    expected: str  # the key's decimal (4 places, or as many as the student wrote)
    exact: str  # the key's exact value (SymPy str form)
    ok: bool


@dataclass(frozen=True)
class Diagnosis:
    id: str
    message: str  # English
    message_zh: str
    entry: tuple[int, int] | None = None  # 1-based, when one entry is meant


@dataclass
class StepResult:
    id: str
    status: str  # correct | incorrect | partial | missing
    entries: list[EntryResult]
    diagnosis: list[Diagnosis] = field(default_factory=list)
    carried_forward: bool = False
    note: str | None = None


@dataclass
class CheckResult:
    source: str
    steps: list[StepResult]
    derivation: Derivation

    @property
    def verdict(self) -> str:
        return "incorrect" if self.first_error is not None else "correct"

    @property
    def first_error(self) -> str | None:
        return next((s.id for s in self.steps if s.status == "incorrect"), None)

    @property
    def exit_status(self) -> int:
        return 1 if self.first_error is not None else 0

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The SPEC §4 object; each diagnosis ``message`` is in ``lang`` (both are kept)."""
        return {
            "verdict": self.verdict,
            "first_error": self.first_error,
            "steps": [
                {
                    "id": s.id,
                    "status": s.status,
                    "entries": [
                        {
                            "index": list(e.index),
                            "given": e.given,
                            "expected": e.expected,
                            "exact": e.exact,
                            "ok": e.ok,
                        }
                        for e in s.entries
                    ],
                    "diagnosis": [
                        {
                            "id": d.id,
                            "message": d.message_zh if lang == "zh" else d.message,
                            "message_en": d.message,
                            "message_zh": d.message_zh,
                        }
                        | ({"entry": list(d.entry)} if d.entry else {})
                        for d in s.diagnosis
                    ],
                    "carried_forward": s.carried_forward,
                }
                | ({"note": s.note} if s.note else {})
                for s in self.steps
            ],
        }


# -- reading answers ----------------------------------------------------------------------

_DECIMAL = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)")
_MINUS_INFINITY = {"-inf", "-infinity", "-∞", "-oo", "−∞"}


def _given(raw: object, at: str) -> Given | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        raise SymattnError(f"{at}: expected a number, found {str(raw).lower()}")
    if isinstance(raw, int):
        return Given(str(raw), Decimal(raw), None)
    if isinstance(raw, float):
        raw = Decimal(repr(raw))
    if isinstance(raw, Decimal):
        if raw.is_infinite() and raw < 0:
            return Given("-inf", NEG_INF, None)
        if not raw.is_finite():
            raise SymattnError(f"{at}: {raw} is not a number")
        exponent = raw.as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else None
        text = str(raw)
        if "." in text or "E" in text or "e" in text:
            places = max(places or 0, 0) if "." in text else places
        return Given(text, raw, places)
    if isinstance(raw, str):
        text = raw.strip()
        if text.lower() in _MINUS_INFINITY:
            return Given(text, NEG_INF, None)
        if _DECIMAL.fullmatch(text):
            places = len(text.split(".")[1])
            return Given(text, Decimal(text), places)
        try:
            mono = parse_value(text)
        except ValueSyntaxError as exc:
            raise SymattnError(f"{at}: {text!r} is not a number ({exc})") from None
        if not mono.is_number:
            raise SymattnError(f"{at}: {text!r} is not a number")
        return Given(text, mono.coef.to_decimal(60), None)
    raise SymattnError(f"{at}: expected a number, found {type(raw).__name__}")


def load_answers(
    answers: str | os.PathLike[str] | Mapping[str, Any],
    key: Derivation,
    source: str | None = None,
) -> Answers:
    """Read and validate an answers file (TOML or JSON) or dict against the key."""
    if isinstance(answers, Mapping):
        data: Mapping[str, Any] = answers
        name = source or "<answers>"
    else:
        name = source or str(answers)
        data = read_file(answers)
    allowed = answer_steps(key)
    tolerance = None
    steps: dict[str, list[list[Given | None]]] = {}
    for step_id, raw in data.items():
        if step_id == "tolerance":
            try:
                tolerance = Decimal(str(raw)) if not isinstance(raw, bool) else None
            except ArithmeticError:
                tolerance = None
            if tolerance is None or not tolerance.is_finite() or tolerance < 0:
                raise SymattnError(f"{name}: tolerance: expected a non-negative number")
            continue
        if step_id not in allowed:
            raise SymattnError(
                f"{name}: unknown step {step_id!r}; this problem's steps are {', '.join(allowed)}"
            )
        rows, cols = key.step(step_id).shape
        if not isinstance(raw, list) or len(raw) != rows:
            found = len(raw) if isinstance(raw, list) else type(raw).__name__
            raise SymattnError(
                f"{name}: {step_id}: expected {rows} rows ({rows} × {cols}), found {found}"
            )
        matrix = []
        for i, row in enumerate(raw):
            if not isinstance(row, list) or len(row) != cols:
                found = len(row) if isinstance(row, list) else type(row).__name__
                raise SymattnError(
                    f"{where(name, step_id, i)}: expected {cols} entries, found {found}"
                )
            matrix.append([_given(v, where(name, step_id, i, j)) for j, v in enumerate(row)])
        steps[step_id] = matrix
    return Answers(name, steps, tolerance)


# -- comparing --------------------------------------------------------------------------


def _tolerance(given: Given, answers: Answers) -> Decimal:
    if answers.tolerance is not None:
        return answers.tolerance
    if given.places is None:
        return EXACT_TOLERANCE
    return Decimal(1).scaleb(-given.places)


def _matches(
    given: Given, expected: Decimal, answers: Answers, slack: Decimal = Decimal(0)
) -> bool:
    if given.value.is_infinite() or expected.is_infinite():
        return given.value == expected
    return abs(given.value - expected) <= _tolerance(given, answers) + slack


def _step_matches(
    answers: Answers, step_id: str, values: DecimalMatrix, slack: DecimalMatrix | None = None
) -> bool:
    """Every answered entry of the step matches ``values`` (within ``slack`` more)."""
    return all(
        g is None or _matches(g, values[i][j], answers, slack[i][j] if slack else Decimal(0))
        for i, row in enumerate(answers.steps[step_id])
        for j, g in enumerate(row)
    )


#: The right method: the mistake model that makes no mistake.
_RIGHT = Variant()

#: What each step is computed from, most direct first (for carried rounding).
_INPUTS = {
    "scores": ("Q", "K"),
    "scaled_scores": ("scores",),
    "masked_scores": ("scaled_scores", "scores"),
    "weights": ("masked_scores", "scaled_scores", "scores"),
    "output": ("weights", "V"),
}


def _frozen(overrides: dict[str, DecimalMatrix]) -> tuple[Any, ...]:
    return tuple((k, tuple(tuple(row) for row in v)) for k, v in sorted(overrides.items()))


def _key_values(key: Derivation, step_id: str) -> DecimalMatrix:
    return [[v if v is not None else Decimal(0) for v in row] for row in key.step(step_id).values]


def _overrides(answers: Answers, key: Derivation, before: str) -> dict[str, DecimalMatrix]:
    """The student's answers of the steps before ``before``, gaps filled from the key."""
    out: dict[str, DecimalMatrix] = {}
    order = answer_steps(key)
    for step_id in order[: order.index(before)]:
        if step_id in answers.steps and step_id != "X":
            filled = _key_values(key, step_id)
            for i, row in enumerate(answers.steps[step_id]):
                for j, g in enumerate(row):
                    if g is not None:
                        filled[i][j] = g.value
            out[step_id] = filled
    return out


# -- mistake models -----------------------------------------------------------------------

#: Every mistake model: id → (steps where it shows, how to compute it).
MODELS: dict[str, tuple[tuple[str, ...], str]] = {
    "no_scaling": (("scaled_scores", "masked_scores", "weights", "output"), "scale"),
    "scaled_by_d_model": (("scaled_scores", "masked_scores", "weights", "output"), "scale"),
    "scaled_by_dk": (("scaled_scores", "masked_scores", "weights", "output"), "scale"),
    "no_softmax": (("weights", "output"), "variant"),
    "softmax_wrong_axis": (("weights", "output"), "variant"),
    "exp_missing_in_softmax": (("weights", "output"), "variant"),
    "scores_transposed": (("scores", "scaled_scores", "masked_scores", "weights", "output"),
                          "variant"),
    "weights_transposed": (("weights", "output"), "variant"),
    "weighted_sum_of_keys": (("output",), "variant"),
    "mask_after_softmax": (("weights", "output"), "variant"),
    "premature_rounding": (("weights", "output"), "rounding"),
}  # fmt: skip

_VARIANTS = {
    "no_softmax": Variant(softmax="none"),
    "softmax_wrong_axis": Variant(softmax="columns"),
    "exp_missing_in_softmax": Variant(softmax="no_exp"),
    "scores_transposed": Variant(transpose_scores=True),
    "weights_transposed": Variant(transpose_weights=True),
    "weighted_sum_of_keys": Variant(values="K"),
    "mask_after_softmax": Variant(mask_after_softmax=True),
}


def _model_runs(model: str, problem: Problem) -> list[tuple[Problem, Variant, dict[str, Any]]]:
    """The (problem, variant, facts for the message) pairs a model stands for."""
    if model in _VARIANTS:
        if model == "mask_after_softmax" and problem.mask is None:
            return []
        return [(problem, _VARIANTS[model], {})]
    if model == "premature_rounding":
        runs = []
        for places in (0, 1, 2):
            runs.append(
                (
                    problem,
                    Variant(round_before_softmax=places),
                    {"places": places, "what": "scores"},
                )
            )
            runs.append(
                (problem, Variant(round_weights=places), {"places": places, "what": "weights"})
            )
        return runs
    if problem.scale is None:
        return []
    d_k, d_model = problem.d_k, problem.d_model
    if model == "no_scaling":
        scale = Surd.rational(1)
    elif model == "scaled_by_d_model":
        if d_model is None or d_model == d_k:
            return []
        scale = Surd.sqrt(d_model)
    else:  # scaled_by_dk
        if d_k == 1:
            return []
        scale = Surd.rational(d_k)
    if scale == problem.scale:
        return []
    changed = dataclasses.replace(problem, scale=scale, scale_label=str(scale))
    return [(changed, Variant(), {})]


# -- messages -----------------------------------------------------------------------------


def entry_name(step_id: str, i: int, j: int) -> str:
    """``a₁,₂`` for entry (i, j), 0-based, of a step (the terminal's names)."""
    from .render.text import ref_name
    from .steps import Ref

    return ref_name(Ref(step_id, i, j))


def _message(model: str, step_id: str, problem: Problem, facts: dict[str, Any]) -> tuple[str, str]:
    d_k, d_model = problem.d_k, problem.d_model
    root = f"√d_k = √{d_k}" if problem.scale_label == "sqrt(d_k)" else f"c = {problem.scale}"
    at = {"en": f"In {step_id}: ", "zh": f"{step_id} 中："}
    texts = {
        "no_scaling": (
            f"you did not divide the scores by {root}; write s′ᵢⱼ = sᵢⱼ / √d_k before the softmax.",
            f"没有把分数除以 {root}；在 softmax 之前应计算 s′ᵢⱼ = sᵢⱼ / √d_k。",
        ),
        "scaled_by_d_model": (
            f"you divided by √d_model = √{d_model} instead of {root}; the scale uses d_k, the "
            "width of the keys.",
            f"你除以了 √d_model = √{d_model}，应除以 {root}；缩放用的是键向量的维度 d_k。",
        ),
        "scaled_by_dk": (
            f"you divided by d_k = {d_k} instead of its square root, {root}.",
            f"你除以了 d_k = {d_k}，应除以它的平方根 {root}。",
        ),
        "no_softmax": (
            "the weights are the scores themselves: apply the softmax "
            "aᵢⱼ = exp(s′ᵢⱼ) / Σₖ exp(s′ᵢₖ) to each row.",
            "权重直接用了分数：应对每一行做 softmax，aᵢⱼ = exp(s′ᵢⱼ) / Σₖ exp(s′ᵢₖ)。",
        ),
        "softmax_wrong_axis": (
            "you normalised each column; the softmax runs along each row (over the keys j of "
            "one query i), so every row of the weights sums to 1.",
            "你对每一列做了归一化；softmax 应沿每一行进行（固定查询 i，对所有键 j），"
            "使每一行的权重之和为 1。",
        ),
        "exp_missing_in_softmax": (
            "you divided each score by its row sum without exponentials: use "
            "exp(s′ᵢⱼ) / Σₖ exp(s′ᵢₖ).",
            "你直接用分数除以行和，漏掉了指数：应为 exp(s′ᵢⱼ) / Σₖ exp(s′ᵢₖ)。",
        ),
        "scores_transposed": (
            "your score matrix is transposed: sᵢⱼ = qᵢ · kⱼ, with the query as the row and "
            "the key as the column.",
            "分数矩阵转置了：sᵢⱼ = qᵢ · kⱼ，行对应查询，列对应键。",
        ),
        "weights_transposed": (
            "your weight matrix is transposed: row i holds the weights of query i over all keys.",
            "权重矩阵转置了：第 i 行应是查询 i 对所有键的权重。",
        ),
        "weighted_sum_of_keys": (
            "you summed the key vectors: the output is bᵢ = Σⱼ aᵢⱼ vⱼ, with the values V, "
            "not the keys K.",
            "你对键向量做了加权和：输出应为 bᵢ = Σⱼ aᵢⱼ vⱼ，用值向量 V，而不是键 K。",
        ),
        "mask_after_softmax": (
            "you applied the mask after the softmax, so the rows no longer sum to 1: set the "
            "masked scores to −∞ before the softmax.",
            "你在 softmax 之后才加掩码，导致每行之和不再为 1："
            "应在 softmax 之前把被掩码的分数设为 −∞。",
        ),
    }
    if model == "premature_rounding":
        what = facts.get("what", "scores")
        what_zh = {"scores": "softmax 之前的分数", "weights": "权重"}.get(what, what)
        places = facts.get("places", 1)
        if "step" in facts:
            what, what_zh = facts["step"], facts["step"]
        en = (
            f"you rounded the {what} to {places} decimal place{'s' if places != 1 else ''} "
            "before using them, and the error grew in the next step; keep at least 4 places "
            "in intermediate results."
        )
        zh = (
            f"你在中间步骤把{what_zh}舍入到 {places} 位小数，误差在后面的步骤中被放大；"
            "中间结果至少保留 4 位小数。"
        )
        return at["en"] + en, at["zh"] + zh
    en, zh = texts[model]
    return at["en"] + en, at["zh"] + zh


# -- the check ----------------------------------------------------------------------------


class _Checker:
    def __init__(self, key: Derivation, answers: Answers) -> None:
        self.key, self.answers = key, answers
        self.problem = key.problem
        # shared by every answers file checked against this key: a whole class
        self._memo: dict[tuple[Any, ...], dict[str, DecimalMatrix] | None] = key.cache.setdefault(
            "evaluations", {}
        )
        self._alive: dict[int, Problem] = key.cache.setdefault("problems", {})
        self._runs: dict[str, list[Any]] = key.cache.setdefault("model_runs", {})

    def run(self) -> list[StepResult]:
        results = []
        earlier_ok: dict[str, bool] = {}
        for step_id in answer_steps(self.key):
            if step_id not in self.answers.steps:
                continue
            result = self.step(step_id, earlier_ok)
            earlier_ok[step_id] = result.status in ("correct", "partial")
            results.append(result)
        return results

    def _entries(self, step_id: str, reference: DecimalMatrix | None = None) -> list[EntryResult]:
        step = self.key.step(step_id)
        out = []
        for i, row in enumerate(self.answers.steps[step_id]):
            for j, g in enumerate(row):
                if g is None:
                    continue
                digits = max(4, g.places or 0)
                expected = step.decimal_str(i, j, digits) or step.exact_str(i, j)
                if g.places is None and rational_value(step.exact[i][j]) is not None:
                    expected = step.exact_str(i, j)  # an exact answer is shown an exact key
                ok = _matches(g, _key_values(self.key, step_id)[i][j], self.answers)
                if not ok and reference is not None:
                    ok = _matches(g, reference[i][j], self.answers)
                out.append(EntryResult((i + 1, j + 1), g.text, expected, step.exact_str(i, j), ok))
        return out

    def step(self, step_id: str, earlier_ok: dict[str, bool]) -> StepResult:
        key_values = _key_values(self.key, step_id)
        given = self.answers.steps[step_id]
        answered = sum(g is not None for row in given for g in row)
        total = sum(len(row) for row in given)
        if answered == 0:
            return StepResult(step_id, "missing", [])
        complete = answered == total
        if _step_matches(self.answers, step_id, key_values):
            return StepResult(step_id, "correct" if complete else "partial", self._entries(step_id))
        overrides = _overrides(self.answers, self.key, step_id)
        carried = self._carried(step_id, overrides)
        if carried is not None:
            used = [s for s in overrides if s in self.answers.steps]
            if all(earlier_ok.get(s, False) for s in used):
                coarse = self._coarse(used)
                if coarse is None:  # only rounding upstream: carried rounding passes
                    result = StepResult(
                        step_id,
                        "correct" if complete else "partial",
                        self._entries(step_id, carried),
                    )
                    result.note = f"computed from your rounded {', '.join(used)}"
                    return result
                en, zh = _message(
                    "premature_rounding",
                    step_id,
                    self.problem,
                    {"step": coarse[0], "places": coarse[1]},
                )
                return StepResult(
                    step_id,
                    "incorrect",
                    self._entries(step_id),
                    [Diagnosis("premature_rounding", en, zh)],
                    carried_forward=True,
                )
            wrong = [s for s in used if not earlier_ok.get(s, False)]
            result = StepResult(step_id, "incorrect", self._entries(step_id), carried_forward=True)
            result.note = f"the method is right; the error comes from {', '.join(wrong)}"
            return result
        result = StepResult(step_id, "incorrect", self._entries(step_id))
        result.diagnosis = self._diagnose(step_id, overrides, key_values)
        return result

    def _inputs(self, step_id: str, overrides: dict[str, DecimalMatrix]) -> list[str]:
        """The overridden steps whose rounding reaches ``step_id``."""
        found: list[str] = []
        present = set(self.key.step_ids)
        head, base = split_id(step_id)
        prefix = f"h{head}." if head is not None else ""
        options = tuple(prefix + s for s in _INPUTS.get(base, ()))
        if base in ("masked_scores", "weights"):  # one input: the latest that exists
            options = tuple(s for s in options if s in present)[:1]
        if base == "concat":
            options = tuple(
                s
                for s in present
                if split_id(s) == (split_id(s)[0], "output") and split_id(s)[0] is not None
            )
        elif step_id == "output" and "concat" in present:
            options = ("concat",)
        for source in options:
            if source in overrides:
                found.append(source)
            else:
                found += self._inputs(source, overrides)
        return found

    def _fits(
        self,
        step_id: str,
        values: DecimalMatrix,
        overrides: dict[str, DecimalMatrix],
        problem: Problem | None = None,
        variant: Variant = _RIGHT,
    ) -> bool:
        """The student's step matches ``values``, allowing for carried rounding of their own
        inputs (the bound is only worked out when the plain comparison fails)."""
        if _step_matches(self.answers, step_id, values):
            return True
        if not overrides:
            return False
        return _step_matches(
            self.answers, step_id, values, self._slack(step_id, overrides, problem, variant)
        )

    def _slack(
        self,
        step_id: str,
        overrides: dict[str, DecimalMatrix],
        problem: Problem | None = None,
        variant: Variant = _RIGHT,
    ) -> DecimalMatrix | None:
        """How far rounding of the student's own inputs (half a unit of each written place)
        can move each entry of ``step_id``: a first-order bound by finite differences.

        One column of an input is moved at a time, in every row at once: a row of Q, of the
        scores or of the weights only reaches the same row of what follows, and a row of K
        one column of the scores, so the effects do not mix; for V the weights are ≥ 0, so
        the moves add up instead of cancelling."""
        problem = problem or self.problem
        base = self._evaluate(problem, variant, overrides)
        if base is None:
            return None
        rows, cols = len(base[step_id]), len(base[step_id][0])
        slack = [[Decimal(0)] * cols for _ in range(rows)]
        for source in self._inputs(step_id, overrides):
            given = self.answers.steps.get(source, [])
            for j in range(len(given[0]) if given else 0):
                shifted = {k: [list(r) for r in v] for k, v in overrides.items()}
                moved_any = False
                for i, row in enumerate(given):
                    g = row[j]
                    if g is None or g.places is None or not g.value.is_finite():
                        continue
                    shifted[source][i][j] += Decimal(5).scaleb(-g.places - 1)
                    moved_any = True
                moved = self._evaluate(problem, variant, shifted) if moved_any else None
                if moved is None:
                    continue
                for a in range(rows):
                    for b in range(cols):
                        x, y = moved[step_id][a][b], base[step_id][a][b]
                        if x.is_finite() and y.is_finite():
                            slack[a][b] += abs(x - y)
        return slack

    def _carried(self, step_id: str, overrides: dict[str, DecimalMatrix]) -> DecimalMatrix | None:
        """The step recomputed from the student's own earlier answers, when that matches.

        All earlier answers are tried together, then each alone (a student may have
        carried more digits than they wrote down for a later step)."""
        if not overrides:
            return None
        trials = [overrides] + (
            [{k: v} for k, v in overrides.items()] if len(overrides) > 1 else []
        )
        for trial in trials:
            values = self._evaluate(self.problem, Variant(), trial)
            if values is None:
                continue
            if self._fits(step_id, values[step_id], trial):
                return values[step_id]
        return None

    def _coarse(self, used: list[str]) -> tuple[str, int] | None:
        """The first earlier step written with too few places to carry forward safely."""
        for step_id in used:
            step = self.key.step(step_id)
            for i, row in enumerate(self.answers.steps[step_id]):
                for j, g in enumerate(row):
                    if g is None or g.places is None or g.places > COARSE_PLACES:
                        continue
                    if not step.is_exact_decimal(i, j, g.places):
                        return step_id, g.places
        return None

    def _evaluate(
        self, problem: Problem, variant: Variant, overrides: dict[str, DecimalMatrix]
    ) -> dict[str, DecimalMatrix] | None:
        memo = (id(problem), variant, _frozen(overrides))
        if memo not in self._memo:
            self._alive[id(problem)] = problem  # its id stays its own while the memo lives
            try:
                self._memo[memo] = engine.evaluate(problem, variant, overrides, precision=24)
            except (VariantError, ArithmeticError):
                self._memo[memo] = None
        return self._memo[memo]

    def _diagnose(
        self, step_id: str, overrides: dict[str, DecimalMatrix], key_values: DecimalMatrix
    ) -> list[Diagnosis]:
        found: list[Diagnosis] = []
        for model, (steps, kind) in MODELS.items():
            if split_id(step_id)[1] not in steps or (kind == "rounding" and found):
                continue  # rounding is the weaker explanation: only when nothing else fits
            if model not in self._runs:
                self._runs[model] = _model_runs(model, self.problem)
            for problem, variant, facts in self._runs[model]:
                explained = False
                for extra in [overrides, {}] if overrides else [{}]:
                    values = self._evaluate(problem, variant, extra)
                    right = self._evaluate(self.problem, Variant(), extra)
                    if values is None or right is None or step_id not in values:
                        continue
                    # the model explains the numbers, and the right method would not
                    if self._fits(step_id, values[step_id], extra, problem, variant) and not (
                        self._fits(step_id, right[step_id], extra)
                    ):
                        explained = True
                        break
                if explained:
                    en, zh = _message(model, step_id, self.problem, facts)
                    found.append(Diagnosis(model, en, zh))
                    break
        if not found:
            slip = self._slip(step_id, overrides, key_values)
            if slip is not None:
                found.append(slip)
        return found

    def _slip(
        self, step_id: str, overrides: dict[str, DecimalMatrix], key_values: DecimalMatrix
    ) -> Diagnosis | None:
        """One or two entries off, the rest right: an arithmetic slip, named."""
        reference, slack = key_values, None
        if overrides:
            values = self._evaluate(self.problem, Variant(), overrides)
            if values is not None:
                reference, slack = values[step_id], self._slack(step_id, overrides)
        wrong, right = [], 0
        for i, row in enumerate(self.answers.steps[step_id]):
            for j, g in enumerate(row):
                if g is None:
                    continue
                extra = slack[i][j] if slack else Decimal(0)
                if _matches(g, reference[i][j], self.answers, extra):
                    right += 1
                else:
                    wrong.append((i, j, g))
        if not 1 <= len(wrong) <= 2 or right < 2:
            return None
        step = self.key.step(step_id)
        parts_en, parts_zh = [], []
        for i, j, g in wrong:
            if not reference[i][j].is_finite():
                want = "−∞"
            elif g.places is None and reference is key_values:
                want = step.exact_str(i, j)
            elif g.places is None and reference[i][j] == reference[i][j].to_integral_value():
                want = str(int(reference[i][j]))
            else:
                want = round_half_away(Fraction(reference[i][j]), max(4, g.places or 0))
            name = entry_name(step_id, i, j)
            parts_en.append(f"{name}: you wrote {g.text}, it is {want}")
            parts_zh.append(f"{name}：你写的是 {g.text}，应为 {want}")
        en = (
            f"In {step_id}: "
            + "; ".join(parts_en)
            + ". The other entries are right, so recheck the arithmetic of "
            + ("this entry." if len(wrong) == 1 else "these entries.")
        )
        zh = f"{step_id} 中：" + "；".join(parts_zh) + "。其余分量都对，请重新核对这一处的计算。"
        i, j, _ = wrong[0]
        return Diagnosis("arithmetic_slip", en, zh, (i + 1, j + 1))


def check(
    problem: Problem | Derivation | str | os.PathLike[str] | Mapping[str, Any],
    answers: str | os.PathLike[str] | Mapping[str, Any] | Answers,
    *,
    tolerance: float | str | Decimal | None = None,
    source: str | None = None,
) -> CheckResult:
    """Check a hand calculation against the exact key (SPEC §4).

    ``problem`` may be an already derived key (a :class:`Derivation`), which is how a
    whole class is graded with the key computed once.
    """
    from . import derive

    key = problem if isinstance(problem, Derivation) else derive(problem)
    loaded = answers if isinstance(answers, Answers) else load_answers(answers, key, source)
    if tolerance is not None:
        try:
            value = Decimal(str(tolerance))
        except ArithmeticError:
            raise SymattnError(f"--tolerance: expected a number, found {tolerance!r}") from None
        if not value.is_finite() or value < 0:
            raise SymattnError(f"--tolerance: expected a non-negative number, found {tolerance}")
        loaded = dataclasses.replace(loaded, tolerance=value)
    return CheckResult(loaded.source, _Checker(key, loaded).run(), key)
