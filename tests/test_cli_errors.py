"""The command's errors (SPEC §6): one line ``symattn: error: …``, exit status 2, no traceback.

Most tests call :func:`symattn.cli.main` in-process; a few run ``python -m symattn`` for
real to prove that nothing escapes as a traceback.  ``-o OUT`` is written whole or not at
all: after an error there is no OUT and no temporary file beside it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from symattn.cli import main
from symattn.load import DEFAULT_MAX_SIZE, problem_file

from .helpers import BASE, BASE_TOML

PAYLOAD = "__import__('os').system('touch {target}')"


def toml_text(**entries: str | None) -> str:
    merged: dict[str, str | None] = {**BASE_TOML, **entries}
    return "".join(f"{key} = {value}\n" for key, value in merged.items() if value is not None)


def json_text(placeholder: str = "", literal: str = "", **entries: Any) -> str:
    """JSON of the base problem; ``placeholder`` (a string value) is replaced by ``literal``."""
    merged = {k: v for k, v in {**BASE, **entries}.items() if v is not None}
    text = json.dumps(merged, ensure_ascii=False)
    return text.replace(json.dumps(placeholder), literal) if placeholder else text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_one_error_line(err: str) -> str:
    """The stderr of a failed run: exactly one line ``symattn: error: …``; return the message."""
    assert err.startswith("symattn: error: "), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    # A bad input is recognised as such, not caught as a crash by the last-resort handler.
    assert "internal error" not in err, err
    return err[len("symattn: error: ") : -1]


# -- bad problem files --------------------------------------------------------------------


BadFile = tuple[str, str | bytes, list[str]]

BAD_FILES: dict[str, BadFile] = {
    "shape-mismatch": (
        "p.toml",
        toml_text(W_Q="[[1, 0], [0, 1]]"),
        ["W_Q", "X", "2 × 2", "2 × 3", "d_model"],
    ),
    "shape-mismatch-d_k": (
        "p.toml",
        toml_text(W_K="[[1], [0], [1]]"),
        ["W_K", "W_Q", "3 × 1", "3 × 2", "d_k"],
    ),
    "non-numeric": (
        "p.toml",
        toml_text(X='[[1, 0, 1], [0, 2, "abc def"]]'),
        ["X row 2, column 3", "abc def"],
    ),
    "non-numeric-json-null": (
        "p.json",
        json_text("HERE", "null", X=[[1, 0, 1], [0, 2, "HERE"]]),
        ["X row 2, column 3", "null"],
    ),
    "non-numeric-boolean": (
        "p.toml",
        toml_text(W_V="[[1, 2], [true, 1], [2, 0]]"),
        ["W_V row 2, column 1", "true"],
    ),
    "toml-nan": (
        "p.toml",
        toml_text(X="[[1, 0, 1], [0, 2, nan]]"),
        ["X row 2, column 3", "finite"],
    ),
    "toml-inf": (
        "p.toml",
        toml_text(X="[[1, 0, 1], [0, 2, inf]]"),
        ["X row 2, column 3", "finite"],
    ),
    "toml-minus-inf": (
        "p.toml",
        toml_text(X="[[1, 0, 1], [0, 2, -inf]]"),
        ["X row 2, column 3", "finite"],
    ),
    "string-nan": (
        "p.toml",
        toml_text(X='[[1, 0, 1], [0, 2, "nan"]]'),
        ["X row 2, column 3", "finite"],
    ),
    "string-inf": (
        "p.toml",
        toml_text(X='[[1, 0, 1], [0, 2, "inf"]]'),
        ["X row 2, column 3", "finite"],
    ),
    "json-NaN": (
        "p.json",
        json_text("HERE", "NaN", X=[[1, 0, 1], [0, 2, "HERE"]]),
        ["X row 2, column 3", "finite"],
    ),
    "json-Infinity": (
        "p.json",
        json_text("HERE", "Infinity", X=[[1, 0, 1], [0, 2, "HERE"]]),
        ["X row 2, column 3", "finite"],
    ),
    "json-minus-Infinity": (
        "p.json",
        json_text("HERE", "-Infinity", X=[[1, 0, 1], [0, 2, "HERE"]]),
        ["X row 2, column 3", "finite"],
    ),
    "json-string-inf": (
        "p.json",
        json_text("HERE", '"inf"', X=[[1, 0, 1], [0, 2, "HERE"]]),
        ["X row 2, column 3", "finite"],
    ),
    "empty-matrix": ("p.toml", toml_text(X="[]"), ["X", "empty"]),
    "empty-row": ("p.toml", toml_text(W_K="[[], [], []]"), ["W_K row 1", "empty"]),
    "ragged-row": ("p.toml", toml_text(X="[[1, 0, 1], [0, 2]]"), ["X row 2", "ragged"]),
    "missing-matrix": ("p.toml", toml_text(W_V=None), ["missing", "W_V"]),
    "missing-X": ("p.json", json_text(X=None), ["missing", "X"]),
    "unknown-token-greedy": (
        "p.toml",
        'text = "我爱苹"\nvocab = ["<unk>", "我", "爱", "苹果"]\n'
        "embedding = [[0, 0, 0], [1, 0, 1], [0, 2, 1], [1, 1, 0]]\n" + toml_text(X=None),
        ["text", "'苹'", "character 3", "苹果"],
    ),
    "unknown-token-words": (
        "p.toml",
        'text = "the cta sat"\nvocab = ["the", "cat", "sat"]\n'
        "embedding = [[0, 0, 1], [1, 0, 1], [0, 2, 1]]\n" + toml_text(X=None),
        ["text", "'cta'", "word 2", "cat"],
    ),
    "unknown-token-nothing-close": (
        "p.toml",
        'text = "我爱梨"\nvocab = ["<unk>", "我", "爱", "苹果"]\n'
        "embedding = [[0, 0, 0], [1, 0, 1], [0, 2, 1], [1, 1, 0]]\n" + toml_text(X=None),
        ["text", "'梨'", "character 3", "苹果"],
    ),
    "missing-embedding-row": (
        "p.toml",
        'text = "我 苹果"\nvocab = { "我" = 1, "苹果" = 1024 }\n'
        + toml_text(X=None)
        + "[embedding]\n1 = [1, 0, 1]\n",
        ["embedding", "1024", "苹果"],
    ),
    "fully-masked-row": (
        "p.toml",
        toml_text(mask="[[1, 1], [0, 0]]"),
        ["mask row 2", "softmax"],
    ),
    "fully-masked-row-json": (
        "p.json",
        json_text(mask=[[0, 0], [1, 1]]),
        ["mask row 1", "softmax"],
    ),
    "too-large": (
        "p.json",
        json_text(X=[[1, 0, 1]] * (DEFAULT_MAX_SIZE + 1)),
        [f"n = {DEFAULT_MAX_SIZE + 1}", str(DEFAULT_MAX_SIZE), "--max-size"],
    ),
    "too-large-symbolic": (
        "p.toml",
        toml_text(X='{ symbol = "x", shape = [9, 3] }'),
        ["n = 9", "--max-size"],
    ),
    "malformed-toml": ("p.toml", "X = [[1, 0], [0, 1]\nW_Q = 3\n", ["malformed TOML"]),
    "malformed-toml-duplicate": ("p.toml", "X = 1\nX = 2\n", ["malformed TOML", "line 2"]),
    "malformed-json": ("p.json", '{"X": [[1, 0], [0, 1]],}', ["malformed JSON", "line 1"]),
    "malformed-json-truncated": ("p.json", '{"X": [[1, 0]', ["malformed JSON"]),
    "json-not-an-object": ("p.json", "[1, 2]", ["object"]),
    "not-utf8": ("p.toml", b"X = [[1, \xff]]\n", ["UTF-8"]),
    "unknown-key": ("p.toml", toml_text() + 'maks = "causal"\n', ["'maks'", "did you mean 'mask'"]),
    "unknown-key-case": (
        "p.toml",
        toml_text(W_Q=None) + "W_q = [[1, 0], [0, 1], [1, 1]]\n",
        ["'W_q'", "did you mean 'W_Q'"],
    ),
    "bad-mask": ("p.toml", toml_text(mask='"causl"'), ["mask", "causal"]),
    "bad-scale": ("p.toml", toml_text(scale="-2"), ["scale", "positive"]),
    "injection": (
        "p.toml",
        toml_text(X=f'[[1, "{PAYLOAD}", 1], [0, 2, 1]]'),
        ["X row 1, column 2", "bad value"],
    ),
}


def _write_bad(tmp_path: Path, case: str) -> tuple[Path, list[str], Path]:
    name, content, fragments = BAD_FILES[case]
    target = tmp_path / "pwned"
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content.replace("{target}", str(target)), encoding="utf-8")
    return path, fragments, target


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_file_is_one_error_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    path, fragments, target = _write_bad(tmp_path, case)
    status, out, err = run(capsys, "derive", str(path))
    assert status == 2
    assert out == ""
    message = assert_one_error_line(err)
    assert message.startswith(f"{path}: "), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert not target.exists()


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_file_leaves_no_output_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, fmt: str
) -> None:
    path, _, _ = _write_bad(tmp_path, case)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out_file = out_dir / f"result.{fmt}"
    status, out, err = run(capsys, "derive", str(path), "--format", fmt, "-o", str(out_file))
    assert status == 2
    assert out == ""
    assert_one_error_line(err)
    assert not out_file.exists()
    assert list(out_dir.iterdir()) == []  # no temporary file left behind either


def test_error_keeps_an_existing_output_file_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = _write_bad(tmp_path, "shape-mismatch")
    out_file = tmp_path / "out" / "result.txt"
    out_file.parent.mkdir()
    out_file.write_text("previous result\n", encoding="utf-8")
    status, _, err = run(capsys, "derive", str(path), "-o", str(out_file))
    assert status == 2
    assert_one_error_line(err)
    assert out_file.read_text(encoding="utf-8") == "previous result\n"
    assert [p.name for p in out_file.parent.iterdir()] == ["result.txt"]


def test_injection_runs_nothing_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "pwned"
    payload = PAYLOAD.replace("{target}", str(target))
    for where, text in {
        "X": toml_text(X=f'[[1, "{payload}", 1], [0, 2, 1]]'),
        "scale": toml_text(scale=json.dumps(payload)),
        "W_Q.symbol": toml_text(W_Q=f'{{ symbol = "{payload}", shape = [3, 2] }}'),
        "text": 'text = "a"\nvocab = ["a"]\n'
        f'embedding = [[1, "{payload}", 0]]\n' + toml_text(X=None),
    }.items():
        path = tmp_path / "p.toml"
        path.write_text(text, encoding="utf-8")
        status, out, err = run(capsys, "derive", str(path))
        assert status == 2, where
        assert out == ""
        message = assert_one_error_line(err)
        assert message.startswith(f"{path}: "), message
        assert not target.exists(), where


# -- usage errors ----------------------------------------------------------------------------


def _ok_file(tmp_path: Path) -> Path:
    path = tmp_path / "ok.toml"
    path.write_text(toml_text(), encoding="utf-8")
    return path


USAGE: dict[str, tuple[list[str], list[str]]] = {
    "no-command": ([], ["command"]),
    "unknown-command": (["frobnicate"], ["frobnicate"]),
    "derive-without-file": (["derive"], ["FILE"]),
    "missing-file": (["derive", "{missing}"], ["{missing}", "no such file"]),
    "directory": (["derive", "{dir}"], ["{dir}", "directory"]),
    "unknown-example": (["derive", "--example", "nope"], ["nope", "seed"]),
    "file-and-example": (["derive", "{ok}", "--example", "seed"], ["--example"]),
    "rows-zero": (["derive", "{ok}", "--rows", "0"], ["--rows", "0"]),
    "rows-too-big": (["derive", "{ok}", "--rows", "3"], ["--rows", "3", "2"]),
    "rows-word": (["derive", "{ok}", "--rows", "first"], ["--rows", "first"]),
    "rows-empty": (["derive", "{ok}", "--rows="], ["--rows"]),
    "rows-negative": (["derive", "{ok}", "--rows=-1"], ["--rows", "-1"]),
    "rows-decimal": (["derive", "{ok}", "--rows", "1.5"], ["--rows", "1.5"]),
    "rows-partly-bad": (["derive", "{ok}", "--rows", "1,x"], ["--rows"]),
    "rows-trailing-comma": (["derive", "{ok}", "--rows", "1,"], ["--rows"]),
    "digits-negative": (["derive", "{ok}", "--digits=-1"], ["--digits", "-1"]),
    "digits-too-many": (["derive", "{ok}", "--digits", "31"], ["--digits", "31"]),
    "digits-huge": (["derive", "{ok}", "--digits", "100000"], ["--digits"]),
    "digits-word": (["derive", "{ok}", "--digits", "four"], ["--digits", "four"]),
    "digits-decimal": (["derive", "{ok}", "--digits", "2.5"], ["--digits", "2.5"]),
    "format": (["derive", "{ok}", "--format", "xml"], ["--format", "xml"]),
    "max-size-zero": (["derive", "{ok}", "--max-size", "0"], ["--max-size", "0"]),
    "max-size-word": (["derive", "{ok}", "--max-size", "big"], ["--max-size", "big"]),
    "unknown-option": (["derive", "{ok}", "--bogus"], ["--bogus"]),
    "output-dir-missing": (
        ["derive", "{ok}", "-o", "{missing_dir}/out.txt"],
        ["-o", "{missing_dir}"],
    ),
}


def _fill(template: str, tmp_path: Path) -> str:
    return (
        template.replace("{ok}", str(_ok_file(tmp_path)))
        .replace("{missing_dir}", str(tmp_path / "no" / "such" / "dir"))
        .replace("{missing}", str(tmp_path / "missing.toml"))
        .replace("{dir}", str(tmp_path / "a_directory"))
    )


@pytest.mark.parametrize("case", list(USAGE))
def test_usage_error_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    (tmp_path / "a_directory").mkdir()
    argv, fragments = USAGE[case]
    status, out, err = run(capsys, *[_fill(a, tmp_path) for a in argv])
    assert status == 2
    assert out == ""
    message = assert_one_error_line(err)
    for fragment in fragments:
        assert _fill(fragment, tmp_path) in message, (fragment, message)


def test_output_path_that_is_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ok = _ok_file(tmp_path)
    target = tmp_path / "out"
    target.mkdir()
    (target / "keep.txt").write_text("x", encoding="utf-8")
    status, out, err = run(capsys, "derive", str(ok), "-o", str(target))
    assert status == 2
    assert out == ""
    assert str(target) in assert_one_error_line(err)
    assert target.is_dir()
    assert [p.name for p in target.iterdir()] == ["keep.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.toml", "out"]


# -- what succeeds -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--rows", "all"],
        ["--rows", "1,2"],
        ["--rows", "2"],
        ["--rows", " 2 , 1 "],
        ["--digits", "0"],
        ["--digits", "30"],
        ["--format", "json"],
        ["--max-size", "3"],
    ],
)
def test_good_runs_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    status, out, err = run(capsys, "derive", str(_ok_file(tmp_path)), *extra)
    assert (status, err) == (0, "")
    assert out.strip()


@pytest.mark.parametrize("digits", [0, 1, 4, 30])
def test_digits_sets_the_decimal_places(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], digits: int
) -> None:
    status, out, err = run(
        capsys, "derive", str(_ok_file(tmp_path)), "--format", "json", "--digits", str(digits)
    )
    assert (status, err) == (0, "")
    weights = next(s for s in json.loads(out)["steps"] if s["id"] == "weights")
    for row in weights["decimal"]:
        for entry in row:
            places = len(entry.split(".", 1)[1]) if "." in entry else 0
            assert places == digits, entry


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_output_file_is_written_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    ok = _ok_file(tmp_path)
    status, expected, err = run(capsys, "derive", str(ok), "--format", fmt)
    assert (status, err) == (0, "")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out_file = out_dir / f"result.{fmt}"
    out_file.write_text("stale\n", encoding="utf-8")
    status, out, err = run(capsys, "derive", str(ok), "--format", fmt, "-o", str(out_file))
    assert (status, out, err) == (0, "", "")
    assert out_file.read_text(encoding="utf-8") == expected
    assert [p.name for p in out_dir.iterdir()] == [out_file.name]
    if fmt == "json":
        assert json.loads(out_file.read_text(encoding="utf-8"))["shapes"]["n"] == 2


def test_max_size_option_lifts_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit (patched down from DEFAULT_MAX_SIZE, so the test stays quick) is named with
    the command's own flag, and the flag lifts it."""
    assert DEFAULT_MAX_SIZE == 128
    monkeypatch.setattr(problem_file, "DEFAULT_MAX_SIZE", 4)
    path = tmp_path / "big.json"
    path.write_text(json_text(X=[[1, 0, 1]] * 5), encoding="utf-8")
    status, _, err = run(capsys, "derive", str(path), "--format", "json")
    assert status == 2
    line = assert_one_error_line(err)
    assert "pass --max-size 5 to lift it" in line and "max_size=" not in line
    status, out, err = run(capsys, "derive", str(path), "--format", "json", "--max-size", "5")
    assert (status, err) == (0, "")
    assert json.loads(out)["shapes"]["n"] == 5


