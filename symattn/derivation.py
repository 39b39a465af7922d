"""A derivation: every step of one problem, in order, and its cross-check."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .entries import EntryFormula, entry_formula
from .errors import SymattnError
from .problem import Matrix, Problem
from .steps import Step, StepSpec

__all__ = ["TOLERANCE", "Crosscheck", "Derivation", "set_presenter"]

#: Largest relative error for the cross-check to pass.
TOLERANCE = 1e-12


@dataclass(frozen=True)
class Crosscheck:
    """Largest errors of the float64 path against the exact values."""

    max_abs_error: float
    max_rel_error: float
    worst_step: str | None
    worst_index: tuple[int, int] | None
    #: Some entry is off by more than 1e-12 of its own value, yet within what float64 can
    #: do for the terms behind it (cancellation, an additive −1e9): "passed within
    #: float64's error".
    conditioned: bool = False

    @property
    def passed(self) -> bool:
        return self.max_rel_error <= TOLERANCE

    @property
    def within_float64_error(self) -> bool:
        return self.passed and self.conditioned

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "max_abs_error": self.max_abs_error,
            "max_rel_error": self.max_rel_error,
            "passed": self.passed,
        }
        if self.within_float64_error:
            out["within_float64_error"] = True
        if self.worst_step is not None and self.worst_index is not None:
            out["worst"] = {
                "step": self.worst_step,
                "index": [self.worst_index[0] + 1, self.worst_index[1] + 1],
            }
        return out


#: How a derivation presents itself (``render``, Jupyter): installed by
#: :mod:`symattn.render` when it is imported, so that this data layer never imports
#: the renderers above it.
_PRESENTER: list[Callable[..., Any]] = []


def set_presenter(render: Callable[..., Any]) -> None:
    """Install the renderer behind :meth:`Derivation.render` and the Jupyter reprs."""
    _PRESENTER[:] = [render]


@dataclass(frozen=True)
class Derivation:
    """The whole derivation of one problem: its steps, in order (docs/json-output.md).

    ``matrices`` holds every matrix a step may name: the steps, and the matrices the
    problem gives (W_Q, a head's block h1.W_Q, memory, W_O).
    """

    problem: Problem
    steps: tuple[Step, ...]
    matrices: Mapping[str, Matrix]
    precision: int
    crosscheck: Crosscheck | None = None
    _by_id: Mapping[str, Step] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {s.id: s for s in self.steps})
        for step in self.steps:  # an error about an entry names the problem's file
            if not step.source:
                object.__setattr__(step, "source", self.problem.source)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __hash__(self) -> int:
        return hash((self.problem, self.step_ids))

    def step(self, step_id: str) -> Step:
        try:
            return self._by_id[step_id]
        except KeyError:
            known = ", ".join(self._by_id)
            raise SymattnError(f"no step {step_id!r} in this derivation; steps: {known}") from None

    def has(self, step_id: str) -> bool:
        return step_id in self._by_id

    @property
    def step_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.steps)

    @property
    def specs(self) -> tuple[StepSpec, ...]:
        return tuple(s.spec for s in self.steps)

    def with_crosscheck(self, crosscheck: Crosscheck | None) -> Derivation:
        return replace(self, crosscheck=crosscheck)

    def titled(self, title: str) -> Derivation:
        """The same derivation under another title (an answer key, say)."""
        return replace(self, problem=replace(self.problem, title=title))

    def entry(self, step_id: str, i: int, j: int) -> EntryFormula:
        """The written-out formula of entry (i, j) (0-based): see :mod:`symattn.entries`."""
        step = self.step(step_id)
        rows, cols = step.shape
        if not (0 <= i < rows and 0 <= j < cols):
            raise SymattnError(f"{step_id} has shape {rows} × {cols}; no entry ({i + 1}, {j + 1})")
        return entry_formula(step, self.matrices, self.problem, self.precision, i, j, self._by_id)

    def render(self, fmt: str = "text", **options: Any) -> Any:
        """This derivation in one format (``bytes`` for docx and xlsx, else ``str``); see
        :func:`symattn.render.render`."""
        return _PRESENTER[0](self, fmt, **options)

    def _repr_markdown_(self) -> str:
        """Jupyter shows a derivation as Markdown with math."""
        text: str = self.render("markdown")
        return text

    def _repr_latex_(self) -> str:
        """Front ends that prefer LaTeX get the displayed formulas, one per block."""
        text: str = self.render("math")
        return text
