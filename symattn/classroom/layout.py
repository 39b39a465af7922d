"""Writing a class set: what each student gets, and what only the teacher keeps.

```
DIR/class.json                               the manifest (:mod:`.manifest`)
DIR/students/<folder>/sheet.tex              what the student gets, and nothing more
DIR/students/<folder>/answers-template.json  every step the sheet asks for, entries null
DIR/students/<folder>/self-check.html        (with html=True) the page that marks as they type
DIR/teacher/<folder>/problem.toml, key.tex, answers.json
DIR/teacher/keys.tex                         every key, one after the other
```

The set is written into a fresh folder beside DIR and moved into place at the end, so
DIR holds one whole class set or is left as it was: never half a set, and never an old
set mixed with a new one.  A DIR that is not empty is refused, unless it holds a class
set symattn wrote and ``replace`` is asked for.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from ..errors import SymattnError
from ..exercises import (
    Exercise,
    ExerciseOptions,
    QuizItem,
    answers_json,
    answers_template,
    key_title,
    matrices_json,
    problem_toml,
    render_self_check,
    render_sheet,
    render_summary,
)
from ..render import render
from .manifest import MANIFEST, Entry, Manifest
from .page_ids import page_id
from .roster import Student

__all__ = ["check_target", "manifest_for", "quiz_items", "self_check_page", "write_class"]

Pages = Callable[[Exercise, str], str]


def check_target(directory: Path, replace: bool) -> None:
    """Refuse a target that is not a folder, or holds something other than a class set."""
    if directory.exists() and not directory.is_dir():
        raise SymattnError(f"{directory}: exists and is not a folder", option="output")
    if not directory.is_dir() or not any(directory.iterdir()):
        return
    if not (directory / MANIFEST).is_file():
        raise SymattnError(
            f"{directory}: the folder is not empty and holds no class set; choose a new folder",
            option="output",
        )
    if not replace:
        raise SymattnError(
            f"{directory}: already holds a class set; give a new folder, or replace the old set",
            lift=("replace", True),
        )


def manifest_for(
    exercises: Sequence[Exercise],
    students: Sequence[Student] | None,
    options: ExerciseOptions,
    seed: int,
    lang: str,
) -> Manifest:
    """The manifest of these exercises: one point per step the sheet asks for."""
    entries = []
    for k, exercise in enumerate(exercises):
        who = students[k] if students else None
        entries.append(
            Entry(
                folder=exercise.name,
                name=who.name if who else "",
                id=who.id if who else "",
                email=who.email if who else "",
                seed=exercise.seed,
                places=exercise.places,
                title=str(exercise.data["title"]),
                points={s: Fraction(1) for s in exercise.steps},
            )
        )
    return Manifest(seed, lang, options.to_json(), tuple(entries))


def quiz_items(exercises: Sequence[Exercise]) -> list[QuizItem]:
    """The Moodle quiz's questions: one per exercise, named after its student (or title)."""
    items = []
    for exercise in exercises:
        data = exercise.data
        vocabulary: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if "text" in data:
            rows = (tuple(str(v) for v in row) for row in data["embedding"])
            vocabulary = tuple(zip(data["vocab"], rows))
        items.append(
            QuizItem(
                exercise.student or str(data["title"]),
                exercise.key,
                exercise.places,
                exercise.steps,
                vocabulary=vocabulary,
            )
        )
    return items


def self_check_page(exercise: Exercise, lang: str) -> str:
    """The student's self-check page: the steps of their sheet, marked as they type."""
    data = exercise.data
    vocabulary = tuple(zip(data["vocab"], data["embedding"])) if "text" in data else ()
    return render_self_check(
        exercise.key,
        lang,
        exercise.places,
        exercise.steps,
        title=str(data["title"]),
        vocabulary=vocabulary,
        page_id=page_id(exercise.name, problem_toml(data)),
    )


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def _files(exercise: Exercise, lang: str, self_check: Pages | None) -> dict[str, str]:
    key = exercise.key
    student = f"students/{exercise.name}"
    teacher = f"teacher/{exercise.name}"
    answers = answers_json(key, exercise.places, list(exercise.steps))
    files = {
        f"{student}/sheet.tex": render_sheet(exercise, lang),
        f"{student}/answers-template.json": matrices_json(answers_template(exercise)),
        f"{teacher}/problem.toml": problem_toml(exercise.data),
        f"{teacher}/key.tex": render(key_title(exercise, lang), "tex", lang=lang),
        f"{teacher}/answers.json": matrices_json(answers),
    }
    if self_check is not None:
        files[f"{student}/self-check.html"] = self_check(exercise, lang)
    return files


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_class(
    exercises: Sequence[Exercise],
    manifest: Manifest,
    directory: Path,
    lang: str,
    *,
    replace: bool = False,
    self_check: Pages | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write the class set into ``directory``; return the files written (relative)."""
    check_target(directory, replace)
    parent = directory.parent if str(directory.parent) else Path(".")
    if not parent.is_dir():
        raise SymattnError(f"{directory}: folder {str(parent)!r} does not exist", option="output")
    try:
        building = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=parent))
    except OSError as exc:
        raise SymattnError(f"{directory}: cannot write ({exc.strerror})") from None
    written: list[Path] = []
    old: Path | None = None
    try:
        os.chmod(building, 0o777 & ~_umask())
        for number, exercise in enumerate(exercises, start=1):
            for name, text in _files(exercise, lang, self_check).items():
                _write(building / name, text)
                written.append(Path(name))
            if progress is not None:
                progress(number, len(exercises))
        _write(building / "teacher/keys.tex", render_summary(list(exercises), lang))
        _write(building / MANIFEST, manifest.text())
        written += [Path("teacher/keys.tex"), Path(MANIFEST)]
        if directory.is_dir() and any(directory.iterdir()):
            old = Path(tempfile.mkdtemp(prefix=f".{directory.name}.old.", dir=parent))
            os.replace(directory, old / "set")
        elif directory.is_dir():
            directory.rmdir()
        os.replace(building, directory)
    except OSError as exc:
        shutil.rmtree(building, ignore_errors=True)
        if old is not None and not directory.exists():
            os.replace(old / "set", directory)  # put the old set back
        raise SymattnError(f"{directory}: cannot write ({exc.strerror})") from None
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    finally:
        if old is not None and directory.exists():
            shutil.rmtree(old, ignore_errors=True)
    return written
