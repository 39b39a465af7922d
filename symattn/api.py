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
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from .check import CheckResult
from .check import check as check_answers
from .check.answers import Answers
from .check.grade import grade
from .classroom import ClassGrades, Student, folder_name, grade_class
from .compute import derivation
from .derivation import Derivation
from .errors import SymattnError
from .examples import example_names, example_path
from .exercises import Exercise, ExerciseOptions, generate
from .load import load as load_problem
from .problem import Problem

__all__ = ["ClassGrades", "check", "derive", "grade", "grade_class", "load", "make_exercises"]

_P = TypeVar("_P")


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
    problem = _file_or_example(problem)
    if not isinstance(problem, Problem):
        problem = load_problem(problem, max_size=max_size)
    return derivation(problem, digits=digits, crosscheck=crosscheck, backward=backward)


def load(
    problem: str | os.PathLike[str] | Mapping[str, Any],
    *,
    max_size: int | None = None,
    source: str | None = None,
) -> Problem:
    """Read and validate a problem (docs/problem-format.md): a path to a TOML/JSON file,
    the name of a bundled example (``"seed"``; a file of that name wins) or a dict."""
    return load_problem(_file_or_example(problem), max_size=max_size, source=source)


def check(
    problem: Problem | Derivation | str | os.PathLike[str] | Mapping[str, Any],
    answers: str | os.PathLike[str] | Mapping[str, Any] | Answers,
    *,
    tolerance: float | str | Decimal | None = None,
    places: int | None = None,
    source: str | None = None,
) -> CheckResult:
    """Check a hand calculation against the exact key.

    ``problem`` is what :func:`derive` takes (a path, an example's name, a dict, a
    :class:`Problem`) or an already derived key (a :class:`Derivation`), which is how a
    whole class is graded with the key computed once.  ``places`` (else the more of
    ``places`` in the problem file and ``places`` in the answers file) is the number of
    decimal places every inexact answer must have.
    """
    return check_answers(
        _file_or_example(problem), answers, tolerance=tolerance, places=places, source=source
    )


def _file_or_example(problem: _P) -> _P | Path:
    """The file of the bundled example ``problem`` names, unless a file of that name
    exists (it wins); a name that is neither is refused naming the examples."""
    if not isinstance(problem, str) or os.path.exists(problem):
        return problem
    if problem in example_names():
        return example_path(problem)
    if problem.isidentifier():  # a name, not a path: say what the examples are
        raise SymattnError(
            f"{problem}: no such file, and no bundled example of that name; examples: "
            f"{', '.join(example_names())}"
        )
    return problem


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
