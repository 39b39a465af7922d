"""The type of every block a writer may be given, :data:`Block`: the union of the blocks
of each producer's module — a derivation's (:mod:`.blocks`), check's feedback
(:mod:`.check_blocks`), the exercise sheet's (:mod:`.sheet_blocks`), the class reports'
(:mod:`.report_blocks`), the self-check page's (:mod:`.page_blocks`) and the Moodle
question's (:mod:`.quiz_blocks`).

It is a name for the type checker: at run time it loads none of those modules, so a
derivation loads the blocks of a derivation only (start-up, issue 24).  Every module names
it in annotations alone (``from __future__ import annotations``); at run time ``Block`` is a
stand-in, ``object``, which every block is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

__all__ = ["Block"]

if TYPE_CHECKING:
    from .blocks import Display, Heading, Heatmap, Sentence
    from .check_blocks import AnswerBox, CheckedStep, Diagnoses, EntryList, Remark, Verdict
    from .page_blocks import Main, PageBlock, PageSection
    from .quiz_blocks import QuizTable
    from .report_blocks import (
        Bars,
        Columns,
        Counts,
        Headline,
        Histogram,
        Legend,
        Notice,
        SubHeading,
    )
    from .sheet_blocks import (
        AnswerBoxes,
        FromKey,
        GivenMatrices,
        KeySection,
        NameLine,
        Tokens,
        Vocabulary,
    )

    #: Every block a writer may be given (a checked step's own blocks among them).
    Block = Union[
        Heading,
        Sentence,
        Display,
        Heatmap,
        Verdict,
        CheckedStep["Block"],
        Remark,
        EntryList,
        Diagnoses,
        AnswerBox["Block"],
        NameLine,
        Tokens,
        Vocabulary,
        GivenMatrices,
        FromKey["Block"],
        AnswerBoxes,
        KeySection["Block"],
        Headline,
        SubHeading,
        Legend,
        Bars,
        Counts,
        Histogram,
        Columns,
        Notice,
        QuizTable,
        PageBlock,
        Main["Block"],
        PageSection["Block"],
    ]
else:
    Block = object  # the stand-in: a name for annotations, which are not evaluated
