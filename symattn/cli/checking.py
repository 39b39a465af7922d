"""``symattn check FILE ANSWERS…``: one hand calculation, or a folder, a glob or several
files of them marked against one key (one feedback sheet per file with ``-o FOLDER``)."""

from __future__ import annotations

import argparse
import itertools
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..budget import time_budget
from ..errors import SymattnError
from ..examples import example_names, example_path
from ..load.files import MAX_LISTED_FILES
from ..output import ProgressBar, say, write_binary, write_output
from ..printing import PRESETS
from ..words import LANGUAGES
from .options import time_limit_option
from .paths import PathUse, check_paths

if TYPE_CHECKING:
    from ..check.grade import Graded

__all__ = ["add_check", "run_check"]


def add_check(commands: Any) -> None:
    """The ``check`` subcommand and its options."""
    checker = commands.add_parser(
        "check",
        help="check a hand calculation, or grade a class",
        description="Check a hand calculation against the exact key: which entry and which "
        "step is wrong, and why. Given a folder, a glob or several files, grade them all.",
    )
    checker.add_argument(
        "problem", metavar="FILE", help="problem file, or the name of a bundled example"
    )
    checker.add_argument(
        "answers", nargs="+", metavar="ANSWERS", help="answers file(s), a folder of them, or a glob"
    )
    checker.add_argument(
        "--format", choices=("text", "json", "latex", "html", "docx"), default="text"
    )
    checker.add_argument(
        "--tolerance",
        metavar="T",
        help="accept entries within T (default: one unit of the last place written)",
    )
    checker.add_argument(
        "--places",
        type=int,
        metavar="N",
        help="every inexact answer must have N decimal places (default: the problem's "
        "places, else one unit of the last place written is enough)",
    )
    checker.add_argument(
        "--no-key",
        action="store_true",
        help="hide the expected values: only the marks, the diagnosis and the hints",
    )
    checker.add_argument("--lang", choices=LANGUAGES, default="en")
    checker.add_argument("--notation", choices=PRESETS, default="matrix")
    checker.add_argument("--report", metavar="CSV", help="grade a class: write one row per file")
    checker.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of stdout")
    time_limit_option(checker, " (a class: for each file)")


