"""Issue 14, item 3 and the low items about files: ``-o`` writes through links, writes
special files in place or refuses them, reports a full device, follows the umask, leaves
no temporary file; ``exercises -o`` does not mix two sets; messages stay short and inert.
"""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.errors import _UNSAFE, _UNSAFE_IN_LINE, SymattnError, _escape, shorten, visible
from symattn.output import _open_output, csv_cell, write_output

from .helpers import ROOT, run_cli

SEED = str(ROOT / "symattn" / "examples" / "seed.toml")


def _one_error(err: str) -> str:
    assert err.startswith("symattn: error: ") and err.count("\n") == 1, err
    assert "internal error" not in err and "Traceback" not in err
    return err


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_symlink_target_is_written_through_not_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_output("new\n", link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new\n"
    assert _leftovers(tmp_path) == []


def test_symlink_to_a_new_file_in_another_folder(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "out.txt"
    link.symlink_to(elsewhere / "made.txt")  # dangling: the file is made where it points
    status, out, err = run_cli(["derive", SEED, "-o", str(link)])
    assert (status, out, err) == (0, "", "")
    assert link.is_symlink()
    assert "self-attention by hand" in (elsewhere / "made.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_new_files_follow_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        write_output("x\n", tmp_path / "new.txt")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o666 & ~umask


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    write_output("new\n", target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.read_text(encoding="utf-8") == "new\n"


def test_dev_null_is_written_in_place() -> None:
    before = os.stat("/dev/null")
    assert stat.S_ISCHR(before.st_mode)
    status, out, err = run_cli(["derive", SEED, "-o", "/dev/null"])
    assert (status, out, err) == (0, "", "")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_device_is_exit_2_not_0() -> None:
    status, out, err = run_cli(["derive", SEED, "-o", "/dev/full"])
    assert status == 2 and out == ""
    assert "No space left on device" in _one_error(err)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_link_to_a_full_device_is_written_in_place(tmp_path: Path) -> None:
    link = tmp_path / "full"
    link.symlink_to("/dev/full")
    status, _, err = run_cli(["derive", SEED, "-o", str(link)])
    assert status == 2 and "No space left on device" in _one_error(err)
    assert link.is_symlink() and _leftovers(tmp_path) == []


def test_a_fifo_without_a_reader_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    status, _, err = run_cli(["derive", SEED, "-o", str(fifo)])
    assert status == 2 and "nobody reads" in _one_error(err)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert _leftovers(tmp_path) == []


def test_a_fifo_with_a_reader_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader (the output fits the pipe)
    try:
        status, out, err = run_cli(["derive", SEED, "-o", str(fifo)])
        got.append(os.read(fd, 1 << 20))
    finally:
        os.close(fd)
    assert (status, out, err) == (0, "", "")
    assert got and "self-attention by hand" in got[0].decode("utf-8")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("path", ["/proc/symattn-test", "/sys/symattn-test", "/proc/self/comm"])
def test_kernel_files_are_refused(path: str) -> None:
    status, _, err = run_cli(["derive", SEED, "-o", path])
    assert status == 2 and "kernel" in _one_error(err)


@pytest.mark.skipif(not os.path.exists("/dev/loop0"), reason="no block device to point at")
def test_a_block_device_is_refused() -> None:
    status, _, err = run_cli(["derive", SEED, "-o", "/dev/loop0"])
    assert status == 2 and "block device" in _one_error(err)


def test_other_character_devices_are_refused(tmp_path: Path) -> None:
    if not os.path.exists("/dev/tty0") and not os.path.exists("/dev/random"):
        pytest.skip("no other character device")
    device = "/dev/random"  # not a terminal, not one of null/zero/full
    status, _, err = run_cli(["derive", SEED, "-o", device])
    assert status == 2 and "is a device" in _one_error(err)


def test_an_error_while_writing_removes_the_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    for error in (KeyboardInterrupt, RuntimeError):
        with pytest.raises(error), _open_output(target) as handle:
            handle.write("half")
            raise error()
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path) == []


def test_sigterm_removes_the_temporary_file(tmp_path: Path) -> None:
    """A real process stopped by SIGTERM in the middle of a write: status 143, the old file
    as it was, no temporary file."""
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    script = (
        "import os, signal, sys, time\n"
        "from symattn.output import _open_output, terminate_cleanly\n"
        "with terminate_cleanly():\n"
        f"    with _open_output({str(target)!r}) as h:\n"
        "        h.write('half')\n"
        "        print('ready', flush=True)\n"
        "        time.sleep(30)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 143
    assert err.decode() == "symattn: terminated\n"
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path) == []


def test_a_long_target_name_still_gets_a_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / ("n" * 250)
    write_output("x\n", target)
    assert target.read_text(encoding="utf-8") == "x\n"


def test_control_characters_never_reach_the_output(tmp_path: Path) -> None:
    write_output("a\x1b]0;pwned\x07\x9b31m\ud800\tb\n", tmp_path / "o.txt")
    written = (tmp_path / "o.txt").read_text(encoding="utf-8")
    assert written == "a\\u001b]0;pwned\\u0007\\u009b31m\\ud800\tb\n"


def test_d25_escape_sequences_in_titles_are_shown_not_obeyed() -> None:
    problem = ROOT / "tests" / "data" / "reliability" / "d25_ansi_title.toml"
    for fmt in ("text", "markdown", "latex", "html", "json"):
        status, out, err = run_cli(["derive", str(problem), "--format", fmt])
        assert (status, err) == (0, ""), fmt
        assert "\x1b" not in out and "\x07" not in out, fmt
    assert "\\u001b]0;pwned\\u0007\\u001b[31mRED" in run_cli(["derive", str(problem)])[1]


def test_d25_variant_escape_sequences_in_tokens_and_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        'tokens = ["\\u001b[31mred", "\\u009b2J"]\nX = [[1], [2]]\n'
        "W_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]\n",
        encoding="utf-8",
    )
    status, out, err = run_cli(["derive", str(path), "--rows", "all"])
    assert status == 0 and "\x1b" not in out and "\x9b" not in out
    assert "\\u001b[31mred" in out
    path.write_text('X = [["\\u001b]0;pwned\\u0007"]]\nW_Q = [[1]]\n', encoding="utf-8")
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2 and "\x1b" not in _one_error(err) and "\x07" not in err


def test_d17_a_lone_surrogate_in_a_title_is_written_escaped() -> None:
    problem = ROOT / "tests" / "data" / "reliability" / "d17_surrogate_title.json"
    for fmt in ("text", "json", "markdown", "latex", "html"):
        status, out, err = run_cli(["derive", str(problem), "--format", fmt])
        assert (status, err) == (0, ""), fmt
        assert "\\ud800" in out or fmt == "latex", fmt  # the fragment has no title
        out.encode("utf-8")  # every character can be written


def test_messages_cut_a_huge_value(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        '{"X": [["' + "x" * 1_000_000 + '"]], "W_Q": [[1]], "W_K": [[1]], "W_V": [[1]]}',
        encoding="utf-8",
    )
    status, _, err = run_cli(["derive", str(path)])
    assert status == 2
    line = _one_error(err)
    assert len(line) < 1000 and "characters left out" in line and "X row 1, column 1" in line


def test_shorten_and_visible() -> None:
    assert shorten("abc") == "abc"
    cut = shorten("a" * 1000 + "END", 60)
    assert cut.startswith("a" * 30) and cut.endswith("aEND") and "left out" in cut
    assert visible("x\ny", one_line=True) == "x\\u000ay"
    assert visible("x\ny") == "x\ny"
    assert str(SymattnError("p: bad \x1b[2J")) == "p: bad \\u001b[2J"


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=1+1.json", "'=1+1.json"),
        ("@SUM(A1).json", "'@SUM(A1).json"),
        ("+1.json", "'+1.json"),
        ("-2.json", "'-2.json"),
        ("a\rb.json", "a\\u000db.json"),
        ("a\nb", "a\\u000ab"),
        ("\udcff.json", "\\udcff.json"),
        ("ok.json", "ok.json"),
        ("a=b.json", "a=b.json"),
    ],
)
def test_csv_cell(text: str, cell: str) -> None:
    assert csv_cell(text) == cell


