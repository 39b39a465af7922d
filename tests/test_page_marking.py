"""The self-check page marks as ``check`` does: a differential test.

Node runs the page's own scripts (the reader, self_check_marking.js) on the page's own
rules (the data self_check.py embeds) over typed sheets (tests/page_sheets.py: the key, a
hand calculation from one's own rounded entries, a slip, a mistake model, two mistakes at
once, an early error carried forward, too few places, exact forms, some steps alone), and
``check`` marks the same sheets: every entry status, step status, carried-forward flag and
diagnosis id must be equal.  Differences that involve carried-forward credit are counted
apart (and must be zero too).  By default a sample; ``-m slow``: every bundled example and
200 generated exercises (both layouts, the topics of ``exercises --with``, places 2–8).
"""

from __future__ import annotations

import json
import random
import select
import shutil
import subprocess
from collections import Counter
from typing import Any

import pytest

import symattn
from symattn.check.run import check
from symattn.derivation import Derivation
from symattn.examples import example_names, example_path
from symattn.exercises.generate import DRAWN, ExerciseOptions, generate
from symattn.exercises.page_rules import marking_data
from symattn.exercises.self_check import _default_steps

from .helpers import ROOT
from .page_sheets import Sheet, Sheets

SCRIPT = ROOT / "tests" / "self_check_marking_node.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


