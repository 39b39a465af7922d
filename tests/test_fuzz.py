"""The fuzz suite of issue 14: Hypothesis writes problem files, answers files and rosters,
valid and broken (bad values, wrong shapes, unknown keys, control characters, lone
surrogates, bytes flipped), and runs the command on them in-process.

Every run must end with exit status 0, 1 or 2; a failure is exactly one line
``symattn: error: …`` (a class report: one such line per unreadable file and a summary);
never "internal error", a traceback, or the time limit (each run has a budget of
``BUDGET`` seconds, so a hang is a failure, not a stuck test).  A numeric problem left
intact is compared with an independent computation (mpmath at 100 digits, from
``test_property_mpmath``): every decimal of ``--format json`` must be equal.

The default run is short (a few seconds); ``-m slow`` runs the long profile.  The counts
are the ``max_examples`` of each test (``SHORT`` and ``LONG``).
"""

from __future__ import annotations

import json
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from symattn.load.files import read_file

from .helpers import ROOT, run_cli
from .test_property_mpmath import _expected, problems

BUDGET = "30"
SEED = str(ROOT / "symattn" / "examples" / "seed.toml")
SHORT = {"problems": 100, "answers": 60, "rosters": 15}
LONG = {"problems": 3000, "answers": 3000, "rosters": 300}
FORMATS = ["text", "json", "markdown", "latex", "html"]
ANSWER_STEPS = ["Q", "K", "V", "scores", "scaled_scores", "weights", "output", "X"]
ANSWER_STEPS += ["P", "X_pos", "Q_rot", "K_rot", "additive_hidden", "masked_scores"]
ANSWER_STEPS += ["residual", "norm", "ffn_hidden", "block_output", "cache_K", "decode", "h1.Q"]
#: The topic keys (docs/topics.md), each with values a course might write and some it
#: should not: they are added to bundled examples, alone or together, by the fuzz.
TOPIC_VALUES: dict[str, list[Any]] = {
    "positions": ["sinusoidal", "none", [[0, 1], [1, 0]], [[0, 1, 0], [1, 0, 1]], "cosine"],
    "rope": [True, False, "yes"],
    "rope_base": [100, "1/2", 0, -5, "10^4"],
    "temperature": ["1/2", 2, 0, -1, "sqrt(2)"],
    "score": ["additive", "dot", "bahdanau"],
    "W_a": [[[1, 0], [0, 1]], [[1, -1], [0, 1], [1, 1]], [[1]]],
    "U_a": [[[1, 0], [0, 1]], [[0, 1]]],
    "v_a": [[1, 2], [1], [[1], [2]]],
    "mask": [[[0, -99], [0, 0]], [[0, "-inf"], ["-inf", 0]], [[1, 0], [1, 1]], "causal"],
    "valid_lens": [[1, 2], 1, [0], [3, 3, 3], "2"],
    "layout": ["column", "row", "diagonal"],
    "kv_heads": [1, 2, 3, 0],
    "heads": [1, 2],
    "decode": [True, False],
    "block": [True],
    "norm": ["pre", "post", "mid"],
    "eps": [0, "1/1000", -1],
    "gamma": [[1, 1], [1, 1, 1], [2, 0, 1]],
    "beta": [[0, 0], [0, 0, 0], [1, "1/2", -1]],
    "W_1": [[[1, 0, 1], [0, 1, 1]], [[1, 0, 1], [0, 1, 1], [1, 1, 0]]],
    "b_1": [[0, 1, 0], [0]],
    "W_2": [[[1, 0], [0, 1], [1, 1]], [[1, 0, 1], [0, 1, 1], [1, 1, 0]]],
    "b_2": [[0, 0], [0, 0, 0]],
}
EXAMPLES = sorted((ROOT / "symattn" / "examples").glob("*.toml"))

