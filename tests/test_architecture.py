"""The layers are real: read from the code itself (an AST scan of symattn/).

* no module imports one of symattn's own modules inside a function (lazy imports are
  for SymPy and NumPy, for start-up speed), but for the start-up per command (issue 24):
  the command line (the top layer) loads each command's layers when that command runs,
  and ``symattn.render`` its HTML, Word and spreadsheet writers when asked for (every
  such import still counts in the cycle check below);
* the modules' imports form no cycle (every import counted, at any depth);
* no module is over 400 lines;
* outside symattn/render/, no module imports a module of render/: ``symattn.render`` is
  the one surface of the renderers; and that surface offers the document model, not the
  HTML writer's pieces: a page is a document that ``render()`` writes (the self-check page
  imports only blocks, ``Document``, ``render`` and a few helpers; the Moodle quiz only the
  document model and ``render()``);
* the import-linter contract in pyproject.toml (run by .ci/run) names every package;
* every topic's NumPy reference (``symattn/topics/<topic>_numpy.py``) is under the
  contract that keeps the NumPy path apart from the exact one, and imports of symattn
  only ``numpy_base`` (so the cross-check compares two independent computations).
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "symattn"
MAX_LINES = 400

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom) -> list[str]:
    """The own modules an ``from … import …`` names (a submodule where it is one)."""
    package = module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]
    if node.level:
        base = package.split(".")
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    if not target.startswith("symattn"):
        return []
    found = []
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        found.append(sub if sub in MODULES else target)
    return [f for f in found if f in MODULES]


def _imports(module: str) -> list[tuple[str, bool]]:
    """(imported own module, inside a function?) for every import of ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    out: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom):
                out.extend((target, inner) for target in _resolve(module, child))
            elif isinstance(child, ast.Import):
                out.extend((a.name, inner) for a in child.names if a.name in MODULES)
            visit(child, inner)

    visit(tree, False)
    return out


GRAPH = {m: sorted({t for t, _ in _imports(m) if t != m}) for m in MODULES}


#: The lazy imports allowed (see the module's note): importer → what it may load lazily.
LAZY = {
    "symattn.render": (
        "symattn.render.html",
        "symattn.render.docx",
        "symattn.render.xlsx",
        # the writers but the terminal's, loaded when asked for (derive's start-up)
        "symattn.render.json_out",
        "symattn.render.latex",
        "symattn.render.markdown",
        "symattn.render.moodle_html",
        "symattn.render.tex",
    ),
}


def _lazy_allowed(module: str, target: str) -> bool:
    if module.startswith("symattn.cli."):
        return True  # the top layer: nothing imports it but __main__
    return target in LAZY.get(module, ())


def test_render_is_one_surface() -> None:
    """Outside symattn/render/, a module imports ``symattn.render`` itself, never one of
    its modules: what render/ offers the other layers is what its ``__init__`` exports."""
    found = [
        (m, t)
        for m in MODULES
        if not (m == "symattn.render" or m.startswith("symattn.render."))
        for t, _ in _imports(m)
        if t.startswith("symattn.render.")
    ]
    assert not found, found


def test_the_render_surface_test_sees_a_submodule_import() -> None:
    """The check above reads relative and absolute imports alike."""
    module = "symattn.check.feedback"
    for source in ("from ..render.tex import TexPrinter", "from symattn.render.tex import x"):
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.ImportFrom)
        assert _resolve(module, node) == ["symattn.render.tex"]


def _quiz_render_names(source: str, module: str) -> set[str]:
    """The names ``source`` (the code of ``module``) imports from ``symattn.render``, and
    ``printing`` for each import of ``symattn.printing`` (the terminal's printers)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            targets = _resolve(module, node)
            if targets == ["symattn.render"] * len(node.names):
                found |= {alias.name for alias in node.names}
            found |= {"printing" for t in targets if t.startswith("symattn.printing")}
    return found


#: The document model: a Document and its blocks (issue 20: one model, one writer a format).
DOCUMENT_MODEL = {"Block", "Document", "ClozeCell", "QuizTable", "Heading", "Sentence", "Tokens"}
#: What the Moodle quiz takes from render: the document model and render() (moodle.py);
#: its question also the producers' helpers that say a problem's Given (question.py).
QUIZ_RENDER = {
    "symattn.exercises.moodle": DOCUMENT_MODEL | {"render"},
    "symattn.exercises.question": DOCUMENT_MODEL
    | {"render", "given_notes", "scale_note", "title_of", "view_of"},
}


@pytest.mark.parametrize("module", sorted(QUIZ_RENDER))
def test_the_quiz_writes_a_document_not_html_by_hand(module: str) -> None:
    """The Moodle question is a Document written by render's ``moodle`` writer: the quiz
    imports no writer's internals (``text_blocks``, ``pretty``, ``TERMINAL``) again."""
    names = _quiz_render_names(MODULES[module].read_text(encoding="utf-8"), module)
    assert "render" in names or "Document" in names, names
    assert names <= QUIZ_RENDER[module], sorted(names - QUIZ_RENDER[module])


