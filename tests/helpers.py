"""Shared helpers of the test suite: running the command in-process, normalising output."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from symattn.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN = bool(os.environ.get("SYMATTN_REGEN"))

# A small valid problem: X is 2 × 3 (n = 2, d_model = 3); the W's are 3 × 2 (d_k = d_v = 2).
BASE_TOML = {
    "X": "[[1, 0, 1], [0, 2, 1]]",
    "W_Q": "[[1, 0], [0, 1], [1, 1]]",
    "W_K": "[[0, 1], [1, 0], [1, 1]]",
    "W_V": "[[1, 2], [0, 1], [2, 0]]",
}
BASE: dict[str, Any] = {
    "X": [[1, 0, 1], [0, 2, 1]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
}

_CROSSCHECK_NUMBERS = re.compile(r"max abs error \S+, max rel error [^)]+\)")
_RELATIVE_ERROR = re.compile(r"(largest relative error|最大相对误差) [0-9.e+-]+")


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """Run ``symattn ARGV`` in this process; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def normalise_text(text: str) -> str:
    """Float64 error sizes depend on the machine's BLAS; the verdict does not."""
    text = _CROSSCHECK_NUMBERS.sub("max abs error …, max rel error …)", text)
    return _RELATIVE_ERROR.sub(r"\1 …", text)


def normalise_json(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    check = data.get("crosscheck", {})
    data["crosscheck"] = {"passed": check.get("passed")}
    return data


def said(message: Any, lang: str = "en") -> str:
    """A check result's :class:`~symattn.messages.Message` as the terminal writes it."""
    from symattn.messages import say
    from symattn.render.voice import text_voice
    from symattn.words import words

    return "" if message is None else say(message, text_voice(words(lang)))


def sampled(cases: list[Any], every: int) -> list[Any]:
    """``cases`` with all but every ``every``-th marked slow: the default run takes a
    sample, ``pytest -m slow`` the rest (CI runs both)."""
    return [
        case if k % every == 0 else pytest.param(*_as_tuple(case), marks=pytest.mark.slow)
        for k, case in enumerate(cases)
    ]


def _as_tuple(case: Any) -> tuple[Any, ...]:
    return case if isinstance(case, tuple) else (case,)


def weights_rows(key: Any) -> list[tuple[str, list[Any]]]:
    """Each row of every weights step, without its masked entries: (name, weights) — the
    oracle of the weight bounds that the draw's tests and benchmarks/bench_draw.py share."""
    from symattn.numbers import NegInf

    rows = []
    for step_id in key.step_ids:
        if step_id.split(".")[-1] != "weights":
            continue
        masked = key.matrices.get(step_id.replace("weights", "masked_scores"))
        for i, row in enumerate(key.step(step_id).values):
            kept = [
                v
                for j, v in enumerate(row)
                if v is not None and (masked is None or not isinstance(masked[i][j], NegInf))
            ]
            rows.append((f"{step_id} row {i + 1}", kept))
    return rows
