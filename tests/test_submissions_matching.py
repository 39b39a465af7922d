"""Submissions that are not answers files are reported, and a folder named exactly as a
student's own folder is that student's even when names repeat (reproducers r06, r07)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .helpers import run_cli


def _class(tmp_path: Path, roster: str) -> Path:
    (tmp_path / "roster.csv").write_text(roster, encoding="utf-8")
    roster_path, week = str(tmp_path / "roster.csv"), str(tmp_path / "class")
    status, _, err = run_cli(["exercises", "--seed", "3", "--students", roster_path, "-o", week])
    assert status == 0, err
    (tmp_path / "subs").mkdir()
    return tmp_path / "class"


def _key(week: Path, folder: str) -> Path:
    return week / "teacher" / folder / "answers.json"


def test_r06_r07(tmp_path: Path) -> None:
    week = _class(
        tmp_path, "name,id,email\nAnn,s1,ann1@x.org\nAnn,s2,ann2@x.org\nBob,s3,bob@x.org\n"
    )
    subs = tmp_path / "subs"
    (subs / "Ann").mkdir()
    shutil.copy(_key(week, "Ann"), subs / "Ann" / "answers.json")
    (subs / "s2.zip").write_bytes(b"PK\x03\x04")
    shutil.copy(_key(week, "Bob"), subs / "Bob.json.txt")
    status, out, err = run_cli(["grade", str(week), str(subs)])
    assert status == 1
    lines = out.splitlines()
    assert lines[1].split()[:3] == ["Ann", "7/7", "correct"]  # the folder Ann is Ann's
    assert f"not marked: {subs / 'Bob.json.txt'}: not an answers file" in out
    assert f"not marked: {subs / 's2.zip'}: not an answers file" in out
    assert "2 files not matched" in err
    status, out, _ = run_cli(["grade", str(week), str(subs), "--format", "json"])
    reasons = {Path(u["file"]).name: u["reason"] for u in json.loads(out)["unmatched"]}
    assert reasons == {"Bob.json.txt": "not_answers", "s2.zip": "not_answers"}


def test_repeated_names_each_by_its_own_folder_or_id(tmp_path: Path) -> None:
    """Unseen: three students named Li; the second's folder Li_2 and the third's id."""
    week = _class(tmp_path, "name,id,email\nLi,t1,li1@x.org\nLi,t2,li2@x.org\nLi,t3,li3@x.org\n")
    subs = tmp_path / "subs"
    shutil.copy(_key(week, "Li"), subs / "Li.json")
    (subs / "Li_2").mkdir()
    shutil.copy(_key(week, "Li_2"), subs / "Li_2" / "answers.json")
    shutil.copy(_key(week, "Li_3"), subs / "t3.toml.json")  # not the id: matches nobody
    shutil.copy(_key(week, "Li_3"), subs / "T3.json")  # the id, case-blind
    (subs / "notes.docx").write_bytes(b"")
    status, out, _ = run_cli(["grade", str(week), str(subs), "--format", "json"])
    data = json.loads(out)
    verdicts = {s["folder"]: s["verdict"] for s in data["students"]}
    assert verdicts == {"Li": "correct", "Li_2": "correct", "Li_3": "correct"}
    reasons = {Path(u["file"]).name: u["reason"] for u in data["unmatched"]}
    assert reasons == {"notes.docx": "not_answers", "t3.toml.json": "no_student"}
    assert status == 1
