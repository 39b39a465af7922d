"""The class loop end to end: a roster of five odd names → a class set → the students'
filled-in templates (right, forgot √d_k, rounded early, unreadable) and one stranger's
file → ``symattn grade`` → grades.csv, Moodle's gradebook import, feedback sheets.

The students' numbers are made by the independent reference (tests/reference.py), and
the expected points are worked out by hand below from the problems the seed gives.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from symattn.classroom import csv_cell, read_roster
from symattn.load.files import read_file

from .helpers import run_cli
from .reference import attention

ROSTER = (
    "name,id,email\n"
    "Ada Lovelace,s001,ada@example.org\n"
    "Zoë Ōtsuka,s002,zoe@example.org\n"
    "张伟,s003,zhang@example.org\n"
    "../x,s004,x@example.org\n"
    '"=HYPERLINK(""http://e.vil"",""x"")",s005,eve@example.org\n'
)
FOLDERS = ["Ada_Lovelace", "Zoë_Ōtsuka", "张伟", "x", "HYPERLINK_http_e_vil_x"]
STEPS = ["Q", "K", "V", "scores", "scaled_scores", "weights", "output"]


def _text(value: Decimal, places: int = 4) -> str:
    if value == value.to_integral_value():
        return str(int(value))
    return str(value.quantize(Decimal(1).scaleb(-places)))


def _answers(values: dict[str, Any], places: dict[str, int] | None = None) -> dict[str, Any]:
    places = places or {}
    return {
        step: [[_text(v, places.get(step, 4)) for v in row] for row in values[step]]
        for step in STEPS
    }


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("class")
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    status, _, err = run_cli(
        ["exercises", "--seed", "2026", "--students", str(root / "roster.csv"),
         "-o", str(root / "week5"), "--moodle", str(root / "quiz.xml")]
    )  # fmt: skip
    assert status == 0, err
    subs = root / "subs"
    subs.mkdir()

    def problem(folder: str) -> dict[str, Any]:
        return read_file(root / "week5/teacher" / folder / "problem.toml")

    def save(name: str, data: Any) -> None:
        path = subs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    # Ada hands in her folder's name with the right answers.
    save("Ada_Lovelace.json", _answers(attention(problem("Ada_Lovelace"))))
    # Zoë forgot √d_k; Moodle's download names her folder after her, with its own suffix.
    zoe = attention(problem("Zoë_Ōtsuka"), "no_scaling")
    save("Zoë Ōtsuka_4242_assignsubmission_file_/answers.json", _answers(zoe))
    # 张伟 rounded the scaled scores to one place and went on from them (file named by
    # his email).
    zhang = problem("张伟")
    rounded = [[Decimal(_text(v, 1)) for v in row] for row in attention(zhang)["scaled_scores"]]
    own = attention(zhang, overrides={"scaled_scores": rounded})
    save("zhang@example.org.json", _answers(own, {"scaled_scores": 1}))
    # ../x hands in a broken file, named by id; the formula-named student is right.
    (subs / "s004.json").write_text('{"Q": [[1', encoding="utf-8")
    save("eve@example.org.json", _answers(attention(problem("HYPERLINK_http_e_vil_x"))))
    save("stranger.json", {"Q": [[1, 2]]})
    return root


def _grade(week: Path, *extra: str) -> tuple[int, str, str]:
    return run_cli(
        ["grade", str(week / "week5"), str(week / "subs"),
         "--report", str(week / "grades.csv"), *extra]
    )  # fmt: skip


def test_the_roster_keeps_every_column_and_makes_safe_folders(week: Path) -> None:
    students = read_roster(str(week / "roster.csv"))
    assert [s.folder for s in students] == FOLDERS
    assert students[3].name == "../x" and students[3].id == "s004"
    assert students[4].email == "eve@example.org"
    manifest = json.loads((week / "week5/class.json").read_text(encoding="utf-8"))
    assert [s["folder"] for s in manifest["students"]] == FOLDERS
    assert manifest["students"][1]["name"] == "Zoë Ōtsuka"
    assert manifest["students"][0]["points"] == dict.fromkeys(STEPS, 1)
    assert manifest["ecf_credit"] == 0.5
    for folder in FOLDERS:  # nothing escaped the class folder
        assert (week / "week5/students" / folder / "sheet.tex").is_file()
    assert not (week / "x").exists()


def test_grades_match_the_hand_computation(week: Path) -> None:
    status, out, err = _grade(week)
    assert status == 1, err  # one stranger's file and one unreadable file
    rows = list(csv.DictReader(io.StringIO((week / "grades.csv").read_text(encoding="utf-8"))))
    by_id = {r["id"]: r for r in rows}
    assert list(rows[0])[:10] == [
        "id", "email", "name", "file", "score", "max_score", "percent", "verdict",
        "first_error", "diagnoses",
    ]  # fmt: skip
    assert list(rows[0])[10:] == STEPS
    # Ada: all seven steps right.
    assert (by_id["s001"]["score"], by_id["s001"]["percent"]) == ("7", "100.0")
    # Zoë: Q, K, V and S right (4). Her S′ is S itself: of its nine entries only s₃,₁ = 0
    # is right (1/9). Her weights are the softmax of her own S′, her output their sum:
    # both right from her own numbers, so half their points each (ECF credit 0.5).
    # 4 + 1/9 + 0.5 + 0.5 = 5.11 of 7 = 73.0 %.
    zoe = by_id["s002"]
    assert (zoe["score"], zoe["max_score"], zoe["percent"]) == ("5.11", "7", "73.0")
    assert [zoe[s] for s in STEPS] == ["1", "1", "1", "1", "0.11", "0.5", "0.5"]
    assert zoe["first_error"] == "scaled_scores" and "scaled_scores:no_scaling" in zoe["diagnoses"]
    assert "weights:carried_forward" in zoe["diagnoses"]
    # 张伟: S′ written with one place where four are asked: too few places, no credit but
    # for the three entries of his S that are 0 (exact: 3/9); his weights right from his
    # own rounded S′: half; his output's first column is right outright (every entry of
    # that column of V is 4, so any weights give 4), its second carried: 0.75.
    # 4 + 1/3 + 0.5 + 0.75 = 5.58 of 7 = 79.8 %.
    zhang = by_id["s003"]
    assert (zhang["score"], zhang["percent"]) == ("5.58", "79.8")
    assert [zhang[s] for s in STEPS] == ["1", "1", "1", "1", "0.33", "0.5", "0.75"]
    # ../x: unreadable, reported in the row; nothing marked.
    x = by_id["s004"]
    assert (x["verdict"], x["score"]) == ("error", "0") and "malformed JSON" in x["diagnoses"]
    # The formula-named student is right, and her name cannot run as a formula.
    eve = by_id["s005"]
    assert eve["score"] == "7" and eve["name"].startswith("'=HYPERLINK")
    assert "stranger.json" in out and "matches no student" in out
    assert "s004.json" in err


def test_no_file_is_marked_against_another_students_problem(week: Path) -> None:
    _grade(week)
    rows = list(csv.DictReader(io.StringIO((week / "grades.csv").read_text(encoding="utf-8"))))
    files = {r["id"]: Path(r["file"]).name for r in rows if r["file"]}
    assert files == {
        "s001": "Ada_Lovelace.json",
        "s002": "answers.json",
        "s003": "zhang@example.org.json",
        "s004": "s004.json",
        "s005": "eve@example.org.json",
    }
    assert "stranger" not in (week / "grades.csv").read_text(encoding="utf-8")


def test_moodle_gradebook_import(week: Path) -> None:
    status, _, err = _grade(week, "--moodle-grades", str(week / "moodle.csv"), "--lang", "zh")
    assert status == 1, err
    rows = list(csv.reader(io.StringIO((week / "moodle.csv").read_text(encoding="utf-8"))))
    assert rows[0] == ["Email address", "Grade", "Feedback"]
    grades = {r[0]: r[1] for r in rows[1:]}
    assert grades == {
        "ada@example.org": "7",
        "zoe@example.org": "5.11",
        "zhang@example.org": "5.58",
        "eve@example.org": "7",
    }  # the unreadable file leaves x's grade in Moodle alone
    assert "第一个出错的步骤" in dict((r[0], r[2]) for r in rows[1:])["zoe@example.org"]


def test_feedback_sheets_one_per_student(week: Path) -> None:
    folder = week / "feedback"
    status, _, err = _grade(week, "--feedback", str(folder), "--feedback-format", "html")
    assert status == 1, err
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{f}.html" for f in ("Ada_Lovelace", "Zoë_Ōtsuka", "张伟", "HYPERLINK_http_e_vil_x")
    )
    page = (folder / "Zoë_Ōtsuka.html").read_text(encoding="utf-8")
    assert "Points: 5.11 of 7." in page and 'data-diagnosis="no_scaling"' in page


def test_json_summary(week: Path) -> None:
    status, out, _ = _grade(week, "--format", "json", "--no-key")
    assert status == 1
    data = json.loads(out)
    zoe = next(s for s in data["students"] if s["id"] == "s002")
    assert zoe["score"] == "5.11" and zoe["steps"]["weights"] == {"points": "1", "earned": "0.5"}
    assert "expected" not in json.dumps(zoe["check"])
    assert data["unmatched"][0]["reason"] == "no_student"


def test_a_bad_class_folder_is_one_line(tmp_path: Path) -> None:
    status, _, err = run_cli(["grade", str(tmp_path), str(tmp_path)])
    assert status == 2 and err.count("\n") == 1 and "no class.json" in err


def test_moodle_quiz_of_the_class(week: Path) -> None:
    text = (week / "quiz.xml").read_text(encoding="utf-8")
    assert text.count('<question type="cloze">') == 5
    assert "<text>Zoë Ōtsuka</text>" in text and "张伟" in text


def test_csv_cells_are_safe() -> None:
    assert csv_cell("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0"
    assert csv_cell("@SUM(A1)") == "'@SUM(A1)" and csv_cell("+1") == "'+1"
    assert csv_cell("a\rb\nc") == "a\\u000db\\u000ac" and csv_cell("Zoë") == "Zoë"


@pytest.mark.slow
def test_feedback_pdfs_and_the_dash_in_titles(week: Path) -> None:
    """latexmk makes a PDF of every feedback sheet; a sheet's title keeps the space after
    its dash under xelatex (Chinese) and pdflatex alike."""
    import shutil
    import subprocess

    if shutil.which("latexmk") is None or shutil.which("pdftotext") is None:
        pytest.skip("needs latexmk and pdftotext")
    folder = week / "feedback-tex"
    status, _, err = _grade(week, "--feedback", str(folder))
    assert status == 1, err
    assert sorted(p.name for p in folder.glob("*.pdf")) == sorted(
        f"{f}.pdf" for f in ("Ada_Lovelace", "Zoë_Ōtsuka", "张伟", "HYPERLINK_http_e_vil_x")
    )
    for folder_name, engine, title in (
        ("张伟", "-xelatex", "Attention exercise 03 — 张伟"),
        ("Ada_Lovelace", "-pdf", "Attention exercise 01 — Ada Lovelace"),
    ):
        sheet = week / "week5/students" / folder_name
        subprocess.run(
            ["latexmk", engine, "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"],
            cwd=sheet, capture_output=True, check=True, timeout=300,
        )  # fmt: skip
        text = subprocess.run(
            ["pdftotext", str(sheet / "sheet.pdf"), "-"], capture_output=True, text=True
        ).stdout
        assert title in text, text[:200]


def test_check_with_several_files_writes_one_feedback_file_each(tmp_path: Path) -> None:
    answers = Path(__file__).resolve().parent.parent / "docs/examples"
    files = [str(answers / n) for n in ("answers-slip.json", "answers-no-scaling.json")]
    status, _, err = run_cli(
        ["check", "seed", *files, "--format", "latex", "-o", str(tmp_path / "fb.tex")]
    )
    assert status == 2 and "give a folder" in err and not (tmp_path / "fb.tex").exists()
    folder = tmp_path / "fb"
    status, out, err = run_cli(
        [
            "check",
            "seed",
            *files,
            "--format",
            "html",
            "-o",
            str(folder),
            "--report",
            str(tmp_path / "r.csv"),
        ]
    )
    assert status == 1, err
    assert sorted(p.name for p in folder.iterdir()) == [
        "answers-no-scaling.html",
        "answers-slip.html",
    ]
    assert 'data-diagnosis="no_scaling"' in (folder / "answers-no-scaling.html").read_text(
        encoding="utf-8"
    )
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").startswith("file,verdict")
    assert out == ""  # no CSV where a document was asked for
    status, out, _ = run_cli(["check", "seed", *files, "--format", "json"])
    assert [item["file"] for item in json.loads(out)] == files


def test_grade_time_limit_is_checked(week: Path) -> None:
    status, _, err = _grade(week, "--time-limit", "-1")
    assert status == 2 and err.count("\n") == 1 and "--time-limit: expected 0" in err


def test_check_of_a_folder_and_grade_mark_a_file_the_same(week: Path, tmp_path: Path) -> None:
    """One pipeline: for every submission, ``check PROBLEM FOLDER`` (the file alone in a
    folder, against the student's problem) gives what ``grade`` gives that student: the
    verdict, the first error, the diagnoses, the score and every entry's mark; a file that
    cannot be marked is an error row in both, with the same reason."""
    status, out, _ = _grade(week, "--format", "json")
    assert status == 1
    compared = 0
    for student in json.loads(out)["students"]:
        if student["file"] is None:
            continue
        folder = tmp_path / student["folder"]
        folder.mkdir()
        copy = folder / Path(student["file"]).name
        copy.write_bytes(Path(student["file"]).read_bytes())
        problem = week / "week5" / "teacher" / student["folder"] / "problem.toml"
        _, text, _ = run_cli(["check", str(problem), str(folder), "--format", "json"])
        (item,) = json.loads(text)
        if student["verdict"] == "error":
            assert item["error"].replace(str(copy), "FILE") == student["error"].replace(
                student["file"], "FILE"
            )
            compared += 1
            continue
        assert {k: v for k, v in item.items() if k != "file"} == student["check"]
        _, report, _ = run_cli(["check", str(problem), str(folder)])
        (row,) = csv.DictReader(io.StringIO(report))
        assert row["verdict"] == student["verdict"]
        assert row["first_error"] == (student["first_error"] or "")
        assert row["diagnoses"].split(";") == (student["diagnoses"] or [""])
        compared += 1
    assert compared == 5  # Ada, Zoë, 张伟, the broken file of ../x, and Eve
