"""Text + vocab + embedding (SPEC §2): tokenisation, the lookup, and its errors.

Text with spaces is split on them; text without is cut by greedy longest match.  The
vocabulary is a list (id = index) or a table token → id with any ids; the embedding is a
list (one row per id) or a table id → row holding only the rows that are used.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.errors import SymattnError
from symattn.load import load
from symattn.load.tokens import Vocabulary, tokenize
from symattn.printing import sstr

ZH_VOCAB = ["<unk>", "我", "爱", "苹果", "香蕉"]
ZH_EMBEDDING = [[0, 0, 0], [1, 0, 1], [0, 2, 1], [1, 1, 0], [1, 1, "1/2"]]
W = {
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
}


def vocab_of(tokens: list[str]) -> Vocabulary:
    return Vocabulary.from_data(tokens, [[i] for i in range(len(tokens))], "p.toml")


def error_of(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(SymattnError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message, message
    return message


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- tokenize ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "vocab", "tokens"),
    [
        # Greedy longest match when the text has no spaces.
        ("我爱苹果", ["<unk>", "我", "爱", "苹果"], ["我", "爱", "苹果"]),
        ("我爱苹果", ["<unk>", "我", "爱", "苹", "果", "苹果"], ["我", "爱", "苹果"]),
        ("苹果苹果", ["苹", "果", "苹果"], ["苹果", "苹果"]),
        ("苹果", ["苹", "果"], ["苹", "果"]),
        ("我爱", ["我", "爱"], ["我", "爱"]),
        ("我", ["我"], ["我"]),
        ("thecat", ["the", "cat", "th", "t"], ["the", "cat"]),
        ("abcab", ["a", "ab", "abc", "b", "c"], ["abc", "ab"]),
        ("  我爱  ", ["我", "爱"], ["我", "爱"]),
        # Split on spaces (any whitespace) when the text has them.
        ("我 爱 苹果", ["我", "爱", "苹果"], ["我", "爱", "苹果"]),
        ("我  爱\t苹果\n", ["我", "爱", "苹果"], ["我", "爱", "苹果"]),
        ("the cat sat", ["the", "cat", "sat"], ["the", "cat", "sat"]),
        ("a ab abc", ["a", "ab", "abc"], ["a", "ab", "abc"]),
        ("sat the sat", ["the", "sat"], ["sat", "the", "sat"]),
    ],
)
def test_tokenize(text: str, vocab: list[str], tokens: list[str]) -> None:
    got_tokens, got_ids = tokenize(text, vocab_of(vocab), "p.toml")
    assert got_tokens == tokens
    assert got_ids == [vocab.index(t) for t in tokens]


def test_spaces_mean_words_even_for_chinese() -> None:
    # With a space the text is split on it, so "我爱" is one (unknown) word.
    message = error_of(tokenize, "我爱 苹果", vocab_of(["我", "爱", "苹果"]), "p.toml")
    assert "'我爱'" in message and "word 1" in message


def test_table_vocabulary_gives_its_own_ids() -> None:
    vocab = Vocabulary.from_data(
        {"<unk>": 0, "我": 1, "爱": 2, "苹果": 1024, "香蕉": 2048},
        {"1": [1], "2": [2], "1024": [3]},
        "p.toml",
    )
    assert tokenize("我爱苹果", vocab, "p.toml") == (["我", "爱", "苹果"], [1, 2, 1024])
    assert tokenize("苹果 我", vocab, "p.toml") == (["苹果", "我"], [1024, 1])


@pytest.mark.parametrize("text", ["", " ", "\t\n"])
def test_empty_text(text: str) -> None:
    message = error_of(tokenize, text, vocab_of(["我"]), "p.toml")
    assert message.startswith("p.toml: text") and "empty" in message


# -- unknown tokens: position and the closest entries ----------------------------------------


@pytest.mark.parametrize(
    ("text", "vocab", "piece", "position", "closest"),
    [
        ("我爱苹", ["<unk>", "我", "爱", "苹果"], "苹", "character 3", ["苹果"]),
        ("苹我", ["<unk>", "我", "爱", "苹果"], "苹", "character 1", ["苹果"]),
        ("我爱苹果汁", ["我", "爱", "苹果", "果汁"], "汁", "character 5", ["果汁"]),
        ("the cat sta", ["the", "cat", "sat"], "sta", "word 3", ["sat"]),
        ("the cta sat", ["the", "cat", "sat"], "cta", "word 2", ["cat"]),
        ("teh cat", ["the", "cat", "sat"], "teh", "word 1", ["the"]),
        ("the cats", ["the", "cat", "sat"], "cats", "word 2", ["cat"]),
    ],
)
def test_unknown_token_names_position_and_closest_entries(
    text: str, vocab: list[str], piece: str, position: str, closest: list[str]
) -> None:
    message = error_of(tokenize, text, vocab_of(vocab), "p.toml")
    assert message.startswith("p.toml: text"), message
    assert f"{piece!r}" in message, message
    assert position in message, message
    tail = message.split(f"{piece!r}", 1)[1]
    for entry in closest:
        assert entry in tail, message


def test_unknown_run_of_characters_is_reported_whole() -> None:
    message = error_of(tokenize, "我爱香蕉", vocab_of(["<unk>", "我", "爱", "苹果"]), "p.toml")
    assert "'香蕉'" in message and "character 3" in message, message


def test_unknown_token_lists_vocabulary_entries_even_when_none_is_similar() -> None:
    vocab = ["<unk>", "我", "爱", "苹果"]
    message = error_of(tokenize, "我爱香蕉", vocab_of(vocab), "p.toml")
    tail = message.split("'香蕉'", 1)[1]
    assert any(entry in tail for entry in vocab[1:]), message


def test_unknown_token_position_counts_characters_not_bytes() -> None:
    # 我 and 爱 are 3 bytes each in UTF-8; the position is still character 3.
    message = error_of(tokenize, "我爱x", vocab_of(["我", "爱"]), "p.toml")
    assert "character 3" in message, message


# -- vocabulary and embedding shapes ------------------------------------------------------


@pytest.mark.parametrize(
    ("vocab", "embedding", "fragment"),
    [
        ([], [], "vocab"),
        ({}, {}, "vocab"),
        (["我", ""], [[1], [2]], "vocab"),
        (["我", 3], [[1], [2]], "vocab"),
        (["我", "我"], [[1], [2]], "twice"),
        ("我爱", [[1]], "vocab"),
        (5, [[1]], "vocab"),
        ({"我": -1}, {"0": [1]}, "vocab"),
        ({"我": True}, {"1": [1]}, "vocab"),
        ({"我": "1"}, {"1": [1]}, "vocab"),
        ({"我": 1.5}, {"1": [1]}, "vocab"),
        (["我", "爱"], [[1]], "embedding"),
        (["我", "爱"], [[1], [2], [3]], "embedding"),
        (["我", "爱"], {"x": [1]}, "embedding"),
        (["我", "爱"], {"1.5": [1]}, "embedding"),
        (["我", "爱"], [[1], [1, 2]], "ragged"),
        (["我", "爱"], [[1], []], "embedding[1]"),
        (["我", "爱"], [[1], 5], "embedding[1]"),
        (["我", "爱"], 5, "embedding"),
        (["我", "爱"], "rows", "embedding"),
    ],
)
def test_bad_vocabulary_or_embedding(vocab: Any, embedding: Any, fragment: str) -> None:
    message = error_of(Vocabulary.from_data, vocab, embedding, "p.toml")
    assert message.startswith("p.toml: "), message
    assert fragment in message, message


def test_table_embedding_keys_may_be_strings_or_ints() -> None:
    vocab = Vocabulary.from_data({"a": 7, "b": 1000}, {"7": [1, 2], 1000: [3, 4]}, "p")
    assert vocab.row(7) == [1, 2]
    assert vocab.row(1000) == [3, 4]


def test_missing_row_for_a_used_id_names_the_id_and_token() -> None:
    vocab = Vocabulary.from_data({"我": 1, "苹果": 1024}, {"1": [1, 0]}, "p.toml")
    message = error_of(vocab.row, 1024)
    assert message.startswith("p.toml: embedding"), message
    assert "1024" in message and "'苹果'" in message


# -- the lookup inside a problem ------------------------------------------------------------


def test_greedy_lookup_in_a_problem() -> None:
    p = load({"text": "我爱苹果", "vocab": ZH_VOCAB, "embedding": ZH_EMBEDDING, **W})
    assert p.lookup is not None
    assert p.lookup.tokens == ("我", "爱", "苹果")
    assert p.lookup.ids == (1, 2, 3)
    assert p.tokens == ("我", "爱", "苹果")
    assert [[sstr(v) for v in row] for row in p.X] == [
        ["1", "0", "1"],
        ["0", "2", "1"],
        ["1", "1", "0"],
    ]


def test_spaced_lookup_in_a_problem() -> None:
    p = load({"text": "香蕉 我", "vocab": ZH_VOCAB, "embedding": ZH_EMBEDDING, **W})
    assert p.lookup is not None and p.lookup.ids == (4, 1)
    assert [[sstr(v) for v in row] for row in p.X] == [["1", "1", "1/2"], ["1", "0", "1"]]


APPLE_TOML = """\
text = "我 爱 苹果"
vocab = { "<unk>" = 0, "我" = 1, "爱" = 2, "苹果" = 1024, "香蕉" = 2048 }
W_Q = [[1, 0], [0, 1], [1, 0], [0, 1]]
W_K = [[0, 1], [1, 0], [1, 1], [1, 0]]
W_V = [[1, 0], [0, 1], [0, 2], [2, 0]]

