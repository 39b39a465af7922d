"""Rebuild the submissions of docs/classroom.md: five students' answers files, as they
would hand them in, for the class set `symattn exercises --seed 2026 --students
docs/examples/classroom/roster.csv` gives.

Usage, from anywhere in the repository:

    python docs/make_classroom.py

It writes docs/examples/classroom/submissions/: Ada's right answers (named after her
folder), Zoë's without the scaling by √d_k (in the folder Moodle's "download all
submissions" makes), 张伟's with the scaled scores rounded to one place and the rest
worked on from them (named by his email), a broken file (named by an id), the formula-named
student's right answers, and a stranger's file that matches no one; and the same folder
as a zip, docs/examples/classroom/submissions.zip.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import zipfile
from decimal import Decimal
from pathlib import Path

from symattn.check.compare import evaluation
from symattn.check.tables import key_plan, mistake_tables
from symattn.cli import main
from symattn.compute import derivation
from symattn.exercises import matrices_json
from symattn.load import load
from symattn.numbers import round_half_away

HERE = Path(__file__).resolve().parent / "examples" / "classroom"
OUT = HERE / "submissions"
BUNDLE = HERE / "submissions.zip"


def _zip(folder: Path, target: Path) -> None:
    """The folder as Moodle's "Download all submissions" zip holds it (fixed dates, so the
    file is the same on every rebuild)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), (2026, 3, 2, 9, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, path.read_bytes())


def _written(matrix: list[list[Decimal]], places: int) -> list[list[str]]:
    return [[round_half_away(v, places) for v in row] for row in matrix]


def build() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        week = Path(tmp) / "week5"
        argv = ["exercises", "--seed", "2026", "--students", str(HERE / "roster.csv")]
        if main([*argv, "-o", str(week)]) != 0:
            raise SystemExit("make_classroom: symattn exercises failed")
        teacher = week / "teacher"

        def answers(folder: str) -> dict[str, list[list[str]]]:
            data: dict[str, list[list[str]]] = json.loads(
                (teacher / folder / "answers.json").read_text(encoding="utf-8")
            )
            return data

        shutil.rmtree(OUT, ignore_errors=True)
        OUT.mkdir(parents=True)
        files = {"Ada_Lovelace.json": answers("Ada_Lovelace")}
        zoe = answers("Zoë_Ōtsuka")
        key = derivation(load(teacher / "Zoë_Ōtsuka" / "problem.toml"))
        table = next(t for t in mistake_tables(key) if t.id == "no_scaling")
        zoe |= {step: _written(values, 4) for step, values in table.values.items()}
        files["Zoë Ōtsuka_4242_assignsubmission_file_/answers.json"] = zoe
        zhang = answers("张伟")
        key = derivation(load(teacher / "张伟" / "problem.toml"))
        rounded = _written(key.step("scaled_scores").values, 1)  # type: ignore[arg-type]
        given = {"scaled_scores": [[Decimal(v) for v in row] for row in rounded]}
        own = evaluation(key.problem, key_plan(key), given)
        assert own is not None
        zhang |= {"scaled_scores": rounded}
        zhang |= {step: _written(own[step], 4) for step in ("weights", "output")}
        files["zhang@example.org.json"] = zhang
        files["eve@example.org.json"] = answers("HYPERLINK_http_e_vil_x")
        for name, data in files.items():
            path = OUT / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(matrices_json(data), encoding="utf-8")
        (OUT / "s004.json").write_text('{"Q": [["1", "0"],\n', encoding="utf-8")
        (OUT / "stranger.json").write_text('{"Q": [["1", "2"]]}\n', encoding="utf-8")
        _zip(OUT, BUNDLE)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    build()
