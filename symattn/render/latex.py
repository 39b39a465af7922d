"""LaTeX: a fragment to paste into a report (amsmath only), or a standalone document
(see :mod:`.tex_document` for the preamble)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .blocks import Block, Display, Heading, Heatmap, Sentence
from .document import BlockWriter, Document
from .tex import TexPrinter, text_escape
from .tex_document import document as tex_document

__all__ = ["LatexWriter", "display", "latex_blocks", "latex_message", "render_latex", "sentence"]

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉ᵢⱼₖ", "0123456789ijk")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾", "0123456789()")
_MATH = re.compile(
    r"(?P<root>√(?:d_model|d_k|\d+))"
    r"|(?P<entry>[A-Za-zΣ][\u0302\u0303]?(?:⁽[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾)?′?[₀-₉ᵢⱼₖ][₀-₉ᵢⱼₖ,]*)"
    r"|(?P<head>[A-Za-z][\u0302\u0303]?⁽[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾)"
    r"|(?P<accent>[A-Za-z][\u0302\u0303])"
    r"|(?P<approx>≈)"
    r"|(?P<weight>\b[Wb]_(?:Q|K|V|O|a|1|2)\b)"
    r"|(?P<dim>\bd_(?:model|k)\b)"
    r"|(?P<inf>−∞)"
    r"|(?P<dot>·)"
    r"|(?P<greek>[βγεμστθ]²?)"
    r"|(?P<square>²)"
    r"|(?P<minus>−)"
)
_GREEK = {
    "β": r"\beta",
    "γ": r"\gamma",
    "ε": r"\varepsilon",
    "μ": r"\mu",
    "σ": r"\sigma",
    "τ": r"\tau",
    "θ": r"\theta",
}
#: Combining accents on a letter: q̂ (a rotated query), X̃ (X + P).
_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde"}


def _letter(token: str) -> tuple[str, str]:
    """The letter of an entry name, accented as LaTeX, with its head (q⁽¹⁾ → q^{(1)}),
    and the rest of the name."""
    head, rest = token[0].replace("Σ", r"\Sigma "), token[1:]
    if rest[:1] in _ACCENTS:
        head, rest = f"{_ACCENTS[rest[0]]}{{{head}}}", rest[1:]
    if rest.startswith("⁽"):
        end = rest.index("⁾") + 1
        head, rest = f"{head}^{{{rest[:end].translate(_SUPERSCRIPTS)}}}", rest[end:]
    return head, rest


def _math_of(token: str, kind: str) -> str:
    if kind == "root":
        inner = token[1:].replace("d_model", r"d_{\text{model}}")
        return rf"\sqrt{{{inner}}}"
    if kind in ("entry", "accent", "head"):
        head, rest = _letter(token)
        prime = "'" if rest.startswith("′") else ""
        index = rest.lstrip("′").translate(_SUBSCRIPTS)
        return f"{head}{prime}_{{{index}}}" if index else head
    if kind == "weight":  # W_Q → W^{Q} and W_1 → W_{1}, as the matrices are named on paper
        index = token[2:]
        return f"{token[0]}_{{{index}}}" if index.isdigit() else f"{token[0]}^{{{index}}}"
    if kind == "dim":
        return token.replace("d_model", r"d_{\text{model}}")
    if kind == "greek":  # LayerNorm's γ, β, ε, μ, σ²
        return _GREEK[token[0]] + ("^{2}" if token.endswith("²") else "")
    return {
        "inf": r"-\infty",
        "dot": r"\cdot",
        "square": "^{2}",
        "minus": "-",
        "approx": r"\approx",
    }[kind]


def latex_message(text: str) -> str:
    """A sentence of words for LaTeX: its entry names, roots and ∞ set as math.

    >>> print(latex_message("s′₂,₁: divide by √d_k = √2"))
    $s'_{2,1}$: divide by $\\sqrt{d_k}$ = $\\sqrt{2}$
    >>> print(latex_message("q̂₃,₁ ≈ 1.5581 with τ, from X̃"))
    $\\hat{q}_{3,1}$ $\\approx$ 1.5581 with $\\tau$, from $\\tilde{X}$
    >>> print(latex_message("q⁽¹⁾₁,₂ and Q⁽²⁾"))
    $q^{(1)}_{1,2}$ and $Q^{(2)}$
    >>> print(latex_message("Q = W_Q X"))
    Q = $W^{Q}$ X
    """
    out, last = [], 0
    for match in _MATH.finditer(text):
        out.append(text_escape(text[last : match.start()]))
        out.append(f"${_math_of(match.group(), match.lastgroup or '')}$")
        last = match.end()
    out.append(text_escape(text[last:]))
    return "".join(out)


def sentence(block: Sentence, printer: TexPrinter) -> str:
    return "".join(
        latex_message(p) if isinstance(p, str) else f"${printer.math(p)}$" for p in block.parts
    )


def display(block: Display, printer: TexPrinter) -> str:
    lines = [text for line in block.lines for text in printer.line(line)]
    if len(lines) == 1 and "&" not in lines[0]:
        return "\\[\n  " + lines[0] + "\n\\]"
    return "\\begin{align*}\n  " + " \\\\\n  ".join(lines) + "\n\\end{align*}"


def _heatmap(block: Heatmap) -> str:
    """Shaded cells with xcolor only: darker blue for more attention."""
    cols = "r" + "c" * len(block.cols)
    lines = [
        text_escape(block.caption),
        "",
        "\\begin{center}",
        "\\setlength{\\fboxsep}{3pt}",
        f"\\begin{{tabular}}{{{cols}}}",
        " & "
        + " & ".join("$\\cdots$" if c == "⋯" else text_escape(c) for c in block.cols)
        + " \\\\",
    ]
    for name, values, labels in zip(block.rows, block.values, block.labels):
        cells = []
        for value, text in zip(values, labels):
            if text == "⋯":
                cells.append("$\\cdots$")
                continue
            shade = round(max(0.0, min(1.0, value)) * 80)
            ink = "white" if shade > 45 else "black"
            cells.append(
                f"\\colorbox{{blue!{shade}!white}}{{\\makebox[3em]{{\\color{{{ink}}}{text}}}}}"
            )
        lines.append(text_escape(name) + " & " + " & ".join(cells) + " \\\\")
    lines += ["\\end{tabular}", "\\end{center}"]
    return "\n".join(lines)


class LatexWriter(BlockWriter):
    """LaTeX: sections (subsections in a fragment), sentences with inline math, displays
    (``align*`` when there are several lines), the heatmap in a standalone document."""

    def __init__(self, printer: TexPrinter, standalone: bool) -> None:
        super().__init__()
        self.printer = printer
        self.standalone = standalone

    def write(self, block: Block) -> None:
        super().write(block)
        self.out.append("")

    def _write_Heading(self, block: Heading) -> None:
        command = "\\section*" if self.standalone else "\\subsection*"
        self.out.append(f"{command}{{{text_escape(block.title)}}}")

    def _write_Sentence(self, block: Sentence) -> None:
        self.out.append(sentence(block, self.printer))

    def _write_Display(self, block: Display) -> None:
        self.out.append(display(block, self.printer))

    def _write_Heatmap(self, block: Heatmap) -> None:
        if self.standalone:  # a fragment leaves the shading (xcolor) to its document
            self.out.append(_heatmap(block))


def latex_blocks(blocks: Sequence[Block], printer: TexPrinter, standalone: bool) -> list[str]:
    return LatexWriter(printer, standalone).lines(blocks)


def render_latex(document: Document, printer: TexPrinter, *, standalone: bool) -> str:
    """A document as a LaTeX fragment (``standalone=False``) or a whole document."""
    body = latex_blocks(document.blocks, printer, standalone)
    if not standalone:
        head = "% symattn derivation: needs \\usepackage{amsmath}"
        return "\n".join([head, "", *body]).rstrip() + "\n"
    return tex_document(document.title, "\n".join(body))
