r"""MathML from the LaTeX that :class:`~.tex.TexPrinter` prints, for the HTML pages.

Each formula is converted by ``latex2mathml`` (pure Python) and then made to render in
MathML Core, the MathML that Chromium implements (Firefox reads it too), by changes to
the tree (docs/html.md has the table):

* the lines of a display are one ``<mtable>`` built here, a row per line and two
  columns (right-aligned left side, left-aligned rest), instead of ``aligned``, which
  latex2mathml turns into stray ``&`` characters;
* every ``\text{…}`` (tokens, words inside formulas) is set aside before the
  conversion and put back as an ``<mtext>`` of exactly that text, because
  latex2mathml reads neither LaTeX's text escapes nor leaves ``<`` alone;
* table rules and column alignment (``columnlines``, ``rowlines``, ``columnalign``,
  which MathML Core leaves out) become CSS on the cells;
* a prime follows its letter at the letter's size; a minus after a relation or an
  opening fence is a sign; ``\left( \right)`` stretch only around something tall;
  the accents ``\tilde`` and ``\hat`` get their spacing characters; no space around
  ``/`` or after a comma in a subscript, as in TeX.

The result is an :class:`~xml.etree.ElementTree.Element`, written out by
:func:`serialize` with every text escaped.

>>> serialize(math_element(r"\sqrt{2}"))
'<math display="inline"><mrow><msqrt><mrow><mn>2</mn></mrow></msqrt></mrow></math>'
>>> serialize(math_element(r"\text{<pad>}"))
'<math display="inline"><mrow><mtext>&lt;pad&gt;</mtext></mrow></math>'
"""

from __future__ import annotations

import re
from html import escape, unescape
from xml.etree.ElementTree import Element, SubElement

from .tex import TEXT_MATH
from .tex_text import untransliterate

__all__ = ["display_element", "math_element", "serialize", "split_alignment", "text_unescape"]

_TEXT = re.compile(r"\\text\{((?:\\[A-Za-z]+\{\}|\\.|[^{}\\])*)\}")
_UNESCAPE = re.compile(r"\\(textbackslash|textasciicircum|textasciitilde)\{\}|\\([{}$&#_%])")
_NAMED = {"textbackslash": "\\", "textasciicircum": "^", "textasciitilde": "~"}
_SIGNS_BACK = {tex: sign for sign, tex in TEXT_MATH.items()}
_SIGN = re.compile(r"\\ensuremath\{(" + "|".join(re.escape(t) for t in _SIGNS_BACK) + r")\}")
_ENV = re.compile(r"\\(begin|end)\{[^}]*\}|\\.|&", re.S)
_ACCENTS = {"~": "\u02dc", "^": "\u02c6"}
_PRIMES = ("′", "″", "‴")
_TALL = ("mfrac", "mtable", "munderover", "munder", "mover")
_SIGNS = ("−", "+", "±")
_CLOSING = (")", "]", "|", "}")
_LINE = "solid"
#: Chromium aligns a cell's math (a block) by -webkit-left/-right; Firefox reads
#: columnalign, and text-align where it has no -webkit- value.
_ALIGN = {
    "left": "text-align:left;text-align:-webkit-left",
    "right": "text-align:right;text-align:-webkit-right",
}


def text_unescape(text: str) -> str:
    r"""Text as :func:`~.tex.text_escape` wrote it, read back.

    >>> text_unescape(r"50\% of a\_1 \& \{x\} \textbackslash{}")
    '50% of a_1 & {x} \\'
    >>> text_unescape(r"I\ensuremath{\to}I, \ensuremath{-}2")
    'I→I, −2'
    """
    text = _SIGN.sub(lambda m: _SIGNS_BACK[m.group(1)], untransliterate(text))
    return _UNESCAPE.sub(lambda m: _NAMED[m.group(1)] if m.group(1) else m.group(2), text)


def split_alignment(line: str) -> tuple[str, str]:
    r"""An aligned LaTeX line cut at its alignment ``&`` (not one inside a matrix).

    >>> split_alignment(r"Q &= \begin{bmatrix} 1 & 2 \end{bmatrix}")
    ('Q ', '= \\begin{bmatrix} 1 & 2 \\end{bmatrix}')
    >>> split_alignment("x = 1")
    ('', 'x = 1')
    """
    depth = 0
    for match in _ENV.finditer(line):
        token = match.group()
        if match.group(1) == "begin":
            depth += 1
        elif match.group(1) == "end":
            depth -= 1
        elif token == "&" and depth == 0:
            return line[: match.start()], line[match.end() :]
    return "", line


def _restore(element: Element, texts: dict[str, str]) -> None:
    """Put the words back, and make what MathML Core leaves out into CSS."""
    for node in element.iter():
        node.tag = node.tag.rpartition("}")[2]
        if node.tag == "mtext" and node.text in texts:
            node.text = texts[node.text]
        elif node.text:  # latex2mathml keeps character references as text
            node.text = unescape(node.text)
    for node in list(element.iter()):
        if node.tag == "mover" and len(node) == 2 and node[1].tag == "mo":
            accent = _ACCENTS.get(node[1].text or "")
            if accent is not None:
                node[1].text = accent
                node[1].attrib.pop("stretchy", None)
                node.set("accent", "true")
        elif node.tag in ("msup", "msubsup") and (node[-1].text or "") in _PRIMES:
            _prime(node)
        elif node.tag == "mo" and node.text == "∞":
            node.tag = "mi"  # an ordinary symbol, as in TeX: −∞ without a gap
        elif node.tag == "mo" and node.text == "/":
            node.set("lspace", "0")  # 5√2/2 in an exponent: no space around the slash
            node.set("rspace", "0")
        elif node.tag == "mrow" and _fenced(node):
            _fences(node)
        elif node.tag == "mtable":
            _rules(node)
        align = node.get("columnalign")
        if node.tag == "mtd" and align in ("left", "right"):
            _style(node, _ALIGN[align])
    _spacing(element)


