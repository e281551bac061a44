"""Bounded reads and safe writes (game/engine/files.py): only regular files are read, within a
size; writes are atomic, never replace anything but a regular file, leave no temporary file
when they fail, and the temporaries of a killed run go at the next write."""
from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys

import pytest

from game.engine import files
from game.engine.files import FileRefused, read_bounded, remove_stale_temps, write_atomic
from game.errors import OutputError

from ..limits import run_limited


def temporaries(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


@pytest.fixture
def odd(tmp_path):
    """A folder, a FIFO, a socket, a link to a device, a link to nowhere and a huge sparse file."""
    made = {"folder": tmp_path / "folder.json", "fifo": tmp_path / "pipe.json", "socket": tmp_path / "sock.json",
            "device": tmp_path / "zero.json", "nowhere": tmp_path / "nowhere.json", "huge": tmp_path / "huge.json"}
    made["folder"].mkdir()
    os.mkfifo(made["fifo"])
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(made["socket"]))
    made["device"].symlink_to("/dev/zero")
    made["nowhere"].symlink_to(tmp_path / "gone")
    with open(made["huge"], "wb") as f:
        f.truncate(files.MAX_INPUT_BYTES + 1)
    yield made
    server.close()


@pytest.mark.parametrize("kind,reason", [("folder", "is a folder"), ("fifo", "is a pipe"), ("socket", "is a socket"),
                                         ("device", "is a device"), ("nowhere", "not found"), ("huge", "larger than")])
def test_only_a_regular_file_within_the_bound_is_read(odd, kind, reason):
    outcome = run_limited(_read, odd[kind], cpu_s=2, wall_s=5)       # a FIFO must not block the reader
    assert outcome.ok, outcome
    assert reason in outcome.value, outcome.value


def _read(path) -> str:
    try:
        return f"read {len(read_bounded(path))} bytes"
    except FileRefused as e:
        return e.reason


@pytest.mark.parametrize("name,reason", [("", "empty"), ("a\x00b", "no file can have"),
                                         ("a\ud800b", "no file can have"), ("x" * 10_000, "too long")])
def test_an_odd_name_is_refused_in_words(tmp_path, name, reason):
    with pytest.raises(FileRefused, match=reason):
        read_bounded(str(tmp_path / name) if name else name)


def test_a_regular_file_is_read_whole(tmp_path):
    (tmp_path / "a.json").write_bytes(b"x" * 5000)
    assert read_bounded(tmp_path / "a.json") == b"x" * 5000
    with pytest.raises(FileRefused, match="larger than"):
        read_bounded(tmp_path / "a.json", limit=4999)


@pytest.mark.parametrize("kind", ["folder", "fifo", "socket", "device"])
def test_nothing_but_a_regular_file_is_ever_replaced(odd, kind):
    """Found by the attack: run as root, ``--save /dev/full`` replaced the device node with a JSON
    file. Here a FIFO, a socket, a folder and a link to /dev/zero stand in for it."""
    before = os.lstat(odd[kind]).st_mode
    with pytest.raises(OutputError, match="only a regular file is ever replaced"):
        write_atomic(odd[kind], "{}")
    assert os.lstat(odd[kind]).st_mode == before
    assert temporaries(odd[kind].parent) == []


def test_a_write_through_a_link_replaces_the_file_and_keeps_the_link(tmp_path):
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to("real.json")
    write_atomic(tmp_path / "link.json", "new")
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "real.json").read_text() == "new"
    assert (tmp_path / "real.json.bak").read_text() == "old"


def test_a_name_too_long_for_the_file_system_is_one_error_and_no_temporary(tmp_path):
    with pytest.raises(OutputError, match="too long") as err:
        write_atomic(tmp_path / ("n" * 10_000 + ".json"), "{}")
    assert "\n" not in str(err.value) and len(str(err.value)) < 600
    assert temporaries(tmp_path) == []


def test_a_name_just_short_enough_is_written_with_a_shorter_temporary(tmp_path):
    path = tmp_path / ("n" * 250 + ".json")
    write_atomic(path, "1")
    write_atomic(path, "2")
    assert path.read_text() == "2" and temporaries(tmp_path) == []


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_a_full_disk_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, failing):
    path = tmp_path / "save.json"
    write_atomic(path, "old")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(files.os, failing, full)
    with pytest.raises(OutputError, match="the disk is full"):
        write_atomic(path, "new" * 1000)
    monkeypatch.undo()
    assert path.read_text() == "old" and temporaries(tmp_path) == []


def test_a_write_refused_by_the_system_for_its_size_fails_in_one_line(tmp_path):
    """A real full disk, as the kernel reports it: RLIMIT_FSIZE makes writes past 100 bytes fail."""
    code = ("import resource, signal, sys; from game.engine.files import write_atomic\n"
            "from game.errors import OutputError\n"
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))\n"
            "try:\n    write_atomic(sys.argv[1], 'x' * 5000)\nexcept OutputError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "s.json")], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip().endswith("cannot be written: the disk is full"), out
    assert os.listdir(tmp_path) == []


def test_an_interrupted_write_removes_its_temporary(tmp_path, monkeypatch):
    def interrupt(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(files.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "s.json", "x")
    assert temporaries(tmp_path) == []


def test_the_new_file_keeps_the_permissions_of_the_old(tmp_path):
    path = tmp_path / "s.json"
    path.write_text("old")
    path.chmod(0o600)
    write_atomic(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_temporaries_of_a_killed_run_are_removed_and_a_live_writers_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    stale = [tmp_path / f".s.json.{dead}.tmp", tmp_path / f".s.json.{dead}.bak.tmp", tmp_path / ".s.json.bak.tmp"]
    live = tmp_path / f".s.json.{os.getppid()}.tmp"
    other = tmp_path / f".other.json.{dead}.tmp"
    for p in stale + [live, other]:
        p.write_text("half")
    write_atomic(tmp_path / "s.json", "whole")
    assert [p.exists() for p in stale] == [False] * 3 and live.exists() and other.exists()
    assert remove_stale_temps(tmp_path) == [other]
