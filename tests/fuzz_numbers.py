"""Fuzz classes about numbers (issue 23): exact ties hidden in forms written with sin,
cos, exp and square roots; zero factors (gamma, weights, rows of zeros); and a problem for
every topic key at any ``--digits`` 0…30, each decimal compared with the mpmath oracle
(tests/oracle_mpmath.py).  Each ``*_case(seed, root, tally)`` makes one case from its
seed (tests/fuzz_harness.py).
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from symattn.load.files import read_file

from .fuzz_harness import Tally, judge, run
from .helpers import ROOT
from .oracle_mpmath import mismatches

EXAMPLES = ROOT / "symattn" / "examples"
DOC_EXAMPLES = ROOT / "docs" / "examples"
#: A bundled problem for every topic key (docs/topics.md), its numbers redrawn by the fuzz.
TOPICS: dict[str, Path] = {
    "plain": EXAMPLES / "seed.toml",
    "positions": EXAMPLES / "positions.toml",
    "rope": EXAMPLES / "rope.toml",
    "temperature": EXAMPLES / "temperature.toml",
    "gqa": EXAMPLES / "gqa.toml",
    "mqa": DOC_EXAMPLES / "mqa.toml",
    "heads": EXAMPLES / "multihead.toml",
    "decode": EXAMPLES / "decode.toml",
    "additive": EXAMPLES / "additive.toml",
    "block": EXAMPLES / "block.toml",
    "causal": EXAMPLES / "causal.toml",
    "additive_mask": EXAMPLES / "additive_mask.toml",
    "padding": EXAMPLES / "padding.toml",
    "valid_lens": EXAMPLES / "valid_lens.toml",
    "alibi": DOC_EXAMPLES / "alibi.toml",
    "window": DOC_EXAMPLES / "window.toml",
    "layout": EXAMPLES / "column.toml",
    "cross": EXAMPLES / "cross.toml",
    "memory": EXAMPLES / "cross_width.toml",
    "backward": EXAMPLES / "backward.toml",
}
#: The matrices whose numbers are redrawn (a mask, lengths, slopes and shapes are kept).
REDRAWN = {"X", "Q", "K", "V", "W_Q", "W_K", "W_V", "W_O", "W_1", "W_2", "b_1", "b_2"}
REDRAWN |= {"gamma", "beta", "W_a", "U_a", "v_a", "target", "dO", "memory", "embedding"}


def _number(rng: random.Random) -> Any:
    kind = rng.random()
    if kind < 0.55:
        return rng.randint(-3, 3)
    if kind < 0.8:
        return f"{rng.randint(-9, 9)}/{rng.randint(2, 5)}"
    return str(Decimal(rng.randint(-999, 999)).scaleb(-2))  # a decimal: 0.37


def _redrawn(rng: random.Random, value: Any) -> Any:
    if isinstance(value, list):
        return [_redrawn(rng, v) for v in value]
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        return _number(rng)
    return value


def topic_problem(key: str, rng: random.Random) -> dict[str, Any]:
    """The bundled problem of topic ``key`` with its numbers redrawn from ``rng``."""
    problem: dict[str, Any] = json.loads(json.dumps(read_file(TOPICS[key]), default=str))
    for name in sorted(problem):
        if name in REDRAWN and rng.random() < 0.85:
            problem[name] = _redrawn(rng, problem[name])
    if key == "temperature":
        problem["temperature"] = rng.choice(["1/2", 2, "3/2", "sqrt(2)"])
    if key == "alibi":
        problem["alibi"] = [rng.choice(["1/2", "1/4", 1, "3/8"])]
    if key == "window":
        problem["window"] = rng.randint(1, 3)
    return problem


def _derive_and_compare(
    problem: dict[str, Any], digits: int, root: Path, tally: Tally, label: str
) -> None:
    """Derive ``problem`` as JSON at ``digits`` places; every decimal must be the oracle's
    (a refusal, exit 2 in one line, is fine: a redrawn problem may be out of bounds)."""
    path = root / "p.json"
    path.write_text(json.dumps(problem), encoding="utf-8")
    argv = ["derive", str(path), "--format", "json", "--digits", str(digits)]
    if "target" in problem or "dO" in problem:
        argv.append("--backward")
    done = run(argv)
    if not judge(tally, label, done, (0, 2)):
        return
    if done.status == 2:
        if done.err.count("\n") != 1:
            tally.fail("mismatch", f"{label}: {done.err[:300]}")
        return
    payload = json.loads(done.out)
    tally.decimals += sum(
        len(row) for step in payload["steps"] for row in step.get("decimal") or [] if row
    )
    wrong = mismatches(payload, digits)
    if wrong:
        tally.fail("mismatch", f"{label}: {wrong[:3]} in {json.dumps(problem)[:600]}")


def oracle_case(
    seed: int, root: Path, tally: Tally, key: str | None = None, digits: int | None = None
) -> None:
    """A problem of one topic key (``key``, or one drawn), at ``--digits`` 0…30 (``digits``,
    or drawn)."""
    rng = random.Random(seed)
    key = key or rng.choice(sorted(TOPICS))
    digits = rng.randint(0, 30) if digits is None else digits
    label = f"oracle {seed}: {key} --digits {digits}"
    _derive_and_compare(topic_problem(key, rng), digits, root, tally, label)


# -- exact ties written with sin, cos, exp and square roots ------------------------------------
def _tie(rng: random.Random, places: int) -> Fraction:
    """A value exactly halfway between two decimals of ``places`` places."""
    units = Fraction(2 * rng.randint(0, 400) + 1, 2)
    return units / 10**places * rng.choice([1, -1])


def _text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _small(rng: random.Random) -> Fraction:
    return Fraction(rng.choice([1, -1]) * rng.randint(1, 4), rng.choice([1, 1, 2, 3]))


def tie_problem(rng: random.Random, places: int) -> tuple[dict[str, Any], str, Fraction]:
    """A problem with one entry (step) that is exactly a tie at ``places`` places, though
    its exact form is written with sin and cos (RoPE), square roots, or exponentials."""
    tie = _tie(rng, places)
    kind = rng.choice(["rope", "surds", "scaled", "softmax"])
    if kind == "rope":  # q̂_2·k̂_2 = q_2·k_2: the same rotation on both
        q2, k1 = [_small(rng), _small(rng)], _small(rng)
        k2 = (tie - q2[0] * k1) / q2[1]
        q = [[1, 2], [_text(q2[0]), _text(q2[1])]]
        k = [[2, -1], [_text(k1), _text(k2)]]
        problem = {"Q": q, "K": k, "V": [[1, 0], [0, 1]], "rope": True, "scale": "none"}
        if rng.random() < 0.5:
            problem["rope_base"] = rng.choice([100, 10000, 2])
        return problem, "scores", tie
    if kind == "surds":  # (a√2)(c√2) + (b√3)(e√3) = 2ac + 3be
        a, b, c = _small(rng), _small(rng), _small(rng)
        e = (tie - 2 * a * c) / (3 * b)
        q = [[f"({_text(a)})*sqrt(2)", f"({_text(b)})*sqrt(3)"]]
        k = [[f"({_text(c)})*sqrt(2)", f"({_text(e)})*sqrt(3)"]]
        return {"Q": q, "K": k, "V": [[1]], "scale": "none"}, "scores", tie
    if kind == "scaled":  # s = t·√2 over √d_k = √2
        c = _small(rng)
        q = [[f"({_text(tie / c)})*sqrt(2)", 0]]
        return {"Q": q, "K": [[_text(c), 1]], "V": [[1]]}, "scaled_scores", tie
    # two keys with the same score: the weights are 1/2, the output the mean of V
    v1 = _small(rng)
    v2 = 2 * tie - v1
    q = [[_text(_small(rng)), "sqrt(2)"]]
    k = [[1, 0], [1, 0]]
    return {"Q": q, "K": k, "V": [[_text(v1)], [_text(v2)]]}, "output", tie


def tie_case(seed: int, root: Path, tally: Tally) -> None:
    """Half away from zero, or refused in one line; never the other way."""
    rng = random.Random(seed)
    places = rng.choice([0, 1, 2, 2, 3, 4, 6])
    problem, step_id, tie = tie_problem(rng, places)
    label = f"tie {seed}: {step_id} = {tie} at --digits {places}"
    _derive_and_compare(problem, places, root, tally, label)


# -- zero factors --------------------------------------------------------------------------
def _zeros(rng: random.Random, rows: int, cols: int, share: float) -> list[list[Any]]:
    return [[0 if rng.random() < share else _number(rng) for _ in range(cols)] for _ in range(rows)]


def zero_problem(rng: random.Random) -> dict[str, Any]:
    """A block or plain problem with zeros where they multiply: gamma, W_Q, W_V, rows
    of X, W_1, W_2."""
    n, d = rng.randint(2, 3), rng.randint(2, 3)
    share = rng.choice([0.3, 0.5, 0.8])
    problem: dict[str, Any] = {"X": _zeros(rng, n, d, share)}
    for name in ("W_Q", "W_K", "W_V"):
        problem[name] = _zeros(rng, d, d, share)
    if rng.random() < 0.3:
        problem["X"][0] = [0] * d  # a row of zeros: its LayerNorm is β
    if rng.random() < 0.7:
        hidden = rng.randint(1, 3)
        gamma = [0 if rng.random() < 0.5 else _number(rng) for _ in range(d)]
        gamma[rng.randrange(d)] = 0
        problem |= {"block": True, "norm": rng.choice(["pre", "post"]), "gamma": gamma}
        problem |= {"beta": [rng.choice([0, 0, 1, "1/2"]) for _ in range(d)]}
        problem |= {"eps": rng.choice([0, "1/1000", "1/10"])}
        problem |= {"W_1": _zeros(rng, d, hidden, share), "b_1": [0] * hidden}
        problem |= {"W_2": _zeros(rng, hidden, d, share), "b_2": [0] * d}
    if rng.random() < 0.3:
        problem["mask"] = "causal"
    return problem


def zero_case(seed: int, root: Path, tally: Tally) -> None:
    """Zero factors: no blow-up of the exact forms, bounded time, every digit right."""
    rng = random.Random(seed)
    digits = rng.choice([0, 2, 4, 10])
    label = f"zeros {seed}: --digits {digits}"
    _derive_and_compare(zero_problem(rng), digits, root, tally, label)