def test_exercises_refuse_a_folder_that_holds_files(tmp_path: Path) -> None:
    folder = tmp_path / "week5"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    argv = ["exercises", "--seed", "1", "--count", "1", "--level", "1", "-o", str(folder)]
    for extra in ([], ["--replace"]):  # not a class set: refused, even when asked to replace
        status, _, err = run_cli([*argv, *extra])
        assert status == 2 and "not empty" in _one_error(err)
        assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_exercises_into_a_new_or_empty_folder_need_no_flag(tmp_path: Path) -> None:
    for folder in (tmp_path / "new", tmp_path / "empty"):
        if folder.name == "empty":
            folder.mkdir()
        argv = ["exercises", "--seed", "1", "--count", "1", "--level", "1", "-o", str(folder)]
        status, _, err = run_cli(argv)
        assert status == 0 and (folder / "class.json").is_file(), err


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.characters(max_codepoint=0xFF), max_size=40)
    | st.text(max_size=40)
    | st.text(alphabet=st.sampled_from("ab \t\n\x00\x1b\x7f\x85\x9b"), max_size=20),
    one_line=st.booleans(),
)
def test_visible_fast_path_agrees_with_the_pattern(text: str, one_line: bool) -> None:
    # ASCII text is looked over by bytes.translate, the rest by the pattern: the same answer
    pattern = re.compile(_UNSAFE_IN_LINE if one_line else _UNSAFE)
    assert visible(text, one_line=one_line) == pattern.sub(_escape, text)