def test_examples_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "examples")
    assert (status, err) == (0, "")
    assert "seed" in out.split()


# -- real processes ------------------------------------------------------------------------


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SYMATTN_DEBUG"}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _symattn(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "symattn", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_env(),
        timeout=300,
        check=False,
    )


def _bad_file_argv(case: str) -> Callable[[Path], list[str]]:
    def build(tmp_path: Path) -> list[str]:
        path, _, _ = _write_bad(tmp_path, case)
        return ["derive", str(path)]

    return build


SUBPROCESS_CASES: dict[str, Callable[[Path], list[str]]] = {
    "shape-mismatch": _bad_file_argv("shape-mismatch"),
    "json-NaN": _bad_file_argv("json-NaN"),
    "toml-inf": _bad_file_argv("toml-inf"),
    "malformed-toml": _bad_file_argv("malformed-toml"),
    "unknown-token": _bad_file_argv("unknown-token-greedy"),
    "too-large": _bad_file_argv("too-large"),
    "not-utf8": _bad_file_argv("not-utf8"),
    "missing-file": lambda tmp: ["derive", str(tmp / "missing.toml")],
    "unknown-example": lambda tmp: ["derive", "--example", "nope"],
    "bad-rows": lambda tmp: ["derive", str(_ok_file(tmp)), "--rows", "9"],
    "bad-digits": lambda tmp: ["derive", str(_ok_file(tmp)), "--digits", "x"],
    "no-command": lambda tmp: [],
}


