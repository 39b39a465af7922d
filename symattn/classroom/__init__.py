"""A class: the roster (:mod:`.roster`), the class set and its manifest (:mod:`.layout`,
:mod:`.manifest`), matching submissions to students (:mod:`.submissions`), grading with
points (:mod:`.grading`), the reports (:mod:`.reports`), the class at a glance
(:mod:`.summary`, :mod:`.summary_html`) and feedback sheets
(:mod:`.feedback_files`)."""

from .feedback_files import FeedbackSheet, write_feedback
from .grading import ClassGrades, Graded, StepMark, grade_class, step_marks
from .layout import check_target, manifest_for, quiz_items, self_check_page, write_class
from .manifest import MANIFEST, Entry, Manifest, read_manifest
from .reports import (
    csv_cell,
    grades_csv,
    grades_json,
    grades_text,
    moodle_grades_csv,
    moodle_grades_notes,
    points,
)
from .roster import Student, folder_name, read_roster
from .submissions import Matched, Skipped, match_submissions
from .summary import ClassSummary, summarize, summary_csv
from .summary_html import render_summary_html

__all__ = [
    "MANIFEST",
    "ClassGrades",
    "ClassSummary",
    "Entry",
    "FeedbackSheet",
    "Graded",
    "Manifest",
    "Matched",
    "Skipped",
    "StepMark",
    "Student",
    "check_target",
    "csv_cell",
    "folder_name",
    "grade_class",
    "grades_csv",
    "grades_json",
    "grades_text",
    "manifest_for",
    "match_submissions",
    "moodle_grades_csv",
    "moodle_grades_notes",
    "points",
    "quiz_items",
    "read_manifest",
    "read_roster",
    "render_summary_html",
    "self_check_page",
    "step_marks",
    "summarize",
    "summary_csv",
    "write_class",
    "write_feedback",
]
