"""The class report says in each student's row what happened to their file: a file
that matches several students, or that is named for a student but is not an answers
file, is that student's "not marked" with its reason (never "nothing handed in" with the
reason only under the table); right answers with too few places say so in the row."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from .helpers import run_cli

ROSTER = "name,id\nLi Wei,s1\nLi Wei,s2\nBob,s3\nCy,s4\n"


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("week")
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    argv = ["exercises", "--seed", "3", "--students", str(root / "roster.csv")]
    status, _, err = run_cli([*argv, "-o", str(root / "class")])
    assert status == 0, err
    return root / "class"


def _key(week: Path, folder: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((week / "teacher" / folder / "answers.json").read_text())
    return data


def _places(value: Any, places: int) -> Any:
    """Every decimal of a key written with ``places`` places (as a student would)."""
    if isinstance(value, list):
        return [_places(v, places) for v in value]
    return str(Decimal(str(value)).quantize(Decimal(1).scaleb(-places)))


def _rows(out: str) -> dict[str, list[list[str]]]:
    """The text report's rows by student: [points, verdict, notes] (columns are two
    spaces or more apart)."""
    rows: dict[str, list[list[str]]] = {}
    for line in out.splitlines()[1:]:
        if line.startswith(("not marked", "未评分：")):
            continue
        name, *cells = re.split(r"\s{2,}", line, maxsplit=3)
        rows.setdefault(name, []).append([*cells, ""][:3])
    return rows


def test_an_ambiguous_file_is_in_both_rows_with_its_reason(week: Path, tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "Li Wei.json").write_text(json.dumps(_key(week, "Li_Wei")), encoding="utf-8")
    status, out, err = run_cli(["grade", str(week), str(subs)])
    assert status == 1
    why = f"{subs / 'Li Wei.json'} not marked: matches more than one student (Li_Wei, Li_Wei_2)"
    rows = _rows(out)
    assert rows["Li Wei"] == [["0/7", "not marked", why]] * 2
    assert rows["Bob"] == [["0/7", "nothing handed in", ""]]
    assert "; 2 handed nothing in;" in err  # Bob and Cy; not the two Li Weis
    status, out, _ = run_cli(["grade", str(week), str(subs), "--format", "json"])
    students = {s["id"]: s for s in json.loads(out)["students"]}
    assert [students[i]["verdict"] for i in ("s1", "s2", "s3")] == ["error", "error", "missing"]
    assert students["s1"]["notes"] == [why] and students["s3"]["notes"] == []


def test_a_file_named_for_a_student_that_is_not_answers_is_in_their_row(
    week: Path, tmp_path: Path
) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "Bob.json.txt").write_text(json.dumps(_key(week, "Bob")), encoding="utf-8")
    (subs / "s4.pdf").write_bytes(b"%PDF-1.4")  # Cy's id
    (subs / "notes.docx").write_bytes(b"")  # nobody's: under the table only
    report = tmp_path / "grades.csv"
    status, out, _ = run_cli(["grade", str(week), str(subs), "--report", str(report)])
    assert status == 1
    rows = _rows(out)
    why = "not an answers file (.json, .toml or .csv)"
    assert rows["Bob"] == [["0/7", "not marked", f"{subs / 'Bob.json.txt'} not marked: {why}"]]
    assert rows["Cy"] == [["0/7", "not marked", f"{subs / 's4.pdf'} not marked: {why}"]]
    assert f"not marked: {subs / 'notes.docx'}: matches no student" not in out
    assert f"not marked: {subs / 'notes.docx'}: not an answers file" in out
    table = list(csv.DictReader(io.StringIO(report.read_text(encoding="utf-8"))))
    by_id = {r["id"]: r for r in table}
    assert by_id["s3"]["verdict"] == "error"
    assert by_id["s3"]["diagnoses"].endswith("not an answers file (.json, .toml or .csv)")
    assert by_id["s1"]["verdict"] == "missing"


def test_too_few_places_is_a_row_note(week: Path, tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    key = _key(week, "Bob")
    (subs / "Bob.json").write_text(
        json.dumps({k: _places(v, 2) for k, v in key.items()}), encoding="utf-8"
    )
    status, out, _ = run_cli(["grade", str(week), str(subs)])
    assert status == 0
    row = _rows(out)["Bob"][0]
    whole = sum(1 for rows in key.values() for r in rows for x in r if Decimal(str(x)) % 1 == 0)
    entries = sum(len(r) for rows in key.values() for r in rows)
    note = f"too few places: {entries - whole} right entries written with fewer than 4 decimal"
    assert row[1] == "incorrect" and row[2].startswith(note), row
    status, out, _ = run_cli(["grade", str(week), str(subs), "--lang", "zh"])
    assert _rows(out)["Bob"][0][2] == f"小数位数不够：{entries - whole} 个正确的数少于 4 位小数"
    (subs / "Bob.json").write_text(
        json.dumps({k: _places(v, 4) for k, v in key.items()}), encoding="utf-8"
    )
    _, out, _ = run_cli(["grade", str(week), str(subs)])
    assert _rows(out)["Bob"] == [["7/7", "correct", ""]]  # four places: no note


def test_a_zip_names_the_file_as_in_the_zip_in_the_row(week: Path, tmp_path: Path) -> None:
    archive = tmp_path / "subs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("Li Wei.json", json.dumps(_key(week, "Li_Wei")))
    status, out, _ = run_cli(["grade", str(week), str(archive)])
    assert status == 1
    why = "matches more than one student (Li_Wei, Li_Wei_2)"
    assert _rows(out)["Li Wei"][0] == [
        "0/7",
        "not marked",
        f"{archive}/Li Wei.json not marked: {why}",
    ]


def test_the_summary_counts_an_ambiguous_file_as_not_marked(week: Path, tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copy(week / "teacher" / "Li_Wei" / "answers.json", subs / "Li Wei.json")
    summary = tmp_path / "summary.html"
    status, _, _ = run_cli(["grade", str(week), str(subs), "--summary", str(summary)])
    assert status == 1
    page = summary.read_text(encoding="utf-8")
    assert "4 students: 0 marked, 2 handed nothing in, 2 not marked" in page
