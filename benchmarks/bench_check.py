"""Grading a class with ``symattn check``: 500 answer files against one.

Run from anywhere as ``python benchmarks/bench_check.py [--repeat N] [--seed S] [--profile]``.

The problem is the bundled seed example extended to three tokens (我 爱 苹果: same vocabulary,
embedding and weights, d_model = 4, d_k = d_v = 2, scale √2).  500 answer files are generated
from ``random.Random(seed)`` into a temporary directory, untimed: correct answers (values of
``symattn.compute.variants.evaluate`` rounded to 2–4 places), every mistake model that applies
(``symattn.check.mistakes.MISTAKES`` and their plans), arithmetic slips (some
carried forward into the later steps), partial answers with gaps, and a few malformed files, so
that error-carried-forward and the mistake-model diagnosis really run.

Both measurements are the wall time of a whole process (interpreter start-up included), taken
with ``time.perf_counter`` around ``subprocess.run``, with ``SYMATTN_NO_PROGRESS=1``:

* one file: ``python -m symattn check PROBLEM ANSWERS`` on one answers file with a diagnosed
  mistake, best of ``--repeat`` runs (default 3);
* 500 files: ``python -m symattn check PROBLEM DIR --report report.csv``, best of 2 runs (1 when
  ``--repeat 1``), interleaved with the one-file runs; the report must have one row per file.

Byte-code is cached in the temporary directory (``PYTHONPYCACHEPREFIX``, warmed by untimed runs)
even when ``PYTHONDONTWRITEBYTECODE`` is set, as on a normal install: compiling symattn at every
start would inflate the one-file time and flatter the ratio.

Target: 500 files take less than 10x the time of one.  The per-file cost,
(500 files - one file) / 499, is printed alongside.  ``--profile`` also runs
``symattn.check.grade.grade`` over the same 500 files in this process under cProfile and prints the
top functions by cumulative time.  Exit status 0 when the target passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import io
import json
import os
import platform
import pstats
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from bench_exact import format_seconds, package_version, verdict

from symattn import derive
from symattn.check.grade import answer_files, grade
from symattn.check.mistakes import MISTAKES, by_id, runs
from symattn.compute.variants import DecimalMatrix, evaluate
from symattn.derivation import Derivation
from symattn.numbers import round_half_away
from symattn.plan import forward_plan
from symattn.problem import Problem

REPO_ROOT = Path(__file__).resolve().parent.parent

FILES = 500
RATIO_TARGET = 10.0  # 500 files / one file, whole processes
TIMEOUT_SECONDS = 600.0
BATCH_RUNS = 2  # at most; 1 with --repeat 1
MALFORMED_SHARE = 0.03

#: The seed example (symattn/examples/seed.toml) with a third token: 我 爱 苹果.
PROBLEM_TOML = """\
title = "我 爱 苹果: the seed example with three tokens"
text = "我爱苹果"
vocab = ["<unk>", "我", "爱", "苹果", "香蕉", "卡车"]
embedding = [
  [0, 0, 0, 0],
  [1, 0, 1, 0],
  [0, 2, 0, 1],
  [1, 1, 0, "1/2"],
  [1, 1, "1/2", 0],
  [-1, 0, 2, -2],
]
W_Q = [[1, 0], [0, 1], [1, 0], [0, "1/2"]]
W_K = [[0, 1], [1, 0], [1, 1], ["1/2", 0]]
W_V = [[1, 0], [0, 1], [0, 2], [2, "1/2"]]
"""

#: Steps written by students, in order; the first four are exact (rational) here.
STEPS = ("Q", "K", "V", "scores", "scaled_scores", "weights", "output")
EXACT_STEPS = frozenset(("Q", "K", "V", "scores"))

Entry = int | float | str | None
AnswerMatrix = list[list[Entry]]
Answers = dict[str, AnswerMatrix]


@dataclass(frozen=True)
class Timing:
    """Best wall time of a command, or why it did not finish as expected."""

    label: str
    seconds: float
    error: str | None = None
    stderr: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None

    def describe(self) -> str:
        """``"label 1.23 s"``, or the label and the failure."""
        if self.error is not None:
            return f"{self.label} FAILED ({self.error})"
        return f"{self.label} {format_seconds(self.seconds)}"


# -- answer files -------------------------------------------------------------------------


class AnswerWriter:
    """Writes answer files the way students do: exact integers and fractions for the exact
    steps, decimals rounded to 2–4 places for the rest, mostly JSON, some TOML."""

    def __init__(self, directory: Path, rng: random.Random) -> None:
        self.directory = directory
        self.rng = rng
        self.count = 0
        self.kinds: Counter[str] = Counter()

    def name(self, kind: str, suffix: str) -> Path:
        self.count += 1
        self.kinds[kind] = self.kinds[kind] + 1
        return self.directory / f"student{self.count:03d}_{kind}{suffix}"

    def entry(self, step_id: str, value: Decimal, places: int) -> Entry:
        if not value.is_finite():
            return "-inf"
        if step_id in EXACT_STEPS:
            exact = Fraction(value)
            if exact.denominator == 1:
                return int(exact)
            if self.rng.random() < 0.5:
                return f"{exact.numerator}/{exact.denominator}"
            return str(value.normalize())
        text = round_half_away(value, places)
        # Now and then a bare JSON number, when the float keeps every digit written.
        if self.rng.random() < 0.1 and repr(float(text)) == text:
            return float(text)
        return text

    def matrices(
        self, values: dict[str, DecimalMatrix], steps: Sequence[str], places: int
    ) -> Answers:
        return {s: [[self.entry(s, v, places) for v in row] for row in values[s]] for s in steps}

    def write(self, kind: str, answers: Answers) -> Path:
        if self.rng.random() < 0.15:
            path = self.name(kind, ".toml")
            lines = []
            for step_id, matrix in answers.items():
                rows = [["" if x is None else x for x in row] for row in matrix]
                lines.append(f"{step_id} = {json.dumps(rows)}")
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        else:
            path = self.name(kind, ".json")
            path.write_text(json.dumps(answers, indent=1, ensure_ascii=False), encoding="utf-8")
        return path

    def write_text(self, kind: str, suffix: str, text: str) -> Path:
        path = self.name(kind, suffix)
        path.write_text(text, encoding="utf-8")
        return path


def written_values(answers: Answers) -> dict[str, DecimalMatrix]:
    """The student's written numbers as the checker reads them (for carried-forward work)."""
    out: dict[str, DecimalMatrix] = {}
    for step_id, matrix in answers.items():
        rows = []
        for row in matrix:
            decoded = []
            for x in row:
                assert x is not None
                exact = Fraction(str(x))
                decoded.append(Decimal(exact.numerator) / Decimal(exact.denominator))
            rows.append(decoded)
        out[step_id] = rows
    return out


