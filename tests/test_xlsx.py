"""The live spreadsheet (SPEC §12): ``derive … --format xlsx``.

The givens are numbers, every later step is formulas that reference the cells they come
from, one worksheet per step family, every step findable by its workbook name; the slow
tests recalculate every workbook in LibreOffice and compare each formula's value with the
derivation to 1e-9, and change a given to see the steps follow.
"""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import symattn
from symattn.examples import example_names, example_path
from symattn.numbers import NegInf
from symattn.render import render
from symattn.render.xlsx import MINUS_INFINITY

from .helpers import run_cli
from .spreadsheet import formulas, recalculate, soffice, tables
from .test_alibi import HEADS as ALIBI
from .test_window import BASE as WINDOW

PROBLEMS: dict[str, Any] = {name: example_path(name) for name in example_names()}
PROBLEMS["alibi"] = ALIBI
PROBLEMS["window"] = WINDOW
NUMERIC = sorted(n for n in PROBLEMS if n != "symbolic")
#: The kinds written as values (with a note), not formulas: none of attention itself.
VALUES_ONLY: set[str] = set()


def _name(step_id: str) -> str:
    return "step_" + "".join(ch if ch.isalnum() else "_" for ch in step_id)


def _derive(name: str) -> symattn.Derivation:
    return symattn.derive(PROBLEMS[name], backward=name == "backward")


def _book(data: bytes) -> Any:
    return openpyxl.load_workbook(io.BytesIO(data))


@pytest.mark.parametrize("name", NUMERIC)
def test_givens_are_numbers_and_every_later_step_formulas(name: str, tmp_path: Path) -> None:
    d = _derive(name)
    path = tmp_path / f"{name}.xlsx"
    path.write_bytes(render(d, "xlsx"))
    written = formulas(path)
    for step in d.steps:
        if step.kind.value == "tokens":
            continue
        cells = written[_name(step.id)]
        assert (len(cells), len(cells[0])) == step.shape, step.id
        for i, row in enumerate(cells):
            for j, cell in enumerate(row):
                if isinstance(step.exact[i][j], NegInf):
                    assert cell == MINUS_INFINITY
                elif step.kind.value in ("given", "lookup"):
                    assert isinstance(cell, (int, float)), (step.id, cell)
                elif step.kind.value not in VALUES_ONLY:
                    assert isinstance(cell, str) and cell.startswith("="), (step.id, i, j, cell)


def test_one_sheet_per_family_in_both_languages() -> None:
    d = symattn.derive(example_path("multihead"))
    assert _book(render(d, "xlsx")).sheetnames == [
        "Given",
        "Projections",
        "Scores",
        "Weights",
        "Output",
    ]
    assert _book(render(d, "xlsx", lang="zh")).sheetnames == [
        "已知",
        "投影",
        "注意力分数",
        "注意力权重",
        "输出",
    ]
    back = symattn.derive(example_path("backward"), backward=True)
    assert _book(render(back, "xlsx")).sheetnames[-1] == "Gradients"


def test_a_product_is_the_sum_written_out_and_the_softmax_its_exponentials() -> None:
    book = _book(render(symattn.derive(example_path("seed")), "xlsx"))
    written = {n: d for n, d in book.defined_names.items()}
    q = next(iter(written["step_Q"].destinations))
    sheet, cells = q
    first = book[sheet][cells.replace("$", "").split(":")[0]].value
    # q_11 = x_11 w_11 + x_12 w_21 + x_13 w_31 + x_14 w_41, from the Given sheet
    assert first.count("*") == 4 and first.count("Given!") == 8
    weights = book["Weights"]
    text = [c.value for row in weights.iter_rows() for c in row if isinstance(c.value, str)]
    assert any(t.startswith("=IF(ISNUMBER(") and "EXP(" in t and "MAX(" in t for t in text)
    assert any(t.startswith("=SUM(") for t in text)


def test_a_value_a_spreadsheet_cannot_hold_has_its_exact_value_as_a_note() -> None:
    book = _book(render(symattn.derive(example_path("seed")), "xlsx"))
    sheet, cells = next(iter(book.defined_names["step_weights"].destinations))
    cell = book[sheet][cells.replace("$", "").split(":")[0]]
    assert cell.comment is not None
    assert cell.comment.text == "exact: exp(sqrt(2))/(exp(sqrt(2)) + exp(5*sqrt(2)/2))"
    sheet, cells = next(iter(book.defined_names["step_Q"].destinations))
    assert book[sheet][cells.replace("$", "").split(":")[0]].comment is None  # 2: exact


