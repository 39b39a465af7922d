"""The bundled example problems: ``symattn examples`` lists them."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import SymattnError
from ..load.files import read_file

__all__ = ["example_names", "example_path", "list_examples"]

#: Display order of the bundled examples.
ORDER = (
    "seed",
    "apple",
    "lecture4",
    "symbolic",
    "causal",
    "cross",
    "cross_width",
    "padding",
    "multihead",
    "backward",
    "gqa",
    "decode",
    "block",
)


def _folder() -> Path:
    return Path(__file__).parent  # the examples ship as files beside this module


def example_names() -> list[str]:
    found = sorted(name[:-5] for name in os.listdir(_folder()) if name.endswith(".toml"))
    return [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]


def example_path(name: str) -> Path:
    """The file of a bundled example; a clear error names the ones there are."""
    if name not in example_names():
        raise SymattnError(f"no example named {name!r}; examples: {', '.join(example_names())}")
    return _folder() / f"{name}.toml"


def list_examples() -> list[tuple[str, str]]:
    """(name, one-line description) of every bundled example."""
    out = []
    for name in example_names():
        data = read_file(example_path(name))
        out.append((name, str(data.get("description", data.get("title", "")))))
    return out