NASTY_STRINGS = [
    "", " ", "1e999", "-1e-999", "1" * 300, "sqrt(999999999989)", "sqrt(999999999989)^2",
    "sqrt(-1)", "(" * 60 + "1" + ")" * 60, "2^64^64", "(2^64)^64", "((10^64)^64)^2",
    "1/0", "0/0", "x", "re", "Ei", "lambda", "__import__('os').system('true')",
    "\x1b]0;pwned\x07", "\x1b[31m", "\ud800", "∞", "NaN", "inf", "-inf", "1_000", "0x10",
    "１２", "٣", "1e5", "1.5e-3", "3/4", "-0", "+1", "1.", ".5", "e", "sqrt(2)*sqrt(8)",
    "2^-3", "10^100", "0." + "3" * 5000, "1e1000000", "1e-1000000", "\\frac{1}{2}",
    "[[1, 2], [3, 4]]", "1 2; 3 4", "\r\n", "=1+1", "a\x00b",
]  # fmt: skip


def _nasty() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.sampled_from(NASTY_STRINGS),
        st.integers(-(10**40), 10**40),
        st.sampled_from([10**400, -(10**4000), 2**64]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(
            lambda d: abs(d.adjusted()) < 2000
        ),
        st.booleans(),
        st.none(),
        st.text(max_size=12),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=6,
    )


# -- writing a dict as a file ------------------------------------------------------------------
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        items = (f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    return '""'


def _text(data: dict[str, Any], kind: str) -> str:
    if kind == "toml":
        return "".join(
            f"{json.dumps(str(k))} = {_toml_value(v)}\n" for k, v in data.items() if v is not None
        )
    return json.dumps(data, default=str, ensure_ascii=kind == "json-ascii")


@st.composite
def _file(draw: st.DrawFn, data: dict[str, Any]) -> tuple[str, bytes]:
    """``data`` as the bytes of a TOML or JSON file, sometimes with bytes flipped."""
    kind = draw(st.sampled_from(["json", "json-ascii", "toml"]))
    raw = bytearray(_text(data, kind).encode("utf-8", "surrogatepass"))
    for _ in range(draw(st.integers(0, 2)) if draw(st.integers(0, 4)) == 0 else 0):
        if raw:
            position = draw(st.integers(0, len(raw) - 1))
            raw[position] = draw(st.integers(0, 255))
    return (".toml" if kind == "toml" else ".json"), bytes(raw)


def _flipped(suffix: str, raw: bytes, data: dict[str, Any]) -> bool:
    """Whether a flipped byte changed the file (a "-0.500" may become a valid "-0/500")."""
    kinds = ["toml"] if suffix == ".toml" else ["json", "json-ascii"]
    return all(raw != _text(data, kind).encode("utf-8", "surrogatepass") for kind in kinds)


# -- problems ----------------------------------------------------------------------------------
@st.composite
def _mutated(draw: st.DrawFn) -> tuple[dict[str, Any], bool]:
    """A problem, and whether it is still the intact numeric problem that was drawn."""
    problem: dict[str, Any] = draw(problems())
    intact = True
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2, 3]))):
        intact = False
        what = draw(
            st.sampled_from(
                ["entry", "drop", "unknown", "shape", "title", "tokens", "text", "key", "option"]
                + ["topic"] * 3
            )
        )
        if what == "entry":
            name = draw(st.sampled_from(["Q", "K", "V"]))
            rows = problem.get(name)
            if isinstance(rows, list) and rows and isinstance(rows[0], list) and rows[0]:
                i, j = draw(st.integers(0, len(rows) - 1)), draw(st.integers(0, len(rows[0]) - 1))
                rows[i][j] = draw(_nasty())
        elif what == "drop" and problem:
            problem.pop(draw(st.sampled_from(sorted(problem))))
        elif what == "unknown":
            problem[draw(st.text(max_size=8))] = draw(_nasty())
        elif what == "shape":
            name = draw(st.sampled_from(["Q", "K", "V"]))
            if isinstance(problem.get(name), list) and problem[name]:
                problem[name] = problem[name][:-1] or [[1, 2, 3]]
        elif what == "title":
            problem["title"] = draw(st.one_of(st.text(), st.sampled_from(NASTY_STRINGS)))
        elif what == "tokens":
            problem["tokens"] = draw(st.lists(st.text(max_size=6), max_size=4))
        elif what == "text":
            vocab = draw(st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=4))
            problem = {
                "text": draw(st.text(max_size=20)),
                "vocab": vocab,
                "embedding": [[draw(st.integers(-3, 3))] for _ in vocab],
                "W_Q": [[1]],
                "W_K": [[1]],
                "W_V": [[1]],
            }
        elif what == "topic":  # a bundled example (topics included) with topic keys added
            example = draw(st.sampled_from(EXAMPLES))
            problem = json.loads(json.dumps(read_file(example), default=str))
            for _ in range(draw(st.integers(1, 3))):
                key = draw(st.sampled_from(sorted(TOPIC_VALUES)))
                plausible = st.sampled_from(TOPIC_VALUES[key])
                problem[key] = draw(st.one_of(plausible, plausible, plausible, _nasty()))
        elif what == "key":
            key = draw(st.sampled_from(["scale", "mask", "heads", "places", "W_O", "dO", "memory"]))
            problem[key] = draw(_nasty())
        else:
            problem["heads"] = draw(st.integers(-1, 4))
    return problem, intact


