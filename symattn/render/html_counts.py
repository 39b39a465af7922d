"""HTML for the class at a glance: the stacked bars of each step, tables of counts and a
histogram of CSS bars (no script, no image), and the styles they need."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .html_page import esc

if TYPE_CHECKING:
    from .report_blocks import Bars, Counts, Histogram, Legend

__all__ = ["COUNTS_STYLE", "bars_html", "counts_html", "histogram_html", "legend_html"]

#: The styles of the stacked bars and the histogram, in the page's head.
COUNTS_STYLE = """<style>
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


def legend_html(block: Legend) -> str:
    swatches = "".join(f'<span class="sw g-{g}"></span>{esc(name)}' for g, name in block.groups)
    return f'<p class="key muted">{swatches}</p>'


def bars_html(block: Bars) -> str:
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in block.heads)
    rows = []
    for row in block.rows:
        data = " ".join(f'data-{g}="{count}"' for g, count, *_ in row.groups)
        bar = "".join(
            f'<span class="g-{g}" style="width:{width:.1f}%" title="{esc(name)}: {count}"></span>'
            for g, count, width, _, _, name in row.groups
            if count
        )
        cells = "".join(
            f'<td class="n" title="{esc(names)}">{count} <span class="muted">({share})</span></td>'
            for _, count, _, share, names, _ in row.groups
        )
        rows.append(
            f'<tr data-step="{esc(row.step_id)}" {data}><th scope="row">{esc(row.title)}</th>'
            f'<td><div class="bar">{bar}</div></td>{cells}</tr>'
        )
    return (
        f'<div class="scroll"><table class="counts steps"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def counts_html(block: Counts) -> str:
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in block.heads)
    rows = []
    for c in block.rows:
        steps = "" if c.steps is None else f"<td>{esc(c.steps)}</td>"
        label = f"{esc(c.title)} <code>{esc(c.id)}</code>" if c.code else esc(c.title)
        rows.append(
            f'<tr data-{block.what}="{esc(c.id)}" data-count="{c.count}"><th scope="row">'
            f'{label}</th>{steps}<td class="n">{c.count} <span class="muted">({c.share})'
            f'</span></td><td class="who">{esc(c.names)}</td></tr>'
        )
    return (
        f'<div class="scroll"><table class="counts"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def histogram_html(block: Histogram) -> str:
    top = max((b.count for b in block.bins), default=0) or 1
    bins = "".join(
        f'<div class="bin" data-bin="{esc(b.id)}" data-count="{b.count}" '
        f'title="{esc(b.title)}: {b.count}"><span class="n">{b.count or ""}</span>'
        f'<span class="col" style="height:{80 * b.count / top:.1f}%"></span></div>'
        for b in block.bins
    )
    labels = "".join(f"<span>{esc(b.title)}</span>" for b in block.bins)
    return f'<div class="hist">{bins}</div><div class="labels">{labels}</div>'
