"""Fuzz classes about files and text (issue 23): output paths that collide with inputs or
with each other, Unicode controls in every text that reaches the terminal, and CSV files
at their limits.  Each ``*_case(seed, root, tally)`` makes one case in the empty folder
``root`` from its seed and counts what it finds (tests/fuzz_harness.py).
"""

from __future__ import annotations

import atexit
import json
import os
import random
import shutil
import tempfile
import unicodedata
from pathlib import Path

from .fuzz_harness import Tally, changes, judge, one_error_line, run, snapshot
from .helpers import ROOT

SEED = ROOT / "symattn" / "examples" / "seed.toml"
ANSWERS = {"weights": [["0.1070", "0.8930"], [1, 0]], "scores": [[2, 5], [1, 3]]}
_TEMPLATE: list[Path] = []


def _class_template() -> Path:
    """A class set of one student (Ada) and her right answers, made once per process."""
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="symattn-fuzz-class-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        (folder / "roster.csv").write_text("name,email\nAda,ada@x.org\n", encoding="utf-8")
        argv = ["exercises", "--seed", "1", "--level", "1", "--students"]
        done = run([*argv, str(folder / "roster.csv"), "-o", str(folder / "cls")], budget=False)
        assert done.status == 0, done.err
        _TEMPLATE.append(folder)
    return _TEMPLATE[0]


def _fixtures(root: Path) -> None:
    template = _class_template()
    shutil.copy(SEED, root / "p.toml")
    (root / "a.json").write_text(json.dumps(ANSWERS), encoding="utf-8")
    (root / "answers").mkdir()
    (root / "answers" / "a1.json").write_text(json.dumps(ANSWERS), encoding="utf-8")
    shutil.copy(template / "roster.csv", root / "roster.csv")
    shutil.copytree(template / "cls", root / "cls")
    (root / "subs").mkdir()
    shutil.copy(template / "cls" / "teacher" / "Ada" / "answers.json", root / "subs" / "Ada.json")


# -- output paths that collide ----------------------------------------------------------------
#: Each command: its fixed arguments, its inputs (path, a folder?), and its outputs
#: (option, a fresh path, a folder?); the first output of ``derive`` and ``check`` is
#: their only one.
COMMANDS: dict[str, tuple[list[str], list[tuple[str, bool]], list[tuple[str, str, bool]]]] = {
    "derive": (["derive", "p.toml"], [("p.toml", False)], [("-o", "out.txt", False)]),
    "check": (
        ["check", "p.toml", "a.json"],
        [("p.toml", False), ("a.json", False)],
        [("-o", "out.txt", False)],
    ),
    "check-class": (
        ["check", "p.toml", "answers"],
        [("p.toml", False), ("answers", True)],
        [("--report", "report.csv", False), ("-o", "out.txt", False)],
    ),
    "exercises": (
        ["exercises", "--seed", "2", "--level", "1", "--students", "roster.csv"],
        [("roster.csv", False)],
        [("-o", "set", True), ("--moodle", "quiz.xml", False), ("--gradescope", "ag.zip", False)],
    ),
    "grade": (
        ["grade", "cls", "subs", "--feedback-format", "html"],
        [("cls", True), ("subs", True)],
        [
            ("--report", "grades.csv", False),
            ("--moodle-grades", "moodle.csv", False),
            ("--feedback", "fb", True),
            ("--summary", "summary.html", False),
            ("-o", "out.txt", False),
        ],
    ),
}
#: Commands whose first output must be given (``exercises -o DIR``).
REQUIRED = {"exercises"}
INSIDE = {
    "cls": ["cls/class.json", "cls/teacher/Ada/problem.toml", "cls/teacher"],
    "subs": ["subs/Ada.json"],
    "answers": ["answers/a1.json"],
}


def _spelled(rng: random.Random, root: Path, target: str, exists: bool, k: int) -> str:
    """``target`` (relative to ``root``) as another name of the same place: ``./x``, an
    absolute path, ``d/../x``, a symbolic link or a hard link made for it now."""
    ways = ["same", "dot", "absolute", "updown", "symlink"]
    if exists and (root / target).is_file():
        ways.append("hardlink")
    way = rng.choice(ways)
    if way == "dot":
        return "./" + target
    if way == "absolute":
        return str(root / target)
    if way == "updown":
        return f"answers/../{target}"
    if way == "symlink":
        link = root / f"link{k}"
        link.symlink_to(root / target)
        return link.name
    if way == "hardlink":
        link = root / f"hard{k}"
        os.link(root / target, link)
        return link.name
    return target


