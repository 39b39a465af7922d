"""A zip of submissions — Moodle's "Download all submissions" — read as the folder it
unpacks to, without trusting a byte of it.

The zip is unpacked into a temporary folder that is removed afterwards; nothing is
written anywhere else.  Each member is looked at alone and refused (reported, never
unpacked) when its name is absolute, climbs out with ``..``, holds a backslash, a drive
or a control character, when it is a link, encrypted, or given twice, or when it would
unpack to more than :data:`symattn.load.files.MAX_FILE_BYTES` (a zip bomb is stopped
while it inflates, whatever sizes its header claims).  Members that are not answers
files (a PDF, an image, a nested zip) are unpacked as empty files of the same name, so
the folder reads exactly as the real one would — ``Bob.pdf`` is "not an answers file" —
without writing what is in them.  A zip that cannot be read at all, or with more than
:data:`MAX_MEMBERS` members or :data:`MAX_UNPACKED_BYTES` in all, is refused in one line.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import unicodedata
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import SymattnError
from ..load.files import MAX_FILE_BYTES
from .submissions import SUFFIXES, Skipped

__all__ = ["MAX_MEMBERS", "MAX_UNPACKED_BYTES", "Unpacked", "is_zip", "unpacked"]

#: Most members a zip of submissions may list.
MAX_MEMBERS = 20_000
#: Most bytes all answers files of one zip may unpack to.
MAX_UNPACKED_BYTES = 200_000_000
_CHUNK = 1 << 16


@dataclass
class Unpacked:
    """The temporary folder a zip was unpacked to, and the members that were refused."""

    archive: Path
    folder: Path
    refused: list[Skipped] = field(default_factory=list)

    def refuse(self, member: str, why: str) -> None:
        """Report ``member`` as not unpacked (named by the zip: its own name may be
        absolute or climb out, so it is never joined to a path)."""
        self.refused.append(Skipped(self.archive, "zip_member", f"{member} ({why})"))

    def shown(self, path: str | os.PathLike[str]) -> Path:
        """How a path inside the unpacked folder is named to the user: ``subs.zip/Ada/a.json``."""
        try:
            inner = Path(path).relative_to(self.folder)
        except ValueError:
            return Path(path)
        return self.archive / inner

    def shown_text(self, text: str) -> str:
        """``text`` with every path inside the unpacked folder named as in the zip."""
        return text.replace(os.fspath(self.folder) + os.sep, os.fspath(self.archive) + os.sep)


def is_zip(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file ending in ``.zip`` (a folder never is)."""
    return Path(path).suffix.lower() == ".zip" and os.path.isfile(path)


def _unsafe(name: str) -> str | None:
    """Why a member's name may not be unpacked (None: it may)."""
    if not name or "\\" in name or name.startswith("/"):
        return "an absolute or Windows path"
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
        return "a control character in its name"
    parts = PurePosixPath(name).parts
    if any(part == ".." for part in parts):
        return "a path that climbs out with '..'"
    if parts and len(parts[0]) == 2 and parts[0][1] == ":":
        return "an absolute or Windows path"
    return None


def _refusal(info: zipfile.ZipInfo, seen: set[str]) -> str | None:
    why = _unsafe(info.filename)
    if why is not None:
        return why
    if stat.S_ISLNK(info.external_attr >> 16):
        return "a link"
    if info.flag_bits & 0x1:
        return "encrypted"
    key = info.filename.rstrip("/")
    if key in seen:
        return "given twice in the zip"
    seen.add(key)
    if not info.is_dir() and info.file_size > MAX_FILE_BYTES:
        return f"unpacks to more than {MAX_FILE_BYTES:,} bytes"
    return None


def _copy(source: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, budget: int) -> int:
    """Inflate one answers member into ``target``, stopping at the first byte past its
    limit; the number of bytes written."""
    limit = min(MAX_FILE_BYTES, budget)
    written = 0
    with source.open(info) as data, open(target, "xb") as out:
        while chunk := data.read(_CHUNK):
            written += len(chunk)
            if written > limit:
                raise _TooLarge(limit)
            out.write(chunk)
    return written


class _TooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


def _members(archive: Path) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    try:
        opened = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise SymattnError(f"{archive}: not a readable zip file ({exc})") from None
    members = opened.infolist()
    if len(members) > MAX_MEMBERS:
        opened.close()
        raise SymattnError(f"{archive}: more than {MAX_MEMBERS:,} members; grade in parts")
    return opened, members


@contextmanager
def unpacked(archive: str | os.PathLike[str]) -> Iterator[Unpacked]:
    """The zip unpacked into a temporary folder for the duration of the ``with``."""
    archive = Path(archive)
    opened, members = _members(archive)
    folder = Path(tempfile.mkdtemp(prefix="symattn-submissions-"))
    out = Unpacked(archive, folder)
    try:
        with opened:
            _unpack(opened, members, out)
        yield out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _unpack(source: zipfile.ZipFile, members: list[zipfile.ZipInfo], out: Unpacked) -> None:
    seen: set[str] = set()
    left = MAX_UNPACKED_BYTES
    for info in members:
        why = _refusal(info, seen)
        if why is not None:
            out.refuse(info.filename, why)
            continue
        target = out.folder.joinpath(*PurePosixPath(info.filename).parts)
        try:
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.suffix.lower() not in SUFFIXES:
                target.touch(exist_ok=False)  # read as the real folder would be, unwritten
                continue
            left -= _copy(source, info, target, left)
        except _TooLarge as exc:
            target.unlink(missing_ok=True)
            if exc.limit < MAX_FILE_BYTES:
                raise SymattnError(
                    f"{out.archive}: unpacks to more than {MAX_UNPACKED_BYTES:,} bytes "
                    "of answers files; grade in parts"
                ) from None
            out.refuse(info.filename, f"unpacks to more than {MAX_FILE_BYTES:,} bytes")
        except (OSError, zipfile.BadZipFile, NotImplementedError, RuntimeError) as exc:
            target.unlink(missing_ok=True)
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            out.refuse(info.filename, f"cannot be unpacked ({reason})")
