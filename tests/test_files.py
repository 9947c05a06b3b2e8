"""The file helpers: atomic writes and the checks on output paths."""

from __future__ import annotations

import gzip
import os
import stat
from pathlib import Path

import pytest

from ragrecall import InputError
from ragrecall._files import atomic_text, check_output_path


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    path.write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_text(path) as out:
        out.write("half of the new content")
        raise RuntimeError("disk full")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_permissions_and_links_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "real.csv"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    with atomic_text(link, newline="") as out:
        out.write("a,b\r\n")
    assert link.is_symlink() and target.read_bytes() == b"a,b\r\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_new_files_get_the_usual_permissions(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        with atomic_text(tmp_path / "new.txt") as out:
            out.write("x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644  # not the 0600 of a temporary file


def test_gz_paths_are_compressed_under_their_own_name(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl.gz"
    with atomic_text(path) as out:
        out.write("{}\n")
    data = path.read_bytes()
    assert gzip.decompress(data) == b"{}\n"
    assert b"results.jsonl\x00" in data[:64]  # the name in the gzip header, not the temporary file's


def test_output_path_checks(tmp_path: Path) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text("{}\n", encoding="utf-8")
    check_output_path(tmp_path / "new.jsonl", "--out", [("dataset", data), ("checkpoint", None)])
    cases = [
        (tmp_path, [], "is a folder"),
        (tmp_path / "missing" / "out.jsonl", [], "the folder .*missing does not exist"),
        (data, [("dataset", data)], "is the dataset"),
        (tmp_path / "." / "data.jsonl", [("dataset", data)], "is the dataset"),
    ]
    link = tmp_path / "alias.jsonl"
    link.symlink_to(data)
    cases.append((link, [("dataset", data)], "is the dataset"))
    for path, inputs, message in cases:
        with pytest.raises(InputError, match=f"--out {path}.*{message}" if path != tmp_path else message):
            check_output_path(path, "--out", inputs)  # type: ignore[arg-type]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(InputError, match="is not writable"):
            check_output_path(folder / "out.jsonl", "--out")
    finally:
        folder.chmod(0o700)


def test_a_missing_folder_is_named_by_the_file_asked_for(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "out.jsonl"
    with pytest.raises(FileNotFoundError) as info, atomic_text(target):
        pass
    assert info.value.filename == str(target)
