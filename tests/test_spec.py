"""Problem files (SPEC §2, §6): exact values from TOML and JSON, and one-line errors for bad input.

Every error is a :class:`SymattnError` whose one-line message names the file, the key and,
where they apply, the row and column (1-based).
"""

from __future__ import annotations

import builtins
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy

import symattn
from symattn.errors import SymattnError
from symattn.load import DEFAULT_MAX_SIZE, load
from symattn.printing import sstr

from .helpers import BASE, BASE_TOML


def toml_problem(**entries: str | None) -> str:
    """TOML text of the base problem with some keys replaced (``None`` drops a key)."""
    merged: dict[str, str | None] = {**BASE_TOML, **entries}
    return "".join(f"{key} = {value}\n" for key, value in merged.items() if value is not None)


def problem(**entries: Any) -> dict[str, Any]:
    """The base problem as a dict with some keys replaced (``None`` drops a key)."""
    merged = {**BASE, **entries}
    return {key: value for key, value in merged.items() if value is not None}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(target: Path | dict[str, Any], **kwargs: Any) -> str:
    """The message of the SymattnError that loading ``target`` raises (one line)."""
    with pytest.raises(SymattnError) as info:
        load(target, **kwargs)
    message = str(info.value)
    assert "\n" not in message, message
    assert message.strip() == message
    return message


def shape_pattern(rows: int, cols: int) -> str:
    return rf"\b{rows}\s*[×x]\s*{cols}\b"


# -- values are exact ----------------------------------------------------------------------


def test_toml_decimals_are_exact(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "p.toml",
        toml_problem(X="[[0.1, 0.2, 0.7], [1e-3, 2.5E-1, 0.30000000000000004]]"),
    )
    p = load(path)
    assert [[sstr(v) for v in row] for row in p.X] == [
        ["1/10", "1/5", "7/10"],
        ["1/1000", "1/4", "7500000000000001/25000000000000000"],
    ]
    assert Fraction("0.30000000000000004") == Fraction(7500000000000001, 25000000000000000)
    assert sstr(p.X[0][0]) != str(Fraction(0.1))


def test_json_decimals_are_exact(tmp_path: Path) -> None:
    data = json.dumps(problem(X=[[0, 0, 0], [0, 0, 0]]))
    text = data.replace("[[0, 0, 0], [0, 0, 0]]", "[[0.1, 0.2, 0.7], [1e-3, 2.5E-1, 1.0]]")
    p = load(write(tmp_path, "p.json", text))
    assert [[sstr(v) for v in row] for row in p.X] == [
        ["1/10", "1/5", "7/10"],
        ["1/1000", "1/4", "1"],
    ]


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_decimal_arithmetic_stays_exact_through_the_derivation(tmp_path: Path, suffix: str) -> None:
    # Q[0][0] = 0.1·1 + 0.7·1 = 4/5 exactly (in binary floats it is 0.7999999999999999).
    if suffix == ".toml":
        text = toml_problem(X="[[0.1, 0.2, 0.7], [0, 2, 1]]")
    else:
        text = json.dumps(problem(X=[["X00", 0.2, 0.7], [0, 2, 1]])).replace('"X00"', "0.1")
    d = symattn.derive(write(tmp_path, f"p{suffix}", text))
    assert d.step("Q").exact_str(0, 0) == "4/5"
    assert d.step("Q").exact_str(0, 1) == "9/10"
    assert d.crosscheck.passed


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ('"3/4"', "3/4"),
        ('"-3/4"', "-3/4"),
        ('"sqrt(8)"', "2*sqrt(2)"),
        ('"sqrt(1/2)"', "sqrt(2)/2"),
        ('"-3*sqrt(2)/2"', "-3*sqrt(2)/2"),
        ('"-3*sqrt(8)/4"', "-3*sqrt(2)/2"),
        ('"0.1"', "1/10"),
        ("0.1", "1/10"),
        ("-7", "-7"),
        ("1e2", "100"),
    ],
)
def test_string_values_in_a_file(tmp_path: Path, literal: str, expected: str) -> None:
    p = load(write(tmp_path, "p.toml", toml_problem(W_V=f"[[{literal}, 2], [0, 1], [2, 0]]")))
    assert not p.symbolic
    assert sstr(p.W_V[0][0]) == expected
    assert sympy.simplify(sympy.sympify(sstr(p.W_V[0][0])) - sympy.sympify(expected)) == 0


