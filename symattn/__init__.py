"""symattn: the transformer attention computation, derived exactly and step by step.

>>> import symattn
>>> d = symattn.derive({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                     "W_K": [[1, 0], [0, 1]], "W_V": [[1, 2], [3, 4]]})
>>> d.step("weights").exact_str(0, 0)
'exp(sqrt(2)/2)/(exp(sqrt(2)/2) + 1)'
>>> d.crosscheck.passed
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .errors import SymattnError
from .spec import Problem, load
from .steps import Derivation, Step

__all__ = ["Derivation", "Problem", "Step", "SymattnError", "__version__", "derive", "load"]

__version__ = "0.1.0"


def derive(
    problem: str | os.PathLike[str] | Mapping[str, Any] | Problem,
    *,
    digits: int = 4,
    max_size: int | None = None,
    crosscheck: bool = True,
    backward: bool = False,
) -> Derivation:
    """Derive every step of an attention problem exactly, then cross-check with NumPy.

    ``problem`` is a path to a TOML/JSON problem file, a dict of the same keys, or a
    :class:`Problem` from :func:`load`.  ``digits`` is how many decimal places the
    derivation will show (the values are computed with 50 more).  ``max_size`` lifts
    the size limit of exact derivations.  ``backward`` appends the gradients of SPEC §5
    (the problem gives ``dO`` or ``target``).
    """
    from . import crosscheck as cross
    from . import engine

    if not isinstance(problem, Problem):
        problem = load(problem, max_size=max_size)
    derivation = engine.run(problem, digits=digits)
    if backward:
        from . import backward as backward_pass

        derivation = backward_pass.extend(derivation)
    if crosscheck:
        derivation.crosscheck = cross.crosscheck(derivation)
    return derivation
