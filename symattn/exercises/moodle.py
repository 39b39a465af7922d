"""A Moodle XML question bank: one Cloze ("embedded answers") question per exercise.

Each question's text is a document (:func:`.question.question_document`: what the sheet
gives, as HTML tables — not LaTeX, which depends on a Moodle site's filters — then, step
by step, a table with one field per entry, :mod:`.cloze`), written by render's ``moodle``
writer; this module puts it in the XML: the question's name, its text in CDATA, the
general feedback, the penalty, and the category.

>>> from symattn.compute import derivation
>>> from symattn.load import load
>>> key = derivation(load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...                        "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}))
>>> xml = moodle_quiz([QuizItem("Ada", key, 4, ("Q",))])
>>> xml.count('<question type="cloze">'), "{1:NUMERICAL:=1:0.0001#Right.}" in xml
(1, True)
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from ..render import render
from ..words import Words, words
from .cloze import tolerance
from .question import QuizItem, question_document

__all__ = ["QuizItem", "moodle_quiz"]

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(text: object) -> str:
    return html.escape(str(text), quote=False)


def _question_text(item: QuizItem, w: Words) -> str:
    """The question's text: its document written as Moodle's question HTML."""
    return render(question_document(item, w.lang), "moodle", lang=w.lang)


def _cdata(text: str) -> str:
    """A CDATA section; a ``]]>`` inside is split across two sections."""
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _xml_text(text: str) -> str:
    return html.escape(text, quote=False)


def _category(path: str) -> str:
    full = path if path.startswith("$") else f"$course$/top/{path}"
    return (
        '  <question type="category">\n'
        f"    <category>\n      <text>{_xml_text(full)}</text>\n    </category>\n"
        "  </question>\n"
    )


def _question(item: QuizItem, w: Words) -> str:
    general = w("moodle.general", tolerance=tolerance(item.places))
    return (
        '  <question type="cloze">\n'
        f"    <name>\n      <text>{_xml_text(item.name)}</text>\n    </name>\n"
        '    <questiontext format="html">\n'
        f"      <text>{_cdata(_question_text(item, w))}</text>\n"
        "    </questiontext>\n"
        '    <generalfeedback format="html">\n'
        f"      <text>{_cdata(f'<p>{_esc(general)}</p>')}</text>\n"
        "    </generalfeedback>\n"
        "    <penalty>0.3333333</penalty>\n"
        "    <hidden>0</hidden>\n"
        "  </question>\n"
    )


def moodle_quiz(items: Sequence[QuizItem], lang: str = "en", category: str | None = None) -> str:
    """A Moodle XML question bank (Question bank → Import → Moodle XML format): a
    category when given (``Week 5`` is put under ``$course$/top/``), then one Cloze
    question per item.  See docs/moodle.md."""
    w = words(lang)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n']
    if category is not None:
        parts.append(_category(category))
    parts.extend(_question(item, w) for item in items)
    parts.append("</quiz>\n")
    return _NOT_XML.sub("", "".join(parts))
