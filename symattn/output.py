"""Writing results: whole files or nothing, and a progress bar on terminals only.

Every write goes through :func:`_open_output`, which a writer of chunks can reuse:

- the target's real path is written (a symlink is followed, never replaced);
- a regular file (or a new one) is written to a temporary file next to the real path and
  renamed over it only when every byte is written, with the mode the old file had, or
  else the mode the umask gives; the temporary file is removed on every error,
  interrupt or termination (``SIGTERM``) that lets Python run;
- a terminal, ``/dev/null``, ``/dev/zero`` and ``/dev/full`` are written in place, and
  so is a FIFO that has a reader (one without a reader is refused rather than waited
  on); other devices, sockets, folders and the kernel's files under ``/proc`` and
  ``/sys`` are refused;
- a failed write (``ENOSPC`` on a full disk or ``/dev/full``) is a :class:`SymattnError`.

Control characters, format characters (bidi overrides, zero-width spaces) and lone
surrogates in the text are written as ``\\uXXXX``
(:func:`~symattn.errors.visible`), so that no output makes a terminal obey an escape
sequence from a title or a token.  A writer of chunks does the same with each chunk:
``with _open_output(path) as handle: handle.write(visible(chunk))``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TextIO

from .errors import SymattnError, visible

__all__ = [
    "ProgressBar",
    "csv_cell",
    "resolve_target",
    "say",
    "terminate_cleanly",
    "write_binary",
    "write_output",
    "write_stream",
]

#: Folders whose files belong to the kernel: writing there is never what a user means.
_KERNEL_FOLDERS = ("/proc", "/sys")
#: Longest part of the target's name kept in the temporary file's name.
_TEMP_NAME_CHARS = 80


def write_output(text: str, path: str | os.PathLike[str] | None) -> None:
    """Print ``text``, or write it to ``path`` whole or not at all."""
    text = visible(text)
    if path is None:
        _write_stdout(text)
        return
    with _open_output(path) as handle:
        handle.write(text)


def write_binary(data: bytes, path: str | os.PathLike[str] | None, what: str) -> None:
    """Write the bytes of a file (``what``: docx, xlsx) to ``path`` whole or not at all;
    to standard output only when it is not a terminal (a pipe or a redirection)."""
    if path is None:
        binary = getattr(sys.stdout, "buffer", None)
        if binary is None or sys.stdout.isatty():
            raise SymattnError(f"{what}: a binary file; give -o FILE.{what} (or redirect stdout)")
        try:
            sys.stdout.flush()
            binary.write(data)
            binary.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise SymattnError(f"standard output: cannot write ({exc.strerror})") from None
        return
    with _open_output(path, binary=True) as handle:
        handle.write(data)


def say(line: str) -> None:
    """Print one line to stderr (a message, a warning, a summary) with every control and
    format character and lone surrogate written as ``\\uXXXX``: a file or student name
    never makes the terminal obey an escape sequence or reverse the line."""
    print(visible(line, one_line=True), file=sys.stderr)


def _write_stdout(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise SymattnError(f"standard output: cannot write ({exc.strerror})") from None


def _cannot(path: str | os.PathLike[str], exc: OSError) -> SymattnError:
    return SymattnError(f"{os.fsdecode(path)}: cannot write ({exc.strerror})")


def resolve_target(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """The real path to write (symlinks resolved) and its status, or None when it is new.

    Refuses what must not be written: folders, block devices, sockets, kernel files."""
    shown = os.fsdecode(path)
    try:
        status: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        status = None
    except OSError as exc:
        raise _cannot(path, exc) from None
    if status is not None and not stat.S_ISREG(status.st_mode):
        mode = status.st_mode
        if stat.S_ISDIR(mode):
            raise SymattnError(f"{shown}: is a directory; give a file name")
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise SymattnError(f"{shown}: is a block device or a socket, not a file to write")
        return Path(path), status
    real = Path(os.path.realpath(path))
    if any(str(real) == f or str(real).startswith(f + "/") for f in _KERNEL_FOLDERS):
        raise SymattnError(f"{shown}: is a file of the kernel ({real}); choose another path")
    if not real.parent.is_dir():
        raise SymattnError(f"{shown}: directory {str(real.parent)!r} does not exist")
    return real, status


def _harmless_device(status: os.stat_result) -> bool:
    """/dev/null, /dev/zero and /dev/full (Linux's memory devices 1:3, 1:5, 1:7)."""
    return os.major(status.st_rdev) == 1 and os.minor(status.st_rdev) in (3, 5, 7)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _open_output(path: str | os.PathLike[str], binary: bool = False) -> Iterator[IO[Any]]:
    """A text (or ``binary``) handle whose bytes reach ``path`` whole when the block ends
    without error."""
    real, status = resolve_target(path)
    if status is not None and not stat.S_ISREG(status.st_mode):
        with _in_place(path, stat.S_ISFIFO(status.st_mode), binary) as handle:
            yield handle
        return
    with _replacing(path, real, status, binary) as handle:
        yield handle


def _fdopen(fd: int, binary: bool) -> IO[Any]:
    if binary:
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")


@contextlib.contextmanager
def _in_place(path: str | os.PathLike[str], fifo: bool, binary: bool) -> Iterator[IO[Any]]:
    """Write a FIFO, a terminal or /dev/null as it is (no temporary file, no rename)."""
    flags = os.O_WRONLY | (os.O_NONBLOCK if fifo else 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if fifo and exc.errno == errno.ENXIO:
            raise SymattnError(f"{os.fsdecode(path)}: is a pipe that nobody reads") from None
        raise _cannot(path, exc) from None
    try:
        if not fifo and not (os.isatty(fd) or _harmless_device(os.fstat(fd))):
            raise SymattnError(
                f"{os.fsdecode(path)}: is a device; symattn writes files, pipes, terminals "
                "and /dev/null, /dev/zero, /dev/full"
            )
        if fifo:  # a reader is there: from now on, wait for it as a pipe does
            os.set_blocking(fd, True)
        handle = _fdopen(fd, binary)
    except BaseException:
        os.close(fd)
        raise
    try:
        with handle:
            yield handle
    except OSError as exc:
        raise _cannot(path, exc) from None


@contextlib.contextmanager
def _replacing(
    path: str | os.PathLike[str], real: Path, status: os.stat_result | None, binary: bool
) -> Iterator[IO[Any]]:
    """Write a temporary file next to ``real`` and rename it over ``real`` at the end."""
    prefix = f".{real.name[:_TEMP_NAME_CHARS]}."
    tmp: str | None = None
    try:
        try:
            import tempfile  # loads when a file is written (start-up, issue 24)

            fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=real.parent)
        except OSError as exc:
            raise _cannot(path, exc) from None
        try:
            _set_mode(fd, status)
            handle = _fdopen(fd, binary)
        except BaseException:
            os.close(fd)
            raise
        try:
            with handle:
                yield handle
            os.replace(tmp, real)
            tmp = None
        except OSError as exc:
            raise _cannot(path, exc) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _set_mode(fd: int, status: os.stat_result | None) -> None:
    """The old file's mode (and owner, when we may), or a new file's mode by the umask."""
    if status is None:
        os.fchmod(fd, 0o666 & ~_umask())
        return
    if os.geteuid() == 0 and (status.st_uid, status.st_gid) != (0, 0):
        with contextlib.suppress(OSError):
            os.fchown(fd, status.st_uid, status.st_gid)
    os.fchmod(fd, stat.S_IMODE(status.st_mode))


#: First characters that make a spreadsheet read a cell as a formula (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@")


def csv_cell(text: str) -> str:
    r"""One cell of a CSV report, safe to open in a spreadsheet and to print.

    Control characters (a carriage return or a newline would split the row; ESC would
    reach a terminal) and lone surrogates (the bytes of a file name that is not UTF-8)
    are written as ``\uXXXX``; a cell that starts with ``=``, ``+``, ``-`` or ``@`` gets a
    leading apostrophe, so that a spreadsheet shows it as text instead of running it as a
    formula.  Every CSV that symattn writes (the class report, grades) passes each cell
    that can hold a name or a message through here.

    >>> csv_cell("=HYPERLINK(A1)")
    "'=HYPERLINK(A1)"
    >>> csv_cell("a\rb.json")
    'a\\u000db.json'
    """
    cell = visible(text, one_line=True)
    return "'" + cell if cell.startswith(_FORMULA_STARTS) else cell


class _Terminated(BaseException):
    """SIGTERM, raised where Python runs so that every cleanup runs too."""


@contextlib.contextmanager
def terminate_cleanly() -> Iterator[None]:
    """Within the block, ``SIGTERM`` unwinds like an interrupt (temporary files are
    removed) and then ends the process with status 143, as the signal would have."""
    previous: Any = None

    def handler(signum: int, frame: object) -> None:
        raise _Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: signals stay as they are
        yield
        return
    try:
        yield
    except _Terminated:
        sys.stderr.write("symattn: terminated\n")
        raise SystemExit(128 + signal.SIGTERM) from None
    finally:
        signal.signal(signal.SIGTERM, previous)


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
    does (whole or not at all, through links, special files in place), each chunk
    encoded as it comes: a large document is never one string.

    On standard output the chunks go out as they are made (as a pipe expects); a chunk
    that fails to be made ends the output there.
    """
    if path is None:
        try:
            for chunk in chunks:
                sys.stdout.write(visible(chunk))
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise SymattnError(f"standard output: cannot write ({exc.strerror})") from None
        return
    with _open_output(path) as handle:
        write = handle.write
        for chunk in chunks:
            write(visible(chunk))
