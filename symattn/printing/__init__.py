"""Printers of exact values, one per target, dispatched on the value's type: SymPy
``str`` syntax (:mod:`.sympy_str`), Unicode for the terminal (:mod:`.unicode`) and
LaTeX (:mod:`.latex`), bracketing by one precedence table (:mod:`.precedence`); and
the names of matrices and entries (:mod:`.notation`)."""

from .latex import LatexPrinter, fmt_decimal, fraction_latex, latex_value
from .notation import PRESETS, TERMINAL, Names, Notation, TerminalNames, add_names
from .precedence import Prec, is_negative, precedence
from .sympy_str import StrPrinter, fraction_str, sstr
from .unicode import UnicodePrinter, pretty, superscript

__all__ = [
    "PRESETS",
    "TERMINAL",
    "LatexPrinter",
    "Names",
    "Notation",
    "Prec",
    "StrPrinter",
    "TerminalNames",
    "UnicodePrinter",
    "add_names",
    "fmt_decimal",
    "fraction_latex",
    "fraction_str",
    "is_negative",
    "latex_value",
    "precedence",
    "pretty",
    "sstr",
    "superscript",
]
