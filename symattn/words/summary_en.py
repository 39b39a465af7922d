"""English words of the class at a glance (``grade --summary``; docs/classroom.md)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    "summary.title": "The class at a glance: {name}",
    "summary.counts": "{students} students: {marked} marked, {missing} handed nothing in, "
    "{unmarked} not marked (a file that could not be read).",
    "summary.first_error": "Most common first error: {steps} ({count} of {students} students: "
    "{names}).",
    "summary.no_first_error": "No marked student made an error.",
    "summary.steps": "Each step",
    "summary.steps_about": "The share of the class per step: right, wrong but right from "
    "the student's own earlier answers (carried forward), wrong, and missing (not answered "
    "or not marked).",
    "summary.step": "step",
    "summary.group.right": "right",
    "summary.group.carried": "carried forward",
    "summary.group.wrong": "wrong",
    "summary.group.missing": "missing",
    "summary.mistakes": "The mistakes",
    "summary.mistakes_about": "Each mistake the diagnosis named, with the students who made it "
    "(once per student) and the steps where it showed.",
    "summary.mistake": "mistake",
    "summary.in_steps": "in",
    "summary.students": "students",
    "summary.names": "who",
    "summary.no_mistakes": "No mistake was named.",
    "summary.first_errors": "First errors",
    "summary.scores": "Scores",
    "summary.scores_about": "The marked students' scores, in percent of the points.",
    "summary.bin": "{lo}–{hi} %",
}