def _assert_clean(status: int, err: str, allowed: tuple[int, ...]) -> None:
    event(f"exit {status}")
    assert status in allowed, (status, err)
    assert "internal error" not in err and "Traceback" not in err, err
    assert "time limit" not in err, err  # a hang, caught by the budget
    if status == 2:
        assert err.startswith("symattn: error: ") and err.count("\n") == 1, err
        assert len(err) < 4000, err


def _derive_once(problem: dict[str, Any], intact: bool, data: st.DataObject) -> None:
    suffix, raw = data.draw(_file(problem))
    intact = intact and not _flipped(suffix, raw, problem)
    fmt = "json" if intact and data.draw(st.booleans()) else data.draw(st.sampled_from(FORMATS))
    places = data.draw(st.sampled_from([0, 2, 4]))
    extra = data.draw(st.sampled_from([[], ["--rows", "all"], ["--notation", "token"]]))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"p{suffix}"
        path.write_bytes(raw)
        argv = ["derive", str(path), "--format", fmt, "--digits", str(places)]
        status, out, err = run_cli([*argv, *extra, "--time-limit", BUDGET])
    _assert_clean(status, err, (0, 2))
    if status == 0:
        assert err == ""
        assert "\x1b" not in out and "\x07" not in out
    if intact and fmt == "json" and status == 0 and raw.isascii():
        event("every decimal compared with mpmath")
        payload = json.loads(out)
        shown = {step["id"]: step["decimal"] for step in payload["steps"]}
        for step_id, expected in _expected(problem, places).items():
            for got_row, want_row in zip(shown[step_id], expected):
                for got, want in zip(got_row, want_row):
                    assert want is None or got == want, (step_id, problem)


@settings(max_examples=SHORT["problems"], deadline=None, suppress_health_check=list(HealthCheck))
@given(_mutated(), st.data())
def test_fuzz_problem_files(case: tuple[dict[str, Any], bool], data: st.DataObject) -> None:
    _derive_once(*case, data)


@pytest.mark.slow
@settings(max_examples=LONG["problems"], deadline=None, suppress_health_check=list(HealthCheck))
@given(_mutated(), st.data())
def test_fuzz_problem_files_long(case: tuple[dict[str, Any], bool], data: st.DataObject) -> None:
    _derive_once(*case, data)


# -- answers -----------------------------------------------------------------------------------
def _cell() -> st.SearchStrategy[Any]:
    plausible = st.one_of(
        st.decimals(min_value=-5, max_value=5, places=4).map(str),
        st.sampled_from(["0.1070", "0.8930", "0.9717", "0.0283", "-inf", "3/4", None, ""]),
    )
    return st.one_of(plausible, plausible, _nasty())


