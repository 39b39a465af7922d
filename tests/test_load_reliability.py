"""Issue 14, items 6 and 7 and the low items about reading problems: every reproducer of
the audit answers with one clean line; limits are checked before the expensive work
(matrix sizes before values are parsed, the token count while the text is split);
Q, K, V with tokens and m ≠ n; duplicate JSON keys; vocabulary ids; ``--rows ²``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import symattn
from symattn.errors import SymattnError
from symattn.load import Vocabulary, tokenize
from symattn.load.checks import MAX_NAME_BYTES, MAX_STUDENTS
from symattn.load.tokens import MAX_TOKEN_ID

from .helpers import ROOT, run_cli

DATA = ROOT / "tests" / "data" / "reliability"
EXAMPLES = ROOT / "symattn" / "examples"
# The problem each answers file of the audit was written against.
PROBLEM_OF = {"d11": "symbolic", "d12": "seed", "d13": "seed"}


def _argv(path: Path, tmp_path: Path) -> list[str]:
    tag = path.name[:3]
    if path.suffix == ".csv":
        return ["exercises", "--seed", "1", "--students", str(path), "-o", str(tmp_path / "c")]
    if tag in PROBLEM_OF:
        return ["check", str(EXAMPLES / f"{PROBLEM_OF[tag]}.toml"), str(path)]
    return ["derive", str(path)]


@pytest.mark.parametrize("path", sorted(DATA.iterdir()), ids=lambda p: p.name)
def test_every_reproducer_answers_cleanly(path: Path, tmp_path: Path) -> None:
    status, _, err = run_cli(_argv(path, tmp_path))
    assert status in (0, 1, 2), err
    assert "internal error" not in err and "Traceback" not in err
    if status == 2:
        assert err.startswith("symattn: error: ") and err.count("\n") == 1, err
        assert len(err) < 1000
    else:
        assert err == ""


# -- item 6 / d10 ------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "latex", "tex", "html"])
@pytest.mark.parametrize("notation", ["matrix", "token"])
def test_d10_tokens_with_m_not_n_label_the_queries_only(fmt: str, notation: str) -> None:
    path = DATA / "d10_tokens_m_ne_n.toml"
    status, out, err = run_cli(["derive", str(path), "--format", fmt, "--notation", notation])
    assert (status, err) == (0, "")
    if fmt == "json":
        weights = next(s for s in json.loads(out)["steps"] if s["id"] == "weights")
        assert len(weights["decimal"][0]) == 2


def test_d10_variant_pad_token_needs_key_tokens() -> None:
    problem = {
        "tokens": ["a", "<pad>"],
        "pad_token": "<pad>",
        "Q": [[1], [2]],
        "K": [[1], [0], [2]],
        "V": [[1], [2], [3]],
    }
    with pytest.raises(SymattnError, match="no tokens to look for it in"):
        symattn.load(problem)
    assert symattn.load({**problem, "K": [[1], [0]], "V": [[1], [2]]}).mask is not None


# -- duplicate keys, ids, rows ---------------------------------------------------------------
def test_duplicate_json_keys_are_refused_with_the_key(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text('{"X": [[1]], "W_Q": [[1]], "W_K": [[1]], "W_V": [[1]], "X": [[2]]}')
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2 and "p.json: key 'X' is given twice" in err
    answers = tmp_path / "a.json"
    answers.write_text('{"weights": [["1", "0"], ["1", "0"]], "places": 4, "places": 2}')
    status, _, err = run_cli(["check", str(EXAMPLES / "seed.toml"), str(answers)])
    assert status == 2 and "key 'places' is given twice" in err


def test_nested_duplicate_keys_too(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        '{"text": "a", "vocab": {"a": 0, "a": 1}, "embedding": [[1], [2]], '
        '"W_Q": [[1]], "W_K": [[1]], "W_V": [[1]]}'
    )
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2 and "key 'a' is given twice" in err


@pytest.mark.parametrize("token_id", [10**400, MAX_TOKEN_ID + 1, -1])
def test_vocab_ids_beyond_the_limit(token_id: int) -> None:
    problem = {
        "text": "a",
        "vocab": {"a": token_id},
        "embedding": {str(token_id): [1]},
        "W_Q": [[1]],
        "W_K": [[1]],
        "W_V": [[1]],
    }
    with pytest.raises(SymattnError, match=r"vocab\.a: expected an integer id"):
        symattn.load(problem)
    ok = {**problem, "vocab": {"a": MAX_TOKEN_ID}, "embedding": {str(MAX_TOKEN_ID): [1]}}
    assert symattn.derive(symattn.load(ok)).crosscheck.passed  # type: ignore[union-attr]


def test_an_embedding_key_of_thousands_of_digits() -> None:
    with pytest.raises(SymattnError, match="is not an integer id"):
        Vocabulary.from_data(["a"], {"9" * 5000: [1]}, "p")


@pytest.mark.parametrize("rows", ["²", "١", "1,²", "9" * 5000, "1e3"])
def test_rows_takes_ascii_digits_only(rows: str) -> None:
    status, _, err = run_cli(["derive", str(EXAMPLES / "seed.toml"), "--rows", rows])
    assert status == 2 and "--rows: expected numbers" in err and "internal" not in err


# -- limits before the work ------------------------------------------------------------------
def test_matrix_sizes_are_refused_before_any_value_is_read() -> None:
    # the last entry is not a value at all: reading the values would report it instead
    rows = [[1] * 3 for _ in range(200)]
    rows[-1][-1] = "not a value"  # type: ignore[call-overload]
    problem = {"X": rows, "W_Q": [[1]] * 3, "W_K": [[1]] * 3, "W_V": [[1]] * 3}
    with pytest.raises(SymattnError, match=r"X is too large .* n = 200") as caught:
        symattn.load(problem)
    assert caught.value.lift == ("max_size", 200)


@pytest.mark.parametrize(
    ("key", "shape", "heads", "needed"),
    [("Q", (2, 300), 1, 300), ("Q", (2, 300), 3, 100), ("W_O", (600, 1), 4, 150)],
)
def test_head_wide_sizes_are_divided_by_the_heads(
    key: str, shape: tuple[int, int], heads: int, needed: int
) -> None:
    matrix = [[1] * shape[1] for _ in range(shape[0])]
    problem = {"Q": [[1]], "K": [[1]], "V": [[1]], key: matrix, "heads": heads}
    with pytest.raises(SymattnError) as caught:
        symattn.load(problem, max_size=needed - 1)
    assert caught.value.lift == ("max_size", needed)


def test_an_embedding_row_wider_than_the_limit() -> None:
    problem = {"text": "a", "vocab": ["a"], "embedding": [[1] * 200]}
    with pytest.raises(SymattnError, match="embedding rows have 200 entries"):
        symattn.load({**problem, "W_Q": [[1]], "W_K": [[1]], "W_V": [[1]]})


def test_the_token_count_is_checked_while_splitting() -> None:
    vocab = Vocabulary.from_data(["a"], [[1]], "p")
    # "zzz" is unknown, but the limit is met first: the text is not split to its end
    with pytest.raises(SymattnError, match=r"text: 4 tokens, over the size limit of 3") as c:
        tokenize("a a a a zzz"[:7], vocab, "p", limit=3)
    assert c.value.lift == ("max_size", 4)
    with pytest.raises(SymattnError, match="size limit of 3"):
        tokenize("a a a a zzz", vocab, "p", limit=3)
    with pytest.raises(SymattnError, match="unknown token 'zzz'"):
        tokenize("a a zzz", vocab, "p", limit=3)


def test_greedy_splitting_counts_the_rest_when_over_the_limit() -> None:
    vocab = Vocabulary.from_data(["a", "ab"], [[1], [2]], "p")
    with pytest.raises(SymattnError, match=r"text: 6 tokens, over the size limit of 2"):
        tokenize("abababab" + "aa", vocab, "p", limit=2)
    with pytest.raises(SymattnError, match=r"at least 600000 tokens"):  # a bound, found fast
        tokenize("ab" * 600_000, vocab, "p", limit=2)


def test_a_3_million_token_text_is_refused_with_the_size_to_lift_it(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'text = "' + "a " * 3_000_000 + '"\nvocab = ["a"]\nembedding = [[1]]\n'
        "W_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]\n"
    )
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2 and "3000000 tokens" in err and "--max-size 3000000" in err


@pytest.mark.parametrize(
    ("text", "vocab", "tokens"),
    [
        ("我爱苹果", ["<unk>", "我", "爱", "苹果", "苹"], ["我", "爱", "苹果"]),
        ("bbbc", ["b", "bb", "bbbc", "c"], ["bbbc"]),
        ("bbbd", ["b", "bb", "bbbc", "d"], ["bb", "b", "d"]),
        ("abab", ["a", "b", "aba"], ["aba", "b"]),
    ],
)
def test_the_trie_is_greedy_longest_match(text: str, vocab: list[str], tokens: list[str]) -> None:
    v = Vocabulary.from_data(vocab, [[i] for i in range(len(vocab))], "p")
    assert tokenize(text, v, "p")[0] == tokens


def test_an_unknown_piece_is_named() -> None:
    v = Vocabulary.from_data(["a", "b"], [[1], [2]], "p")
    with pytest.raises(SymattnError, match="unknown token 'xyz' at character 2"):
        tokenize("axyzb", v, "p")


def test_roster_limits_are_constants_for_the_roster_reader() -> None:
    from symattn.classroom import roster

    assert (roster.MAX_STUDENTS, roster.MAX_NAME_BYTES) == (MAX_STUDENTS, MAX_NAME_BYTES)
    assert MAX_STUDENTS == 1_000 and MAX_NAME_BYTES == 200


# -- reliability turn 3: r09 (CSV entry twice), r02 (a huge CSV field), r10 (`places`) --
SEED_TOML = str(EXAMPLES / "seed.toml")


def _check_error(path: Path) -> str:
    status, out, err = run_cli(["check", SEED_TOML, str(path)])
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"symattn: error: {path}: ") and "internal error" not in err
    return err


def test_r09_a_csv_entry_given_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("step,row,col,value\nQ,1,1,2\nQ,1,1,3\n", encoding="utf-8")
    err = _check_error(path)
    assert "line 3: Q row 1, column 1 is given twice (first on line 2)" in err
    # unseen: written differently (spaces, a leading zero), lines apart, a whole row between
    path.write_text(
        "step,row,col,value\nweights, 1,2,0.8930\nweights,2,1,0.9717\n\nweights,01,2,0.1\n",
        encoding="utf-8",
    )
    assert "line 5: weights row 1, column 2 is given twice (first on line 2)" in _check_error(path)


def test_r02_a_csv_field_past_the_limit_is_named(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_text("step,row,col,value\nQ,1,1," + "1" * 131_073 + "\n", encoding="utf-8")
    assert "line 2: a field is longer than 131072 characters" in _check_error(path)
    path.write_text("step,row,col,value\nQ,1,1," + "1" * 131_072 + "\n", encoding="utf-8")
    status, _, err = run_cli(["check", SEED_TOML, str(path)])
    assert "internal error" not in err and "field" not in err
    # unseen: the same in a roster, on line 3, and in a quoted field with a newline
    roster = tmp_path / "roster.csv"
    roster.write_text('name\nAda\n"' + "x\n" * 70_000 + '"\n', encoding="utf-8")
    status, _, err = run_cli(["exercises", "--seed", "1", "--students", str(roster),
                              "-o", str(tmp_path / "c")])  # fmt: skip
    assert status == 2 and f"{roster}: line " in err and "longer than 131072" in err
    assert "internal error" not in err and not (tmp_path / "c").exists()


def test_r10_places_in_an_answers_file_is_the_required_places(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"places": 4, "weights": [["0.1070", "0.8930"], [null, null]]}')
    status, out, err = run_cli(["check", SEED_TOML, str(path)])
    assert status == 0 and err == "", err
    # unseen: 3 places where 4 are asked for is too coarse; --places wins; TOML; bad values
    path.write_text('{"places": 4, "weights": [["0.107", "0.893"], [null, null]]}')
    status, out, _ = run_cli(["check", SEED_TOML, str(path), "--format", "json"])
    assert status == 1 and "too_coarse" in out
    assert run_cli(["check", SEED_TOML, str(path), "--places", "3"])[0] == 0
    toml = tmp_path / "a.toml"
    toml.write_text('places = 4\nweights = [["0.107", "0.893"], ["", ""]]\n')
    assert run_cli(["check", SEED_TOML, str(toml)])[0] == 1
    for bad in ("13", '"4"', "true", "-1", "4.0"):
        path.write_text(f'{{"places": {bad}, "weights": [["0.1070", "0.8930"], [null, null]]}}')
        assert "places: expected 0 … 12, found" in _check_error(path)