def test_symbol_entries_make_the_problem_symbolic(tmp_path: Path) -> None:
    p = load(write(tmp_path, "p.toml", toml_problem(W_V='[["w_11", 2], [0, "2*a"], [2, 0]]')))
    assert p.symbolic
    assert p.W_V[0][0] == sympy.Symbol("w_11")
    assert p.W_V[1][1] == 2 * sympy.Symbol("a")


def test_symbolic_matrix_table_gives_generic_symbols(tmp_path: Path) -> None:
    p = load(write(tmp_path, "p.toml", toml_problem(W_Q='{ symbol = "w", shape = [3, 2] }')))
    assert p.symbolic
    assert [[sstr(v) for v in row] for row in p.W_Q] == [
        ["w_11", "w_12"],
        ["w_21", "w_22"],
        ["w_31", "w_32"],
    ]
    assert all(isinstance(v, sympy.Symbol) for row in p.W_Q for v in row)
    assert (p.n, p.d_model, p.d_k, p.d_v) == (2, 3, 2, 2)


def test_symbolic_matrix_in_json(tmp_path: Path) -> None:
    data = problem(X={"symbol": "x", "shape": [2, 3]})
    p = load(write(tmp_path, "p.json", json.dumps(data)))
    assert [[sstr(v) for v in row] for row in p.X] == [
        ["x_11", "x_12", "x_13"],
        ["x_21", "x_22", "x_23"],
    ]


def test_large_symbolic_matrix_names_are_unambiguous() -> None:
    # With 11 rows, w_1 followed by 11 and w_11 followed by 1 must not be the same symbol.
    data = {
        "X": {"symbol": "x", "shape": [2, 11]},
        "W_Q": {"symbol": "w", "shape": [11, 12]},
        "W_K": {"symbol": "k", "shape": [11, 12]},
        "W_V": {"symbol": "v", "shape": [11, 2]},
    }
    p = load(data, max_size=20)
    names = [sstr(v) for row in p.W_Q for v in row]
    assert len(set(names)) == 11 * 12


# -- shapes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "first", "second", "rule"),
    [
        # X W_Q: W_Q needs d_model rows.
        ({"W_Q": [[1, 0], [0, 1]]}, ("W_Q", 2, 2), ("X", 2, 3), "d_model"),
        ({"W_K": [[1, 0], [0, 1], [1, 1], [0, 0]]}, ("W_K", 4, 2), ("X", 2, 3), "d_model"),
        ({"W_V": [[1, 0]]}, ("W_V", 1, 2), ("X", 2, 3), "d_model"),
        # Q Kᵀ: W_Q and W_K need the same number of columns.
        ({"W_K": [[1], [0], [1]]}, ("W_K", 3, 1), ("W_Q", 3, 2), "d_k"),
        (
            {"W_K": [[1, 0, 1], [0, 1, 1], [1, 1, 1]]},
            ("W_K", 3, 3),
            ("W_Q", 3, 2),
            "d_k",
        ),
        # Cross-attention: the memory may have its own width d_mem; W_K / W_V follow it.
        ({"memory": [[1, 0]]}, ("W_K", 3, 2), ("memory", 1, 2), "d_mem = 2"),
        (
            {"memory": [[1, 0, 1]], "W_V": [[1, 0], [0, 1]]},
            ("W_V", 2, 2),
            ("memory", 1, 3),
            "d_mem = 3",
        ),
        # Q, K, V given directly.
        (
            {
                "X": None,
                "W_Q": None,
                "W_K": None,
                "W_V": None,
                "Q": [[1, 0]],
                "K": [[1, 0, 0]],
                "V": [[1]],
            },
            ("K", 1, 3),
            ("Q", 1, 2),
            "d_k",
        ),
        (
            {
                "X": None,
                "W_Q": None,
                "W_K": None,
                "W_V": None,
                "Q": [[1, 0]],
                "K": [[1, 0]],
                "V": [[1], [2]],
            },
            ("V", 2, 1),
            ("K", 1, 2),
            "rows",
        ),
    ],
)
def test_shape_mismatch_names_both_matrices_both_shapes_and_the_rule(
    tmp_path: Path,
    entries: dict[str, Any],
    first: tuple[str, int, int],
    second: tuple[str, int, int],
    rule: str,
) -> None:
    path = write(tmp_path, "p.json", json.dumps(problem(**entries)))
    message = load_error(path)
    assert message.startswith(f"{path}: "), message
    for name, rows, cols in (first, second):
        assert re.search(rf"\b{re.escape(name)}\b", message), (name, message)
        assert re.search(shape_pattern(rows, cols), message), (rows, cols, message)
    assert rule in message, message


