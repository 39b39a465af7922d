"""symattn: the transformer attention computation, derived exactly and step by step.

>>> import symattn
>>> d = symattn.derive({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                     "W_K": [[1, 0], [0, 1]], "W_V": [[1, 2], [3, 4]]})
>>> d.crosscheck.passed
True
>>> d.step("weights").entry(1, 1)
'exp(sqrt(2)/2)/(exp(sqrt(2)/2) + 1)'
"""

from .api import check, derive, grade, load, make_exercises
from .check import CheckResult
from .derivation import Derivation
from .errors import SymattnError
from .exercises import Exercise
from .problem import Problem
from .render import RenderOptions, render
from .steps import Step
from .version import __version__

__all__ = [
    "CheckResult",
    "Derivation",
    "Exercise",
    "Problem",
    "RenderOptions",
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
