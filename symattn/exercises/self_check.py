"""The offline self-check page: the given matrices, a box per entry, marked as one types.

:func:`render_self_check` writes one self-contained HTML5 page (its style, script and
data inline; nothing fetched, so it works from ``file://``): the given matrices and
sentences of the exercise sheet, typeset as on the derivation page; then, for each step,
one ``<input>`` per entry laid out as the matrix.  The page marks the whole sheet as it is
typed, as ``symattn check`` marks it: the reader of answers is a port of symattn's own
(``self_check_reader.js``), and ``self_check_marking.js`` works the typed numbers through
the rules that :mod:`.page_rules` writes into the page (carried rounding, carried-forward
entries, the mistakes, two at once, slips).  The key is in the page's data: **the page
contains the answers** in its source.  What is typed is kept in the browser per
``page_id`` and downloaded as ``answers.json``.

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

import json
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
from ..messages import say
from ..numbers import Surd
from ..printing import Notation
from ..render import (
    Display,
    Sentence,
    TexPrinter,
    View,
    display_html,
    esc,
    html_voice,
    inline_html,
    math_element,
    page,
    scale_note,
    sentence_html,
    serialize,
    title_of,
    view_of,
)
from ..steps import Kind
from ..version import __version__
from ..words import Words, words
from .given import given_of
from .page_rules import marking_data, nameable
from .script_words import script_words

__all__ = ["SCRIPTS", "SELF_CHECK_CSS", "render_self_check", "script"]

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


def _json(data: Any) -> str:
    """JSON that can stand inside a ``<script>`` element as it is."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


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
def _vocabulary_html(
    text: str, vocabulary: Sequence[tuple[str, Sequence[object]]], w: Words, printer: TexPrinter
) -> list[str]:
    """The sentence, the whole vocabulary (id = position) and the whole embedding table."""
    head = "".join(f"<td>{esc(token)}</td>" for token, _ in vocabulary)
    ids = "".join(f"<td>{i}</td>" for i in range(len(vocabulary)))
    table = [[Surd.rational(Fraction(str(v))) for v in row] for _, row in vocabulary]
    return [
        f"<p>{esc(w('sheet.sentence'))} {esc(text)}</p>",
        f"<p>{esc(w('sheet.vocabulary'))}</p>",
        f'<div class="scroll"><table class="vocabulary"><tr><th scope="row">'
        f'{esc(w("sheet.token"))}</th>{head}</tr><tr><th scope="row">{esc(w("sheet.id"))}'
        f"</th>{ids}</tr></table></div>",
        f"<p>{esc(w('sheet.embedding'))}</p>",
        display_html(Display((Line(Sym("E"), (("=", _table(table)),), breaks=False),)), printer),
    ]


def _given(
    key: Derivation,
    w: Words,
    printer: TexPrinter,
    vocabulary: Sequence[tuple[str, Sequence[object]]] = (),
) -> list[str]:
    p = key.problem
    out = [f'<section id="given"><h2>{esc(w("given"))}</h2>']
    g = given_of(key, w)  # the key's own Given: sizes, matrices in its layout, the topic
    assert isinstance(g.sizes, Sentence)
    out.append(sentence_html(g.sizes, printer))
    lookup = p.lookup
    if lookup is not None and vocabulary:
        out += _vocabulary_html(lookup.text, vocabulary, w, printer)
    elif lookup is not None:
        out.append(sentence_html(Sentence.of(*w.parts("derive.split")), printer))
        pieces = Join(tuple(Label(t) for t in lookup.tokens), "bar")
        ids = Join(
            tuple(Relation(Label(t), "↦", Lit(str(i))) for t, i in zip(lookup.tokens, lookup.ids)),
            "list",
        )
        split = [Line(Label(lookup.text), (("→", pieces),), breaks=False)]
        out.append(display_html(Display((*split, Line(None, (("", ids),), breaks=False))), printer))
        out.append(sentence_html(Sentence.of(*w.parts("selfcheck.embedding")), printer))
        assert p.X is not None
        rows: dict[int, tuple[str, tuple[object, ...]]] = {}
        for token, token_id, row in zip(lookup.tokens, lookup.ids, p.X):
            rows.setdefault(token_id, (token, row))
        lines = [
            Line(Sub(Sym("E"), f"{token_id},:"), (("=", _table([row])),), breaks=False, note=token)
            for token_id, (token, row) in sorted(rows.items())
        ]
        out.append(display_html(Display(tuple(lines)), printer))
    elif p.tokens:
        out.append(f"<p>{esc(w('sheet.tokens'))} {esc(', '.join(p.tokens))}</p>")
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
    out.append(display_html(Display(tuple(given)), printer))
    out.append(_scale(key, w, printer))
    out += [sentence_html(note, printer) for note in g.notes if isinstance(note, Sentence)]
    out.append(_mask(key, w, printer))
    out.append("</section>")
    return [part for part in out if part]


