"""Messages as data: what a diagnosis, a note or an error says, kept as a key of
:mod:`symattn.words` and typed facts, and filled in only when a writer writes it.

A check result holds :class:`Message` objects, never sentences: the language is chosen
where the result is written (``--lang``), and each writer fills the same template with
its own printer — the terminal's entry names are ``a₁,₂``, LaTeX's ``$a_{1,2}$``, the HTML
page's MathML.  Facts are typed so a writer knows what it is writing: an :class:`Entries`
fact is entry names joined with the language's own list words, a :class:`Title` the title
of a step in the language, a :class:`Math` fact a formula tree (:mod:`symattn.formula`),
a :class:`Joined` fact several messages, a nested :class:`Message` a phrase of words; a
plain ``str`` is text that is not words (what a student typed, a file name) and a number
is written as it is.

>>> from symattn.words import words
>>> note = Message.of("note.carried", steps=Titles(("Q", "K")))
>>> say(note, Voice.plain(words("en")))
'your method is right for the numbers you used; the error comes from Queries, Keys'
>>> say(note, Voice.plain(words("zh")))
'对你所用的数值，方法是对的；错误来自计算查询向量、计算键向量'
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from string import Formatter
from typing import Any, Union

from .formula import Math as Formula
from .formula import Sym
from .printing import TERMINAL
from .record import Record
from .words import MATH_FIELD, MathName, Part, Words

__all__ = [
    "Entries",
    "Fact",
    "Joined",
    "Math",
    "Message",
    "Piece",
    "Title",
    "Titles",
    "Voice",
    "said_in",
    "say",
    "say_fact",
]


#: A piece of a sentence: words, a formula, or the math the words name.
Piece = Union[str, Formula, MathName]


class Entries(Record):
    """Entries of a step, 0-based and as the student's paper writes them (a column-layout
    student's (j, i)): ``a₁,₁, a₁,₂ and a₂,₁``, shortened past six."""

    step: str
    cells: tuple[tuple[int, int], ...]


class Title(Record):
    """The title of a step in the writer's language; ``variant`` picks another wording of
    it (``X_given``: the embeddings were given, not looked up)."""

    step: str
    variant: str | None = None


class Titles(Record):
    """Several steps' titles, joined with the language's list separator."""

    steps: tuple[str | Title, ...]


class Math(Record):
    """A formula tree of :mod:`symattn.formula` (or an exact SymPy value), printed by the
    writer's own math printer."""

    node: Any


class Joined(Record):
    """Several facts (phrases, numbers …), joined with the words of ``separator`` (a key
    of words/)."""

    items: tuple[Fact, ...]
    separator: str = "list.sep2"


#: What a fact can be.
Fact = Union[str, int, Decimal, Fraction, Entries, Title, Titles, Math, Joined, "Message"]


class Message(Record):
    """A key of :mod:`symattn.words` and the facts its template names; ``variant`` picks
    the template ``key.variant`` where the language has one (``column``: the words of the
    column layout); ``then`` is said right after it (a sentence's ending)."""

    key: str
    facts: tuple[tuple[str, Fact], ...] = ()
    variant: str | None = None
    then: Message | None = None

    @classmethod
    def of(cls, key: str, variant: str | None = None, **facts: Fact) -> Message:
        return cls(key, tuple(facts.items()), variant)

    def fact(self, name: str) -> Fact:
        return dict(self.facts)[name]

    def followed_by(self, ending: Message) -> Message:
        return Message(self.key, self.facts, self.variant, ending)


class Voice(Record):
    """How one writer writes the pieces of a message: ``text`` escapes words and typed text
    for the format, ``math`` prints a :class:`Math` fact's tree (and the math a sentence
    names, ``{math:sqrt_dk}``, as the symbol of that name), ``entry`` names entry (i, j)
    of a step, 0-based as written."""

    words: Words
    text: Callable[[str], str]
    math: Callable[[Any], str]
    entry: Callable[[str, int, int], str]

    @classmethod
    def plain(cls, words: Words, math: Callable[[Any], str] = str) -> Voice:
        """Unicode text, as the terminal and JSON write it (``math``: the terminal's
        printer, :func:`symattn.render.text_voice` gives it)."""
        return cls(words, _same, math, TERMINAL.entry)


def _same(text: str) -> str:
    return text


def say(message: Message, voice: Voice) -> str:
    """``message`` in ``voice``'s language and format."""
    return _say(message, voice)


def _say(message: Message, voice: Voice) -> str:
    words = voice.words
    key = message.key
    if message.variant is not None and words.has(f"{key}.{message.variant}"):
        key = f"{key}.{message.variant}"
    facts = dict(message.facts)
    out: list[str] = []
    for literal, field, spec, _ in Formatter().parse(words.table[key]):
        if literal:
            out.append(voice.text(literal))
        if field == MATH_FIELD:
            out.append(voice.math(Sym(spec or "")))
        elif field is not None:
            out.append(_fill(facts[field], voice, spec or ""))
    said = "".join(out)
    return said + _say(message.then, voice) if message.then is not None else said


def _fill(fact: Fact, voice: Voice, spec: str) -> str:
    if isinstance(fact, Message):
        return _say(fact, voice)
    if isinstance(fact, Entries):
        return _entries(fact, voice)
    if isinstance(fact, Title):
        return _parts(voice.words.title_parts(fact.step, fact.variant), voice)
    if isinstance(fact, Titles):
        titles = [t if isinstance(t, Title) else Title(t) for t in fact.steps]
        return voice.text(voice.words("list.sep")).join(_fill(t, voice, "") for t in titles)
    if isinstance(fact, Math):
        return voice.math(fact.node)
    if isinstance(fact, Joined):
        separator = voice.text(voice.words(fact.separator))
        return separator.join(_fill(item, voice, "") for item in fact.items)
    return voice.text(format(fact, spec))


def _parts(parts: tuple[Part, ...], voice: Voice) -> str:
    """Pieces of a sentence (:meth:`~symattn.words.Words.parts`) in ``voice``."""
    return "".join(
        voice.math(Sym(p.name)) if isinstance(p, MathName) else voice.text(p) for p in parts
    )


def say_fact(fact: Fact, voice: Voice) -> str:
    """One fact, written in ``voice`` (a phrase that is not a whole message)."""
    return _fill(fact, voice, "")


def _entries(fact: Entries, voice: Voice) -> str:
    names = [voice.entry(fact.step, i, j) for i, j in fact.cells]
    words, text = voice.words, voice.text
    if len(names) > 6:
        return _filled(
            words,
            "list.many",
            voice,
            first=text(words("list.sep")).join(names[:3]),
            count=text(str(len(names))),
        )
    if len(names) == 1:
        return names[0]
    items = text(words("list.sep")).join(names[:-1])
    return _filled(words, "list.and", voice, items=items, last=names[-1])


def _filled(words: Words, key: str, voice: Voice, **written: str) -> str:
    """A template of ``words`` whose facts are already written in the voice's format."""
    out: list[str] = []
    for literal, field, spec, _ in Formatter().parse(words.table[key]):
        if literal:
            out.append(voice.text(literal))
        if field == MATH_FIELD:
            out.append(voice.math(Sym(spec or "")))
        elif field is not None:
            out.append(written[field])
    return "".join(out)


def said_in(message: Message | None, voice: Voice) -> str | None:
    """``message`` in the voice, or None for no message."""
    return None if message is None else say(message, voice)
