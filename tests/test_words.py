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
