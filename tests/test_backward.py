"""The backward pass (SPEC §5): every gradient, checked against independent computations.

Each gradient symattn derives is compared with

- central finite differences of a float64 NumPy forward pass written here (h = 1e-6),
- PyTorch autograd in float64 (skipped when torch is not installed), including the
  intermediate gradients (dweights, dscaled_scores, dscores) via ``retain_grad``,
- for symbolic problems, SymPy's own derivative of the loss, compared at random points.

The loss is L = Σ dO ⊙ O for a given dO, or L = ½‖O − T‖² for a target T.
"""

from __future__ import annotations

import functools
import json
import math
import random
import shutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import symattn
from symattn.derivation import Derivation
from symattn.examples import example_path
from symattn.load import read_file
from symattn.printing import sstr
from symattn.render import render

from .helpers import run_cli
from .test_latex_compile import _compile, _engine

try:
    from .test_markdown_katex import Batch, _describe, render_batch
except ImportError as error:  # pragma: no cover - the helper moved
    KATEX_IMPORT_ERROR: str | None = f"tests/test_markdown_katex.py helpers: {error}"
else:
    KATEX_IMPORT_ERROR = None

BACKWARD = ("dO", "dV", "dweights", "dscaled_scores", "dscores", "dQ", "dK")
WEIGHT_GRADS = ("dW_Q", "dW_K", "dW_V", "dX")

# Two tokens, d_model = 3, halves, c = √2, and a target: L = ½‖O − T‖².
TARGET = {
    "tokens": ["a", "b"],
    "X": [[1, 0, "1/2"], ["1/2", 1, -1]],
    "W_Q": [[1, 0], [0, "1/2"], [1, 1]],
    "W_K": [[0, 1], [1, 0], ["1/2", 1]],
    "W_V": [[1, 2], [0, 1], [2, "-1/2"]],
    "target": [[1, 0], [0, 1]],
}
# Three tokens, a causal mask, c = 2 and a given dO.
CAUSAL = {
    "tokens": ["I", "love", "apples"],
    "X": [[1, 0, 1], [0, 2, 1], [1, 1, 0]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
    "mask": "causal",
    "scale": 2,
    "dO": [[1, "-1/2"], [0, 1], ["1/2", 2]],
}
# Q, K, V given (n = 2, m = 3), no scaling, a given dO.
DIRECT = {
    "Q": [[1, "1/2"], [0, 1]],
    "K": [[1, 0], ["1/2", 1], [-1, 1]],
    "V": [[1, 2], [0, "-1/2"], [3, 1]],
    "scale": "none",
    "dO": [[1, 0], ["1/2", -1]],
}
# Cross-attention: three queries over two memory rows, a given dO.
CROSS = {
    "tokens": ["je", "t'", "aime"],
    "X": [[1, 0, 1], [0, 1, 1], [1, 1, 0]],
    "memory": [[1, 1, 0], [0, 1, 2]],
    "memory_tokens": ["I", "love"],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[1, 0], [0, 1], [0, 1]],
    "W_V": [[2, 0], [0, 1], [1, 1]],
    "dO": [[1, 0], [0, "1/2"], [-1, 1]],
}
# A causal mask without scaling: the masked entries land in dscores directly.
CAUSAL_UNSCALED = {**CAUSAL, "scale": "none"}

PROBLEMS: dict[str, dict[str, Any]] = {
    "target": TARGET,
    "causal": CAUSAL,
    "direct": DIRECT,
    "cross": CROSS,
    "causal-unscaled": CAUSAL_UNSCALED,
}
#: The problem's leaves, each with the step id of its gradient.
LEAVES_XW = {"X": "dX", "W_Q": "dW_Q", "W_K": "dW_K", "W_V": "dW_V"}
LEAVES_QKV = {"Q": "dQ", "K": "dK", "V": "dV"}


@functools.cache
def _derive(name: str) -> Derivation:
    if name == "example":
        return symattn.derive(example_path("backward"), backward=True)
    return symattn.derive(PROBLEMS[name], backward=True)


def _leaves(problem: dict[str, Any]) -> dict[str, str]:
    return LEAVES_QKV if "Q" in problem else LEAVES_XW


