"""Every word symattn shows a person, once per language: titles, sentences,
diagnoses, feedback and sheet words (:mod:`.en`, :mod:`.zh`).  Formulas are the same
in every language; only these words change.

The words carry no math: a sentence names it, ``{math:sqrt_dk}``, and the writer prints
it with its own printer (LaTeX's ``\\sqrt{d_k}``, MathML).  Said as plain text, the math
is printed by the printer that :mod:`symattn.render` installs (:func:`set_math_printer`:
the terminal's Unicode, ``√d_k``).

>>> words("zh").title("h2.scores")
'第 2 个头 · 计算注意力分数'
>>> words("en")("derive.row", i=1, label=" (I)")
'Row 1 (I), written out:'
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from string import Formatter

from ..errors import SymattnError
from ..ids import split_id
from ..record import Record

__all__ = ["LANGUAGES", "MATH_FIELD", "MathName", "Part", "Words", "set_math_printer", "words"]

LANGUAGES = ("en", "zh")
#: The field of a template that names math: ``{math:NAME}``.
MATH_FIELD = "math"


def _no_printer(name: str) -> str:
    raise LookupError(f"no printer of the math {name!r}: import symattn.render first")


_MATH_PRINTER: list[Callable[[str], str]] = [_no_printer]


def set_math_printer(printer: Callable[[str], str]) -> None:
    """Install how plain text prints the math a sentence names (:mod:`symattn.render`
    installs the terminal's printer)."""
    _MATH_PRINTER[:] = [printer]


class _Math:
    """The value of ``{math:NAME}`` in plain text: the installed printer's NAME."""

    def __format__(self, name: str) -> str:
        return _MATH_PRINTER[0](name)


_MATH = _Math()
_MATH_NAMED = re.compile(r"\{" + MATH_FIELD + r":(\w+)\}")


class MathName(Record):
    """Math that a sentence names (``{math:sqrt_dk}``): a writer prints the symbol of this
    name with its own printer."""

    name: str


#: A piece of a sentence: words, or the math it names.
Part = str | MathName


class Words(Record):
    """The words of one language; ``words(key, **values)`` fills a sentence."""

    lang: str
    table: Mapping[str, str]

    def __call__(self, key: str, **values: object) -> str:
        """The sentence ``key`` as plain text, its ``values`` filled in."""
        return self.table[key].format(**values, **{MATH_FIELD: _MATH})

    def parts(self, key: str, **values: object) -> tuple[Part, ...]:
        """The sentence ``key`` as pieces: its words (with ``values`` filled in; a value
        that is pieces itself is spliced in) and the math it names, for a writer to print
        each with its own printer."""
        out: list[Part] = []
        for literal, field, spec, conversion in Formatter().parse(self.table[key]):
            if literal:
                out.append(literal)
            if field is None:
                continue
            if field == MATH_FIELD:
                out.append(MathName(spec or ""))
                continue
            value = values[field]
            if isinstance(value, tuple):
                out.extend(value)
            else:
                out.append(format(repr(value) if conversion == "r" else value, spec or ""))
        return tuple(out)

    def template(self, key: str) -> str:
        """The template of ``key`` for a script to fill (the self-check page's): its math
        printed as plain text, its other fields left as they are."""
        return _MATH_NAMED.sub(lambda m: _MATH_PRINTER[0](m.group(1)), self.table[key])

    def title_parts(self, step_id: str, variant: str | None = None) -> tuple[Part, ...]:
        """:meth:`title` as pieces (a head's title names the head with math between)."""
        head, base = split_id(step_id)
        key = f"title.{variant or base}"
        key = key if key in self.table else f"title.{base}"
        title = self.parts(key) if key in self.table else (base,)
        return self.parts("head", head=head, title=title) if head is not None else title

    def title(self, step_id: str, variant: str | None = None) -> str:
        """The title of a step (``variant`` picks another wording: ``X_given``, …);
        a head's step names its head."""
        head, base = split_id(step_id)
        key = f"title.{variant or base}"
        key = key if key in self.table else f"title.{base}"
        title = self(key) if key in self.table else base
        return self("head", head=head, title=title) if head is not None else title

    def heading(self, number: int, title: str) -> str:
        return self("step_heading", n=number, title=title)

    def has(self, key: str) -> bool:
        return key in self.table


#: The modules of each language's words, merged in this order when the language is first
#: asked for (a run in one language loads no other's words: start-up, issue 24).
_AREAS = ("", "classroom_", "given_", "notes_", "office_", "summary_", "topics_")
_LANGUAGES: dict[str, Words] = {}


def words(lang: str) -> Words:
    """The words of one language (``en`` or ``zh``)."""
    try:
        return _LANGUAGES[lang]
    except KeyError:
        if lang not in LANGUAGES:
            raise SymattnError(
                f"language: expected one of {', '.join(LANGUAGES)}, found {lang!r}"
            ) from None
    table: dict[str, str] = {}
    for area in _AREAS:
        table.update(importlib.import_module(f".{area}{lang}", __name__).WORDS)
    made = _LANGUAGES[lang] = Words(lang, table)
    return made
