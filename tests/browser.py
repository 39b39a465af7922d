"""Driving the system's Chromium, headless and offline, for the page tests.

Playwright's Python package drives the Chromium that the system has (Debian's
``chromium``; ``SYMATTN_CHROMIUM`` names another): Playwright's own browsers are
never downloaded.  :func:`why_not` says why the browser tests cannot run here (no
playwright, no chromium), so that they skip with that reason.  :func:`spread` measures
a screenshot, to tell a page from a blank one.
"""

from __future__ import annotations

import base64
import os
import shutil
from pathlib import Path
from typing import Any

#: Chromium flags that work headless in a container, with nothing fetched in the background.
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


def chromium() -> str | None:
    """The system's Chromium, or None."""
    named = os.environ.get("SYMATTN_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def why_not() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright (the Python package) is not installed; .ci/run installs it"
    if chromium() is None:
        return "no chromium on PATH (Debian's package chromium; .ci/run installs it)"
    return None


#: Grey-level statistics of an image, computed by the browser from a data: URL.
_SPREAD = """async (url) => {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  const counts = new Array(256).fill(0);
  let sum = 0, squares = 0;
  const n = data.length / 4;
  for (let k = 0; k < data.length; k += 4) {
    const grey = Math.round((data[k] + data[k + 1] + data[k + 2]) / 3);
    counts[grey] += 1; sum += grey; squares += grey * grey;
  }
  const mean = sum / n;
  const background = counts.indexOf(Math.max(...counts));
  let inked = 0;
  for (let g = 0; g < 256; g++) if (Math.abs(g - background) > 24) inked += counts[g];
  return [Math.sqrt(squares / n - mean * mean), inked / n];
}"""


def spread(context: Any, png: bytes) -> tuple[float, float]:
    """The standard deviation of a screenshot's grey levels, and the share of its pixels
    that are not the background (the most common grey); decoded by the browser."""
    page = context.new_page()
    try:
        url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        deviation, inked = page.evaluate(_SPREAD, url)
    finally:
        page.close()
    return float(deviation), float(inked)
