"""The documentation's examples are real: every console block in docs/*.md is run.

A console block is a fenced block tagged ``console`` whose lines starting with ``$ ``
are commands; the lines after a command, up to the next command, are its expected
output (stdout, then stderr), and a last line ``(exit status N)`` states a non-zero
status.  ``SYMATTN_REGEN=1`` rewrites the expected output from the real one.  Every
``toml`` block in docs/problem-format.md must also load as a problem (or, when it is
marked with a comment ``# error: …``, fail with that message).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import symattn
from symattn.errors import SymattnError
from symattn.load.files import parse_toml as _parse_toml

from .helpers import REGEN, ROOT, normalise_text, run_cli

DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"```console\n(.*?)```", re.S)
TOML_BLOCK = re.compile(r"```toml\n(.*?)```", re.S)
STATUS = re.compile(r"^\(exit status (\d+)\)$")
#: A file a page's commands wrote, shown as it is: ``<!-- file: PATH -->`` and a fence.
FILE_BLOCK = re.compile(r"<!-- file: (\S+) -->\n```(\w*)\n(.*?)```", re.S)


def _run(command: str) -> str:
    argv = shlex.split(command)
    assert argv[0] == "symattn", f"docs console blocks run symattn only: {command}"
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        status, out, err = run_cli(argv[1:])
    finally:
        os.chdir(cwd)
    text = out + err
    if status:
        text += f"(exit status {status})\n"
    return text


def _render_block(body: str) -> str:
    """The block with every command's output replaced by the real output."""
    out: list[str] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append(line)
            shown = _run(line[2:]).rstrip("\n")
            if shown:  # a command that prints nothing is followed by the next one
                out.append(shown)
    return "\n".join(out) + "\n"


def _commands(body: str) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], ""))
        elif pairs:
            pairs[-1] = (pairs[-1][0], pairs[-1][1] + line + "\n")
    return pairs


def test_docs_exist() -> None:
    names = {p.name for p in DOCS}
    assert {"problem-format.md", "derive.md", "architecture.md"} <= names


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_console_blocks(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    if REGEN:
        text = BLOCK.sub(lambda m: "```console\n" + _render_block(m.group(1)) + "```", text)
        page.write_text(text, encoding="utf-8")
    for body in BLOCK.findall(text):
        for command, expected in _commands(body):
            got = _run(command)
            assert normalise_text(got) == normalise_text(expected), f"{page.name}: $ {command}"
    _check_files(page, text)


def _check_files(page: Path, text: str) -> None:
    """Each shown file (after the page's commands ran) is as the page shows it."""

    def real(path: str) -> str:
        file = Path(path) if Path(path).is_absolute() else ROOT / path
        return file.read_text(encoding="utf-8")

    if REGEN:
        text = FILE_BLOCK.sub(
            lambda m: f"<!-- file: {m.group(1)} -->\n```{m.group(2)}\n{real(m.group(1))}```", text
        )
        page.write_text(text, encoding="utf-8")
    for path, _, shown in FILE_BLOCK.findall(text):
        assert real(path) == shown, f"{page.name}: {path}"


def test_problem_format_toml_blocks() -> None:
    text = (ROOT / "docs" / "problem-format.md").read_text(encoding="utf-8")
    blocks = TOML_BLOCK.findall(text)
    assert len(blocks) >= 5
    for body in blocks:
        marker = re.search(r"^# error: (.*)$", body, re.M)
        if marker:
            with pytest.raises(SymattnError, match=re.escape(marker.group(1).strip())):
                symattn.load(_parse_toml(body, "doc"), source="doc")
        else:
            d = symattn.derive(_parse_toml(body, "doc"))
            assert d.step_ids[-1] == "output"
            assert d.crosscheck is None or d.crosscheck.passed
