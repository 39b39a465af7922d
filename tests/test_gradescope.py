"""``exercises … --gradescope autograder.zip``: the autograder Gradescope runs, run here in
a temporary root, gives every submission the score ``grade`` gives it — 20 generated
submissions, right, wrong and half-done — one test per step, and always a results.json."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import stat
import subprocess
import sys
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from symattn.classroom import grade_class, gradescope
from symattn.load.files import read_file

from .helpers import ROOT, run_cli
from .reference import attention

STEPS = ["Q", "K", "V", "scores", "scaled_scores", "weights", "output"]
MISTAKES = [None, "no_scaling", "scores_transposed", None, "no_scaling"]
STUDENTS = 20


def _text(value: Decimal, places: int = 4) -> str:
    if value == value.to_integral_value():
        return str(int(value))
    return str(value.quantize(Decimal(1).scaleb(-places)))


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class of 20, its autograder, and each student's submission (made by the
    independent reference, some with a mistake, some half done, one unreadable)."""
    root = tmp_path_factory.mktemp("gradescope")
    roster = ["name,id,email"] + [
        f"Student {k},s{k:03d},st{k}@example.org" for k in range(1, STUDENTS + 1)
    ]
    (root / "roster.csv").write_text("\n".join(roster) + "\n", encoding="utf-8")
    status, _, err = run_cli(
        ["exercises", "--seed", "31", "--students", str(root / "roster.csv"),
         "-o", str(root / "week"), "--gradescope", str(root / "autograder.zip")]
    )  # fmt: skip
    assert status == 0, err
    chance = random.Random(5)
    subs = root / "subs"
    subs.mkdir()
    for k in range(1, STUDENTS + 1):
        folder = f"Student_{k}"
        problem = read_file(root / "week/teacher" / folder / "problem.toml")
        values = attention(problem, MISTAKES[k % len(MISTAKES)])
        steps = STEPS[: chance.randint(3, len(STEPS))] if k % 4 == 0 else STEPS
        answers: dict[str, Any] = {
            s: [[_text(v, chance.choice([2, 4])) for v in row] for row in values[s]] for s in steps
        }
        text = json.dumps(answers) if k != 7 else '{"Q": [[1'
        (subs / f"{folder}.json").write_text(text, encoding="utf-8")
    return root


def _autograder_root(course: Path, tmp: Path, k: int, **user: str) -> Path:
    """Gradescope's /autograder for student k's submission."""
    root = tmp / f"root{k}"
    (root / "source").mkdir(parents=True)
    with zipfile.ZipFile(course / "autograder.zip") as bundle:
        bundle.extractall(root / "source")
    (root / "submission").mkdir()
    own = course / "subs" / f"Student_{k}.json"
    (root / "submission" / "answers.json").write_bytes(own.read_bytes())
    users = [user or {"email": f"ST{k}@example.org", "name": f"Student {k}", "sid": ""}]
    (root / "submission_metadata.json").write_text(json.dumps({"users": users}), "utf-8")
    return root


def test_the_zip_holds_what_gradescope_asks_for(course: Path) -> None:
    with zipfile.ZipFile(course / "autograder.zip") as bundle:
        names = set(bundle.namelist())
        modes = {i.filename: i.external_attr >> 16 for i in bundle.infolist()}
        setup = bundle.read("setup.sh").decode()
        wheel = next(n for n in names if n.endswith(".whl"))
    assert {"setup.sh", "run_autograder", "class/class.json"} <= names
    assert {f"class/teacher/Student_{k}/problem.toml" for k in range(1, 21)} <= names
    assert not any(n.startswith("class/students") or "answers" in n for n in names)  # no keys
    for script in ("setup.sh", "run_autograder"):
        assert modes[script] & stat.S_IXUSR
    from symattn import __version__

    assert wheel == f"symattn-{__version__}-py3-none-any.whl" and f"./{wheel}" in setup
    assert "'sympy>=" in setup and "pytest" not in setup


def test_every_submission_scores_as_grade_scores_it(course: Path, tmp_path: Path) -> None:
    status, _, err = run_cli(
        ["grade", str(course / "week"), str(course / "subs"),
         "--report", str(course / "grades.csv")]
    )  # fmt: skip
    assert status == 1, err  # student 7's file is unreadable
    text = (course / "grades.csv").read_text(encoding="utf-8")
    by_id = {r["id"]: r for r in csv.DictReader(io.StringIO(text))}
    rows = {r.entry.id: r for r in grade_class(course / "week", course / "subs").rows}
    verdicts = set()
    for k in range(1, STUDENTS + 1):
        root = _autograder_root(course, tmp_path, k)
        assert gradescope.run(root) == 0
        out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
        row = rows[f"s{k:03d}"]
        assert out["score"] == pytest.approx(float(row.score), abs=1e-4)
        assert f"{out['score']:.2f}".rstrip("0").rstrip(".") == by_id[f"s{k:03d}"]["score"]
        if row.result is None:
            assert "malformed JSON" in out["output"]
            continue
        assert [t["max_score"] for t in out["tests"]] == [1] * len(STEPS)
        for test, mark in zip(out["tests"], row.marks):
            assert test["score"] == pytest.approx(float(mark.earned), abs=1e-4)
            assert test["status"] == ("passed" if mark.earned == mark.points else "failed")
        verdicts.add(row.verdict)
        first = row.result.first_error
        if first is not None:  # the step's feedback names what went wrong, not the key
            step = out["tests"][STEPS.index(first)]
            assert "✗" in step["output"] and "expected" not in step["output"]
    assert verdicts == {"correct", "incorrect"}


