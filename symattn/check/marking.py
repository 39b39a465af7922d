"""Marking a hand calculation: which entry is wrong, where it starts, and why.

Every answered entry gets a status (:data:`~symattn.check.results.STATUSES`):

* ``ok`` — within one unit of the last place written (exact answers: equal), or within
  ``tolerance``; or right when computed from the student's own earlier answers, where
  those were right but rounded (carried rounding is not punished: the bound is
  :func:`~symattn.check.slack.radii`, from inputs that were really rounded only);
* ``carried`` — wrong against the key, right from the student's own earlier answers,
  some of which were wrong (the error was carried forward; the method is right);
* ``too_coarse`` — right, but written with fewer decimal places than required;
* ``wrong``; or ``invalid`` — the text could not be read.

A step with wrong entries is evaluated under every mistake model of :mod:`.mistakes`
(and pairs of them), and each model that explains the numbers is reported with the
entries it explains, in English and in Chinese.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal

from ..compute.floats import Array
from ..compute.variants import DecimalMatrix
from ..derivation import Derivation
from ..formula import Value
from ..messages import Math, Message, Titles
from ..numbers import rational_value
from ..plan import Plan, backward_plan, forward_plan
from ..record import Record
from ..render import title_fact
from . import diagnose
from .answers import Answers, Given, answer_steps
from .compare import (
    EXACT_TOLERANCE,
    Overrides,
    close,
    evaluation,
    key_values,
    needed,
    overrides_before,
    tolerance_of,
)
from .diagnose import Diagnoser
from .mistakes import OTHER_VIEW, by_id
from .naming import Naming
from .results import Diagnosis, EntryResult, StepResult
from .screen import within
from .slack import radii

__all__ = ["COARSE_PLACES", "Marker", "ancestors"]

#: Intermediate answers with this many places or fewer count as coarsely rounded.
COARSE_PLACES = 1
#: An exact answer this close to the key (relatively) is said to be close.
CLOSE = Decimal("0.05")
ZERO = Decimal(0)


def ancestors(plan: Plan, step_id: str) -> set[str]:
    """Every step ``step_id`` is computed from, directly or not."""
    found: set[str] = set()
    todo = list(plan.upstream(step_id))
    while todo:
        step = todo.pop()
        if step not in found:
            found.add(step)
            todo.extend(plan.upstream(step))
    return found


def _is_close(g: Given, value: Decimal | None, tolerance: Decimal | None) -> bool:
    return value is not None and close(g, value, tolerance)


class _Trial(Record):
    """The step recomputed from some of the student's earlier answers."""

    steps: tuple[str, ...]
    values: DecimalMatrix
    slack: DecimalMatrix
    inputs_right: bool  # every step it is made from was right (only rounded)
    coarse: tuple[str, int] | None  # an input written with too few places, and how many