[embedding]
1 = [1, 0, 1, 0]
2 = [0, 2, 0, 1]
1024 = [0.1, -0.5, 0.9, 0.2]
"""

APPLE_JSON = {
    "text": "我爱苹果",
    "vocab": {"<unk>": 0, "我": 1, "爱": 2, "苹果": 1024, "香蕉": 2048},
    "embedding": {"1": [1, 0, 1, 0], "2": [0, 2, 0, 1], "1024": ["0.1", "-1/2", 0.9, 0.2]},
    "W_Q": [[1, 0], [0, 1], [1, 0], [0, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1], [1, 0]],
    "W_V": [[1, 0], [0, 1], [0, 2], [2, 0]],
}


@pytest.mark.parametrize("kind", ["toml", "json"])
def test_table_vocab_with_sparse_ids_and_only_the_used_rows(tmp_path: Path, kind: str) -> None:
    if kind == "toml":
        path = write(tmp_path, "apple.toml", APPLE_TOML)
    else:
        path = write(tmp_path, "apple.json", json.dumps(APPLE_JSON, ensure_ascii=False))
    p = load(path)
    assert p.lookup is not None
    assert p.lookup.tokens == ("我", "爱", "苹果")
    assert p.lookup.ids == (1, 2, 1024)
    # 香蕉 = 2048 has no row and is not used: that is fine.  0.1 is exactly 1/10.
    assert [sstr(v) for v in p.X[2]] == ["1/10", "-1/2", "9/10", "1/5"]
    assert (p.n, p.d_model) == (3, 4)


def test_lookup_is_a_shown_step(tmp_path: Path) -> None:
    d = symattn.derive(write(tmp_path, "apple.toml", APPLE_TOML))
    assert d.step_ids[:3] == ("tokens", "X", "Q")
    assert [[d.step("tokens").exact_str(i, 0)] for i in range(3)] == [["1"], ["2"], ["1024"]]
    assert d.step("X").exact_str(2, 0) == "1/10"
    assert d.crosscheck.passed


def test_table_vocab_with_a_list_embedding_indexes_the_list() -> None:
    p = load(
        {
            "text": "b a",
            "vocab": {"a": 0, "b": 2},
            "embedding": [[1, 0, 0], [9, 9, 9], [0, 1, 0]],
            **W,
        }
    )
    assert p.lookup is not None and p.lookup.ids == (2, 0)
    assert [[sstr(v) for v in row] for row in p.X] == [["0", "1", "0"], ["1", "0", "0"]]


def test_used_token_without_an_embedding_row(tmp_path: Path) -> None:
    text = APPLE_TOML.replace("1024 = [0.1, -0.5, 0.9, 0.2]\n", "")
    path = write(tmp_path, "apple.toml", text)
    message = error_of(load, path)
    assert message.startswith(f"{path}: embedding"), message
    assert "1024" in message and "苹果" in message


@pytest.mark.parametrize(
    ("text", "piece", "position", "closest"),
    [
        ("我爱苹", "苹", "character 3", "苹果"),
        ("我 爱 苹", "苹", "word 3", "苹果"),
        ("我 爱 苹果 香", "香", "word 4", "香蕉"),
    ],
)
def test_unknown_token_in_a_problem_file(
    tmp_path: Path, text: str, piece: str, position: str, closest: str
) -> None:
    data = {"text": text, "vocab": ZH_VOCAB, "embedding": ZH_EMBEDDING, **W}
    path = write(tmp_path, "p.json", json.dumps(data, ensure_ascii=False))
    message = error_of(load, path)
    assert message.startswith(f"{path}: text"), message
    assert f"'{piece}'" in message and position in message, message
    assert closest in message.split(f"'{piece}'", 1)[1], message


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        ({"embedding": None}, "embedding"),
        ({"vocab": None}, "vocab"),
        ({"text": None}, "text"),
        ({"vocab": None, "embedding": None}, "vocab"),
        ({"text": 3}, "text"),
        ({"text": ["我", "爱"]}, "text"),
        ({"text": ""}, "empty"),
        ({"X": [[1, 0, 1]]}, "not both"),
        ({"tokens": ["a", "b"]}, "tokens"),
    ],
)
def test_bad_lookup_problems(entries: dict[str, Any], fragment: str) -> None:
    data = {"text": "我爱", "vocab": ZH_VOCAB, "embedding": ZH_EMBEDDING, **W, **entries}
    data = {k: v for k, v in data.items() if v is not None}
    message = error_of(load, data, source="p.toml")
    assert message.startswith("p.toml: "), message
    assert fragment in message, message


@pytest.mark.parametrize(
    ("row", "column", "literal", "fragment"),
    [
        (1, 2, "nan", "finite"),
        (2, 3, "inf", "finite"),
        (1, 1, '"x y"', "x y"),
        (2, 1, "true", "true"),
    ],
)
def test_bad_value_in_an_embedding_row_names_the_id_and_column(
    tmp_path: Path, row: int, column: int, literal: str, fragment: str
) -> None:
    rows = [[1, 0, 1], [0, 2, 1]]
    cells = [[sstr(v) for v in r] for r in rows]
    cells[row - 1][column - 1] = literal
    embedding = ", ".join(f"[{', '.join(r)}]" for r in cells)
    text = f'text = "a b"\nvocab = ["a", "b"]\nembedding = [{embedding}]\n' + "".join(
        f"{k} = {json.dumps(v)}\n" for k, v in W.items()
    )
    path = write(tmp_path, "p.toml", text)
    message = error_of(load, path)
    assert message.startswith(f"{path}: embedding"), message
    assert re.search(rf"\b{row - 1}\b", message), message  # the id, which is the list index
    assert f"column {column}" in message, message
    assert fragment in message, message


def test_embedding_width_must_match_w_rows() -> None:
    data = {"text": "我爱", "vocab": ["我", "爱"], "embedding": [[1, 0], [0, 1]], **W}
    message = error_of(load, data, source="p.toml")
    assert "W_Q" in message and "X" in message and "d_model" in message, message