# --- an independent float64 forward pass -----------------------------------------------


def _floats(rows: list[list[Any]]) -> np.ndarray:
    return np.array([[float(Fraction(str(v))) for v in row] for row in rows])


def _scale(problem: dict[str, Any], d_k: int) -> float:
    scale = problem.get("scale", "sqrt(d_k)")
    if scale == "none":
        return 1.0
    if scale == "sqrt(d_k)":
        return math.sqrt(d_k)
    return float(Fraction(sstr(scale)))


def _allowed(problem: dict[str, Any], n: int, m: int) -> np.ndarray:
    mask = problem.get("mask", "none")
    if mask == "none":
        return np.ones((n, m), dtype=bool)
    if mask == "causal":
        return np.tril(np.ones((n, m), dtype=bool))
    return np.array(mask, dtype=bool)


def _params(problem: dict[str, Any]) -> dict[str, np.ndarray]:
    return {name: _floats(problem[name]) for name in _leaves(problem)}


def _forward(problem: dict[str, Any], p: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    if "Q" in problem:
        q, k, v = p["Q"], p["K"], p["V"]
    else:
        kv = _floats(problem["memory"]) if "memory" in problem else p["X"]
        q, k, v = p["X"] @ p["W_Q"], kv @ p["W_K"], kv @ p["W_V"]
    scores = q @ k.T
    scaled = scores / _scale(problem, q.shape[1])
    masked = np.where(_allowed(problem, *scores.shape), scaled, -np.inf)
    e = np.exp(masked - masked.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return {"scores": scores, "weights": weights, "output": weights @ v}


def _loss(problem: dict[str, Any], p: dict[str, np.ndarray]) -> float:
    out = _forward(problem, p)["output"]
    if "dO" in problem:
        return float(np.sum(_floats(problem["dO"]) * out))
    return float(0.5 * np.sum((out - _floats(problem["target"])) ** 2))


def _finite_differences(problem: dict[str, Any], leaf: str, h: float = 1e-6) -> np.ndarray:
    base = _params(problem)
    grad = np.zeros_like(base[leaf])
    for index in np.ndindex(*grad.shape):
        plus = {k: v.copy() for k, v in base.items()}
        minus = {k: v.copy() for k, v in base.items()}
        plus[leaf][index] += h
        minus[leaf][index] -= h
        grad[index] = (_loss(problem, plus) - _loss(problem, minus)) / (2 * h)
    return grad


def _values(d: Derivation, step_id: str) -> np.ndarray:
    """The step's high-precision values, as floats."""
    step = d.step(step_id)
    return np.array([[float(v) for v in row] for row in step.values])


# --- 1. step ids and order ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("target", (*BACKWARD, *WEIGHT_GRADS)),
        ("causal", (*BACKWARD, *WEIGHT_GRADS)),
        ("cross", (*BACKWARD, *WEIGHT_GRADS)),
        ("direct", tuple(s for s in BACKWARD if s != "dscaled_scores")),
        ("causal-unscaled", tuple(s for s in BACKWARD if s != "dscaled_scores") + WEIGHT_GRADS),
    ],
)
def test_backward_steps_follow_the_forward_steps_in_spec_order(
    name: str, expected: tuple[str, ...]
) -> None:
    forward_ids = symattn.derive(PROBLEMS[name]).step_ids
    d = _derive(name)
    assert d.step_ids == forward_ids + expected
    assert d.crosscheck is not None and d.crosscheck.passed, d.crosscheck


def test_bundled_example_step_ids() -> None:
    d = _derive("example")
    assert d.step_ids == (
        "X",
        "Q",
        "K",
        "V",
        "scores",
        "scaled_scores",
        "weights",
        "output",
        *BACKWARD,
        *WEIGHT_GRADS,
    )
    assert d.crosscheck is not None and d.crosscheck.passed


def test_gradient_shapes_for_cross_attention() -> None:
    """n = 3 queries, m = 2 memory rows, d_model = 3, d_k = d_v = 2."""
    d = _derive("cross")
    shapes = {step_id: d.step(step_id).shape for step_id in (*BACKWARD, *WEIGHT_GRADS)}
    assert shapes == {
        "dO": (3, 2),
        "dV": (2, 2),
        "dweights": (3, 2),
        "dscaled_scores": (3, 2),
        "dscores": (3, 2),
        "dQ": (3, 2),
        "dK": (2, 2),
        "dW_Q": (3, 2),
        "dW_K": (3, 2),
        "dW_V": (3, 2),
        "dX": (3, 3),
    }


