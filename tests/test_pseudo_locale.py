"""No sentence bypasses words/ (issue 20): a throw-away language whose every template is
the English one wrapped in 【…】 is rendered in every format of the derivation and of
check's feedback, and the Moodle quiz; what is left of the output when every wrapped
piece, every formula and every piece of markup is taken out holds no run of English words.

A run of three words or more (letters, spaces between) is a sentence or a phrase that
someone reads; the math that is left (``exp``, ``softmax``, a token) is single words.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import symattn
import symattn.words as words_module
from symattn.check import answer_steps
from symattn.check.feedback import render_feedback_latex, render_feedback_text
from symattn.check.feedback_html import render_feedback_html
from symattn.compute import derivation
from symattn.examples import example_path
from symattn.exercises import QuizItem, moodle_quiz
from symattn.load import load
from symattn.render import RenderOptions, render
from symattn.words import Words

ROOT = Path(__file__).resolve().parent.parent
PSEUDO = "qps"
#: A problem with no title or description of its own (its author's words, not ours).
PROBLEM = {
    "tokens": ["我", "爱", "你"],
    "X": [[1, 0, 1], [0, 2, "1/2"], [1, 1, 0]],
    "W_Q": [[1, 0], ["1/2", 1], [0, 1]],
    "W_K": [[2, "1/2"], [-1, "1/2"], ["-1/2", -1]],
    "W_V": [[1, -1], [2, 2], [-1, 0]],
    "mask": "causal",
}
#: Three words or more in a row: a sentence or a phrase.
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,.;:'’0-9-]+[A-Za-z]{2,}){2,}")


def _wrapped(table: dict[str, str]) -> dict[str, str]:
    return {key: f"【{template}】" for key, template in table.items()}


@pytest.fixture()
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The language ``qps``: every English template wrapped in 【…】."""
    english = words_module.words("en")
    table = _wrapped(dict(english.table))
    monkeypatch.setitem(words_module._LANGUAGES, PSEUDO, Words(PSEUDO, table))
    yield PSEUDO


def _unwrapped(text: str) -> str:
    """``text`` without its 【…】 pieces (nested ones included)."""
    out, depth = [], 0
    for ch in text:
        if ch == "【":
            depth += 1
        elif ch == "】":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _residue(text: str, fmt: str) -> str:
    """What a reader reads that is neither wrapped words nor math nor markup."""
    text = _unwrapped(text)
    if fmt in ("html",):
        text = re.sub(r"<math\b.*?</math>", " ", text, flags=re.S)
        text = re.sub(r"<style>.*?</style>|<script\b.*?</script>", " ", text, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
    if fmt == "latex":  # the preamble: packages and fonts
        text = text[text.find("\\begin{document}") :]
    if fmt in ("latex", "markdown"):
        text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$|\\\[.*?\\\]", " ", text, flags=re.S)
        text = re.sub(r"\\begin\{(align\*|equation\*)\}.*?\\end\{\1\}", " ", text, flags=re.S)
        text = re.sub(r"\\[A-Za-z]+\*?(\[[^\]]*\])?", " ", text)
        text = re.sub(r"^%.*$", " ", text, flags=re.M)  # comments (the preamble's notes)
    return text


def _english(text: str, fmt: str) -> list[str]:
    return ENGLISH_RUN.findall(_residue(text, fmt))


def _docx_text(data: bytes) -> str:
    import docx

    document = docx.Document(io.BytesIO(data))
    return "\n".join(p.text for p in document.paragraphs)


def test_the_pseudo_language_wraps_every_template(pseudo: str) -> None:
    w = words_module.words(pseudo)
    assert w("result").startswith("【") and w.title("scores").endswith("】")
    assert _english("【Row 1, written out:】 and s₁,₂ = 3", "text") == []
    assert _english("Row 1, written out: s₁,₂", "text") == ["Row 1, written out"]


@pytest.mark.parametrize("fmt", ["text", "latex", "markdown", "html"])
def test_every_sentence_of_a_derivation_comes_from_words(pseudo: str, fmt: str) -> None:
    d = symattn.derive(PROBLEM)
    out = render(d, RenderOptions("tex" if fmt == "latex" else fmt, lang=pseudo, rows=(0, 2)))
    assert isinstance(out, str) and "【" in out
    assert _english(out, fmt) == []


@pytest.mark.slow
def test_every_sentence_of_a_word_document_comes_from_words(pseudo: str) -> None:
    d = symattn.derive(PROBLEM)
    data = render(d, RenderOptions("docx", lang=pseudo))
    assert isinstance(data, bytes)
    text = _docx_text(data)
    assert "【" in text
    assert _english(text, "text") == []


@pytest.mark.parametrize("fmt", ["text", "latex", "html"])
def test_every_sentence_of_check_feedback_comes_from_words(pseudo: str, fmt: str) -> None:
    result = symattn.check(example_path("seed"), ROOT / "docs/examples/answers-no-scaling.json")
    if fmt == "text":
        out = render_feedback_text(result, lang=pseudo)
    elif fmt == "latex":
        out = render_feedback_latex(result, lang=pseudo)
    else:
        out = render_feedback_html(result, lang=pseudo)
    assert "【" in out
    # the answers file's path is the student's, not a sentence of ours
    assert _english(out.replace(result.source, " "), fmt) == []


def _quiz(lang: str) -> str:
    """A Moodle quiz of every step of PROBLEM (the masked scores' −∞ among them)."""
    key = derivation(load(dict(PROBLEM)))
    steps = tuple(s for s in answer_steps(key) if s != "X")
    return moodle_quiz([QuizItem("q", key, 4, steps)], lang=lang, category="c")


def test_every_sentence_of_the_moodle_quiz_comes_from_words(pseudo: str) -> None:
    """The question's text, its fields' feedback and its general feedback; the fields'
    markup (``NUMERICAL``) is single words."""
    out = _quiz(pseudo)
    assert "【" in out
    assert _english(out, "html") == []
    assert _english(_quiz("en"), "html")  # in English, the sentences are what is left


@pytest.mark.parametrize("fmt", ["text", "latex", "markdown", "html"])
def test_the_residue_of_english_output_is_its_sentences(fmt: str) -> None:
    """The test above would see a sentence that bypassed words/: in English, where no
    template is wrapped, the sentences are what is left."""
    out = render(symattn.derive(PROBLEM), RenderOptions("tex" if fmt == "latex" else fmt))
    assert isinstance(out, str)
    found = _english(out, fmt)
    assert any(run.startswith("The scores are divided by") for run in found), found
