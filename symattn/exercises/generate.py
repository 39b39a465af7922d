"""Seeded attention exercises with nice numbers.

Each exercise has its own seed, made from the class seed and the exercise's folder, so
the same seed always gives the same problems, byte for byte, and a student's problem
does not change when another student joins the roster.  The numbers are chosen to be
pleasant by hand and the exercise worth doing:

* X (or the embedding table) and W_V hold small integers (−1 … 1 at level 1, −2 … 2
  at level 2, −3 … 3 at level 3), W_Q and W_K hold −1, 0 and 1;
* d_k ≤ d_model unless asked otherwise, and the scores are always divided by √d_k —
  √2 stays √2 (the answers are closed forms or decimals to ``places``);
* the scaled scores stay small enough for e^x to be worked out by hand, and within a
  row no two keys get the same score (unless ties are allowed);
* nothing is degenerate (:mod:`.rules`): no zero row or column, no two equal columns of
  V or of the output, no row of equal weights, no weight that rounds to 1;
* with ``from_text`` the exercise starts from a sentence, a vocabulary and an embedding
  table, like the seed, so the lookup is part of the work.

Every exercise is derived exactly and cross-checked before it is kept.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..compute import derivation
from ..derivation import Derivation
from ..errors import NotApplicable, SymattnError
from ..load import load
from ..problem import LAID_OUT, Problem
from ..record import Record
from ..steps import Kind
from ..topics import laid_out
from ..topics.draw import scores_kind
from ..words import words
from .build import build, key_values, one_wide, reach
from .construct import Scorer, repair
from .extras import builds_scores, draw_extras
from .nice import scores_nice
from .options import DRAWN, LEVELS, MAX_PLACES, ZERO_SHARE, ExerciseOptions
from .rules import derived_flaw, given_flaw

__all__ = [
    "DRAWN",
    "LEVELS",
    "MAX_PLACES",
    "ZERO_SHARE",
    "Exercise",
    "ExerciseOptions",
    "exercise_seed",
    "generate",
]

#: Draws of one matrix before its lines of zeros are filled in instead.
REDRAWS = 200
#: Draws taken as they come before the scores of one are built (:func:`_built`).
BLIND = 300
#: Draws whose scores are built before giving up with a clear message.
RESTARTS = 12
#: Rounds of BLIND draws taken as they come where the scores cannot be built (a memory).
BLIND_RESTARTS = 40
#: W_V (and what comes after attention) drawn afresh for one built draw's scores.
VALUES = 20
#: What is drawn after the scores: what :func:`_built` draws afresh (and the topics' own,
#: ``Topic.after_scores``).
AFTER_SCORES = ("W_V",)


class Exercise(Record):
    """One generated exercise: its problem data, the derived key and who it is for."""

    name: str  # folder name: 01, 02, … or the student's folder
    data: dict[str, Any]
    key: Derivation
    student: str | None = None  # the student's name as the roster has it
    seed: int = 0  # the exercise's own seed

    @property
    def places(self) -> int:
        return int(self.data.get("places", 4))

    @property
    def steps(self) -> tuple[str, ...]:
        """The steps the sheet asks for: every step that is not given (the token ids and
        the lookup of X too when the exercise starts from text)."""
        lookup = "text" in self.data
        return tuple(
            s
            for s in self.key.step_ids
            if self.key.step(s).kind is not Kind.GIVEN and (lookup or s != "tokens")
        )


def exercise_seed(seed: int, name: str) -> int:
    """The seed of the exercise in folder ``name`` of a class drawn with ``seed``."""
    digest = hashlib.sha256(f"symattn-exercise/{seed}/{name}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def _vocabulary(rng: random.Random, options: ExerciseOptions) -> tuple[list[str], list[str]]:
    """A vocabulary (with ``<unk>`` at id 0) and a sentence of distinct words from it."""
    pool = words(options.lang)("exercise.vocabulary").split()
    n = options.shape[0]
    size = min(len(pool), n + 2)
    chosen = rng.sample(pool, size)
    sentence = rng.sample(chosen, n)
    return ["<unk>", *chosen], sentence


def _draw(
    rng: random.Random, options: ExerciseOptions, title: str
) -> tuple[dict[str, Any], list[str] | None]:
    """A problem, and the sentence's words when it starts from text."""
    top = LEVELS[options.level][0]
    n, d_model, d_k, d_v = options.shape
    zero = ZERO_SHARE[options.level]

    def matrix(rows: int, cols: int, largest: int, sparse: bool = False) -> list[list[int]]:
        """Small integers with no row or column of zeros (drawn again until so; after
        REDRAWS, a line of zeros gets a nonzero entry: a row of 12 sparse entries is
        seldom all nonzero)."""
        values = [v for v in range(-largest, largest + 1) if v or not sparse]
        for _ in range(REDRAWS):
            out = [
                [0 if sparse and rng.random() < zero else rng.choice(values) for _ in range(cols)]
                for _ in range(rows)
            ]
            if all(any(row) for row in out) and all(any(col) for col in zip(*out)):
                return out
        nonzero = [v for v in values if v]
        for row in out:
            if not any(row):
                row[rng.randrange(cols)] = rng.choice(nonzero)
        for j in range(cols):
            if not any(row[j] for row in out):
                out[rng.randrange(rows)][j] = rng.choice(nonzero)
        return out

    data: dict[str, Any] = {"title": title}
    sentence = None
    if options.from_text:
        vocab, sentence = _vocabulary(rng, options)
        joiner = "" if options.lang == "zh" else " "
        data |= {"text": joiner.join(sentence), "vocab": vocab}
        data["embedding"] = matrix(len(vocab), d_model, top)
    else:
        tokens = words(options.lang)("exercise.tokens").split()
        data["tokens"] = tokens[:n] if n <= len(tokens) else [f"t{i + 1}" for i in range(n)]
        data["X"] = matrix(n, d_model, top)
    data |= {
        "W_Q": matrix(d_model, options.heads * d_k, 1, sparse=True),
        "W_K": matrix(d_model, options.kv_heads * d_k, 1, sparse=True),
        "W_V": matrix(d_model, options.kv_heads * d_v, top, sparse=True),
        "heads": options.heads,
        "scale": "sqrt(d_k)",
        "mask": options.mask,
        "places": options.places,
    }
    for topic in options.drawn:
        topic.draw(rng, options, data, matrix)
    draw_extras(rng, options, data, matrix)
    return data, sentence