def some_steps(rng: random.Random, must: Sequence[str] = ()) -> list[str]:
    """A plausible selection of steps: always from ``scores`` on, Q/K/V half the time."""
    steps = list(STEPS[3:]) if rng.random() < 0.5 else list(STEPS)
    if rng.random() < 0.2 and "scaled_scores" not in must:
        steps.remove("scaled_scores")
    return steps


def perturb(rng: random.Random, step_id: str, value: Decimal) -> Decimal:
    """An arithmetic slip: off by a small whole or half for exact steps, a few hundredths
    to tenths otherwise."""
    if step_id in EXACT_STEPS:
        return value + rng.choice((Decimal(-1), Decimal("-0.5"), Decimal("0.5"), Decimal(1)))
    delta = Decimal(rng.choice((5, 7, 10, 15, 20, 30))) / 100
    return value + delta * rng.choice((-1, 1))


def write_answers(directory: Path, problem: Problem, seed: int) -> tuple[AnswerWriter, Path]:
    """Write ``FILES`` answer files; return the writer and one file to time alone."""
    rng = random.Random(seed)
    writer = AnswerWriter(directory, rng)
    key = evaluate(problem, forward_plan(problem))
    # Mistake model → its values under each run (premature rounding has several).
    model_values: dict[str, list[dict[str, DecimalMatrix]]] = {}
    for mistake in MISTAKES:
        for read_as, plan, _facts in runs(mistake, problem, forward_plan(problem)):
            model_values.setdefault(mistake.id, []).append(evaluate(read_as, plan))
    if not model_values:
        raise SystemExit("no mistake model applies to the benchmark problem")

    malformed = max(1, round(FILES * MALFORMED_SHARE))
    plan = (
        ["correct"] * 140
        + ["model"] * 170
        + ["slip"] * 90
        + ["partial"] * (FILES - 140 - 170 - 90 - malformed)
        + ["malformed"] * malformed
    )
    rng.shuffle(plan)
    single: Path | None = None
    kinds: Counter[str] = Counter()
    for kind in plan:
        places = rng.choice((2, 3, 3, 4, 4))
        if kind == "correct":
            writer.write("correct", writer.matrices(key, some_steps(rng), places))
        elif kind == "model":
            model = rng.choice(sorted(model_values))
            values = rng.choice(model_values[model])
            steps = some_steps(rng, by_id(model).shows_in)
            path = writer.write(model, writer.matrices(values, steps, places))
            if single is None and model in ("softmax_wrong_axis", "no_scaling"):
                single = path
        elif kind == "slip":
            write_slip(writer, rng, key, problem, places)
        elif kind == "partial":
            answers = writer.matrices(key, rng.sample(STEPS, rng.randint(1, 3)), places)
            for matrix in answers.values():
                for row in matrix:
                    for j in range(len(row)):
                        if rng.random() < 0.25:
                            row[j] = rng.choice((None, ""))
            writer.write("partial", answers)
        else:
            write_malformed(writer, key, places, kinds["malformed"])
        kinds[kind] += 1
    if single is None:  # cannot happen with 170 model files; keep the benchmark total
        single = next(iter(sorted(directory.iterdir())))
    return writer, single


