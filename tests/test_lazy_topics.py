"""Topics load when a problem needs them (issue 24): ``derive`` of a problem without
topics imports no topic module, and writes exactly what it writes with every topic
loaded — in every format, for every bundled example that has no topic (each in a process
of its own, started as the command is)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from symattn.load import read_file
from symattn.load.topic_reading import CORE_KEYS, reading_topics
from symattn.topics import MODULES, everything, symbols

from .helpers import ROOT

EXAMPLES = ROOT / "symattn" / "examples"
FORMATS = ("text", "latex", "markdown", "json", "html")

#: Run as ``symattn``: derive the example in each format with the topics it needs, say
#: which topic modules were imported, then load every topic and derive it again.
SCRIPT = """
import contextlib, io, json, sys
sys.argv = ["symattn"]
from symattn.cli import main

def derive(fmt):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["derive", EXAMPLE, "--format", fmt])
    return status, out.getvalue()

lazy = {fmt: derive(fmt) for fmt in FORMATS}
loaded = sorted(m for m in sys.modules if m.split(".")[:2] == ["symattn", "topics"]
                and m.split(".")[-1] in MODULES)
from symattn.topics import everything
everything()
eager = {fmt: derive(fmt) for fmt in FORMATS}
print(json.dumps({"loaded": loaded, "same": [f for f in FORMATS if lazy[f] == eager[f]],
                  "status": [lazy[f][0] for f in FORMATS]}))
"""


def _plain(name: str) -> bool:
    return reading_topics(read_file(str(EXAMPLES / f"{name}.toml"))) == ()


PLAIN = sorted(p.stem for p in EXAMPLES.glob("*.toml") if _plain(p.stem))


def _run(example: str) -> dict[str, object]:
    code = (
        f"EXAMPLE = {str(EXAMPLES / f'{example}.toml')!r}\n"
        f"FORMATS = {FORMATS!r}\nMODULES = {MODULES!r}\n" + SCRIPT
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_a_problem_with_a_topic_loads_them_all() -> None:
    """(The modules are read from ``sys.modules``: ``-X importtime`` does not see what
    ``importlib.import_module`` imports.)"""
    found = _run("rope")
    assert found == {
        "loaded": sorted(f"symattn.topics.{m}" for m in MODULES),
        "same": list(FORMATS),
        "status": [0] * len(FORMATS),
    }


def test_most_examples_have_no_topic_and_the_others_do() -> None:
    assert {"seed", "causal", "multihead", "backward"} <= set(PLAIN)
    # cross-attention is the memory topic's (symattn/topics/memory.py)
    assert not {"rope", "additive_mask", "block", "column", "cross", "cross_width"} & set(PLAIN)


def test_derive_of_a_problem_without_topics_loads_none_and_writes_the_same() -> None:
    found = _run("seed")
    assert found == {"loaded": [], "same": list(FORMATS), "status": [0] * len(FORMATS)}


@pytest.mark.slow
@pytest.mark.parametrize("example", PLAIN)
def test_every_example_without_topics_is_written_the_same_with_them_loaded(
    example: str,
) -> None:
    found = _run(example)
    assert found["loaded"] == [] and found["same"] == list(FORMATS), found


def test_a_file_with_a_key_of_a_topic_or_a_mask_of_numbers_is_read_by_every_topic() -> None:
    assert reading_topics({"X": [[1]], "mask": "causal"}) == ()
    assert reading_topics({"X": [[1]], "rope": True}) == everything()
    assert reading_topics({"X": [[1]], "mask": [[1, 0], [1, 1]]}) == everything()
    assert reading_topics({"X": [[1]], "notation": {"Q": "q"}}) == everything()
    assert reading_topics({"X": [[1]], "nonsense": 1}) == everything()  # it is refused there


def test_no_topic_key_is_a_core_key_and_no_topic_symbol_is_a_core_symbol() -> None:
    """The lazy tables answer the core's entries first: no topic may change one."""
    from symattn.render.symbols import TEX_SYMBOLS

    topic_keys = {key for topic in everything() for key in topic.keys}
    assert not topic_keys & set(CORE_KEYS)
    core = TEX_SYMBOLS._core  # type: ignore[attr-defined]
    clash = {n for n, (tex, _) in symbols().items() if n in core and core[n] != tex}
    assert not clash
