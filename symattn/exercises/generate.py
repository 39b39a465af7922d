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
from dataclasses import dataclass
from math import isqrt
from typing import Any

from ..compute import derivation
from ..derivation import Derivation
from ..errors import NotApplicable, SymattnError
from ..load import load
from ..load.topic_reading import LAYOUTS
from ..problem import LAID_OUT
from ..steps import Kind
from ..topics import by_name, drawn, laid_out
from ..topics.base import Topic
from ..words import LANGUAGES, words
from .extras import EXTRAS, check_extras, draw_extras
from .nice import scores_nice
from .rules import derived_flaw, given_flaw

__all__ = ["Exercise", "ExerciseOptions", "exercise_seed", "generate"]

#: Level → (largest |entry| of X and W_V, default tokens, d_model, d_k, largest |scaled
#: score|).  W_Q and W_K hold −1, 0 and 1 at every level, so that the scores stay small.
LEVELS = {1: (1, 2, 2, 1, 3), 2: (2, 3, 3, 2, 5), 3: (3, 4, 4, 4, 8)}
#: How often an entry of a W is 0: sparse weights keep the scores small and the sums short.
ZERO_SHARE = {1: 0.2, 2: 0.3, 3: 0.6}
#: Draws tried for one exercise before giving up with a clear message.
MAX_TRIES = 200_000
#: Draws after which a size where no draw had nice scores is given up as impossible.
HOPELESS = 30_000
#: Most decimal places a sheet may ask for.
MAX_PLACES = 8
#: The topics an exercise can be drawn with (``--with``): those with a draw of their own.
DRAWN = drawn() + EXTRAS


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
    places: int = 4
    from_text: bool = False
    topics: tuple[str, ...] = ()  # more of the attention unit: see DRAWN
    layout: str = "row"  # or "column": tokens are columns (Q = W_Q X), as AI-by-hand writes

    def __post_init__(self) -> None:
        unknown = [t for t in self.topics if t not in DRAWN]
        if unknown:
            raise SymattnError(
                f"expected some of {', '.join(DRAWN)}, found {', '.join(unknown)}", option="with"
            )
        if self.layout not in LAYOUTS:
            raise SymattnError(
                f"expected {' or '.join(LAYOUTS)}, found {self.layout!r}", option="layout"
            )
        for topic in self.drawn:
            heads = topic.heads(self)
            if heads is not None:
                object.__setattr__(self, "heads", heads)
        for topic in self.drawn:
            topic.check_options(self)
        check_extras(self, self.drawn)
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
        if not 1 <= self.places <= MAX_PLACES:
            why = " (at 0 places every weight would round to 0 or 1)" if self.places == 0 else ""
            raise SymattnError(
                f"expected 1 … {MAX_PLACES}, found {self.places}{why}", option="places"
            )
        if self.tokens is not None and self.tokens < 2:  # one token: its one weight is 1
            raise SymattnError(
                f"expected 2 … 8 for a hand exercise, found {self.tokens}", option="tokens"
            )
        for name in ("tokens", "d_model", "d_k", "d_v"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= 8:
                raise SymattnError(
                    f"expected 1 … 8 for a hand exercise, found {value}", option=name
                )
        if self.from_text and self.shape[0] > len(words(self.lang)("exercise.vocabulary").split()):
            raise SymattnError(
                "a sentence from the word list has at most "
                f"{len(words(self.lang)('exercise.vocabulary').split())} words",
                option="tokens",
            )

    @property
    def drawn(self) -> list[Topic]:
        """The topics of this exercise, in the order ``--with`` lists them."""
        return [by_name(name) for name in self.topics if name not in EXTRAS]

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Tokens, d_model, d_k, d_v (per head, d_k ≤ d_model / heads unless d_k is asked
        for, as in a transformer whose heads split the model's width; as the topics need
        them: an even d_k, d_v = d_model, …)."""
        _, n, d_model, d_k, _ = LEVELS[self.level]
        n = self.tokens or n
        d_model = self.d_model or d_model
        d_k = self.d_k or max(1, min(d_k, d_model // self.heads))
        for topic in self.drawn:
            d_k = topic.d_k(self, d_k)
        d_v = self.d_v if self.d_v is not None else min(d_k, 2)
        for topic in self.drawn:
            d_v = topic.d_v(self, d_model, d_v)
        return n, d_model, d_k, d_v

    @property
    def kv_heads(self) -> int:
        """K/V heads: one per query head, unless a topic shares them (grouped queries)."""
        for topic in self.drawn:
            groups = topic.kv_heads(self)
            if groups is not None:
                return groups
        return self.heads

    @property
    def scale_is_whole(self) -> bool:
        d_k = self.shape[2]
        return isqrt(d_k) ** 2 == d_k

    def to_json(self) -> dict[str, Any]:
        n, d_model, d_k, d_v = self.shape
        return {
            "level": self.level,
            "tokens": n,
            "d_model": d_model,
            "d_k": d_k,
            "d_v": d_v,
            "heads": self.heads,
            "mask": self.mask,
            "places": self.places,
            "from_text": self.from_text,
            "allow_ties": self.allow_ties,
            "with": list(self.topics),
            "layout": self.layout,
        }


@dataclass(frozen=True)
class Exercise:
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
        """Small integers with no row or column of zeros (drawn again until so)."""
        values = [v for v in range(-largest, largest + 1) if v or not sparse]
        while True:
            out = [
                [0 if sparse and rng.random() < zero else rng.choice(values) for _ in range(cols)]
                for _ in range(rows)
            ]
            if all(any(row) for row in out) and all(any(col) for col in zip(*out)):
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


def _one(
    seed: int, options: ExerciseOptions, title: str, seen: set[str]
) -> tuple[dict[str, Any], Derivation]:
    rng = random.Random(seed)
    promising = 0
    n, _, d_k, _ = options.shape
    for tries in range(MAX_TRIES):
        if tries == HOPELESS and not promising:
            break  # not one draw has had nice scores: this size cannot have them
        data, sentence = _draw(rng, options, title)
        signature = _signature(data)
        if signature in seen or given_flaw(data) is not None:
            continue
        try:
            problem = load(dict(data))
        except SymattnError:
            continue  # a draw the topic cannot take
        if not scores_nice(
            problem,
            LEVELS[options.level][4],
            causal=options.mask == "causal",
            ties=options.allow_ties,
        ):
            continue
        promising += 1
        if options.layout == "column":
            data = as_columns(data)
        try:
            if sentence is not None and list(problem.tokens or ()) != sentence:
                continue  # the text must cut into the words it was made of
            key = derivation(
                load(dict(data)) if options.layout == "column" else problem,
                backward="target" in data,
            )
        except (SymattnError, NotApplicable):
            continue  # a draw the topic cannot take (a LayerNorm row of variance 0, say)
        if key.crosscheck is None or not key.crosscheck.passed:
            continue
        if derived_flaw(key, options.places) is None:
            seen.add(signature)
            return data, key
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
