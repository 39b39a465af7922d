"""The class at a glance (``grade --summary``): its counts equal grades.csv's, computed
from the same grade run; the page and the table say the same; bad paths are one line.

The class is docs/classroom.md's (seed 2026, five students), with Ada's file taken away
(she handed nothing in) and the formula-named student's ``output`` left out (a step
missing from a file that is otherwise right).
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from .helpers import ROOT, run_cli

CLASS = ROOT / "docs" / "examples" / "classroom"
GROUPS = ("right", "carried", "wrong", "missing")


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("summary")
    status, _, err = run_cli(
        ["exercises", "--seed", "2026", "--students", str(CLASS / "roster.csv"),
         "-o", str(root / "week5")]
    )  # fmt: skip
    assert status == 0, err
    shutil.copytree(CLASS / "submissions", root / "subs")
    (root / "subs" / "Ada_Lovelace.json").unlink()
    eve = root / "subs" / "eve@example.org.json"
    answers = json.loads(eve.read_text(encoding="utf-8"))
    del answers["output"]
    eve.write_text(json.dumps(answers), encoding="utf-8")
    return root


def _grade(week: Path, *extra: str) -> tuple[int, str, str]:
    return run_cli(["grade", str(week / "week5"), str(week / "subs"), *extra])


def _read(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def _name(row: dict[str, str]) -> str:
    return row["name"].removeprefix("'")  # a cell that looked like a formula


def test_the_counts_equal_grades_csv(week: Path) -> None:
    """One grade run writes both; each count of the summary is worked out again from the
    columns of grades.csv (points per step, verdict, first_error, diagnoses, percent)."""
    status, _, err = _grade(
        week, "--report", str(week / "grades.csv"), "--summary", str(week / "summary.csv")
    )
    assert status == 1, err  # the stranger's file and the broken one
    grades = _read(week / "grades.csv")
    summary = _read(week / "summary.csv")
    points = json.loads((week / "week5/class.json").read_text(encoding="utf-8"))
    full = points["students"][0]["points"]
    marked = [r for r in grades if r["verdict"] not in ("missing", "error")]
    lines = {(s["section"], s["id"], s["group"]): s for s in summary}
    for step, worth in full.items():
        got = {g: int(lines["step", step, g]["students"]) for g in GROUPS}
        carried = [r for r in marked if f"{step}:carried_forward" in r["diagnoses"].split(";")]
        right = [
            r for r in marked if Fraction(r[step]) == worth and r not in carried
        ]  # full points and not carried (with ecf_credit 1 a carried step earns them too)
        assert got["right"] == len(right), step
        assert got["carried"] == len(carried), step
        assert got["wrong"] + got["missing"] == len(grades) - len(right) - len(carried), step
        assert got["missing"] >= len(grades) - len(marked)
        assert sum(got.values()) == len(grades)
        names = lines["step", step, "right"]["names"].removeprefix("'")
        assert names == ";".join(_name(r) for r in right), step
    mistakes: dict[str, set[str]] = {}
    for r in marked:
        for item in filter(None, r["diagnoses"].split(";")):
            step, _, mistake = item.partition(":")
            if mistake != "carried_forward":
                mistakes.setdefault(mistake, set()).add(_name(r))
    found = {s["id"]: s for s in summary if s["section"] == "mistake"}
    assert {m: int(s["students"]) for m, s in found.items()} == {
        m: len(who) for m, who in mistakes.items()
    } and found  # no_scaling (Zoë), premature_rounding (张伟)
    assert set(found["no_scaling"]["names"].split(";")) == {"Zoë Ōtsuka"}
    assert found["premature_rounding"]["group"] == "weights;output"
    firsts = Counter(r["first_error"] for r in marked if r["first_error"])
    assert {s["id"]: int(s["students"]) for s in summary if s["section"] == "first_error"} == (
        dict(firsts)
    )
    bins = Counter(min(int(float(r["percent"]) // 10), 9) for r in marked)
    histogram = [int(s["students"]) for s in summary if s["section"] == "score"]
    assert histogram == [bins.get(k, 0) for k in range(10)] and sum(histogram) == len(marked)
    # Ada handed nothing in; the formula-named student left out the output.
    assert "Ada Lovelace" in lines["step", "Q", "missing"]["names"].split(";")
    assert lines["step", "output", "missing"]["names"].split(";") == [
        "Ada Lovelace", "../x", '=HYPERLINK("http://e.vil","x")',
    ]  # fmt: skip
    assert lines["step", "scaled_scores", "wrong"]["names"] == "Zoë Ōtsuka;张伟"
    assert lines["step", "weights", "carried"]["percent"] == "40.0"


def _data(page: str, attribute: str) -> dict[str, str]:
    return dict(re.findall(rf'data-{attribute}="([^"]*)" data-count="(\d+)"', page))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_what_the_table_says(week: Path, lang: str) -> None:
    html, table = week / f"summary-{lang}.html", week / f"summary-{lang}.csv"
    for out in (html, table):
        status, _, err = _grade(week, "--summary", str(out), "--lang", lang)
        assert status == 1, err
    page = html.read_text(encoding="utf-8")
    summary = _read(table)
    assert page.startswith("<!DOCTYPE html>") and f'<html lang="{lang}">' in page
    for line in (s for s in summary if s["section"] == "step"):
        row = re.search(rf'<tr data-step="{line["id"]}" ([^>]*)>', page)
        assert row is not None and f'data-{line["group"]}="{line["students"]}"' in row[1]
    assert _data(page, "mistake") == {
        s["id"]: s["students"] for s in summary if s["section"] == "mistake"
    }
    bins = {s["id"]: s["students"] for s in summary if s["section"] == "score"}
    assert _data(page, "bin") == bins
    assert 'data-most-common="scaled_scores"' in page
    said = {"en": "Most common first error: Scaled scores", "zh": "最常见的第一个错误"}[lang]
    assert said in page
    # One offline file: nothing to fetch, and "http" only in the student named like a formula.
    assert not re.search(r"\b(src|href)=|url\(|@import|<script", page)
    assert page.count("http") == page.count("HYPERLINK(&quot;http://e.vil")


def test_a_summary_needs_html_or_csv(week: Path) -> None:
    status, _, err = _grade(week, "--summary", str(week / "summary.txt"))
    assert status == 2
    assert err.strip().splitlines() == [
        f"symattn: error: --summary {week / 'summary.txt'}: expected a file name ending in "
        ".html or .csv (the suffix chooses the page or the table)"
    ]
    assert not (week / "summary.txt").exists()


def test_a_summary_never_replaces_the_report(week: Path) -> None:
    report = week / "same.csv"
    report.write_text("kept\n", encoding="utf-8")
    status, _, err = _grade(week, "--report", str(report), "--summary", str(report))
    assert status == 2 and err.count("\n") == 1 and "--summary" in err, err
    assert report.read_text(encoding="utf-8") == "kept\n"


def test_a_step_only_some_sheets_ask_for_is_shared_among_them(week: Path, tmp_path: Path) -> None:
    """The teacher took ``output`` off Zoë's sheet: the step's shares are of the four
    students asked for it, and still add up to 100 %."""
    shutil.copytree(week / "week5", tmp_path / "week5")
    manifest = tmp_path / "week5" / "class.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    zoe = next(s for s in data["students"] if s["name"] == "Zoë Ōtsuka")
    del zoe["points"]["output"]
    manifest.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "summary.csv"
    status, _, err = run_cli(
        ["grade", str(tmp_path / "week5"), str(week / "subs"), "--summary", str(out)]
    )
    assert status == 1, err
    lines = {(s["id"], s["group"]): s for s in _read(out) if s["section"] == "step"}
    output = [lines["output", g] for g in GROUPS]
    assert [int(s["students"]) for s in output] == [0, 1, 0, 3]  # 张伟 carried; 3 missing
    assert [s["percent"] for s in output] == ["0.0", "25.0", "0.0", "75.0"]
    assert "Zoë Ōtsuka" not in ";".join(s["names"] for s in output)
    assert sum(int(lines["Q", g]["students"]) for g in GROUPS) == 5
