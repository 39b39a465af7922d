"""The ``symattn`` command line: argparse → the API → print → exit status.

:func:`main` is the console entry point.  It is defined here, before anything heavy is
imported, so that Ctrl-C while SymPy, NumPy and the commands load (a second on a busy
machine) ends with ``symattn: interrupted`` and exit status 130, as it does later,
never with a traceback.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``symattn ARGV`` (``sys.argv[1:]`` by default); return the exit status."""
    try:
        commands = importlib.import_module(".commands", __name__)
    except KeyboardInterrupt:
        print("symattn: interrupted", file=sys.stderr)
        return 130
    except ImportError as exc:  # NumPy turns Ctrl-C during its C import into an ImportError
        if not _interrupted(exc):
            raise
        print("symattn: interrupted", file=sys.stderr)
        return 130
    status: int = commands.main(argv)
    return status


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
