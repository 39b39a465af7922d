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
    status: int = commands.main(argv)
    return status