@st.composite
def _answers(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for _ in range(draw(st.integers(0, 4))):
        key = draw(
            st.one_of(
                st.sampled_from(ANSWER_STEPS),
                st.sampled_from(["weights[1]", "weights[1,2]", "output[3]", "tolerance"]),
                st.sampled_from(["places", "junk", "weights[0,0]", "h1.Q"]),
                st.text(max_size=10),
            )
        )
        shape = draw(st.sampled_from([(2, 2), (2, 2), (1, 2), (2, 3), (0, 0)]))
        value = draw(
            st.one_of(
                st.lists(
                    st.lists(_cell(), min_size=shape[1], max_size=shape[1]),
                    min_size=shape[0],
                    max_size=shape[0],
                ),
                _cell(),
                st.sampled_from(
                    ["0.1070 0.8930; 0.9717 0.0283", "\\begin{bmatrix}1\\end{bmatrix}"]
                ),
            )
        )
        out[key] = value
    return out


def _check_once(answers: dict[str, Any], data: st.DataObject) -> None:
    suffix, raw = data.draw(_file(answers))
    fmt = data.draw(st.sampled_from(["text", "json", "latex", "html"]))
    batch = data.draw(st.booleans())
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as elsewhere:
        path = Path(folder) / f"a{suffix}"
        path.write_bytes(raw)
        if batch:
            (Path(folder) / "b.json").write_text('{"weights": [["0.1070", "0.8930"], [1, 0]]}')
            report = str(Path(elsewhere) / "report.csv")  # not in the folder it reads
            argv = ["check", SEED, folder, "--report", report]
        else:
            problem = data.draw(st.sampled_from([SEED, SEED, *map(str, EXAMPLES)]))
            event(f"checked against {Path(problem).stem}")
            argv = ["check", problem, str(path), "--format", fmt]
        status, out, err = run_cli([*argv, "--time-limit", BUDGET])
        if batch:
            text = Path(report).read_text(encoding="utf-8")
    if not batch:
        _assert_clean(status, err, (0, 1, 2))
        assert status == 2 or err == ""
        assert "\x1b" not in out
        return
    event(f"class of 2 files, exit {status}")
    assert status in (0, 1, 2) and "internal error" not in err and "Traceback" not in err
    assert "time limit" not in err, err
    lines = err.splitlines()
    assert lines[-1].startswith("graded 2 files: "), err
    assert all(line.startswith("symattn: error: ") for line in lines[:-1]), err
    assert len(text.splitlines()) == 3 and "\x1b" not in text and "\r" not in text


@settings(max_examples=SHORT["answers"], deadline=None, suppress_health_check=list(HealthCheck))
@given(_answers(), st.data())
def test_fuzz_answers_files(answers: dict[str, Any], data: st.DataObject) -> None:
    _check_once(answers, data)


@pytest.mark.slow
@settings(max_examples=LONG["answers"], deadline=None, suppress_health_check=list(HealthCheck))
@given(_answers(), st.data())
def test_fuzz_answers_files_long(answers: dict[str, Any], data: st.DataObject) -> None:
    _check_once(answers, data)


# -- rosters -----------------------------------------------------------------------------------
_NAMES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["Ada", "李雷", "../x", "a/b", ".", "..", "=1+1", "\x1b[2J", "a" * 300]),
)


@st.composite
def _roster(draw: st.DrawFn) -> bytes:
    names = draw(st.lists(_NAMES, min_size=0, max_size=3))
    header = draw(st.sampled_from(["name\n", "Name,id\n", ""]))
    body = "".join(f"{json.dumps(n) if draw(st.booleans()) else n}\n" for n in names)
    raw = (header + body).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 5)) == 0:
        raw = b"\xff\xfe" + raw
    return raw


def _roster_once(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        roster = Path(folder) / "roster.csv"
        roster.write_bytes(raw)
        argv = ["exercises", "--seed", "1", "--level", "1", "--students", str(roster)]
        status, _, err = run_cli([*argv, "-o", str(Path(folder) / "set")])
    _assert_clean(status, err, (0, 2))


@settings(max_examples=SHORT["rosters"], deadline=None, suppress_health_check=list(HealthCheck))
@given(_roster())
def test_fuzz_rosters(raw: bytes) -> None:
    _roster_once(raw)


@pytest.mark.slow
@settings(max_examples=LONG["rosters"], deadline=None, suppress_health_check=list(HealthCheck))
@given(_roster())
def test_fuzz_rosters_long(raw: bytes) -> None:
    _roster_once(raw)
