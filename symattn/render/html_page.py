"""The shell of every HTML page symattn writes: one self-contained file.

:func:`page` wraps a body in an HTML5 document with its style sheet inlined (screen,
phone width and print), ``lang`` on ``<html>``, and nothing fetched from anywhere:
no ``src``, no outside ``href``, no script unless a page brings its own (inline).
The pieces here — the page, the style sheet, :func:`heatmap_html` — are shared by
the derivation page (:mod:`.html`) and the feedback page.

>>> text = page("T", "<p>x</p>", "zh")
>>> text.startswith('<!DOCTYPE html>\\n<html lang="zh">'), "@media print" in text
(True, True)
"""

from __future__ import annotations

from html import escape

from ..version import __version__
from .blocks import Heatmap

__all__ = ["CSS", "FRAGMENT_CSS", "esc", "fragment", "heatmap_html", "page", "shade"]

#: The style sheet of every page: readable from a phone's 375 px up, and in print.
CSS = """\
:root{--ink:#1b1f24;--muted:#57606a;--rule:#d0d7de;--box:#f6f8fa;--link:#0b57d0;\
--ok:#1a7f37;--bad:#c0362c;--warn:#9a6700}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0 auto;max-width:56rem;padding:1rem 1rem 3rem;color:var(--ink);background:#fff;\
font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",\
"PingFang SC","Microsoft YaHei",sans-serif;overflow-wrap:break-word}
h1{font-size:1.55rem;line-height:1.25;margin:.6rem 0 .4rem}
h2{font-size:1.2rem;line-height:1.3;margin:2.2rem 0 .6rem;padding-top:.8rem;\
border-top:1px solid var(--rule)}
h3{font-size:1.05rem;margin:1.4rem 0 .4rem}
p{margin:.5rem 0}
a{color:var(--link)}
math{font-family:"Latin Modern Math","STIX Two Math","Cambria Math",math;font-size:1.12em}
mtext{font-family:"Latin Modern Math","STIX Two Math","Cambria Math","Noto Serif CJK SC",\
"Source Han Serif SC","Songti SC","SimSun",serif}
.sub{color:var(--muted);margin:0 0 1rem}
.display{overflow-x:auto;overflow-y:hidden;margin:.5rem 0;padding:.35rem .75rem;\
border-radius:6px;background-color:var(--box);\
background-image:linear-gradient(to right,var(--box) 40%,#f6f8fa00),\
linear-gradient(to left,var(--box) 40%,#f6f8fa00),\
radial-gradient(farthest-side at 0 50%,#0003,#0000),\
radial-gradient(farthest-side at 100% 50%,#0003,#0000);\
background-position:0 0,100% 0,0 0,100% 0;background-repeat:no-repeat;\
background-size:2rem 100%,2rem 100%,.7rem 100%,.7rem 100%;\
background-attachment:local,local,scroll,scroll}
mtable:not(.lines)>mtr>mtd:first-child{padding-left:.25em}
mtable:not(.lines)>mtr>mtd:last-child{padding-right:.25em}
.display>math{display:block math;width:max-content;margin:0 auto;font-size:1.15em}
mtable.lines>mtr>mtd{padding:.3em 0}
mtd.r{text-align:right;text-align:-webkit-right}
mtd.l{text-align:left;text-align:-webkit-left}
figure{margin:.8rem 0}
figcaption{margin-bottom:.2rem}
nav.toc{font-size:.92rem;border:1px solid var(--rule);border-radius:6px;padding:.4rem .9rem;\
margin:1rem 0}
nav.toc summary{cursor:pointer;font-weight:600}
nav.toc ol{margin:.3rem 0 .3rem;padding-left:1.4rem}
.scroll{overflow-x:auto;margin:.5rem 0}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
table.heat th,table.heat td{padding:.3rem .55rem;text-align:center;white-space:nowrap}
table.heat th{font-weight:600}
table.heat th[scope=row]{text-align:right}
table.heat td{border:1px solid #fff;min-width:3.4rem}
table.entries th,table.entries td{border-bottom:1px solid var(--rule);padding:.3rem .7rem;\
text-align:left;white-space:nowrap}
table.entries td:nth-child(2){white-space:normal;overflow-wrap:anywhere;min-width:4rem}
.ok{color:var(--ok)}
.bad{color:var(--bad)}
.muted{color:var(--muted)}
.badge{display:inline-block;border-radius:1rem;padding:0 .6rem;font-size:.85rem;\
font-weight:600;border:1px solid currentColor;white-space:nowrap}
.verdict{font-size:1.1rem;font-weight:600;padding:.6rem .9rem;border-radius:6px;\
border-left:5px solid currentColor;background:var(--box)}
.diagnosis{border-left:3px solid var(--warn);padding:.2rem .8rem;margin:.6rem 0}
section.first{border-left:4px solid var(--bad);padding-left:.8rem}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
footer{margin-top:3rem;font-size:.85rem;color:var(--muted);border-top:1px solid var(--rule);\
padding-top:.6rem}
@media (max-width:30rem){body{padding:.6rem .7rem 2rem;font-size:15px}\
h1{font-size:1.3rem}h2{font-size:1.08rem}.display{padding:.3rem .45rem}}
@media print{
@page{margin:16mm 14mm}
body{max-width:none;padding:0;font-size:10.5pt;color:#000}
nav.toc,footer{display:none}
h2{break-after:avoid;border-top:none;margin-top:1.2rem}
.display{overflow:visible;background:none;padding:0;break-inside:avoid}
.display>math{width:auto}
.scroll{overflow:visible}
table.heat,table.entries{break-inside:avoid}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
a{color:inherit;text-decoration:none}
}
"""


