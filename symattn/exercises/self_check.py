"""The offline self-check page: the given matrices, a box per entry, marked as one types.

:func:`render_self_check` writes one self-contained HTML5 page (its style, script and
data inline; nothing fetched, so it works from ``file://``): the given matrices and
sentences of the exercise sheet, typeset as on the derivation page; then, for each step,
one ``<input>`` per entry laid out as the matrix.  The page is a document
(:func:`self_check_document`: the blocks of :mod:`symattn.render`, the page's own among
them — an ``AnswerGrid`` per step, a ``DiagnosisTemplate`` per mistake it can name, its
data and its scripts) written by the HTML writer.  The page marks the whole sheet
as it is typed, as ``symattn check`` marks it: the reader of answers is a port of
symattn's own (``self_check_reader.js``), and ``self_check_marking.js`` works the typed
numbers through the rules that :mod:`.page_rules` writes into the page (carried rounding,
carried-forward entries, the mistakes, two at once, slips).  The key is in the page's
data: **the page contains the answers** in its source.  What is typed is kept in the
browser per ``page_id`` and downloaded as ``answers.json``.

Inputs carry ``data-step``, ``data-row``, ``data-col`` (1-based) and, once something is
typed, ``data-status`` (``ok``, ``carried``, ``wrong``, ``too_coarse``, ``invalid``); a diagnosis
shows as an element with ``data-diagnosis`` (the mistake's id).

>>> import symattn
>>> key = symattn.derive({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> text = render_self_check(key, steps=["weights", "output"])
>>> text.count("<input"), 'data-step="weights" data-row="1" data-col="2"' in text
(3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from importlib import resources
from math import isqrt
from typing import Any

from ..check import answer_steps
from ..check.mistakes import mistake_name
from ..check.naming import Naming, entry_name
from ..check.tables import mistake_tables
from ..derivation import Derivation
from ..errors import SymattnError
from ..formula import Cell, Join, Label, Line, Lit, Math, Name, Relation, Sub, Sym, Table, Value
from ..messages import Message
from ..numbers import Surd
from ..render import (
    AnswerGrid,
    Block,
    DiagnosisTemplate,
    Display,
    Document,
    HandIn,
    Main,
    MaskMatrix,
    Noscript,
    PageData,
    PageSection,
    Script,
    Sentence,
    Tally,
    Tokens,
    View,
    Vocabulary,
    render,
    scale_note,
    title_of,
    view_of,
)
from ..steps import Kind
from ..version import __version__
from ..words import Words, words
from .given import given_of
from .page_rules import marking_data, nameable
from .script_words import script_words

__all__ = ["SCRIPTS", "SELF_CHECK_CSS", "render_self_check", "script", "self_check_document"]

#: The page's scripts, in the order the page loads them.
SCRIPTS = ("self_check_reader.js", "self_check_marking.js", "self_check.js")

#: The page's own style: the answer grids, the marks, and what print and a phone do.
#: The page's style sheet (self_check.css beside this module).
SELF_CHECK_CSS = resources.files(__package__).joinpath("self_check.css").read_text("utf-8")


@cache
def script(name: str) -> str:
    """One of the page's scripts (``self_check_reader.js``, ``self_check.js``)."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    if "</" in text:  # would close the inline <script> early
        raise ValueError(f"{name} must not contain '</'")
    return text


def _decimal(value: Decimal | None) -> str:
    return "0" if value is None else str(value)


def _written(view: View, values: Any) -> list[list[str]]:
    """A step's values as its layout writes them (the column layout: transposed)."""
    return [[_decimal(v) for v in row] for row in view.matrix(values)]


def _table(matrix: Sequence[Sequence[object]]) -> Table:
    """A given matrix in full (an exercise needs every entry: nothing elided)."""
    cells = tuple(tuple(Cell(x) for x in row) for row in matrix)
    return Table(cells, tuple(range(len(matrix))), tuple(range(len(matrix[0]))))


def _default_steps(key: Derivation, vocabulary: bool) -> list[str]:
    """Every answer step but those the problem gives (X, unless it is looked up from
    text; dO when it is given).  The lookup (ids, X) is asked for only when the page can
    show the whole vocabulary and table (else showing the rows used would give it away)."""
    lookup = () if vocabulary else ("tokens", "X")
    return [s for s in answer_steps(key) if key.step(s).kind != Kind.GIVEN and s not in lookup]


# -- the given part ---------------------------------------------------------------------
def _vocabulary(
    text: str, vocabulary: Sequence[tuple[str, Sequence[object]]], w: Words
) -> list[Block]:
    """The sentence, the whole vocabulary (id = position) and the whole embedding table."""
    labels = (w("sheet.vocabulary"), w("sheet.token"), w("sheet.id"))
    tokens = tuple(token for token, _ in vocabulary)
    table = [[Surd.rational(Fraction(str(v))) for v in row] for _, row in vocabulary]
    return [
        Vocabulary(w("sheet.sentence"), text, *labels, tokens),
        Sentence.of(*w.parts("sheet.embedding")),
        Display((Line(Sym("E"), (("=", _table(table)),), breaks=False),)),
    ]


