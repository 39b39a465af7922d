"""``grade --moodle-grades``: the import is in points, and stderr says out of what; a
roster where only some students have an email is matched by ID number for all, and
the students without one are named; a student with neither is left out, by name."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from symattn.load.files import read_file

from .helpers import run_cli
from .reference import attention

STEPS = ["Q", "K", "V", "scores", "scaled_scores", "weights", "output"]


def _class(root: Path, roster: str) -> tuple[Path, Path]:
    (root / "roster.csv").write_text(roster, encoding="utf-8")
    status, _, err = run_cli(
        ["exercises", "--seed", "7", "--students", str(root / "roster.csv"),
         "-o", str(root / "week")]
    )  # fmt: skip
    assert status == 0, err
    subs = root / "subs"
    subs.mkdir()
    for folder in sorted(p.name for p in (root / "week/teacher").iterdir() if p.is_dir()):
        values = attention(read_file(root / "week/teacher" / folder / "problem.toml"))
        answers = {s: [[f"{v:.4f}" for v in row] for row in values[s]] for s in STEPS}
        (subs / f"{folder}.json").write_text(json.dumps(answers), encoding="utf-8")
    return root / "week", subs


def _grade(week: Path, subs: Path, out: Path, lang: str = "en") -> tuple[list[list[str]], str]:
    status, _, err = run_cli(
        ["grade", str(week), str(subs), "--moodle-grades", str(out), "--lang", lang]
    )
    assert status == 0, err
    return list(csv.reader(io.StringIO(out.read_text(encoding="utf-8")))), err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_some_emails_missing_matches_all_by_id_and_names_who(tmp_path: Path, lang: str) -> None:
    week, subs = _class(tmp_path, "name,id,email\nAda,s001,ada@example.org\nBo,s002,\nCy,,\n")
    rows, err = _grade(week, subs, tmp_path / "moodle.csv", lang)
    assert rows[0] == ["ID number", "Grade", "Feedback"]
    assert {r[0]: r[1] for r in rows[1:]} == {"s001": "7", "s002": "7"}
    lines = [line for line in err.splitlines() if str(tmp_path / "moodle.csv") in line]
    assert len(lines) == 3, err
    points, some, lost = lines
    assert points.startswith("symattn: note: ") and " 7" in points
    assert ("points out of 7" in points) if lang == "en" else ("满分 7" in points)
    assert some.startswith("symattn: warning: ") and "Bo, Cy" in some
    assert "Ada" not in some
    assert lost.startswith("symattn: warning: ") and "Cy" in lost and "Bo" not in lost


def test_every_email_present_matches_by_email_and_only_says_points(tmp_path: Path) -> None:
    week, subs = _class(tmp_path, "name,id,email\nAda,s001,ada@example.org\nBo,,bo@example.org\n")
    rows, err = _grade(week, subs, tmp_path / "moodle.csv")
    assert rows[0][0] == "Email address"
    assert {r[0] for r in rows[1:]} == {"ada@example.org", "bo@example.org"}
    notes = [line for line in err.splitlines() if "moodle.csv" in line]
    assert notes == [
        f"symattn: note: {tmp_path / 'moodle.csv'}: the grades are points out of 7 (the "
        "exercises' maximum), not percent: set the grade item's maximum grade to 7 in "
        "Moodle before importing"
    ]


def test_no_emails_at_all_is_matched_by_id_without_a_warning(tmp_path: Path) -> None:
    week, subs = _class(tmp_path, "name,id\nAda,s001\nBo,s002\n")
    rows, err = _grade(week, subs, tmp_path / "moodle.csv")
    assert [r[0] for r in rows] == ["ID number", "s001", "s002"]
    assert "warning" not in err
