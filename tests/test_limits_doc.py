"""docs/limits.md says the truth: each documented number is the constant in the code, every
limit constant of the code is documented, and the fixed rules written out in prose hold."""

from __future__ import annotations

import importlib
import re
from decimal import Decimal
from pathlib import Path

import pytest

import symattn
from symattn.errors import SymattnError

from .helpers import ROOT

DOC = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (?!limit |---)(.+) \|$", re.M)
CONSTANT = re.compile(r"`(symattn(?:\.\w+)+)\.([A-Z_]+)`")
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
# Limit-like names that are not limits of the input: the generator's own retries, and a
# copy of load.files.MAX_FILE_BYTES that nothing reads.
NOT_LIMITS = {"symattn.load.problem_file.MAX_FILE_BYTES"}


def _rows() -> list[tuple[str, str, str]]:
    """(first number of the value column, module, constant) of every row naming one."""
    out = []
    for line in ROW.findall(DOC):
        cells = [c.strip() for c in line.split(" | ")]
        found = CONSTANT.search(cells[-1])
        if found:
            out.append((NUMBER.findall(cells[1])[0], found.group(1), found.group(2)))
    return out


def test_the_doc_has_both_tables() -> None:
    assert len(_rows()) >= 20


@pytest.mark.parametrize(("number", "module", "name"), _rows(), ids=lambda v: str(v))
def test_each_documented_number_is_the_constant(number: str, module: str, name: str) -> None:
    value = getattr(importlib.import_module(module), name)
    assert Decimal(number.replace(",", "")) == Decimal(value), (module, name, value)


def test_every_limit_constant_is_documented() -> None:
    pattern = re.compile(r"^((?:MAX|DEFAULT)_\w+) = ", re.M)
    found = set()
    for path in (ROOT / "symattn").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name in pattern.findall(path.read_text(encoding="utf-8")):
            found.add(f"{module}.{name}")
    documented = {f"{m}.{n}" for m, n in CONSTANT.findall(DOC)}
    assert found - NOT_LIMITS <= documented, sorted(found - NOT_LIMITS - documented)
    assert documented <= found


BASE = {"Q": [[1]], "K": [[1]], "V": [[1]]}


def test_heads_places_and_symbolic_matrices_as_documented() -> None:
    assert "`heads` is 1 … 16" in DOC and "`places` in a problem file is 0 … 12" in DOC
    assert "at most 10,000 entries" in DOC
    wide = {"Q": [[1] * 16], "K": [[1] * 16], "V": [[1] * 16]}
    assert symattn.load({**wide, "heads": 16}).heads == 16
    with pytest.raises(SymattnError, match="heads"):
        symattn.load({**wide, "heads": 17})
    assert symattn.load({**BASE, "places": 12}).places == 12
    with pytest.raises(SymattnError, match="places"):
        symattn.load({**BASE, "places": 13})
    generic = {"W_Q": [[1]], "W_K": [[1]], "W_V": [[1]]}
    with pytest.raises(SymattnError, match="symbolic-derivation limit"):  # 10,000: allowed
        symattn.load({**generic, "X": {"symbol": "x", "shape": [10_000, 1]}})
    with pytest.raises(SymattnError, match=r"10001 × 1 is too large"):
        symattn.load({**generic, "X": {"symbol": "x", "shape": [10_001, 1]}})


def test_docs_index_links_the_page() -> None:
    assert "docs/limits.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert Path(ROOT / "docs" / "limits.md").is_file()
