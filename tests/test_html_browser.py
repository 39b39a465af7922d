"""The HTML pages in a real browser: the system's Chromium, headless, with the network off.

Every bundled example (English in the matrix notation, Chinese in the token notation)
and the feedback pages of ``check --format html`` are opened from ``file://``.  Each
page must typeset its math (MathML laid out as math: a fraction's numerator above its
denominator), show no LaTeX source, make no request outside the file (every request
is recorded; only ``file:`` and ``data:`` are allowed, the rest aborted), look like a
page in a screenshot (not blank), fit a 375 px phone (only formula boxes scroll
sideways) and drop its contents list in print.  Each check is also shown to fail on a
page made to fail it.

Marked ``slow``; skipped with the reason when playwright or chromium is missing
(.ci/run installs both).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.check.feedback_html import render_feedback_html
from symattn.examples import example_names, example_path
from symattn.render import render

from .browser import FLAGS, chromium, spread, why_not
from .helpers import ROOT
from .html_pages import RAW_TEX

REASON = why_not()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

PAGES = [(name, "en", "matrix") for name in example_names()] + [
    (name, "zh", "token") for name in example_names()
]
FEEDBACK = [
    ("answers-no-scaling.json", "en", "no_scaling"),
    ("answers-no-scaling.json", "zh", "no_scaling"),
    ("answers-slip.json", "en", "arithmetic_slip"),
]
ALLOWED = ("file:", "data:")

#: Where the math is: MathML elements laid out as math, and every fraction stacked.
TYPESET = """() => {
  const maths = [...document.querySelectorAll("math")];
  const laidOut = maths.filter(m => getComputedStyle(m).display.includes("math")).length;
  const stacked = [...document.querySelectorAll("mfrac")].map(f => {
    const [num, den] = [...f.children].map(c => c.getBoundingClientRect());
    return num.bottom <= den.top + 1 && num.height > 0 && den.height > 0;
  });
  return {maths: maths.length, laidOut, fractions: stacked.length,
          stacked: stacked.filter(Boolean).length};
}"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every page, written to files."""
    out = tmp_path_factory.mktemp("pages")
    for name, lang, notation in PAGES:
        d = symattn.derive(example_path(name), backward=name == "backward")
        text = render(d, "html", lang=lang, notation=notation)
        (out / f"{name}-{lang}.html").write_text(text, encoding="utf-8")
    key = symattn.derive(example_path("seed"))
    for answers, lang, _ in FEEDBACK:
        result = symattn.check(key, ROOT / "docs" / "examples" / answers)
        text = render_feedback_html(result, lang)
        (out / f"check-{Path(answers).stem}-{lang}.html").write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A fresh headless Chromium profile, offline; every request outside a file aborted."""
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


def _open(browser: Any, path: Path | str) -> tuple[Any, list[str]]:
    """A page opened from a file (or a URL), with the URL of every request it made."""
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri() if isinstance(path, Path) else path, wait_until="load")
    return page, requests


def _outside(requests: list[str]) -> list[str]:
    return [url for url in requests if not url.startswith(ALLOWED)]


def _looks_blank(browser: Any, page: Any) -> bool:
    deviation, inked = spread(browser, page.screenshot())
    return deviation < 12 or inked < 0.01


def _common_checks(browser: Any, path: Path) -> Any:
    page, requests = _open(browser, path)
    assert requests and not _outside(requests), _outside(requests)
    found = page.evaluate(TYPESET)
    assert found["maths"] > 0 and found["laidOut"] == found["maths"], found
    assert found["stacked"] == found["fractions"], found
    text = page.inner_text("body")
    assert not RAW_TEX.search(text), RAW_TEX.findall(text)[:5]
    assert not _looks_blank(browser, page)
    page.set_viewport_size({"width": 375, "height": 800})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide on a 375 px phone"
    scrolls = page.evaluate(
        "[...document.querySelectorAll('.display')]"
        ".every(d => getComputedStyle(d).overflowX === 'auto')"
    )
    assert scrolls
    page.emulate_media(media="print")
    assert page.evaluate(
        "[...document.querySelectorAll('nav')].every(n => getComputedStyle(n).display === 'none')"
    )
    return page


@pytest.mark.parametrize(("name", "lang", "notation"), PAGES)
def test_example_page_in_chromium(
    browser: Any, folder: Path, name: str, lang: str, notation: str
) -> None:
    page = _common_checks(browser, folder / f"{name}-{lang}.html")
    assert page.evaluate("document.documentElement.lang") == lang
    page.close()


@pytest.mark.parametrize(("answers", "lang", "diagnosis"), FEEDBACK)
def test_feedback_page_in_chromium(
    browser: Any, folder: Path, answers: str, lang: str, diagnosis: str
) -> None:
    page = _common_checks(browser, folder / f"check-{Path(answers).stem}-{lang}.html")
    assert page.locator(f'[data-diagnosis="{diagnosis}"]').is_visible()
    result = symattn.check(symattn.derive(example_path("seed")), ROOT / "docs/examples" / answers)
    wrong = sum(e.status == "wrong" for step in result.steps for e in step.entries)
    assert page.locator('tr[data-status="wrong"]').count() == wrong > 0
    assert page.inner_text("body").count("✗") >= wrong
    carried = sum(e.status == "carried" for step in result.steps for e in step.entries)
    assert page.locator('tr[data-status="carried"]').count() == carried
    page.close()


def test_the_browser_checks_can_fail(browser: Any, tmp_path: Path) -> None:
    """A blank page looks blank; a request outside the file is seen; raw LaTeX is found;
    a page that is too wide for a phone is measured so."""
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html lang=en><body></body></html>", encoding="utf-8")
    page, _ = _open(browser, blank)
    assert _looks_blank(browser, page)
    page.close()
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html lang=en><body><p>$$\\frac{1}{2}$$</p>"
        '<img src="http://example.invalid/x.png"><div style="width:900px">wide</div></body></html>',
        encoding="utf-8",
    )
    page, requests = _open(browser, bad)
    assert _outside(requests) == ["http://example.invalid/x.png"]
    assert RAW_TEX.search(page.inner_text("body"))
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") > 375
    page.close()
