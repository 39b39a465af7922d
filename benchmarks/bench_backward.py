"""Timings of ``symattn derive --backward`` by size, against the 10 s target.

Run from anywhere as ``python benchmarks/bench_backward.py [--short] [--seed S]``.

Problems: self-attention with n = d_model = d_k = d_v = SIZE, integers in -2..2 from
``random.Random(seed)``, and a target T (the loss ½‖O − T‖²); for sizes 3, 6 and 7 also
one with entries ±√2, 2√3 and 1/2.  Each is derived once as a whole process (start-up
included; byte-code cached as on a normal install, warmed by an untimed run), in JSON
and in text; the JSON's cross-check must pass.  Target: every
problem of size 7 (the largest that ``--backward`` accepts) in under 10 s.

``--short`` (what CI runs): sizes 3 and 4 only; it prints the times and exits 1 only
on a real failure (a command that fails, a cross-check that does not pass).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_exact import REPO_ROOT, cache_bytecode, format_seconds, verdict

TARGET_SECONDS = 10.0
TARGET_SIZE = 7
TIMEOUT_SECONDS = 600.0


def write_problem(directory: Path, size: int, seed: int, surds: bool) -> Path:
    rng = random.Random(seed * 100 + size)
    pool: list[object] = ["sqrt(2)", "-sqrt(2)", "2*sqrt(3)", "1/2", 1, -1] if surds else []

    def entry() -> object:
        return rng.choice(pool) if surds else rng.randint(-2, 2)

    def matrix() -> list[list[object]]:
        return [[entry() for _ in range(size)] for _ in range(size)]

    problem = {name: matrix() for name in ("X", "W_Q", "W_K", "W_V")}
    problem["target"] = [[rng.randint(-2, 2) for _ in range(size)] for _ in range(size)]
    path = directory / f"backward_{size}{'_surds' if surds else ''}.json"
    path.write_text(json.dumps(problem))
    return path


def run(problem: Path, fmt: str, out: Path) -> tuple[float, str | None]:
    command = [sys.executable, "-m", "symattn", "derive", str(problem), "--backward",
               "--format", fmt, "-o", str(out)]  # fmt: skip
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        return TIMEOUT_SECONDS, "timed out"
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        return elapsed, f"exit {done.returncode}: {done.stderr.strip()[-200:]}"
    return elapsed, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--short", action="store_true", help="sizes 3 and 4 only")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cases = [(3, False), (4, False)] if args.short else [
        (3, False), (4, False), (5, False), (6, False), (7, False), (3, True), (6, True), (7, True)
    ]  # fmt: skip
    right = met = True
    with tempfile.TemporaryDirectory(prefix="symattn-bench-") as tmp:
        directory = Path(tmp)
        cache_bytecode(directory)
        run(write_problem(directory, 2, args.seed, False), "json", directory / "warm.json")
        for size, surds in cases:
            problem = write_problem(directory, size, args.seed, surds)
            line = f"size {size}{' (surds)' if surds else ''}"
            for fmt in ("json", "text"):
                out = directory / f"out.{fmt}"
                seconds, error = run(problem, fmt, out)
                if error is None and fmt == "json":
                    check = json.loads(out.read_text(encoding="utf-8"))["crosscheck"]
                    if not check["passed"]:
                        error = f"cross-check failed: {check}"
                if error is not None:
                    right = False
                    line += f"  {fmt} FAILED ({error})"
                    continue
                fast = size < TARGET_SIZE or seconds < TARGET_SECONDS
                met = met and fast
                size_note = f" {out.stat().st_size / 1e6:.1f} MB" if fmt == "json" else ""
                line += f"  {fmt} {format_seconds(seconds)}{size_note}"
                if size == TARGET_SIZE:
                    line += f" (target < {TARGET_SECONDS:g} s) {verdict(fast)}"
            print(line)
    if not right:
        print("FAILED (see above)")
        return 1
    print("all targets PASS" if met else "some targets FAIL (see above)")
    return 0 if met or args.short else 1


if __name__ == "__main__":
    sys.exit(main())