def collision_case(seed: int, root: Path, tally: Tally) -> None:
    """A command whose outputs include one that is an input, inside an input folder, or
    another output: refused (exit 2, one line) before anything is written."""
    rng = random.Random(seed)
    _fixtures(root)
    name = rng.choice(sorted(COMMANDS))
    fixed, inputs, outputs = COMMANDS[name]
    chosen = [
        o for k, o in enumerate(outputs) if rng.random() < 0.6 or (k == 0 and name in REQUIRED)
    ]
    chosen = chosen or [outputs[0]]
    victim = rng.randrange(len(chosen))
    option, _, is_folder = chosen[victim]
    places: list[tuple[str, bool]] = list(inputs)
    for path, _ in inputs:
        places += [(inner, (root / inner).exists()) for inner in INSIDE.get(path, [])]
    for k, (_, fresh, folder) in enumerate(chosen):
        if k != victim:
            places.append((fresh, False))
            if folder:
                places.append((f"{fresh}/x.csv", False))
    target, _ = rng.choice(places)
    if is_folder and not (root / target).is_dir() and rng.random() < 0.5:
        target = rng.choice([p for p, folder in inputs if folder] or ["."])
    spelled = _spelled(rng, root, target, (root / target).exists(), 0)
    argv = list(fixed)
    for k, (opt, fresh, _folder) in enumerate(chosen):
        argv += [opt, spelled if k == victim else fresh]
    before = snapshot(root)
    done = run(argv, cwd=root, budget=name not in ("exercises",))
    label = f"collision {seed}: {name} {option} {spelled!r} ({target})"
    changed, made = changes(before, snapshot(root))
    if changed:
        tally.runs += 1
        tally.fail("clobber", f"{label}: {changed[:5]} changed; {done.err[:300]}")
        return
    if not judge(tally, label, done, (2,)):
        return
    if not one_error_line(done.err) or made:
        tally.fail("mismatch", f"{label}: made {made[:5]}; {done.err[:300]}")


# -- Unicode controls on the terminal ---------------------------------------------------------
CONTROLS = [
    "\u202e", "\u202a", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c",
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\U000e0041",
    "\x1b[31m", "\x1b]0;x\x07", "\x07", "\x08", "\r", "\x0b", "\x0c", "\x7f",
    "\x85", "\x9b", "\x90", "\x9d",
]  # fmt: skip


def raw_controls(text: str) -> list[str]:
    """The characters of ``text`` that must never reach a terminal as they are: control
    characters but newline and tab, format characters (bidi, zero-width), surrogates."""
    bad = {"Cc", "Cf", "Cs"}
    return sorted(
        {f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in bad} - {"U+000A", "U+0009"}
    )


def _dirty(rng: random.Random, text: str) -> str:
    cut = rng.randrange(len(text) + 1)
    return text[:cut] + "".join(rng.choice(CONTROLS) for _ in range(rng.randint(1, 3))) + text[cut:]


