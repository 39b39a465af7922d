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

import csv
import dataclasses
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import isqrt
from pathlib import Path
from typing import Any

from .check import answer_steps
from .errors import SymattnError
from .exact import NegInf, rational_value, round_half_away
from .spec import Problem, load
from .steps import Derivation

__all__ = ["Exercise", "ExerciseOptions", "generate", "write_class_set"]

#: Level → (largest |entry|, default tokens, d_model, d_k, largest |scaled score|).
LEVELS = {1: (1, 2, 2, 1, 3), 2: (2, 3, 3, 4, 4), 3: (3, 4, 4, 4, 6)}
#: How often an entry of W is 0: sparse weights keep the scores small and the sums short.
ZERO_SHARE = {1: 0.3, 2: 0.4, 3: 0.5}
TOKENS = {
    "en": ["the", "cat", "sat", "on", "a", "warm", "mat", "today"],
    "zh": ["我", "爱", "吃", "苹果", "和", "香蕉", "今天", "很"],
}
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
            raise SymattnError(f"--level: expected 1, 2 or 3, found {self.level}")
        if not 1 <= self.heads <= 4:
            raise SymattnError(f"--heads: expected 1 … 4 for a hand exercise, found {self.heads}")
        if self.mask not in ("none", "causal"):
            raise SymattnError(f"--mask: expected none or causal, found {self.mask!r}")
        if self.lang not in TOKENS:
            raise SymattnError(f"--lang: expected en or zh, found {self.lang!r}")
        for name in ("tokens", "d_model", "d_k", "d_v"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= 8:
                flag = "--" + name.replace("_", "-")
                raise SymattnError(f"{flag}: expected 1 … 8 for a hand exercise, found {value}")

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

    def problem_toml(self) -> str:
        return problem_toml(self.data)


def _matrix_toml(matrix: list[list[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(str(x) for x in row) + "]" for row in matrix) + "]"


def problem_toml(data: dict[str, Any]) -> str:
    """A problem file, always written the same way (so a seed gives identical bytes)."""
    lines = []
    for key in ("title", "description"):
        if key in data:
            lines.append(f"{key} = {json.dumps(data[key], ensure_ascii=False)}")
    lines.append(f"tokens = {json.dumps(data['tokens'], ensure_ascii=False)}")
    for key in ("X", "W_Q", "W_K", "W_V"):
        lines.append(f"{key} = {_matrix_toml(data[key])}")
    if data.get("heads", 1) > 1:
        lines.append(f"heads = {data['heads']}")
    lines.append(f'scale = "{data["scale"]}"')
    lines.append(f'mask = "{data["mask"]}"')
    return "\n".join(lines) + "\n"


def _nice(key: Derivation, options: ExerciseOptions, bound: int) -> bool:
    """The numbers of a drawn problem are pleasant to work by hand (in every head)."""
    prefixes = [""] if options.heads == 1 else [f"h{t + 1}." for t in range(options.heads)]
    return all(_nice_head(key, options, bound, p) for p in prefixes) and all(
        any(v for v in row) for row in key.problem.X or ()
    )


def _nice_head(key: Derivation, options: ExerciseOptions, bound: int, prefix: str) -> bool:
    ids = key.step_ids
    scores = key.step(f"{prefix}scores")
    last = key.step(f"{prefix}masked_scores") if f"{prefix}masked_scores" in ids else None
    scaled = f"{prefix}scaled_scores"
    source = key.step(scaled) if scaled in ids else scores
    weights = key.step(f"{prefix}weights")
    for i in range(scores.shape[0]):
        unmasked = [
            j
            for j in range(scores.shape[1])
            if last is None or not isinstance(last.exact[i][j], NegInf)
        ]
        row = [rational_value(source.exact[i][j]) for j in unmasked]
        if any(v is None or abs(v) > bound for v in row):
            return False
        if not options.allow_ties and len(set(row)) != len(row):
            return False
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

    words = TOKENS[options.lang]
    return {
        "title": title,
        "tokens": words[:n] if n <= len(words) else [f"t{i + 1}" for i in range(n)],
        "X": matrix(n, d_model),
        "W_Q": matrix(d_model, options.heads * d_k, sparse=True),
        "W_K": matrix(d_model, options.heads * d_k, sparse=True),
        "W_V": matrix(d_model, options.heads * d_v, sparse=True),
        "heads": options.heads,
        "scale": "sqrt(d_k)" if options.scale_is_whole else "none",
        "mask": options.mask,
    }


def _quick_nice(data: dict[str, Any], options: ExerciseOptions, bound: int) -> bool:
    """A cheap first look with plain integers, before the exact derivation."""

    def mul(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
        return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]

    x = data["X"]
    if not all(any(row) for row in x):
        return False
    q_all, k_all = mul(x, data["W_Q"]), mul(x, data["W_K"])
    d_k = options.shape[2]
    root = isqrt(d_k) if data["scale"] != "none" else 1
    for t in range(options.heads):
        q = [row[t * d_k : (t + 1) * d_k] for row in q_all]
        k = [row[t * d_k : (t + 1) * d_k] for row in k_all]
        for i, q_row in enumerate(q):
            keys = range(i + 1) if data["mask"] == "causal" else range(len(k))
            row = [Fraction(sum(a * b for a, b in zip(q_row, k[j])), root) for j in keys]
            if any(abs(s) > bound for s in row):
                return False
            if not options.allow_ties and len(set(row)) != len(row):
                return False
    return True


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
    from . import derive

    if students is not None:
        count = len(students)
    if not 1 <= count <= 1000:
        raise SymattnError(f"--count: expected 1 … 1000, found {count}")
    rng = random.Random(seed)
    bound = LEVELS[options.level][4]
    seen: set[str] = set()
    out: list[Exercise] = []
    width = max(2, len(str(count)))
    for number in range(1, count + 1):
        label = f"{number:0{width}d}"
        student = students[number - 1] if students else None
        title = f"Attention exercise {label}" if options.lang == "en" else f"注意力练习 {label}"
        if student:
            title += f" — {student}" if options.lang == "en" else f"（{student}）"
        for _ in range(MAX_TRIES):
            data = _draw(rng, options, title)
            signature = _signature(data)
            if signature in seen or not _quick_nice(data, options, bound):
                continue
            key = derive(dict(data))
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
        name = _folder_name(student) if student else label
        out.append(Exercise(name, data, key, student))
        if progress is not None:
            progress(number, count)
    return out


def _titled(exercise: Exercise, lang: str) -> Derivation:
    """The key with "answer key" in its title."""
    suffix = " — answer key" if lang == "en" else "（答案）"
    problem = dataclasses.replace(exercise.key.problem, title=exercise.data["title"] + suffix)
    return dataclasses.replace(exercise.key, problem=problem)


def _folder_name(student: str) -> str:
    cleaned = re.sub(r"[^\w.-]+", "_", student, flags=re.UNICODE).strip("._")
    return cleaned or "student"


def answers_json(key: Derivation) -> dict[str, list[list[str]]]:
    """The correct answers in SPEC §4 form: exact fractions, else 4 decimal places."""
    out: dict[str, list[list[str]]] = {}
    for step_id in answer_steps(key):
        if step_id == "X":
            continue
        step = key.step(step_id)
        rows = []
        for i, row in enumerate(step.exact):
            cells = []
            for j, entry in enumerate(row):
                exact = rational_value(entry)
                if isinstance(entry, NegInf):
                    cells.append("-inf")
                elif exact is not None:
                    cells.append(_fraction(exact))
                else:
                    cells.append(step.decimal_str(i, j, 4) or "")
            rows.append(cells)
        out[step_id] = rows
    return out


def _fraction(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def read_roster(path: str) -> list[str]:
    """Student names from a CSV: the ``name`` column, or else the first column."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle))
    except OSError as exc:
        raise SymattnError(f"--students {path}: cannot read ({exc.strerror})") from None
    if not rows:
        raise SymattnError(f"--students {path}: the roster is empty")
    header = [h.strip().lower() for h in rows[0]]
    column = header.index("name") if "name" in header else 0
    body = rows[1:] if "name" in header else rows
    names = [r[column].strip() for r in body if len(r) > column and r[column].strip()]
    if not names:
        raise SymattnError(f"--students {path}: no names found")
    duplicates = {
        _folder_name(n)
        for n in names
        if [_folder_name(m) for m in names].count(_folder_name(n)) > 1
    }
    if duplicates:
        raise SymattnError(
            f"--students {path}: two students share the folder name {sorted(duplicates)[0]!r}"
        )
    return names


def write_class_set(
    exercises: list[Exercise],
    directory: Path,
    lang: str,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write every exercise folder and the teacher's summary; return the files written."""
    from .cli import write_output
    from .render import render
    from .render.sheet import render_sheet, render_summary

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for number, exercise in enumerate(exercises, start=1):
        folder = directory / exercise.name
        folder.mkdir(exist_ok=True)
        files = {
            "problem.toml": exercise.problem_toml(),
            "sheet.tex": render_sheet(exercise, lang),
            "key.tex": render(_titled(exercise, lang), "tex", lang=lang),
            "answers.json": json.dumps(answers_json(exercise.key), ensure_ascii=False, indent=2)
            + "\n",
        }
        for name, text in files.items():
            write_output(text, str(folder / name))
            written.append(folder / name)
        if progress is not None:
            progress(number, len(exercises))
    summary = directory / "keys.tex"
    write_output(render_summary(exercises, lang), str(summary))
    written.append(summary)
    return written


def load_exercise(folder: Path) -> Problem:
    """The problem of a generated exercise folder (for checks and tests)."""
    return load(folder / "problem.toml")
