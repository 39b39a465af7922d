"""The JSON written row by row (``json_chunks``, ``render_chunks``, ``write_stream``) is the
JSON of ``render(d, "json")``, which is ``dumps(render_json(d))``: for every bundled example
(symbols, masks, several heads, the backward pass, Chinese titles) and for tiny problems
whose steps are single entries."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import symattn
from symattn.cli.commands import main
from symattn.errors import SymattnError
from symattn.examples import example_names, example_path
from symattn.output import write_stream
from symattn.render import render, render_chunks
from symattn.render.json_out import _flat_list, dumps, json_chunks, render_json
from symattn.words import words

TINY = [
    {"Q": [[1]], "K": [[2]], "V": [[3]]},
    {"X": [[1]], "W_Q": [[1]], "W_K": [[1]], "W_V": [["1/2"]]},
    {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], "scale": "none"},
]


def _derivations() -> Iterator[tuple[str, symattn.Derivation]]:
    for name in example_names():
        problem = symattn.load(example_path(name))
        backward = problem.target is not None or problem.dO is not None
        yield name, symattn.derive(problem, backward=backward)
    for k, problem in enumerate(TINY):
        yield f"tiny{k}", symattn.derive(problem)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chunks_are_the_json_of_render_json(lang: str) -> None:
    for name, d in _derivations():
        whole = dumps(render_json(d, words(lang), 4)) + "\n"
        pieces = list(json_chunks(d, words(lang), 4))
        assert "".join(pieces) == whole, name
        assert "".join(render_chunks(d, "json", lang=lang)) == render(d, "json", lang=lang)
        assert len(pieces) > 3 * len(d.steps), name  # really in pieces, a row at most each
        json.loads(whole)


def test_other_formats_come_in_one_piece() -> None:
    d = symattn.derive(TINY[2])
    assert list(render_chunks(d, "text")) == [render(d, "text")]


def test_render_chunks_checks_its_options() -> None:
    d = symattn.derive(TINY[0])
    with pytest.raises(SymattnError, match="digits"):
        list(render_chunks(d, "json", digits=31))
    with pytest.raises(SymattnError):
        list(render_chunks(d, "json", lang="fr"))


def test_write_stream_writes_the_chunks(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_stream(iter(["{", '"a": ', "1}\n"]), target)
    assert target.read_text(encoding="utf-8") == '{"a": 1}\n'


def test_write_stream_leaves_no_half_file(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("before", encoding="utf-8")

    def failing() -> Iterator[str]:
        yield "{"
        raise SymattnError("no more")

    with pytest.raises(SymattnError, match="no more"):
        write_stream(failing(), target)
    assert target.read_text(encoding="utf-8") == "before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_write_stream_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    write_stream(iter(["a", "β", "c\n"]), None)
    assert capsys.readouterr().out == "aβc\n"


def test_derive_json_file_is_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.json"
    assert main(["derive", "--example", "multihead", "--format", "json", "-o", str(out)]) == 0
    expected = render(symattn.derive(symattn.load(example_path("multihead"))), "json")
    assert out.read_text(encoding="utf-8") == expected
    assert main(["derive", "--example", "multihead", "--format", "json", "--lang", "zh"]) == 0
    assert capsys.readouterr().out == render(
        symattn.derive(symattn.load(example_path("multihead"))), "json", lang="zh"
    )


@pytest.mark.parametrize(
    "items",
    [
        ["a", "b"],
        ['a"b', "c"],
        ["a", 'b"'],
        ['"', '"'],
        ["back\\slash"],
        ["new\nline", "tab\t"],
        ["\x7f", "é", "ᵀ", "\u2028"],
        [""],
        [],
        [1.5, -0.0, 1e-300, 2e300],
        [1.0, None],
        ["x", None, 1.5],
        [1, 2.5],
    ],
)
def test_flat_list_is_json_dumps(items: list[object]) -> None:
    assert _flat_list(items) == json.dumps(items, ensure_ascii=False, allow_nan=False)


@pytest.mark.parametrize("bad", [[float("inf")], [1.0, float("nan")], [-float("inf"), 1.0]])
def test_flat_list_refuses_what_json_refuses(bad: list[float]) -> None:
    with pytest.raises(ValueError):
        _flat_list(bad)
