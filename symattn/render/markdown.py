"""Markdown with ``$…$`` and ``$$…$$`` math, for GitHub, Jupyter and Obsidian.

Every math fragment uses only what KaTeX and MathJax both support (aligned, bmatrix,
array, \\frac, \\sqrt, \\text …); the test suite renders each one with KaTeX.
"""

from __future__ import annotations

from ..notation import Notation, Words
from ..steps import Derivation
from .blocks import Block, Display, Heading, Heatmap, Sentence, build_blocks

__all__ = ["math_fragments", "render_markdown", "render_math"]


def _md_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_[]<>|$" else ch for ch in text)


def _display(block: Display) -> str:
    if len(block.lines) == 1 and "&" not in block.lines[0]:
        return "$$\n" + block.lines[0] + "\n$$"
    return "$$\n\\begin{aligned}\n" + " \\\\\n".join(block.lines) + "\n\\end{aligned}\n$$"


def _heatmap(block: Heatmap) -> str:
    """A table of the weights; the shade is a block character per cell."""
    shades = " ░▒▓█"
    head = "| | " + " | ".join(_md_escape(c) for c in block.cols) + " |"
    rule = "|---|" + "---|" * len(block.cols)
    lines = [_md_escape(block.caption), "", head, rule]
    for name, values, labels in zip(block.rows, block.values, block.labels):
        cells = [
            text if text == "⋯" else f"{shades[min(4, int(v * 5))]} {text}"
            for v, text in zip(values, labels)
        ]
        lines.append(f"| {_md_escape(name)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _blocks_to_markdown(blocks: list[Block], title: str) -> str:
    out = [f"# {_md_escape(title)}", ""]
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"## {_md_escape(block.title)}")
        elif isinstance(block, Sentence):
            out.append(
                "".join(f"${t}$" if kind == "math" else _md_escape(t) for kind, t in block.parts)
            )
        elif isinstance(block, Display):
            out.append(_display(block))
        elif isinstance(block, Heatmap):
            out.append(_heatmap(block))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def render_markdown(
    derivation: Derivation,
    *,
    words: Words,
    notation: Notation,
    rows: list[int] | None = None,
    digits: int = 4,
    heads_shown: list[int] | None = None,
) -> str:
    """The derivation as Markdown with math."""
    blocks = build_blocks(derivation, notation, words, rows, digits, heads_shown)
    return _blocks_to_markdown(blocks, derivation.problem.title or words("title"))


def render_math(derivation: Derivation, lang: str = "en", notation: str = "matrix") -> str:
    """Only the displayed formulas, each as ``$$…$$`` (for ``_repr_latex_``)."""
    from ..notation import Notation, words

    names = Notation.build(notation, derivation.problem.notation)
    blocks = build_blocks(derivation, names, words(lang))
    return "\n".join(_display(b) for b in blocks if isinstance(b, Display)) + "\n"


def math_fragments(markdown: str) -> list[tuple[str, bool]]:
    """Every math fragment of a Markdown text, with True for display math.

    >>> math_fragments("a $x^2$ b\\n$$\\ny\\n$$\\n")
    [('y', True), ('x^2', False)]
    """
    import re

    display = re.findall(r"\$\$\n(.*?)\n\$\$", markdown, re.S)
    rest = re.sub(r"\$\$\n.*?\n\$\$", "", markdown, flags=re.S)
    inline = re.findall(r"(?<![\\$])\$([^$\n]+?)\$", rest)
    return [(m, True) for m in display] + [(m, False) for m in inline]
