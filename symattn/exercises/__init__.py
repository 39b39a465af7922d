"""Seeded exercises with nice numbers (:mod:`.generate`, :mod:`.rules`), sheets and keys
(:mod:`.sheet`), and the files of one exercise (:mod:`.files`)."""

from .files import answers_json, answers_template, key_title, matrices_json, problem_toml
from .generate import Exercise, ExerciseOptions, exercise_seed, generate
from .sheet import render_sheet, render_summary

__all__ = [
    "Exercise",
    "ExerciseOptions",
    "answers_json",
    "answers_template",
    "exercise_seed",
    "generate",
    "key_title",
    "matrices_json",
    "problem_toml",
    "render_sheet",
    "render_summary",
]
