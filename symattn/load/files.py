"""Reading problem and answers files: TOML or JSON into a dict, decimals exact.

Decimals are read as :class:`~decimal.Decimal` (``parse_float=Decimal``), never through a
binary float, so ``0.1`` in a file is exactly 1/10.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..errors import SymattnError

__all__ = ["MAX_FILE_BYTES", "parse_json", "parse_toml", "read_file", "read_text"]

#: Problem files larger than this are refused before parsing.
MAX_FILE_BYTES = 20_000_000


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of a regular file no larger than the limit.

    A FIFO, a device or a directory is refused before anything is read (reading
    /dev/zero would never end; a FIFO would wait for a writer).
    """
    where_ = str(path)
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise SymattnError(f"{where_}: no such file") from None
    except OSError as exc:
        raise SymattnError(f"{where_}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(status.st_mode):
        raise SymattnError(f"{where_}: is a directory, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise SymattnError(f"{where_}: is not a regular file (a device, a pipe or a socket)")
    if status.st_size > MAX_FILE_BYTES:
        raise SymattnError(f"{where_}: file is larger than {MAX_FILE_BYTES} bytes")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SymattnError(f"{where_}: cannot read ({exc.strerror})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise SymattnError(f"{where_}: file is larger than {MAX_FILE_BYTES} bytes")
    try:
        return raw.decode("utf-8-sig")
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
    try:
        data = json.loads(text, parse_float=Decimal, parse_constant=Decimal)
    except json.JSONDecodeError as exc:
        raise SymattnError(
            f"{source}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
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
