r"""How matrices, their rows and their entries are named: one table, three targets.

Two presets for paper (LaTeX, Markdown, HTML), both 1-based:

* ``matrix`` — Q, K, V, S, A, O as in "Attention Is All You Need": q_{1,2}, s_{1,2},
  a_{1,2}, and the output rows b_1;
* ``token`` — the classic lecture slides: q^1, k^2, v^2, α_{1,2} = q^1 · k^2, and after
  the softmax α'_{1,2}, with b^1 = Σ_i α'_{1,i} v^i;

and one for the terminal (``q₁,₂``, ``s′₁,₂``, ``wq₁,₁``).  A problem file may rename
any entry letter on paper: ``notation = { weights = "a" }``.

>>> Notation.build("token").entry("Q", 0, 1), Notation.build("matrix").entry("Q", 0, 1)
('q^{1}_{2}', 'q_{1,2}')
>>> TERMINAL.entry("h2.scaled_scores", 0, 1)
's′⁽²⁾₁,₂'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from typing import NamedTuple

from ..errors import SymattnError
from ..ids import split_id
from ..record import Record

__all__ = ["PRESETS", "TERMINAL", "Names", "Notation", "TerminalNames", "add_names", "renamable"]

PRESETS = ("matrix", "token")


class Names(NamedTuple):
    """The names of one matrix: its entry letter and its own name, per target."""

    letter: str  # LaTeX, matrix preset
    token_letter: str  # LaTeX, token preset
    text_letter: str  # terminal
    matrix: str  # LaTeX, matrix preset
    token_matrix: str  # LaTeX, token preset
    text_matrix: str  # terminal


# fmt: off
_TABLE: dict[str, Names] = {
    "X": Names("x", "x", "x", "X", "X", "X"),
    "W_Q": Names("w^{Q}", "w^{q}", "wq", "W^{Q}", "W^{q}", "W_Q"),
    "W_K": Names("w^{K}", "w^{k}", "wk", "W^{K}", "W^{k}", "W_K"),
    "W_V": Names("w^{V}", "w^{v}", "wv", "W^{V}", "W^{v}", "W_V"),
    "W_O": Names("w^{O}", "w^{o}", "wo", "W^{O}", "W^{o}", "W_O"),
    "Q": Names("q", "q", "q", "Q", "Q", "Q"),
    "K": Names("k", "k", "k", "K", "K", "K"),
    "V": Names("v", "v", "v", "V", "V", "V"),
    "scores": Names("s", r"\alpha", "s", "S", r"\alpha", "S"),
    "scaled_scores": Names("s'", r"\tilde{\alpha}", "s′", "S'", r"\tilde{\alpha}", "S'"),
    "masked_scores": Names(r"\tilde{s}", r"\hat{\alpha}", "s̃", r"\tilde{S}", r"\hat{\alpha}", "M"),
    "weights": Names("a", r"\alpha'", "a", "A", r"\alpha'", "A"),
    "output": Names("b", "b", "b", "O", "B", "O"),
    "tokens": Names(r"\mathrm{id}", r"\mathrm{id}", "id", r"\mathrm{ids}", r"\mathrm{ids}", "ids"),
    "concat": Names("c", "c", "c", "C", "C", "C"),
}
#: Gradients: dL/d(matrix), named d + the matrix's entry letter (or name).
_GRADIENTS = {
    "dO": ("o", "O", "do"), "dV": ("v", "V", "dv"), "dweights": ("a", "A", "da"),
    "dscaled_scores": ("s'", "S'", "ds′"), "dscores": ("s", "S", "ds"), "dQ": ("q", "Q", "dq"),
    "dK": ("k", "K", "dk"), "dW_Q": ("w^{Q}", "W^{Q}", "dwq"), "dW_K": ("w^{K}", "W^{K}", "dwk"),
    "dW_V": ("w^{V}", "W^{V}", "dwv"), "dX": ("x", "X", "dx"), "dW_O": ("w^{O}", "W^{O}", "dwo"),
    "dconcat": ("c", "C", "dc"),
}
# fmt: on
for _id, (_letter, _matrix, _text) in _GRADIENTS.items():
    _d_letter, _d_matrix = rf"\mathrm{{d}}{_letter}", rf"\mathrm{{d}}{_matrix}"
    _TABLE[_id] = Names(_d_letter, _d_letter, _text, _d_matrix, _d_matrix, _id)

#: Matrices whose rows are tokens' vectors (row i is a vector named by its token); a
#: topic's are added with its names.
VECTOR_ROWS = {"X", "Q", "K", "V", "output"}

#: What a renamed letter may be: a letter or a LaTeX command, with optional primes.
_SAFE_LETTER = r"(?:[A-Za-z]|\\[A-Za-z]+)'{0,2}"  # patterns compiled when used

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUPER = str.maketrans("0123456789()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾")


def add_names(names: Mapping[str, Names], rows: tuple[str, ...] = ()) -> None:
    """Name more matrices (a topic's steps and given matrices; ``rows``: those of them whose
    rows are tokens' vectors): called once for each topic by the registry of
    :mod:`symattn.topics`."""
    VECTOR_ROWS.update(rows)
    for key, value in names.items():
        known = _TABLE.get(key)
        if known is not None and known != value:
            raise ValueError(f"{key} is named twice, as {known} and as {value}")
        _TABLE[key] = value


def renamable() -> tuple[str, ...]:
    """The ids whose entry letter a problem file may rename."""
    return tuple(_TABLE)


def _plain(name: str) -> str:
    """A step without names of its own, safe in LaTeX: ``\\mathrm{my\\_step}``."""
    if name.isalpha() and name.isascii():
        return name
    escaped = name.replace("_", "\\_")
    return rf"\mathrm{{{escaped}}}"


def _index(i: int | str) -> str:
    return str(i + 1) if isinstance(i, int) else i


_SUPERSCRIPTED = r"^(\\?[A-Za-z]+)\^\{([^{}]*)\}$"


def _headed(name: str, number: int | None) -> str:
    """A name with the head of a multi-head step as a superscript after it, as the
    terminal writes it (Q⁽²⁾, W_Q⁽²⁾): Q^{(2)}, W^{Q,(2)}, {q'}^{(2)}; never a left
    superscript, which reads as a power of what stands before it."""
    if number is None:
        return name
    mark = f"({number})"
    found = re.match(_SUPERSCRIPTED, name)
    if found:  # W^{Q}: one superscript holds both
        return f"{found.group(1)}^{{{found.group(2)},{mark}}}"
    if re.fullmatch(r"\\?[A-Za-z]+", name):
        return f"{name}^{{{mark}}}"
    return f"{{{name}}}^{{{mark}}}"  # primes, a \mathrm{…}: braced first


class Notation(Record):
    """Names on paper (LaTeX) for one preset, with the problem's renames."""

    preset: str = "matrix"
    renames: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, preset: str = "matrix", renames: Mapping[str, str] | None = None) -> Notation:
        """A preset, validated, with ``renames`` (entry id → letter) applied."""
        if preset not in PRESETS:
            raise SymattnError(f"notation: expected one of {', '.join(PRESETS)}, found {preset!r}")
        checked: dict[str, str] = {}
        for key, letter in (renames or {}).items():
            if key not in _TABLE:
                raise SymattnError(
                    f"notation.{key}: no such matrix; renamable: {', '.join(_TABLE)}"
                )
            if not isinstance(letter, str) or not re.fullmatch(_SAFE_LETTER, letter):
                raise SymattnError(
                    f"notation.{key}: expected a letter or a LaTeX command such as \\alpha "
                    f"(with optional primes), found {letter!r}"
                )
            checked[key] = letter
        return cls(preset, checked)

    def _names(self, base: str) -> Names | None:
        return _TABLE.get(base)

    def matrix(self, mid: str) -> str:
        head, base = split_id(mid)
        names = self._names(base)
        name = (
            _plain(base)
            if names is None
            else (names.token_matrix if self.preset == "token" else names.matrix)
        )
        return _headed(name, head)

    def letter(self, mid: str) -> str:
        base = split_id(mid)[1]
        if base in self.renames:
            return self.renames[base]
        names = self._names(base)
        if names is None:
            return _plain(base.lower())
        return names.token_letter if self.preset == "token" else names.letter

    def _base(self, mid: str) -> tuple[str, str]:
        """Split a letter into its body and the primes after it."""
        letter = self.letter(mid)
        body = letter.rstrip("'")
        return body, letter[len(body) :]

    def row(self, mid: str, i: int | str) -> str:
        """The vector of row ``i`` (0-based, or a letter such as "i"): q_1 or q^1."""
        body, primes = self._base(mid)
        head = split_id(mid)[0]
        if self.preset == "token":  # a prime is a superscript too: brace it first
            base = f"{{{body}{primes}}}" if primes or head is not None else body
            return f"{base if head is None else '{' + _headed(body + primes, head) + '}'}" + (
                f"^{{{_index(i)}}}"
            )
        return f"{_headed(body + primes, head)}_{{{_index(i)}}}"

    def entry(self, mid: str, i: int | str, j: int | str) -> str:
        """Entry (i, j), 0-based (or letters): q_{1,2}; in the token preset q^{1}_{2}."""
        body, primes = self._base(mid)
        head, base = split_id(mid)
        if self.preset == "token" and base in VECTOR_ROWS:
            core = f"{{{body}{primes}}}" if primes else body
            if head is not None:
                core = "{" + _headed(body + primes, head) + "}"
            return f"{core}^{{{_index(i)}}}_{{{_index(j)}}}"
        return f"{_headed(body + primes, head)}_{{{_index(i)},{_index(j)}}}"


class TerminalNames(Record):
    """Names in the terminal: ``q₁,₂``, a head's ``q⁽²⁾₁,₂``, rows ``q₁``, matrices ``Q``."""

    def letter(self, mid: str) -> str:
        head, base = split_id(mid)
        names = _TABLE.get(base)
        mark = f"({head})".translate(_SUPER) if head is not None else ""
        return (names.text_letter if names else base) + mark

    def matrix(self, mid: str) -> str:
        head, base = split_id(mid)
        names = _TABLE.get(base)
        mark = f"({head})".translate(_SUPER) if head is not None else ""
        return (names.text_matrix if names else base) + mark

    def row(self, mid: str, i: int) -> str:
        return self.letter(mid) + str(i + 1).translate(_SUB)

    def entry(self, mid: str, i: int, j: int) -> str:
        return f"{self.letter(mid)}{str(i + 1).translate(_SUB)},{str(j + 1).translate(_SUB)}"


TERMINAL = TerminalNames()
