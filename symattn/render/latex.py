"""LaTeX: a fragment to paste into a report (amsmath only), or a standalone document
(see :mod:`.tex_document` for the preamble)."""

from __future__ import annotations

from collections.abc import Sequence

from .blocks import Block, Display, Heading, Heatmap, Sentence
from .document import BlockWriter, Document
from .tex import TexPrinter, text_escape
from .tex_document import document as tex_document

__all__ = ["LatexWriter", "display", "latex_blocks", "render_latex", "sentence"]


def sentence(block: Sentence, printer: TexPrinter) -> str:
    return "".join(
        text_escape(p) if isinstance(p, str) else f"${printer.math(p)}$" for p in block.parts
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
