"""Rebuild the HTML part of the gallery: screenshots of the pages in headless Chromium.

Usage, from anywhere in the repository:

    python docs/make_html_gallery.py

It writes the derivation page of ``seed`` (English and Chinese), the feedback page of
docs/examples/answers-no-scaling.json (English and Chinese) and the self-check page of
``seed`` (English and Chinese; some boxes typed in before the screenshot, as a student
would) to a temporary folder,
opens each from ``file://`` in the system's Chromium (headless, offline, a fresh
profile; driven by Playwright's Python package, whose own browsers are never
downloaded), and saves screenshots at a desktop width (940 px) and a phone width
(375 px) to docs/gallery/html/. Then it rewrites the part of docs/gallery.md between
the markers ``<!-- html-gallery -->`` and ``<!-- /html-gallery -->`` (docs/make_gallery.py
keeps that part when it rewrites the rest). It needs ``chromium`` (Debian's package;
``SYMATTN_CHROMIUM`` names another) and ``pip install playwright``: what .ci/run installs.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import symattn
from symattn.check.feedback_html import render_feedback_html
from symattn.check.tables import mistake_tables, rounded
from symattn.examples import example_path
from symattn.exercises.self_check import render_self_check
from symattn.render import render

DOCS = Path(__file__).resolve().parent
SHOTS = DOCS / "gallery" / "html"
PAGE = DOCS / "gallery.md"
START, END = "<!-- html-gallery -->", "<!-- /html-gallery -->"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = DOCS.parent
DESKTOP, PHONE = (940, 1000), (375, 760)


@dataclass(frozen=True)
class Shot:
    png: str  # file name in docs/gallery/html
    page: str  # the page's file name
    size: tuple[int, int]  # the window: width, height (CSS pixels)
    target: str | None  # None: the window; "page": the whole page; else a CSS selector
    caption: str
    typed: str | None = None  # what is typed into a self-check page first (see TYPED)


#: Rendered at 2 (3 on a phone) device pixels per CSS pixel, saved at 1: smooth lines.
SCALE = {DESKTOP[0]: 2, PHONE[0]: 3}
SHOTS_MADE = [
    Shot("seed-en.png", "seed-en.html", DESKTOP, None,
         "`symattn derive --example seed --format html`: the top of the page, 940 px wide"),
    Shot("seed-en-softmax.png", "seed-en.html", DESKTOP, "#step-8",
         "The same page, step 8: the softmax row by row, the weights and their heatmap"),
    Shot("seed-zh-phone.png", "seed-zh.html", PHONE, None,
         "`--lang zh` on a 375 px phone"),
    Shot("seed-zh-phone-step9.png", "seed-zh.html", PHONE, "#step-9",
         "Step 9 on the phone: the long line scrolls sideways inside its box (the shadow at "
         "its right edge), the page does not"),
    Shot("check-en.png", "check-en.html", DESKTOP, "page",
         "`symattn check seed docs/examples/answers-no-scaling.json --format html`"),
    Shot("check-zh-phone.png", "check-zh.html", PHONE, "page",
         "The same feedback with `--lang zh`, on a phone"),
    Shot("selfcheck-en-weights.png", "selfcheck-en.html", DESKTOP, "#step-7",
         "The self-check page of `seed` (`render_self_check`): step 7 typed with the weights "
         "of a student who did not scale the scores — each box ✗, and the mistake named",
         "unscaled"),
    Shot("selfcheck-en-scaled.png", "selfcheck-en.html", DESKTOP, "#step-6",
         "The same page, step 6: √2 and 5√2/2 are right, 3.54 has too few places, abc is "
         "not a number", "forms"),
    Shot("selfcheck-zh-phone.png", "selfcheck-zh.html", PHONE, "#step-1",
         "The self-check page in Chinese on a 375 px phone: step 1 (the embedding lookup), "
         "a row of four boxes, one of them wrong", "lookup"),
]  # fmt: skip


def typed(kind: str) -> list[tuple[str, int, int, str]]:
    """(step, row, column, text), 1-based: what a student types before a screenshot."""
    key = symattn.derive(example_path("seed"))
    if kind == "unscaled":
        table = next(t for t in mistake_tables(key, 4) if t.id == "no_scaling")
        rows = table.values["weights"]
        return [
            ("weights", i + 1, j + 1, rounded(v, 4))
            for i, row in enumerate(rows)
            for j, v in enumerate(row)
        ]
    if kind == "forms":
        return [("scaled_scores", 1, 1, "√2"), ("scaled_scores", 1, 2, "3.54"),
                ("scaled_scores", 2, 1, "5√2/2"), ("scaled_scores", 2, 2, "abc")]
    written = [["1", "0", "1", "0"], ["0", "2", "1", "1"]]
    return [("X", i + 1, j + 1, x) for i, row in enumerate(written) for j, x in enumerate(row)]


def write_pages(folder: Path) -> None:
    """The pages, as the commands write them when run from the repository."""
    key = symattn.derive(example_path("seed"))
    answers = Path("docs", "examples", "answers-no-scaling.json")
    os.chdir(ROOT)
    for lang in ("en", "zh"):
        (folder / f"seed-{lang}.html").write_text(render(key, "html", lang=lang), "utf-8")
        result = symattn.check(key, answers)
        (folder / f"check-{lang}.html").write_text(render_feedback_html(result, lang), "utf-8")
        (folder / f"selfcheck-{lang}.html").write_text(render_self_check(key, lang), "utf-8")


def shoot(folder: Path, chromium: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:  # launch() starts from a fresh temporary profile
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        try:
            for shot in SHOTS_MADE:
                width, height = shot.size
                if shot.target == "page":  # as tall as the page, however short it is
                    height = 400
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    device_scale_factor=SCALE[width],
                    offline=True,
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
                page.goto((folder / shot.page).as_uri(), wait_until="load")
                for step, row, col, text in typed(shot.typed) if shot.typed else []:
                    box = f'input[data-step="{step}"][data-row="{row}"][data-col="{col}"]'
                    page.fill(box, text)
                page.evaluate("document.activeElement && document.activeElement.blur()")
                path = str(SHOTS / shot.png)
                if shot.target in (None, "page"):
                    page.screenshot(path=path, full_page=shot.target == "page", scale="css")
                else:
                    page.locator(shot.target).screenshot(path=path, scale="css")
                context.close()
                size = (SHOTS / shot.png).stat().st_size
                print(f"docs/gallery/html/{shot.png}  ({size // 1024} kB)")
        finally:
            browser.close()


def section(sizes: dict[str, int]) -> str:
    lines = [
        START,
        "## The HTML pages, in Chromium",
        "",
        "Screenshots of the HTML pages (see [html.md](html.md)) in headless",
        "Chromium, opened from `file://` with the network off; rebuilt by",
        "",
        "```sh",
        "python docs/make_html_gallery.py",
        "```",
        "",
        "which needs `chromium` and the Python package `playwright` (what `.ci/run`",
        "installs). The pages themselves are "
        + ", ".join(f"{name} {kb} kB" for name, kb in sizes.items())
        + ".",
        "",
    ]
    for shot in SHOTS_MADE:
        alt = shot.caption.replace("`", "")
        lines += [f"![{alt}](gallery/html/{shot.png})", "", shot.caption + ".", ""]
    lines.append(END)
    return "\n".join(lines)


def main() -> int:
    chromium = os.environ.get("SYMATTN_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        print("make_html_gallery: no chromium on PATH (see .ci/run)", file=sys.stderr)
        return 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="symattn-html-gallery-") as tmp:
        folder = Path(tmp)
        write_pages(folder)
        sizes = {p.name: p.stat().st_size // 1024 for p in sorted(folder.glob("*.html"))}
        shoot(folder, chromium)
    wanted = {shot.png for shot in SHOTS_MADE}
    for stale in sorted(SHOTS.glob("*.png")):
        if stale.name not in wanted:
            stale.unlink()
            print(f"removed docs/gallery/html/{stale.name}")
    text = PAGE.read_text(encoding="utf-8") if PAGE.exists() else "# Gallery\n"
    block = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    new = section(sizes)
    text = block.sub(lambda _: new, text) if block.search(text) else text.rstrip() + "\n\n" + new
    PAGE.write_text(text.rstrip() + "\n", encoding="utf-8")
    print("docs/gallery.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
