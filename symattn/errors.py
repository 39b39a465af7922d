"""The one error type symattn raises for bad input."""

from __future__ import annotations

import re

__all__ = ["NotApplicable", "SymattnError", "refuse_outside", "shorten", "visible", "where"]

#: Longest message the command prints; a longer one keeps its start (file, key, row) and
#: its end (the rule) and says how much of the middle it left out.
MAX_MESSAGE_CHARS = 600

# C0 controls (but tab and newline), DEL, C1 controls and lone surrogates: characters a
# terminal may obey (ESC starts ANSI and OSC sequences) or that no encoder can write; and
# Unicode's format characters (category Cf: the bidi overrides and isolates U+202A…U+202E,
# U+2066…U+2069 that show "0701.0" as "0.1070", zero-width spaces and joiners U+200B…
# U+200F, the soft hyphen, U+FEFF, the tags U+E0001…U+E007F), which a terminal or an
# editor obeys without showing them.
_FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
)
_UNSAFE = f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\ud800-\\udfff{_FORMAT}]"
_UNSAFE_IN_LINE = f"[\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff{_FORMAT}]"
# The safe ASCII bytes (with and without tab and newline): an ASCII text is looked over
# by deleting them in C, ten times faster than the pattern (the JSON of n = 128 is 175 MB).
_SAFE_ASCII = bytes([9, 10, *range(0x20, 0x7F)])
_SAFE_ASCII_IN_LINE = bytes(range(0x20, 0x7F))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # a tag character: as JSON writes it, a UTF-16 pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def visible(text: str, *, one_line: bool = False) -> str:
    r"""``text`` with every control character, format character (bidi overrides,
    zero-width spaces) and lone surrogate written as ``\uXXXX``.

    Newlines and tabs stay unless ``one_line``.  In JSON the escape means the same
    character again; in every other output it is shown, never obeyed.

    >>> visible("\x1b[31mred\n")
    '\\u001b[31mred\n'
    >>> visible("a\nb", one_line=True)
    'a\\u000ab'
    >>> visible("\u202e0701.0")
    '\\u202e0701.0'
    """
    if text.isascii():
        safe = _SAFE_ASCII_IN_LINE if one_line else _SAFE_ASCII
        if not text.encode("ascii").translate(None, safe):
            return text
    elif (text if one_line else text.replace("\n", "").replace("\t", "")).isprintable():
        # every character the pattern finds is one str.isprintable() refuses (a control, a
        # format character, a surrogate): most text needs neither the pattern nor its
        # compiling, 0.5 ms a start (issue 24)
        return text
    # compiled at the first text that needs it, not on every start (issue 24); re caches it
    pattern = re.compile(_UNSAFE_IN_LINE if one_line else _UNSAFE)
    if not text.isascii() and pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def shorten(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` cut in the middle when it is longer than ``limit`` characters.

    >>> shorten("a" * 10 + "b" * 10, 12)
    'aaaaaa … [12 characters left out] … bb'
    """
    if len(text) <= limit:
        return text
    head, tail = limit // 2, limit // 6
    left = len(text) - head - tail
    return f"{text[:head]} … [{left} characters left out] … {text[len(text) - tail :]}"


class SymattnError(ValueError):
    """Bad input or usage: the message is one line that names the place and the rule.

    A :class:`ValueError` too, so that ``except ValueError`` in a caller's code catches
    it; symattn's own ``except ValueError`` clauses let it through first.

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
        message = visible(shorten(self.message), one_line=True)
        text = f"{flag}: {message}" if flag else message
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


def refuse_outside(
    step: str, shape: tuple[int, int], accessor: str, i: object, j: object = None
) -> None:
    """Refuse a place outside a step's matrix, or not an ``int``, naming the step, its
    shape and how ``accessor`` counts: ``entry`` from 1, as every file does, the others
    from 0, as Python indexes (``j`` None: a row, for the row accessors)."""
    base = 1 if accessor == "entry" else 0
    rows, cols = shape
    inside = type(i) is int and base <= i < rows + base
    if inside and (j is None or (type(j) is int and base <= j < cols + base)):
        return
    place = f"row {i}" if j is None else f"entry ({i}, {j})"
    span = f"row {base} … {rows - 1 + base}"
    if j is not None:
        span += f", column {base} … {cols - 1 + base}"
    if base:
        raise SymattnError(f"step {step}: no {place}; its entries are 1-based: {span}")
    entry = "" if j is None else " (Step.entry(i, j) is 1-based)"
    raise SymattnError(
        f"step {step}: no {place}; {accessor} is 0-based, as Python indexes: {span}{entry}"
    )


class NotApplicable(ValueError):
    """A mistake model (or a step on a student's numbers) that cannot apply to this
    problem: a shape that does not fit, a row with every key masked, symbols."""
