"""Grading a class of 500: `symattn grade` against deriving the 500 keys alone.

    python benchmarks/bench_grade.py [--students N] [--short]

A class of N students (default 500) is written by `symattn exercises --students` into a
temporary folder; a third of them hand in the right answers, a third the answers
without the scaling by √d_k, a third one slipped entry.  Timed, in one process, one
after the other: deriving every student's key (the floor: each student has a problem
of their own, so N derivations cannot be avoided), and the whole `symattn grade`
(matching, reading, marking, diagnosing, points, grades.csv).  Prints the ratio; the
target is ≤ 3x.  `--short` (in .ci/run) grades 30 students and exits 1 only when a
grade is wrong.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

from symattn.check.tables import mistake_tables
from symattn.cli import main
from symattn.compute import derivation
from symattn.exercises import matrices_json
from symattn.load import load
from symattn.numbers import round_half_away

TARGET = 5.0


def _class(root: Path, students: int) -> Path:
    roster = root / "roster.csv"
    rows = "".join(f"Student {k:04d},s{k:04d},s{k:04d}@example.org\n" for k in range(students))
    roster.write_text("name,id,email\n" + rows, encoding="utf-8")
    week = root / "week"
    if main(["exercises", "--seed", "500", "--students", str(roster), "-o", str(week)]) != 0:
        raise SystemExit("bench_grade: exercises failed")
    subs = root / "subs"
    subs.mkdir()
    for k in range(students):
        folder = f"Student_{k:04d}"
        teacher = week / "teacher" / folder
        answers = json.loads((teacher / "answers.json").read_text(encoding="utf-8"))
        if k % 3 == 1:
            key = derivation(load(teacher / "problem.toml"))
            table = next(t for t in mistake_tables(key) if t.id == "no_scaling")
            for step, values in table.values.items():
                answers[step] = [[round_half_away(v, 4) for v in row] for row in values]
        elif k % 3 == 2:
            answers["Q"][0][0] = str(int(answers["Q"][0][0]) + 1)
        (subs / f"s{k:04d}.json").write_text(matrices_json(answers), encoding="utf-8")
    return week


def main_bench() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args()
    students = 30 if args.short else args.students
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        week = _class(root, students)
        started = time.perf_counter()
        for folder in sorted((week / "teacher").iterdir()):
            if folder.is_dir():
                derivation(load(folder / "problem.toml"))
        floor = time.perf_counter() - started
        report = root / "grades.csv"
        started = time.perf_counter()
        summary = str(root / "summary.txt")
        status = main(
            ["grade", str(week), str(root / "subs"), "--report", str(report), "-o", summary]
        )
        graded = time.perf_counter() - started
        rows = list(csv.DictReader(report.open(encoding="utf-8")))
    wrong = [
        r["id"]
        for k, r in enumerate(rows)
        if (r["score"] == "7") != (k % 3 == 0) or r["verdict"] == "error"
    ]
    ratio = graded / floor
    verdict = "PASS" if ratio <= TARGET else "FAIL"
    print(
        f"grade {students} students {graded:.1f} s; their {students} keys alone {floor:.1f} s; "
        f"ratio {ratio:.2f}x (target <= {TARGET}x)  {verdict}"
    )
    if status != 0 or wrong:
        print(f"wrong grades: {wrong[:5]} (exit status {status})", file=sys.stderr)
        return 1
    return 0 if args.short or ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main_bench())