def test_every_character_the_pattern_escapes_is_one_isprintable_refuses() -> None:
    """What lets visible() skip the pattern for non-ASCII text that str.isprintable()
    accepts (tabs and newlines aside): every character the pattern escapes, over all of
    Unicode, is one that isprintable() refuses."""
    pattern = re.compile(_UNSAFE_IN_LINE)
    escaped = [chr(code) for code in range(0x110000) if pattern.match(chr(code))]
    assert len(escaped) > 2000 and not any(ch.isprintable() for ch in escaped)
    for ch in ("\u202e", "\u200b", "\x85", "\ud800", "\U000e0041"):
        assert visible(f"我{ch}", one_line=False) != f"我{ch}"


# Reliability turn 3, r08 and r14: every writing command looks at all its inputs and
# outputs before it writes anything (symattn.output.check_paths).

_TINY = "".join(f"{m} = [[1, 0], [0, 1]]\n" for m in ("X", "W_Q", "W_K", "W_V"))


def _refused(argv: list[str], *named: str) -> str:
    status, out, err = run_cli(argv)
    assert status == 2 and out == "", (status, err)
    line = _one_error(err.splitlines(keepends=True)[-1] if err.count("\n") > 1 else err)
    for name in named:
        assert name in line, line
    return line


def _class_set(tmp_path: Path, name: str = "set") -> tuple[Path, Path]:
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\nAda,ada@x.org\n", encoding="utf-8")
    folder = tmp_path / name
    argv = ["exercises", "--seed", "1", "--students", str(roster), "-o", str(folder)]
    assert run_cli(argv)[0] == 0
    return roster, folder