def _prime(node: Element) -> None:
    """s'_{1,2}: the prime after the letter at the letter's size, as TeX sets it (as a
    superscript, Chromium draws the prime too small to see)."""
    base, prime = node[0], node[-1]
    prime.tag = "mo"
    prime.attrib.clear()
    prime.attrib.update(lspace="0", rspace="0")
    if node.tag == "msup":
        node.tag = "mrow"
        return
    primed = Element("mrow")
    primed.extend([base, prime])
    node.remove(base)
    node.remove(prime)
    node.insert(0, primed)
    node.tag = "msub"


def _fenced(row: Element) -> bool:
    """``\\left( … \\right)``: an mrow between a prefix and a postfix fence."""
    return (
        len(row) >= 3
        and row[0].tag == "mo"
        and row[0].get("form") == "prefix"
        and row[-1].tag == "mo"
        and row[-1].get("form") == "postfix"
    )


def _fences(row: Element) -> None:
    """Put what is between the fences in its own mrow, so that a leading minus is a
    sign and the fences stretch to the inside only; and stretch them only around
    something tall (Chromium sets a stretchy fence wide apart from a short inside)."""
    inside = list(row)[1:-1]
    if len(inside) > 1:
        group = Element("mrow")
        group.extend(inside)
        for child in inside:
            row.remove(child)
        row.insert(1, group)
    tall = any(n.tag in _TALL for child in inside for n in child.iter())
    if not tall:
        row[0].set("stretchy", "false")
        row[-1].set("stretchy", "false")


def _spacing(element: Element) -> None:
    """TeX's spacing where MathML's differs: a sign after a relation or an opening
    fence is not a subtraction; a comma in a subscript has no space after it."""
    for node in element.iter():
        previous: Element | None = None
        for child in node:
            if child.tag == "mo" and child.text in _SIGNS:
                if previous is None or (previous.tag == "mo" and previous.text not in _CLOSING):
                    child.set("form", "prefix")
                elif previous.tag == "mspace":
                    child.set("form", "infix")  # a sum broken onto a new line: + term
            previous = child
        if node.tag in ("msub", "msup", "msubsup"):
            for script in list(node)[1:]:
                for mo in script.iter("mo"):
                    if mo.text == ",":
                        mo.set("rspace", "0")


def _rules(table: Element) -> None:
    """``columnlines``/``rowlines`` of an ``mtable`` as borders of its cells."""
    columns = table.attrib.pop("columnlines", "").split()
    rows = table.attrib.pop("rowlines", "").split()
    for r, row in enumerate(child for child in table if child.tag == "mtr"):
        below = rows[min(r, len(rows) - 1)] == _LINE if rows else False
        for c, cell in enumerate(row):
            right = columns[min(c, len(columns) - 1)] == _LINE if columns else False
            if right and c < len(row) - 1:
                _style(cell, "border-right:1px solid")
            if below and r < len(table) - 1:
                _style(cell, "border-bottom:1px solid")


def _style(node: Element, rule: str) -> None:
    old = node.get("style")
    node.set("style", f"{old};{rule}" if old else rule)


def _convert(latex: str, display: bool) -> Element:
    from latex2mathml.converter import convert_to_element  # lazily: 30 ms at start-up

    texts: dict[str, str] = {}

    def aside(match: re.Match[str]) -> str:
        key = f"T{len(texts)}T"
        texts[key] = text_unescape(match.group(1))
        return rf"\text{{{key}}}"

    element = convert_to_element(
        _TEXT.sub(aside, latex), xmlns="", display="block" if display else "inline"
    )
    _restore(element, texts)
    element.attrib.pop("xmlns", None)
    return element


def math_element(latex: str, display: bool = False) -> Element:
    """One formula as a ``<math>`` element."""
    return _convert(latex, display)


def display_element(lines: list[str]) -> Element:
    """Displayed lines, each with one alignment ``&``, as a block ``<math>`` whose
    ``<mtable>`` has a row per line: the left side right-aligned, the rest left-aligned
    (cells of class ``r`` and ``l``; the page's style sheet aligns them as ``_ALIGN``)."""
    math = Element("math", display="block")
    table = SubElement(math, "mtable", {"class": "lines"})
    for line in lines:
        row = SubElement(table, "mtr")
        for k, part in enumerate(split_alignment(line)):
            side = "right" if k == 0 else "left"
            cell = SubElement(
                row, "mtd", {"columnalign": side, "class": side[0], "displaystyle": "true"}
            )
            if part.strip():
                cell.extend(list(_convert(part, display=True)))
    return math


def serialize(element: Element) -> str:
    """An element as HTML: every start tag closed, every text and attribute escaped."""
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in element.attrib.items())
    inner = escape(element.text or "", quote=False)
    inner += "".join(serialize(child) for child in element)
    out = f"<{element.tag}{attrs}>{inner}</{element.tag}>"
    return out + escape(element.tail or "", quote=False)
