"""Issue 22: semicolon- and tab-separated CSV answers (what a European-locale spreadsheet
exports) are read as the comma ones, with the roster's dialect detection; step ids are
read in any case (``Weights``), and two keys naming one answer are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import symattn
from symattn.check import check
from symattn.errors import SymattnError
from symattn.load.files import csv_dialect

ROWS = [("weights", 1, 1, "0,1070"), ("Weights", 1, 2, "0.8930"), ("OUTPUT", 1, 1, "1.8930")]


def _write(tmp_path: Path, delimiter: str, bom: bool = False) -> Path:
    lines = [delimiter.join(["step", "row", "col", "value"])]
    for step, i, j, value in ROWS:
        quoted = f'"{value}"' if delimiter == "," and "," in value else value
        lines.append(delimiter.join([step, str(i), str(j), quoted]))
    path = tmp_path / "answers.csv"
    path.write_text(("\ufeff" if bom else "") + "\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("bom", [False, True])
def test_every_delimiter_reads_the_same_answers(tmp_path: Path, delimiter: str, bom: bool) -> None:
    result = check(symattn.derive("seed"), str(_write(tmp_path, delimiter, bom)))
    found = {(s.id, e.index, e.status) for s in result.steps for e in s.entries}
    assert found == {
        ("weights", (1, 1), "ok"),
        ("weights", (1, 2), "ok"),
        ("output", (1, 1), "ok"),
    }


def test_the_roster_and_the_answers_share_the_dialect() -> None:
    assert csv_dialect("name;email\nAda;a@x.org\n").delimiter == ";"
    assert csv_dialect("step\trow\tcol\tvalue\nQ\t1\t1\t2\n").delimiter == "\t"
    assert csv_dialect('step,row,col,value\nQ,1,1,"0,5"\n').delimiter == ","


def test_a_wrong_header_says_which_delimiters_are_read(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("step|row|col|value\nQ|1|1|2\n", encoding="utf-8")
    with pytest.raises(SymattnError, match="commas, semicolons or tabs"):
        check(symattn.derive("seed"), str(path))


@pytest.mark.parametrize("written", ["Weights", "WEIGHTS", "weights", "wEiGhTs"])
def test_step_ids_are_read_in_any_case(written: str) -> None:
    result = check(symattn.derive("seed"), {f"{written}[1,2]": "0.8930"})
    assert [(s.id, e.status) for s in result.steps for e in s.entries] == [("weights", "ok")]


def test_one_answer_under_two_cases_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SymattnError, match="name the same answer"):
        check(symattn.derive("seed"), {"weights": "0.1 0.9; 0.9 0.1", "Weights": "0 1; 1 0"})
    path = tmp_path / "a.csv"
    path.write_text("step;row;col;value\nweights;1;1;0,1\nWEIGHTS;1;1;0,2\n", encoding="utf-8")
    with pytest.raises(SymattnError, match=r"line 3.*given twice"):
        check(symattn.derive("seed"), str(path))


def test_a_gradient_named_in_other_case_still_derives_the_backward_pass() -> None:
    key = symattn.derive("backward", backward=True)
    grads = [s for s in key.step_ids if s.startswith("d")]
    step = key.step(grads[0])
    answers = {grads[0].upper() + "[1,1]": step.exact_str(0, 0)}
    result = check(str(symattn.examples.example_path("backward")), answers)
    assert [e.status for s in result.steps for e in s.entries] == ["ok"]