def test_the_quiz_import_test_sees_a_writer_import() -> None:
    module = "symattn.exercises.moodle"
    source = "from ..render import render, text_blocks\nfrom ..printing import TERMINAL, pretty"
    assert _quiz_render_names(source, module) == {"render", "text_blocks", "printing"}


#: The HTML writer's own pieces: no module outside symattn/render/ writes HTML with them.
HTML_PIECES = {
    "HtmlWriter",
    "PageBlockWriter",
    "display_html",
    "esc",
    "fragment",
    "heatmap_html",
    "html_voice",
    "inline_html",
    "math_element",
    "page",
    "script_json",
    "sentence_html",
    "serialize",
}
#: What the self-check page takes from render: its helpers beside the document model.
#: The modules of blocks (:mod:`symattn.render.block_type`).
BLOCK_MODULES = ("blocks", "check_blocks", "sheet_blocks", "report_blocks", "page_blocks")
SELF_CHECK_HELPERS = {"Block", "Document", "View", "render", "scale_note", "title_of", "view_of"}


def _render_names(module: str, tree: ast.AST | None = None) -> set[str]:
    """The names ``module`` imports from ``symattn.render`` itself."""
    tree = tree or ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and "symattn.render" in _resolve(module, node)
        for alias in node.names
        if f"symattn.render.{alias.name}" not in MODULES
    }


def test_no_module_outside_render_writes_html_with_its_pieces() -> None:
    """A page is a document (blocks) that ``render()`` writes: no module outside render/
    imports the HTML writer's pieces, and ``symattn.render`` does not offer them."""
    render = importlib.import_module("symattn.render")  # symattn.render is the function
    outside = [m for m in MODULES if not (m == "symattn.render" or m.startswith("symattn.render."))]
    found = {m: sorted(_render_names(m) & HTML_PIECES) for m in outside}
    assert not {m: names for m, names in found.items() if names}
    offered = [n for n in HTML_PIECES if n in render.__all__ or hasattr(render, n)]
    assert not offered, offered


def test_the_self_check_page_imports_the_document_model() -> None:
    """symattn/exercises/self_check.py takes from render blocks, ``Document`` and
    ``render`` (and a few helpers): no printer, no piece of HTML."""
    model = set(SELF_CHECK_HELPERS)
    for blocks in BLOCK_MODULES:  # every producer's blocks
        model |= set(importlib.import_module(f"symattn.render.{blocks}").__all__)
    names = _render_names("symattn.exercises.self_check")
    assert {"Document", "AnswerGrid", "render"} <= names
    assert names <= model, sorted(names - model)


def test_the_html_pieces_test_sees_an_import() -> None:
    """The checks above read the names a module imports from ``symattn.render``."""
    module = "symattn.exercises.self_check"
    for source in ("from ..render import Document, esc", "from symattn.render import esc"):
        assert "esc" in _render_names(module, ast.parse(source))
    assert _render_names(module, ast.parse("from ..render.html import esc")) == set()


def test_no_function_level_import_of_an_own_module() -> None:
    found = [
        (m, t) for m in MODULES for t, inside in _imports(m) if inside and not _lazy_allowed(m, t)
    ]
    assert not found, found


def test_no_import_cycle() -> None:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def strongconnect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            strongconnect(v)
    assert not cycles, cycles


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_over_400_lines(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module}: {lines} lines"


def test_the_layers_contract_names_every_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    top = {m.split(".")[1] for m in MODULES if m.count(".") >= 1}
    missing = {f"symattn.{t}" for t in top} - named - {"symattn.__main__"}
    assert not missing, f"not in the layers contract: {sorted(missing)}"


NUMPY_SIBLINGS = sorted(
    m for m in MODULES if m.startswith("symattn.topics.") and m.endswith("_numpy")
)


def test_every_numpy_sibling_is_kept_apart_from_the_exact_path() -> None:
    assert len(NUMPY_SIBLINGS) >= 8
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    forbidden = next(c for c in contracts if c["type"] == "forbidden")
    missing = set(NUMPY_SIBLINGS) - set(forbidden["source_modules"])
    assert not missing, f"not under the NumPy contract: {sorted(missing)}"
    for module in NUMPY_SIBLINGS:
        own = {name for name, _ in _imports(module)}
        assert own <= {"symattn.topics.numpy_base"}, f"{module} imports {sorted(own)}"


@pytest.mark.slow
def test_the_wheel_holds_every_module(tmp_path: Path) -> None:
    """What `pip install .` installs is the whole package: every module and data file."""
    import shutil
    import subprocess
    import zipfile

    tree = tmp_path / "tree"  # a copy without build leftovers, as a fresh clone is
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache"))  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(tree)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("symattn-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    source = ROOT / "symattn"
    wanted = {
        str(p.relative_to(ROOT))
        for p in source.rglob("*")
        if p.suffix in (".py", ".toml", ".js") and "__pycache__" not in p.parts
    }
    assert wanted - names == set()
