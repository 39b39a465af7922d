"""Ctrl-C while symattn starts (imports SymPy, NumPy, FLINT and the commands) ends with
``symattn: interrupted`` and exit status 130, never a traceback (reproducer r04)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _python(*args: str) -> list[str]:
    return [sys.executable, *args]


#: The console script as pip writes it (``symattn`` on the PATH), named as it is.
ENTRY = "import sys\nfrom symattn.cli import main\nraise SystemExit(main())\n"


@pytest.fixture(scope="module")
def console_script(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("bin") / "symattn"
    path.write_text(ENTRY, encoding="utf-8")
    return str(path)


HEAVY = "print(sorted(m for m in ('sympy', 'numpy', 'flint', 'symattn.api') if m in sys.modules))"


def test_the_command_loads_nothing_heavy_before_main(console_script: str, tmp_path: Path) -> None:
    """Started as the command, the package is light until main() runs (so Ctrl-C is
    caught); imported by a program, it loads the API at once (symattn.load is the
    function, never the subpackage of that name)."""
    script = tmp_path / "symattn"
    script.write_text(f"import sys, symattn, symattn.cli\n{HEAVY}\n", encoding="utf-8")
    done = subprocess.run(_python(str(script)), env=ENV, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    code = f"import sys, symattn.load.files, symattn\n{HEAVY}\nprint(callable(symattn.load))"
    done = subprocess.run(_python("-c", code), env=ENV, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['flint',", "'numpy',", "'symattn.api']", "True"]


def test_an_interrupt_during_the_heavy_imports_is_one_line() -> None:
    """Deterministic: SIGINT arrives exactly while the commands are being imported."""
    code = (  # argv[0] as the console script's, so the package loads as the command does
        "import importlib, os, signal, sys\n"
        "sys.argv[0] = 'symattn'\n"
        "import symattn.cli\n"
        "real = importlib.import_module\n"
        "def interrupted(name, package=None):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    return real(name, package)\n"
        "importlib.import_module = interrupted\n"
        "raise SystemExit(symattn.cli.main(['derive', '--example', 'seed']))\n"
    )
    done = subprocess.run(_python("-c", code), env=ENV, capture_output=True, text=True)
    assert done.returncode == 130
    assert done.stderr == "symattn: interrupted\n"
    assert done.stdout == ""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks here")
def test_ctrl_c_is_held_back_while_the_commands_import() -> None:
    """A Ctrl-C inside a C extension's import can be lost (CI saw NumPy report one as
    ``PyCapsule_Import could not import module "datetime"``, no KeyboardInterrupt left in
    the chain): the imports run with SIGINT blocked, so the import completes and the
    interrupt is delivered after it, as one line and status 130."""
    code = (
        "import importlib, os, signal, sys\n"
        "sys.argv[0] = 'symattn'\n"  # the package loads as the console script's does
        "import symattn.cli\n"
        "real = importlib.import_module\n"
        "def held(name, package=None):\n"
        "    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    module = real(name, package)\n"
        "    print(blocked, module.__name__, flush=True)\n"
        "    return module\n"
        "importlib.import_module = held\n"
        "raise SystemExit(symattn.cli.main(['derive', '--example', 'seed']))\n"
    )
    done = subprocess.run(_python("-c", code), env=ENV, capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (130, "symattn: interrupted\n")
    lines = done.stdout.splitlines()  # every import the commands made, the last theirs
    assert lines[-1] == "True symattn.cli.commands", done.stdout
    assert all(line.startswith("True ") for line in lines), done.stdout
    # and after the imports Ctrl-C is live again: the process's mask is what it was
    code = (
        "import signal, sys\n"
        "sys.argv[0] = 'symattn'\n"
        "import symattn.cli\n"
        "symattn.cli._import_commands()\n"
        "print(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))\n"
    )
    done = subprocess.run(_python("-c", code), env=ENV, capture_output=True, text=True)
    assert done.stdout == "False\n", done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["-m", "symattn", "derive", "--example", "seed", "--format", "json"],  # r04
        ["SCRIPT", "check", "seed", "docs/examples/answers-slip.json"],  # the console script
    ],
    ids=["python-m", "entry-point"],
)
#: After the interpreter's own start (site takes ~30 ms, where no code of symattn runs yet
#: and Python itself prints the traceback), during and after the imports (~0.4 s).
@pytest.mark.parametrize("delay", [0.15, 0.3, 0.6])
@pytest.mark.slow  # timed processes: the deterministic tests above stay in the default run
def test_ctrl_c_at_start_up_prints_no_traceback(
    command: list[str], delay: float, console_script: str
) -> None:
    command = [console_script if part == "SCRIPT" else part for part in command]
    process = subprocess.Popen(
        _python(*command),
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    text = err.decode()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    if process.returncode == 130:
        assert text == "symattn: interrupted\n"


def test_an_interrupt_inside_numpys_import_is_one_line_too() -> None:
    """NumPy wraps a Ctrl-C during its C-extension import in an ImportError."""
    code = (
        "import importlib, sys\n"
        "import symattn.cli\n"
        "real = importlib.import_module\n"
        "def wrapped(name, package=None):\n"
        "    try:\n"
        "        raise KeyboardInterrupt\n"
        "    except KeyboardInterrupt as exc:\n"
        "        raise ImportError('Importing the numpy C-extensions failed.') from exc\n"
        "importlib.import_module = wrapped\n"
        "raise SystemExit(symattn.cli.main(['derive', '--example', 'seed']))\n"
    )
    done = subprocess.run(_python("-c", code), env=ENV, capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (130, "symattn: interrupted\n")


def test_an_interrupt_while_the_package_itself_loads_is_one_line() -> None:
    """SIGINT while ``symattn/__init__.py`` runs (before ``main``: the console script's
    ``from symattn.cli import main``) is one line and status 130 too."""
    code = (
        "import os, signal, sys\n"
        "sys.argv[0] = 'symattn'\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'symattn.version':\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from symattn.cli import main\n"
        "print('not reached')\n"
    )
    done = subprocess.run(_python("-c", code), env=ENV, capture_output=True, text=True)
    assert (done.returncode, done.stderr, done.stdout) == (130, "symattn: interrupted\n", "")


def test_main_puts_pythons_own_handler_back() -> None:
    """After start-up, Ctrl-C is a KeyboardInterrupt again (caught by each command)."""
    import symattn
    import symattn.cli

    before = signal.signal(signal.SIGINT, symattn._interrupted_while_starting)
    try:
        assert symattn.cli.main(["examples"]) == 0
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)