def test_memory_mismatch_rule_speaks_of_the_memory_columns_not_x() -> None:
    # X is 3 × 2 (d_model = 2) and memory has 3 entries per row (d_mem = 3, allowed): W_K
    # with d_model rows is then measured against the memory it multiplies, not against X.
    data = problem(
        X=[[1, 0], [0, 1], [1, 1]],
        W_Q=[[1, 0], [0, 1]],
        W_K=[[1, 0], [0, 1]],
        W_V=[[1, 0], [0, 1]],
        memory=[[1, 0, 1]],
    )
    message = load_error(data, source="p.toml")
    assert re.search(shape_pattern(1, 3), message) and re.search(shape_pattern(2, 2), message)
    assert "X's rows" not in message, message
    assert "columns in memory (d_mem = 3)" in message, message


# -- non-numeric entries, NaN and infinity ------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "fragment"),
    [
        ("true", "true"),
        ("false", "false"),
        ("1979-05-27", "1979-05-27"),
        ("07:32:00", "07:32:00"),
        ("{ a = 1 }", "a"),
        ("[2]", "[2]"),
        ('"abc def"', "abc def"),
        ('"1,5"', "1,5"),
        ('"0x10"', "0x10"),
        ('"1/0"', "division by zero"),
        ('"sqrt(-2)"', "negative"),
        ('"exp(1)"', "exp"),
        ('"a + b"', "a + b"),
        ('""', "empty"),
        ('"1e999"', "range"),
    ],
)
def test_non_numeric_entry_names_file_key_row_and_column(
    tmp_path: Path, literal: str, fragment: str
) -> None:
    path = write(tmp_path, "p.toml", toml_problem(X=f"[[1, 0, 1], [0, 2, {literal}]]"))
    message = load_error(path)
    assert message.startswith(f"{path}: X row 2, column 3"), message
    assert "bad value" in message
    assert fragment in message, message


@pytest.mark.parametrize(
    ("literal", "fragment"),
    [
        ("null", "null"),
        ("true", "true"),
        ("{}", "{}"),
        ("[1, 2]", "[1, 2]"),
        ('"abc def"', "abc def"),
        ('"3/0"', "division by zero"),
    ],
)
def test_non_numeric_entry_in_json(tmp_path: Path, literal: str, fragment: str) -> None:
    text = json.dumps(problem(W_K=[[0, 1], [1, "HERE"], [1, 1]])).replace('"HERE"', literal)
    path = write(tmp_path, "p.json", text)
    message = load_error(path)
    assert message.startswith(f"{path}: W_K row 2, column 2"), message
    assert fragment in message, message


