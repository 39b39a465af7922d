"""symattn: the transformer attention computation, derived exactly and step by step.

>>> import symattn
>>> d = symattn.derive({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                     "W_K": [[1, 0], [0, 1]], "W_V": [[1, 2], [3, 4]]})
>>> d.crosscheck.passed
True
>>> d.step("weights").entry(1, 1)
'exp(sqrt(2)/2)/(exp(sqrt(2)/2) + 1)'

Started as the command (``symattn …``, ``python -m symattn …``), the package itself is
light: the API (and with it SymPy, NumPy and FLINT) is loaded by the command, inside its
handling of Ctrl-C (:func:`symattn.cli.main`). Imported by a program or a notebook, it
loads the API at once, so that ``symattn.load``, ``symattn.check`` and ``symattn.render``
are the functions, never the subpackages of the same names that an import would bind.
"""

from __future__ import annotations

import gc
import os
import signal
import sys


def _started_as_the_command() -> bool:
    """``python -m symattn`` (argv[0] is ``-m`` while the package loads, and the module
    the interpreter was asked to run is symattn) or the console script ``symattn``.
    A program of its own run with ``python -m`` that imports symattn is not the command."""
    first = sys.argv[0] if sys.argv else ""
    if first == "-m":
        return _module_run(getattr(sys, "orig_argv", [])) in ("symattn", "symattn.__main__")
    return os.path.basename(first).removesuffix(".exe") == "symattn"


def _module_run(interpreter_argv: list[str]) -> str | None:
    """The module named by ``-m`` in the interpreter's own command line
    (:data:`sys.orig_argv`), or None when it runs a script, ``-c`` or standard input.
    Short options may be grouped (``-Im name``, ``-mname``); ``-X``, ``-W`` and
    ``--check-hash-based-pycs`` take a value."""
    words = iter(interpreter_argv[1:])
    for word in words:
        if word == "--check-hash-based-pycs":
            next(words, None)
            continue
        if word == "-" or not word.startswith("-") or word.startswith("--"):
            return None  # a script, standard input, or "--" before a script
        for at, letter in enumerate(word[1:], 2):
            if letter in "mc":
                if letter == "c":
                    return None
                return word[at:] or next(words, None)
            if letter in "XW":
                if at == len(word):
                    next(words, None)
                break
    return None


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C before :func:`symattn.cli.main` takes over (which puts Python's own
    handler back): one line and status 130, never a traceback."""
    sys.stderr.write("symattn: interrupted\n")
    raise SystemExit(130)


#: True while the command's modules load with the cyclic garbage collector off.
_collector_held = False

if _started_as_the_command():
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    if gc.isenabled():
        # What the start-up makes (modules, classes, NumPy's and FLINT's tables) lives as
        # long as the process: collecting among it while it loads found nothing and took
        # about 8 ms of a 150 ms start (issue 24).  symattn.cli.started() turns the
        # collector back on, with those objects frozen out of its later passes.
        gc.disable()
        _collector_held = True

import importlib  # noqa: E402  (after the handler: Ctrl-C from here on is one line)
from typing import TYPE_CHECKING, Any  # noqa: E402

from .version import __version__  # noqa: E402

if TYPE_CHECKING:
    from .api import check, derive, grade, load, make_exercises
    from .check import CheckResult
    from .derivation import Derivation
    from .errors import SymattnError
    from .exercises import Exercise
    from .problem import Problem
    from .render import RenderOptions, render
    from .steps import Step

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

#: Where each name of the API lives; all of them are loaded at the first use of one.
_HOMES = {
    "check": "api",
    "derive": "api",
    "grade": "api",
    "load": "api",
    "make_exercises": "api",
    "CheckResult": "check",
    "Derivation": "derivation",
    "Exercise": "exercises",
    "SymattnError": "errors",
    "Problem": "problem",
    "RenderOptions": "render",
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


if not _started_as_the_command():
    __getattr__("derive")  # the whole API, bound over any subpackage of the same name
