"""A topic is a unit of code: each of these topics is named (as a word, any case) in at
most 6 source files of symattn/, and outside symattn/topics/ only by the words a reader
sees (symattn/words/) and the list of bundled examples.  Nor does the core name a step
or a given matrix that only a topic makes (``out["P"]``, ``"biased_scores"``): those are
collected from the plans of every problem file shipped, at test time."""

from __future__ import annotations

import re
from functools import cache

import pytest

from symattn.errors import SymattnError
from symattn.load import load
from symattn.plan import backward_plan, forward_plan
from symattn.topics import everything

from .helpers import ROOT

SOURCES = sorted(
    p for p in (ROOT / "symattn").rglob("*") if p.suffix in (".py", ".js") and p.is_file()
)
ALLOWED_OUTSIDE = ("symattn/words/", "symattn/examples/__init__.py")
#: Names a topic makes that the core has for its own reasons, each with the reason.
ALLOWED_NAMES = {
    "mask": "the core's keep-mask key (mask = 'causal', 0/1 rows), which a mask of numbers shares",
    "theta": "a Greek letter's name in the grammar of values and in LaTeX text",
    "gamma": "a Greek letter's name in the grammar of values and in LaTeX text",
    "beta": "a Greek letter's name in the grammar of values and in LaTeX text",
}
PROBLEMS = sorted((ROOT / "symattn" / "examples").glob("*.toml")) + sorted(
    (ROOT / "docs" / "examples").glob("*.toml")
)


@pytest.mark.parametrize("name", ["rope", "alibi", "window", "additive", "decode", "gqa"])
def test_a_topic_is_named_in_few_files(name: str) -> None:
    word = re.compile(rf"\b{name}\b", re.I)
    files = [
        str(p.relative_to(ROOT)) for p in SOURCES if word.search(p.read_text(encoding="utf-8"))
    ]
    assert len(files) <= 6, files
    outside = [f for f in files if not f.startswith("symattn/topics/")]
    assert all(f.startswith(ALLOWED_OUTSIDE) for f in outside), outside


def _names(plan_of: object) -> set[str]:
    """The steps (without a head's prefix) and the given matrices of a problem's plans."""
    names: set[str] = set()
    for plan in plan_of:  # type: ignore[attr-defined]
        names |= {re.sub(r"^h\d+\.", "", s.id) for s in plan.specs}
        names |= {re.sub(r"^h\d+\.", "", name) for name, _ in plan.inputs}
    return names


@cache
def topic_names() -> frozenset[str]:
    """What only a topic makes: the steps and givens of the problems with topics that no
    problem without one has, and the topics' own matrices (laid out, fixed, shown)."""
    core: set[str] = set()
    topical: set[str] = set()
    for path in PROBLEMS:
        try:
            problem = load(path)
        except SymattnError:
            continue  # the docs' examples of errors
        plans = [forward_plan(problem)]
        if problem.dO is not None or problem.target is not None:
            plans.append(backward_plan(problem))
        (topical if problem.topics else core).update(_names(plans))
    for topic in everything():
        topical |= {*topic.laid_out, *topic.fixed, *topic.shown}
    return frozenset(topical - core - set(ALLOWED_NAMES))


def test_the_topics_make_steps_and_givens_of_their_own() -> None:
    """The collection sees the topics' steps (else the next test would pass vacuously)."""
    assert {"P", "X_pos", "Q_rot", "biased_scores", "alibi_bias", "residual"} <= topic_names()
    assert not {"scores", "scaled_scores", "masked_scores", "weights", "X"} & topic_names()


def test_the_core_names_no_step_or_given_of_a_topic() -> None:
    """Outside symattn/topics/ and symattn/words/, no string literal (or f-string's end,
    ``f"{p}alibi_bias"``) is a step or a given matrix that only a topic makes."""
    names = "|".join(sorted(map(re.escape, topic_names()), key=len, reverse=True))
    literal = re.compile(rf"[\"'}}]({names})[\"']")
    found = []
    for path in SOURCES:
        rel = str(path.relative_to(ROOT))
        if rel.startswith(("symattn/topics/", *ALLOWED_OUTSIDE)):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{rel}:{number}: {m.group(1)}" for m in literal.finditer(line)]
    assert not found, found
