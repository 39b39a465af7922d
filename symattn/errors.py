"""The one error type symattn raises for bad input."""

from __future__ import annotations

__all__ = ["SymattnError", "where"]


class SymattnError(Exception):
    """Bad input or usage: the message is one line that names the place and the rule.

    The command prints it as ``symattn: error: <message>`` and exits with status 2.
    """


def where(source: str, key: str, row: int | None = None, col: int | None = None) -> str:
    """The location prefix of an error message, with 1-based row and column.

    >>> where("p.toml", "W_Q", 0, 1)
    'p.toml: W_Q row 1, column 2'
    """
    text = f"{source}: {key}"
    if row is not None:
        text += f" row {row + 1}"
    if col is not None:
        text += f", column {col + 1}" if row is not None else f" column {col + 1}"
    return text
