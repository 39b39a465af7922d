"""Seeded exercises with nice numbers (:mod:`.generate`), sheets and keys
(:mod:`.sheet`), and the files of a class set (:mod:`.files`)."""

from .files import answers_json, problem_toml, read_roster, write_class_set
from .generate import Exercise, ExerciseOptions, generate

__all__ = [
    "Exercise",
    "ExerciseOptions",
    "answers_json",
    "generate",
    "problem_toml",
    "read_roster",
    "write_class_set",
]
