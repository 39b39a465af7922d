"""Start-up per command (issue 24): each command loads its own layers and no other's.

Each command runs as ``python -X importtime -m symattn …``; the modules it imported are read
from the import-time report, so what is asserted is what a real start-up loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import symattn

#: Layers that only the class commands (``exercises``, ``grade``) may load.
CLASS = ("symattn.api", "symattn.classroom", "symattn.exercises")
#: The HTML, Word and spreadsheet writers: loaded only when asked for.
WRITERS = ("symattn.render.html", "symattn.render.docx", "symattn.render.xlsx")
#: The other writers but the terminal's: loaded when asked for too.
TEXT_ONLY = (
    "symattn.render.json_out",
    "symattn.render.latex",
    "symattn.render.markdown",
    "symattn.render.moodle_html",
    "symattn.render.tex",
    "symattn.render.tex_document",
)
#: The blocks of the producers but a derivation: check's, the sheet's, the reports', the
#: self-check page's and the Moodle question's (and the union of all, a type checker's name).
OTHER_BLOCKS = (
    "symattn.render.check_blocks",
    "symattn.render.sheet_blocks",
    "symattn.render.report_blocks",
    "symattn.render.page_blocks",
    "symattn.render.quiz_blocks",
)

#: ``symattn derive --example seed`` run in-process as the console script starts it (argv[0]
#: ``symattn``: the package does not bind its API), then the symattn modules it loaded, read
#: from ``sys.modules`` (which holds what ``importlib`` loaded too; ``-X importtime`` may not).
IN_PROCESS = """
import contextlib, io, json, sys
sys.argv = ["symattn"]
from symattn.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["derive", "--example", "seed"])
print(json.dumps([status, sorted(m for m in sys.modules if m.startswith("symattn"))]))
"""


def loaded(*args: str, cwd: Path) -> set[str]:
    """The modules ``symattn ARGS`` imported (from ``-X importtime``)."""
    env = {k: v for k, v in os.environ.items() if k != "SYMATTN_DEBUG"}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "symattn", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    names = {
        line.rsplit("|", 1)[-1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "symattn.cli" in names  # the report was read
    return names


def under(names: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in packages))


def test_derive_loads_neither_check_nor_classes_nor_html(tmp_path: Path) -> None:
    names = loaded("derive", "--example", "seed", cwd=tmp_path)
    assert "symattn.compute.pipeline" in names and "symattn.render.text" in names
    assert under(names, ("symattn.check", *CLASS, *WRITERS)) == []
    assert under(names, TEXT_ONLY) == []  # the topics: tests/test_lazy_topics.py
    assert "symattn.render.blocks" in names and under(names, OTHER_BLOCKS) == []


#: Standard modules that only some runs need: a misspelt key (difflib), a JSON or CSV file,
#: a glob, a file written (tempfile, with random and shutil), an exercise draw (random),
#: argparse's terminal width (shutil, with bz2 and lzma).
LATE_STDLIB = ("difflib", "json", "csv", "glob", "tempfile", "random", "shutil", "bz2", "lzma")


def test_derive_loads_no_standard_module_it_does_not_use(tmp_path: Path) -> None:
    names = loaded("derive", "--example", "seed", cwd=tmp_path)
    assert sorted(n for n in LATE_STDLIB if n in names) == []
    assert "importlib.resources" not in names  # the examples are files beside their module
    assert [n for n in names if n.startswith("symattn.words.") and n.endswith("zh")] == []


def test_derive_loads_the_blocks_of_a_derivation_only(tmp_path: Path) -> None:
    """What the derivation loaded, however loaded: not the other producers' blocks."""
    env = {k: v for k, v in os.environ.items() if k != "SYMATTN_DEBUG"}
    done = subprocess.run(
        [sys.executable, "-c", IN_PROCESS],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    status, names = json.loads(done.stdout.splitlines()[-1])
    assert status == 0 and "symattn.render.text" in names and "symattn.render.blocks" in names
    assert under(set(names), (*OTHER_BLOCKS, *TEXT_ONLY, *WRITERS)) == []


@pytest.mark.slow
def test_derive_json_loads_no_html_writer(tmp_path: Path) -> None:
    names = loaded("derive", "--example", "seed", "--format", "json", cwd=tmp_path)
    assert under(names, ("symattn.check", *CLASS, *WRITERS)) == []


@pytest.mark.slow
def test_derive_html_loads_the_html_writer_only_then(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    names = loaded("derive", "--example", "seed", "--format", "html", "-o", str(out), cwd=tmp_path)
    assert "symattn.render.html" in names and out.read_text(encoding="utf-8").startswith("<!")
    assert under(names, ("symattn.check", *CLASS)) == []


def test_check_loads_no_exercise_or_class_layer(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"scores": [[1, 2], [3, 4]]}), encoding="utf-8")
    names = loaded("check", "seed", str(answers), cwd=tmp_path)
    assert "symattn.check.diagnose" in names
    assert under(names, CLASS) == []


