"""The Python examples of the documentation are true: every ``pycon`` block of
docs/python.md is run as a doctest, and each line of README.md's Python block that
ends in ``# value`` gives that value."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

import symattn

from .helpers import ROOT

PYCON = re.compile(r"```pycon\n(.*?)```", re.S)
PYTHON = re.compile(r"```python\n(.*?)```", re.S)


def test_docs_python_md_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name docs/examples/… from the repository
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = PYCON.findall(text)
    assert len(blocks) >= 4
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    for number, block in enumerate(blocks, start=1):
        test = parser.get_doctest(block, globs, f"docs/python.md block {number}", None, 0)
        runner.run(test, clear_globs=False)
        globs = test.globs  # a block goes on from the names of the ones before
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 15, result


def test_readme_python_example_is_true(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no file named "seed" here: the example is meant
    block = PYTHON.findall((ROOT / "README.md").read_text(encoding="utf-8"))[0]
    names: dict[str, object] = {}
    shown = 0
    for line in block.splitlines():
        code, _, said = line.partition("  # ")
        if code.startswith(("import ", "d = ")):
            exec(code, names)
        elif said:
            assert repr(eval(code, names)) == said.strip(), line
            shown += 1
    assert shown == 2 and isinstance(names["d"], symattn.Derivation)
    assert not os.path.exists("seed")
