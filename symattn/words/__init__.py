"""Every word symattn shows a person, once per language: titles, sentences,
diagnoses, feedback and sheet words (:mod:`.en`, :mod:`.zh`).  Formulas are the same
in every language; only these words change.

>>> words("zh").title("h2.scores")
'第 2 个头 · 计算注意力分数'
>>> words("en")("derive.row", i=1, label=" (I)")
'Row 1 (I), written out:'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import SymattnError
from ..ids import split_id
from . import (
    classroom_en,
    classroom_zh,
    en,
    given_en,
    given_zh,
    notes_en,
    notes_zh,
    office_en,
    office_zh,
    summary_en,
    summary_zh,
    zh,
)

__all__ = ["LANGUAGES", "Words", "words"]

LANGUAGES = ("en", "zh")


@dataclass(frozen=True)
class Words:
    """The words of one language; ``words(key, **values)`` fills a sentence."""

    lang: str
    table: Mapping[str, str]

    def __call__(self, key: str, **values: object) -> str:
        return self.table[key].format(**values)

    def title(self, step_id: str, variant: str | None = None) -> str:
        """The title of a step (``variant`` picks another wording: ``X_given``, …);
        a head's step names its head."""
        head, base = split_id(step_id)
        key = f"title.{variant or base}"
        title = self.table.get(key, self.table.get(f"title.{base}", base))
        return self("head", head=head, title=title) if head is not None else title

    def heading(self, number: int, title: str) -> str:
        return self("step_heading", n=number, title=title)

    def has(self, key: str) -> bool:
        return key in self.table


_LANGUAGES = {
    "en": Words(
        "en",
        {
            **en.WORDS,
            **classroom_en.WORDS,
            **given_en.WORDS,
            **notes_en.WORDS,
            **office_en.WORDS,
            **summary_en.WORDS,
        },
    ),
    "zh": Words(
        "zh",
        {
            **zh.WORDS,
            **classroom_zh.WORDS,
            **given_zh.WORDS,
            **notes_zh.WORDS,
            **office_zh.WORDS,
            **summary_zh.WORDS,
        },
    ),
}


def words(lang: str) -> Words:
    """The words of one language (``en`` or ``zh``)."""
    try:
        return _LANGUAGES[lang]
    except KeyError:
        raise SymattnError(
            f"language: expected one of {', '.join(LANGUAGES)}, found {lang!r}"
        ) from None