def test_given_do_is_the_first_backward_step_unchanged() -> None:
    d = _derive("causal")
    step = d.step("dO")
    assert [[step.exact_str(i, j) for j in range(2)] for i in range(3)] == [
        ["1", "-1/2"],
        ["0", "1"],
        ["1/2", "2"],
    ]


@pytest.mark.parametrize(
    ("name", "first"), [("causal", "dscaled_scores"), ("causal-unscaled", "dscores")]
)
def test_masked_entries_of_the_softmax_gradient_are_exactly_zero(name: str, first: str) -> None:
    d = _derive(name)
    for step_id in (first, "dscores"):
        step = d.step(step_id)
        for i in range(3):
            for j in range(i + 1, 3):
                where = f"{step_id}[{i + 1},{j + 1}]"
                assert step.exact_str(i, j) == "0", where
                assert step.decimal_str(i, j, 4) == "0.0000", where
                assert step.float_value(i, j) == 0.0, where
            # an unmasked row of the Jacobian sums to 0 (the rows of J_i sum to 0)
            total = sum(Fraction(step.values[i][j]) for j in range(i + 1))
            assert abs(total) < Fraction(1, 10**40), (step_id, i, float(total))


def test_cross_attention_dx_has_only_the_query_term() -> None:
    d = _derive("cross")
    expected = _values(d, "dQ") @ _floats(CROSS["W_Q"]).T
    np.testing.assert_allclose(_values(d, "dX"), expected, rtol=1e-14, atol=1e-14)
    # dW_K and dW_V come from the memory rows, dW_Q from X
    memory = _floats(CROSS["memory"])
    np.testing.assert_allclose(_values(d, "dW_K"), memory.T @ _values(d, "dK"), atol=1e-14)
    np.testing.assert_allclose(_values(d, "dW_V"), memory.T @ _values(d, "dV"), atol=1e-14)
    np.testing.assert_allclose(
        _values(d, "dW_Q"), _floats(CROSS["X"]).T @ _values(d, "dQ"), atol=1e-14
    )
    # the self-attention formula would add dK W_Kᵀ + dV W_Vᵀ, which does not even fit
    assert d.step("dX").formula == "dX = dQ W_Qᵀ"


# --- 2. central finite differences ----------------------------------------------------


@pytest.mark.parametrize("name", ["target", "causal", "direct", "cross"])
def test_gradients_match_central_finite_differences(name: str) -> None:
    problem = PROBLEMS[name]
    d = _derive(name)
    for leaf, step_id in _leaves(problem).items():
        numeric = _finite_differences(problem, leaf)
        np.testing.assert_allclose(
            _values(d, step_id), numeric, rtol=1e-6, atol=1e-7, err_msg=f"{name}: {step_id}"
        )


def test_own_forward_pass_agrees_with_symattn() -> None:
    """The reference forward pass of these tests computes what symattn computes."""
    for name, problem in PROBLEMS.items():
        d = _derive(name)
        ours = _forward(problem, _params(problem))
        for step_id in ("weights", "output"):
            np.testing.assert_allclose(
                _values(d, step_id), ours[step_id], rtol=1e-13, atol=1e-14, err_msg=name
            )


# --- 3. PyTorch autograd --------------------------------------------------------------