def _scale(key: Derivation, w: Words, printer: TexPrinter) -> str:
    p = key.problem
    if p.scale is None:
        square = isqrt(p.d_k) ** 2 == p.d_k
        said = w.parts("derive.no_scale") if square else w.parts("sheet.no_scale", d_k=p.d_k)
        note = scale_note(p)  # a topic divides them alone (the temperature)
        if note is not None:
            said = w.parts(note)
        return sentence_html(Sentence.of(*said), printer)
    c: Math = Value(p.scale)
    if p.scale_label == "sqrt(d_k)":
        c = Relation(Sym("sqrt_dk"), "=", Value(p.scale))
    return sentence_html(Sentence((w("sheet.scale") + " ", c, w("period"))), printer)


def _mask(key: Derivation, w: Words, printer: TexPrinter) -> str:
    p = key.problem
    if p.mask is None or p.mask_label == "none":
        return ""
    if p.mask_label == "causal":
        return sentence_html(Sentence.of(*w.parts("sheet.causal")), printer)
    keep = view_of(p.layout).matrix(p.mask)  # keys × queries in the column layout
    rows = " \\\\ ".join(" & ".join("1" if k else "0" for k in row) for row in keep)
    matrix = serialize(math_element(f"\\begin{{bmatrix}} {rows} \\end{{bmatrix}}", display=True))
    said = sentence_html(Sentence.of(*w.parts("selfcheck.mask")), printer)
    return said + f'<div class="display">{matrix}</div>'


# -- one step: its boxes ----------------------------------------------------------------
def _grid(key: Derivation, step_id: str) -> str:
    """The step's boxes as its layout writes it (the column layout: transposed); a box's
    row and column are the written ones, its name the written entry's."""
    step = key.step(step_id)
    view = view_of(key.problem.layout)
    rows, cols = view.shape(*step.shape)
    row_labels, col_labels = step.row_labels, step.col_labels
    if view.columns:
        row_labels, col_labels = col_labels, row_labels
    head = ""
    if col_labels:
        head = "<tr><td></td>" if row_labels else "<tr>"
        head += "".join(f'<th scope="col">{esc(c)}</th>' for c in col_labels) + "</tr>"
    body = []
    for i in range(rows):
        cells = []
        if row_labels:
            cells.append(f'<th scope="row">{esc(row_labels[i])}</th>')
        for j in range(cols):
            where = f"{esc(step_id)}-{i + 1}-{j + 1}"
            side = " ".join(c for c, edge in (("l", j == 0), ("r", j == cols - 1)) if edge)
            name = entry_name(step_id, i, j)  # as written
            cells.append(
                f'<td class="{side}"><input type="text" id="in-{where}" '
                f'data-step="{esc(step_id)}" data-row="{i + 1}" data-col="{j + 1}" '
                f'aria-label="{esc(name)}" aria-describedby="mk-{where}" '
                'autocomplete="off" autocapitalize="off" spellcheck="false">'
                f'<span class="mark" id="mk-{where}"></span></td>'
            )
        edge = " ".join(c for c, on in (("t", i == 0), ("b", i == rows - 1)) if on)
        body.append(f'<tr class="{edge}">{"".join(cells)}</tr>')
    return f'<table class="grid" role="presentation">{head}{"".join(body)}</table>'


