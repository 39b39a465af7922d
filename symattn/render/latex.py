"""LaTeX: a fragment to paste into a report (amsmath only), or a standalone document
(see :mod:`.tex_document` for the preamble)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..formula import Name
from ..messages import Voice, say
from ..printing import Notation
from ..words import Words, words
from .blocks import Display, Heading, Heatmap, Sentence
from .document import BlockWriter, Document
from .sheet_blocks import AnswerBoxes
from .tex import TexPrinter, text_escape
from .tex_document import document as tex_document

if TYPE_CHECKING:
    from .block_type import Block
    from .check_blocks import AnswerBox, CheckedStep, Diagnoses, EntryList, Remark, Verdict
    from .sheet_blocks import FromKey, GivenMatrices, KeySection, NameLine, Tokens, Vocabulary

#: An exercise sheet's answer box: a frame as wide as the widest answer and one line high.
BOX = "\\newcommand{\\answerbox}[1]{\\fbox{\\rule[-0.45em]{0pt}{1.5em}\\hspace{#1em}}}"
#: The mark of an answered entry by its status, in LaTeX.
MARKS = {
    "ok": "$\\checkmark$",
    "wrong": "$\\times$",
    "too_coarse": "$\\times$",
    "invalid": "?",
    "carried": "$\\hookrightarrow$",
}

__all__ = ["LatexWriter", "display", "latex_blocks", "latex_voice", "render_latex", "sentence"]


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

    def __init__(
        self, printer: TexPrinter, standalone: bool, *, sheet: bool = False, lang: str = "en"
    ) -> None:
        super().__init__()
        self.printer = printer
        self.standalone = standalone
        self.sheet = sheet  # check's feedback: paragraphs, a blank line between each
        self.voice = latex_voice(words(lang))
        self.after_title: list[str] = []

    def write(self, block: Block) -> None:
        super().write(block)
        if not self.sheet:
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

    # -- check's feedback: a sheet to hand back -----------------------------------------

    def _write_Verdict(self, block: Verdict) -> None:
        self.after_title.append(f"\\noindent {text_escape(block.source)}")
        self.out += [text_escape(block.score), text_escape(block.verdict)]

    def _write_CheckedStep(self, block: CheckedStep[Block]) -> None:
        symbol = "\\checkmark" if block.good else "\\times"
        first = f" {text_escape(block.first_label)}" if block.first else ""
        self.out.append(
            f"\\subsection*{{{text_escape(block.title)}: ${symbol}$ "
            f"{text_escape(block.status_word)}{first}}}"
        )
        for inner in block.blocks:
            self.write(inner)
        self.out.append("")

    def _write_Remark(self, block: Remark) -> None:
        if block.message is None:
            self.out.append(text_escape(block.words))
            return
        said = say(block.message, self.voice)
        self.out.append(f"{text_escape(block.prefix)} {said}" if block.prefix else said)

    def _write_EntryList(self, block: EntryList) -> None:
        self.out.append(f"\\begin{{tabular}}{{{'c' * (len(block.heads) + 1)}}}")
        self.out.append(" & ".join(text_escape(h) for h in block.heads) + " & \\\\ \\hline")
        for e in block.rows:
            name = self.printer.notation.entry(block.step_id, e.row - 1, e.col - 1)
            cells = [f"${name}$", text_escape(e.given)]
            cells += [] if e.expected is None else [text_escape(e.expected)]
            cells.append(f"{MARKS[e.status]} {text_escape(e.label)}".rstrip())
            self.out.append(" & ".join(cells) + " \\\\")
        self.out.append("\\end{tabular}")

    def _write_Diagnoses(self, block: Diagnoses) -> None:
        self.out += [text_escape(block.heading), "\\begin{itemize}"]
        for d in block.items:
            message = say(d.message, self.voice)
            self.out.append(f"\\item \\textbf{{{text_escape(d.name)}}}: {message}")
        self.out.append("\\end{itemize}")

    def _write_AnswerBox(self, block: AnswerBox[Block]) -> None:
        self.out.append(text_escape(block.heading))
        for inner in block.step:
            if isinstance(inner, Display):
                self.out.append(display(inner, self.printer))
            elif isinstance(inner, Sentence):
                self.out.append(sentence(inner, self.printer))

    # -- an exercise sheet: the givens, then boxes and room for each step ---------------

    def _write_NameLine(self, block: NameLine) -> None:
        self.out.append(f"{text_escape(block.label)} \\underline{{\\hspace{{6cm}}}}")

    def _write_Tokens(self, block: Tokens) -> None:
        tokens = ", ".join(text_escape(t) for t in block.tokens)
        self.out.append(text_escape(block.label) + " " + tokens)

    def _write_Vocabulary(self, block: Vocabulary) -> None:
        self.out.append(text_escape(block.sentence_label) + " " + text_escape(block.text))
        cells = " & ".join(text_escape(t) for t in block.tokens)
        ids = " & ".join(str(i) for i in range(len(block.tokens)))
        self.out.append(
            text_escape(block.label)
            + f"\n\n\\begin{{tabular}}{{l|{'c' * len(block.tokens)}}}\n"
            + f"{text_escape(block.token_label)} & {cells} \\\\ \\hline\n"
            + f"{text_escape(block.id_label)} & {ids}\n\\end{{tabular}}"
        )

    def _write_GivenMatrices(self, block: GivenMatrices) -> None:
        math = self.printer.math
        lines = [f"{math(block.first[0])} &= {math(block.first[1])}"]
        compact = " \\qquad ".join(f"{math(name)} = {math(m)}" for name, m in block.compact)
        lines.append(compact.replace(" = ", " &= ", 1))
        self.out.append("\\begin{align*}\n  " + " \\\\\n  ".join(lines) + "\n\\end{align*}")

    def _write_FromKey(self, block: FromKey[Block]) -> None:
        self.out += latex_blocks(block.blocks, self.printer, standalone=False)

    def _write_AnswerBoxes(self, block: AnswerBoxes) -> None:
        self.out.append(f"\\Needspace{{{block.lines + 2 * block.rows + 4}\\baselineskip}}")
        self.out.append(f"\\section*{{{text_escape(block.heading)}}}")
        cell = f"\\answerbox{{{block.width:.1f}}}"
        rows = " \\\\[10pt] ".join(" & ".join([cell] * block.cols) for _ in range(block.rows))
        boxes = "\\begin{bmatrix} " + rows + " \\end{bmatrix}"
        self.out.append(f"\\[ {self.printer.math(block.name)} = {boxes} \\]")
        self.out.append(
            f"\\textit{{{text_escape(block.working)}}}\\par\\vspace{{{block.lines}\\baselineskip}}"
        )

    def _write_KeySection(self, block: KeySection[Block]) -> None:
        self.out.append("\\Needspace{12\\baselineskip}")
        self.out.append(f"\\section*{{{text_escape(block.title)}}}")
        derived = latex_blocks(block.blocks, self.printer, standalone=False)
        self.out.append("\n".join(derived).rstrip())


def latex_blocks(blocks: Sequence[Block], printer: TexPrinter, standalone: bool) -> list[str]:
    return LatexWriter(printer, standalone).lines(blocks)


def render_latex(document: Document, printer: TexPrinter, *, standalone: bool) -> str:
    """A document as a LaTeX fragment (``standalone=False``) or a whole document (check's
    feedback: always a whole sheet, the answers' source under its title)."""
    if document.kind == "sheet":  # an exercise sheet, or the teacher's keys
        writer = LatexWriter(printer, True, sheet=True, lang=document.lang)
        boxes = any(isinstance(b, AnswerBoxes) for b in document.blocks)
        return tex_document(
            document.title,
            "\n\n".join(writer.lines(document)) + "\n",
            packages=("amsmath", "xcolor", "needspace"),
            parskip="5pt",
            preamble=(BOX,) if boxes else (),
        )
    if document.kind == "feedback":
        writer = LatexWriter(printer, True, sheet=True, lang=document.lang)
        sheet = "\n\n".join(writer.lines(document))
        packages = ("amsmath", "amssymb")
        return tex_document(
            document.title, sheet, packages=packages, after_title=tuple(writer.after_title)
        )
    body = latex_blocks(document.blocks, printer, standalone)
    if not standalone:
        head = "% symattn derivation: needs \\usepackage{amsmath}"
        return "\n".join([head, "", *body]).rstrip() + "\n"
    return tex_document(document.title, "\n".join(body))


def latex_voice(words: Words, digits: int = 4, notation: Notation | None = None) -> Voice:
    """LaTeX: words in text mode, formulas and entry names as inline math."""
    printer = TexPrinter(notation, digits)

    def math(node: object) -> str:
        return f"${printer.math(node)}$"  # type: ignore[arg-type]

    def entry(step: str, i: int, j: int) -> str:
        return f"${printer.math(Name(step, i, j))}$"

    return Voice(words, text_escape, math, entry)
