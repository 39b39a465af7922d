"""Two mistakes at once, as tables: the numbers a student gives who made a scale mistake
together with another (a softmax, transpose or mask mistake) — what ``check`` names when no
single mistake explains a step — for a quiz that names mistakes without running ``check``.

>>> from symattn.compute import derivation
>>> from symattn.examples import example_path
>>> from symattn.load import load
>>> key = derivation(load(example_path("seed")))
>>> ("no_scaling", "no_softmax") in [t.ids for t in pair_tables(key, 4)]
True
"""

from __future__ import annotations

from ..compute.variants import DecimalMatrix
from ..derivation import Derivation
from .answers import answer_steps
from .compare import evaluation
from .mistakes import MISTAKES, OTHER_VIEW, Mistake, pairs
from .tables import MistakeTable, _differing, _shape, key_plan, rounded

__all__ = ["PairTable", "pair_tables"]


class PairTable(MistakeTable):
    """``second`` made on top of ``mistake`` (a scale mistake); ``facts`` are the pair's."""

    second: Mistake

    @property
    def ids(self) -> tuple[str, ...]:
        return (self.mistake.id, self.second.id)


def pair_tables(key: Derivation, places: int | None = None) -> list[PairTable]:
    """Every pair ``check`` tries (a scale mistake, then one of another family, both showing
    in the step) whose numbers differ from the key, each pair of numbers once."""
    plan = key_plan(key)
    steps = answer_steps(key)
    out: list[PairTable] = []
    seen: set[str] = set()
    bases = {s: s.split(".", 1)[-1] for s in steps}
    shows = {(m.id, b): m.shows(b, plan) for m in MISTAKES for b in set(bases.values())}
    firsts = [m for m in MISTAKES if m.family == "scale"]
    seconds = [m for m in MISTAKES if m.family != "scale" and m is not OTHER_VIEW]
    for first in firsts:
        for second in seconds:
            for problem, changed, facts in pairs(first, second, key.problem, plan):
                values = evaluation(problem, changed, {})
                if values is None:
                    continue
                kept: dict[str, DecimalMatrix] = {}
                differs: dict[str, tuple[tuple[int, int], ...]] = {}
                for step_id in steps:
                    if not (shows[first.id, bases[step_id]] and shows[second.id, bases[step_id]]):
                        continue
                    if step_id not in values or _shape(values[step_id]) != key.step(step_id).shape:
                        continue
                    cells = _differing(key, step_id, values[step_id], places)
                    if cells:
                        kept[step_id], differs[step_id] = values[step_id], cells
                if not kept:
                    continue
                fingerprint = repr(
                    {s: [[rounded(v, places) for v in r] for r in m] for s, m in kept.items()}
                )
                if fingerprint in seen:
                    continue
                seen.add(fingerprint)
                facts_items = tuple(sorted(facts.items()))
                out.append(PairTable(first, key.problem, facts_items, kept, differs, second))
    return out