def test_r08_moodle_over_the_roster_is_refused(tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\nAda,ada@x.org\n", encoding="utf-8")
    args = ["exercises", "--seed", "1", "--students", str(roster), "-o", str(tmp_path / "c")]
    _refused([*args, "--moodle", str(roster)], "--moodle", "--students", "same file")
    assert roster.read_text(encoding="utf-8") == "name,email\nAda,ada@x.org\n"
    assert not (tmp_path / "c").exists()
    link = tmp_path / "quiz.xml"  # unseen: through a link to the roster
    link.symlink_to(roster)
    _refused([*args, "--moodle", str(link)], "same file")
    assert roster.read_text(encoding="utf-8").startswith("name,email")


def test_r08_outputs_inside_the_class_folder_are_refused(tmp_path: Path) -> None:
    roster, folder = _class_set(tmp_path)
    manifest = (folder / "class.json").read_text(encoding="utf-8")
    base = ["exercises", "--seed", "1", "--students", str(roster), "-o", str(folder), "--replace"]
    _refused([*base, "--moodle", str(folder / "class.json")], "lies inside", "-o")
    link = tmp_path / "quiz.xml"  # unseen: a link into the set
    link.symlink_to(folder / "teacher" / "keys.tex")
    _refused([*base, "--moodle", str(link)], "lies inside")
    roster_inside = folder / "roster.csv"  # unseen: --replace would remove the roster
    roster_inside.write_text("name\nAda\n", encoding="utf-8")
    _refused(
        [
            "exercises",
            "--seed",
            "1",
            "--students",
            str(roster_inside),
            "-o",
            str(folder),
            "--replace",
        ],
        "holds",
    )
    assert (folder / "class.json").read_text(encoding="utf-8") == manifest
    assert roster_inside.exists()


def test_r08_derive_over_its_problem_is_refused(tmp_path: Path) -> None:
    problem = tmp_path / "p.toml"
    problem.write_text(_TINY, encoding="utf-8")
    argv = ["derive", str(problem), "--format", "json", "-o", str(problem)]
    _refused(argv, "p.toml", "same file")
    (tmp_path / "sub").mkdir()
    hard = tmp_path / "hard.toml"  # unseen: another name of the same file
    os.link(problem, hard)
    _refused(["derive", str(problem), "-o", str(hard)], "same file")
    _refused(["derive", str(problem), "-o", str(tmp_path / "sub" / ".." / "p.toml")], "same file")
    assert problem.read_text(encoding="utf-8") == _TINY


def test_r08_grade_reports_over_its_inputs_are_refused(tmp_path: Path) -> None:
    _, folder = _class_set(tmp_path)
    subs = tmp_path / "subs"
    subs.mkdir()
    answers = (folder / "teacher" / "Ada" / "answers.json").read_text(encoding="utf-8")
    (subs / "Ada.json").write_text(answers, encoding="utf-8")
    manifest = (folder / "class.json").read_text(encoding="utf-8")
    base = ["grade", str(folder), str(subs)]
    _refused([*base, "--report", str(folder / "class.json")], "--report", "class set")
    _refused([*base, "--report", str(subs / "Ada.json")], "--report", "submissions")
    report = str(tmp_path / "r.csv")  # unseen: two outputs on one file, feedback in the set
    _refused([*base, "--report", report, "--moodle-grades", report], "--moodle-grades", "--report")
    _refused([*base, "--feedback", str(subs)], "--feedback", "same folder")
    assert (folder / "class.json").read_text(encoding="utf-8") == manifest
    assert (subs / "Ada.json").read_text(encoding="utf-8") == answers
    assert not Path(report).exists()
    assert run_cli([*base, "--report", report])[0] == 0


def test_r08_check_outputs_over_its_answers_are_refused(tmp_path: Path) -> None:
    answers = tmp_path / "a.json"
    answers.write_text('{"Q": [[1, 0], [0, 1]]}', encoding="utf-8")
    problem = tmp_path / "p.toml"
    problem.write_text(_TINY, encoding="utf-8")
    _refused(["check", str(problem), str(answers), "-o", str(answers)], "answers", "same file")
    _refused(
        ["check", str(problem), str(tmp_path / "*.json"), "--report", str(answers)],
        "--report",
        "same file",
    )
    _refused(
        ["check", str(problem), str(tmp_path), "--report", str(tmp_path / "r.csv")], "lies inside"
    )
    assert answers.read_text(encoding="utf-8") == '{"Q": [[1, 0], [0, 1]]}'


def test_r14_an_unwritable_quiz_path_is_refused_before_the_set_is_written(tmp_path: Path) -> None:
    out = tmp_path / "set"
    base = ["exercises", "--seed", "1", "-o", str(out)]
    _refused([*base, "--moodle", str(tmp_path)], "is a directory")
    _refused([*base, "--moodle", str(tmp_path / "no" / "q.xml")], "does not exist")
    if os.path.exists("/dev/full"):
        _refused([*base, "--moodle", "/dev/full"], "No space left on device")
    if os.geteuid() != 0:  # unseen: a folder nobody may write in
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        _refused([*base, "--moodle", str(locked / "q.xml")], "Permission denied")
    assert not out.exists()


# Reliability turn 3, r15: Unicode format characters (bidi overrides, zero-width spaces)
# are written as \uXXXX in every output and message, as control characters are.
def test_r15_a_bidi_override_in_an_answer_never_reaches_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"weights[1,1]": "\\u202e0701.0"}', encoding="utf-8")
    status, out, err = run_cli(["check", SEED, str(path)])
    assert "\u202e" not in out + err and "\\u202e0701.0" in out
    # unseen: an isolate, a zero-width space and a tag character in a file name, in the
    # one-line error of a bad file and in the class report and summary
    bad = tmp_path / "x\u2066y\u200bz\U000e0041.json"
    bad.write_text("{", encoding="utf-8")
    status, out, err = run_cli(["check", SEED, str(bad)])
    assert status == 2 and "\\u2066y\\u200bz\\udb40\\udc41.json" in _one_error(err)
    status, out, err = run_cli(["check", SEED, str(tmp_path)])
    text = out + err
    assert status == 2 and not any(ch in text for ch in "\u2066\u200b\U000e0041\u202e")
    assert "\\u2066y" in out and "\\u2066y" in err


def test_r15_every_format_character_is_escaped_and_json_reads_it_back() -> None:
    import json
    import unicodedata

    for code in range(0x110000):
        ch = chr(code)
        if unicodedata.category(ch) == "Cf":
            shown = visible(f"a{ch}b", one_line=True)
            assert ch not in shown and json.loads(f'"{shown}"') == f"a{ch}b", hex(code)
    assert visible("我爱 e^√2 ½") == "我爱 e^√2 ½"  # letters and symbols stay as they are
    assert csv_cell("\u202egnp.json") == "\\u202egnp.json"
