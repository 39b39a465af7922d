"""What every reliability fuzz class shares: one run of the command in this process, its
time, and the tally of what went wrong (tests/test_fuzz_classes.py,
benchmarks/reliability_counts.py).

A case is made from ``random.Random(seed)`` alone, so a failure is reproduced by its
class and seed.  A run that ends with the time limit's message, or takes longer than
:data:`HANG_SECONDS`, is a hang; an input or an earlier file changed by a refused
command is a clobber; any other wrong outcome (a traceback, "internal error", an exit
status or message that is not the SPEC's, a digit that is not the oracle's, a control
character on the terminal) is a mismatch.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from symattn.cli import main

#: The ``--time-limit`` of every run (seconds), and the wall time counted as a hang.
BUDGET = "30"
HANG_SECONDS = 40.0


@dataclass
class Tally:
    runs: int = 0
    mismatches: int = 0
    hangs: int = 0
    clobbers: int = 0
    decimals: int = 0  # compared with the oracle
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.runs += other.runs
        self.mismatches += other.mismatches
        self.hangs += other.hangs
        self.clobbers += other.clobbers
        self.decimals += other.decimals
        self.failures += other.failures

    def fail(self, kind: str, what: str) -> None:
        """Count one failure of ``kind`` (``mismatch``, ``hang`` or ``clobber``)."""
        counter = {"mismatch": "mismatches", "hang": "hangs", "clobber": "clobbers"}[kind]
        setattr(self, counter, getattr(self, counter) + 1)
        self.failures.append(f"{kind}: {what}"[:2000])

    @property
    def line(self) -> str:
        return (
            f"runs {self.runs}, mismatches {self.mismatches}, hangs {self.hangs}, "
            f"clobbers {self.clobbers}"
        )

    @property
    def clean(self) -> bool:
        return not (self.mismatches or self.hangs or self.clobbers)


@dataclass(frozen=True)
class Run:
    status: int
    out: str
    err: str
    seconds: float


@contextlib.contextmanager
def _inside(folder: Path | None) -> Iterator[None]:
    if folder is None:
        yield
        return
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run(argv: list[str], cwd: Path | None = None, budget: bool = True) -> Run:
    """``symattn ARGV`` in this process (in ``cwd``), with the time limit unless the
    command has none."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    full = [*argv, "--time-limit", BUDGET] if budget else argv
    with _inside(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(full)
    return Run(status, out.getvalue(), err.getvalue(), time.perf_counter() - start)


def judge(tally: Tally, name: str, done: Run, allowed: tuple[int, ...]) -> bool:
    """Count ``done`` as one run: a hang, an unclean end (a traceback, an internal error,
    an exit status not in ``allowed``, a failure that is not one line) or fine (True)."""
    tally.runs += 1
    if "time limit" in done.err or done.seconds > HANG_SECONDS:
        tally.fail("hang", f"{name}: {done.seconds:.1f} s {done.err[:300]}")
        return False
    unclean = "Traceback" in done.err or "internal error" in done.err
    if unclean or done.status not in allowed:
        tally.fail("mismatch", f"{name}: exit {done.status}: {done.err[:600]}")
        return False
    return True


def one_error_line(err: str) -> bool:
    return err.startswith("symattn: error: ") and err.count("\n") == 1


def snapshot(root: Path) -> dict[str, tuple[str, ...]]:
    """Every entry under ``root``: a file's size, time and digest, a link's target."""
    found: dict[str, tuple[str, ...]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_dir():
                found[key] = ("folder",)
            else:
                stat = path.stat()
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                found[key] = ("file", str(stat.st_size), str(stat.st_mtime_ns), digest)
    return found


def changes(
    before: dict[str, tuple[str, ...]], after: dict[str, tuple[str, ...]]
) -> tuple[list[str], list[str]]:
    """(entries changed or removed, entries made) between two snapshots."""
    changed = sorted(k for k in before if after.get(k) != before[k])
    made = sorted(k for k in after if k not in before)
    return changed, made


Case = Callable[[int, Path, Tally], None]
