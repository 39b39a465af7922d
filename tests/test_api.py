"""The public Python API: what `import symattn` offers, and that it works end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy

import symattn
from symattn.entries import DotEntry, Ref, SoftmaxEntry

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = {
    "tokens": ["I", "love"],
    "X": [[1, 0, 1], [0, 2, "1/2"]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
}


def test_all_is_pinned() -> None:
    assert sorted(symattn.__all__) == sorted(
        [
            "CheckResult",
            "Derivation",
            "Exercise",
            "Problem",
            "RenderOptions",
            "Step",
            "SymattnError",
            "__version__",
            "check",
            "derive",
            "grade",
            "load",
            "make_exercises",
            "render",
        ]
    )
    for name in symattn.__all__:
        assert hasattr(symattn, name)


@pytest.mark.parametrize(
    "source",
    [
        PROBLEM,
        ROOT / "docs" / "examples" / "tiny.toml",
        str(ROOT / "docs" / "examples" / "tiny.toml"),
    ],
    ids=["dict", "path", "str"],
)
def test_derive_accepts_dicts_and_paths(source: object) -> None:
    d = symattn.derive(source)  # type: ignore[arg-type]
    assert isinstance(d, symattn.Derivation)
    assert d.step_ids[:2] == ("X", "Q") and d.step_ids[-1] == "output"
    assert d.crosscheck is not None and d.crosscheck.passed


def test_derive_accepts_a_loaded_problem() -> None:
    problem = symattn.load(PROBLEM)
    assert (problem.n, problem.m, problem.d_model, problem.d_k, problem.d_v) == (2, 2, 3, 2, 2)
    assert symattn.derive(problem).step("Q").exact_str(1, 1) == "5/2"


def test_steps_hold_formulas_entries_and_sympy_matrices() -> None:
    d = symattn.derive(PROBLEM)
    assert [s.formula for s in d][:3] == ["X (given)", "Q = X W_Q", "K = X W_K"]
    scores = d.entry("scores", 0, 1)
    assert isinstance(scores, DotEntry)
    assert [(t.left, t.right) for t in scores.terms] == [
        (Ref("Q", 0, 0), Ref("K", 1, 0)),
        (Ref("Q", 0, 1), Ref("K", 1, 1)),
    ]
    weight = d.entry("weights", 0, 1)
    assert isinstance(weight, SoftmaxEntry)
    assert weight.numerator == Ref("scaled_scores", 0, 1)
    matrix = d.step("weights").sympy_matrix()
    assert isinstance(matrix, sympy.ImmutableMatrix)
    assert sympy.simplify(sum(matrix.row(0)) - 1) == 0


def test_unknown_step_and_entry_are_clear_errors() -> None:
    d = symattn.derive(PROBLEM)
    with pytest.raises(symattn.SymattnError, match="no step 'concat'"):
        d.step("concat")
    with pytest.raises(symattn.SymattnError, match=r"no entry \(3, 1\)"):
        d.entry("Q", 2, 0)


def test_crosscheck_can_be_skipped() -> None:
    assert symattn.derive(PROBLEM, crosscheck=False).crosscheck is None


def test_max_size_lifts_the_limit() -> None:
    big = {"Q": [[1]] * 130, "K": [[1]] * 2, "V": [[1]] * 2}
    with pytest.raises(symattn.SymattnError, match="max_size=130"):
        symattn.load(big)
    assert symattn.load(big, max_size=130).n == 130


def test_problems_are_immutable_and_hashable() -> None:
    import dataclasses

    p, q = symattn.load(PROBLEM), symattn.load(dict(PROBLEM))
    assert hash(p) == hash(q) and p == q
    assert {p: 1}[q] == 1  # a problem keys a cache by value, never by id()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.shapes.n = 99  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.title = "changed"  # type: ignore[misc]
    assert hash(symattn.load({**PROBLEM, "scale": "none"})) != hash(p)


def test_a_derivation_is_frozen_and_its_cross_check_comes_with_it() -> None:
    import dataclasses

    d = symattn.derive(PROBLEM)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.crosscheck = None  # type: ignore[misc]
    bare = symattn.derive(PROBLEM, crosscheck=False)
    assert bare.crosscheck is None and bare.step_ids == d.step_ids


def test_every_verb_is_in_the_package() -> None:
    d = symattn.derive(PROBLEM)
    result = symattn.check(d, {"Q": [[2, 1], ["1/2", 5]]})
    assert result.verdict == "incorrect" and result.first_error == "Q"
    assert symattn.render(d, "json").startswith("{")
    exercises = symattn.make_exercises(1, 2)
    assert len(exercises) == 2 and exercises[0].key.crosscheck is not None