@pytest.mark.parametrize(
    "literal",
    [
        "nan",
        "+nan",
        "-nan",
        "inf",
        "+inf",
        "-inf",
        '"nan"',
        '"inf"',
        '"-inf"',
        '"NaN"',
        '"Infinity"',
    ],
)
def test_toml_nan_and_inf_are_rejected_with_their_place(tmp_path: Path, literal: str) -> None:
    path = write(tmp_path, "p.toml", toml_problem(X=f"[[1, 0, 1], [0, 2, {literal}]]"))
    message = load_error(path)
    assert message.startswith(f"{path}: X row 2, column 3"), message
    assert "finite" in message, message


@pytest.mark.parametrize(
    "literal", ["NaN", "Infinity", "-Infinity", '"NaN"', '"nan"', '"inf"', '"-Infinity"']
)
def test_json_nan_and_infinity_are_rejected_with_their_place(tmp_path: Path, literal: str) -> None:
    text = json.dumps(problem(X=[[1, 0, 1], [0, 2, "HERE"]])).replace('"HERE"', literal)
    path = write(tmp_path, "p.json", text)
    message = load_error(path)
    assert message.startswith(f"{path}: X row 2, column 3"), message
    assert "finite" in message, message


@pytest.mark.parametrize(
    ("entries", "where"),
    [
        ({"scale": "nan"}, "scale"),
        ({"scale": "inf"}, "scale"),
        ({"W_Q": "[[1, 0], [0, inf], [1, 1]]"}, "W_Q row 2, column 2"),
        ({"W_V": "[[nan, 2], [0, 1], [2, 0]]"}, "W_V row 1, column 1"),
    ],
)
def test_nan_and_inf_elsewhere(tmp_path: Path, entries: dict[str, str], where: str) -> None:
    path = write(tmp_path, "p.toml", toml_problem(**entries))
    message = load_error(path)
    assert message.startswith(f"{path}: {where}"), message
    assert "finite" in message, message


# -- empty, ragged and missing matrices --------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "where"),
    [
        ({"X": "[]"}, "X"),
        ({"X": "[[]]"}, "X row 1"),
        ({"X": "[[1, 0, 1], []]"}, "X row 2"),
        ({"W_Q": "[]"}, "W_Q"),
        ({"W_V": "[[], [], []]"}, "W_V row 1"),
        (
            {
                "X": None,
                "W_Q": None,
                "W_K": None,
                "W_V": None,
                "Q": "[]",
                "K": "[[1]]",
                "V": "[[1]]",
            },
            "Q",
        ),
    ],
)
def test_empty_matrix(tmp_path: Path, entries: dict[str, str | None], where: str) -> None:
    path = write(tmp_path, "p.toml", toml_problem(**entries))
    message = load_error(path)
    assert message.startswith(f"{path}: {where}"), message
    assert "empty" in message, message


@pytest.mark.parametrize(
    ("entries", "where", "counts"),
    [
        ({"X": "[[1, 0, 1], [0, 2]]"}, "X row 2", ("2", "3")),
        ({"X": "[[1, 0, 1], [0, 2, 1, 5]]"}, "X row 2", ("4", "3")),
        ({"W_K": "[[0, 1], [1, 0], [1]]"}, "W_K row 3", ("1", "2")),
        ({"W_V": "[[1, 2], [0, 1, 3], [2, 0]]"}, "W_V row 2", ("3", "2")),
    ],
)
def test_ragged_row(
    tmp_path: Path, entries: dict[str, str], where: str, counts: tuple[str, str]
) -> None:
    path = write(tmp_path, "p.toml", toml_problem(**entries))
    message = load_error(path)
    assert message.startswith(f"{path}: {where}"), message
    assert "ragged" in message, message
    for count in counts:
        assert re.search(rf"\b{count}\b", message), (count, message)


