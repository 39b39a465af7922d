"""Writing results: whole files or nothing, and a progress bar on terminals only."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from .errors import SymattnError

__all__ = ["ProgressBar", "write_output"]


def write_output(text: str, path: str | os.PathLike[str] | None) -> None:
    """Print ``text``, or write it to ``path`` atomically (whole or not at all)."""
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise SymattnError(f"{path}: directory {str(directory)!r} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    except OSError as exc:
        raise SymattnError(f"{path}: cannot write ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SymattnError(f"{path}: cannot write ({exc.strerror})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class ProgressBar:
    """A one-line progress bar on stderr, shown only on a terminal."""

    def __init__(self, stream: TextIO | None = None, label: str = "grading") -> None:
        self.label = label
        self.stream: TextIO = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty()) and not os.environ.get("SYMATTN_NO_PROGRESS")
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        filled = round(30 * done / total)
        line = f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}"
        self.stream.write(line + ("\n" if done == total else ""))
        self.stream.flush()


def write_stream(chunks: Iterable[str], path: str | os.PathLike[str] | None) -> None:
    """Print ``chunks`` one by one, or write them to ``path`` as :func:`write_output`
    does (a temporary file beside it, then replaced: whole or not at all), each chunk
    encoded as it comes: a large document is never one string.

    On standard output the chunks go out as they are made (as a pipe expects); a chunk
    that fails to be made ends the output there.
    """
    if path is None:
        write = sys.stdout.write
        for chunk in chunks:
            write(chunk)
        sys.stdout.flush()
        return
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise SymattnError(f"{path}: directory {str(directory)!r} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    except OSError as exc:
        raise SymattnError(f"{path}: cannot write ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            write = handle.write
            for chunk in chunks:
                write(chunk)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SymattnError(f"{path}: cannot write ({exc.strerror})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
