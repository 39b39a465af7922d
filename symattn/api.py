"""The verbs of symattn: derive, check, grade, make_exercises, grade_class (and load).

>>> import symattn
>>> d = symattn.derive({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                     "W_K": [[1, 0], [0, 1]], "W_V": [[1, 2], [3, 4]]})
>>> d.step("weights").exact_str(0, 0)
'exp(sqrt(2)/2)/(exp(sqrt(2)/2) + 1)'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .check import check
from .check.grade import grade
from .classroom import ClassGrades, Student, folder_name, grade_class
from .compute import derivation
from .derivation import Derivation
from .errors import SymattnError
from .examples import example_names, example_path
from .exercises import Exercise, ExerciseOptions, generate
from .load import load
from .problem import Problem

__all__ = ["ClassGrades", "check", "derive", "grade", "grade_class", "load", "make_exercises"]


def derive(
    problem: str | os.PathLike[str] | Mapping[str, Any] | Problem,
    *,
    digits: int = 4,
    max_size: int | None = None,
    crosscheck: bool = True,
    backward: bool = False,
) -> Derivation:
    """Derive every step of an attention problem exactly, then cross-check with NumPy.

    ``problem`` is a path to a TOML/JSON problem file, the name of a bundled example
    (``"seed"``; a file of that name wins), a dict of the same keys (a matrix may be a
    NumPy array), or a :class:`Problem` from :func:`load`.  ``digits`` is how many
    decimal places the derivation will show (the values are computed with 50 more).
    ``max_size`` lifts the size limit of exact derivations.  ``backward`` appends the
    gradients (the problem gives ``dO`` or ``target``).
    """
    if isinstance(problem, str) and not os.path.exists(problem):
        if problem in example_names():
            problem = example_path(problem)
        elif problem.isidentifier():  # a name, not a path: say what the examples are
            raise SymattnError(
                f"{problem}: no such file, and no bundled example of that name; examples: "
                f"{', '.join(example_names())}"
            )
    if not isinstance(problem, Problem):
        problem = load(problem, max_size=max_size)
    return derivation(problem, digits=digits, crosscheck=crosscheck, backward=backward)


def make_exercises(
    seed: int,
    count: int = 1,
    options: ExerciseOptions | None = None,
    students: Sequence[str | Student] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Exercise]:
    """``count`` seeded exercises with nice numbers, or one per student (names, or the
    :class:`Student` rows of a roster) when ``students`` is given."""
    pairs = None
    if students is not None:
        pairs = []
        taken: set[str] = set()
        for who in students:
            if isinstance(who, Student):
                pairs.append((who.folder, who.name))
                continue
            folder, k = folder_name(who), 1
            while folder.casefold() in taken:
                k += 1
                folder = f"{folder_name(who)}_{k}"
            taken.add(folder.casefold())
            pairs.append((folder, who))
    return generate(seed, count, options or ExerciseOptions(), pairs, progress)
