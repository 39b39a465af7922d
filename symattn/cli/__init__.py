"""The ``symattn`` command line: argparse → the API → print → exit status."""

from .main import main

__all__ = ["main"]