def test_a_mistake_is_named_in_its_steps_test(course: Path, tmp_path: Path) -> None:
    root = _autograder_root(course, tmp_path, 1)  # MISTAKES[1]: no scaling by √d_k
    gradescope.run(root)
    out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    scaled = next(t for t in out["tests"] if t["name"] == "Scaled scores")
    assert scaled["status"] == "failed" and "√d_k" in scaled["output"]
    weights = next(t for t in out["tests"] if t["name"].startswith("Softmax"))
    assert "right from your own" in weights["output"] and 0 < weights["score"] < 1


def test_run_autograder_as_gradescope_runs_it(course: Path, tmp_path: Path) -> None:
    """The script itself, with $AUTOGRADER_ROOT for the root."""
    root = _autograder_root(course, tmp_path, 3)
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), SYMATTN_PYTHON=sys.executable)
    done = subprocess.run(
        ["bash", str(root / "source/run_autograder")], env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    row = next(
        r for r in grade_class(course / "week", course / "subs").rows if r.entry.id == "s003"
    )
    assert out["score"] == pytest.approx(float(row.score), abs=1e-4) and len(out["tests"]) == 7


@pytest.mark.parametrize(
    ("user", "expected"),
    [
        ({"email": "nobody@example.org", "name": "No Body"}, "nobody@example.org"),
        ({"email": "", "name": "By Id", "sid": "S005"}, None),  # matched by student id
    ],
)
def test_the_submitter_is_matched_by_email_or_id(
    course: Path, tmp_path: Path, user: dict[str, str], expected: str | None
) -> None:
    root = _autograder_root(course, tmp_path, 5, **user)
    gradescope.run(root)
    out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    if expected is None:
        assert out["score"] > 0 and out["tests"]
    else:
        assert out["score"] == 0 and expected in out["output"] and "roster" in out["output"]


def test_what_cannot_be_marked_still_gives_results(course: Path, tmp_path: Path) -> None:
    root = _autograder_root(course, tmp_path, 2)
    (root / "submission/answers.json").unlink()
    (root / "submission/notes.pdf").write_bytes(b"%PDF")
    gradescope.run(root)
    out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    assert out["score"] == 0 and "no answers file" in out["output"]
    (root / "submission_metadata.json").write_text("{", encoding="utf-8")
    gradescope.run(root)
    out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    assert out["score"] == 0 and "malformed JSON" in out["output"]
    group = [{"email": "st1@example.org"}, {"email": "st2@example.org"}]
    (root / "submission_metadata.json").write_text(json.dumps({"users": group}), "utf-8")
    gradescope.run(root)
    out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    assert out["score"] == 0 and "Student 1, Student 2" in out["output"]


def test_a_bad_gradescope_path_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    status, _, err = run_cli(
        ["exercises", "--seed", "1", "-o", str(tmp_path / "w"), "--gradescope", "ag.txt"]
    )
    assert status == 2 and "ending in .zip" in err and not (tmp_path / "w").exists()


@pytest.mark.slow
def test_the_wheel_installs_and_marks_on_its_own(course: Path, tmp_path: Path) -> None:
    """The wheel in the zip is the whole package: installed alone (no checkout on the
    path) it marks a submission as the checkout does."""
    root = _autograder_root(course, tmp_path, 4)
    wheel = next((root / "source").glob("*.whl"))
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
         str(wheel)],
        check=True, timeout=300,
    )  # fmt: skip
    env = dict(
        os.environ, AUTOGRADER_ROOT=str(root), SYMATTN_PYTHON=sys.executable,
        PYTHONPATH=str(target), PYTHONSAFEPATH="1",
    )  # fmt: skip
    probe = subprocess.run(
        [sys.executable, "-c", "import symattn; print(symattn.__file__)"],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert probe.stdout.startswith(str(target)), (probe.stdout, ROOT)
    subprocess.run(["bash", str(root / "source/run_autograder")], env=env, cwd=tmp_path,
                   check=True, timeout=300)  # fmt: skip
    out = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    expected = gradescope.results(root)
    assert out["score"] == expected["score"] and out["tests"] == expected["tests"]
