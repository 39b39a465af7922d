"""Reading problem and answers files: TOML or JSON into a dict, decimals exact.

Decimals are read as :class:`~decimal.Decimal` (``parse_float=Decimal``), never through a
binary float, so ``0.1`` in a file is exactly 1/10.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import SymattnError

if TYPE_CHECKING:
    import csv

__all__ = [
    "MAX_CSV_FIELD_CHARS",
    "MAX_FILE_BYTES",
    "MAX_LISTED_FILES",
    "check_readable",
    "csv_dialect",
    "csv_rows",
    "list_files",
    "parse_json",
    "parse_toml",
    "read_file",
    "read_text",
]

#: Problem and answers files larger than this are refused before parsing.
MAX_FILE_BYTES = 20_000_000
#: Most files one folder or pattern of answers files may hold (a class, not a disk).
MAX_LISTED_FILES = 10_000
#: Longest field of a CSV answers file or roster (the limit of Python's csv module).
MAX_CSV_FIELD_CHARS = 131_072


def _refuse_special(where_: str, status: os.stat_result) -> None:
    if stat.S_ISDIR(status.st_mode):
        raise SymattnError(f"{where_}: is a directory, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise SymattnError(f"{where_}: is not a regular file (a device, a pipe or a socket)")
    if status.st_size > MAX_FILE_BYTES:
        raise SymattnError(f"{where_}: file is larger than {MAX_FILE_BYTES} bytes")


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_readable(
    path: str | os.PathLike[str], *, within: str | os.PathLike[str] | None = None
) -> os.stat_result:
    """Refuse, without reading a byte, what :func:`read_text` would not read: a missing
    file, a folder, a FIFO, a device, a socket, a file over :data:`MAX_FILE_BYTES`; with
    ``within``, also a path whose real location (symlinks resolved) is outside that folder.
    """
    where_ = os.fsdecode(path)
    if within is not None:
        real, root = Path(os.path.realpath(path)), Path(os.path.realpath(within))
        if not _inside(real, root):
            raise SymattnError(
                f"{where_}: is a link to a file outside {os.fsdecode(within)!r}; "
                "copy the file into the folder instead"
            )
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise SymattnError(f"{where_}: no such file") from None
    except OSError as exc:
        raise SymattnError(f"{where_}: cannot read ({exc.strerror})") from None
    _refuse_special(where_, status)
    return status


def list_files(
    folder: str | os.PathLike[str],
    suffixes: tuple[str, ...],
    limit: int = MAX_LISTED_FILES,
) -> list[Path]:
    """The files of ``folder`` whose names end in one of ``suffixes`` (any case), sorted.

    Nothing is read or followed here: folders are left out, every other entry with a
    matching name is listed (a FIFO or a link that leaves the folder is refused when it
    is read, with :func:`check_readable`, so that it becomes one row of a report).  More
    than ``limit`` entries is an error, found before the list is sorted."""
    where_ = os.fsdecode(folder)
    found: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.name.lower().endswith(suffixes):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    continue
                found.append(Path(entry.path))
                if len(found) > limit:
                    raise SymattnError(
                        f"{where_}: holds more than {limit} files ending in "
                        f"{' or '.join(suffixes)}; grade it in parts"
                    )
    except OSError as exc:
        raise SymattnError(f"{where_}: cannot list ({exc.strerror})") from None
    return sorted(found)


def read_text(path: str | os.PathLike[str], *, within: str | os.PathLike[str] | None = None) -> str:
    """The UTF-8 text of a regular file no larger than the limit.

    A FIFO, a device or a directory is refused before anything is read (reading
    /dev/zero would never end; a FIFO would wait for a writer); so is, with ``within``,
    a link that leads out of that folder (:func:`check_readable`).
    """
    where_ = os.fsdecode(path)
    check_readable(path, within=within)
    try:  # non-blocking: a FIFO swapped in after the check still cannot make us wait
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise SymattnError(f"{where_}: cannot read ({exc.strerror})") from None
    try:
        _refuse_special(where_, os.fstat(fd))
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SymattnError(f"{where_}: cannot read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        raise SymattnError(f"{where_}: file is larger than {MAX_FILE_BYTES} bytes")
    try:
        return str(raw, "utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SymattnError(f"{where_}: not UTF-8 text (byte {exc.start + 1})") from None


def read_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a TOML or JSON file into a dict, decimals as :class:`~decimal.Decimal`."""
    where_ = str(path)
    text = read_text(path)
    suffix = Path(path).suffix.lower()
    if suffix == ".json" or (suffix != ".toml" and text.lstrip().startswith("{")):
        return parse_json(text, where_)
    return parse_toml(text, where_)


def parse_json(text: str, source: str) -> dict[str, Any]:
    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise SymattnError(f"{source}: key {key!r} is given twice; give it once")
                seen.add(key)
        return obj

    import json  # JSON and CSV load when a file of theirs is read (start-up, issue 24)

    try:
        data = json.loads(
            text, parse_float=Decimal, parse_constant=Decimal, object_pairs_hook=unique
        )
    except json.JSONDecodeError as exc:
        raise SymattnError(
            f"{source}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except SymattnError:  # a key given twice: its own message
        raise
    except (ValueError, RecursionError) as exc:
        raise SymattnError(f"{source}: malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise SymattnError(f"{source}: the top level must be an object of keys")
    return data


def parse_toml(text: str, source: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        data: dict[str, Any] = tomllib.loads(text, parse_float=Decimal)
        return data
    except tomllib.TOMLDecodeError as exc:
        raise SymattnError(f"{source}: malformed TOML: {exc}") from None
    except RecursionError:
        raise SymattnError(f"{source}: malformed TOML: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise SymattnError(f"{source}: malformed TOML: {exc}") from None


def csv_dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    """The dialect of a CSV file (a roster, an answers file): commas, or the semicolons
    and tabs a European-locale spreadsheet exports, told from its first 4 kB."""
    import csv

    try:
        return csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        return csv.excel


def csv_rows(
    text: str, source: str, dialect: type[csv.Dialect] | csv.Dialect | None = None
) -> list[list[str]]:
    """The rows of the CSV ``text``; a row that is not CSV, or a field longer than
    :data:`MAX_CSV_FIELD_CHARS`, is a :class:`SymattnError` naming ``source`` and the line."""
    import csv

    reader = csv.reader(io.StringIO(text, newline=""), dialect or csv.excel)
    rows: list[list[str]] = []
    try:
        for row in reader:
            if any(len(cell) > MAX_CSV_FIELD_CHARS for cell in row):
                raise csv.Error("field larger than field limit")
            rows.append(row)
    except csv.Error as exc:
        if "field limit" in str(exc):
            reason = f"a field is longer than {MAX_CSV_FIELD_CHARS} characters"
        else:
            reason = f"not CSV ({exc})"
        raise SymattnError(f"{source}: line {reader.line_num}: {reason}") from None
    return rows
