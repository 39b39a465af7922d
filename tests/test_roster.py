"""Rosters as teachers have them: Moodle's exports, spreadsheets' separators, odd names;
and rosters that cannot be used, refused in one line naming the line and the column."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.classroom import read_roster
from symattn.classroom.roster import MAX_STUDENTS, folder_name
from symattn.errors import SymattnError

from .helpers import run_cli


def _roster(tmp_path: Path, text: str | bytes, name: str = "roster.csv") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_moodle_participants_export(tmp_path: Path) -> None:
    text = (
        "First name,Surname,ID number,Email address\n"
        "Ada,Lovelace,s001,ada@example.org\n"
        "Alan,Turing,s002,alan@example.org\n"
    )
    students = read_roster(_roster(tmp_path, text))
    assert [(s.name, s.id, s.email, s.folder) for s in students] == [
        ("Ada Lovelace", "s001", "ada@example.org", "Ada_Lovelace"),
        ("Alan Turing", "s002", "alan@example.org", "Alan_Turing"),
    ]


def test_username_is_read_as_id_and_semicolons_and_bom_work(tmp_path: Path) -> None:
    text = "\ufeffName;Username;E-mail\nZoë;zoe7;z@x.org\n李雷;lilei;l@x.org\n"
    students = read_roster(_roster(tmp_path, text))
    assert [(s.name, s.id, s.email) for s in students] == [
        ("Zoë", "zoe7", "z@x.org"),
        ("李雷", "lilei", "l@x.org"),
    ]


def test_folders_are_safe_and_unique(tmp_path: Path) -> None:
    text = "name\n../x\nAda Lovelace\nada lovelace\n/etc/passwd\nCON\n" + "Ö" * 100 + "\n…\n"
    folders = [s.folder for s in read_roster(_roster(tmp_path, text))]
    assert folders == [
        "x",
        "Ada_Lovelace",
        "ada_lovelace_2",
        "etc_passwd",
        "student_CON",
        "Ö" * 60,
        "student",
    ]
    for folder in folders:
        assert "/" not in folder and "\\" not in folder and not folder.startswith(".")
    assert folder_name("a\u0301") == "á"  # one form of the same letter


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,email\ns1,a@x\n", "line 1: no 'name' column"),
        ("name,id\nAda,s1\nBob,s1\n", "line 3, column id: 's1' is also on line 2"),
        ("name,email\nAda,A@x\nBob,a@x\n", "line 3, column email: 'a@x' is also on line 2"),
        ("name,id\n,s1\n", "line 2, column name: the name is empty"),
        ("name\nAda\x1b[31m\n", "line 2, column name: a control character (U+001B)"),
        ("name\n" + "x" * 201 + "\n", "line 2, column name: longer than 200 bytes"),
        ("name\n" + "张" * 67 + "\n", "line 2, column name: longer than 200 bytes"),
        ("name\n\n\n", "no students after the header line"),
        ("", "the roster is empty"),
    ],
)
def test_unusable_rosters_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    path = _roster(tmp_path, text)
    with pytest.raises(SymattnError) as raised:
        read_roster(path)
    assert message in str(raised.value) and str(raised.value).startswith(path)
    status, _, err = run_cli(
        ["exercises", "--seed", "1", "--students", path, "-o", str(tmp_path / "o")]
    )
    assert status == 2 and err.count("\n") == 1 and message in err
    assert not (tmp_path / "o").exists()


def test_not_utf8_is_refused(tmp_path: Path) -> None:
    path = _roster(tmp_path, "name\nZo\xeb\n".encode("latin-1"))
    with pytest.raises(SymattnError, match="not UTF-8"):
        read_roster(path)


def test_a_huge_roster_is_refused_fast(tmp_path: Path) -> None:
    path = _roster(tmp_path, "name\n" + "".join(f"s{i}\n" for i in range(10_000)))
    with pytest.raises(SymattnError, match=f"more than {MAX_STUDENTS} students"):
        read_roster(path)


def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "roster.csv"
    os.mkfifo(fifo)
    with pytest.raises(SymattnError, match="not a regular file"):
        read_roster(str(fifo))