def _step(key: Derivation, step_id: str, number: int, w: Words, printer: TexPrinter) -> str:
    title = w.heading(number, title_of(key.step(step_id), w))
    name = inline_html(printer.math(Name(step_id)))
    return "\n".join(
        [
            f'<section id="step-{number}" class="step" data-step="{esc(step_id)}">',
            f'<h2 id="title-{number}">{esc(title)} <span class="tally"></span></h2>',
            f'<div class="answer" role="group" aria-labelledby="title-{number}">'
            f'<span class="lhs">{name} =</span>{_grid(key, step_id)}</div>',
            '<ul class="notes" aria-live="polite"></ul>',
            '<div class="diagnoses" aria-live="polite"></div>',
            "</section>",
        ]
    )


def _diagnoses(
    key: Derivation, steps: list[str], places: int | None, w: Words
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Per step, the mistakes that show in it (their values), and a template each (their
    sentence, set as on the feedback page)."""
    found: dict[str, list[dict[str, Any]]] = {s: [] for s in steps}
    templates: list[str] = []
    view = view_of(key.problem.layout)  # the page writes each step as its layout does
    for table in mistake_tables(key, places):
        for step_id, values in table.values.items():
            if step_id not in found:
                continue
            number = len(templates)
            message = say(table.message(step_id), html_voice(w))
            name = esc(mistake_name(w, table.id, Naming(key.problem.layout).variant))
            templates.append(
                f'<template data-template="{number}"><div class="diagnosis" '
                f'data-diagnosis="{esc(table.id)}"><strong>{name}'
                f"</strong> — {message}</div></template>"
            )
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
                name = esc(mistake_name(w, mistake_id, Naming(key.problem.layout).variant))
                why = f"selfcheck.why.{mistake_id}"  # a sentence without its numbers
                said = f" — {esc(w(why))}" if w.has(why) else ""
                templates.append(
                    f'<template data-template="{named[mistake_id]}"><div class="diagnosis" '
                    f'data-diagnosis="{esc(mistake_id)}"><strong>{name}</strong>{said}</div>'
                    "</template>"
                )
            found[step_id].append(
                {"id": mistake_id, "weaker": False, "template": named[mistake_id], "values": None}
            )
    return found, templates


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
    """The self-check page of one exercise (``key``), in ``lang``.

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
    printer = TexPrinter(Notation.build(notation, problem.renames))
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
                "key": [
                    [_decimal(v) for v in row] for row in view.matrix(key.step(step_id).values)
                ],
                "mistakes": mistakes[step_id],
                "title": title_of(key.step(step_id), w),
            }
            for step_id in chosen
        ],
        "marking": marking_data(key),
    }
    intro = w("selfcheck.places", places=places) if places else w("selfcheck.no_places")
    body = [
        f'<p class="sub">{esc(w("selfcheck.subtitle"))}</p>',
        f"<p>{esc(w('selfcheck.intro'))} {esc(intro)}</p>",
        f"<noscript><p>{esc(w('selfcheck.noscript'))}</p></noscript>",
        '<p class="tally" id="total" aria-live="polite"></p>',
        f'<p class="hand-in"><button type="button" data-action="download-answers">'
        f"{esc(w('selfcheck.download'))}</button> {esc(w('selfcheck.kept'))}</p>",
        "<main>",
        *_given(key, w, printer, vocabulary),
        *(_step(key, s, k, w, printer) for k, s in enumerate(chosen, start=1)),
        "</main>",
        *templates,
        f'<script type="application/json" id="symattn-self-check">{_json(data)}</script>',
        *(f"<script>\n{script(name)}</script>" for name in SCRIPTS),
    ]
    footer = esc(w("selfcheck.footer", version=__version__))
    head = f"<style>\n{SELF_CHECK_CSS}</style>\n"
    heading = title or problem.title or w("title")
    return page(heading, "\n".join(body), lang, footer=footer, head=head)