def _torch_gradients(problem: dict[str, Any]) -> dict[str, np.ndarray]:
    torch = pytest.importorskip("torch", reason="torch (CPU build) is not installed")

    def tensor(rows: list[list[Any]], grad: bool = False) -> Any:
        return torch.tensor(_floats(rows), dtype=torch.float64, requires_grad=grad)

    leaves = {name: tensor(problem[name], grad=True) for name in _leaves(problem)}
    if "Q" in problem:
        q, k, v = leaves["Q"], leaves["K"], leaves["V"]
    else:
        kv = tensor(problem["memory"]) if "memory" in problem else leaves["X"]
        q, k, v = leaves["X"] @ leaves["W_Q"], kv @ leaves["W_K"], kv @ leaves["W_V"]
        for t in (q, k, v):
            t.retain_grad()
    scores = q @ k.T
    scaled = scores / _scale(problem, q.shape[1])
    allowed = torch.tensor(_allowed(problem, *scores.shape))
    weights = torch.softmax(scaled.masked_fill(~allowed, float("-inf")), dim=1)
    out = weights @ v
    for t in (scores, scaled, weights, out):
        t.retain_grad()
    if "dO" in problem:
        loss = (tensor(problem["dO"]) * out).sum()
    else:
        loss = 0.5 * ((out - tensor(problem["target"])) ** 2).sum()
    loss.backward()
    grads = {
        "dO": out.grad,
        "dweights": weights.grad,
        "dscores": scores.grad,
        "dQ": q.grad,
        "dK": k.grad,
        "dV": v.grad,
    }
    if problem.get("scale", "sqrt(d_k)") != "none":
        grads["dscaled_scores"] = scaled.grad
    grads.update({step_id: leaves[leaf].grad for leaf, step_id in _leaves(problem).items()})
    return {step_id: g.detach().numpy() for step_id, g in grads.items()}


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_gradients_match_torch_autograd(name: str) -> None:
    grads = _torch_gradients(PROBLEMS[name])
    d = _derive(name)
    backward_ids = [s for s in d.step_ids if s in (*BACKWARD, *WEIGHT_GRADS)]
    assert sorted(grads) == sorted(backward_ids)
    for step_id in backward_ids:
        np.testing.assert_allclose(
            _values(d, step_id),
            grads[step_id],
            rtol=1e-12,
            atol=1e-12,
            err_msg=f"{name}: {step_id}",
        )


def test_bundled_example_matches_torch_autograd() -> None:
    problem = read_file(example_path("backward"))
    grads = _torch_gradients(dict(problem))
    d = _derive("example")
    for step_id, grad in grads.items():
        np.testing.assert_allclose(
            _values(d, step_id), grad, rtol=1e-12, atol=1e-12, err_msg=step_id
        )


# --- 4. exact strings ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["example", "causal", "direct", "cross", "target"])
def test_exact_strings_sympify_back_to_the_values(name: str) -> None:
    import sympy

    d = _derive(name)
    rng = random.Random(5)
    for step_id in (s for s in d.step_ids if s in (*BACKWARD, *WEIGHT_GRADS)):
        step = d.step(step_id)
        rows, cols = step.shape
        cells = [(i, j) for i in range(rows) for j in range(cols)]
        for i, j in cells if name != "target" else rng.sample(cells, 2):
            text = step.exact_str(i, j)
            value = Decimal(str(sympy.N(sympy.sympify(text), 30)))
            shown = step.values[i][j]
            assert abs(value - shown) <= Decimal("1e-26") * max(1, abs(shown)), (
                f"{name}: {step_id}[{i + 1},{j + 1}] = {text} evaluates to {value}, "
                f"values holds {shown}"
            )
    assert d.crosscheck is not None and d.crosscheck.passed, d.crosscheck


def test_rational_entries_have_exact_decimals_and_floats() -> None:
    """An entry whose exact form is a rational (e.g. "0", "1/2") shows that rational."""
    import sympy

    d = _derive("example")
    for step_id in (*BACKWARD, *WEIGHT_GRADS):
        step = d.step(step_id)
        rows, cols = step.shape
        for i in range(rows):
            for j in range(cols):
                exact = sympy.sympify(step.exact_str(i, j))
                if not exact.is_Rational:
                    continue
                where = f"{step_id}[{i + 1},{j + 1}] = {exact}"
                assert step.float_value(i, j) == float(exact), (where, step.float_value(i, j))
                shown = step.decimal_str(i, j, 4)
                assert shown is not None, where
                assert abs(Fraction(shown) - Fraction(str(exact))) <= Fraction(1, 20000), (
                    where,
                    shown,
                )


# --- 5. errors ----------------------------------------------------------------------------

