"""Options more than one command has."""

from __future__ import annotations

import argparse

from ..budget import DEFAULT_TIME_LIMIT

__all__ = ["time_limit_option"]


def time_limit_option(parser: argparse.ArgumentParser, each: str = "") -> None:
    """``--time-limit S``: the budget of each derivation, check or graded file."""
    parser.add_argument(
        "--time-limit",
        type=float,
        metavar="S",
        default=DEFAULT_TIME_LIMIT,
        help=f"stop with an error after S seconds{each}; 0: no limit "
        f"(default: {DEFAULT_TIME_LIMIT:g})",
    )