@pytest.mark.parametrize("case", list(SUBPROCESS_CASES))
def test_real_process_exits_2_with_one_line_and_no_traceback(tmp_path: Path, case: str) -> None:
    result = _symattn(tmp_path, *SUBPROCESS_CASES[case](tmp_path))
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert_one_error_line(result.stderr)


def test_real_process_with_the_issue_payload_creates_nothing(tmp_path: Path) -> None:
    pwned = Path("/tmp/pwned")
    if pwned.exists():
        pytest.skip("/tmp/pwned already exists; cannot tell whether symattn created it")
    path = tmp_path / "p.toml"
    payload = "__import__('os').system('touch /tmp/pwned')"
    path.write_text(toml_text(X=f"[[1, {json.dumps(payload)}, 1], [0, 2, 1]]"), encoding="utf-8")
    out_file = tmp_path / "out.txt"
    result = _symattn(tmp_path, "derive", str(path), "-o", str(out_file))
    assert result.returncode == 2
    message = assert_one_error_line(result.stderr)
    assert "bad value" in message and "X row 1, column 2" in message
    assert not pwned.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.toml"]


def test_real_process_success_exits_0(tmp_path: Path) -> None:
    result = _symattn(tmp_path, "derive", "--example", "seed", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout)["crosscheck"]["passed"] is True