def write_slip(
    writer: AnswerWriter,
    rng: random.Random,
    key: dict[str, DecimalMatrix],
    problem: Problem,
    places: int,
) -> None:
    """One or two entries of one step wrong; the later steps either carry the slip forward
    (computed from the student's own numbers) or are right."""
    steps = list(STEPS)
    step_id = rng.choice(steps[:-1])
    wrong = [list(row) for row in key[step_id]]
    cells = [(i, j) for i in range(len(wrong)) for j in range(len(wrong[0]))]
    for i, j in rng.sample(cells, rng.choice((1, 1, 2))):
        wrong[i][j] = perturb(rng, step_id, wrong[i][j])
    values = dict(key)
    values[step_id] = wrong
    before = writer.matrices(values, steps[: steps.index(step_id) + 1], places)
    carried = rng.random() < 0.5
    later = evaluate(problem, forward_plan(problem), written_values(before)) if carried else key
    after = writer.matrices(later, steps[steps.index(step_id) + 1 :], places)
    writer.write("slip_carried" if carried else "slip", before | after)


def write_malformed(
    writer: AnswerWriter, key: dict[str, DecimalMatrix], places: int, number: int
) -> None:
    """A file the checker must reject with one clear line, while grading the rest; the
    ``number``-th malformed file gets the ``number % 8``-th kind of damage."""
    good = writer.matrices(key, ["scores", "weights"], places)
    choice = number % 8
    if choice == 0:
        text = json.dumps(good)[:-25]  # cut off mid-way
        writer.write_text("malformed_json", ".json", text)
    elif choice == 1:
        writer.write("malformed_rows", {"scores": good["scores"][:2], "weights": good["weights"]})
    elif choice == 2:
        short = [row[:2] for row in good["weights"]]
        writer.write("malformed_cols", {"scores": good["scores"], "weights": short})
    elif choice == 3:
        writer.write("malformed_step", {"attention": good["weights"]})
    elif choice == 4:
        bad = [list(row) for row in good["weights"]]
        bad[1][1] = "about a half"
        writer.write("malformed_value", {"scores": good["scores"], "weights": bad})
    elif choice == 5:
        writer.write_text("malformed_toml", ".toml", "scores = [[2, 5, 2.5], [5, 0\n")
    elif choice == 6:
        writer.write_text("malformed_empty", ".json", "")
    else:
        writer.write_text("malformed_top", ".json", json.dumps([good["scores"]]))


# -- timing -------------------------------------------------------------------------------


def child_environment(pycache: Path) -> dict[str, str]:
    """No progress bar; byte-code cached under ``pycache`` as on a normal install, even when
    the caller sets ``PYTHONDONTWRITEBYTECODE`` (otherwise every start compiles symattn)."""
    env = dict(os.environ)
    env["SYMATTN_NO_PROGRESS"] = "1"
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("SYMATTN_DEBUG", None)
    return env


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no output on stderr"