def _given(
    key: Derivation, w: Words, vocabulary: Sequence[tuple[str, Sequence[object]]] = ()
) -> PageSection[Block]:
    p = key.problem
    g = given_of(key, w)  # the key's own Given: sizes, matrices in its layout, the topic
    out: list[Block] = [g.sizes]
    lookup = p.lookup
    if lookup is not None and vocabulary:
        out += _vocabulary(lookup.text, vocabulary, w)
    elif lookup is not None:
        out.append(Sentence.of(*w.parts("derive.split")))
        pieces = Join(tuple(Label(t) for t in lookup.tokens), "bar")
        ids = Join(
            tuple(Relation(Label(t), "↦", Lit(str(i))) for t, i in zip(lookup.tokens, lookup.ids)),
            "list",
        )
        split = [Line(Label(lookup.text), (("→", pieces),), breaks=False)]
        out.append(Display((*split, Line(None, (("", ids),), breaks=False))))
        out.append(Sentence.of(*w.parts("selfcheck.embedding")))
        assert p.X is not None
        rows: dict[int, tuple[str, tuple[object, ...]]] = {}
        for token, token_id, row in zip(lookup.tokens, lookup.ids, p.X):
            rows.setdefault(token_id, (token, row))
        lines = [
            Line(Sub(Sym("E"), f"{token_id},:"), (("=", _table([row])),), breaks=False, note=token)
            for token_id, (token, row) in sorted(rows.items())
        ]
        out.append(Display(tuple(lines)))
    elif p.tokens:
        out.append(Tokens(w("sheet.tokens"), tuple(p.tokens)))
    given = [Line(Name("X"), (("=", g.X),), breaks=False)] if lookup is None and g.X else []
    given += [Line(Name(name), (("=", table),), breaks=False) for name, table in g.compact]
    keys = g.matrices.lines if g.matrices is not None else ()
    shown = {name for name, _ in g.compact} | {getattr(x.lhs, "matrix", None) for x in keys}
    view = view_of(p.layout)
    given += [
        Line(Name(name), (("=", _table(view.given(name, getattr(p, name)))),), breaks=False)
        for name in ("W_O", "dO")
        if getattr(p, name) is not None and name not in shown
    ]
    given += keys  # the key's own (W_O among them), in the problem's layout
    if p.target is not None:  # the loss ½‖O − T‖² gives dO = O − T
        target = _table(view.given("target", p.target))
        given.append(Line(Sym("T"), (("=", target),), breaks=False))
    out.append(Display(tuple(given)))
    out.append(_scale(key, w))
    out += [note for note in g.notes if isinstance(note, Sentence)]
    out += _mask(key, w)
    return PageSection("given", w("given"), tuple(out))


def _scale(key: Derivation, w: Words) -> Sentence:
    p = key.problem
    if p.scale is None:
        square = isqrt(p.d_k) ** 2 == p.d_k
        said = w.parts("derive.no_scale") if square else w.parts("sheet.no_scale", d_k=p.d_k)
        note = scale_note(p)  # a topic divides them alone (the temperature)
        if note is not None:
            said = w.parts(note)
        return Sentence.of(*said)
    c: Math = Value(p.scale)
    if p.scale_label == "sqrt(d_k)":
        c = Relation(Sym("sqrt_dk"), "=", Value(p.scale))
    return Sentence((w("sheet.scale") + " ", c, w("period")))


def _mask(key: Derivation, w: Words) -> list[Block]:
    p = key.problem
    if p.mask is None or p.mask_label == "none":
        return []
    if p.mask_label == "causal":
        return [Sentence.of(*w.parts("sheet.causal"))]
    keep = view_of(p.layout).matrix(p.mask)  # keys × queries in the column layout
    said = Sentence.of(*w.parts("selfcheck.mask")).parts
    return [MaskMatrix(said, tuple(tuple(bool(k) for k in row) for row in keep))]


# -- one step: its boxes ----------------------------------------------------------------
def _grid(key: Derivation, step_id: str, number: int, w: Words) -> AnswerGrid:
    """The step's boxes as its layout writes it (the column layout: transposed); a box's
    row and column are the written ones, its name the written entry's."""
    step = key.step(step_id)
    view = view_of(key.problem.layout)
    rows, cols = view.shape(*step.shape)
    row_labels, col_labels = step.row_labels, step.col_labels
    if view.columns:
        row_labels, col_labels = col_labels, row_labels
    names = tuple(tuple(entry_name(step_id, i, j) for j in range(cols)) for i in range(rows))
    title = w.heading(number, title_of(step, w))
    return AnswerGrid(
        step_id, number, title, Name(step_id), rows, cols, row_labels, col_labels, names
    )


