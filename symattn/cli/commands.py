"""The ``symattn`` command: parse arguments → call the API → print → exit status.

Exit status 0 on success, 1 when a check found a wrong answer, and 2 on bad input or
usage, with one line ``symattn: error: …`` on stderr and no traceback.  An output file
named with ``-o`` is written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from ..budget import time_budget
from ..errors import SymattnError, shorten
from ..examples import example_path, list_examples
from ..output import (
    say,
    terminate_cleanly,
    write_binary,
    write_output,
    write_stream,
)
from ..printing import PRESETS
from ..render import BINARY_FORMATS, FORMATS
from ..version import __version__
from ..words import LANGUAGES
from . import started
from .checking import add_check
from .classroom import add_exercises, add_grade
from .options import time_limit_option
from .paths import PathUse, check_paths

__all__ = ["main"]

MAX_DIGITS = 30


COMMANDS = ("derive", "check", "exercises", "grade", "examples")


class _Formatter(argparse.HelpFormatter):
    """argparse's help, its width found as :func:`shutil.get_terminal_size` finds it but
    without loading shutil (and with it bz2, lzma) on every start (issue 24)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)


def _columns() -> int:
    """The terminal's width: ``$COLUMNS``, else the terminal of stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit status 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise SymattnError(message)


def _build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser.  Given the arguments, a command's options are added only
    when that command is run (or none is named): the others are bare names (issue 24)."""
    args = sys.argv[1:] if argv is None else argv
    wanted = args[0] if args and args[0] in COMMANDS else None

    def building(name: str) -> bool:
        if wanted is None or wanted == name:
            return True
        commands.add_parser(name)
        return False

    parser = _Parser(
        prog="symattn",
        description="Derive transformer attention exactly, step by step.",
    )
    parser.add_argument("--version", action="version", version=f"symattn {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    if building("derive"):
        _add_derive(commands)
    if building("check"):
        add_check(commands)
    if building("exercises"):
        add_exercises(commands)
    if building("grade"):
        add_grade(commands)
    if building("examples"):
        commands.add_parser(
            "examples",
            help="list the bundled example problems",
            description="List the bundled example problems.",
        )
    return parser


def _add_derive(commands: Any) -> None:
    derive = commands.add_parser(
        "derive",
        help="derive every step of a problem",
        description="Derive every step of an attention problem exactly, cross-checked with NumPy.",
    )
    source = derive.add_mutually_exclusive_group()
    source.add_argument("file", nargs="?", metavar="FILE", help="problem file (.toml or .json)")
    source.add_argument("--example", metavar="NAME", help="a bundled example (see `examples`)")
    derive.add_argument(
        "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    derive.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="language of titles and sentences, in every format (default: en)",
    )
    derive.add_argument(
        "--notation",
        choices=PRESETS,
        default="matrix",
        help="matrix (Q, K, V, S, A) or token (q^i, k^j, α_{i,j}) names (default: matrix)",
    )
    derive.add_argument(
        "--digits", type=int, default=4, metavar="N", help="decimal places shown (default: 4)"
    )
    derive.add_argument(
        "--rows",
        default="1",
        metavar="ROWS",
        help="query rows written out in text, e.g. 1,2 or all (default: 1)",
    )
    derive.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of stdout")
    derive.add_argument(
        "--backward",
        action="store_true",
        help="also derive the gradients, from dO or target in the problem",
    )
    derive.add_argument(
        "--heads-shown",
        metavar="HEADS",
        help="multi-head: the heads whose rows are written out, e.g. 1 or 1,3 (default: all)",
    )
    derive.add_argument(
        "--max-size",
        type=int,
        metavar="N",
        help="lift the size limit of exact derivations to N (default: 128; "
        "8 for symbolic problems)",
    )
    time_limit_option(derive)


def _parse_rows(text: str, n: int, option: str = "--rows", noun: str = "query rows") -> list[int]:
    if text.strip().lower() == "all":
        return list(range(n))
    rows: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit()) or len(part) > 9:
            raise SymattnError(f"{option}: expected numbers such as 1,2 or 'all', found {text!r}")
        row = int(part)
        if not 1 <= row <= n:
            raise SymattnError(f"{option}: {row} is out of range; the problem has {n} {noun}")
        if row - 1 not in rows:
            rows.append(row - 1)
    return rows


def _derive(args: argparse.Namespace) -> int:
    from ..compute import derivation as derive
    from ..load import load
    from ..render import render, render_chunks

    started()
    if args.file is None and args.example is None:
        raise SymattnError("derive: give a problem FILE or --example NAME")
    if not 0 <= args.digits <= MAX_DIGITS:
        raise SymattnError(f"--digits: expected 0 … {MAX_DIGITS}, found {args.digits}")
    if args.max_size is not None and args.max_size < 1:
        raise SymattnError(f"--max-size: expected a positive integer, found {args.max_size}")
    path = example_path(args.example) if args.example else Path(args.file)
    source = f"example {args.example}" if args.example else args.file
    output = PathUse("-o", args.output) if args.output else None
    check_paths([PathUse("problem", path)], [output])
    problem = load(path, max_size=args.max_size, source=source)
    rows = _parse_rows(args.rows, problem.n)
    derivation = derive(problem, digits=args.digits, backward=args.backward)
    heads_shown = None
    if args.heads_shown is not None:
        heads = _parse_rows(args.heads_shown, problem.heads, "--heads-shown", "heads")
        heads_shown = [h + 1 for h in heads]
    options: dict[str, Any] = {
        "heads_shown": heads_shown,
        "lang": args.lang,
        "notation": args.notation,
        "rows": rows,
        "digits": args.digits,
    }
    if args.format in BINARY_FORMATS:
        write_binary(render(derivation, args.format, **options), args.output, args.format)
        return 0
    # JSON is written row by row as it is made
    chunks = render_chunks(derivation, args.format, **options)
    write_stream(chunks, args.output)
    return 0


def _examples() -> int:
    entries = list_examples()
    width = max(len(name) for name, _ in entries)
    write_output("".join(f"{name.ljust(width)}  {desc}\n" for name, desc in entries), None)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    with terminate_cleanly():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    try:
        args = _build_parser(argv).parse_args(argv)
        if args.command == "derive":
            with time_budget(args.time_limit, args.file or f"example {args.example}"):
                return _derive(args)
        if args.command == "examples":
            return _examples()
        # each command loads its own layers (and no other's): a start-up per command
        if args.command == "check":
            from .checking import run_check

            started()
            return run_check(args)
        if args.command == "exercises":
            from .classroom import run_exercises

            started()
            return run_exercises(args)
        if args.command == "grade":
            from .classroom import run_grade

            started()
            return run_grade(args)
        raise SymattnError(
            "expected a command: derive, check, exercises, grade or examples (see symattn --help)"
        )
    except SymattnError as exc:
        say(f"symattn: error: {exc.command_line()}")
        return 2
    except KeyboardInterrupt:
        print("symattn: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file the operating system refused, named in one line
        name = exc.filename
        shown = os.fsdecode(name) if isinstance(name, (str, bytes)) else "a file"
        message = f"{shown}: {exc.strerror or type(exc).__name__}"
        say(f"symattn: error: {shorten(message)}")
        return 2
    except RecursionError:
        print("symattn: error: input nested too deeply", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: still one line, no traceback, unless debugging
        if os.environ.get("SYMATTN_DEBUG"):
            raise
        detail = shorten(f"{type(exc).__name__}: {exc}")
        say(
            f"symattn: error: internal error ({detail}); please report "
            "it with the input that caused it (set SYMATTN_DEBUG=1 for details)"
        )
        return 2
