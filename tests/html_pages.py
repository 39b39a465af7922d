"""Reading an HTML page the way the tests need it, with the standard library only.

:class:`PageReader` (an :class:`html.parser.HTMLParser`) checks that every element is
closed in order, and collects what the tests look at: ``<html lang>``, every ``src``
and ``href``, the ids, the headings, the text a reader sees (outside ``<style>``), the
words outside formulas, and the style sheet.  :func:`math_elements` parses every
``<math>`` of a page as XML.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from xml.etree import ElementTree

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
#: The elements of MathML Core (what Chromium typesets).
MATHML = {
    "math", "mrow", "mi", "mn", "mo", "mtext", "mspace", "ms", "mfrac", "msqrt", "mroot",
    "msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts",
    "mprescripts", "none", "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom",
    "merror", "semantics", "annotation", "annotation-xml",
}  # fmt: skip
#: What a page must never show as text: LaTeX commands, $$ and stray alignment marks.
RAW_TEX = re.compile(r"\\[A-Za-z]+|\$\$|\\\\|\\\[")
#: English words that would mean an English sentence on a Chinese page.
ENGLISH = re.compile(r"\b(?:the|is|are|of|and|each|your|entry|given|expected|wrong)\b", re.I)


class PageReader(HTMLParser):
    """One pass over a page: structure errors and what a reader sees."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang: str | None = None
        self.srcs: list[str] = []
        self.hrefs: list[str] = []
        self.ids: list[str] = []
        self.headings: dict[str, list[str]] = {}
        self.text: list[str] = []  # everything a reader sees
        self.prose: list[str] = []  # outside formulas and the <h1> (the problem's title)
        self.style = ""
        self.scripts = 0
        self.errors: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.lang = values.get("lang")
        self.scripts += tag == "script"
        for name, value in attrs:
            if name == "src":
                self.srcs.append(value or "")
            elif name == "href":
                self.hrefs.append(value or "")
            elif name == "id":
                self.ids.append(value or "")
        if tag in ("h1", "h2", "h3"):
            self.headings.setdefault(tag, []).append("")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.errors.append(f"self-closed <{tag}/>")
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        inside = set(self.stack)
        if "style" in inside:
            self.style += data
            return
        if "title" in inside or "head" in inside:
            return
        self.text.append(data)
        heading = next((t for t in reversed(self.stack) if t in ("h1", "h2", "h3")), None)
        if heading is not None:
            self.headings[heading][-1] += data
        if "math" not in inside and "h1" not in inside:
            self.prose.append(data)

    @property
    def visible(self) -> str:
        return " ".join(self.text)


def read_page(text: str) -> PageReader:
    reader = PageReader()
    reader.feed(text)
    reader.close()
    if reader.stack:
        reader.errors.append(f"never closed: {reader.stack}")
    return reader


def math_elements(text: str) -> list[ElementTree.Element]:
    """Every ``<math>`` of the page, parsed as XML (so each must be well-formed)."""
    return [ElementTree.fromstring(m) for m in re.findall(r"<math\b.*?</math>", text, re.S)]


def h2_titles(reader: PageReader) -> list[str]:
    return [" ".join(h.split()) for h in reader.headings.get("h2", [])]
