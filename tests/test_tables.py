"""The numbers each mistake model gives (for the self-check page and the Moodle quiz)
agree with the independent reference computation made with the same mistake."""

from __future__ import annotations

import pytest

from symattn.check.tables import mistake_tables, rounded
from symattn.compute import derivation
from symattn.examples import example_path
from symattn.load import load

from .helpers import said
from .reference import attention

PROBLEM = {
    "X": [[1, 0, 2], [0, 1, 1], [2, 1, 0]],
    "W_Q": [[1, 0], [0, 2], [1, 1]],
    "W_K": [[0, 1], [1, 0], [2, 1]],
    "W_V": [[1, 2], [0, 1], [1, 0]],
}


@pytest.fixture(scope="module")
def tables():  # type: ignore[no-untyped-def]
    return {t.id: t for t in mistake_tables(derivation(load(dict(PROBLEM))), 4)}


@pytest.mark.parametrize(
    "mistake", ["no_scaling", "scaled_by_dk", "scale_multiplied", "scores_transposed"]
)
def test_a_mistake_gives_the_reference_numbers(tables, mistake: str) -> None:  # type: ignore[no-untyped-def]
    reference = attention(PROBLEM, mistake)
    table = tables[mistake]
    assert "weights" in table.values and "output" in table.values
    for step_id, values in table.values.items():
        for i, row in enumerate(values):
            for j, value in enumerate(row):
                assert rounded(value, 8) == rounded(reference[step_id][i][j], 8), (step_id, i, j)


def test_only_entries_that_differ_once_rounded_are_named(tables) -> None:  # type: ignore[no-untyped-def]
    key = derivation(load(dict(PROBLEM)))
    for table in tables.values():
        for step_id, cells in table.differs.items():
            assert cells
            for i, j in cells:
                right = key.step(step_id).values[i][j]
                assert right is not None
                assert rounded(table.values[step_id][i][j], 4) != rounded(right, 4)


def test_the_message_names_the_entries_in_each_language(tables) -> None:  # type: ignore[no-untyped-def]
    table = tables["no_scaling"]
    en, zh = (said(table.message("weights", [(0, 1)]), lang) for lang in ("en", "zh"))
    assert "√d_k = √2" in en and "a₁,₂" in en
    assert "a₁,₂" in zh and "the" not in zh


def test_a_mistake_that_changes_nothing_is_left_out() -> None:
    unscaled = derivation(load(dict(PROBLEM, scale="none")))
    ids = {t.id for t in mistake_tables(unscaled, 4)}
    assert not ids & {"no_scaling", "scaled_by_dk", "scale_multiplied"}
    assert "no_softmax" in ids


def test_a_mistake_of_another_shape_is_left_out_of_that_step() -> None:
    """Summing the keys (d_k = 3) instead of the values (d_v = 2) gives a 3 × 3 output:
    it cannot be compared entry by entry with the 3 × 2 key, so that step is not kept."""
    wide = dict(PROBLEM, W_Q=[[1, 0, 0], [0, 2, 1], [1, 1, 0]])
    wide["W_K"] = [[0, 1, 1], [1, 0, 0], [2, 1, 0]]
    key = derivation(load(wide))
    tables = mistake_tables(key, 4)
    for table in tables:
        for step_id, values in table.values.items():
            assert (len(values), len(values[0])) == key.step(step_id).shape, (table.id, step_id)
    assert all("output" not in t.differs for t in tables if t.id == "weighted_sum_of_keys")
    assert "weights" in {t.id: t for t in tables}["no_scaling"].differs


def test_with_heads_a_summed_mistake_changes_the_heads_outputs_only() -> None:
    """The last step of two heads is concat · W_O (also called output): summing the keys
    is a mistake of each head's weighted sum, not of the projection."""
    key = derivation(load(example_path("multihead")))
    tables = {t.id: t for t in mistake_tables(key, 4)}
    assert set(tables["weighted_sum_of_keys"].differs) >= {"h1.output", "h2.output"}
