"""Jupyter: the rich reprs of a derivation, and docs/notebook.ipynb runs.

The notebook is executed with nbclient when nbclient, nbformat and ipykernel can be
imported (``.ci/run`` installs them); otherwise that test is skipped.  The repr tests
and the check that the notebook is stored without outputs need no Jupyter.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.examples import example_names, example_path
from symattn.render.markdown import math_fragments

from .helpers import ROOT

NOTEBOOK = ROOT / "docs" / "notebook.ipynb"
JUPYTER = ("nbclient", "nbformat", "ipykernel")


@pytest.mark.parametrize("name", example_names())
def test_repr_markdown_is_markdown_with_math(name: str) -> None:
    d = symattn.derive(example_path(name))
    text = d._repr_markdown_()
    assert isinstance(text, str) and text.strip()
    assert text.startswith("# ")
    assert "## Step 1" in text
    fragments = math_fragments(text)
    assert any(display for _, display in fragments), "no $$…$$ display math"
    assert any(not display for _, display in fragments), "no $…$ inline math"


@pytest.mark.parametrize("name", example_names())
def test_repr_latex_is_display_math(name: str) -> None:
    d = symattn.derive(example_path(name))
    text = d._repr_latex_()
    assert isinstance(text, str) and text.strip()
    assert text.startswith("$$\n") and text.rstrip().endswith("$$")
    fragments = math_fragments(text)
    assert fragments and all(display for _, display in fragments)
    assert any("\\begin{" in tex for tex, _ in fragments)
    # only math: once the fragments are taken out, nothing but blank lines remains
    assert not re.sub(r"\$\$\n.*?\n\$\$", "", text, flags=re.S).strip()


def test_notebook_is_stored_without_outputs() -> None:
    """The notebook in the repository is clean, so its diffs stay small."""
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"cell {cell.get('id')} has stored outputs"
            assert cell["execution_count"] is None, f"cell {cell.get('id')} has a count"


def _outputs(notebook: Any) -> list[dict[str, Any]]:
    return [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]


def _data(outputs: list[dict[str, Any]], mime: str) -> list[str]:
    texts = []
    for out in outputs:
        value = out.get("data", {}).get(mime)
        if value is not None:
            texts.append(value if isinstance(value, str) else "".join(value))
    return texts


@pytest.mark.slow  # a Jupyter kernel: 4 s of the default run
def test_notebook_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    missing = [m for m in JUPYTER if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (pip install nbclient nbformat ipykernel)")
    # jupyter_core warns about its future paths unless this is set, and the suite's
    # filterwarnings = error would turn that into a failure
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # raises CellExecutionError when a cell fails

    outputs = _outputs(notebook)
    errors = [out for out in outputs if out.get("output_type") == "error"]
    assert not errors, errors
    stderr = [out["text"] for out in outputs if out.get("name") == "stderr"]
    assert not stderr, stderr

    markdown = _data(outputs, "text/markdown")
    assert any("## Step 1" in text and "$$" in text for text in markdown), (
        "the derivation was not shown as Markdown"
    )
    assert any("第 1 步" in text for text in markdown), "the Chinese rendering is missing"

    seed = symattn.derive(example_path("seed")).step("weights")
    weights = seed.sympy_matrix()
    plain = _data(outputs, "text/plain")
    assert any(text.startswith("Matrix(") and "exp(" in text for text in plain), plain
    assert any(str(weights.tolist()[0][0]) in text for text in plain)
    latex = _data(outputs, "text/latex")
    assert any("\\begin{matrix}" in text and "e^{" in text for text in latex), latex

    stdout = "".join(out["text"] for out in outputs if out.get("name") == "stdout")
    assert seed.exact_str(0, 1) in stdout
    assert "Cross-check against NumPy float64: passed" in stdout
