"""The ``symattn`` command line: argparse → the API → print → exit status.

:func:`main` is the console entry point.  It is defined here, before anything heavy is
imported, so that Ctrl-C while SymPy, NumPy and the commands load (a second on a busy
machine) ends with ``symattn: interrupted`` and exit status 130, as it does later,
never with a traceback.

The imports run with SIGINT blocked (where the platform can block a signal): a Ctrl-C
that arrives meanwhile waits, and is delivered as a :class:`KeyboardInterrupt` the moment
the imports are done, where :func:`main` catches it.  Left unblocked, a Ctrl-C inside a
C extension's own import is not always a KeyboardInterrupt at all: NumPy's C core, for
one, reports it as ``ImportError: PyCapsule_Import could not import module "datetime"``,
with the interrupt lost from the chain of causes.
"""

from __future__ import annotations

import gc
import importlib
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType

__all__ = ["main", "started"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``symattn ARGV`` (``sys.argv[1:]`` by default); return the exit status."""
    if signal.getsignal(signal.SIGINT) is getattr(_package(), "_interrupted_while_starting", 0):
        signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C: KeyboardInterrupt
    try:
        commands = _import_commands()
    except KeyboardInterrupt:
        print("symattn: interrupted", file=sys.stderr)
        return 130
    except ImportError as exc:  # where SIGINT cannot be blocked (see the module's note)
        if not _interrupted(exc):
            raise
        print("symattn: interrupted", file=sys.stderr)
        return 130
    try:
        status: int = commands.main(argv)
    finally:
        started()
    return status


def started() -> None:
    """The command's modules are loaded: the garbage collector, held off while they load
    (see :mod:`symattn`), is on again, and what they made is frozen out of its way
    (:func:`gc.freeze`) so that no later pass walks it.  Each command calls this once its
    own layers are imported; a no-op when symattn was not started as the command."""
    package = _package()
    if getattr(package, "_collector_held", False):
        package._collector_held = False  # type: ignore[attr-defined]
        gc.freeze()
        gc.enable()


def _package() -> ModuleType:
    return sys.modules[__name__.rpartition(".")[0]]


def _import_commands() -> ModuleType:
    """The commands module, imported with Ctrl-C held back until the import is done."""
    with _sigint_held():
        return importlib.import_module(".commands", __name__)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Block SIGINT inside the block; a Ctrl-C that came meanwhile is raised on leaving it."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:  # Windows: no signal masks; the ImportError chain is looked at instead
        yield
        return
    before = block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        # Unblocking delivers a pending SIGINT: Python's handler raises KeyboardInterrupt
        # at the next instruction, here in the caller's ``try``.
        block(signal.SIG_SETMASK, before)


def _interrupted(exc: BaseException) -> bool:
    """Was ``exc`` raised because of a Ctrl-C (anywhere in its chain of causes)?"""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
