"""Seeded exercises with nice numbers (:mod:`.generate`, :mod:`.rules`), sheets and keys
(:mod:`.sheet`), the files of one exercise (:mod:`.files`), and the Moodle quiz
(:mod:`.moodle`, its questions' documents :mod:`.question`, :mod:`.cloze`)."""

from ..load.topic_reading import LAYOUTS
from .files import answers_json, answers_template, key_title, matrices_json, problem_toml
from .generate import DRAWN, Exercise, ExerciseOptions, exercise_seed, generate
from .moodle import moodle_quiz
from .question import QuizItem, question_document
from .self_check import render_self_check
from .sheet import render_sheet, render_summary

__all__ = [
    "DRAWN",
    "LAYOUTS",
    "Exercise",
    "ExerciseOptions",
    "QuizItem",
    "answers_json",
    "answers_template",
    "exercise_seed",
    "generate",
    "key_title",
    "matrices_json",
    "moodle_quiz",
    "problem_toml",
    "question_document",
    "render_self_check",
    "render_sheet",
    "render_summary",
]
