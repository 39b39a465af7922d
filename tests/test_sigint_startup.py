"""Ctrl-C while symattn starts (imports SymPy, NumPy, FLINT and the commands) ends with
``symattn: interrupted`` and exit status 130, never a traceback (reproducer r04)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from .helpers import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _python(*args: str) -> list[str]:
    return [sys.executable, *args]


def test_importing_the_package_and_the_entry_point_loads_nothing_heavy() -> None:
    code = (
        "import sys, symattn, symattn.cli;"
        "print(sorted(m for m in ('sympy', 'numpy', 'flint', 'symattn.api') if m in sys.modules))"
    )
    done = subprocess.run(_python("-c", code), env=ENV, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_an_interrupt_during_the_heavy_imports_is_one_line() -> None:
    """Deterministic: SIGINT arrives exactly while the commands are being imported."""
    code = (
        "import importlib, os, signal, sys\n"
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


ENTRY = "from symattn.cli import main; raise SystemExit(main())"


@pytest.mark.parametrize(
    "command",
    [
        ["-m", "symattn", "derive", "--example", "seed", "--format", "json"],  # r04
        ["-c", ENTRY, "check", "seed", "docs/examples/answers-slip.json"],  # the entry point
    ],
    ids=["python-m", "entry-point"],
)
#: After the interpreter's own start (site takes ~30 ms, where no code of symattn runs yet
#: and Python itself prints the traceback), during and after the imports (~0.4 s).
@pytest.mark.parametrize("delay", [0.15, 0.3, 0.6])
def test_ctrl_c_at_start_up_prints_no_traceback(command: list[str], delay: float) -> None:
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