def as_columns(data: dict[str, Any]) -> dict[str, Any]:
    """The problem written in the column layout: X, the W's, Q, K, V, dO, the mask and
    every matrix of a topic (P, W_a, W_1, …) transposed; vectors and the embedding table
    as they are."""
    out = dict(data, layout="column")
    for name in (*LAID_OUT, *laid_out()):
        value = data.get(name)
        if isinstance(value, list) and value and isinstance(value[0], list):
            out[name] = [list(col) for col in zip(*value)]
    return out


def _signature(data: dict[str, Any]) -> str:
    given = "embedding" if "embedding" in data else "X"
    return json.dumps([data[k] for k in (given, "W_Q", "W_K", "W_V")])


def _kept(
    data: dict[str, Any],
    problem: Problem,
    sentence: list[str] | None,
    options: ExerciseOptions,
    seen: set[str],
) -> tuple[dict[str, Any], Derivation] | None:
    """The draw and its key, when the exact key is not degenerate (None: draw again)."""
    signature = _signature(data)
    if signature in seen or given_flaw(data) is not None:
        return None
    if options.layout == "column":
        data = as_columns(data)
    try:
        if sentence is not None and list(problem.tokens or ()) != sentence:
            return None  # the text must cut into the words it was made of
        key = derivation(
            load(dict(data)) if options.layout == "column" else problem,
            backward="target" in data,  # a target asks for the gradients too
        )
    except (SymattnError, NotApplicable):
        return None  # a draw the topic cannot take (a LayerNorm row of variance 0, say)
    if key.crosscheck is None or not key.crosscheck.passed:
        return None
    if derived_flaw(key, options.places, floor=options.level >= 2) is not None:
        return None
    seen.add(signature)
    return data, key


def _blind(
    rng: random.Random, options: ExerciseOptions, title: str, seen: set[str]
) -> tuple[dict[str, Any], Derivation] | None:
    """Up to BLIND draws as they come: at small sizes one is soon nice, and it is the
    exercise earlier versions drew for the seed whenever its weights keep their bounds."""
    for _ in range(BLIND):
        data, sentence = _draw(rng, options, title)
        if _signature(data) in seen or given_flaw(data) is not None:
            continue
        try:
            problem = load(dict(data))
        except SymattnError:
            continue  # a draw the topic cannot take
        if scores_nice(
            problem,
            LEVELS[options.level][4],
            causal=options.mask == "causal",
            ties=options.allow_ties,
            floor=options.level >= 2,
        ):
            found = _kept(data, problem, sentence, options, seen)
            if found is not None:
                return found
    return None


