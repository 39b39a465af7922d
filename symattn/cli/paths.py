"""The paths a command reads and writes, compared before anything is written: an output
never replaces an input or another output, and never fails after others were written."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from ..errors import SymattnError
from ..output import resolve_target
from ..record import Record

__all__ = ["PathUse", "check_paths"]


class PathUse(Record):
    """A path a command reads or writes, with the words that name it in a message.

    ``label`` is how the user gave it (``--moodle quiz.xml``, ``problem p.toml``);
    ``folder`` says that the command reads or writes the folder's contents (``-o DIR``
    of ``exercises``, ``--feedback FBDIR``, a folder of submissions)."""

    label: str
    path: str | os.PathLike[str]
    folder: bool = False


def check_paths(inputs: Sequence[PathUse], outputs: Sequence[PathUse | None]) -> None:
    """Refuse, before anything is read or written, outputs that would clobber or fail.

    Every writing command calls this with all it reads and all it writes.  An output is
    refused (one line naming both paths) when it is the same file as an input or as
    another output (through links too, and a hard link of a file inside a folder the
    command reads or writes), when it lies inside a folder the command reads
    or writes, or when it is a folder that holds one of them.  Each output is also
    looked at alone, as far as it can be cheaply known: a file output must not be a
    folder or ``/dev/full``, and its folder must exist and be writable; a folder output
    must not be a file.  So a command never fails on its last output after writing the
    first ones (a class set, then an unwritable quiz path)."""
    wanted = [o for o in outputs if o is not None]
    for out in wanted:
        _check_alone(out)
    seen: list[PathUse] = list(inputs)
    for out in wanted:
        for other in seen:
            _check_pair(out, other)
        seen.append(out)


def _shown(place: PathUse) -> str:
    return f"{place.label} {os.fsdecode(place.path)}"


def _in_placeresolve_target(path: str | os.PathLike[str]) -> bool:
    """A device or a FIFO: written as it is, so two of them never clobber anything."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _check_alone(out: PathUse) -> None:
    shown = os.fsdecode(out.path)
    if out.folder:
        if os.path.exists(out.path) and not os.path.isdir(out.path):
            raise SymattnError(f"{_shown(out)}: exists and is not a folder")
        existing = Path(os.path.realpath(out.path))
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir():
            raise SymattnError(f"{_shown(out)}: {str(existing)!r} is not a folder")
        if not os.access(existing, os.W_OK | os.X_OK):
            raise SymattnError(f"{shown}: cannot write ({os.strerror(errno.EACCES)})")
        return
    real, status = resolve_target(out.path)
    if status is not None and not stat.S_ISREG(status.st_mode):
        full = os.major(status.st_rdev) == 1 and os.minor(status.st_rdev) == 7
        if stat.S_ISCHR(status.st_mode) and full:  # /dev/full: every write fails
            raise SymattnError(f"{shown}: cannot write ({os.strerror(errno.ENOSPC)})")
        return
    if not os.access(real.parent, os.W_OK | os.X_OK):
        raise SymattnError(f"{shown}: cannot write ({os.strerror(errno.EACCES)})")


def _same(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _inside(inner: str | os.PathLike[str], outer: str | os.PathLike[str]) -> bool:
    root = os.path.realpath(outer).rstrip("/") + "/"
    return os.path.realpath(inner).startswith(root)


def _hard_link_in(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> str | None:
    """The file in ``folder`` (at any depth) that the existing file ``path`` is another
    hard link of, if any: only a file with more than one link is looked for."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_nlink < 2:
        return None
    for root, _, files in os.walk(folder):
        for name in files:
            inner = os.path.join(root, name)
            try:
                found = os.stat(inner)
            except OSError:
                continue
            if (found.st_dev, found.st_ino) == (status.st_dev, status.st_ino):
                return inner
    return None


def _is_folder(place: PathUse) -> bool:
    return place.folder or os.path.isdir(place.path)


def _check_pair(out: PathUse, other: PathUse) -> None:
    if _in_placeresolve_target(out.path) and _in_placeresolve_target(other.path):
        return  # /dev/null twice, a terminal for two outputs
    if _same(out.path, other.path):
        what = "folder" if _is_folder(out) or _is_folder(other) else "file"
        raise SymattnError(
            f"{_shown(out)}: is the same {what} as {_shown(other)}; choose another path"
        )
    if _is_folder(other) and _inside(out.path, other.path):
        raise SymattnError(
            f"{_shown(out)}: lies inside {_shown(other)}; choose a path outside that folder"
        )
    linked = _hard_link_in(out.path, other.path) if _is_folder(other) else None
    if linked is not None:
        raise SymattnError(
            f"{_shown(out)}: is the same file as {linked} in {_shown(other)}; choose another path"
        )
    if _is_folder(out) and _inside(other.path, out.path):
        raise SymattnError(
            f"{_shown(out)}: holds {_shown(other)}; choose a folder that does not hold it"
        )