def test_a_symbolic_problem_is_refused_in_one_line(tmp_path: Path) -> None:
    code, _, err = run_cli(
        ["derive", "--example", "symbolic", "--format", "xlsx", "-o", str(tmp_path / "s.xlsx")]
    )
    assert code == 2
    assert err.startswith("symattn: error: xlsx: a symbolic problem has no numbers")
    assert not (tmp_path / "s.xlsx").exists()


def test_derive_writes_xlsx_with_o(tmp_path: Path) -> None:
    out = tmp_path / "d.xlsx"
    code, _, err = run_cli(["derive", "--example", "causal", "--format", "xlsx", "-o", str(out)])
    assert code == 0, err
    assert _book(out.read_bytes()).sheetnames[0] == "Given"


def _compare(d: symattn.Derivation, values: dict[str, list[list[Any]]]) -> tuple[int, float]:
    """How many formulas were compared, and the largest relative difference."""
    count, worst = 0, 0.0
    for step in d.steps:
        if step.kind.value in ("tokens", "given", "lookup"):
            continue
        for i, row in enumerate(values[_name(step.id)]):
            for j, got in enumerate(row):
                if isinstance(step.exact[i][j], NegInf):
                    assert got == MINUS_INFINITY
                    continue
                expected = float(step.values[i][j])
                assert isinstance(got, (int, float)), (step.id, i, j, got)
                worst = max(worst, abs(got - expected) / max(1.0, abs(expected)))
                count += 1
    return count, worst


@pytest.mark.slow
def test_libreoffice_computes_the_derivation_to_1e_9(tmp_path: Path) -> None:
    if soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    paths = []
    for name in NUMERIC:
        path = tmp_path / f"{name}.xlsx"
        path.write_bytes(render(_derive(name), "xlsx"))
        paths.append(path)
    total, largest = 0, 0.0
    for name, recalculated in zip(NUMERIC, recalculate(paths, tmp_path)):
        count, worst = _compare(_derive(name), tables(recalculated))
        assert worst <= 1e-9, name
        total, largest = total + count, max(largest, worst)
    print(
        f"LibreOffice recalculated {total} formulas of {len(NUMERIC)} workbooks; "
        f"largest relative difference from the derivation {largest:.2e}"
    )
    assert total > 1000


CHANGED: dict[str, Any] = {
    "tokens": ["a", "b", "c"],
    "X": [[1, 0, 1], [0, 2, 0], [1, 1, 1]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
    "mask": "causal",
}


@pytest.mark.slow
def test_changing_a_given_changes_every_step_that_follows(tmp_path: Path) -> None:
    if soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    path = tmp_path / "changed.xlsx"
    path.write_bytes(render(symattn.derive(CHANGED), "xlsx"))
    book = openpyxl.load_workbook(path)
    sheet, cells = next(iter(book.defined_names["step_X"].destinations))
    book[sheet][cells.replace("$", "").split(":")[0]].value = 3  # x_11: 1 → 3
    book.save(path)
    changed = copy.deepcopy(CHANGED)
    changed["X"][0][0] = 3
    (recalculated,) = recalculate([path], tmp_path)
    values = tables(recalculated)
    count, worst = _compare(symattn.derive(changed), values)
    assert worst <= 1e-9 and count > 20
    before = symattn.derive(CHANGED)
    assert values["step_output"][0][0] != pytest.approx(float(before.step("output").values[0][0]))


@pytest.mark.parametrize("name", ["seed", "multihead", "block", "backward"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_table_is_titled_as_the_derivation_titles_its_step(name: str, lang: str) -> None:
    d = _derive(name)
    headings = {
        line[3:] for line in render(d, "markdown", lang=lang).splitlines() if line.startswith("## ")
    }
    book = _book(render(d, "xlsx", lang=lang))
    for step in d.steps:
        if step.kind.value == "tokens":
            continue
        sheet, cells = next(iter(book.defined_names[_name(step.id)].destinations))
        first = book[sheet][cells.replace("$", "").split(":")[0]]
        title = book[sheet].cell(row=first.row - 3, column=1).value
        assert title.replace("_", "\\_") in headings or title in headings, (step.id, title)
