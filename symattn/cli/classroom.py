"""The class commands: ``symattn exercises`` (a class set) and ``symattn grade`` (every
submission against its own student's problem)."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from ..errors import SymattnError
from ..load.topic_reading import LAYOUTS
from ..output import ProgressBar, say, write_binary, write_output
from ..topics import drawn
from ..topics.draw import EXTRA_DRAWS
from ..words import LANGUAGES
from .options import time_limit_option
from .paths import PathUse, check_paths

__all__ = ["add_exercises", "add_grade", "run_exercises", "run_grade"]


class _Drawable:
    """The topics an exercise can be drawn with, named when the help is printed (not when
    the parser is built: that would load every topic for every command)."""

    def __str__(self) -> str:
        return ", ".join((*drawn(), *EXTRA_DRAWS))


def add_exercises(commands: Any) -> None:
    ex = commands.add_parser(
        "exercises",
        help="generate seeded exercises with nice numbers, sheets and answer keys",
        description="Write a class set of attention exercises, reproducible from the seed: "
        "DIR/students/<folder>/ (sheet.tex, answers-template.json) for the students, "
        "DIR/teacher/<folder>/ (problem.toml, key.tex, answers.json) and DIR/teacher/keys.tex "
        "for the teacher, and DIR/class.json, which `symattn grade` reads.",
    )
    ex.add_argument("--seed", type=int, required=True, help="the random seed")
    ex.add_argument("--count", type=int, default=1, help="how many exercises (default: 1)")
    ex.add_argument(
        "--students",
        metavar="ROSTER.csv",
        help="one exercise per student: a CSV with a 'name' column (and 'id', 'email')",
    )
    ex.add_argument("--tokens", type=int, metavar="N", help="tokens per exercise")
    ex.add_argument("--d-model", type=int, metavar="D", help="width of the embeddings")
    ex.add_argument(
        "--d-k", type=int, metavar="K", help="width of queries and keys (default: ≤ d_model)"
    )
    ex.add_argument("--d-v", type=int, metavar="V", help="width of the values")
    ex.add_argument("--mask", choices=("none", "causal"), default="none")
    ex.add_argument("--heads", type=int, default=1, help="attention heads, 1 … 4 (default: 1)")
    ex.add_argument(
        "--level",
        type=int,
        default=2,
        choices=(1, 2, 3),
        help="1: −1…1, d_k = 1; 2: −2…2, d_k = 2 (÷√2); 3: −3…3, d_k = 4 (default: 2)",
    )
    ex.add_argument(
        "--places", type=int, default=4, help="decimal places the answers must have (default: 4)"
    )
    ex.add_argument(
        "--from-text",
        action="store_true",
        help="start from a sentence, a vocabulary and an embedding table (the lookup is work)",
    )
    topics = ex.add_argument(
        "--with",
        dest="topics",
        metavar="TOPICS",
        default="",
        help="more of the attention unit, comma-separated: %(drawable)s",
    )
    topics.drawable = _Drawable()  # type: ignore[attr-defined,unused-ignore]
    ex.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="row",
        help="column: tokens are columns (Q = W_Q X, scores Kᵀ Q), as the AI-by-hand sheets "
        "write it (default: row)",
    )
    ex.add_argument("--lang", choices=LANGUAGES, default="en")
    ex.add_argument(
        "--allow-ties",
        action="store_true",
        help="allow equal scores for one query (default: every score in a row differs)",
    )
    ex.add_argument(
        "--html",
        action="store_true",
        help="also write students/<folder>/self-check.html: a page that marks as they type",
    )
    ex.add_argument(
        "--moodle",
        metavar="QUIZ.xml",
        help="also write a Moodle XML question bank: one Cloze question per exercise",
    )
    ex.add_argument(
        "--category", metavar="NAME", help="the Moodle question-bank category of the quiz"
    )
    ex.add_argument(
        "--gradescope",
        metavar="AUTOGRADER.zip",
        help="also write a Gradescope autograder: setup.sh, run_autograder and the keys; each "
        "submission is marked against its submitter's own problem, as grade marks it",
    )
    ex.add_argument("--replace", action="store_true", help="replace the class set already in DIR")
    ex.add_argument("-o", "--output", metavar="DIR", required=True, help="output folder")


def add_grade(commands: Any) -> None:
    grade = commands.add_parser(
        "grade",
        help="grade every submission of a class against its own student's problem",
        description="Mark each answers file in SUBMISSIONS against the problem of the student "
        "it belongs to (matched by file or folder name to the student's folder, id or email), "
        "with points per step and credit for errors carried forward.",
    )
    grade.add_argument("directory", metavar="DIR", help="the class set (with class.json)")
    grade.add_argument(
        "submissions",
        metavar="SUBMISSIONS",
        help="folder of answers files, or a zip of one (Moodle's 'Download all submissions')",
    )
    grade.add_argument("--report", metavar="CSV", help="write grades.csv: one row per student")
    grade.add_argument(
        "--moodle-grades", metavar="CSV", help="write Moodle's gradebook import (CSV)"
    )
    grade.add_argument(
        "--feedback", metavar="FBDIR", help="write one feedback sheet per student into FBDIR"
    )
    grade.add_argument(
        "--feedback-format",
        choices=("tex", "html"),
        default="tex",
        help="feedback sheets as LaTeX (and PDF when latexmk is installed) or HTML",
    )
    grade.add_argument(
        "--summary",
        metavar="FILE",
        help="write the class at a glance: per step who is right, carried forward, wrong or "
        "missing, the mistakes and who made them, the scores (FILE.html: a page; FILE.csv)",
    )
    grade.add_argument("--format", choices=("text", "json"), default="text")
    grade.add_argument("--lang", choices=LANGUAGES, default="en")
    grade.add_argument("--no-key", action="store_true", help="feedback without the expected values")
    grade.add_argument(
        "--tolerance",
        metavar="T",
        help="accept entries within T (default: one unit of the last place written)",
    )
    time_limit_option(grade, " for each submission")
    grade.add_argument("-o", "--output", metavar="OUT", help="write the summary to OUT")


def run_exercises(args: argparse.Namespace) -> int:
    # the exercise and class layers are loaded by the class commands only
    from ..api import make_exercises
    from ..classroom import (
        check_target,
        manifest_for,
        quiz_items,
        read_roster,
        self_check_page,
        write_class,
    )
    from ..exercises import ExerciseOptions, moodle_quiz

    options = ExerciseOptions(
        tokens=args.tokens,
        d_model=args.d_model,
        d_k=args.d_k,
        d_v=args.d_v,
        mask=args.mask,
        heads=args.heads,
        level=args.level,
        lang=args.lang,
        allow_ties=args.allow_ties,
        places=args.places,
        from_text=args.from_text,
        topics=tuple(t.strip() for t in args.topics.split(",") if t.strip()),
        layout=args.layout,
    )
    folder = Path(args.output)
    check_target(folder, args.replace)  # before any work
    check_paths(
        [PathUse("--students", args.students)] if args.students else [],
        [
            PathUse("-o", folder, folder=True),
            PathUse("--moodle", args.moodle) if args.moodle else None,
            PathUse("--gradescope", args.gradescope) if args.gradescope else None,
        ],
    )
    if args.gradescope and not args.gradescope.lower().endswith(".zip"):
        raise SymattnError(f"--gradescope {args.gradescope}: expected a file name ending in .zip")
    students = read_roster(args.students) if args.students else None
    exercises = make_exercises(
        args.seed, args.count, options, students, progress=ProgressBar(label="drawing")
    )
    manifest = manifest_for(exercises, students, options, args.seed, args.lang)
    written = write_class(
        exercises,
        manifest,
        folder,
        args.lang,
        replace=args.replace,
        self_check=self_check_page if args.html else None,
        progress=ProgressBar(label="writing"),
    )
    if args.moodle:
        write_output(moodle_quiz(quiz_items(exercises), args.lang, args.category), args.moodle)
    if args.gradescope:
        from ..classroom.gradescope import autograder_zip

        write_binary(autograder_zip(folder), args.gradescope, "zip")
    say(
        f"wrote {len(exercises)} exercises ({len(written)} files) to {folder}: "
        "students/ for the students, teacher/ and class.json for you"
    )
    return 0


def _summary_kind(path: str) -> str:
    """``html`` or ``csv``, by the suffix of ``--summary``'s file."""
    kind = Path(path).suffix.lower().lstrip(".")
    if kind not in ("html", "csv"):
        raise SymattnError(
            f"--summary {path}: expected a file name ending in .html or .csv "
            f"(the suffix chooses the page or the table)"
        )
    return kind


