"""Why a step is wrong: the mistake models that explain a student's numbers.

Every mistake model of :mod:`.mistakes` that shows in the step is evaluated on the
student's own earlier answers (and on the key's), with carried rounding allowed; a model
explains the step when it fits every answered entry and the right method does not.
Models of the ``scale`` family are also tried together with the others (two mistakes at
once); a minority of wrong entries is an arithmetic slip.  Every diagnosis names the
entries it explains, in English and in Chinese.  Each model (and pair) is first run on
float64 arrays (:mod:`.screen`); only those whose floats can explain the numbers are
evaluated in decimals, and the diagnoses are those of evaluating every one.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from ..compute.variants import DecimalMatrix
from ..derivation import Derivation
from ..formula import Sym
from ..messages import Fact, Joined, Math, Message
from ..numbers import round_half_away
from ..plan import Plan
from ..problem import Problem
from ..render import title_fact
from .answers import Answers
from .compare import Overrides, close, evaluation, key_values, needed
from .mistakes import MISTAKES, Mistake, Run, message, pairs, runs
from .naming import Naming
from .results import Diagnosis
from .screen import Screen
from .slack import radii

__all__ = ["Diagnoser"]

ZERO = Decimal(0)
#: Evaluate a mistake only up to the step it is checked on, the steps it leaves unchanged
#: taken from the key (False: every step evaluated, as the property test compares).
REUSE = True
#: Set aside, on float64 values, the mistake models that cannot explain the numbers before
#: evaluating the rest in decimals (False: every model evaluated, as the property test
#: compares; the diagnoses are the same).
SCREEN = True


class Diagnoser:
    """Finds the mistakes behind one student's wrong steps; ``naming`` names the entries
    as the student's paper does."""

    def __init__(self, key: Derivation, answers: Answers, plan: Plan, naming: Naming) -> None:
        self.key, self.answers, self.plan = key, answers, plan
        self.problem = key.problem
        self.naming = naming
        self.screen = Screen(key, answers)
        self._uptos: dict[tuple[object, ...], tuple[Problem, Plan, Plan, tuple[str, ...]]] = {}

    # -- why ----------------------------------------------------------------------------
    def diagnosis(
        self, mistake: Mistake, step_id: str, cells: list[tuple[int, int]], facts: dict[str, object]
    ) -> Diagnosis:
        said = dict(facts)
        if "step" in facts:  # premature rounding names the step rounded too early
            said["step"] = title_fact(self.key.step(str(facts["step"])))
        entries = self.naming.entries_fact(step_id, cells)
        said_message = message(mistake, entries, self.problem, said, self.naming.variant)
        return Diagnosis(mistake.id, said_message, self.naming.cells(cells))

    def _fits(self, step_id: str, values: DecimalMatrix, slack: DecimalMatrix | None) -> bool:
        tolerance = self.answers.tolerance
        return all(
            g is None
            or not g.valid
            or close(g, values[i][j], tolerance, slack[i][j] if slack else ZERO)
            for i, row in enumerate(self.answers.steps[step_id])
            for j, g in enumerate(row)
        )

    def _upto(
        self, problem: Problem, plan: Plan, step_id: str, extra: Overrides
    ) -> tuple[Plan, tuple[str, ...]]:
        """The plan of the steps ``step_id`` is made from, and those of its steps that the
        mistake leaves as they are (the same spec, made from unchanged steps, nothing of
        the student's ``extra`` among them): their values are the key's, not evaluated
        again."""
        memo = (REUSE, id(problem), id(plan), step_id, tuple(sorted(extra)))
        found = self._uptos.get(memo)
        if found is None or found[0] is not problem or found[1] is not plan:
            found = (problem, plan, *self._upto_of(problem, plan, step_id, extra))
            self._uptos[memo] = found
        return found[2], found[3]

    def _upto_of(
        self, problem: Problem, plan: Plan, step_id: str, extra: Overrides
    ) -> tuple[Plan, tuple[str, ...]]:
        upto = needed(plan, step_id)
        if not REUSE or not (problem is self.problem or problem == self.problem):
            return upto, ()
        base = {s.id: s for s in self.plan.specs}
        same: set[str] = set()
        from_key = []
        for spec in upto.specs:
            steps = [o for o in spec.operands if o in base]
            if base.get(spec.id) == spec and spec.id not in extra and all(o in same for o in steps):
                same.add(spec.id)
                if spec.id != step_id and self.key.has(spec.id):
                    from_key.append(spec.id)
        return upto, tuple(from_key)

    def _values(
        self, problem: Problem, plan: Plan, step_id: str, extra: Overrides
    ) -> tuple[Plan, dict[str, DecimalMatrix] | None]:
        """The plan of the steps up to ``step_id`` and their values from the student's
        ``extra`` (every step of ``plan`` when not REUSE)."""
        if not REUSE:
            return plan, evaluation(problem, plan, extra)
        upto, from_key = self._upto(problem, plan, step_id, extra)
        given = dict(extra)
        for s in from_key:
            given.setdefault(s, key_values(self.key, s))
        return upto, evaluation(problem, upto, given)

    def _explains(self, step_id: str, run: Run, overrides: Overrides, rounding: Overrides) -> bool:
        problem, plan, _ = run
        for extra in [overrides, {}] if overrides else [{}]:
            if SCREEN:
                upto, from_key = self._upto(problem, plan, step_id, extra)
                if not self.screen.may_fit(problem, upto, step_id, extra, from_key, rounding):
                    continue  # its floats are too far from the student's numbers
            upto, values = self._values(problem, plan, step_id, extra)
            right = evaluation(self.problem, needed(self.plan, step_id), extra)
            if values is None or right is None or step_id not in values:
                continue
            slack = radii(problem, upto, values, {s: rounding[s] for s in extra}, step_id)
            if self._fits(step_id, values[step_id], slack) and not self._fits(
                step_id, right[step_id], slack
            ):
                return True
        return False

    def diagnose(
        self, step_id: str, expected: DecimalMatrix, overrides: Overrides, rounding: Overrides
    ) -> list[Diagnosis]:
        base = step_id.split(".", 1)[-1]
        wrong = [
            (i, j)
            for i, row in enumerate(self.answers.steps[step_id])
            for j, g in enumerate(row)
            if g is not None and g.valid and not close(g, expected[i][j], self.answers.tolerance)
        ]
        shows = [m for m in MISTAKES if m.shows(base, self.plan)]
        for weaker in (False, True):  # a weaker explanation only when no other fits
            found = []
            for mistake in (m for m in shows if m.weaker == weaker):
                for run in runs(mistake, self.problem, self.plan):
                    if self._explains(step_id, run, overrides, rounding):
                        found.append(self.diagnosis(mistake, step_id, wrong, run[2]))
                        break
            if found:
                return found
        both = self._two_at_once(step_id, shows, wrong, overrides, rounding)
        if both:
            return both
        slip = self._slip(step_id, expected, overrides, rounding)
        return [slip] if slip is not None else []

    def _two_at_once(
        self,
        step_id: str,
        shows: list[Mistake],
        wrong: list[tuple[int, int]],
        overrides: Overrides,
        rounding: Overrides,
    ) -> list[Diagnosis]:
        for first in (m for m in shows if m.family == "scale"):
            for second in (m for m in shows if m.family != "scale"):
                for run in pairs(first, second, self.problem, self.plan):
                    if self._explains(step_id, run, overrides, rounding):
                        return [
                            self.diagnosis(first, step_id, wrong, {}),
                            self.diagnosis(second, step_id, wrong, run[2]),
                        ]
        return []

    def _slip(
        self, step_id: str, expected: DecimalMatrix, overrides: Overrides, rounding: Overrides
    ) -> Diagnosis | None:
        """A minority of entries off, the rest right: an arithmetic slip, each named."""
        reference, slack = expected, None
        if overrides:
            upto = needed(self.plan, step_id)
            values = evaluation(self.problem, upto, overrides)
            if values is not None:
                reference = values[step_id]
                slack = radii(self.problem, upto, values, rounding, step_id)
        wrong, right = [], 0
        for i, row in enumerate(self.answers.steps[step_id]):
            for j, g in enumerate(row):
                if g is None or not g.valid:
                    continue
                if close(
                    g, reference[i][j], self.answers.tolerance, slack[i][j] if slack else ZERO
                ):
                    right += 1
                else:
                    wrong.append((i, j, g))
        answered = right + len(wrong)
        if not wrong or not (len(wrong) <= answered // 3 or (len(wrong) <= 2 and right >= 2)):
            return None
        step = self.key.step(step_id)
        parts: list[Fact] = []
        for i, j, g in wrong:
            value = reference[i][j]
            want: Fact
            if not value.is_finite():
                want = Math(Sym("neg_inf"))
            elif g.exact and reference is expected:
                want = step.exact_str(i, j)
            elif g.exact and value == value.to_integral_value():
                want = str(int(value))
            else:
                want = round_half_away(Fraction(value), max(4, g.places or 0))
            parts.append(
                Message.of(
                    "diagnosis.slip_entry",
                    name=self.naming.entries_fact(step_id, [(i, j)]),
                    given=g.text,
                    want=want,
                )
            )
        cells = [(i, j) for i, j, _ in wrong]
        ending = "one" if len(wrong) == 1 else "many"
        said = Message.of(
            "diagnosis.arithmetic_slip",
            slips=Joined(tuple(parts), "list.sep2"),
            entries=self.naming.entries_fact(step_id, cells),
        ).followed_by(Message.of(f"diagnosis.arithmetic_slip_{ending}"))
        return Diagnosis("arithmetic_slip", said, self.naming.cells(cells))