def _built(
    rng: random.Random, options: ExerciseOptions, title: str, seen: set[str]
) -> tuple[dict[str, Any], Derivation] | None:
    """A draw whose scores are built (:mod:`.build`) and repaired where a topic moves them
    (:mod:`.construct`), with W_V and what comes after attention drawn afresh until the
    key is not degenerate."""
    data, sentence = _draw(rng, options, title)
    try:
        problem = load(dict(data))
    except SymattnError:
        return None
    if sentence is not None and list(problem.tokens or ()) != sentence:
        return None
    rows = list(problem.lookup.ids) if problem.lookup is not None else None
    top, bound = LEVELS[options.level][0], LEVELS[options.level][4]
    floor = options.level >= 2
    n, d_model, d_k, _ = options.shape
    patterns = _patterns(options, problem)
    if patterns:
        values, both = rng.choice(patterns)
        values = list(values)
        if all(all(row) for row in Scorer(problem).keep[0].tolist()):  # no mask: any order
            rng.shuffle(values)
        groups = [t * options.kv_heads // options.heads for t in range(options.heads)]
        if not build(rng, data, (n, d_model, d_k), options.heads, groups, top, values, both, rows):
            return None
        problem = load(dict(data))
    elif scores_kind(options.drawn) == "grid" and d_k >= 2:
        return None  # scores on a grid that cannot be built here (τ = 1/2, say): draw again
    if not repair(rng, problem, data, rows, top, bound, ties=options.allow_ties, floor=floor):
        return None
    afresh = AFTER_SCORES + tuple(k for topic in options.drawn for k in topic.after_scores)
    for _ in range(VALUES):
        fresh, _ = _draw(rng, options, title)
        data |= {k: fresh[k] for k in afresh if k in fresh}
        try:
            problem = load(dict(data))
        except SymattnError:
            continue
        found = _kept(dict(data), problem, sentence, options, seen)
        if found is not None:
            return found
    return None


def _patterns(options: ExerciseOptions, problem: Problem) -> list[tuple[list[int], bool]]:
    """The keys' values a built draw may use (none when a topic scores on its own)."""
    n, d_model, d_k, _ = options.shape
    if scores_kind(options.drawn) == "own" or d_k < 2:
        return []
    scorer = Scorer(problem)
    step = one_wide(d_model, d_k) / scorer.divisor
    found = key_values(
        n, step, LEVELS[options.level][4], floor=options.level >= 2, keep=scorer.keep[0].tolist()
    )
    largest = reach(d_model, LEVELS[options.level][0])
    shared = options.kv_heads < options.heads  # heads of a group differ by their sign only
    return [
        (values, both)
        for values, both in found
        if max(map(abs, values)) <= largest and (both or not shared)
    ]


def _one(
    seed: int, options: ExerciseOptions, title: str, seen: set[str]
) -> tuple[dict[str, Any], Derivation]:
    rng = random.Random(seed)
    found = _blind(rng, options, title, seen)
    built = builds_scores(options)  # a memory's keys are not built: more draws as they come
    again = _built if built else _blind
    for _ in range(RESTARTS if built else BLIND_RESTARTS):
        if found is not None:
            return found
        found = again(rng, options, title, seen)
    if found is not None:
        return found
    n, d_model, d_k, _ = options.shape
    raise SymattnError(
        f"no exercise with nice numbers found for {n} tokens, d_model = {d_model}, "
        f"d_k = {d_k}, {options.heads} head(s) at level {options.level}: every row of scores "
        "must be small and differ from key to key; try fewer tokens, a wider d_k, another "
        "level, or allow ties"
    )


def generate(
    seed: int,
    count: int,
    options: ExerciseOptions,
    students: Sequence[tuple[str, str]] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Exercise]:
    """``count`` distinct exercises, or one per student when ``students`` — pairs of
    (folder, name) — are given."""
    if students is not None:
        count = len(students)
    if not 1 <= count <= 1000:
        raise SymattnError(f"expected 1 … 1000, found {count}", option="count")
    language = words(options.lang)
    seen: set[str] = set()
    out: list[Exercise] = []
    width = max(2, len(str(count)))
    for number in range(1, count + 1):
        label = f"{number:0{width}d}"
        title = language("exercise.title", label=label)
        folder, student = label, None
        if students is not None:
            folder, student = students[number - 1]
            title = language("exercise.for", title=title, student=student)
        own = exercise_seed(seed, folder)
        data, key = _one(own, options, title, seen)
        out.append(Exercise(folder, data, key, student, own))
        if progress is not None:
            progress(number, count)
    return out
