"""What the self-check page keeps and hands in, without a browser (Node runs the page's
own functions: tests/self_check_node.js): the typed boxes gathered as an answers file's
steps, the answers.json it downloads (read by ``check`` as the same answers, ``page_id``
included), kept and restored per page id, and a browser that refuses to keep anything or
holds something else under the key is no error.  The page in Chromium (type, reload,
download, grade) is tests/test_self_check_browser.py.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

import symattn
from symattn.check import check
from symattn.check.answers import load_answers
from symattn.classroom.page_ids import page_id
from symattn.errors import SymattnError
from symattn.examples import example_path
from symattn.exercises.files import answers_json

from .test_self_check_reader import Node

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    assert NODE is not None
    process = Node(NODE)
    yield process
    process.close()


def test_the_typed_boxes_are_the_answers_file(node: Node, tmp_path: Any) -> None:
    """Typed boxes (blank ones left out, a step with nothing typed left out) → answers.json
    → check reads the same texts, and the page id."""
    key = symattn.derive(example_path("seed"))
    right = answers_json(key, 4, ["weights", "output"])
    cells = [
        {"step": s, "row": i + 1, "col": j + 1, "value": v}
        for s, rows in right.items()
        for i, row in enumerate(rows)
        for j, v in enumerate(row)
    ]
    cells[1]["value"] = "  "  # a blank box: null
    cells[2]["value"] = "0,7311"  # a decimal comma stays as typed
    cells += [{"step": "scores", "row": 1, "col": 1, "value": ""}]
    shapes = {"weights": [2, 2], "output": [2, 2], "scores": [2, 2]}
    grids = node.ask({"gather": cells, "shapes": shapes})
    assert set(grids) == {"weights", "output"}
    assert grids["weights"][0][1] is None and grids["weights"][1][0] == "0,7311"
    ident = page_id("Ada_Lovelace", "X = [[1]]\n")
    order = ["scores", "weights", "output"]
    text = node.ask({"answers_file": grids, "page_id": ident, "order": order})
    assert list(json.loads(text)) == ["page_id", "weights", "output"]
    file = tmp_path / "answers.json"
    file.write_text(text, encoding="utf-8")
    answers = load_answers(file, ["scores", "weights", "output"], key)
    assert answers.page_id == ident
    assert answers.steps["weights"][1][0] is not None
    assert answers.steps["weights"][1][0].text == "0,7311"
    assert answers.steps["weights"][0][1] is None
    result = check(key, file, places=4)
    assert [s.id for s in result.steps] == ["weights", "output"]
    assert result.steps[1].status == "correct"
    without = node.ask({"answers_file": grids, "page_id": None, "order": order})
    assert "page_id" not in json.loads(without)


def test_what_is_typed_is_kept_and_restored(node: Node) -> None:
    grids = {"weights": [["0.7311", None], [None, "1/2"]]}
    kept = node.ask({"keep": grids, "key": "symattn-self-check:Ada/1", "storage": "memory"})
    assert kept == {"saved": True, "restored": grids}
    emptied = node.ask({"keep": {}, "key": "k", "storage": "memory"})
    assert emptied == {"saved": True, "restored": {}}


@pytest.mark.parametrize(
    "held",
    ["not json", "[1, 2]", '{"weights": [[1, 2]]}', '{"weights": "0.5"}', "null"],
)
def test_something_else_under_the_key_restores_nothing(node: Node, held: str) -> None:
    got = node.ask({"keep": None, "key": "k", "storage": held})
    assert got == {"saved": None, "restored": {}}


def test_a_browser_that_keeps_nothing_is_no_error(node: Node) -> None:
    got = node.ask({"keep": {"Q": [["1"]]}, "key": "k", "storage": "refusing"})
    assert got == {"saved": False, "restored": {}}


def test_check_reads_page_id_and_refuses_a_bad_one(tmp_path: Any) -> None:
    key = symattn.derive(example_path("seed"))
    ok = check(key, {"page_id": "Ada_Lovelace/0123456789abcdef", "scores": [[1, 0], [0, 1]]})
    assert [s.id for s in ok.steps] == ["scores"]
    for bad in (12, ["a"], "x" * 301):
        with pytest.raises(SymattnError, match="page_id: expected a string"):
            check(key, {"page_id": bad})