def run_once(command: Sequence[str], env: dict[str, str], accept: frozenset[int]) -> Timing:
    """Wall time of one run of ``command``; an exit status outside ``accept`` is an error."""
    label = " ".join(command)
    start = time.perf_counter()
    try:
        completed = subprocess.run(
            list(command),
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Timing(label, TIMEOUT_SECONDS, f"timed out after {format_seconds(TIMEOUT_SECONDS)}")
    elapsed = time.perf_counter() - start
    if completed.returncode not in accept:
        message = f"exit {completed.returncode}: {last_line(completed.stderr)}"
        return Timing(label, elapsed, message, completed.stderr)
    return Timing(label, elapsed, None, completed.stderr)


def best_of(label: str, runs: Sequence[Timing]) -> Timing:
    """The fastest run under ``label``, or the first failure."""
    if not runs:
        return Timing(label, 0.0, "not run")
    failed = next((run for run in runs if not run.ok), None)
    if failed is not None:
        return Timing(label, failed.seconds, failed.error, failed.stderr)
    fastest = min(runs, key=lambda run: run.seconds)
    return Timing(label, fastest.seconds, None, fastest.stderr)


def symattn_check(*args: str) -> list[str]:
    return [sys.executable, "-m", "symattn", "check", *args]


def summarise_report(report: Path, expected_rows: int) -> tuple[str | None, str]:
    """(an error, or None when the report has one row per file; a one-line summary)."""
    try:
        rows = list(csv.DictReader(io.StringIO(report.read_text(encoding="utf-8"))))
    except OSError as exc:
        return f"no report ({exc.strerror})", ""
    if len(rows) != expected_rows:
        return f"report has {len(rows)} rows, expected {expected_rows}", ""
    verdicts = Counter(row["verdict"] for row in rows)
    diagnoses = Counter(
        item.split(":", 1)[1] for row in rows for item in row["diagnoses"].split(";") if ":" in item
    )
    summary = (
        ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
        + f"; {sum(diagnoses.values())} diagnoses of {len(diagnoses)} kinds"
    )
    return None, summary


# -- profile ------------------------------------------------------------------------------


def profile_grade(key: Derivation, files: list[str], top: int = 25) -> None:
    """cProfile of ``symattn.check.grade.grade`` over ``files`` in this process."""
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    graded = grade(key, files)
    profiler.disable()
    elapsed = time.perf_counter() - start
    print(f"\nprofile: grade() of {len(graded)} files in process, {format_seconds(elapsed)}")
    stream = io.StringIO()
    stats = pstats.Stats(profiler, stream=stream)
    stats.strip_dirs().sort_stats(pstats.SortKey.CUMULATIVE).print_stats(top)
    print(stream.getvalue().rstrip())


# -- main ---------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="N",
        help="runs of the one-file check, best reported (default 3); the 500-file batch runs "
        "twice (once when N is 1), interleaved with them",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for the generated answer files (default 0)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also profile symattn.check.grade.grade over the 500 files in process",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"python {platform.python_version()}  sympy {package_version('sympy')}  "
        f"numpy {package_version('numpy')}  {platform.machine()}  repeat {args.repeat}  "
        f"seed {args.seed}"
    )
    with tempfile.TemporaryDirectory(prefix="symattn-bench-check-") as tmp:
        root = Path(tmp)
        problem_path = root / "problem.toml"
        problem_path.write_text(PROBLEM_TOML, encoding="utf-8")
        answers_dir = root / "answers"
        answers_dir.mkdir()
        key = derive(problem_path)
        writer, single = write_answers(answers_dir, key.problem, args.seed)
        kinds = writer.kinds
        malformed = sum(n for kind, n in kinds.items() if kind.startswith("malformed"))
        models = sorted(k for k in kinds if k in {m.id for m in MISTAKES})
        print(
            f"{writer.count} answer files: {kinds['correct']} correct, "
            f"{sum(kinds[m] for m in models)} with a mistake model ({len(models)} models), "
            f"{kinds['slip'] + kinds['slip_carried']} slips ({kinds['slip_carried']} carried "
            f"forward), {kinds['partial']} partial, {malformed} malformed; timed alone: "
            f"{single.name}"
        )

        # Warm the file-system cache and the byte-code cache, one file and a small batch
        # (the batch imports a little more); not timed.
        env = child_environment(root / "pycache")
        one_command = symattn_check(str(problem_path), str(single))
        report = root / "report.csv"
        batch_command = symattn_check(str(problem_path), str(answers_dir), "--report", str(report))
        warm = symattn_check(str(problem_path), str(answers_dir / "student00*"))
        for command in (one_command, warm):
            subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, check=False)

        # Interleaved, so that a slow spell of the machine hits both measurements alike.
        ones: list[Timing] = []
        batches: list[Timing] = []
        for round_ in range(args.repeat):
            ones.append(run_once(one_command, env, accept=frozenset((0, 1))))
            if round_ < BATCH_RUNS and all(run.ok for run in batches):
                # exit status 2: some files are malformed, as intended
                batches.append(run_once(batch_command, env, accept=frozenset((0, 1, 2))))
            if not ones[-1].ok:
                break
        one = best_of("one file", ones)
        batch = best_of(f"{writer.count} files", batches)
        if batch.ok:
            error, summary = summarise_report(report, writer.count)
            if error is not None:
                batch = Timing(batch.label, batch.seconds, f"{error}: {last_line(batch.stderr)}")
            else:
                print(f"report: {summary}")

        passed = one.ok and batch.ok and batch.seconds < RATIO_TARGET * one.seconds
        ratio = f"ratio {batch.seconds / one.seconds:.1f}x  " if one.ok and batch.ok else ""
        print(
            f"{one.describe()}  {batch.describe()}  {ratio}"
            f"(target < {RATIO_TARGET:g}x)  {verdict(passed)}"
        )
        if one.ok and batch.ok:
            per_file = (batch.seconds - one.seconds) / (writer.count - 1)
            print(
                f"per file {per_file * 1000:.1f} ms  "
                f"(({format_seconds(batch.seconds)} - {format_seconds(one.seconds)}) "
                f"/ {writer.count - 1})"
            )
        if args.profile:
            profile_grade(key, answer_files([str(answers_dir)]))
        elif not passed:
            print("run with --profile for the hot spots of grading")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
