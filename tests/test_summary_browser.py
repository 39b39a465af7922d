"""The class at a glance in a real browser: the system's Chromium, headless, offline.

The page of ``grade --summary`` (English and Chinese) is opened from ``file://``: it
makes no request outside the file, looks like a page in a screenshot (not blank),
draws a bar per step whose coloured parts are as wide as the shares, a column per score
bin as tall as its count, and fits a 375 px phone.  Marked ``slow``; skipped with the
reason when playwright or chromium is missing (.ci/run installs both).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import FLAGS, chromium, spread, why_not
from .helpers import ROOT, run_cli

REASON = why_not()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]
CLASS = ROOT / "docs" / "examples" / "classroom"
ALLOWED = ("file:", "data:")

#: Each step's bar: the width of each coloured part over the bar's, and the counts.
BARS = """() => [...document.querySelectorAll("tr[data-step]")].map(row => {
  const bar = row.querySelector(".bar").getBoundingClientRect().width;
  const parts = {};
  for (const g of ["right", "carried", "wrong", "missing"]) {
    const part = row.querySelector(".g-" + g);
    parts[g] = [Number(row.dataset[g]), part ? part.getBoundingClientRect().width / bar : 0];
  }
  return parts;
})"""
COLUMNS = """() => [...document.querySelectorAll(".hist .bin")].map(
  b => [Number(b.dataset.count), b.querySelector(".col").getBoundingClientRect().height])"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("glance")
    status, _, err = run_cli(
        ["exercises", "--seed", "2026", "--students", str(CLASS / "roster.csv"),
         "-o", str(root / "week5")]
    )  # fmt: skip
    assert status == 0, err
    out = {}
    for lang in ("en", "zh"):
        out[lang] = root / f"summary-{lang}.html"
        argv = ["grade", str(root / "week5"), str(CLASS / "submissions")]
        status, _, err = run_cli([*argv, "--summary", str(out[lang]), "--lang", lang])
        assert status == 1, err
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")),
            executable_path=chromium(),
            headless=True,
            args=FLAGS,
            offline=True,
            viewport={"width": 1000, "height": 900},
        )
        context.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url.startswith(ALLOWED) else route.abort()
            ),
        )
        yield context
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_summary_page_in_chromium(browser: Any, pages: dict[str, Path], lang: str) -> None:
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(pages[lang].as_uri(), wait_until="load")
    assert requests and all(url.startswith(ALLOWED) for url in requests), requests
    assert page.evaluate("document.documentElement.lang") == lang
    deviation, inked = spread(browser, page.screenshot())
    assert deviation >= 12 and inked >= 0.01  # not a blank page
    bars = page.evaluate(BARS)
    assert len(bars) == 7
    for parts in bars:
        total = sum(count for count, _ in parts.values())
        assert total == 5
        for count, share in parts.values():
            assert share == pytest.approx(count / total, abs=0.02), parts
    columns = page.evaluate(COLUMNS)
    assert [c for c, _ in columns] == [0, 0, 0, 0, 0, 0, 0, 2, 0, 2]
    top = max(h for _, h in columns)
    assert top > 50 and all(h == pytest.approx(top * c / 2, abs=1) for c, h in columns)
    assert page.locator("p[data-most-common]").is_visible()
    page.set_viewport_size({"width": 375, "height": 800})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide on a 375 px phone"
    page.close()