@pytest.mark.parametrize(
    ("entries", "missing"),
    [
        ({"X": None}, "X"),
        ({"W_Q": None}, "W_Q"),
        ({"W_K": None}, "W_K"),
        ({"W_V": None}, "W_V"),
        ({"X": None, "W_Q": None, "W_K": None, "W_V": None, "Q": "[[1]]", "K": "[[1]]"}, "V"),
        ({"X": None, "W_Q": None, "W_K": None, "W_V": None, "Q": "[[1]]", "V": "[[1]]"}, "K"),
        ({"X": None, "W_Q": None, "W_K": None, "W_V": None, "K": "[[1]]", "V": "[[1]]"}, "Q"),
    ],
)
def test_missing_matrix(tmp_path: Path, entries: dict[str, str | None], missing: str) -> None:
    path = write(tmp_path, "p.toml", toml_problem(**entries))
    message = load_error(path)
    assert message.startswith(f"{path}: "), message
    assert re.search(rf"missing\b.*\b{missing}\b", message), message


def test_empty_file_names_what_is_missing(tmp_path: Path) -> None:
    path = write(tmp_path, "p.toml", "")
    message = load_error(path)
    assert message.startswith(f"{path}: ") and "missing" in message


def test_matrix_that_is_not_a_list(tmp_path: Path) -> None:
    message = load_error(write(tmp_path, "p.toml", toml_problem(X="5")))
    assert "X" in message and "matrix" in message


def test_row_that_is_not_a_list(tmp_path: Path) -> None:
    path = write(tmp_path, "p.toml", toml_problem(X="[1, 2, 3]"))
    message = load_error(path)
    assert message.startswith(f"{path}: X row 1"), message


# -- masks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mask", "row"),
    [
        ([[1, 1], [0, 0]], 2),
        ([[0, 0], [1, 1]], 1),
    ],
)
def test_fully_masked_row_is_rejected(tmp_path: Path, mask: list[list[int]], row: int) -> None:
    path = write(tmp_path, "p.json", json.dumps(problem(mask=mask)))
    message = load_error(path)
    assert message.startswith(f"{path}: mask row {row}"), message
    assert "softmax" in message and "undefined" in message, message


def test_fully_masked_row_in_toml(tmp_path: Path) -> None:
    path = write(tmp_path, "p.toml", toml_problem(mask="[[1, 0], [0, 0]]"))
    message = load_error(path)
    assert message.startswith(f"{path}: mask row 2"), message
    assert "softmax" in message


@pytest.mark.parametrize(
    ("mask", "where", "fragment"),
    [
        ('"causl"', "mask", "causal"),
        ("[[1, 2], [1, 1]]", "mask row 1, column 2", "0 or 1"),
        ("[[true, false], [1, 1]]", "mask row 1, column 1", "0 or 1"),
        ("[[1, nan], [1, 1]]", "mask row 1, column 2", "0 or 1"),
        ("[[1, 1]]", "mask", "2 × 2"),
        ("[[1, 1, 1], [1, 1, 1]]", "mask row 1", "2"),
    ],
)
def test_bad_mask(tmp_path: Path, mask: str, where: str, fragment: str) -> None:
    path = write(tmp_path, "p.toml", toml_problem(mask=mask))
    message = load_error(path)
    assert message.startswith(f"{path}: {where}"), message
    assert fragment in message, message


def test_causal_and_explicit_masks_load() -> None:
    assert load(problem(mask="causal")).mask == ((True, False), (True, True))
    assert load(problem(mask=[[1, 0], [1, 1]])).mask == ((True, False), (True, True))


# -- scale ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "label"),
    [("sqrt(d_k)", "sqrt(2)"), (2, "2"), ("1/2", "1/2"), ("sqrt(3)", "sqrt(3)")],
)
def test_scale_values(scale: object, label: str) -> None:
    assert sstr(load(problem(scale=scale)).scale) == label


def test_scale_none_means_no_scaling() -> None:
    assert load(problem(scale="none")).scale is None


@pytest.mark.parametrize(
    ("scale", "fragment"),
    [
        (0, "positive"),
        (-2, "positive"),
        ("-1/2", "positive"),
        ("w_1", "positive"),
        ("sqrt(d_model)", "scale"),
        ("nan", "finite"),
        (True, "boolean"),
    ],
)
def test_bad_scale(scale: object, fragment: str) -> None:
    message = load_error(problem(scale=scale), source="p.toml")
    assert message.startswith("p.toml: scale"), message
    assert fragment in message, message


