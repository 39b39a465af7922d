"""Budgets instead of hangs (issue 14): work past its time limit ends with one line that
names the option lifting it; in a class, a file past it is one row."""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path

import pytest

import symattn
from symattn.budget import DEFAULT_TIME_LIMIT, TimeLimitExceeded, time_budget
from symattn.check.grade import grade

from .helpers import ROOT, run_cli

SEED = str(ROOT / "symattn" / "examples" / "seed.toml")


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_the_budget_stops_a_busy_loop_and_names_the_option() -> None:
    with pytest.raises(TimeLimitExceeded) as caught, time_budget(0.05, "p.toml"):
        _spin(5)
    assert str(caught.value) == (
        "p.toml: stopped after the time limit of 0.05 s; pass time_limit=0 to lift it"
    )
    assert caught.value.command_line().endswith("pass --time-limit 0 to lift it")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # nothing left armed


def test_library_code_that_catches_value_error_cannot_swallow_the_budget() -> None:
    """SymPy's sign test catches ValueError around an evaluation; the budget's timer must
    not be taken for that (it once let a rewriting run 80 s past its 2 s)."""

    def library_step() -> None:
        try:
            _spin(0.02)
        except ValueError:
            pass
        except Exception:
            pass

    start = time.monotonic()
    with pytest.raises(TimeLimitExceeded, match="lib"), time_budget(0.05, "lib"):
        while time.monotonic() - start < 5:
            library_step()
    assert time.monotonic() - start < 1
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_code_that_swallows_even_a_base_exception_once_is_stopped_by_the_next_signal() -> None:
    start = time.monotonic()
    swallowed = 0
    with pytest.raises(TimeLimitExceeded, match="stubborn"), time_budget(0.05, "stubborn"):
        try:
            _spin(5)
        except BaseException:
            swallowed += 1
        _spin(5)
    assert swallowed == 1 and time.monotonic() - start < 1.5
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_no_limit_and_work_within_it() -> None:
    with time_budget(0, "x"):
        _spin(0.01)
    with time_budget(None, "x"):
        pass
    with time_budget(5, "x"):
        _spin(0.01)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_outer_budget_goes_on_counting_after_an_inner_one() -> None:
    with pytest.raises(TimeLimitExceeded, match="outer"), time_budget(0.3, "outer"):
        with time_budget(0.2, "inner"):
            _spin(0.05)
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < remaining < 0.3
        _spin(5)


def test_an_outer_budget_that_ends_sooner_stays_in_charge() -> None:
    with (
        pytest.raises(TimeLimitExceeded, match="outer"),
        time_budget(0.05, "outer"),
        time_budget(10, "inner"),
    ):
        _spin(5)


def test_outside_the_main_thread_the_work_runs_unbudgeted() -> None:
    """A timer signal reaches the main thread only: in another thread the block runs
    without one (and says so by finishing), as in the main thread it is stopped."""
    done: list[str] = []

    def work() -> None:
        with time_budget(0.05, "p.toml"):
            _spin(0.2)
        done.append("finished")

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert done == ["finished"]
    with pytest.raises(TimeLimitExceeded), time_budget(0.05, "p.toml"):
        _spin(5)


def test_the_command_stops_a_derivation_past_its_budget(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    n = 24  # a few seconds of work: far past a budget of one millisecond
    rows = [[f"sqrt({2 + (i * n + j) % 40})" for j in range(n)] for i in range(n)]
    ints = [[(i + j) % 3 - 1 for j in range(n)] for i in range(n)]
    path.write_text(json.dumps({"X": rows, "W_Q": ints, "W_K": ints, "W_V": ints}))
    status, out, err = run_cli(["derive", str(path), "--time-limit", "0.001"])
    assert status == 2 and out == ""
    assert err == (
        f"symattn: error: {path}: stopped after the time limit of 0.001 s; "
        "pass --time-limit 0 to lift it\n"
    )


def test_the_default_limit_lets_ordinary_work_through() -> None:
    assert DEFAULT_TIME_LIMIT == 120
    status, _, err = run_cli(["derive", SEED, "--time-limit", "0"])
    assert (status, err) == (0, "")
    status, _, err = run_cli(["derive", SEED])
    assert (status, err) == (0, "")


@pytest.mark.parametrize("value", ["-1", "nan", "1e9"])
def test_a_bad_time_limit_is_a_usage_error(value: str) -> None:
    status, _, err = run_cli(["derive", SEED, "--time-limit", value])
    assert status == 2 and "--time-limit: expected 0 … 1000000 seconds" in err


def test_in_a_class_a_file_past_its_budget_is_one_row(tmp_path: Path) -> None:
    key = symattn.derive(SEED)
    files = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        path.write_text(json.dumps({"weights": [["0.1070", "0.8930"], ["0.9717", "0.0283"]]}))
        files.append(str(path))
    graded = grade(key, files, time_limit=1e-6)
    assert [g.result for g in graded] == [None, None]
    assert all("stopped after the time limit" in (g.error or "") for g in graded)
    graded = grade(key, files, time_limit=60)
    assert [g.result.verdict for g in graded if g.result] == ["correct", "correct"]