def escaped(char: str) -> str:
    """``char`` as symattn writes it: ``\\u202e`` (beyond U+FFFF, its UTF-16 pair)."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _controls_argv(rng: random.Random, root: Path) -> tuple[str, list[str], str]:
    """One command whose inputs carry controls in a title, tokens, a file name, an answer,
    a roster field or a submission's name; and a text the output must show escaped."""
    where = rng.choice(["title", "tokens", "file name", "answer", "roster", "submission"])
    if where in ("title", "tokens", "file name"):
        problem = {"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 2], [0, 1]]}
        problem["W_V"] = [[1, 0], [1, 1]]
        if where == "title":
            problem["title"] = _dirty(rng, "Attention")
        if where == "tokens":
            problem["tokens"] = [_dirty(rng, "ab"), _dirty(rng, "cd")]
        if rng.random() < 0.3:
            problem["W_K"][0][1] = _dirty(rng, "2")  # a bad value: the error quotes it
        name = _dirty(rng, "p").replace("\x00", "") if where == "file name" else "p"
        path = root / f"{name}.json"
        path.write_text(json.dumps(problem), encoding="utf-8")
        fmt = rng.choice(["text", "text", "json", "markdown"])
        shown = problem.get("title", "") if problem["W_K"][0][1] == 2 else ""
        return where, ["derive", str(path), "--format", fmt, "--rows", "all"], str(shown)
    if where == "answer":
        given = _dirty(rng, "0.1070")
        answers: dict[str, object] = {"weights": [[given, "0.8930"], [1, 0]]}
        if rng.random() < 0.3:
            answers[_dirty(rng, "scores")] = [[2, 5], [1, 3]]
        path = root / f"{_dirty(rng, 'a') if rng.random() < 0.3 else 'a'}.json"
        path.write_text(json.dumps(answers), encoding="utf-8")
        fmt = rng.choice(["text", "text", "json"])
        lang = rng.choice(["en", "zh"])
        shown = given if fmt == "text" and len(answers) == 1 else ""
        return where, ["check", str(SEED), str(path), "--format", fmt, "--lang", lang], shown
    if where == "roster":
        fields = [_dirty(rng, "Ada"), _dirty(rng, "s1"), "ada@x.org"]
        if rng.random() < 0.5:
            fields[2] = _dirty(rng, fields[2])
        line = ",".join(json.dumps(f) for f in fields)
        (root / "roster.csv").write_text(f"name,id,email\n{line}\n", encoding="utf-8")
        argv = ["exercises", "--seed", "1", "--level", "1", "--students", str(root / "roster.csv")]
        return where, [*argv, "-o", str(root / "set")], ""
    _fixtures(root)
    subs = root / "subs"
    (subs / "Ada.json").rename(subs / f"{_dirty(rng, 'Ada')}.json")
    (subs / f"{_dirty(rng, 'Bob')}.pdf").write_bytes(b"%PDF")
    fmt = rng.choice(["text", "json"])
    return where, ["grade", str(root / "cls"), str(subs), "--format", fmt], ""


def controls_case(seed: int, root: Path, tally: Tally) -> None:
    """Controls in every text that reaches the terminal are escaped (``\\u202e``)."""
    rng = random.Random(seed)
    where, argv, shown = _controls_argv(rng, root)
    done = run(argv, budget=argv[0] != "exercises")
    label = f"controls {seed}: {where}: {argv[:2]}"
    if not judge(tally, label, done, (0, 1, 2)):
        return
    raw = raw_controls(done.out + done.err)
    if raw:
        tally.fail("mismatch", f"{label}: {raw} raw on the terminal")
        return
    # an answer's ends are stripped; a heading makes whitespace (\x0b, \x85) one space
    wanted = {c for c in shown.strip() if raw_controls(c) and not c.isspace()}
    short = {"\b": "\\b", "\f": "\\f", "\r": "\\r"}  # JSON's own escapes
    out = done.out.lower()
    missing = sorted(
        escaped(c) for c in wanted if escaped(c) not in out and short.get(c, escaped(c)) not in out
    )
    if done.status in (0, 1) and missing:
        tally.fail("mismatch", f"{label}: {missing} not shown escaped")


# -- CSV files at their limits -----------------------------------------------------------------
MAX_FIELD = 131_072


def csv_case(seed: int, root: Path, tally: Tally, many: int = 3000) -> None:
    """A CSV answers file or roster with a long field, an entry or a student given twice,
    or many rows: read, or refused in one line naming the line; never a hang."""
    rng = random.Random(seed)
    kind = rng.choice(["long", "twice", "many", "roster-long", "roster-twice", "roster-many"])
    sep = rng.choice([",", ";", "\t"])
    head = sep.join(["step", "row", "col", "value"])
    rows = [["weights", "1", "1", "0.1070"], ["weights", "1", "2", "0.8930"]]
    expect_line: int | None = None
    if kind == "long":
        size = rng.choice([MAX_FIELD - 1, MAX_FIELD, MAX_FIELD + 1, 4 * MAX_FIELD])
        rows.insert(1, ["scores", "1", "1", "1" * size])
        expect_line = 3 if size > MAX_FIELD else None
    elif kind == "twice":
        again = rng.choice(["weights", "Weights", " weights", "WEIGHTS"])
        rows.append([again, rng.choice(["1", " 1", "01"]), "2", rng.choice(["0.8930", "0.5"])])
        expect_line = 4
    elif kind == "many":
        for k in range(rng.choice([many // 3, many])):
            rows.append(["scores", str(k // 2 + 1), str(k % 2 + 1), str(k)])
    if kind.startswith("roster"):
        _roster_case(rng, kind, root, tally, many)
        return
    text = head + "\n" + "\n".join(sep.join(f'"{c}"' if sep in c else c for c in r) for r in rows)
    (root / "a.csv").write_text(text + "\n", encoding="utf-8")
    done = run(["check", str(SEED), str(root / "a.csv")])
    label = f"csv {seed}: {kind}, separator {sep!r}"
    if not judge(tally, label, done, (0, 1, 2)):
        return
    if expect_line is not None and (
        done.status != 2 or not one_error_line(done.err) or f"line {expect_line}" not in done.err
    ):
        tally.fail("mismatch", f"{label}: exit {done.status}: {done.err[:300]}")
    elif kind == "twice" and "line 3" not in done.err:
        tally.fail("mismatch", f"{label}: the first line is not named: {done.err[:300]}")


def _roster_case(rng: random.Random, kind: str, root: Path, tally: Tally, many: int) -> None:
    lines = ["name,id,email", "Ada,s1,ada@x.org"]
    if kind == "roster-long":
        lines.append("B" * rng.choice([250, MAX_FIELD + 1]) + ",s2,b@x.org")
    elif kind == "roster-twice":
        lines.append(rng.choice(["Ada,s2,ada2@x.org", "Ada,s1,ada@x.org", "Bea,s1,bea@x.org"]))
    else:
        lines += [f"Student {k},t{k},t{k}@x.org" for k in range(max(many, 1001))]
    (root / "roster.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["exercises", "--seed", "1", "--level", "1", "--students", str(root / "roster.csv")]
    done = run([*argv, "-o", str(root / "set")], budget=False)
    label = f"csv roster: {kind}"
    if not judge(tally, label, done, (0, 2)):
        return
    if done.status == 2 and not one_error_line(done.err):
        tally.fail("mismatch", f"{label}: {done.err[:300]}")
    if kind in ("roster-long", "roster-many") and done.status != 2:
        tally.fail("mismatch", f"{label}: a name past the limit or a roster past 1,000 was read")
