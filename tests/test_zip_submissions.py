"""``grade DIR SUBMISSIONS.zip``: Moodle's "Download all submissions" read as the folder it
unpacks to — the same grades — with every hostile member refused on its own and nothing
written outside a temporary folder."""

from __future__ import annotations

import csv
import io
import stat
import struct
import tempfile
import zipfile
from pathlib import Path

import pytest

from symattn.classroom import archive

from .helpers import run_cli
from .test_classroom import week  # noqa: F401  (the class fixture)


def _zip_folder(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted(folder.rglob("*")):
            out.write(path, path.relative_to(folder).as_posix())
    return target


def _rows(path: Path) -> dict[str, dict[str, str]]:
    text = path.read_text(encoding="utf-8")
    return {r["id"]: r for r in csv.DictReader(io.StringIO(text))}


def _grade(root: Path, subs: Path, report: Path, *extra: str) -> tuple[int, str, str]:
    return run_cli(["grade", str(root / "week5"), str(subs), "--report", str(report), *extra])


def test_a_zip_grades_as_the_folder_it_holds(week: Path, tmp_path: Path) -> None:  # noqa: F811
    bundle = _zip_folder(week / "subs", tmp_path / "all submissions.zip")
    status_dir, _, _ = _grade(week, week / "subs", tmp_path / "from_folder.csv")
    status_zip, out, err = _grade(week, bundle, tmp_path / "from_zip.csv")
    assert status_zip == status_dir == 1, err  # the stranger and the unreadable file
    folder, zipped = _rows(tmp_path / "from_folder.csv"), _rows(tmp_path / "from_zip.csv")
    assert folder.keys() == zipped.keys()
    for ident, row in folder.items():
        other = zipped[ident]
        shown = {k: v.replace(str(bundle), str(week / "subs")) for k, v in other.items()}
        assert {k: v for k, v in row.items() if k != "file"} == {
            k: v for k, v in shown.items() if k != "file"
        }
        if row["file"]:  # named as in the zip, never as the temporary folder
            inner = Path(row["file"]).relative_to(week / "subs")
            assert other["file"] == str(bundle / inner)
    assert zipped["s002"]["score"] == "5.11"
    assert "stranger.json" in out and "symattn-submissions-" not in out + err
    assert str(bundle / "s004.json") in err  # the unreadable file, named in the zip


def test_moodle_downloaded_without_folders(week: Path, tmp_path: Path) -> None:  # noqa: F811
    """Without "download submissions in folders" Moodle prefixes each file instead."""
    source = week / "subs/Zoë Ōtsuka_4242_assignsubmission_file_/answers.json"
    bundle = tmp_path / "flat.zip"
    with zipfile.ZipFile(bundle, "w") as out:
        out.writestr("Zoë Ōtsuka_4242_assignsubmission_file_answers.json", source.read_bytes())
        out.writestr("Ada Lovelace_17_assignsubmission_file_report.pdf", b"%PDF-1.4")
    status, out_text, _ = _grade(week, bundle, tmp_path / "flat.csv")
    rows = _rows(tmp_path / "flat.csv")
    assert rows["s002"]["score"] == "5.11" and rows["s001"]["verdict"] == "error"
    assert rows["s001"]["diagnoses"].endswith(
        "report.pdf not marked: not an answers file (.json, .toml or .csv)"
    )
    assert "report.pdf" in out_text and "not an answers file" in out_text
    assert status == 1


def _hostile(target: Path, good: bytes) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("Ada_Lovelace.json", good)
        out.writestr("../escape.json", b"{}")
        out.writestr("/etc/abs.json", b"{}")
        out.writestr("C:/win.json", b"{}")
        out.writestr("sub\\back.json", b"{}")
        out.writestr("bidi\u202eevil.json", b"{}")
        link = zipfile.ZipInfo("link.json")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        out.writestr(link, "/etc/passwd")
        out.writestr("bomb.json", b"0" * (archive.MAX_FILE_BYTES + 1))
        with pytest.warns(UserWarning, match="Duplicate name"):
            out.writestr("Ada_Lovelace.json", b"{}")
    return target


def test_hostile_members_are_refused_one_by_one(
    week: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    good = (week / "subs/Ada_Lovelace.json").read_bytes()
    bundle = _hostile(tmp_path / "hostile.zip", good)
    status, out, err = _grade(week, bundle, tmp_path / "hostile.csv")
    assert status == 1, err
    marker = f"not marked: {bundle}: a member was not unpacked: "
    refused = {
        line[len(marker) :].rsplit(" (", 1)[0]: line
        for line in out.splitlines()
        if line.startswith(marker)
    }
    assert set(refused) == {
        "../escape.json",
        "/etc/abs.json",
        "C:/win.json",
        "sub\\back.json",
        "bidi\\u202eevil.json",  # shown escaped on the terminal
        "link.json",
        "bomb.json",
        "Ada_Lovelace.json",  # the second one
    }
    assert "climbs out" in refused["../escape.json"] and "a link" in refused["link.json"]
    assert "given twice" in refused["Ada_Lovelace.json"]
    assert "20,000,000 bytes" in refused["bomb.json"]
    assert _rows(tmp_path / "hostile.csv")["s001"]["score"] == "7"  # the first Ada is marked
    assert not (tmp_path / "escape.json").exists() and not (week / "escape.json").exists()
    assert list(scratch.iterdir()) == []  # the temporary folder is gone


def _lying_sizes(target: Path, real: int, claimed: int) -> Path:
    """A zip whose headers claim ``claimed`` bytes for a member that inflates to ``real``."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("Ada_Lovelace.json", b" " * real)
    data = bytearray(target.read_bytes())
    local = data.index(b"PK\x03\x04")
    struct.pack_into("<I", data, local + 22, claimed)
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, claimed)
    target.write_bytes(bytes(data))
    return target


def test_a_member_that_inflates_past_its_header_is_stopped(
    week: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    bundle = _lying_sizes(tmp_path / "liar.zip", real=5_000_000, claimed=100)
    status, out, err = _grade(week, bundle, tmp_path / "liar.csv")
    assert status == 1, err
    assert "liar.zip: a member was not unpacked: Ada_Lovelace.json (cannot be unpacked" in out
    assert _rows(tmp_path / "liar.csv")["s001"]["verdict"] == "missing"


def test_a_member_past_the_file_limit_is_stopped_while_it_inflates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit holds while inflating, not only by the header's word."""
    bundle = tmp_path / "big.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("a.json", b"1" * 50_000)
    monkeypatch.setattr(archive, "MAX_FILE_BYTES", 10_000_000)
    with zipfile.ZipFile(bundle) as opened:
        info = opened.getinfo("a.json")
        with pytest.raises(archive._TooLarge):
            archive._copy(opened, info, tmp_path / "a.json", budget=1_000)
    assert (tmp_path / "a.json").stat().st_size <= 1_000


@pytest.mark.parametrize(
    ("content", "expected"),
    [(b"not a zip at all", "not a readable zip file"), (b"", "not a readable zip file")],
)
def test_a_broken_zip_is_one_line(
    week: Path,  # noqa: F811
    tmp_path: Path,
    content: bytes,
    expected: str,
) -> None:
    bundle = tmp_path / "broken.zip"
    bundle.write_bytes(content)
    status, _, err = _grade(week, bundle, tmp_path / "broken.csv")
    assert status == 2
    assert err.count("\n") == 1 and expected in err and str(bundle) in err
    assert not (tmp_path / "broken.csv").exists()


def test_too_many_members_is_refused_before_unpacking(
    week: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(archive, "MAX_MEMBERS", 3)
    bundle = tmp_path / "many.zip"
    with zipfile.ZipFile(bundle, "w") as out:
        for number in range(4):
            out.writestr(f"s{number}.json", b"{}")
    status, _, err = _grade(week, bundle, tmp_path / "many.csv")
    assert status == 2 and "more than 3 members" in err