# -- too large -----------------------------------------------------------------------------


def _identity_rows(n: int, width: int) -> list[list[int]]:
    return [[1 if j == i % width else 0 for j in range(width)] for i in range(n)]


@pytest.mark.parametrize(
    ("data", "dim", "size"),
    [
        (problem(X=_identity_rows(DEFAULT_MAX_SIZE + 1, 3)), "n", DEFAULT_MAX_SIZE + 1),
        (
            problem(
                X=[[1] * 200, [0] * 200],
                W_Q=_identity_rows(200, 2),
                W_K=_identity_rows(200, 2),
                W_V=_identity_rows(200, 2),
            ),
            "d_model",
            200,
        ),
        (problem(memory=_identity_rows(DEFAULT_MAX_SIZE + 5, 3)), "m", DEFAULT_MAX_SIZE + 5),
        (
            problem(W_V=[[1] * 300, [0] * 300, [1] * 300]),
            "d_v",
            300,
        ),
    ],
    ids=["n", "d_model", "m", "d_v"],
)
def test_too_large_names_the_limit_and_max_size(data: dict[str, Any], dim: str, size: int) -> None:
    message = load_error(data, source="p.toml")
    assert message.startswith("p.toml: "), message
    assert re.search(rf"\b{dim}\b", message), message
    assert str(size) in message
    assert str(DEFAULT_MAX_SIZE) in message
    assert "max_size=" in message


def test_max_size_lifts_the_limit() -> None:
    data = problem(X=_identity_rows(DEFAULT_MAX_SIZE + 1, 3))
    p = load(data, max_size=DEFAULT_MAX_SIZE + 1)
    assert p.n == DEFAULT_MAX_SIZE + 1


def test_exactly_the_limit_is_allowed() -> None:
    assert load(problem(X=_identity_rows(DEFAULT_MAX_SIZE, 3))).n == DEFAULT_MAX_SIZE


def test_symbolic_problems_have_a_smaller_limit(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "p.toml",
        toml_problem(X='{ symbol = "x", shape = [9, 3] }'),
    )
    message = load_error(path)
    assert message.startswith(f"{path}: "), message
    assert "max_size=" in message and re.search(r"\b9\b", message), message
    limit = re.findall(r"limit of (\d+)", message)
    assert limit and int(limit[0]) < 9, message
    assert load(path, max_size=9).n == 9


# -- malformed files and unknown keys ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "X = [[1, 0], [0, 1]\n",
        "X = [[1, 0]] ]\n",
        "X = 1\nX = 2\n",
        "= 3\n",
        "X = [1, 2,,]\n",
        "X = 'unterminated\n",
        "[X\n",
        "X == 1\n",
    ],
)
def test_malformed_toml(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "p.toml", text)
    message = load_error(path)
    assert message.startswith(f"{path}: "), message
    assert "malformed TOML" in message, message
    # tomllib says where: "(at line 2, column 1)" or "(at end of document)".
    assert re.search(r"line \d+|end of document", message), message


@pytest.mark.parametrize(
    "text",
    [
        '{"X": [[1, 0], [0, 1]],}',
        '{"X": [[1, 0]',
        "{X: 1}",
        "{'X': 1}",
        "",
        '{"X": [[1, 0]]} trailing',
    ],
)
def test_malformed_json(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "p.json", text)
    message = load_error(path)
    assert message.startswith(f"{path}: "), message
    assert "malformed JSON" in message, message
    assert re.search(r"line \d+, column \d+", message), message


def test_json_top_level_must_be_an_object(tmp_path: Path) -> None:
    path = write(tmp_path, "p.json", "[[1, 0], [0, 1]]")
    message = load_error(path)
    assert message.startswith(f"{path}: ") and "object" in message, message


