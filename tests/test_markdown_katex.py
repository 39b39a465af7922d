"""Every math fragment symattn writes into Markdown renders with KaTeX.

For every bundled example × lang (en, zh) × notation (matrix, token) the Markdown is
rendered in-process (once as ``symattn derive`` writes it, once with every query row
written out, so masked and tied entries of later rows are covered too), its math
fragments are collected with :func:`symattn.render.markdown.math_fragments`, and the
fragments of ``Derivation._repr_latex_()`` are added.  All of them go, deduplicated,
into one JSON file that ``tests/katex_render.js`` renders in ONE Node process per test
run with ``katex.renderToString(tex, {displayMode, throwOnError: true, strict: "ignore"})``.

KaTeX is found in ``$SYMATTN_KATEX_DIR/node_modules/katex`` when that variable is set
(``.ci/run`` installs it there), else by Node's own resolution from the repository or
``NODE_PATH``.  Without ``node`` or without KaTeX the tests are skipped with the reason;
a ``SYMATTN_KATEX_DIR`` that holds no KaTeX is an error.

A deliberately broken fragment rides along in the same batch, and a test asserts that
KaTeX reports it: a check that cannot fail would be worthless.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.examples import example_names, example_path
from symattn.render import render
from symattn.render.markdown import math_fragments

SCRIPT = Path(__file__).resolve().parent / "katex_render.js"
LANGS = ("en", "zh")
NOTATIONS = ("matrix", "token")
ROWS = ("", "/all-rows")  # the default (query row 1 written out), then every row
SOURCES = [
    f"{name}/{lang}/{notation}{rows}"
    for name in example_names()
    for lang in LANGS
    for notation in NOTATIONS
    for rows in ROWS
] + [f"{name}/_repr_latex_" for name in example_names()]

# The sanity fragments: KaTeX must reject BROKEN and accept GOOD.
BROKEN = ("\\frac{1}{", False)
GOOD = ("\\frac{1}{2}", False)
SANITY = "sanity"


@dataclass(repr=False)
class Batch:
    """The unique fragments, which sources use each one, and what KaTeX said."""

    fragments: list[tuple[str, bool]] = field(default_factory=list)
    index: dict[tuple[str, bool], int] = field(default_factory=dict)
    by_source: dict[str, list[int]] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)

    def add(self, source: str, fragment: tuple[str, bool]) -> None:
        if fragment not in self.index:
            self.index[fragment] = len(self.fragments)
            self.fragments.append(fragment)
        self.by_source.setdefault(source, []).append(self.index[fragment])

    def __repr__(self) -> str:
        return f"<Batch of {len(self.fragments)} fragments>"

    def failures(self) -> dict[int, str]:
        return {int(f["id"]): str(f["error"]) for f in self.result["failures"]}


@functools.cache
def _texts() -> dict[str, str]:
    """Source name → the Markdown (or ``_repr_latex_`` text) it renders to."""
    texts = {}
    for name in example_names():
        derivation = symattn.derive(example_path(name))
        every_row = list(range(derivation.step("output").shape[0]))
        for lang in LANGS:
            for notation in NOTATIONS:
                key = f"{name}/{lang}/{notation}"
                texts[key] = render(derivation, "markdown", lang=lang, notation=notation)
                texts[key + "/all-rows"] = render(
                    derivation, "markdown", lang=lang, notation=notation, rows=every_row
                )
        texts[f"{name}/_repr_latex_"] = derivation._repr_latex_()
    return texts


def _collect() -> Batch:
    batch = Batch()
    for source, text in _texts().items():
        for fragment in math_fragments(text):
            batch.add(source, fragment)
    batch.add(SANITY, BROKEN)
    batch.add(SANITY, GOOD)
    return batch


@pytest.fixture(scope="module")
def batch() -> Batch:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; the KaTeX check needs Node.js")
    return _rendered(node)


@functools.cache
def _rendered(node: str) -> Batch:
    """The batch rendered once a process, however often pytest sets the module up again
    (it does when a worker runs other modules' tests between these)."""
    collected = _collect()
    render_batch(node, collected)
    assert collected.result["rendered"] == len(collected.fragments)
    return collected


def render_batch(node: str, batch: Batch) -> None:
    """Render every fragment of ``batch`` in one Node process; the result goes in ``batch``.

    Skips when KaTeX cannot be found, fails when SYMATTN_KATEX_DIR points at nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fragments.json"
        payload = [
            {"id": i, "tex": tex, "display": display}
            for i, (tex, display) in enumerate(batch.fragments)
        ]
        path.write_text(json.dumps(payload), encoding="utf-8")
        proc = subprocess.run(
            [node, str(SCRIPT), str(path)],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=300,
            check=False,
        )
    if proc.returncode == 3:
        reason = json.loads(proc.stdout).get("missing", "KaTeX not found")
        pytest.skip(f"{reason} (set SYMATTN_KATEX_DIR to a folder holding node_modules/katex)")
    if proc.returncode == 4:
        pytest.fail(json.loads(proc.stdout)["misconfigured"])
    assert proc.returncode == 0, f"{SCRIPT.name} failed:\n{proc.stdout}\n{proc.stderr}"
    batch.result = json.loads(proc.stdout)


def _describe(batch: Batch, ids: list[int], failures: dict[int, str]) -> str:
    lines = []
    for i in ids:
        tex, display = batch.fragments[i]
        kind = "display" if display else "inline"
        lines.append(f"--- {kind} fragment:\n{tex}\n--- KaTeX: {failures[i]}")
        lines.extend(
            f"    (strict mode would also say: {w['code']}: {w['message']})"
            for w in batch.result.get("warnings", [])
            if int(w["id"]) == i
        )
    return "\n".join(lines)


def test_katex_reports_a_broken_fragment(batch: Batch) -> None:
    """The checker itself works: the broken fragment fails, a good one passes."""
    failures = batch.failures()
    broken, good = batch.index[BROKEN], batch.index[GOOD]
    assert broken in failures, "KaTeX accepted '\\frac{1}{': the check cannot fail"
    assert "KaTeX parse error" in failures[broken], failures[broken]
    assert good not in failures, failures.get(good)


def test_every_source_has_math() -> None:
    """Each rendering has inline and display math, so the check is not vacuous."""
    collected = _collect()
    for source in SOURCES:
        kinds = {collected.fragments[i][1] for i in collected.by_source.get(source, [])}
        expected = {True} if source.endswith("_repr_latex_") else {True, False}
        assert kinds >= expected, f"{source}: math fragments found {kinds}"


@pytest.mark.parametrize("source", SOURCES)
def test_no_math_outside_fragments(source: str) -> None:
    """Every unescaped ``$`` of the text belongs to a fragment that is checked."""
    rest = re.sub(r"\$\$\n.*?\n\$\$", "", _texts()[source], flags=re.S)
    rest = re.sub(r"(?<![\\$])\$([^$\n]+?)\$", "", rest)
    stray = [m.start() for m in re.finditer(r"(?<!\\)\$", rest)]
    assert not stray, f"{source}: unmatched $ at offsets {stray}"


@pytest.mark.parametrize("source", SOURCES)
def test_katex_renders_every_fragment(batch: Batch, source: str) -> None:
    failures = batch.failures()
    ids = sorted(set(batch.by_source[source]))
    bad = [i for i in ids if i in failures]
    assert not bad, (
        f"KaTeX {batch.result['katex']} rejects {len(bad)} of {len(ids)} math fragments "
        f"of {source}:\n" + _describe(batch, bad, failures)
    )
