"""Seeded attention exercises with nice numbers, student sheets, keys and answers files.

Each exercise is drawn from a seed, so the same seed always gives the same problems,
byte for byte.  The numbers are chosen to be pleasant by hand:

* X and the W's hold small integers (−1 … 1 at level 1, −2 … 2 at level 2, −3 … 3 at
  level 3);
* the scale √d_k is a whole number (d_k = 1, 4, 9, 16), so the scaled scores are
  integers or simple fractions; for any other d_k the exercise uses ``scale = "none"``
  and says why on the sheet (√2 cannot be written exactly as a decimal);
* within a row no two keys get the same score (unless ties are allowed), so the
  weights of a row are never all equal, and no row's largest weight rounds to 1.0000
  (a row with a single unmasked key is exactly 1, and that is fine);
* the scaled scores stay small enough for e^x to be worked out by hand.

Every exercise is derived exactly and cross-checked; its answers file is made from the
key, and ``symattn check`` accepts it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from math import isqrt
from typing import Any

from ..compute import derivation
from ..compute.exact import FORWARD_RULES
from ..derivation import Derivation
from ..errors import SymattnError
from ..load import load
from ..numbers import NegInf, rational_value, round_half_away
from ..plan import Plan, forward_plan
from ..problem import Matrix
from ..steps import Kind
from ..words import LANGUAGES, words

__all__ = ["Exercise", "ExerciseOptions", "generate"]

#: Level → (largest |entry|, default tokens, d_model, d_k, largest |scaled score|).
LEVELS = {1: (1, 2, 2, 1, 3), 2: (2, 3, 3, 4, 4), 3: (3, 4, 4, 4, 6)}
#: How often an entry of W is 0: sparse weights keep the scores small and the sums short.
ZERO_SHARE = {1: 0.3, 2: 0.4, 3: 0.5}
#: Draws tried for one exercise before giving up with a clear message.
MAX_TRIES = 20_000


@dataclass(frozen=True)
class ExerciseOptions:
    """What kind of exercise to make; validated when built."""

    tokens: int | None = None
    d_model: int | None = None
    d_k: int | None = None
    d_v: int | None = None
    mask: str = "none"
    heads: int = 1
    level: int = 2
    lang: str = "en"
    allow_ties: bool = False

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise SymattnError(f"expected 1, 2 or 3, found {self.level}", option="level")
        if not 1 <= self.heads <= 4:
            raise SymattnError(
                f"expected 1 … 4 for a hand exercise, found {self.heads}", option="heads"
            )
        if self.mask not in ("none", "causal"):
            raise SymattnError(f"expected none or causal, found {self.mask!r}", option="mask")
        if self.lang not in LANGUAGES:
            raise SymattnError(
                f"expected one of {', '.join(LANGUAGES)}, found {self.lang!r}", option="lang"
            )
        for name in ("tokens", "d_model", "d_k", "d_v"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= 8:
                raise SymattnError(
                    f"expected 1 … 8 for a hand exercise, found {value}", option=name
                )

    @property
    def shape(self) -> tuple[int, int, int, int]:
        _, n, d_model, d_k, _ = LEVELS[self.level]
        n = self.tokens or n
        d_model = self.d_model or d_model
        d_k = self.d_k or d_k
        d_v = self.d_v if self.d_v is not None else min(d_k, 2)
        return n, d_model, d_k, d_v

    @property
    def scale_is_whole(self) -> bool:
        d_k = self.shape[2]
        return isqrt(d_k) ** 2 == d_k


@dataclass(frozen=True)
class Exercise:
    """One generated exercise: its problem data, the derived key and who it is for."""

    name: str  # folder name: 01, 02, … or the student's name
    data: dict[str, Any]
    key: Derivation
    student: str | None = None


def _prefixes(options: ExerciseOptions) -> list[str]:
    return [""] if options.heads == 1 else [f"h{t + 1}." for t in range(options.heads)]


def _nice(key: Derivation, options: ExerciseOptions, bound: int) -> bool:
    """The numbers of a drawn problem are pleasant to work by hand (in every head)."""
    return all(
        _scores_nice(key.matrices, options, bound, p) and _nice_weights(key, p)
        for p in _prefixes(options)
    ) and all(any(v for v in row) for row in key.problem.X or ())


def _unmasked(matrices: Mapping[str, Matrix], prefix: str, i: int) -> list[int]:
    last = matrices.get(f"{prefix}masked_scores")
    width = len(matrices[f"{prefix}scores"][0])
    return [j for j in range(width) if last is None or not isinstance(last[i][j], NegInf)]


def _scores_nice(
    matrices: Mapping[str, Matrix], options: ExerciseOptions, bound: int, prefix: str
) -> bool:
    """Small scaled scores, no two alike in a row (unless ties are allowed)."""
    source = matrices.get(f"{prefix}scaled_scores", matrices[f"{prefix}scores"])
    for i in range(len(source)):
        row = [rational_value(source[i][j]) for j in _unmasked(matrices, prefix, i)]
        if any(v is None or abs(v) > bound for v in row):
            return False
        if not options.allow_ties and len(set(row)) != len(row):
            return False
    return True


def _nice_weights(key: Derivation, prefix: str) -> bool:
    """No row's largest weight rounds to 1.0000 (a lone unmasked key is exactly 1)."""
    weights = key.step(f"{prefix}weights")
    for i in range(weights.shape[0]):
        unmasked = _unmasked(key.matrices, prefix, i)
        if len(unmasked) > 1:
            top = max(weights.values[i][j] or Decimal(0) for j in unmasked)
            if round_half_away(top, 4) == "1.0000":
                return False
    return True


