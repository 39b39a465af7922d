"""Seeded exercises with nice numbers (:mod:`.generate`), sheets and keys
(:mod:`.sheet`), and the files of a class set (:mod:`.files`)."""

from .files import answers_json, problem_toml, read_roster, write_class_set
from .generate import Exercise, ExerciseOptions, generate
from .moodle import QuizItem, moodle_quiz

__all__ = [
    "Exercise",
    "ExerciseOptions",
    "QuizItem",
    "answers_json",
    "generate",
    "moodle_quiz",
    "problem_toml",
    "read_roster",
    "write_class_set",
]
