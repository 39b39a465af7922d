"""A topic is a unit of code: each of these topics is named (as a word, any case) in at
most 6 source files of symattn/, and outside symattn/topics/ only by the words a reader
sees (symattn/words/) and the list of bundled examples."""

from __future__ import annotations

import re

import pytest

from .helpers import ROOT

SOURCES = sorted(
    p for p in (ROOT / "symattn").rglob("*") if p.suffix in (".py", ".js") and p.is_file()
)
ALLOWED_OUTSIDE = ("symattn/words/", "symattn/examples/__init__.py")


@pytest.mark.parametrize("name", ["rope", "alibi", "window", "additive", "decode"])
def test_a_topic_is_named_in_few_files(name: str) -> None:
    word = re.compile(rf"\b{name}\b", re.I)
    files = [
        str(p.relative_to(ROOT)) for p in SOURCES if word.search(p.read_text(encoding="utf-8"))
    ]
    assert len(files) <= 6, files
    outside = [f for f in files if not f.startswith("symattn/topics/")]
    assert all(f.startswith(ALLOWED_OUTSIDE) for f in outside), outside