def esc(text: str) -> str:
    """Text (or an attribute value) made safe for HTML."""
    return escape(text, quote=True)


def shade(value: float) -> tuple[str, str]:
    """Background and ink of a heatmap cell: white to blue as the weight goes 0 → 1, and
    black or white ink, whichever contrasts more with it.

    >>> shade(0.0), shade(1.0)
    (('#ffffff', '#000000'), ('#4360a1', '#ffffff'))
    """
    t = max(0.0, min(1.0, value)) * 0.82
    rgb = [round(255 + (c - 255) * t) for c in (26, 61, 140)]
    linear = [(c / 255) ** 2.2 for c in rgb]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    ink = "#ffffff" if (1.05 / (luminance + 0.05)) > ((luminance + 0.05) / 0.05) else "#000000"
    return "#" + "".join(f"{c:02x}" for c in rgb), ink


def heatmap_html(block: Heatmap) -> str:
    """The weights as a table of shaded cells, the tokens beside and above."""
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in block.cols)
    rows = []
    for name, values, labels in zip(block.rows, block.values, block.labels):
        cells = []
        for value, text in zip(values, labels):
            if text == "⋯":
                cells.append('<td class="muted">⋯</td>')
                continue
            background, ink = shade(value)
            cells.append(f'<td style="background:{background};color:{ink}">{esc(text)}</td>')
        rows.append(f'<tr><th scope="row">{esc(name)}</th>{"".join(cells)}</tr>')
    return (
        f'<figure class="heatmap"><figcaption>{esc(block.caption)}</figcaption>'
        f'<div class="scroll"><table class="heat"><thead><tr><td></td>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></figure>"
    )


def page(title: str, body: str, lang: str, *, footer: str = "", head: str = "") -> str:
    """A whole HTML5 document: ``body`` under an ``<h1>`` of ``title``, in ``lang``;
    ``head`` adds to the ``<head>`` (a page's own inline style or script)."""
    foot = f"<footer>{footer}</footer>" if footer else ""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="symattn {esc(__version__)}">\n'
        f"<title>{esc(title)}</title>\n<style>\n{CSS}</style>\n{head}</head>\n"
        f"<body>\n<h1>{esc(title)}</h1>\n{body}\n{foot}\n</body>\n</html>\n"
    )


#: The few rules a fragment brings (a notebook's output), all under ``.symattn``, so that
#: the notebook's own styles are left alone: marks in colour, hidden labels hidden,
#: wide formulas and tables scrolling in their box.
FRAGMENT_CSS = (
    ".symattn .ok{color:#1a7f37}.symattn .bad{color:#c0362c}.symattn .muted,.symattn .sub"
    "{color:#57606a}.symattn .vh{position:absolute;width:1px;height:1px;overflow:hidden;"
    "clip-path:inset(50%);white-space:nowrap}.symattn .display,.symattn .scroll"
    "{overflow-x:auto}.symattn .diagnosis{border-left:3px solid #9a6700;padding:0 .8rem}"
)


def fragment(title: str, body: str, lang: str) -> str:
    """``body`` under its title as a fragment of a page (no document, no page style
    sheet): what a notebook shows."""
    return (
        f'<div class="symattn" lang="{esc(lang)}"><style>{FRAGMENT_CSS}</style>\n'
        f"<p><strong>{esc(title)}</strong></p>\n{body}\n</div>"
    )
