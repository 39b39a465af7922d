"""The class at a glance as one self-contained HTML page (``grade --summary x.html``).

The page has the counts of :mod:`.summary`: the most common first error, a stacked bar
per step (right, carried forward, wrong, missing), the mistakes with the students who
made them, the first errors, and the scores as a histogram of CSS bars.  No script,
no image, nothing fetched: it shares the shell and style sheet of every page
(:mod:`symattn.render.html_page`).

Each step's row carries ``data-step`` and one ``data-<group>`` count per group; the most
common first error ``data-most-common``; each mistake ``data-mistake``, each first error
``data-first-error`` and each bin ``data-bin``, with ``data-count``: for tests and scripts.
"""

from __future__ import annotations

from ..render import esc, page
from ..words import Words, words
from .summary import CATEGORIES, ClassSummary, Counted

__all__ = ["render_summary_html"]

#: The page's own styles: the stacked bars and the histogram.
STYLE = """<style>
.bar{display:flex;height:1.1rem;min-width:8rem;border-radius:3px;overflow:hidden;\
background:var(--box)}
.bar span{display:block;height:100%}
.g-right{background:#2da44e}.g-carried{background:#bf8700}.g-wrong{background:#cf222e}\
.g-missing{background:#afb8c1}
.key span.sw{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;\
vertical-align:-.05rem;margin:0 .3rem 0 .8rem}
table.counts th,table.counts td{border-bottom:1px solid var(--rule);padding:.3rem .6rem;\
text-align:left;vertical-align:top}
table.counts td.n{text-align:right;white-space:nowrap}
table.counts td.who{min-width:10rem}
.hist{display:flex;align-items:flex-end;gap:.25rem;height:11rem;margin:.8rem 0 0;\
border-bottom:1px solid var(--ink)}
.hist .bin{flex:1;display:flex;flex-direction:column;justify-content:flex-end;\
align-items:center;height:100%;min-width:0}
.hist .col{width:100%;background:#4360a1;border-radius:3px 3px 0 0}
.hist .n{font-size:.85rem}
.labels{display:flex;gap:.25rem}
.labels span{flex:1;text-align:center;font-size:.7rem;color:var(--muted);min-width:0;\
overflow-wrap:anywhere}
</style>
"""


def _names(names: tuple[str, ...], w: Words) -> str:
    return esc(w("list.sep").join(names))


def _share(summary: ClassSummary, count: int, of: int | None = None) -> str:
    return f"{round(float(summary.share(count, of)))} %"


def _key(w: Words) -> str:
    return (
        '<p class="key muted">'
        + "".join(
            f'<span class="sw g-{g}"></span>{esc(w(f"summary.group.{g}"))}' for g in CATEGORIES
        )
        + "</p>"
    )


def _steps(summary: ClassSummary, w: Words) -> str:
    head = "".join(
        f'<th scope="col">{esc(h)}</th>'
        for h in (w("summary.step"), "", *(w(f"summary.group.{g}") for g in CATEGORIES))
    )
    rows = []
    for step_id, title, groups in summary.steps:
        counts = {g: len(groups[g]) for g in CATEGORIES}
        asked = sum(counts.values())  # the students whose sheet asks for the step
        data = " ".join(f'data-{g}="{counts[g]}"' for g in CATEGORIES)
        bar = "".join(
            f'<span class="g-{g}" style="width:{float(summary.share(counts[g], asked)):.1f}%" '
            f'title="{esc(w(f"summary.group.{g}"))}: {counts[g]}"></span>'
            for g in CATEGORIES
            if counts[g]
        )
        cells = "".join(
            f'<td class="n" title="{_names(groups[g], w)}">{counts[g]} '
            f'<span class="muted">({_share(summary, counts[g], asked)})</span></td>'
            for g in CATEGORIES
        )
        rows.append(
            f'<tr data-step="{esc(step_id)}" {data}><th scope="row">{esc(title)}</th>'
            f'<td><div class="bar">{bar}</div></td>{cells}</tr>'
        )
    return (
        f'<div class="scroll"><table class="counts steps"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _counted(
    summary: ClassSummary, items: tuple[Counted, ...], w: Words, what: str, first: str
) -> str:
    heads = [first, w("summary.in_steps")] if what == "mistake" else [first]
    heads += [w("summary.students"), w("summary.names")]
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in heads)
    titles = {step_id: title for step_id, title, _ in summary.steps}
    rows = []
    for c in items:
        shown = w("list.sep").join(titles.get(s, s) for s in c.detail)
        steps = f"<td>{esc(shown)}</td>" if what == "mistake" else ""
        label = f"{esc(c.title)} <code>{esc(c.id)}</code>" if what == "mistake" else esc(c.title)
        rows.append(
            f'<tr data-{what}="{esc(c.id)}" data-count="{c.count}"><th scope="row">{label}</th>'
            f'{steps}<td class="n">{c.count} <span class="muted">({_share(summary, c.count)})'
            f'</span></td><td class="who">{_names(c.students, w)}</td></tr>'
        )
    return (
        f'<div class="scroll"><table class="counts"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _histogram(summary: ClassSummary) -> str:
    top = max((b.count for b in summary.histogram), default=0) or 1
    bins = "".join(
        f'<div class="bin" data-bin="{esc(b.id)}" data-count="{b.count}" '
        f'title="{esc(b.title)}: {b.count}"><span class="n">{b.count or ""}</span>'
        f'<span class="col" style="height:{80 * b.count / top:.1f}%"></span></div>'
        for b in summary.histogram
    )
    labels = "".join(f"<span>{esc(b.title)}</span>" for b in summary.histogram)
    return f'<div class="hist">{bins}</div><div class="labels">{labels}</div>'


def render_summary_html(summary: ClassSummary, lang: str = "en") -> str:
    """The page of ``summary``, in ``lang``."""
    w = words(lang)
    missing = summary.students - summary.marked - summary.unmarked
    counts = w(
        "summary.counts",
        students=summary.students,
        marked=summary.marked,
        missing=missing,
        unmarked=summary.unmarked,
    )
    body = [f'<p class="sub">{esc(counts)}</p>']
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
        body.append(
            f'<p class="verdict bad" data-most-common="{esc(top[0].id)}">{esc(sentence)}</p>'
        )
    else:
        body.append(f'<p class="verdict ok">{esc(w("summary.no_first_error"))}</p>')
    body += [
        f"<h2>{esc(w('summary.steps'))}</h2>",
        f"<p>{esc(w('summary.steps_about'))}</p>",
        _key(w),
        _steps(summary, w),
        f"<h2>{esc(w('summary.mistakes'))}</h2>",
    ]
    if summary.mistakes:
        body += [
            f"<p>{esc(w('summary.mistakes_about'))}</p>",
            _counted(summary, summary.mistakes, w, "mistake", w("summary.mistake")),
        ]
    else:
        body.append(f"<p>{esc(w('summary.no_mistakes'))}</p>")
    if summary.first_errors:
        body += [
            f"<h2>{esc(w('summary.first_errors'))}</h2>",
            _counted(summary, summary.first_errors, w, "first-error", w("summary.step")),
        ]
    body += [
        f"<h2>{esc(w('summary.scores'))}</h2>",
        f"<p>{esc(w('summary.scores_about'))}</p>",
        _histogram(summary),
    ]
    return page(w("summary.title", name=summary.name), "\n".join(body), lang, head=STYLE)
