"""The tokens of the value grammar: numbers, names, operators, LaTeX commands.

>>> [t.text for t in tokens("5√2/2", Profile.ANSWER)]
['5', '√', '2', '/', '2']
"""

from __future__ import annotations

import re
from enum import Enum
from functools import cache
from typing import NamedTuple

from ..record import Record

__all__ = ["FUNCTIONS", "Profile", "Token", "ValueSyntaxError", "tokens"]


class ValueSyntaxError(ValueError):
    """A value that the grammar does not accept; the message says why."""


class Profile(Enum):
    """What a value may be: an entry of a problem file, or a student's answer."""

    PROBLEM = "problem"
    ANSWER = "answer"


class _Patterns(NamedTuple):
    number: re.Pattern[str]
    comma_number: re.Pattern[str]
    name: re.Pattern[str]
    superscripts: re.Pattern[str]
    double_star: re.Pattern[str]
    command: re.Pattern[str]


@cache
def _patterns() -> _Patterns:
    """The tokens' patterns, compiled at the first value that needs the lexer: a problem
    of plain numbers and fractions never does (issue 24)."""
    return _Patterns(
        re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"),
        re.compile(r"[0-9]+,[0-9]+(?![0-9]*,)"),
        re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*"),
        re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+"),
        re.compile(r"\*\*"),
        re.compile(r"\\([A-Za-z]+|[,;! ])"),
    )


_SUPER_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_OPERATORS = {
    "**": "^",
    "^": "^",
    "*": "*",
    "·": "*",
    "⋅": "*",
    "×": "*",
    "/": "/",
    "÷": "/",
    "+": "+",
    "-": "-",
    "−": "-",
    "(": "(",
    ")": ")",
    "{": "{",
    "}": "}",
    "√": "√",
    "%": "%",
    "∞": "inf",
}
#: LaTeX commands: what each one is (a token, or nothing at all).
_COMMANDS = {
    "frac": "frac",
    "dfrac": "frac",
    "tfrac": "frac",
    "sqrt": "sqrt",
    "cdot": "*",
    "times": "*",
    "div": "/",
    "infty": "inf",
    "exp": "exp",
    "left": "",
    "right": "",
    ",": "",
    ";": "",
    "!": "",
    " ": "",
    "quad": "",
    "mathrm": "",
    "operatorname": "",
    "sin": "sin",
    "cos": "cos",
    "tanh": "tanh",
}
#: The functions an answer may use, by name (``cos(1/10)``) and by LaTeX command
#: (``\sin{\left(1 \right)}``): what symattn itself prints in its exact forms.
FUNCTIONS = ("sin", "cos", "tanh")
#: LaTeX commands an entry of a problem file may not use (answers only).
_ANSWER_COMMANDS = ("exp", "infty", *FUNCTIONS)


class Token(Record):
    kind: str  # num | name | op | sup (a superscript exponent)
    text: str
    pos: int  # 1-based
    spaced: bool  # whitespace before it


def tokens(text: str, profile: Profile) -> list[Token]:
    out: list[Token] = []
    pos, spaced = 0, False
    answer = profile is Profile.ANSWER
    patterns = _patterns()
    while pos < len(text):
        ch = text[pos]
        if ch.isspace():
            pos, spaced = pos + 1, True
            continue
        start = pos + 1
        if answer and (m := patterns.comma_number.match(text, pos)):
            out.append(Token("num", m.group().replace(",", "."), start, spaced))
        elif m := patterns.number.match(text, pos):
            out.append(Token("num", m.group(), start, spaced))
        elif m := patterns.name.match(text, pos):
            out.append(Token("name", m.group(), start, spaced))
        elif m := patterns.superscripts.match(text, pos):
            out.append(Token("sup", m.group().translate(_SUPER_DIGITS), start, spaced))
        elif m := patterns.double_star.match(text, pos):
            out.append(Token("op", "^", start, spaced))
        elif ch == "\\" and (m := patterns.command.match(text, pos)):
            command = m.group(1)
            if command not in _COMMANDS or (not answer and command in _ANSWER_COMMANDS):
                raise ValueSyntaxError(f"unknown LaTeX command \\{command} at position {start}")
            if _COMMANDS[command]:
                out.append(Token("op", _COMMANDS[command], start, spaced))
        elif ch in _OPERATORS and (answer or ch not in "%∞÷"):
            out.append(Token("op", _OPERATORS[ch], start, spaced))
            pos, spaced = pos + 1, False
            continue
        elif answer and ch in "≈~" and not out:  # "≈ 0.107": the value as written
            pos, spaced = pos + 1, True
            continue
        else:
            raise ValueSyntaxError(f"unexpected character {ch!r} at position {start}")
        pos, spaced = m.end(), False
    return out
