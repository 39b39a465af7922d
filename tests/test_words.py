"""One source of truth for words: every format shows the same titles, in both languages,
and the library's messages never name the command's flags."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from string import Formatter

import pytest

import symattn
from symattn.cli import main
from symattn.examples import example_names, example_path
from symattn.render.symbols import TEX_SYMBOLS, UNICODE_SYMBOLS
from symattn.words import LANGUAGES, MATH_FIELD, MathName, words

from .helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent


def _titles_in(text: str, fmt: str) -> list[str]:
    if fmt == "json":
        return [s["title"] for s in json.loads(text)["steps"]]
    if fmt == "tex":
        found = re.findall(r"\\section\*\{(?:Step|第) ?(\d+)[^:：]*[:：] ?(.*)\}", text)
    elif fmt == "markdown":
        found = re.findall(r"^## (?:Step|第) ?(\d+)[^:：]*[:：] ?(.*)$", text, re.M)
    else:
        found = re.findall(r"^(?:Step|第) ?(\d+)[^:：]*[:：] ?(.*)$", text, re.M)
    return [title.replace("\\_", "_") for _, title in found]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["seed", "multihead", "causal"])
def test_every_format_has_the_same_titles(name: str, lang: str) -> None:
    titles = {}
    for fmt in ("text", "json", "tex", "markdown"):
        status, out, err = run_cli(["derive", "--example", name, "--format", fmt, "--lang", lang])
        assert status == 0, err
        titles[fmt] = _titles_in(out, fmt)
    assert titles["json"], titles
    assert titles["text"] == titles["json"] == titles["tex"] == titles["markdown"], titles


def test_json_titles_follow_the_language() -> None:
    _, out, _ = run_cli(["derive", "--example", "seed", "--format", "json", "--lang", "zh"])
    steps = {s["id"]: s["title"] for s in json.loads(out)["steps"]}
    assert steps["Q"] == "计算查询向量" and steps["weights"] == "Softmax 归一化：注意力权重"


def test_both_languages_have_the_same_words() -> None:
    en, zh = words("en").table, words("zh").table
    assert set(en) == set(zh)
    for key, text in en.items():  # what fills the English sentence fills the Chinese one
        assert set(re.findall(r"\{(\w+)\}", zh[key])) <= set(re.findall(r"\{(\w+)\}", text)), key


def test_chinese_output_has_no_english_sentence() -> None:
    status, out, _ = run_cli(["derive", "--example", "seed", "--lang", "zh"])
    assert status == 0
    prose = re.sub(r"[A-Za-z_]+[\d₀-₉ᵢⱼₖ,′̃ᵀ⁽⁾⁰-⁹]*", "", out)  # formulas and names out
    assert not re.search(r"\b(?:the|is|are|of|and|each)\b", out), out
    assert "：" in prose


def test_library_messages_never_name_command_flags() -> None:
    """The library says max_size=…, tolerance: …; only the command says --max-size."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "symattn").rglob("*.py")
                       if "cli" not in p.parts)  # fmt: skip
    flags = re.findall(r'SymattnError\(\s*f?"(--[a-z-]+)', source)
    assert not flags, flags
    with pytest.raises(symattn.SymattnError) as raised:
        symattn.load({"Q": [[1]] * 130, "K": [[1]], "V": [[1]]})
    assert "max_size=130" in str(raised.value) and "--" not in str(raised.value)
    assert "--max-size 130" in raised.value.command_line()


def test_help_is_current() -> None:
    for command, stale in (("check", "--example"), ("exercises", "only 1 for now")):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer), pytest.raises(SystemExit):
            main([command, "--help"])
        assert stale not in buffer.getvalue(), (command, stale)
    status, _, err = run_cli([])
    assert status == 2 and "derive, check, exercises, grade or examples" in err


def test_docs_cite_only_the_projects_own_pages() -> None:
    for path in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md",
                 *(ROOT / "symattn").rglob("*.py")]:  # fmt: skip
        assert "SPEC" not in path.read_text(encoding="utf-8").replace("SPECIALS", ""), path


def test_every_example_loads() -> None:
    for name in example_names():
        assert symattn.load(example_path(name)).n >= 1


# -- the words carry no math (issue 20) -----------------------------------------------------

#: Unicode that is math, never words: roots, subscripts and superscripts, primes, the
#: minus sign, ∞, ≈, the dot of a product, Greek letters, W_Q-style names.
_MATH_IN_WORDS = re.compile(
    r"[√ᵢⱼₖ₀-₉⁰-⁹′−∞≈·²βγεμστθΣ]|\b[Wb]_(?:Q|K|V|O|1|2)\b|\bd_(?:k|model)\b"
)


