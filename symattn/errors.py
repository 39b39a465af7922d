"""The one error type symattn raises for bad input."""

from __future__ import annotations

__all__ = ["SymattnError", "where"]


class SymattnError(Exception):
    """Bad input or usage: the message is one line that names the place and the rule.

    ``option`` names the parameter a message is about, and ``lift`` a limit's option
    and the value that would lift it, so that each front end can say so in its own
    words: the Python API as ``tolerance: …`` and ``max_size=130``, the command as
    ``--tolerance: …`` and ``--max-size 130``.  The command prints
    ``symattn: error: <message>`` and exits with status 2.

    >>> str(SymattnError("p.toml: n = 130 is over the limit of 128", lift=("max_size", 130)))
    'p.toml: n = 130 is over the limit of 128; pass max_size=130 to lift it'
    >>> SymattnError("expected a number, found 'x'", option="tolerance").command_line()
    "--tolerance: expected a number, found 'x'"
    """

    def __init__(
        self,
        message: str,
        *,
        option: str | None = None,
        lift: tuple[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.option = option
        self.lift = lift

    def _text(self, flag: str | None, lift: str) -> str:
        text = f"{flag}: {self.message}" if flag else self.message
        return f"{text}; {lift} to lift it" if self.lift is not None else text

    def __str__(self) -> str:
        lift = f"pass {self.lift[0]}={self.lift[1]}" if self.lift else ""
        return self._text(self.option, lift)

    def command_line(self) -> str:
        """The message as the command prints it: options as flags (``--max-size 130``)."""
        lift = ""
        if self.lift is not None:  # a switch (value True) is named alone: --replace
            value = "" if self.lift[1] is True else f" {self.lift[1]}"
            lift = f"pass {_flag(self.lift[0])}{value}"
        return self._text(_flag(self.option) if self.option else None, lift)


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


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