def test_json_content_is_detected_without_a_json_suffix(tmp_path: Path) -> None:
    path = write(tmp_path, "problem.txt", json.dumps(problem()))
    assert load(path).n == 2


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_bytes(b"X = [[1, \xff]]\n")
    message = load_error(path)
    assert message.startswith(f"{path}: ") and "UTF-8" in message, message


def test_missing_file_and_directory(tmp_path: Path) -> None:
    message = load_error(tmp_path / "nope.toml")
    assert message.startswith(f"{tmp_path / 'nope.toml'}: "), message
    assert "no such file" in message.lower()
    message = load_error(tmp_path)
    assert message.startswith(f"{tmp_path}: ") and "directory" in message


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_bytes(b"\xef\xbb\xbf" + toml_problem().encode())
    assert load(path).d_model == 3


@pytest.mark.parametrize(
    ("typo", "meant"),
    [
        ("embeding", "embedding"),
        ("maks", "mask"),
        ("scal", "scale"),
        ("titel", "title"),
        ("vocabulary", "vocab"),
        ("head", "heads"),
        ("token", "tokens"),
        ("memroy", "memory"),
        ("WQ", "W_Q"),
        ("W_q", "W_Q"),
        ("w_q", "W_Q"),
        ("w_k", "W_K"),
        ("W_v", "W_V"),
        ("x", "X"),
        ("Mask", "mask"),
        ("Scale", "scale"),
    ],
)
def test_unknown_key_suggests_the_right_one(tmp_path: Path, typo: str, meant: str) -> None:
    data = problem(**{typo: 1})
    if typo.upper() in {"W_Q", "W_K", "W_V", "X"}:
        # The typo replaces the real key, as it would in a file.
        del data[meant]
    path = write(tmp_path, "p.json", json.dumps(data))
    message = load_error(path)
    assert message.startswith(f"{path}: "), message
    assert f"{typo!r}" in message or f'"{typo}"' in message, message
    suggestion = re.search(r"did you mean '?\"?([A-Za-z_]+)", message)
    assert suggestion is not None, message
    assert suggestion.group(1) == meant, message


def test_unknown_key_in_toml_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, "p.toml", toml_problem() + 'maks = "causal"\n')
    message = load_error(path)
    assert message.startswith(f"{path}: ") and "'maks'" in message and "'mask'" in message


def test_unrelated_unknown_key_lists_the_known_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "p.json", json.dumps(problem(zzzqqq=1)))
    message = load_error(path)
    assert "zzzqqq" in message
    assert "did you mean" not in message
    for key in ("X", "W_Q", "W_K", "W_V", "mask", "scale", "vocab", "embedding"):
        assert re.search(rf"\b{key}\b", message), key


# -- symbolic matrix tables --------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        ('{ symbol = "w" }', "shape"),
        ("{ shape = [3, 2] }", "symbol"),
        ('{ symbol = "w", shape = [3] }', "shape"),
        ('{ symbol = "w", shape = [0, 2] }', "shape"),
        ('{ symbol = "w", shape = [3, -2] }', "shape"),
        ('{ symbol = "w", shape = [true, 2] }', "shape"),
        ('{ symbol = "w", shape = [3.0, 2] }', "shape"),
        ('{ symbol = "w", shape = "3x2" }', "shape"),
        ("{ symbol = 1, shape = [3, 2] }", "symbol"),
        ('{ symbol = "pi", shape = [3, 2] }', "pi"),
        ('{ symbol = "__import__", shape = [3, 2] }', "symbol"),
        ('{ symbol = "w", shape = [3, 2], extra = 1 }', "extra"),
    ],
)
def test_bad_symbolic_matrix(tmp_path: Path, table: str, fragment: str) -> None:
    path = write(tmp_path, "p.toml", toml_problem(W_Q=table))
    message = load_error(path)
    assert message.startswith(f"{path}: W_Q"), message
    assert fragment in message, message


# -- labels, title, combinations ------------------------------------------------------------


