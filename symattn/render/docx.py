"""Word (.docx): native, editable Word equations (OMML), Word heading styles, en or zh.

A Word equation is OMML, and writing OMML by hand would be a second math printer. Pandoc
converts TeX math to OMML (its ``texmath`` library) and Markdown headings to Word's
``Heading 1`` / ``Heading 2`` styles, so a derivation's Word document is its Markdown
document (:mod:`.markdown`, whose every formula is already tested with KaTeX) converted
by pandoc, and a check's feedback sheet is its LaTeX sheet converted the same way.  The
pandoc used is the one the ``pypandoc_binary`` wheel ships, so nothing is installed
apart from the package.  Pandoc runs with ``--sandbox`` (it reads and writes no file but
its input and output), with raw HTML, raw TeX and raw attributes off, so no text of a
problem file can reach Word as anything but text.
"""

from __future__ import annotations

import io
import os
import subprocess
import tempfile
import zipfile

from ..errors import SymattnError

__all__ = ["docx_from", "pandoc_path"]

#: Pandoc's Markdown without the extensions that pass raw markup through to the output.
_MARKDOWN = "markdown-raw_html-raw_tex-raw_attribute-native_divs-native_spans-smart"
#: The languages of words/, as Word's language tags.
_LANGUAGE_TAGS = {"en": "en-US", "zh": "zh-CN"}
#: Pandoc's OMML, made to look in LibreOffice and WPS as it does in Word: an empty base
#: (U+200B) and the corner of a labelled table (an empty cell), which LibreOffice draws as
#: a box and as ¿, become a normal-text space (what TeX's ``\text{ }`` becomes), which is
#: as invisible in Word as in both.
_SPACE = (
    '<m:e><m:r><m:rPr><m:nor /><m:sty m:val="p" /></m:rPr>'
    '<m:t xml:space="preserve"> </m:t></m:r></m:e>'
)
_OMML_FIXES = (("<m:e><m:r><m:t>\u200b</m:t></m:r></m:e>", _SPACE), ("<m:e />", _SPACE))
#: Longest time pandoc may take (a 128-token derivation converts in about a second).
_TIMEOUT_SECONDS = 120


def pandoc_path() -> str:
    """The pandoc of the ``pypandoc_binary`` wheel (or ``$SYMATTN_PANDOC`` when set)."""
    chosen = os.environ.get("SYMATTN_PANDOC")
    if chosen:
        return chosen
    try:
        import pypandoc
    except ImportError:  # pragma: no cover - a dependency of the package
        raise SymattnError(
            "docx: needs pandoc; install the package pypandoc_binary (pip install pypandoc_binary)"
        ) from None
    path: str = pypandoc.get_pandoc_path()
    return path


def docx_from(text: str, source_format: str, lang: str, title: str | None = None) -> bytes:
    """``text`` (``markdown`` or ``latex``) as the bytes of a Word document."""
    reader = _MARKDOWN if source_format == "markdown" else source_format
    with tempfile.TemporaryDirectory(prefix="symattn-docx-") as folder:
        out = os.path.join(folder, "out.docx")
        command = [
            pandoc_path(),
            "--sandbox",
            "--from",
            reader,
            "--to",
            "docx",
            "--metadata",
            f"lang={_LANGUAGE_TAGS.get(lang, lang)}",
            "--output",
            out,
        ]
        if title is not None:
            command += ["--metadata", f"pagetitle={title}"]
        try:
            done = subprocess.run(
                command,
                input=text.encode("utf-8"),
                capture_output=True,
                timeout=_TIMEOUT_SECONDS,
                cwd=folder,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise SymattnError(
                f"docx: pandoc took more than {_TIMEOUT_SECONDS} s; try a smaller problem"
            ) from None
        except OSError as exc:
            raise SymattnError(f"docx: cannot run pandoc ({exc.strerror})") from None
        if done.returncode != 0:
            reason = str(done.stderr, "utf-8", "replace").strip().splitlines()
            raise SymattnError(f"docx: pandoc failed ({reason[-1] if reason else done.returncode})")
        with open(out, "rb") as handle:
            return _fixed(handle.read())


def _fixed(docx: bytes) -> bytes:
    """The document with :data:`_OMML_FIXES` applied to its body."""
    source = zipfile.ZipFile(io.BytesIO(docx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                body = str(data, "utf-8")
                for old, new in _OMML_FIXES:
                    body = body.replace(old, new)
                data = body.encode("utf-8")
            target.writestr(item, data)
    return out.getvalue()