def test_examples_loads_no_check_or_class_layer(tmp_path: Path) -> None:
    names = loaded("examples", cwd=tmp_path)
    assert under(names, ("symattn.check", "symattn.compute", *CLASS, *WRITERS)) == []


@pytest.mark.slow
@pytest.mark.parametrize("command", ["exercises", "grade", "check", "derive"])
def test_help_of_each_command_loads_no_layer_above_render(command: str, tmp_path: Path) -> None:
    names = loaded(command, "--help", cwd=tmp_path)
    assert under(names, ("symattn.check", "symattn.compute", *CLASS, *WRITERS)) == []


def test_exercises_loads_its_layers(tmp_path: Path) -> None:
    names = loaded("exercises", "--seed", "1", "-o", str(tmp_path / "week"), cwd=tmp_path)
    assert "symattn.exercises.generate" in names and "symattn.classroom" in names


#: The command's start-up with the garbage collector's state seen at each stage: as the
#: package loads, when the problem is loaded (after the command's imports), and at the end.
COLLECTOR = """
import contextlib, gc, importlib, io, json, sys
sys.orig_argv = [sys.executable, *sys.argv[2:]]
sys.argv = [sys.argv[1]]
import symattn
seen = {"package": gc.isenabled()}
loading = importlib.import_module("symattn.load")
real = loading.load
def spy(*args, **kwargs):
    seen["load"] = gc.isenabled()
    return real(*args, **kwargs)
loading.load = spy
from symattn.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    seen["status"] = main(["derive", "--example", "seed"])
seen["end"] = gc.isenabled()
print(json.dumps(seen))
"""


@pytest.mark.parametrize(
    ("argv0", "interpreter_argv", "held"),
    [
        ("symattn", [], True),  # the console script
        ("-m", ["-m", "symattn"], True),  # python -m symattn, while the package loads
        ("program", [], False),  # a program that imports symattn
        ("-m", ["-m", "lesson"], False),  # python -m lesson, whose package imports symattn
    ],
)
def test_the_collector_is_off_while_the_command_loads_only(
    argv0: str, interpreter_argv: list[str], held: bool
) -> None:
    """Started as the command, the package holds the garbage collector off while the
    modules load and the command turns it back on before any work (issue 24); imported by
    a program, even one run with ``python -m``, the package leaves it alone."""
    done = subprocess.run(
        [sys.executable, "-c", COLLECTOR, argv0, *interpreter_argv],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    assert seen == {"package": not held, "load": True, "status": 0, "end": True}


def test_a_program_run_with_dash_m_keeps_its_collector_and_its_ctrl_c(tmp_path: Path) -> None:
    """``python -m lesson`` where the package lesson imports symattn: while symattn loads
    sys.argv[0] is "-m" as it is for ``python -m symattn``, but the program is not the
    command: its garbage collector stays on, Ctrl-C stays Python's KeyboardInterrupt and
    the API is bound at import as for any program."""
    lesson = tmp_path / "lesson"
    lesson.mkdir()
    (lesson / "__init__.py").write_text(
        "import gc, signal\n"
        "import symattn\n"
        "SEEN = (gc.isenabled(), signal.getsignal(signal.SIGINT) is signal.default_int_handler,\n"
        "        'derive' in vars(symattn))\n",
        encoding="utf-8",
    )
    (lesson / "__main__.py").write_text(
        "import gc\nfrom . import SEEN\nprint(SEEN, gc.isenabled())\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "lesson"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["(True,", "True,", "True)", "True"]


@pytest.mark.parametrize(
    ("interpreter_argv", "module"),
    [
        (["python", "-m", "symattn", "derive"], "symattn"),
        (["python", "-X", "importtime", "-m", "symattn"], "symattn"),
        (["python", "-Ximporttime", "-Bm", "symattn"], "symattn"),
        (["python", "-msymattn"], "symattn"),
        (["python", "-m", "symattn.__main__"], "symattn.__main__"),
        (["python", "--check-hash-based-pycs", "always", "-m", "x.y"], "x.y"),
        (["python", "-W", "error", "-Im", "lesson"], "lesson"),
        (["python", "-c", "import symattn", "-m"], None),
        (["python", "script.py", "-m", "symattn"], None),
        (["python", "-", "-m", "symattn"], None),
        (["python", "-m"], None),
        (["python"], None),
        ([], None),
    ],
)
def test_the_module_run_is_read_from_the_interpreter_s_command_line(
    interpreter_argv: list[str], module: str | None
) -> None:
    assert symattn._module_run(interpreter_argv) == module
