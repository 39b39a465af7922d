r"""A whole matrix written as one string: LaTeX, a nested list, or rows split by ``;``.

Students paste matrices from their notes:

* LaTeX ``\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}`` (also ``pmatrix``, ``Bmatrix``,
  ``matrix`` and ``array``);
* a nested list ``[[1, 2], [3, 4]]`` (one row: ``[1, 2]``), commas separating;
* rows split by ``;`` or new lines, entries by spaces or ``", "``: ``1 2; 3 4`` (here
  ``1,5`` is a decimal comma).

Each entry stays text, to be read by the grammar of answers.

>>> split_matrix(r"\begin{bmatrix} 1 & \frac{1}{2} \\ 0 & 1 \end{bmatrix}")
[['1', '\\frac{1}{2}'], ['0', '1']]
>>> split_matrix("[[0.1, 0.9], [1, 2]]"), split_matrix("1,5 2; 3 4")
([['0.1', '0.9'], ['1', '2']], [['1,5', '2'], ['3', '4']])
"""

from __future__ import annotations

import re

__all__ = ["looks_like_matrix", "split_matrix"]

_ENVIRONMENT = re.compile(
    r"^\s*(?:\\left\s*[\[(]\s*)?\\begin\{(?P<env>[bpB]?matrix|array)\}(?:\{[^}]*\})?"
    r"(?P<body>.*?)\\end\{(?P=env)\}\s*(?:\\right\s*[\])]\s*)?$",
    re.S,
)


def looks_like_matrix(text: str) -> bool:
    """Is this string a whole matrix rather than one entry?"""
    stripped = text.strip()
    return (
        stripped.startswith("\\begin")
        or stripped.startswith("\\left")
        or stripped.startswith("[")
        or ";" in stripped
        or "\n" in stripped
    )


def _split_top(text: str, separator: str) -> list[str]:
    """Split at ``separator`` outside brackets."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def _list_entries(row: str) -> list[str]:
    """Entries of ``[a, b, c]``: every comma outside brackets separates (as in JSON)."""
    return [p.strip() for p in _split_top(row, ",") if p.strip()]


def split_matrix(text: str) -> list[list[str]]:
    """The entries of a matrix written as one string, row by row.

    Raises :class:`ValueError` with the reason when the string is not a matrix.
    """
    stripped = text.strip()
    if stripped.startswith("\\"):
        match = _ENVIRONMENT.match(stripped)
        if match is None:
            raise ValueError(
                "expected a LaTeX matrix: \\begin{bmatrix} a & b \\\\ c & d \\end{bmatrix}"
            )
        rows = [r for r in re.split(r"\\\\", match.group("body")) if r.strip()]
        body = [[cell.strip() for cell in row.replace(r"\hline", "").split("&")] for row in rows]
        return body
    if stripped.startswith("["):
        inner = stripped[1:-1].strip() if stripped.endswith("]") else None
        if inner is None:
            raise ValueError("a matrix in brackets must end with ]")
        if inner.startswith("["):
            rows = [r.strip() for r in _split_top(inner, ",") if r.strip()]
            if not all(r.startswith("[") and r.endswith("]") for r in rows):
                raise ValueError("expected rows such as [[1, 2], [3, 4]]")
            return [_list_entries(r[1:-1]) for r in rows]
        return [_list_entries(inner)]
    rows = [r for r in re.split(r"[;\n]", stripped) if r.strip()]
    return [[cell for cell in re.split(r"\s+|,\s+", row.strip()) if cell] for row in rows]