def _diagnoses(
    key: Derivation, steps: list[str], places: int | None, w: Words
) -> tuple[dict[str, list[dict[str, Any]]], list[DiagnosisTemplate]]:
    """Per step, the mistakes that show in it (their values), and a template each (their
    sentence, set as on the feedback page)."""
    found: dict[str, list[dict[str, Any]]] = {s: [] for s in steps}
    templates: list[DiagnosisTemplate] = []
    view = view_of(key.problem.layout)  # the page writes each step as its layout does
    variant = Naming(key.problem.layout).variant
    for table in mistake_tables(key, places):
        for step_id, values in table.values.items():
            if step_id not in found:
                continue
            number = len(templates)
            name = mistake_name(w, table.id, variant)
            templates.append(DiagnosisTemplate(number, table.id, name, table.message(step_id)))
            found[step_id].append(
                {
                    "id": table.id,
                    "weaker": table.mistake.weaker,
                    "template": number,
                    "values": _written(view, values),
                }
            )
    named: dict[str, int] = {}  # a mistake named without its numbers: the slip, a pair, …
    for step_id in steps:
        shown = {m["id"] for m in found[step_id]}
        for mistake_id in nameable(key, step_id):
            if mistake_id in shown:
                continue
            if mistake_id not in named:
                named[mistake_id] = len(templates)
                why = f"selfcheck.why.{mistake_id}"  # a sentence without its numbers
                said = Message(why) if w.has(why) else None
                name = mistake_name(w, mistake_id, variant)
                templates.append(DiagnosisTemplate(named[mistake_id], mistake_id, name, said))
            found[step_id].append(
                {"id": mistake_id, "weaker": False, "template": named[mistake_id], "values": None}
            )
    return found, templates


def self_check_document(
    key: Derivation,
    lang: str = "en",
    places: int | None = 4,
    steps: Sequence[str] | None = None,
    title: str | None = None,
    vocabulary: Sequence[tuple[str, Sequence[object]]] = (),
    page_id: str | None = None,
) -> Document:
    """The self-check page of one exercise (``key``) as a document, in ``lang``: what it
    says first, then its main part (the given section, an :class:`AnswerGrid` per step),
    a :class:`DiagnosisTemplate` per mistake it can name, its data and its scripts.

    ``steps``: the steps to answer (default: every answer step but the given ones);
    ``places``: the decimal places an inexact answer must have (None: any);
    ``vocabulary``: the whole vocabulary of a problem that starts from text, each token
    with its embedding row in id order — then the lookup (ids, X) can be asked for;
    ``page_id``: whose page it is (classroom/page_ids.py), kept with what is typed and
    written into the answers file the page downloads."""
    w = words(lang)
    problem = key.problem
    if problem.symbolic:
        raise SymattnError("a self-check page needs numbers; this problem is symbolic")
    allowed = answer_steps(key)
    chosen = list(steps) if steps is not None else _default_steps(key, bool(vocabulary))
    if problem.lookup is not None and not vocabulary and {"tokens", "X"} & set(chosen):
        raise SymattnError(
            "steps: the lookup (tokens, X) can be asked for only with the whole vocabulary"
        )
    unknown = [s for s in chosen if s not in allowed]
    if unknown or not chosen:
        raise SymattnError(
            f"steps: expected some of {', '.join(allowed)}, found {', '.join(unknown) or 'none'}"
        )
    view = view_of(problem.layout)
    mistakes, templates = _diagnoses(key, chosen, places, w)
    data = {
        "lang": lang,
        "page_id": page_id,
        "places": places,
        "words": script_words(w, places),
        "steps": [
            {
                "id": step_id,
                "key": _written(view, key.step(step_id).values),
                "mistakes": mistakes[step_id],
                "title": title_of(key.step(step_id), w),
            }
            for step_id in chosen
        ],
        "marking": marking_data(key),
    }
    intro = w("selfcheck.places", places=places) if places else w("selfcheck.no_places")
    main: tuple[Block, ...] = (
        _given(key, w, vocabulary),
        *(_grid(key, s, k, w) for k, s in enumerate(chosen, start=1)),
    )
    blocks: tuple[Block, ...] = (
        Sentence((f"{w('selfcheck.intro')} {intro}",)),
        Noscript(w("selfcheck.noscript")),
        Tally(),
        HandIn(w("selfcheck.download"), w("selfcheck.kept")),
        Main(main),
        *templates,
        PageData("symattn-self-check", data),
        *(Script(name, script(name)) for name in SCRIPTS),
    )
    return Document(
        title or problem.title or w("title"),
        blocks,
        subtitle=w("selfcheck.subtitle"),
        footer=w("selfcheck.footer", version=__version__),
        lang=lang,
        renames=problem.renames,
        kind="self_check",
        style=SELF_CHECK_CSS,
    )


def render_self_check(
    key: Derivation,
    lang: str = "en",
    places: int | None = 4,
    steps: Sequence[str] | None = None,
    title: str | None = None,
    notation: str = "matrix",
    vocabulary: Sequence[tuple[str, Sequence[object]]] = (),
    page_id: str | None = None,
) -> str:
    """The self-check page of one exercise (``key``), in ``lang``: its document
    (:func:`self_check_document`, which says what the arguments are) written as HTML,
    its names in ``notation``."""
    document = self_check_document(key, lang, places, steps, title, vocabulary, page_id)
    return render(document, "html", lang=lang, notation=notation)
