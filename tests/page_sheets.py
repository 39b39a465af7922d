"""Typed sheets for the differential test of the self-check page (tests/test_page_marking.py).

A sheet is what a student types into a page: step id → grid as the page shows it (the
column layout: transposed), each cell a string or None.  Each maker writes one kind of
work a student hands in: the key rounded, a hand calculation from one's own rounded
entries, a slip, a mistake model, two mistakes at once, an early error carried forward,
too few places, exact forms, and a few steps alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from symattn.check.compare import evaluation
from symattn.check.mistakes import MISTAKES, pairs
from symattn.check.tables import key_plan, mistake_tables, rounded
from symattn.derivation import Derivation
from symattn.render.view import view_of

Grid = list[list[Any]]
Sheet = dict[str, Grid]
Rows = list[list[Decimal]]


class Sheets:
    """The sheets of one page: ``key``, its ``steps`` (as the page asks them), ``places``."""

    def __init__(self, key: Derivation, steps: list[str], places: int, rng: random.Random):
        self.key, self.steps, self.places, self.rng = key, steps, places, rng
        self.plan = key_plan(key)
        self.view = view_of(key.problem.layout)

    # -- writing ----------------------------------------------------------------------------
    def written(self, values: dict[str, Rows], places: int | None = None) -> Sheet:
        p = self.places if places is None else places
        return {
            s: [[rounded(v, p) for v in row] for row in self.view.matrix(values[s])]
            for s in self.steps
            if s in values
        }

    def values(self, s: str) -> Rows:
        return [
            [v if v is not None else Decimal(0) for v in row] for row in self.key.step(s).values
        ]

    def key_values(self) -> dict[str, Rows]:
        return {s: self.values(s) for s in self.steps}

    def from_own(self, start: dict[str, Rows], problem: Any = None, plan: Any = None) -> Sheet:
        """Each step worked from the student's own earlier entries as written (rounded)."""
        own: dict[str, Rows] = {}
        out: Sheet = {}
        for s in self.steps:
            if s in start:
                values = start[s]
            else:
                found = evaluation(problem or self.key.problem, plan or self.plan, own)
                if found is None or s not in found:
                    return out
                values = found[s]
            grid = [[rounded(v, self.places) for v in row] for row in values]
            out[s] = [list(r) for r in self.view.matrix(grid)]
            own[s] = [
                [
                    Decimal(x)
                    if x not in ("-inf", "inf")
                    else Decimal(x.replace("inf", "Infinity"))
                    for x in row
                ]
                for row in grid
            ]
        return out

    # -- the kinds of sheet -------------------------------------------------------------------
    def correct(self) -> Sheet:
        return self.written(self.key_values())

    def hand_rounded(self) -> Sheet:
        return self.from_own({})

    def _nudge(self, sheet: Sheet, s: str) -> tuple[int, int]:
        grid = sheet[s]
        cells = [(i, j) for i, row in enumerate(grid) for j, x in enumerate(row) if "inf" not in x]
        i, j = self.rng.choice(cells)
        grid[i][j] = rounded(Decimal(grid[i][j]) + self.rng.choice([1, -1, 2, 3]), self.places)
        return i, j

    def slip(self) -> Sheet:
        sheet = self.correct()
        self._nudge(sheet, self.rng.choice(self.steps))
        return sheet

    def mistake(self) -> Sheet:
        tables = mistake_tables(self.key, self.places)
        if not tables:
            return self.correct()
        table = self.rng.choice(tables)
        values = self.key_values() | {s: v for s, v in table.values.items() if s in self.steps}
        return self.written(values)

    def two_mistakes(self) -> Sheet:
        scale = [m for m in MISTAKES if m.family == "scale"]
        other = [m for m in MISTAKES if m.family != "scale"]
        found = [
            run
            for first in scale
            for second in other
            for run in pairs(first, second, self.key.problem, self.plan)
        ]
        self.rng.shuffle(found)
        for problem, plan, _ in found[:6]:
            values = evaluation(problem, plan, {})
            if values is not None and all(s in values for s in self.steps):
                shapes = all(
                    (len(values[s]), len(values[s][0])) == self.key.step(s).shape
                    for s in self.steps
                )
                if shapes:
                    return self.written({s: values[s] for s in self.steps})
        return self.mistake()

    def carried(self) -> Sheet:
        """An early step wrong (a slip), every later step worked from it."""
        first = self.rng.choice(self.steps[: max(1, len(self.steps) // 2)])
        start = self.written(self.key_values())
        self._nudge(start, first)
        grid = self.view.matrix(start[first])  # back to the row layout
        wrong = [[Decimal(x.replace("inf", "Infinity")) for x in row] for row in grid]
        before = {s: self.values(s) for s in self.steps[: self.steps.index(first)]}
        return self.from_own(before | {first: wrong})

    def too_coarse(self) -> Sheet:
        sheet = self.correct()
        coarse = self.written(self.key_values(), self.rng.choice([0, 1, self.places - 1]))
        for s, grid in sheet.items():
            for i, row in enumerate(grid):
                for j in range(len(row)):
                    if self.rng.random() < 0.3:
                        grid[i][j] = coarse[s][i][j]
        return sheet

    def exact(self) -> Sheet:
        out: Sheet = {}
        for s in self.steps:
            step = self.key.step(s)
            rows = [
                [step.exact_str(i, j) for j in range(step.shape[1])] for i in range(step.shape[0])
            ]
            out[s] = [list(r) for r in self.view.matrix(rows)]
        return out

    def some_steps(self) -> Sheet:
        """A sheet of another kind with only some of its steps typed."""
        sheet = self.rng.choice([self.mistake, self.two_mistakes, self.carried])()
        kept = self.rng.sample(list(sheet), k=max(1, len(sheet) // 2)) if sheet else []
        return {s: sheet[s] for s in kept}

    def all(self) -> list[tuple[str, Sheet]]:
        makers: list[Callable[[], Sheet]] = [
            self.correct,
            self.hand_rounded,
            self.slip,
            self.mistake,
            self.two_mistakes,
            self.carried,
            self.too_coarse,
            self.exact,
            self.some_steps,
        ]
        return [(m.__name__, m()) for m in makers]
