r"""User text for LaTeX text mode: the specials escaped, and every character pdflatex has
no glyph for written so that it still compiles.

A student may write ``6.3379·10⁻²``, ``0.5✓`` or a stray bidi override (U+202E) in an
answer, and the sheet quotes it.  pdflatex (T1, lmodern) typesets ASCII, Latin-1 and
Latin Extended-A and the usual punctuation; everything else is transliterated here, by
Unicode's own data where it can be: superscripts and subscripts by their compatibility
form (``\textsuperscript``, ``\textsubscript``), accented letters by their decomposition
(ǎ → ``\v{a}``), Greek letters and math signs as math, ✓ as ``\checkmark`` (amssymb,
which a standalone document then loads); control and format characters, and anything
else, as the visible code ``\uXXXX``.  CJK is kept: a document holding it is compiled with xelatex
(:func:`symattn.render.tex_document.needs_xelatex`).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["TEXT_MATH", "is_cjk", "text_escape", "untransliterate"]

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}
#: Math signs students and messages write in text, which pdflatex has no glyph for.
TEXT_MATH = {
    "−": "-",
    "√": r"\surd",
    "≤": r"\le",
    "≥": r"\ge",
    "≈": r"\approx",
    "∞": r"\infty",
    "→": r"\to",
    "′": "'",
}
#: More signs, set as math (not read back by the MathML side, unlike TEXT_MATH).
_MORE_MATH = {
    "⋅": r"\cdot",
    "∙": r"\cdot",
    "≠": r"\neq",
    "±": r"\pm",
    "∓": r"\mp",
    "∑": r"\sum",
    "∏": r"\prod",
    "∂": r"\partial",
    "∇": r"\nabla",
    "‖": r"\|",
    "…": r"\ldots",  # ASCII, so an English document or fragment needs no input encoding
    "∣": r"\mid",
    "⊙": r"\odot",
    "⊤": r"\top",
    "∈": r"\in",
    "⇒": r"\Rightarrow",
    "∗": "*",
    "✗": r"\times",
    "✘": r"\times",
}
_CHECKMARK = r"\ensuremath{\checkmark}"  # amssymb: a standalone document loads it then
#: Punctuation and arrows beyond Latin-1 that pdflatex's T1/TS1 encodings set.
_PDFLATEX_PUNCTUATION = frozenset("–—‘’‚“”„†‡•‰‹›€™←↑↓")
#: Combining accents on a letter, as LaTeX's text accents.
_ACCENTS = {
    "\u0300": "`",
    "\u0301": "'",
    "\u0302": "^",
    "\u0303": "~",
    "\u0304": "=",
    "\u0306": "u",
    "\u0307": ".",
    "\u0308": '"',
    "\u030a": "r",
    "\u030b": "H",
    "\u030c": "v",
    "\u0327": "c",
    "\u0328": "k",
}
#: Greek letters by their Unicode names: LaTeX's math command, or the Latin letter a
#: capital looks like (Alpha is A).
_GREEK_SMALL = frozenset(
    [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "pi",
        "rho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "chi",
        "psi",
        "omega",
    ]
)
_GREEK_CAPITAL = {
    **{
        n: f"\\ensuremath{{\\{n.capitalize()}}}"
        for n in [
            "gamma",
            "delta",
            "theta",
            "lambda",
            "xi",
            "pi",
            "sigma",
            "upsilon",
            "phi",
            "psi",
            "omega",
        ]
    },
    **dict(
        zip(
            [
                "alpha",
                "beta",
                "epsilon",
                "zeta",
                "eta",
                "iota",
                "kappa",
                "mu",
                "nu",
                "omicron",
                "rho",
                "tau",
                "chi",
            ],
            "ABEZHIKMNOPTX",
        )
    ),
}
_GREEK = re.compile(r"GREEK (SMALL|CAPITAL) LETTER (?:FINAL )?([A-Z]+)")
_SCRIPT_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿ]+|[₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎]+")

_SPECIALS = {
    **_LATEX_SPECIALS,
    **{sign: f"\\ensuremath{{{tex}}}" for sign, tex in {**TEXT_MATH, **_MORE_MATH}.items()},
    "✓": _CHECKMARK,
    "✔": _CHECKMARK,
}


def text_escape(text: str) -> str:
    """User text made safe for LaTeX text mode (for pdflatex unless it holds CJK).

    >>> text_escape("50% of a_1 & {x}")
    '50\\\\% of a\\\\_1 \\\\& \\\\{x\\\\}'
    >>> text_escape("−2 ≤ 9√2/4")
    '\\\\ensuremath{-}2 \\\\ensuremath{\\\\le} 9\\\\ensuremath{\\\\surd}2/4'
    >>> text_escape("01 — Ada"), text_escape("01 — 张伟")
    ('01 —{} Ada', '01 —~张伟')
    >>> print(text_escape("6.3379·10⁻² ǎ \u202e1"))
    6.3379·10\\textsuperscript{\\ensuremath{-}2} \\v{a} \\textbackslash{}u202e1
    """
    if text.isascii():
        escaped = "".join(_LATEX_SPECIALS.get(ch, ch) for ch in text)
    else:
        parts: list[str] = []
        last = 0
        for run in _SCRIPT_RUN.finditer(text):
            parts.append(_escape_chars(text[last : run.start()]))
            superscript = unicodedata.decomposition(run.group()[0]).startswith("<super>")
            command = "textsuperscript" if superscript else "textsubscript"
            plain = unicodedata.normalize("NFKC", run.group()).replace("-", "−")
            parts.append(f"\\{command}{{{_escape_chars(plain)}}}")
            last = run.end()
        parts.append(_escape_chars(text[last:]))
        escaped = "".join(parts)
    # xeCJK sets a dash as CJK punctuation and drops the space after it ("01 —Ada"): an
    # empty group keeps it before Latin text, a tie before CJK text; pdflatex minds neither.
    escaped = re.sub(r"([—–]) (?=[^\x00-\x7f])", r"\1~", escaped)
    return re.sub(r"([—–]) ", r"\1{} ", escaped)


def is_cjk(ch: str) -> bool:
    """A wide letter, digit or punctuation mark (Chinese, Japanese, Korean, fullwidth
    forms), which xelatex + xeCJK typesets; a wide emoji is not one."""
    wide = unicodedata.east_asian_width(ch) in ("W", "F")
    return wide and unicodedata.category(ch)[0] in "LNP"


def _escape_chars(text: str) -> str:
    return "".join(_escape_char(ch) for ch in text)


def _escape_char(ch: str) -> str:
    special = _SPECIALS.get(ch)
    if special is not None:
        return special
    code = ord(ch)
    if code < 0x80:
        return ch
    if unicodedata.category(ch)[0] == "C":  # control, format, surrogate, unassigned
        return _code(ch)
    if 0xA0 <= code <= 0x17F or ch in _PDFLATEX_PUNCTUATION:
        return ch
    if is_cjk(ch):  # the document asks for xelatex
        return ch
    return _transliterated(ch)


def _transliterated(ch: str) -> str:
    greek = _GREEK.fullmatch(unicodedata.name(ch, ""))
    if greek is not None:
        letter = greek.group(2).lower()
        if greek.group(1) == "CAPITAL" and letter in _GREEK_CAPITAL:
            return _GREEK_CAPITAL[letter]
        if letter in _GREEK_SMALL:
            return f"\\ensuremath{{\\{letter}}}"
        if letter == "omicron":
            return "o"
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], decomposed[1:]
    if marks and base.isascii() and all(m in _ACCENTS for m in marks):
        out = base
        for mark in marks:
            out = f"\\{_ACCENTS[mark]}{{{out}}}"
        return out
    compatible = unicodedata.normalize("NFKC", ch)
    if compatible != ch and all(ord(c) < 0x180 or c in _SPECIALS for c in compatible):
        return _escape_chars(compatible)
    return _code(ch)


def _code(ch: str) -> str:
    """The visible code of a character, as the terminal shows it (``\\u202e``)."""
    code = ord(ch)
    if code > 0xFFFF:
        code -= 0x10000
        high, low = 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)
        return f"\\textbackslash{{}}u{high:04x}\\textbackslash{{}}u{low:04x}"
    return f"\\textbackslash{{}}u{code:04x}"


_SUPERSCRIPTS = dict(zip("0123456789+−=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿ"))
_SUBSCRIPTS = dict(zip("0123456789+−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎"))
_SCRIPT = re.compile(r"\\(textsuperscript|textsubscript)\{((?:\\ensuremath\{-\}|[^{}\\])*)\}")
_ACCENTED = re.compile(r"\\([`'^~=u.\"rHvck])\{([A-Za-z])\}")
_ACCENT_MARKS = {tex: mark for mark, tex in _ACCENTS.items()}


def _back() -> dict[str, str]:
    """Each transliteration of :func:`_transliterated` and :data:`_MORE_MATH` → its character."""
    out: dict[str, str] = {}
    for sign, tex in _MORE_MATH.items():  # the first sign of a command: ⋅ for \cdot
        if tex != "*":
            out.setdefault(f"\\ensuremath{{{tex}}}", sign)
    out[_CHECKMARK] = "✓"
    for code in range(0x391, 0x3CA):
        ch = chr(code)
        written = _transliterated(ch) if unicodedata.name(ch, "") else ""
        if written.startswith("\\ensuremath"):
            out.setdefault(written, ch)
    return out


_BACK = _back()
_BACK_PATTERN = re.compile("|".join(re.escape(t) for t in sorted(_BACK, key=len, reverse=True)))


def untransliterate(text: str) -> str:
    r"""What :func:`text_escape` transliterated, read back (for the HTML outputs, which
    read LaTeX text back): superscripts, subscripts, Greek, math signs, ✓, accents.

    >>> untransliterate(r"10\textsuperscript{\ensuremath{-}2} \ensuremath{\alpha} \v{a}")
    '10⁻² α ǎ'
    """

    def script(match: re.Match[str]) -> str:
        table = _SUPERSCRIPTS if match.group(1) == "textsuperscript" else _SUBSCRIPTS
        inner = match.group(2).replace("\\ensuremath{-}", "−")
        return "".join(table.get(ch, ch) for ch in inner)

    text = _SCRIPT.sub(script, text)
    text = _BACK_PATTERN.sub(lambda m: _BACK[m.group()], text)
    accent = _ACCENT_MARKS
    return _ACCENTED.sub(
        lambda m: unicodedata.normalize("NFC", m.group(2) + accent[m.group(1)]), text
    )
