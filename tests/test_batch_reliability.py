"""Issue 14, items 2 and 9 and the low items about batch reading: a class is always
graded, every bad file is one row; FIFOs, devices and oversized files are refused without
being read; links stay in their folder; names with glob, formula or control characters
and names that are not UTF-8 reach the report intact and inert."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from symattn.check.grade import answer_files
from symattn.errors import SymattnError
from symattn.load import files
from symattn.load.files import check_readable, list_files, read_text

from .helpers import ROOT, run_cli

SEED = str(ROOT / "symattn" / "examples" / "seed.toml")
RIGHT = {"weights": [["0.1070", "0.8930"], ["0.9717", "0.0283"]]}


def _class(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "class"
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_text(json.dumps(RIGHT), encoding="utf-8")
    return folder


def _report(tmp_path: Path, *answers: str) -> tuple[int, list[list[str]], str]:
    report = tmp_path / "report.csv"
    status, out, err = run_cli(["check", SEED, *answers, "--report", str(report)])
    assert out == ""
    assert "internal error" not in err and "Traceback" not in err
    rows = list(csv.reader(io.StringIO(report.read_text(encoding="utf-8"))))
    return status, rows, err


def test_a_fifo_and_a_link_to_dev_zero_are_rows_not_hangs(tmp_path: Path) -> None:
    folder = _class(tmp_path, "good.json")
    os.mkfifo(folder / "fifo.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    status, rows, err = _report(tmp_path, str(folder))
    assert status == 2
    by_name = {Path(r[0]).name: r for r in rows[1:]}
    assert by_name["good.json"][1] == "correct"
    assert by_name["fifo.json"][1] == "error" and "not a regular file" in by_name["fifo.json"][-1]
    assert by_name["zero.json"][1] == "error"
    assert "graded 3 files: 1 correct, 0 incorrect, 2 unreadable" in err


def test_an_oversized_file_is_refused_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _class(tmp_path, "good.json", "big.json")
    (folder / "big.json").write_text(json.dumps(RIGHT) + " " * 5000, encoding="utf-8")
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    status, rows, _ = _report(tmp_path, str(folder))
    by_name = {Path(r[0]).name: r for r in rows[1:]}
    assert "larger than 1000 bytes" in by_name["big.json"][-1]
    assert by_name["good.json"][1] == "correct" and status == 2


def test_links_stay_inside_the_submissions_folder(tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps(RIGHT), encoding="utf-8")
    folder = _class(tmp_path, "good.json")
    (folder / "out.json").symlink_to(secret)
    (folder / "in.json").symlink_to(folder / "good.json")
    status, rows, _ = _report(tmp_path, str(folder))
    by_name = {Path(r[0]).name: r for r in rows[1:]}
    assert status == 2 and by_name["in.json"][1] == "correct"
    assert by_name["out.json"][1] == "error" and "outside" in by_name["out.json"][-1]
    with pytest.raises(SymattnError, match="outside"):
        read_text(folder / "out.json", within=folder)
    assert read_text(folder / "out.json") == secret.read_text(encoding="utf-8")


def test_an_existing_name_with_glob_characters_is_a_file(tmp_path: Path) -> None:
    folder = _class(tmp_path, "a[1].json", "a1.json")
    (folder / "a1.json").write_text("{}", encoding="utf-8")
    name = str(folder / "a[1].json")
    assert answer_files([name]) == [name]
    status, out, err = run_cli(["check", SEED, name])  # one file: the feedback, not a CSV
    assert (status, err) == (0, "") and "file,verdict" not in out
    assert answer_files([str(folder / "a?.json")]) == [str(folder / "a1.json")]


def test_names_that_spreadsheets_or_terminals_would_obey(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["=1+1.json", "@SUM(A1).json", "+x.json", "-x.json", "a\rb.json", "e\x1b[2J.json"]
    folder = _class(tmp_path, *names)
    monkeypatch.chdir(folder)  # the cells start with the names themselves
    status, rows, err = _report(tmp_path, "*.json")
    assert status == 0 and len(rows) == 1 + len(names)
    cells = sorted(r[0] for r in rows[1:])
    assert cells == sorted(["'=1+1.json", "'@SUM(A1).json", "'+x.json", "'-x.json",
                            "a\\u000db.json", "e\\u001b[2J.json"])  # fmt: skip
    text = (tmp_path / "report.csv").read_text(encoding="utf-8")
    assert "\r" not in text and "\x1b" not in text and "\x1b" not in err


def test_a_name_that_is_not_utf8_survives_into_the_report(tmp_path: Path) -> None:
    folder = _class(tmp_path, "ok.json")
    raw = os.fsencode(folder) + b"/caf\xe9.json"
    with open(raw, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(RIGHT))
    status, rows, err = _report(tmp_path, str(folder))
    assert status == 0
    names = sorted(Path(r[0]).name for r in rows[1:])
    assert names == ["caf\\udce9.json", "ok.json"]
    assert "graded 2 files: 2 correct" in err


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ('{"scores": [[1e1000000, 5], [5, 0]]}', ""),
        ('{"scores": [[1e-1000000, 5], [5, 0]]}', ""),
        ('{"tolerance": "1e999999999", "scores": [[2, 5], [5, 0]]}', "tolerance"),
        ('{"weights": [["0.1", "0.9"], ["0.9", "0.1"]], "weights": []}', "given twice"),
        ('{"weights": [["\\ud800", "0.9"], ["0.9", "0.1"]]}', ""),
        ("{" + '"a":' * 1 + "[" * 50_000 + "]" * 50_000 + "}", ""),
    ],
)
def test_one_bad_file_never_stops_the_class(tmp_path: Path, payload: str, fragment: str) -> None:
    folder = _class(tmp_path, "a_good.json", "z_good.json")
    (folder / "m_bad.json").write_text(payload, encoding="utf-8")
    status, rows, err = _report(tmp_path, str(folder))
    assert status in (1, 2) and len(rows) == 4
    by_name = {Path(r[0]).name: r for r in rows[1:]}
    assert by_name["a_good.json"][1] == by_name["z_good.json"][1] == "correct"
    assert fragment in by_name["m_bad.json"][-1] + by_name["m_bad.json"][1]
    assert err.count("\n") <= 2


def test_list_files_limits_and_filters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _class(tmp_path, "b.JSON", "a.toml", "c.txt")
    (folder / "d.json").mkdir()
    assert [p.name for p in list_files(folder, (".json", ".toml"))] == ["a.toml", "b.JSON"]
    with pytest.raises(SymattnError, match="more than 1 files"):
        list_files(folder, (".json", ".toml"), limit=1)


def test_check_readable_refuses_without_reading(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f")
    with pytest.raises(SymattnError, match="not a regular file"):
        check_readable(tmp_path / "f")  # returns at once: nothing opened
    with pytest.raises(SymattnError, match="directory"):
        check_readable(tmp_path)
    with pytest.raises(SymattnError, match="no such file"):
        check_readable(tmp_path / "none")
