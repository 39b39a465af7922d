"""``symattn check`` of one answers file as the problem grows: n = d = 16, 32, 64.

Run from anywhere as ``python benchmarks/bench_check_size.py [--short] [--repeat N] [--seed S]``.

The problems are ``bench_exact.py``'s (X, W_Q, W_K, W_V of integers in -3..3 and halves; one
head, no mask, scale √d_k), written as JSON into a temporary directory.  For each size four
answers files are written, untimed, from the key (``symattn.derive``): exact strings for
Q, K, V and the scores, decimals to 4 places for the rest, as a student writes them:

* ``slip`` — one entry of the scores off by 1, every later step computed from the student's
  own scores (the slip carried forward), so that marking, error-carried-forward and the
  diagnosis all run;
* ``no_scaling`` — the mistake model of that name (the scores not divided by √d_k): its
  scaled scores, weights and output;
* ``right`` — every step right;
* ``full`` — Q, K, V, the scores, the weights and the output to 3 places, one weight off by
  0.2 and the output computed from the student's weights (issue 24's case: every mistake
  model, and every pair, is tried on the weights before the slip is named).

Each is ``python -m symattn check P.json A.json --format json -o OUT`` as a whole process
(interpreter start-up included; byte-code cached in the temporary directory even under
``PYTHONDONTWRITEBYTECODE``, as on a normal install; ``SYMATTN_NO_PROGRESS=1``), best of
``--repeat`` runs (default 3), peak memory from ``os.wait4``, and printed with its ratio to
``python -m symattn derive P.json --format json -o OUT`` of the same problem, timed the same
way.  The verdict must be the expected one (the slip: ``arithmetic_slip`` diagnosed in the
scores; no_scaling: that diagnosis; right: ``correct``; full: ``arithmetic_slip`` in the
weights).

Targets: the slipped answer at n = 32 under 3 s and at n = 64 under 15 s (issue 15, part 4);
the full file at n = 32 under 1 s and at n = 64 under 5 s (issue 24).  Each line says whether
its target is met, but the exit status is 1 only on a wrong verdict or a failed command (a
busy machine misses a target without anything being wrong).  ``--short`` (run by CI): n = 16
and 32, one run each.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from bench_exact import cache_bytecode, format_seconds, package_version, verdict, write_problem

import symattn
from symattn.check.mistakes import by_id, runs
from symattn.compute.variants import DecimalMatrix, evaluate
from symattn.numbers import round_half_away
from symattn.plan import forward_plan
from symattn.problem import Problem

REPO_ROOT = Path(__file__).resolve().parent.parent

#: seconds for the slipped answer, by n (issue 15), and for the full file (issue 24)
TARGETS = {32: 3.0, 64: 15.0}
FULL_TARGETS = {32: 1.0, 64: 5.0}
TIMEOUT_SECONDS = 900.0
STEPS = ("Q", "K", "V", "scores", "scaled_scores", "weights", "output")
EXACT_STEPS = frozenset(("Q", "K", "V", "scores"))
KINDS = ("slip", "no_scaling", "right", "full")
#: the cell of the scores the slip is in (0-based) and how far it is off
SLIP_CELL = (1, 2)

Entry = int | str
Answers = dict[str, list[list[Entry]]]


def written(step_id: str, value: Decimal) -> Entry:
    """An entry as a student writes it: exact for the exact steps, else 4 places."""
    if step_id in EXACT_STEPS:
        exact = Fraction(value)
        return int(exact) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"
    return round_half_away(value, 4)


def answers_of(values: dict[str, DecimalMatrix]) -> Answers:
    return {s: [[written(s, v) for v in row] for row in values[s]] for s in STEPS}


def read_back(answers: Answers, step_id: str) -> DecimalMatrix:
    """The student's written numbers of one step, as the checker reads them."""
    out = []
    for row in answers[step_id]:
        fractions = [Fraction(str(x)) for x in row]
        out.append([Decimal(q.numerator) / Decimal(q.denominator) for q in fractions])
    return out


def answer_sets(problem: Problem) -> dict[str, Answers]:
    """The three answers files of one problem (see the module's docstring)."""
    plan = forward_plan(problem)
    key = evaluate(problem, plan)
    right = answers_of(key)
    slipped = {s: [list(r) for r in right[s]] for s in STEPS[:4]}
    i, j = SLIP_CELL
    off = Fraction(str(slipped["scores"][i][j])) + 1
    slipped["scores"][i][j] = (
        int(off) if off.denominator == 1 else f"{off.numerator}/{off.denominator}"
    )
    carried = evaluate(problem, plan, {"scores": read_back(slipped, "scores")})
    slip = slipped | {s: answers_of(carried)[s] for s in STEPS[4:]}
    _, mistake_plan, _ = runs(by_id("no_scaling"), problem, plan)[0]
    no_scaling = right | {s: answers_of(evaluate(problem, mistake_plan))[s] for s in STEPS[4:]}
    weights = [list(row) for row in key["weights"]]
    weights[i][j] += Decimal("0.2")
    own = evaluate(problem, plan, {"weights": weights})
    three = {s: [[round_half_away(v, 3) for v in row] for row in key[s]] for s in STEPS}
    full = {s: three[s] for s in ("Q", "K", "V", "scores")} | {
        "weights": [[round_half_away(v, 3) for v in row] for row in weights],
        "output": [[round_half_away(v, 3) for v in row] for row in own["output"]],
    }
    return {"slip": slip, "no_scaling": no_scaling, "right": right, "full": full}


