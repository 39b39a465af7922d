"""The class at a glance as one self-contained HTML page (``grade --summary x.html``).

The page has the counts of :mod:`.summary`: the most common first error, a stacked bar
per step (right, carried forward, wrong, missing), the mistakes with the students who
made them, the first errors, and the scores as a histogram of CSS bars.  No script,
no image, nothing fetched: it is a document (:func:`summary_page_document`) written by
the HTML writer, with the shell and style sheet of every page.

Each step's row carries ``data-step`` and one ``data-<group>`` count per group; the most
common first error ``data-most-common``; each mistake ``data-mistake``, each first error
``data-first-error`` and each bin ``data-bin``, with ``data-count``: for tests and scripts.
"""

from __future__ import annotations

from ..render import (
    BarRow,
    Bars,
    Bin,
    Block,
    CountRow,
    Counts,
    Document,
    Headline,
    Histogram,
    Legend,
    Sentence,
    SubHeading,
    render,
)
from ..words import Words, words
from .summary import CATEGORIES, ClassSummary, Counted

__all__ = ["render_summary_html", "summary_page_document"]


def _share(summary: ClassSummary, count: int, of: int | None = None) -> str:
    return f"{round(float(summary.share(count, of)))} %"


def _bars(summary: ClassSummary, w: Words) -> Bars:
    heads = (w("summary.step"), "", *(w(f"summary.group.{g}") for g in CATEGORIES))
    rows = []
    for step_id, title, groups in summary.steps:
        counts = {g: len(groups[g]) for g in CATEGORIES}
        asked = sum(counts.values())  # the students whose sheet asks for the step
        cells = tuple(
            (
                g,
                counts[g],
                float(summary.share(counts[g], asked)),
                _share(summary, counts[g], asked),
                w("list.sep").join(groups[g]),
                w(f"summary.group.{g}"),
            )
            for g in CATEGORIES
        )
        rows.append(BarRow(step_id, title, cells))
    return Bars(heads, tuple(rows))


def _counts(
    summary: ClassSummary, items: tuple[Counted, ...], w: Words, what: str, first: str
) -> Counts:
    mistake = what == "mistake"
    heads = [first, w("summary.in_steps")] if mistake else [first]
    heads += [w("summary.students"), w("summary.names")]
    titles = {step_id: title for step_id, title, _ in summary.steps}
    rows = tuple(
        CountRow(
            c.id,
            c.title,
            mistake,
            w("list.sep").join(titles.get(s, s) for s in c.detail) if mistake else None,
            c.count,
            _share(summary, c.count),
            w("list.sep").join(c.students),
        )
        for c in items
    )
    return Counts(what, tuple(heads), rows)


def _words(text: str) -> Sentence:
    return Sentence((text,))


def summary_page_document(summary: ClassSummary, lang: str = "en") -> Document:
    """The class at a glance as a document: the counts, the most common first error, a
    stacked bar per step, the mistakes and the first errors with who made them, and a
    histogram of the scores."""
    w = words(lang)
    missing = summary.students - summary.marked - summary.unmarked
    counts = w(
        "summary.counts",
        students=summary.students,
        marked=summary.marked,
        missing=missing,
        unmarked=summary.unmarked,
    )
    blocks: list[Block] = []
    top = summary.most_common_first_error
    if top:
        names = tuple(n for c in top for n in c.students)
        sentence = w(
            "summary.first_error",
            steps=w("list.sep").join(c.title for c in top),
            count=top[0].count,
            students=summary.students,
            names=w("list.sep").join(names),
        )
        blocks.append(Headline(sentence, False, top[0].id))
    else:
        blocks.append(Headline(w("summary.no_first_error"), True))
    legend = Legend(tuple((g, w(f"summary.group.{g}")) for g in CATEGORIES))
    blocks += [
        SubHeading(w("summary.steps")),
        _words(w("summary.steps_about")),
        legend,
        _bars(summary, w),
        SubHeading(w("summary.mistakes")),
    ]
    if summary.mistakes:
        blocks += [
            _words(w("summary.mistakes_about")),
            _counts(summary, summary.mistakes, w, "mistake", w("summary.mistake")),
        ]
    else:
        blocks.append(_words(w("summary.no_mistakes")))
    if summary.first_errors:
        blocks += [
            SubHeading(w("summary.first_errors")),
            _counts(summary, summary.first_errors, w, "first-error", w("summary.step")),
        ]
    blocks += [
        SubHeading(w("summary.scores")),
        _words(w("summary.scores_about")),
        Histogram(tuple(Bin(b.id, b.title, b.count) for b in summary.histogram)),
    ]
    title = w("summary.title", name=summary.name)
    return Document(title, tuple(blocks), subtitle=counts, lang=lang, kind="report")


def render_summary_html(summary: ClassSummary, lang: str = "en") -> str:
    """The page of ``summary``, in ``lang``: :func:`summary_page_document` written by the
    HTML writer."""
    return render(summary_page_document(summary, lang), "html", lang=lang)
