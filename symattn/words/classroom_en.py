"""English words of grading a class: the report's columns and verdicts, why a file was
not marked, and Gradescope's messages (docs/classroom.md)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- grading a class -------------------------------------------------------------
    "grade.title": "Grades",
    "grade.student": "student",
    "grade.score": "points",
    "grade.verdict": "verdict",
    "grade.notes": "notes",
    "grade.verdict.correct": "correct",
    "grade.verdict.incorrect": "incorrect",
    "grade.verdict.missing": "nothing handed in",
    "grade.verdict.error": "not marked",
    "grade.points": "{score} of {max} points.",
    "grade.first_error": "First error: {step}.",
    "grade.unmatched": "not marked: {file}: {why}",
    "grade.note.unmarked": "{file} not marked: {why}",
    "grade.note.too_coarse": "too few places: {count} right entries written with fewer "
    "than {places} decimal places",
    "grade.why.outside": "a link that leads outside the submissions folder",
    "grade.why.unreadable": "cannot be read ({detail})",
    "grade.why.not_regular": "not a regular file",
    "grade.why.no_file": "the folder holds no answers file (.json, .toml or .csv)",
    "grade.why.several_files": "the folder holds several answers files and none is named "
    "answers.json",
    "grade.why.no_student": "matches no student's folder, id, email or name",
    "grade.why.page_other_student": "{file}: page_id {page_id} is {who}'s self-check page, "
    "not this student's; not marked (against either problem)",
    "grade.why.page_other_problem": "{file}: page_id {page_id} is a self-check page of "
    "another problem, not this student's; not marked",
    "gradescope.no_student": "No student of this class has the email or student id of "
    "{who}; ask your teacher to add you to the roster.",
    "gradescope.several_students": "This submission's group holds several students of the "
    "class ({who}); each hands in their own answers, on their own problem.",
    "grade.why.zip_member": "a member was not unpacked: {detail}",
    "grade.why.several_students": "matches more than one student ({detail})",
    "grade.moodle.points": "{file}: the grades are points out of {max} (the exercises' "
    "maximum), not percent: set the grade item's maximum grade to {most} in Moodle "
    "before importing",
    "grade.moodle.some_emails": "{file}: {names} have no email in the roster, so every "
    "row is matched by ID number: map 'ID number' to the users' ID number in Moodle",
    "grade.moodle.left_out": "{file}: {names} have neither an email nor an id in the "
    "roster and are left out of the import",
}