def run_check(args: argparse.Namespace) -> int:
    # the check layer is loaded by this command only (derive's start-up stays light)
    from ..check import check, key_for
    from ..check.feedback import render_feedback_latex, render_feedback_text
    from ..check.grade import answer_files, grade, report_csv
    from ..render import dumps

    problem = args.problem
    if not Path(problem).exists() and problem in example_names():
        problem = str(example_path(problem))
    files = answer_files(args.answers)  # folders and globs listed; nothing is read yet
    # a class: a report, a folder, or more than one file (several arguments, or a glob
    # that matches several); one file alone is checked with its feedback
    batch = args.report is not None or len(files) > 1 or any(Path(a).is_dir() for a in args.answers)
    show_key = not args.no_key
    limit = args.time_limit
    inputs = [PathUse("problem", problem), *_answer_paths(args.answers)]
    if not batch:
        check_paths(inputs, [PathUse("-o", args.output) if args.output else None])
        with time_budget(limit, files[0]):
            key = key_for(problem, files[0])
            result = check(key, files[0], tolerance=args.tolerance, places=args.places)
        if args.format == "json":
            text = dumps(result.to_json(args.lang, show_key=show_key)) + "\n"
        elif args.format == "latex":
            text = render_feedback_latex(result, args.lang, args.notation, show_key=show_key)
        elif args.format == "html":
            from ..check.feedback_html import render_feedback_html

            text = render_feedback_html(result, args.lang, args.notation, show_key=show_key)
        elif args.format == "docx":
            from ..check.feedback import render_feedback_docx

            sheet = render_feedback_docx(result, args.lang, args.notation, show_key=show_key)
            write_binary(sheet, args.output, "docx")
            return result.exit_status
        else:
            text = render_feedback_text(result, args.lang, show_key=show_key)
        write_output(text, args.output)
        return result.exit_status
    with time_budget(limit, args.problem):
        key = key_for(problem)
    if args.tolerance is not None:
        check(key, {}, tolerance=args.tolerance, places=args.places)  # bad options: usage errors
    sheets = args.format in ("latex", "html", "docx")
    if sheets and not args.output:
        raise SymattnError(
            f"with several answers files, --format {args.format} writes one feedback file per "
            "answers file into a folder: give -o FOLDER"
        )
    if sheets and (
        (Path(args.output).exists() and not Path(args.output).is_dir())
        or (not Path(args.output).exists() and Path(args.output).suffix)
    ):
        raise SymattnError(
            f"-o {args.output}: with several answers files, give a folder: one feedback file "
            "is written per answers file"
        )
    check_paths(
        inputs,
        [
            PathUse("--report", args.report) if args.report else None,
            PathUse("-o", args.output, folder=sheets) if args.output else None,
        ],
    )
    graded = grade(
        key,
        files,
        tolerance=args.tolerance,
        places=args.places,
        progress=ProgressBar(),
        time_limit=limit,
    )
    report = report_csv(key, graded)
    if args.report:
        write_output(report, args.report)
    if sheets:
        _feedback_folder(graded, Path(args.output), args)
    elif args.format == "json":
        items = [
            {"file": g.file, "error": g.error}
            if g.result is None
            else {"file": g.file, **g.result.to_json(args.lang, show_key=show_key)}
            for g in graded
        ]
        write_output(dumps(items) + "\n", args.output)
    elif not args.report:
        write_output(report, args.output)
    bad = [g for g in graded if g.result is None]
    wrong = [g for g in graded if g.result is not None and g.result.verdict != "correct"]
    for g in bad:
        say(f"symattn: error: {g.error}")
    summary = (
        f"graded {len(graded)} files: {len(graded) - len(bad) - len(wrong)} correct, "
        f"{len(wrong)} incorrect, {len(bad)} unreadable"
        + (f"; report written to {args.report}" if args.report else "")
    )
    say(summary)
    return 2 if bad else (1 if wrong else 0)


def _answer_paths(patterns: list[str]) -> list[PathUse]:
    """The answers files and folders a check reads (a glob: the first files it matches)."""
    places = []
    for pattern in patterns:
        if os.path.lexists(pattern) or not any(ch in pattern for ch in "*?["):
            places.append(PathUse("answers", pattern))
        else:
            import glob  # a pattern the shell did not expand (start-up, issue 24)

            matches = itertools.islice(glob.iglob(pattern), MAX_LISTED_FILES)
            places += [PathUse("answers", match) for match in matches]
    return places


def _feedback_folder(graded: list[Graded], folder: Path, args: argparse.Namespace) -> None:
    """One feedback file per marked answers file, named after it (made unique)."""
    from ..check.feedback import render_feedback_docx, render_feedback_latex
    from ..check.feedback_html import render_feedback_html

    folder.mkdir(parents=True, exist_ok=True)
    suffix = {"latex": ".tex", "html": ".html", "docx": ".docx"}[args.format]
    taken: set[str] = set()
    for g in graded:
        if g.result is None:
            continue
        stem, k = Path(g.file).stem or "answers", 1
        name = stem
        while name.casefold() in taken:
            k += 1
            name = f"{stem}_{k}"
        taken.add(name.casefold())
        target = str(folder / (name + suffix))
        show_key = not args.no_key
        if args.format == "docx":
            sheet = render_feedback_docx(g.result, args.lang, args.notation, show_key=show_key)
            write_binary(sheet, target, "docx")
            continue
        render_sheet = render_feedback_latex if args.format == "latex" else render_feedback_html
        write_output(render_sheet(g.result, args.lang, args.notation, show_key=show_key), target)
