"""Golden files: the text and JSON derivation of every bundled example.

Rewrite them after an intended change with
``SYMATTN_REGEN=1 python -m pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json

import pytest

from symattn.examples import example_names

from .helpers import GOLDEN, REGEN, normalise_json, normalise_text, run_cli

EXAMPLES = example_names()
#: Examples whose derivation includes the backward pass.
BACKWARD = {"backward"}


def _flags(name: str) -> list[str]:
    return ["--backward"] if name in BACKWARD else []


DOCUMENTS = [
    (name, lang, fmt) for name in EXAMPLES for lang in ("en", "zh") for fmt in ("tex", "md")
]


def test_every_bundled_example_has_golden_files() -> None:
    assert {"seed", "apple", "lecture4", "symbolic"} <= set(EXAMPLES)
    for name in EXAMPLES:
        assert (GOLDEN / f"{name}.txt").exists() or REGEN, name
        assert (GOLDEN / f"{name}.json").exists() or REGEN, name
        for lang in ("en", "zh"):
            for ext in ("tex", "md"):
                assert (GOLDEN / f"{name}.{lang}.{ext}").exists() or REGEN, (name, lang, ext)


@pytest.mark.parametrize(("name", "lang", "ext"), DOCUMENTS)
def test_document_golden(name: str, lang: str, ext: str) -> None:
    fmt = "tex" if ext == "tex" else "markdown"
    status, out, err = run_cli(
        ["derive", "--example", name, "--format", fmt, "--lang", lang, *_flags(name)]
    )
    assert status == 0, err
    path = GOLDEN / f"{name}.{lang}.{ext}"
    if REGEN:
        path.write_text(out, encoding="utf-8")
    assert normalise_text(out) == normalise_text(path.read_text(encoding="utf-8"))


def test_token_notation_golden() -> None:
    argv = ["derive", "--example", "seed", "--format", "markdown", "--notation", "token"]
    status, out, err = run_cli(argv)
    assert status == 0, err
    path = GOLDEN / "seed.token.md"
    if REGEN:
        path.write_text(out, encoding="utf-8")
    assert normalise_text(out) == normalise_text(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_text_golden(name: str) -> None:
    status, out, err = run_cli(["derive", "--example", name, *_flags(name)])
    assert status == 0, err
    path = GOLDEN / f"{name}.txt"
    if REGEN:
        path.write_text(out, encoding="utf-8")
    assert normalise_text(out) == normalise_text(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_json_golden(name: str) -> None:
    status, out, err = run_cli(["derive", "--example", name, "--format", "json", *_flags(name)])
    assert status == 0, err
    path = GOLDEN / f"{name}.json"
    if REGEN:
        path.write_text(out, encoding="utf-8")
    assert normalise_json(out) == normalise_json(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n != "symbolic"])
def test_numeric_examples_cross_check(name: str) -> None:
    _, out, _ = run_cli(["derive", "--example", name, "--format", "json"])
    assert json.loads(out)["crosscheck"]["passed"] is True
