"""Renderers: each reads a Derivation and writes one output format; none computes.

>>> import symattn
>>> d = symattn.derive({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> render(d, "latex").splitlines()[0]
'% symattn derivation: needs \\\\usepackage{amsmath}'
"""

from __future__ import annotations

from ..errors import SymattnError
from ..notation import Notation, words
from ..steps import Derivation

__all__ = ["FORMATS", "render"]

FORMATS = ("text", "json", "latex", "tex", "markdown")


def render(
    derivation: Derivation,
    fmt: str = "text",
    *,
    lang: str = "en",
    notation: str = "matrix",
    rows: list[int] | None = None,
    digits: int = 4,
    heads_shown: list[int] | None = None,
) -> str:
    """The derivation in one format: text, json, latex (fragment), tex (document), markdown.

    ``rows`` are the 0-based query rows written out entry by entry (default: the first).
    ``lang`` (en, zh) and ``notation`` (matrix, token) apply to latex, tex and markdown.
    """
    language = words(lang)
    names = Notation.build(notation, derivation.problem.notation)
    if fmt == "text":
        from .text import render_text

        return render_text(derivation, rows=rows, digits=digits, heads_shown=heads_shown)
    if fmt == "json":
        from .json import dumps, render_json

        return dumps(render_json(derivation, digits)) + "\n"
    if fmt in ("latex", "tex"):
        from .latex import render_latex

        return render_latex(
            derivation,
            standalone=fmt == "tex",
            words=language,
            notation=names,
            rows=rows,
            digits=digits,
            heads_shown=heads_shown,
        )
    if fmt == "markdown":
        from .markdown import render_markdown

        return render_markdown(
            derivation,
            words=language,
            notation=names,
            rows=rows,
            digits=digits,
            heads_shown=heads_shown,
        )
    raise SymattnError(f"--format: expected one of {', '.join(FORMATS)}, found {fmt!r}")
