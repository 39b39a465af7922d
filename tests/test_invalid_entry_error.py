"""An unreadable entry's JSON has an "error" naming its step and entry (reproducer r11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import run_cli


@pytest.mark.parametrize(
    ("answers", "step", "key", "given"),
    [
        ({"weights[1,1]": "0.1O7"}, "weights", "weights[1,1]", "0.1O7"),  # r11
        # unseen: a row answered at once, the unreadable entry in its second column
        ({"output[2]": ["1.5", "2..0"]}, "output", "output[2,2]", "2..0"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_invalid_entry_has_an_error_naming_step_and_entry(
    tmp_path: Path, answers: dict[str, object], step: str, key: str, given: str, lang: str
) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    status, out, _ = run_cli(["check", "seed", str(path), "--format", "json",
                              "--lang", lang])  # fmt: skip
    assert status == 1
    entries = next(s for s in json.loads(out)["steps"] if s["id"] == step)["entries"]
    bad = next(e for e in entries if e["status"] == "invalid")
    assert bad["error"].startswith(key)
    assert given in bad["error"] and bad["message"] in bad["error"]
    assert all("error" not in e for e in entries if e["status"] != "invalid")