BASE_TOML = """\
X = [[1, 0], [0, 1]]
W_Q = [[1, 0], [0, 1]]
W_K = [[1, 1], [0, 1]]
W_V = [[1, 0], [1, 2]]
"""
HEADS_TOML = """\
X = [[1, 0, 1, 0], [0, 2, 0, 1]]
heads = 2
W_Q = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 1, 1]]
W_K = [[0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 0]]
W_V = [[1, 0, 0, 2], [0, 1, 1, 0], [2, 0, 0, 1], [0, 1, 1, 1]]
dO = [[1, 0, 0, 1], [0, 1, 1, 0]]
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BASE_TOML, "the backward pass needs an upstream gradient: give dO"),
        (
            BASE_TOML + "target = [[1, 1], [0, 2]]\ndO = [[1, 0], [0, 1]]\n",
            "give dO or target for the backward pass, not both",
        ),
        (
            BASE_TOML + "target = [[1, 1, 3], [0, 2, 1]]\n",
            "target has shape 2 × 3 but the output is 2 × 2",
        ),
        (
            BASE_TOML + "dO = [[1], [0]]\n",
            "dO has shape 2 × 1 but the output is 2 × 2",
        ),
        (
            HEADS_TOML.replace("dO = [[1, 0, 0, 1], [0, 1, 1, 0]]", "dO = [[1, 0], [0, 1]]"),
            "dO has shape 2 × 2 but the output is 2 × 4",
        ),
    ],
    ids=["no-upstream", "both", "target-shape", "dO-shape", "heads-dO-shape"],
)
def test_backward_errors_are_one_line_with_exit_status_2(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "problem.toml"
    path.write_text(text, encoding="utf-8")
    status, out, err = run_cli(["derive", str(path), "--backward"])
    assert status == 2, (status, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("symattn: error: ") and "problem.toml" in lines[0], err
    assert message in lines[0], err
    assert "Traceback" not in err


def test_without_backward_a_do_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "problem.toml"
    path.write_text(BASE_TOML + "dO = [[1, 0], [0, 1]]\n", encoding="utf-8")
    status, out, err = run_cli(["derive", str(path), "--format", "json"])
    assert status == 0, err
    assert "dO" not in [s["id"] for s in json.loads(out)["steps"]]


# --- 6. every format ------------------------------------------------------------------------


def _cli(fmt: str, *extra: str) -> str:
    status, out, err = run_cli(
        ["derive", "--example", "backward", "--backward", "--format", fmt, *extra]
    )
    assert status == 0, err
    return out


def test_text_shows_the_softmax_jacobian() -> None:
    text = _cli("text")
    assert "J₁ ≈" in text and "J₂ ≈" not in text
    assert "ds′ᵢ = (diag(aᵢ) − aᵢ aᵢᵀ) daᵢ" in text
    assert "dX = dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ" in text
    assert "Cross-check against NumPy float64: passed" in text
    everything = _cli("text", "--rows", "all")
    assert "J₂ ≈" in everything


def test_json_has_every_backward_step() -> None:
    data = json.loads(_cli("json"))
    steps = {s["id"]: s for s in data["steps"]}
    assert [s["id"] for s in data["steps"]][-11:] == [*BACKWARD, *WEIGHT_GRADS]
    assert data["crosscheck"]["passed"] is True
    d = _derive("example")
    for step_id in (*BACKWARD, *WEIGHT_GRADS):
        step = d.step(step_id)
        rows, cols = step.shape
        assert steps[step_id]["exact"] == [
            [step.exact_str(i, j) for j in range(cols)] for i in range(rows)
        ]
        np.testing.assert_allclose(
            np.array(steps[step_id]["float"]), _values(d, step_id), rtol=1e-15, atol=1e-15
        )
        assert all(len(x.split(".")[1]) == 4 for row in steps[step_id]["decimal"] for x in row)


def test_latex_and_markdown_name_the_gradients() -> None:
    latex = _cli("latex")
    assert latex.startswith("% symattn derivation: needs \\usepackage{amsmath}")
    assert "\\mathrm{d}s'" in latex
    markdown = _cli("markdown")
    assert "\\mathrm{d}s'" in markdown
    assert "\\mathrm{d}s'" in _cli("markdown", "--lang", "zh")


@pytest.mark.parametrize("name", ["causal", "direct", "cross"])
@pytest.mark.parametrize("fmt", ["text", "json", "latex", "markdown"])
def test_every_problem_renders_backward(name: str, fmt: str) -> None:
    out = render(_derive(name), fmt)
    if fmt in ("text", "json"):
        assert "dK" in out and "dweights" in out
    else:
        assert "\\mathrm{d}" in out


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "notation"), [("en", "matrix"), ("zh", "token")])
def test_standalone_tex_compiles(tmp_path: Path, lang: str, notation: str) -> None:
    document = render(_derive("example"), "tex", lang=lang, notation=notation)
    assert "\\mathrm{d}s'" in document
    stem = f"backward-{lang}-{notation}"
    (tmp_path / f"{stem}.tex").write_text(document, encoding="utf-8")
    _compile(tmp_path, stem, _engine(document))


def test_markdown_renders_in_katex() -> None:
    if KATEX_IMPORT_ERROR is not None:
        pytest.skip(KATEX_IMPORT_ERROR)
    from symattn.render.markdown import math_fragments

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; the KaTeX check needs Node.js")
    d = _derive("example")
    batch = Batch()
    for lang in ("en", "zh"):
        for notation in ("matrix", "token"):
            text = render(d, "markdown", lang=lang, notation=notation, rows=[0, 1])
            for fragment in math_fragments(text):
                batch.add(f"{lang}/{notation}", fragment)
    for fragment in math_fragments(d._repr_latex_()):
        batch.add("_repr_latex_", fragment)
    assert any("\\mathrm{d}" in tex for tex, _ in batch.fragments)
    render_batch(node, batch)
    failures = batch.failures()
    assert not failures, "KaTeX rejects:\n" + _describe(batch, sorted(failures), failures)


# --- 7. symbolic problems ----------------------------------------------------------------


def _symbolic(d_model: int, scale: str) -> dict[str, Any]:
    def sym(name: str, rows: int, cols: int) -> dict[str, Any]:
        return {"symbol": name, "shape": [rows, cols]}

    return {
        "tokens": ["t1", "t2"],
        "X": sym("x", 2, d_model),
        "W_Q": sym("wq", d_model, d_model),
        "W_K": sym("wk", d_model, d_model),
        "W_V": sym("wv", d_model, d_model),
        "dO": sym("g", 2, d_model),
        "scale": scale,
    }


@pytest.mark.parametrize(
    ("d_model", "scale"),
    [(1, "none"), (1, "sqrt(d_k)"), (2, "sqrt(d_k)")],
    ids=["d1-unscaled", "d1-scaled", "d2-scaled"],
)
def test_symbolic_gradients_are_the_derivatives_of_the_loss(d_model: int, scale: str) -> None:
    import sympy

    d = symattn.derive(_symbolic(d_model, scale), backward=True)
    p = d.problem
    expected_ids = [
        s for s in (*BACKWARD, *WEIGHT_GRADS) if scale != "none" or s != "dscaled_scores"
    ]
    assert list(d.step_ids[-len(expected_ids) :]) == expected_ids
    assert d.crosscheck is None
    for step_id in expected_ids:
        step = d.step(step_id)
        rows, cols = step.shape
        for i in range(rows):
            for j in range(cols):
                assert step.decimal_str(i, j, 4) is None, (step_id, i, j)
                assert step.float_value(i, j) is None, (step_id, i, j)
                assert sympy.sympify(step.exact[i][j]).free_symbols, (step_id, i, j)

    # SymPy's own derivative of L = Σ dO ⊙ O, at a random point of halves
    x, wq, wk, wv, g = (sympy.Matrix(m) for m in (p.X, p.W_Q, p.W_K, p.W_V, p.dO))
    q, k, v = x * wq, x * wk, x * wv
    c = 1 if scale == "none" else sympy.sqrt(d_model)
    s = q * k.T / c
    a = sympy.Matrix(
        2, 2, lambda i, j: sympy.exp(s[i, j]) / sum(sympy.exp(s[i, t]) for t in range(2))
    )
    out = a * v
    loss = sum(g[i, j] * out[i, j] for i in range(2) for j in range(d_model))
    rng = random.Random(7)
    symbols = sorted(loss.free_symbols, key=str)
    point = {sym: sympy.Rational(rng.randint(-4, 4), 2) for sym in symbols}
    checked = (("X", x), ("W_Q", wq), ("W_K", wk), ("W_V", wv))
    # d = 2: dX alone (every path: dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ), to keep the test fast
    for name, matrix in checked if d_model == 1 else checked[:1]:
        step = d.step(f"d{name}")
        for (i, j), variable in np.ndenumerate(np.array(matrix.tolist(), dtype=object)):
            derivative = sympy.diff(loss, variable)
            # dX through its printed form (the string must read back), the others directly
            got = sympy.sympify(step.exact_str(i, j) if name == "X" else step.exact[i][j])
            want_value = sympy.N(derivative.xreplace(point), 30)
            got_value = sympy.N(got.xreplace(point), 30)
            assert abs(want_value - got_value) <= 1e-25 * max(1, abs(want_value)), (
                f"d{name}[{i + 1},{j + 1}] at {point}: {got_value} vs {want_value}"
            )


# --- multi-head ----------------------------------------------------------------------------

MULTI = {
    "X": [[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, "1/2"]],
    "heads": 2,
    "W_Q": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 1, 1]],
    "W_K": [[0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 0]],
    "W_V": [[1, 0, 0, 2], [0, 1, 1, 0], [2, 0, 0, 1], [0, 1, 1, 1]],
    "W_O": [[1, 0, 0, 1], [0, 1, 0, 0], [1, 1, 1, 0], ["1/2", 0, 0, 1]],
    "dO": [[1, 0, "1/2", 0], [0, 1, 0, -1], [1, 1, 0, 0]],
}


def _floats_of(step: object) -> np.ndarray:
    rows, cols = step.shape  # type: ignore[attr-defined]
    return np.array(
        [
            [step.float_value(i, j) for j in range(cols)]  # type: ignore[attr-defined]
            for i in range(rows)
        ]
    )


def test_multi_head_backward_has_per_head_steps_and_cross_checks() -> None:
    d = symattn.derive(MULTI, backward=True)
    ids = d.step_ids[d.step_ids.index("dO") :]
    assert ids[:3] == ("dO", "dW_O", "dconcat")
    assert {"h1.dscaled_scores", "h2.dW_V", "dX"} <= set(ids)
    assert d.crosscheck is not None and d.crosscheck.passed


def test_multi_head_backward_matches_torch_autograd() -> None:
    torch = pytest.importorskip("torch", reason="torch (CPU build) is not installed")

    def tensor(key: str) -> object:
        rows = MULTI[key]
        from fractions import Fraction

        values = [[float(Fraction(str(v))) for v in row] for row in rows]  # type: ignore[attr-defined]
        return torch.tensor(values, dtype=torch.float64, requires_grad=True)

    x, wq, wk, wv, wo = (tensor(k) for k in ("X", "W_Q", "W_K", "W_V", "W_O"))
    d_o = tensor("dO").detach()
    heads = []
    for t in range(2):
        cols = slice(2 * t, 2 * t + 2)
        q, k, v = x @ wq[:, cols], x @ wk[:, cols], x @ wv[:, cols]
        a = torch.softmax(q @ k.T / np.sqrt(2.0), dim=1)
        heads.append(a @ v)
    out = torch.cat(heads, dim=1) @ wo
    (out * d_o).sum().backward()
    d = symattn.derive(MULTI, backward=True)
    got_wq = np.hstack([_floats_of(d.step(f"h{t}.dW_Q")) for t in (1, 2)])
    np.testing.assert_allclose(got_wq, wq.grad.numpy(), rtol=1e-12, atol=1e-12)
    got_wv = np.hstack([_floats_of(d.step(f"h{t}.dW_V")) for t in (1, 2)])
    np.testing.assert_allclose(got_wv, wv.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_floats_of(d.step("dW_O")), wo.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_floats_of(d.step("dX")), x.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_multi_head_backward_renders_in_every_format() -> None:
    d = symattn.derive(MULTI, backward=True)
    for fmt in ("text", "json", "latex", "markdown"):
        assert render(d, fmt)
    assert "{\\mathrm{d}s'}^{(2)}" in render(d, "latex")
