"""Whose page an answers file comes from: ``page_id`` written into each student's
self-check page, read back by ``grade``, which never marks a file downloaded from another
student's page (or a page of another problem) against either problem."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from symattn.classroom import grade_class
from symattn.classroom.grading import grade_submission
from symattn.classroom.manifest import read_manifest
from symattn.classroom.page_ids import page_id, page_id_of

from .helpers import run_cli

ROSTER = "name,id,email\nAda Lovelace,s001,ada@example.org\nBo Li,s002,bo@example.org\n"
DATA = re.compile(r'<script type="application/json" id="symattn-self-check">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pages")
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    status, _, err = run_cli(
        ["exercises", "--seed", "11", "--html", "--students", str(root / "roster.csv"),
         "-o", str(root / "week")]
    )  # fmt: skip
    assert status == 0, err
    return root / "week"


def embedded_id(week: Path, folder: str) -> Any:
    text = (week / "students" / folder / "self-check.html").read_text(encoding="utf-8")
    found = DATA.search(text)
    assert found is not None
    return json.loads(found.group(1))["page_id"]


def test_each_page_carries_its_students_folder_and_problem_hash(week: Path) -> None:
    for folder in ("Ada_Lovelace", "Bo_Li"):
        problem = (week / "teacher" / folder / "problem.toml").read_text(encoding="utf-8")
        assert embedded_id(week, folder) == page_id(folder, problem)
        assert re.fullmatch(rf"{folder}/[0-9a-f]{{16}}", embedded_id(week, folder))
    assert embedded_id(week, "Ada_Lovelace") != embedded_id(week, "Bo_Li")


def _hand_in(subs: Path, folder: str, ident: str | None) -> None:
    answers = json.loads(
        (subs.parent / "week" / "teacher" / folder / "answers.json").read_text("utf-8")
    )
    data = ({"page_id": ident} if ident is not None else {}) | answers
    (subs / folder).mkdir(parents=True, exist_ok=True)
    (subs / folder / "answers.json").write_text(json.dumps(data), encoding="utf-8")


def test_a_file_from_another_students_page_is_reported_never_marked(week: Path) -> None:
    subs = week.parent / "subs"
    ada, bo = embedded_id(week, "Ada_Lovelace"), embedded_id(week, "Bo_Li")
    _hand_in(subs, "Ada_Lovelace", ada)  # her own page: marked
    _hand_in(subs, "Bo_Li", ada)  # Bo hands in what he typed into Ada's page
    grades = grade_class(week, subs)
    rows = {r.entry.folder: r for r in grades.rows}
    assert rows["Ada_Lovelace"].verdict == "correct" and rows["Ada_Lovelace"].error is None
    bo_row = rows["Bo_Li"]
    assert bo_row.verdict == "error" and bo_row.result is None
    assert bo_row.error is not None and "Ada Lovelace's self-check page" in bo_row.error
    assert ada in bo_row.error and bo not in bo_row.error
    assert grades.exit_status == 1
    status, _, err = run_cli(["grade", str(week), str(subs)])
    assert status == 1 and "Bo_Li: " in err and "Ada Lovelace's self-check page" in err


def test_a_file_from_a_page_of_another_problem_is_reported(week: Path) -> None:
    subs = week.parent / "subs-other"
    _hand_in(subs, "Ada_Lovelace", "Ada_Lovelace/0000000000000000")
    _hand_in(subs, "Bo_Li", None)  # no page id (typed by hand): marked as before
    grades = grade_class(week, subs)
    rows = {r.entry.folder: r for r in grades.rows}
    assert rows["Ada_Lovelace"].error is not None
    assert "another problem" in rows["Ada_Lovelace"].error
    assert rows["Ada_Lovelace"].result is None
    assert rows["Bo_Li"].verdict == "correct"


def test_one_submission_is_refused_as_the_class_refuses_it(week: Path) -> None:
    """The Gradescope autograder marks one file at a time: the same refusal."""
    subs = week.parent / "subs-one"
    _hand_in(subs, "Bo_Li", embedded_id(week, "Ada_Lovelace"))
    manifest = read_manifest(week)
    bo = next(e for e in manifest.students if e.folder == "Bo_Li")
    row = grade_submission(week, manifest, bo, subs / "Bo_Li" / "answers.json")
    assert row.result is None and row.error is not None and "Ada Lovelace" in row.error


def test_page_id_of_reads_only_a_string(tmp_path: Path) -> None:
    cases = {
        "a.json": ('{"page_id": "A/1"}', "A/1"),
        "b.json": ('{"page_id": 3}', None),
        "c.json": ("{broken", None),
        "d.toml": ('page_id = "B/2"\n', "B/2"),
        "e.csv": ("step,row,col,value\n", None),
    }
    for name, (text, wanted) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert page_id_of(tmp_path / name) == wanted
