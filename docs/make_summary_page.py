"""Rebuild docs/gallery/summary.png: the class at a glance of docs/classroom.md (the
class set of ``--seed 2026`` for docs/examples/classroom/roster.csv, graded against
docs/examples/classroom/submissions), in headless Chromium.

Usage, from anywhere in the repository:

    python docs/make_summary_page.py

It runs ``symattn grade … --summary summary.html`` in a temporary folder, opens the page
from ``file://`` in the system's Chromium (offline, every request outside the file
aborted; Playwright's Python package drives it, its own browsers are never downloaded)
and saves a screenshot of the whole page, 940 px wide. It needs ``chromium`` (Debian's
package; ``SYMATTN_CHROMIUM`` names another) and ``pip install playwright``: what .ci/run
installs.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from symattn.cli import main as symattn

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
CLASS = DOCS / "examples" / "classroom"
SHOT = DOCS / "gallery" / "summary.png"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def write_page(folder: Path) -> Path:
    """The summary page, as docs/classroom.md makes it (run from the repository)."""
    os.chdir(ROOT)
    week = folder / "week5"
    roster = str(CLASS / "roster.csv")
    if symattn(["exercises", "--seed", "2026", "--students", roster, "-o", str(week)]) != 0:
        raise SystemExit("make_summary_page: symattn exercises failed")
    page = folder / "summary.html"
    symattn(["grade", str(week), str(CLASS.relative_to(ROOT) / "submissions"),
             "--summary", str(page)])  # fmt: skip
    if not page.is_file():
        raise SystemExit("make_summary_page: symattn grade wrote no summary")
    return page


def main() -> int:
    chromium = os.environ.get("SYMATTN_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        print("make_summary_page: no chromium on PATH (see .ci/run)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="symattn-summary-") as tmp:
        page_file = write_page(Path(tmp))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
            try:
                context = browser.new_context(
                    viewport={"width": 940, "height": 400}, device_scale_factor=2, offline=True
                )
                page = context.new_page()
                page.route(
                    "**/*",
                    lambda route: (
                        route.continue_()
                        if route.request.url.startswith(("file:", "data:"))
                        else route.abort()
                    ),
                )
                page.goto(page_file.as_uri(), wait_until="load")
                page.screenshot(path=str(SHOT), full_page=True, scale="css")
            finally:
                browser.close()
    print(f"docs/gallery/summary.png  ({SHOT.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