class Page:
    """One Node process holding the page's marking."""

    def __init__(self) -> None:
        assert NODE is not None
        self.process = subprocess.Popen(
            [NODE, str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def ask(self, request: dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], 120)
        assert ready, "node did not answer within 120 s"
        answer = json.loads(self.process.stdout.readline())
        assert not (isinstance(answer, dict) and "error" in answer), answer.get("error")
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(10)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def page() -> Any:
    p = Page()
    yield p
    p.close()


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.differences: list[str] = []
        self.carried: list[str] = []

    def say(self) -> str:
        c = self.counts
        return (
            f"{c['pages']} pages, {c['sheets']} sheets, {c['steps']} steps, {c['entries']} "
            f"entries ({c['carried']} carried, {c['diagnosed']} steps diagnosed); "
            f"differences: {len(self.differences)}, carried-forward differences: "
            f"{len(self.carried)}"
        )


def compare(
    page: Page,
    key: Derivation,
    places: int,
    sheets: list[tuple[str, Sheet]],
    tally: Tally,
    name: str,
) -> None:
    steps = _default_steps(key, False)
    assert page.ask({"rules": marking_data(key), "places": places}) == {"ok": True}
    tally.counts["pages"] += 1
    for kind, sheet in sheets:
        sheet = {s: g for s, g in sheet.items() if any(x is not None for r in g for x in r)}
        if not sheet:
            continue
        tally.counts["sheets"] += 1
        got = page.ask({"sheet": sheet})
        want = {s.id: s for s in check(key, sheet, places=places).steps}
        for step_id in steps:
            p, c = got.get(step_id), want.get(step_id)
            where = f"{name} places={places} {kind} {step_id}"
            if p is None or c is None:
                if (p is None) != (c is None):
                    tally.differences.append(f"{where}: step on one side only")
                continue
            tally.counts["steps"] += 1
            page_entries = [(e["i"] + 1, e["j"] + 1, e["status"]) for e in p["entries"]]
            check_entries = [(e.index[0], e.index[1], e.status) for e in c.entries]
            tally.counts["entries"] += len(check_entries)
            tally.counts["carried"] += sum(e.status == "carried" for e in c.entries)
            page_ids = [d["id"] for d in p["diagnosis"]]
            check_ids = [d.id for d in c.diagnosis]
            tally.counts["diagnosed"] += bool(check_ids)
            said = []
            if sorted(page_entries) != sorted(check_entries):
                said.append(f"entries {sorted(set(page_entries) ^ set(check_entries))}")
            if p["status"] != c.status:
                said.append(f"status {p['status']} != {c.status}")
            if page_ids != check_ids:
                said.append(f"diagnosis {page_ids} != {check_ids}")
            if p["carried_forward"] != c.carried_forward:
                said.append(f"carried_forward {p['carried_forward']} != {c.carried_forward}")
            if said:
                typed = json.dumps(sheet.get(step_id))
                involves = any("carried" in part for part in said)
                line = f"{where}: {'; '.join(said)} {typed}"
                (tally.carried if involves else tally.differences).append(line)


def run_example(page: Page, name: str, tally: Tally, rng: random.Random) -> None:
    key = symattn.derive(example_path(name), backward=name == "backward")
    steps = _default_steps(key, False)
    places = rng.randint(2, 8)
    compare(page, key, places, Sheets(key, steps, places, rng).all(), tally, name)


def options(k: int) -> ExerciseOptions:
    """The k-th generated exercise's options: layouts, topics, places and masks in turn."""
    topics = [()] + [(t,) for t in DRAWN]
    return ExerciseOptions(
        places=2 + k % 7,
        layout=("row", "column")[k % 2],
        topics=topics[k % len(topics)],
        mask=("none", "causal")[(k // 3) % 2] if k % len(topics) == 0 else "none",
        level=1 + (k // 5) % 3,
    )


def run_generated(page: Page, k: int, tally: Tally, rng: random.Random) -> None:
    chosen = options(k)
    key = generate(1000 + k, 1, chosen)[0].key
    steps = _default_steps(key, False)
    name = f"generated#{k} {chosen.layout} {','.join(chosen.topics) or 'core'} {chosen.mask}"
    compare(page, key, chosen.places, Sheets(key, steps, chosen.places, rng).all(), tally, name)


def finish(tally: Tally) -> None:
    print(tally.say())
    for line in (tally.differences + tally.carried)[:15]:
        print("  " + line)
    assert not tally.differences and not tally.carried, tally.say()


def test_a_sample_of_pages_marks_as_check_does(page: Page) -> None:
    tally = Tally()
    rng = random.Random(5)
    for name in ("seed", "causal"):
        run_example(page, name, tally, rng)
    run_generated(page, 1, tally, rng)  # the column layout
    finish(tally)
    assert tally.counts["carried"] and tally.counts["diagnosed"]


@pytest.mark.slow
def test_every_example_and_200_exercises_mark_as_check_does(page: Page) -> None:
    tally = Tally()
    rng = random.Random(21)
    for name in example_names():
        if name != "symbolic":
            run_example(page, name, tally, rng)
    for k in range(200):
        run_generated(page, k, tally, rng)
    finish(tally)


def test_the_differences_are_found() -> None:
    """The comparison is not blind: a page that says ok for a wrong entry is counted."""
    tally = Tally()

    class Liar(Page):
        def ask(self, request: dict[str, Any]) -> Any:
            answer = super().ask(request)
            if "sheet" in request:
                for step in answer.values():
                    for entry in step["entries"]:
                        entry["status"] = "ok"
            return answer

    liar = Liar()
    try:
        key = symattn.derive(example_path("seed"))
        rng = random.Random(1)
        sheets = Sheets(key, _default_steps(key, False), 4, rng)
        compare(
            liar, key, 4, [("slip", sheets.slip()), ("carried", sheets.carried())], tally, "seed"
        )
    finally:
        liar.close()
    assert tally.differences and tally.carried


def test_every_kind_of_step_can_be_marked_on_the_page() -> None:
    """A topic's new kind of step brings its page rule (KindRules.page): without one, its
    pages would fall back to marking against the key alone."""
    from symattn.exercises.page_rules import SUPPORTED
    from symattn.steps import Kind
    from symattn.topics import kind_rules

    core = {k.value for k in vars(Kind).values() if isinstance(k, Kind)}
    assert core <= SUPPORTED
    missing = [k.value for k, rules in kind_rules().items() if rules.page is None]
    assert missing == []
