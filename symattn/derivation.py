"""A derivation: every step of one problem, in order, and its cross-check."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field, replace
from typing import Any

from .entries import EntryFormula, entry_formula
from .errors import SymattnError
from .problem import Matrix, Problem
from .record import Record
from .steps import Step, StepSpec

__all__ = ["TOLERANCE", "Crosscheck", "Derivation", "named", "set_presenter", "sizes"]

#: Largest relative error for the cross-check to pass.
TOLERANCE = 1e-12


class Crosscheck(Record):
    """Largest errors of the float64 path against the exact values."""

    max_abs_error: float
    max_rel_error: float
    worst_step: str | None
    worst_index: tuple[int, int] | None
    #: Some entry is off by more than 1e-12 of its own value, yet within what float64 can
    #: do for the terms behind it (cancellation, a −1e9 added): "passed within
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
_FRAGMENT: list[Callable[[Derivation], str]] = []

#: Most step ids a repr names; the rest are elided in the middle.
_REPR_STEPS = 6


def set_presenter(
    render: Callable[..., Any], fragment: Callable[[Derivation], str] | None = None
) -> None:
    """Install the renderer behind :meth:`Derivation.render` and the Jupyter reprs, and
    the HTML fragment behind ``_repr_html_``."""
    _PRESENTER[:] = [render]
    _FRAGMENT[:] = [fragment] if fragment is not None else []


def sizes(problem: Problem) -> str:
    """The sizes of a problem in a few words: ``n=2, d_model=4, d_k=2, d_v=2``."""
    shapes = problem.shapes
    parts = [f"n={shapes.n}"] + ([f"m={shapes.m}"] if shapes.m != shapes.n else [])
    parts += [f"d_model={shapes.d_model}"] if shapes.d_model is not None else []
    parts += [f"d_k={shapes.d_k}", f"d_v={shapes.d_v}"]
    return ", ".join(parts + ([f"heads={shapes.heads}"] if shapes.heads > 1 else []))


def named(problem: Problem) -> str:
    """The problem's title and file name, for a repr: ``'Title' (seed.toml)``."""
    title = f"{problem.title!r} " if problem.title else ""
    return f"{title}({os.path.basename(problem.source) or problem.source})"


class Derivation(Record):
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

    def __repr__(self) -> str:
        """One line: the problem, its sizes, the steps (elided), the cross-check."""
        ids = self.step_ids
        if len(ids) > _REPR_STEPS:
            ids = (*ids[: _REPR_STEPS - 2], "…", *ids[-2:])
        check = ""
        if self.crosscheck is not None:
            check = f"; cross-check {'passed' if self.crosscheck.passed else 'failed'}"
        return (
            f"<Derivation of {named(self.problem)}: {sizes(self.problem)}; "
            f"{len(self.steps)} steps: {', '.join(ids)}{check}>"
        )

    def _repr_html_(self) -> str:
        """Jupyter shows a derivation as HTML (MathML): the page's own body, without its
        style sheet, under a ``<div class="symattn">``."""
        return _FRAGMENT[0](self)

    def _repr_markdown_(self) -> str:
        """Jupyter shows a derivation as Markdown with math."""
        text: str = self.render("markdown")
        return text

    def _repr_latex_(self) -> str:
        """Front ends that prefer LaTeX get the displayed formulas, one per block."""
        text: str = self.render("math")
        return text
