"""How a document is rendered: one frozen :class:`RenderOptions`, checked when it is
built, that every writer and printer reads (the format, the language, the notation, the
rows and heads written out, the decimal places).

>>> RenderOptions("latex", rows=(0, 1)).rows
(0, 1)
>>> RenderOptions("latex", rows=(5,)).fit(2, 1)
Traceback (most recent call last):
  ...
symattn.errors.SymattnError: rows: 5 is out of range; the problem has 2 query rows (0 … 1, 0-based)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import SymattnError
from ..printing import Notation
from ..printing.notation import PRESETS
from ..record import Record
from ..words import Words, words

__all__ = ["BINARY_FORMATS", "DOCUMENT_FORMATS", "FORMATS", "INTERNAL_FORMATS", "RenderOptions"]

FORMATS = ("text", "json", "latex", "tex", "markdown", "html", "docx", "xlsx")
#: The formats whose rendering is bytes (a file to write, not text to print).
BINARY_FORMATS = ("docx", "xlsx")
#: The formats of a document of blocks (JSON and the spreadsheet write a derivation's data).
#: ``math``: only the displayed formulas (a notebook's ``_repr_latex_``); ``moodle``: a
#: Moodle quiz question's text (plain HTML: :mod:`.moodle_html`).
DOCUMENT_FORMATS = ("text", "latex", "tex", "markdown", "html", "docx", "math", "moodle")
#: The formats that the library's own producers ask for and the command does not offer.
INTERNAL_FORMATS = ("math", "moodle")


def _indices(name: str, value: Any, least: int) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise SymattnError(f"{name}: expected a list of integers, found {value!r}")
    items = tuple(value)
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int) or item < least:
            raise SymattnError(f"{name}: expected integers ≥ {least}, found {item!r}")
    return items


class RenderOptions(Record):
    """How a derivation or a document is rendered; checked when built, the allowed
    values in the error.

    ``rows`` are the 0-based query rows written out entry by entry (default: the first);
    ``heads_shown`` the 1-based heads whose rows are written out (default: all).
    """

    fmt: str = "text"
    lang: str = "en"
    notation: str = "matrix"
    rows: tuple[int, ...] | None = None
    digits: int = 4
    heads_shown: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.fmt not in (*FORMATS, *INTERNAL_FORMATS):
            raise SymattnError(f"format: expected one of {', '.join(FORMATS)}, found {self.fmt!r}")
        words(self.lang)  # raises with the languages there are
        if self.notation not in PRESETS:
            raise SymattnError(
                f"notation: expected one of {', '.join(PRESETS)}, found {self.notation!r}"
            )
        if isinstance(self.digits, bool) or not isinstance(self.digits, int):
            raise SymattnError(f"digits: expected an integer 0 … 30, found {self.digits!r}")
        if not 0 <= self.digits <= 30:
            raise SymattnError(f"digits: expected 0 … 30, found {self.digits}")
        object.__setattr__(self, "rows", _indices("rows", self.rows, 0))
        object.__setattr__(self, "heads_shown", _indices("heads_shown", self.heads_shown, 1))

    @classmethod
    def of(cls, fmt: str = "text", **keywords: Any) -> RenderOptions:
        """Options from keywords (``render(d, "latex", rows=[0, 1])``); an unknown keyword
        is an error naming the known ones."""
        known = {f.name for f in dataclasses.fields(cls)} - {"fmt"}
        unknown = sorted(set(keywords) - known)
        if unknown:
            raise SymattnError(
                f"render: unknown option {unknown[0]!r}; expected one of {', '.join(sorted(known))}"
            )
        return cls(fmt, **keywords)

    def but(self, **changes: Any) -> RenderOptions:
        """These options with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes) if changes else self

    @property
    def words(self) -> Words:
        return words(self.lang)

    @property
    def shown_rows(self) -> list[int]:
        """The rows written out entry by entry: the first by default."""
        return [0] if self.rows is None else list(self.rows)

    @property
    def shown_heads(self) -> list[int] | None:
        return None if self.heads_shown is None else list(self.heads_shown)

    def names(self, renames: Mapping[str, str] | None = None) -> Notation:
        """The notation, with a problem's renames."""
        return Notation.build(self.notation, renames)

    def fit(self, rows: int, heads: int) -> RenderOptions:
        """These options, checked against a problem of ``rows`` query rows and ``heads``
        heads: a row or head that is not there is an error, never silently dropped."""
        for row in self.rows or ():
            if row >= rows:
                raise SymattnError(
                    f"rows: {row} is out of range; the problem has {rows} query rows "
                    f"(0 … {rows - 1}, 0-based)"
                )
        for head in self.heads_shown or ():
            if head > heads:
                raise SymattnError(
                    f"heads_shown: {head} is out of range; the problem has {heads} heads "
                    f"(1 … {heads})"
                )
        return self