def _literal_text(template: str) -> str:
    return "".join(literal for literal, _, _, _ in Formatter().parse(template))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_words_carry_no_math(lang: str) -> None:
    """Math is named, ``{math:sqrt_dk}``, and printed by each writer's own printer."""
    found = {
        key: _MATH_IN_WORDS.findall(_literal_text(template))
        for key, template in words(lang).table.items()
    }
    assert {k: v for k, v in found.items() if v} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_math_the_words_name_has_a_symbol_in_every_printer(lang: str) -> None:
    named = {
        spec
        for template in words(lang).table.values()
        for _, field, spec, _ in Formatter().parse(template)
        if field == MATH_FIELD
    }
    assert named and named <= set(TEX_SYMBOLS) and named <= set(UNICODE_SYMBOLS)
    plain = words(lang)("diagnosis.root_dk", sqrt="√2")
    assert plain == "√d_k = √2"
    assert words(lang).parts("diagnosis.root_dk", sqrt="√2") == (MathName("sqrt_dk"), " = ", "√2")


def test_no_module_digs_math_out_of_sentences() -> None:
    """No ``latex_message``: a writer fills a template with its printer."""
    root = Path(symattn.__file__).parent
    assert [p.name for p in root.rglob("*.py") if "latex_message" in p.read_text("utf-8")] == []


# -- no bare math between the words either -------------------------------------------------

#: Math written as bare text, which LaTeX and HTML would set upright: a lone index or
#: variable (i, j, k, n, m, w, t, x) between spaces or punctuation, ≤ ≥, an ``s_ij``-style
#: subscript, √ ², exp( max( |…|, a formula of single letters (``R = X + O``, ``X W + P``),
#: a formula split over several ``{math:…}`` pieces joined by an operator in the text, and
#: the positional encodings' pos, 2i, sin 0; ᵀ and ^; a name set equal to something
#: (``c = {c}``, ``dV = …``).
_BARE_MATH = re.compile(
    r"(?<![\w'’\-/])[ijknmwtx](?![\w'’\-/])"
    r"|[≤≥√²|]|(?<![A-Za-z])[A-Za-z]_(?:[a-z]{1,2}|\d)\b|\b(?:exp|max|sin|cos|LN|FFN)\("
    r"|(?<![\w{])[A-Z](?: [A-Z])* [=+] |\b[A-Z] [+−-] [A-Z]\b"
    r"|⟨math⟩\s*[=+/−-]\s*⟨math⟩|\bpos\b|\b2i\b|\b(?:sin|cos) \d|ᵀ|\^|(?<![⟩\w])[A-Za-z]+ = "
)
#: What is text although it looks like math, each with its reason; taken out of a template
#: before the check.
_BARE_MATH_ALLOWED = {
    "e^2/(e^2 + e^5)": "what a student types in an answer box, shown exactly as typed "
    "(the input syntax of entry.invalid and the self-check page, not a formula)",
    "darker = more attention": "the heat map's legend, where '=' reads 'means'",
}


def _fields_blanked(template: str) -> str:
    """The template's words, each of its fields as ``⟨math⟩`` (the math it names) or
    ``⟨value⟩`` (a number or a word filled in later, never bare math)."""
    out = []
    for literal, field, _, _ in Formatter().parse(template):
        out.append(literal)
        if field is not None:
            out.append("⟨math⟩" if field == MATH_FIELD else "⟨value⟩")
    return "".join(out)


def _allowed_out(text: str) -> str:
    for phrase in _BARE_MATH_ALLOWED:
        text = text.replace(phrase, " ")
    return text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_writes_math_as_text(lang: str) -> None:
    """``query {math:i} sees the keys {math:j_le_i}``, never ``query i sees the keys j ≤ i``:
    each piece of math is one symbol, printed by each writer's printer."""
    found = {
        key: hits
        for key, template in words(lang).table.items()
        if (hits := _BARE_MATH.findall(_allowed_out(_fields_blanked(template))))
    }
    assert found == {}


def test_the_bare_math_check_finds_bare_math() -> None:
    for bare in [
        "query i sees only the keys j ≤ i.",
        "查询 i，键 j",
        "b_ij = {math:minus}m",
        "exp(s)",
        "the residual R = X + O",
        "{math:s_ij} = {math:q_i}",
        "dV = Aᵀ dO",
        "c = {c}",
        "columns 2i of row pos",
    ]:
        assert _BARE_MATH.search(_fields_blanked(bare)), bare
    for text in ["{math:d_k} = {d_k}", "query {math:i} sees {math:j_le_i}", "K/V cache", "page_id"]:
        assert not _BARE_MATH.search(_fields_blanked(text)), text