def expected(kind: str, report: dict[str, object]) -> str | None:
    """Why the report is not what ``kind`` should give, or None when it is."""
    steps = {s["id"]: s for s in report["steps"]}  # type: ignore[attr-defined]
    found = {s: [d["id"] for d in steps[s].get("diagnosis", [])] for s in steps}
    if kind == "right":
        return None if report["verdict"] == "correct" else f"verdict {report['verdict']}"
    if kind == "slip":
        return None if "arithmetic_slip" in found["scores"] else f"scores diagnosed {found}"
    if kind == "full":
        return None if found["weights"] == ["arithmetic_slip"] else f"weights diagnosed {found}"
    if any("no_scaling" in ids for ids in found.values()):
        return None
    return f"no_scaling not diagnosed: {found}"


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    error: str | None = None


def run_check(problem: Path, answers: Path, out: Path, env: dict[str, str]) -> Run:
    """One whole ``symattn check`` process: wall time, peak RSS, and its exit."""
    command = [sys.executable, "-m", "symattn", "check", str(problem), str(answers)]
    command += ["--format", "json", "-o", str(out)]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            command, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, stderr=err
        )
        deadline = start + TIMEOUT_SECONDS
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                child.wait()
                return Run(TIMEOUT_SECONDS, 0.0, "timed out")
            time.sleep(0.005)
        elapsed = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):  # 1: a wrong answer was found
            err.seek(0)
            lines = err.read().decode("utf-8", "replace").strip().splitlines()
            return Run(elapsed, 0.0, f"exit {code}: {lines[-1] if lines else ''}")
    return Run(elapsed, usage.ru_maxrss / 1024)


def child_environment(directory: Path) -> dict[str, str]:
    cache_bytecode(directory)
    return dict(os.environ) | {"SYMATTN_NO_PROGRESS": "1"}


def run_derive(problem: Path, out: Path, env: dict[str, str], repeat: int) -> Run:
    """``symattn derive P.json --format json -o OUT`` of the same problem, best of ``repeat``."""
    command = [sys.executable, "-m", "symattn", "derive", str(problem)]
    command += ["--format", "json", "-o", str(out)]
    best: Run | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            command, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True
        )
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            return Run(elapsed, 0.0, f"exit {done.returncode}: {lines[-1] if lines else ''}")
        if best is None or elapsed < best.seconds:
            best = Run(elapsed, 0.0)
    assert best is not None
    return best


def bench_size(
    directory: Path, size: int, seed: int, repeat: int, env: dict[str, str]
) -> tuple[bool, bool]:
    """Every kind of answers file at one size: (verdicts right, targets met)."""
    problem_path = write_problem(directory, size, seed)
    problem = symattn.load(problem_path)
    right = met = True
    derive = run_derive(problem_path, directory / f"derived_n{size}.json", env, repeat)
    if derive.error is not None:
        print(f"n={size:<3d} derive     FAILED ({derive.error})")
        return False, False
    print(f"n={size:<3d} {'derive':<10s} {format_seconds(derive.seconds):>8s}  (1×)")
    for kind, answers in answer_sets(problem).items():
        path = directory / f"answers_{kind}_n{size}.json"
        path.write_text(json.dumps(answers), encoding="utf-8")
        out = directory / f"report_{kind}_n{size}.json"
        best: Run | None = None
        for _ in range(repeat):
            run = run_check(problem_path, path, out, env)
            if run.error is not None:
                print(f"n={size:<3d} {kind:<10s} FAILED ({run.error})")
                return False, False
            if best is None or run.seconds < best.seconds:
                best = Run(run.seconds, max(run.peak_mb, best.peak_mb if best else 0.0))
        assert best is not None
        wrong = expected(kind, json.loads(out.read_text(encoding="utf-8")))
        target = {"slip": TARGETS, "full": FULL_TARGETS}.get(kind, {}).get(size)
        fast = target is None or best.seconds < target
        goal = f"(target < {target:g} s)" if target is not None else "(no target)"
        note = "verdict as expected" if wrong is None else f"WRONG: {wrong}"
        ratio = best.seconds / derive.seconds
        print(
            f"n={size:<3d} {kind:<10s} {format_seconds(best.seconds):>8s}  "
            f"{ratio:4.1f}× derive  peak {best.peak_mb:.0f} MB  {goal}  {note}  "
            f"{verdict(fast and wrong is None)}"
        )
        right, met = right and wrong is None, met and fast
    return right, met


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--short", action="store_true", help="n = 16 and 32, one run each")
    parser.add_argument("--repeat", type=int, default=None, metavar="N", help="runs (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the matrices (default 0)")
    args = parser.parse_args(argv)
    if args.repeat is None:
        args.repeat = 1 if args.short else 3
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"python {platform.python_version()}  python-flint {package_version('python-flint')}  "
        f"{platform.machine()}  repeat {args.repeat}  seed {args.seed}"
    )
    sizes = (16, 32) if args.short else (16, 32, 64)
    right = met = True
    with tempfile.TemporaryDirectory(prefix="symattn-bench-check-") as tmp:
        directory = Path(tmp)
        env = child_environment(directory)
        for _ in range(2):  # warm the byte-code cache, untimed
            subprocess.run(
                [sys.executable, "-m", "symattn", "check", "seed", "--help"],
                cwd=REPO_ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                check=False,
            )
        for size in sizes:
            ok, fast = bench_size(directory, size, args.seed, args.repeat, env)
            right, met = right and ok, met and fast
    if not right:
        print("WRONG VERDICT OR FAILED COMMAND (see above)")
        return 1
    print("all targets PASS" if met else "some targets missed (see above; exit 0: no wrong output)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
