"""symattn: the transformer attention computation, derived exactly and step by step.

>>> import symattn
>>> d = symattn.derive({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                     "W_K": [[1, 0], [0, 1]], "W_V": [[1, 2], [3, 4]]})
>>> d.crosscheck.passed
True
"""

from .api import check, derive, grade, load, make_exercises
from .derivation import Derivation
from .errors import SymattnError
from .problem import Problem
from .render import render
from .steps import Step
from .version import __version__

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