def test_tokens_label_the_rows() -> None:
    assert load(problem(tokens=["我", "爱"])).tokens == ("我", "爱")


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        ({"tokens": ["a"]}, "tokens"),
        ({"tokens": ["a", 2]}, "tokens"),
        ({"title": 3}, "title"),
        ({"memory_tokens": ["m"]}, "memory_tokens"),
        ({"Q": [[1, 0]], "K": [[1, 0]], "V": [[1]]}, "not both"),
        ({"X": [[1, 0, 1]], "text": "a", "vocab": ["a"], "embedding": [[1, 0, 1]]}, "not both"),
    ],
)
def test_other_bad_keys(entries: dict[str, Any], fragment: str) -> None:
    message = load_error(problem(**entries), source="p.toml")
    assert message.startswith("p.toml: "), message
    assert fragment in message, message


# -- safety --------------------------------------------------------------------------------


def test_code_in_a_value_is_a_bad_value_and_nothing_runs(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    payload = f"__import__('os').system('touch {target}')"
    path = write(tmp_path, "p.toml", toml_problem(X=f"[[1, {json.dumps(payload)}, 1], [0, 2, 1]]"))
    message = load_error(path)
    assert message.startswith(f"{path}: X row 1, column 2"), message
    assert "bad value" in message
    assert not target.exists()


def test_the_issue_payload_in_a_json_file_does_not_create_tmp_pwned(tmp_path: Path) -> None:
    pwned = Path("/tmp/pwned")
    if pwned.exists():
        pytest.skip("/tmp/pwned already exists; cannot tell whether symattn created it")
    payload = "__import__('os').system('touch /tmp/pwned')"
    path = write(tmp_path, "p.json", json.dumps(problem(W_K=[[0, 1], [1, payload], [1, 1]])))
    message = load_error(path)
    assert message.startswith(f"{path}: W_K row 2, column 2"), message
    assert "bad value" in message
    assert not pwned.exists()


@pytest.mark.parametrize(
    "entries",
    [
        {"scale": "__import__('os').system('touch {target}')"},
        {"W_Q": {"symbol": "__import__('os').system('touch {target}')", "shape": [3, 2]}},
        {"mask": "__import__('os').system('touch {target}')"},
    ],
    ids=["scale", "symbol", "mask"],
)
def test_code_in_other_keys_is_rejected(tmp_path: Path, entries: dict[str, Any]) -> None:
    target = tmp_path / "pwned"
    text = json.dumps(problem(**entries)).replace("{target}", str(target))
    path = write(tmp_path, "p.json", text)
    message = load_error(path)
    assert message.startswith(f"{path}: {next(iter(entries))}"), message
    assert not target.exists()


def test_loading_never_evaluates_or_sympifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(
        tmp_path,
        "p.toml",
        toml_problem(
            X='[["1/2", "sqrt(8)", 0.1], [0, "w_12", "-3*sqrt(2)/2"]]',
            W_Q='{ symbol = "q", shape = [3, 2] }',
        )
        + 'scale = "sqrt(3)"\n',
    )
    calls: list[str] = []

    def forbidden(name: str):  # type: ignore[no-untyped-def]
        def fail(*args: object, **kwargs: object) -> None:
            calls.append(name)
            raise AssertionError(f"{name} called")

        return fail

    monkeypatch.setattr(builtins, "eval", forbidden("eval"))
    monkeypatch.setattr(builtins, "exec", forbidden("exec"))
    monkeypatch.setattr(sympy, "sympify", forbidden("sympify"))
    p = load(path)
    monkeypatch.undo()
    assert calls == []
    assert p.symbolic
    assert p.X[0][1] == 2 * sympy.sqrt(2)
    assert p.X[1][1] == sympy.Symbol("w_12")


def test_every_message_from_a_dict_uses_the_given_source() -> None:
    message = load_error(problem(X=[[1, 0, 1], [0, 2, "?"]]), source="lesson.toml")
    assert message.startswith("lesson.toml: X row 2, column 3"), message
