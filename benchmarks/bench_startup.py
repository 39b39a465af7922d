"""Start-up per command: ``symattn derive --example seed`` against ``import sympy``.

Each command is a whole process (``python -m symattn …``), its byte-code cached as on a
normal install (:func:`bench_exact.cache_bytecode`), warmed by an untimed run, then run
alternately with the baseline ``python -c "import sympy"``; the best of ``--repeat`` runs of
each.  Printed: the ratio of each command to the baseline, and the symattn subpackages the
command loaded (from ``-X importtime``).  Target (issue 24): ``derive --example seed`` ≤ 0.5×
``import sympy``.  Exit status 0 when the target passes, 1 otherwise; ``--short`` (in
``.ci/run``) exits 1 only when a command fails.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench_exact import cache_bytecode, format_seconds, verdict

TARGET = 0.5
BASELINE = [sys.executable, "-c", "import sympy"]


def symattn(*args: str) -> list[str]:
    return [sys.executable, "-m", "symattn", *args]


def timed(command: Sequence[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench_startup: {' '.join(command)} failed:\n{done.stderr.decode()}")
    return seconds


def layers(command: Sequence[str]) -> list[str]:
    """The symattn subpackages (and top modules) a command imports."""
    done = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]], capture_output=True, check=False
    )
    names = set()
    for line in done.stderr.decode().splitlines():
        name = line.rsplit("|", 1)[-1].strip()
        parts = name.split(".")
        if parts[0] == "symattn" and len(parts) > 1:
            names.add(parts[1])
    return sorted(names)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="3 runs each; exit 1 only on failure")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    repeat = 3 if args.short else args.repeat
    with tempfile.TemporaryDirectory(prefix="symattn-bench-startup-") as tmp:
        folder = Path(tmp)
        cache_bytecode(folder)
        answers = folder / "answers.json"
        answers.write_text('{"scores": [[2, 0], [1, 3]]}\n', encoding="utf-8")
        commands = {
            "derive --example seed": symattn("derive", "--example", "seed"),
            "check seed answers.json": symattn("check", "seed", str(answers)),
            "examples": symattn("examples"),
        }
        for command in (BASELINE, *commands.values()):  # warm: byte-code, file cache
            timed(command)
        best = {name: float("inf") for name in ("sympy", *commands)}
        for _ in range(repeat):
            best["sympy"] = min(best["sympy"], timed(BASELINE))
            for name, command in commands.items():
                best[name] = min(best[name], timed(command))
        base = best["sympy"]
        print(f"import sympy: {format_seconds(base)} (best of {repeat})")
        passed = True
        for name, command in commands.items():
            ratio = best[name] / base
            target = ""
            if name.startswith("derive"):
                passed = ratio <= TARGET
                target = f" (target ≤ {TARGET}x: {verdict(passed)})"
            loaded = ", ".join(layers(command))
            print(
                f"symattn {name}: {format_seconds(best[name])}, {ratio:.2f}x import sympy"
                f"{target}; loads {loaded}"
            )
    return 0 if args.short or passed else 1


if __name__ == "__main__":
    sys.exit(main())