def run_grade(args: argparse.Namespace) -> int:
    from ..classroom import (
        FeedbackSheet,
        grade_class,
        grades_csv,
        grades_json,
        grades_text,
        moodle_grades_csv,
        moodle_grades_notes,
        points,
        render_summary_html,
        summarize,
        summary_csv,
        write_feedback,
    )
    from ..render import dumps

    summary_kind = _summary_kind(args.summary) if args.summary else None
    check_paths(
        [
            PathUse("class set", args.directory, folder=True),
            PathUse("submissions", args.submissions, folder=not args.submissions.endswith(".zip")),
        ],
        [
            PathUse("--report", args.report) if args.report else None,
            PathUse("--moodle-grades", args.moodle_grades) if args.moodle_grades else None,
            PathUse("--feedback", args.feedback, folder=True) if args.feedback else None,
            PathUse("-o", args.output) if args.output else None,
            PathUse("--summary", args.summary) if args.summary else None,
        ],
    )
    grades = grade_class(
        args.directory,
        args.submissions,
        tolerance=args.tolerance,
        time_limit=args.time_limit,
        progress=ProgressBar(),
    )
    show_key = not args.no_key
    problems: list[tuple[str, str]] = []
    if args.feedback:
        sheets = [
            FeedbackSheet(
                r.entry.folder,
                dataclasses.replace(
                    r.result, source=f"{r.entry.name or r.entry.folder} — {r.file}"
                ),
                (points(r.score), points(r.max_score)),
            )
            for r in grades.rows
            if r.result is not None
        ]
        _, problems = write_feedback(
            sheets,
            Path(args.feedback),
            lang=args.lang,
            kind=args.feedback_format,
            show_key=show_key,
            progress=ProgressBar(label="typesetting"),
        )
        failed = dict(problems)
        for row in grades.rows:
            row.feedback_problem = failed.get(row.entry.folder)
    if args.report:
        write_output(grades_csv(grades), args.report)
    if args.moodle_grades:
        write_output(moodle_grades_csv(grades, args.lang), args.moodle_grades)
        for level, note in moodle_grades_notes(grades, args.moodle_grades, args.lang):
            say(f"symattn: {level}: {note}")
    if args.summary:
        summary = summarize(grades, args.lang)
        page = render_summary_html(summary, args.lang) if summary_kind == "html" else None
        write_output(page if page is not None else summary_csv(summary), args.summary)
    if args.format == "json":
        write_output(dumps(grades_json(grades, args.lang, show_key)) + "\n", args.output)
    else:
        write_output(grades_text(grades, args.lang), args.output)
    for row in grades.rows:
        if row.error is not None:
            say(f"symattn: error: {row.entry.folder}: {row.error}")
    for _, problem in problems:
        say(f"symattn: warning: {problem}")
    marked = sum(r.result is not None for r in grades.rows)
    missing = sum(r.verdict == "missing" for r in grades.rows)
    say(
        f"graded {marked} of {len(grades.rows)} students; {missing} handed nothing in; "
        f"{len(grades.unmatched)} files not matched"
        + (f"; report written to {args.report}" if args.report else "")
    )
    if not grades.rows:
        raise SymattnError(f"{args.directory}: the class has no students")
    return grades.exit_status