def _draw(rng: random.Random, options: ExerciseOptions, title: str) -> dict[str, Any]:
    top = LEVELS[options.level][0]
    n, d_model, d_k, d_v = options.shape
    values = list(range(-top, top + 1))

    zero = ZERO_SHARE[options.level]

    def matrix(rows: int, cols: int, sparse: bool = False) -> list[list[int]]:
        return [
            [0 if sparse and rng.random() < zero else rng.choice(values) for _ in range(cols)]
            for _ in range(rows)
        ]

    vocabulary = words(options.lang)("exercise.tokens").split()
    return {
        "title": title,
        "tokens": vocabulary[:n] if n <= len(vocabulary) else [f"t{i + 1}" for i in range(n)],
        "X": matrix(n, d_model),
        "W_Q": matrix(d_model, options.heads * d_k, sparse=True),
        "W_K": matrix(d_model, options.heads * d_k, sparse=True),
        "W_V": matrix(d_model, options.heads * d_v, sparse=True),
        "heads": options.heads,
        "scale": "sqrt(d_k)" if options.scale_is_whole else "none",
        "mask": options.mask,
    }


def _before_softmax(plan: Plan) -> Plan:
    """The plan up to the scores the softmax reads (what the quick look needs)."""
    last = max(i for i, spec in enumerate(plan.specs) if spec.kind == Kind.SOFTMAX)
    kept = tuple(s for s in plan.specs[:last] if s.kind != Kind.SOFTMAX)
    return Plan(plan.inputs, tuple(s for s in kept if s.base != "output"))


def _quick_nice(data: dict[str, Any], options: ExerciseOptions, bound: int) -> bool:
    """A cheap first look at the scores, before the whole derivation: the exact rules of
    the plan up to the softmax, without the high-precision values."""
    if not all(any(row) for row in data["X"]):
        return False
    problem = load(dict(data))
    plan = _before_softmax(forward_plan(problem))
    matrices = {name: source.take(problem) for name, source in plan.inputs}
    for spec in plan.specs:
        args = [matrices[o] for o in spec.operands]
        matrices[spec.id] = FORWARD_RULES[spec.kind](spec, args, problem)
    return all(_scores_nice(matrices, options, bound, p) for p in _prefixes(options))


def _signature(data: dict[str, Any]) -> str:
    return json.dumps([data[k] for k in ("X", "W_Q", "W_K", "W_V")])


def generate(
    seed: int,
    count: int,
    options: ExerciseOptions,
    students: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Exercise]:
    """``count`` distinct exercises (one per student when ``students`` is given)."""
    if students is not None:
        count = len(students)
    if not 1 <= count <= 1000:
        raise SymattnError(f"expected 1 … 1000, found {count}", option="count")
    rng = random.Random(seed)
    bound = LEVELS[options.level][4]
    seen: set[str] = set()
    out: list[Exercise] = []
    width = max(2, len(str(count)))
    for number in range(1, count + 1):
        label = f"{number:0{width}d}"
        student = students[number - 1] if students else None
        language = words(options.lang)
        title = language("exercise.title", label=label)
        if student:
            title = language("exercise.for", title=title, student=student)
        for _ in range(MAX_TRIES):
            data = _draw(rng, options, title)
            signature = _signature(data)
            if signature in seen or not _quick_nice(data, options, bound):
                continue
            key = derivation(load(dict(data)))
            if key.crosscheck is None or not key.crosscheck.passed:
                continue
            if _nice(key, options, bound):
                break
        else:
            raise SymattnError(
                f"could not find {count} distinct exercises with nice numbers at this size; "
                "try another --level, fewer --count, or --allow-ties"
            )
        seen.add(signature)
        name = folder_name(student) if student else label
        out.append(Exercise(name, data, key, student))
        if progress is not None:
            progress(number, count)
    return out


def folder_name(student: str) -> str:
    """A student's folder: the name with anything unsafe in a path replaced."""
    cleaned = re.sub(r"[^\w.-]+", "_", student, flags=re.UNICODE).strip("._")
    return cleaned or "student"
