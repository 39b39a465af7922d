"""symattn: the transformer attention computation, derived exactly and step by step.

>>> import symattn
>>> d = symattn.derive({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                     "W_K": [[1, 0], [0, 1]], "W_V": [[1, 2], [3, 4]]})
>>> d.crosscheck.passed
True

``import symattn`` itself is light: the API (and with it SymPy, NumPy and FLINT) is
loaded on the first use of one of its names, so that the command line can catch Ctrl-C
before the heavy imports start (:func:`symattn.cli.main`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:
    from .api import check, derive, grade, load, make_exercises
    from .derivation import Derivation
    from .errors import SymattnError
    from .problem import Problem
    from .render import render
    from .steps import Step

__all__ = [
    "Derivation",
    "Problem",
    "Step",
    "SymattnError",
    "__version__",
    "check",
    "derive",
    "grade",
    "load",
    "make_exercises",
    "render",
]

#: Where each name of the API lives; all of them are loaded at the first use of one.
_HOMES = {
    "check": "api",
    "derive": "api",
    "grade": "api",
    "load": "api",
    "make_exercises": "api",
    "Derivation": "derivation",
    "SymattnError": "errors",
    "Problem": "problem",
    "render": "render",
    "Step": "steps",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'symattn' has no attribute {name!r}")
    for other, home in _HOMES.items():  # the whole API at once, as an eager import would
        globals()[other] = getattr(importlib.import_module(f".{home}", __name__), other)
    return globals()[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