class Marker:
    """Marks one student's answers against one key."""

    def __init__(self, key: Derivation, answers: Answers, places: int | None = None) -> None:
        self.key, self.answers, self.places = key, answers, places
        self.problem = key.problem
        plan = forward_plan(self.problem)
        self.plan = plan + backward_plan(self.problem) if key.has("dO") else plan
        self.right_steps: set[str] = set()
        self.naming = Naming(self.problem.layout)
        self.why = Diagnoser(key, answers, self.plan, self.naming)

    def run(self) -> list[StepResult]:
        results = []
        for step_id in answer_steps(self.key):
            if step_id in self.answers.unreadable:
                rows, cols = self.naming.index(*self.key.step(step_id).shape)
                results.append(
                    StepResult(
                        step_id,
                        [],
                        diagnosis=self.other_view(step_id),
                        error=Message.of(
                            "step.unreadable",
                            rows=rows,
                            cols=cols,
                            reason=self.answers.unreadable[step_id],
                        ),
                    )
                )
                continue
            if step_id not in self.answers.steps:
                continue
            result = self.step(step_id)
            if result.status in ("correct", "partial"):
                self.right_steps.add(step_id)
            results.append(result)
        return results

    # -- one step -----------------------------------------------------------------------
    def _trial(
        self, step_id: str, subset: list[str], overrides: Overrides, rounding: Overrides
    ) -> _Trial | None:
        """The step recomputed from the student's answers of the steps ``subset`` (only
        the steps it is made from are evaluated)."""
        upto = needed(self.plan, step_id)
        values = evaluation(self.problem, upto, {s: overrides[s] for s in subset})
        if values is None or step_id not in values:
            return None
        slack = radii(self.problem, upto, values, {s: rounding[s] for s in subset}, step_id)
        return _Trial(
            tuple(subset),
            values[step_id],
            slack,
            all(s in self.right_steps for s in subset),
            self._coarse(subset),
        )

    def _coarse(self, steps: list[str]) -> tuple[str, int] | None:
        """The first earlier step that was really rounded with too few places: some entry
        of it written with at most ``COARSE_PLACES`` places differs from the key, and every
        entry that differs is the key rounded to the places written.  A value that is
        exact (2.5 for 5/2) is never rounded, and a step with an entry that no rounding
        explains (2.5 for 5/√2, after dividing by d_k) is wrong, not rounded."""
        for step_id in steps:
            expected = key_values(self.key, step_id)
            coarse: int | None = None
            wrong = False
            for i, row in enumerate(self.answers.steps[step_id]):
                for j, g in enumerate(row):
                    if g is None or not g.valid or not expected[i][j].is_finite():
                        continue
                    off = abs(g.value - expected[i][j])
                    if off <= EXACT_TOLERANCE:
                        continue
                    if g.places is None or off > Decimal(1).scaleb(-g.places):
                        wrong = True  # not the key rounded: a wrong entry, not a rounding
                    elif g.places <= COARSE_PLACES and coarse is None:
                        coarse = g.places
            if coarse is not None and not wrong:
                return step_id, coarse
        return None

    def step(self, step_id: str) -> StepResult:
        grid = self.answers.steps[step_id]
        expected = key_values(self.key, step_id)
        overrides, rounding = overrides_before(
            self.answers, self.key, step_id, ancestors(self.plan, step_id)
        )
        # all earlier answers together, then each alone (a student may have carried more
        # digits than they wrote down for a later step)
        subsets = [list(overrides)] + ([[s] for s in overrides] if len(overrides) > 1 else [])
        made: dict[int, _Trial | None] = {}
        reaches: dict[int, tuple[Array, Array] | None] = {}
        upto = needed(self.plan, step_id)

        def trials(i: int, j: int, g: Given, tolerance: Decimal | None) -> Iterator[_Trial]:
            """The trials, in order, that may explain entry (i, j): each evaluated the first
            time an entry needs it, and not at all for an entry its floats rule out."""
            for k, subset in enumerate(subsets if overrides else []):
                if diagnose.SCREEN:
                    if k not in reaches:
                        given = {s: overrides[s] for s in subset}
                        reaches[k] = self.why.screen.reach(
                            self.problem, upto, step_id, given, rounding
                        )
                    if not within(reaches[k], i, j, g.value, tolerance_of(g, tolerance)):
                        continue
                if k not in made:
                    made[k] = self._trial(step_id, subset, overrides, rounding)
                found = made[k]
                if found is not None:
                    yield found

        entries, used = [], []
        for i, row in enumerate(grid):
            for j, g in enumerate(row):
                if g is not None:
                    entry, trial = self._entry(step_id, i, j, g, expected[i][j], trials)
                    entries.append(entry)
                    if trial is not None:
                        used.append(trial)
        entries.sort(key=lambda e: e.index)  # in the order the student wrote them
        rows, cols = len(grid), len(grid[0])
        result = StepResult(step_id, entries, len(entries), rows * cols)
        self._notes(result, used)
        if any(e.status == "wrong" for e in entries):
            result.diagnosis = self.other_view(step_id) or self.why.diagnose(
                step_id, expected, overrides, rounding
            )
        return result

    def other_view(self, step_id: str) -> list[Diagnosis]:
        """A column-layout step answered in the row layout (each token a row): the whole
        step, read the other way, is the key."""
        grid = self.answers.other_view.get(step_id)
        if grid is None:
            return []
        expected = self.key.step(step_id).values
        given = [(i, j, g) for i, row in enumerate(grid) for j, g in enumerate(row) if g]
        if not given or (len(grid) == len(grid[0]) and grid == tuple(zip(*grid))):
            return []  # nothing written, or a symmetric matrix: either view reads the same
        for i, j, g in given:
            value = expected[i][j]
            if not g.valid or value is None or not close(g, value, self._tolerance(g)):
                return []
        square = len(grid) == len(grid[0])
        misread = [  # the entries that the written view reads wrong (not the diagonal, …)
            (i, j)
            for i, j, g in given
            if not (square and _is_close(g, expected[j][i], self._tolerance(g)))
        ]
        misread.sort(key=lambda ij: self.naming.index(*ij))
        return [self.why.diagnosis(OTHER_VIEW, step_id, misread, {})]

    def _entry(
        self,
        step_id: str,
        i: int,
        j: int,
        g: Given,
        key: Decimal,
        trials: Callable[[int, int, Given, Decimal | None], Iterator[_Trial]],
    ) -> tuple[EntryResult, _Trial | None]:
        step = self.key.step(step_id)
        shown = max(4, g.places or 0)
        decimal = step.decimal_str(i, j, shown) or step.exact_str(i, j)
        exact = step.exact_str(i, j)
        rational = rational_value(step.exact[i][j]) is not None
        expected = exact if g.exact and rational else decimal  # an exact answer: the exact key
        if not g.valid:
            return EntryResult(
                self._index(i, j),
                g.text,
                expected,
                exact,
                "invalid",
                Message.of("entry.invalid", text=g.text, reason=g.error or ""),
            ), None
        status, trial = "wrong", None
        tolerance = self._tolerance(g)
        if close(g, key, tolerance):
            status = "ok"
        else:
            for candidate in trials(i, j, g, tolerance):
                if close(g, candidate.values[i][j], tolerance, candidate.slack[i][j]):
                    trial = candidate
                    right = candidate.inputs_right and candidate.coarse is None
                    status = "ok" if right else "carried"
                    break
        message = None
        if status != "wrong" and self._too_coarse(g, key):
            status = "too_coarse"
            message = Message.of("entry.too_coarse", places=self.places or 0)
        elif (
            status == "wrong"
            and g.exact
            and key.is_finite()
            and abs(g.value - key) <= CLOSE * max(Decimal(1), abs(key))
        ):
            message = Message.of(
                "entry.exact_close",
                text=g.text,
                exact=Math(Value(step.exact[i][j])),
                decimal=decimal,
            )
        return EntryResult(self._index(i, j), g.text, expected, exact, status, message), trial

    def _index(self, i: int, j: int) -> tuple[int, int]:
        """Row-layout entry (i, j) as the student wrote it, 1-based."""
        a, b = self.naming.index(i, j)
        return a + 1, b + 1

    def _tolerance(self, g: Given) -> Decimal | None:
        """How far ``g`` may be from the value (None: one unit of its last written place,
        docs/answers-format.md).  With ``places = N`` a decimal written with N or more places
        is accepted within one unit of the N-th place, as the sheet asks: 2.121300 and
        2.1213 are both right for 2.12132 at 4 places."""
        if self.answers.tolerance is not None:
            return self.answers.tolerance
        if self.places is not None and g.places is not None and g.places >= self.places:
            return Decimal(1).scaleb(-self.places)
        return None

    def _too_coarse(self, g: Given, key: Decimal) -> bool:
        if self.places is None or g.places is None or g.places >= self.places:
            return False
        return not (key.is_finite() and abs(g.value - key) <= EXACT_TOLERANCE)

    def _notes(self, result: StepResult, used: list[_Trial]) -> None:
        carried = [t for t in used if not t.inputs_right or t.coarse is not None]
        if any(e.status == "carried" for e in result.entries) and carried:
            trial = carried[0]
            if trial.coarse is not None:
                facts = {"step": trial.coarse[0], "places": trial.coarse[1]}
                rounding = by_id("premature_rounding")
                cells = [
                    self.naming.index(e.index[0] - 1, e.index[1] - 1)  # (its own inverse)
                    for e in result.entries
                    if e.status == "carried"
                ]
                result.diagnosis.append(self.why.diagnosis(rounding, result.id, cells, facts))
                return
            wrong = [s for s in trial.steps if s not in self.right_steps]
            result.note = Message.of("note.carried", steps=self._titles(wrong))
        elif used and result.status in ("correct", "partial"):
            steps = sorted({s for t in used for s in t.steps}, key=self.key.step_ids.index)
            result.note = Message.of("note.rounded", steps=self._titles(steps))

    def _titles(self, steps: list[str]) -> Titles:
        return Titles(tuple(title_fact(self.key.step(s)) for s in steps))
