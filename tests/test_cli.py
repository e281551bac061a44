"""The command line's promise (README): bad flags and unreadable or unwritable files give one line
and exit code 2, never a traceback, never a hang, and never a temporary file left behind."""
from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.cli import main  # noqa: E402

from .engine import hostile  # noqa: E402
from .limits import run_command, run_limited  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "maps" / "sky_deck.tmx"
SIM = ["sim", "--map", str(MAP), "--rules", "eisdrachen", "--ai", "random", "--max-turns", "1"]


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


# --- validate-map --------------------------------------------------------------------------------

def test_validate_map_exits_0_for_a_good_map_and_1_for_an_unplayable_one(tmp_path, capsys):
    assert main(["validate-map", str(MAP)]) == 0
    (tmp_path / "iso.tmx").write_text('<map orientation="isometric" width="2" height="2" tilewidth="8" '
                                      'tileheight="8"/>')
    assert main(["validate-map", str(tmp_path / "iso.tmx")]) == 1
    assert "orthogonal" in capsys.readouterr().out


def unreadable(tmp_path: Path) -> dict[str, tuple[str, str]]:
    fifo = tmp_path / "pipe.tmx"
    os.mkfifo(fifo)
    big = tmp_path / "big.tmx"
    with open(big, "wb") as f:
        f.truncate(11 * 1024 * 1024)
    (tmp_path / "folder.tmx").mkdir()
    return {"missing": (str(tmp_path / "gone.tmx"), "no such file"),
            "folder": (str(tmp_path / "folder.tmx"), "is a folder"),
            "device": ("/dev/zero", "is a device"), "fifo": (str(fifo), "is a pipe"),
            "huge": (str(big), "larger than the 10 MB"), "empty name": ("", "empty"),
            "long name": (str(tmp_path / ("m" * 10_000)), "too long")}


def run_main(argv: list[str]) -> tuple[int, str]:
    """In a child: the exit code and what went to stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def test_validate_map_exits_2_on_every_file_it_cannot_read_and_says_why(tmp_path):
    """Found by the attack: validate-map exited 1 (not 2, as the README says) on a missing file, a
    folder or /dev/zero, and called a file that exists "not found"."""
    for name, (path, reason) in unreadable(tmp_path).items():
        outcome = run_limited(run_main, ["validate-map", path], cpu_s=10, wall_s=20)   # a FIFO must not hang it
        assert outcome.ok, f"{name}: {outcome}"
        code, err = outcome.value
        line = one_line(err)
        assert code == 2 and reason in line, f"{name}: {code} {line}"
        if name != "missing":
            assert "not found" not in line and "no such" not in line, line


def test_validate_map_exits_2_when_one_of_several_files_cannot_be_read(tmp_path, capsys):
    assert main(["validate-map", str(MAP), str(tmp_path / "gone.tmx")]) == 2
    out = capsys.readouterr()
    assert "sky_deck.tmx: ok" in out.out and "no such file" in out.err


# --- sim --save and play --screenshot ------------------------------------------------------------

def odd_outputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    (tmp_path / "folder.json").mkdir()
    os.mkfifo(tmp_path / "pipe.json")
    out = {"folder": (tmp_path / "folder.json", "is a folder"), "fifo": (tmp_path / "pipe.json", "is a pipe"),
           "long name": (tmp_path / ("n" * 10_000 + ".json"), "too long"),
           "under a file": (tmp_path / "file.json" / "x.json", "not a folder")}
    (tmp_path / "file.json").write_text("{}")
    if os.geteuid() == 0:           # a device node of our own, never the real /dev/full
        os.mknod(tmp_path / "full.json", stat.S_IFCHR | 0o666, os.makedev(1, 7))
        out["device"] = (tmp_path / "full.json", "is a device")
    return out


@pytest.mark.parametrize("command", ["sim --save", "play --screenshot"])
def test_an_output_that_can_never_be_written_is_refused_before_the_run_in_one_line(tmp_path, capsys, command):
    """Found by the attack: into a folder or with a 10,000-character name, sim --save and play
    --screenshot gave tracebacks and left .NAME.PID.tmp files; run as root, --save /dev/full
    replaced the device node with a JSON file."""
    for name, (path, reason) in odd_outputs(tmp_path).items():
        before = os.lstat(path).st_mode if os.path.lexists(path) and name != "long name" else None
        if command == "sim --save":
            code = main([*SIM, "--save", str(path)])
        else:
            code = main(["play", "--map", str(MAP), "--rules", "eisdrachen", "--frames", "1",
                         "--screenshot", str(path.with_suffix(".png") if name == "long name" else path)])
        line = one_line(capsys.readouterr().err)
        assert code == 2 and reason in line, f"{name}: {code} {line}"
        if before is not None:
            assert os.lstat(path).st_mode == before, f"{name} was replaced"
        assert leftovers(tmp_path) == []


def test_play_says_so_when_the_animation_to_freeze_on_never_came(tmp_path, capsys):
    """Found making docs/img: --freeze miss in a battle with no miss saved the results screen, silently."""
    shot = tmp_path / "s.png"
    code = main(["play", "--map", str(MAP), "--rules", "eisdrachen", "--mode", "ai-vs-ai", "--frames", "3",
                 "--freeze", "blast", "--screenshot", str(shot)])
    line = one_line(capsys.readouterr().err)
    assert code == 1 and line.startswith("escarmouche: --freeze blast: no such animation") and str(shot) in line
    assert shot.is_file()


def test_sim_saves_into_a_folder_it_makes(tmp_path, capsys):
    assert main([*SIM, "--save", str(tmp_path / "new" / "folder" / "s.json")]) == 0
    assert (tmp_path / "new" / "folder" / "s.json").is_file()


def _full_disk():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))


@pytest.mark.parametrize("command", ["sim --save", "play --screenshot"])
def test_a_full_disk_is_one_line_exit_2_and_no_temporary(tmp_path, command):
    """The kernel's own refusal: RLIMIT_FSIZE makes every write past 200 bytes fail, as a full disk does."""
    args = [*SIM, "--save", str(tmp_path / "s.json")] if command == "sim --save" else \
        ["play", "--map", str(MAP), "--rules", "eisdrachen", "--frames", "2", "--screenshot", str(tmp_path / "s.png")]
    done = run_command([sys.executable, "-m", "game", *args], cpu_s=60, prepare=_full_disk, cwd=ROOT)
    assert done.returncode == 2 and "the disk is full" in one_line(done.stderr), done
    assert os.listdir(tmp_path) == []


def _without_root_powers() -> list[str]:
    """A prefix that runs a command without the power to write where permissions forbid it."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only folder cannot be made to refuse a write")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


@pytest.mark.parametrize("command", ["sim --save", "play --screenshot"])
def test_a_read_only_folder_is_one_line_exit_2_and_no_temporary(tmp_path, command):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        args = [*SIM, "--save", str(folder / "s.json")] if command == "sim --save" else \
            ["play", "--map", str(MAP), "--rules", "eisdrachen", "--frames", "2", "--screenshot",
             str(folder / "s.png")]
        done = run_command([*_without_root_powers(), sys.executable, "-m", "game", *args], cpu_s=60, cwd=ROOT)
        assert done.returncode == 2 and "permission denied" in one_line(done.stderr), done
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o755)


# --- replay and flags ------------------------------------------------------------------------------

def test_replay_of_a_save_that_cannot_be_read_is_one_line_exit_2(tmp_path, capsys):
    for path in (tmp_path / "gone.json", tmp_path, Path("/dev/zero")):
        assert main(["replay", str(path)]) == 2
        one_line(capsys.readouterr().err)


def test_replay_of_every_odd_save_is_one_line_exit_2(tmp_path):
    """Saves whose map.path is a folder, empty, 10,000 characters, /dev/zero or a FIFO, with huge
    numbers, deep nesting or lone surrogates: each one line naming the save, and exit 2."""
    good = tmp_path / "good.json"
    assert run_limited(run_main, [*SIM, "--save", str(good)]).value[0] == 0
    for name, text in hostile.odd_saves(json.loads(good.read_text(encoding="utf-8")), tmp_path).items():
        path = tmp_path / "odd.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        outcome = run_limited(run_main, ["replay", str(path)], cpu_s=10, wall_s=20)
        assert outcome.ok, f"{name}: {outcome}"
        code, err = outcome.value
        assert code == 2 and str(path) in one_line(err), f"{name}: {code} {err}"


def test_a_seed_too_large_for_a_save_is_refused_as_a_flag(capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*SIM, "--seed", "9" * 40])
    assert exit_.value.code == 2 and "too large" in one_line(capsys.readouterr().err)


def test_a_map_name_that_cannot_be_a_file_is_one_line_exit_2(capsys):
    for name, reason in (("m" * 10_000, "name too long"), ("/dev/zero", "is a device"), ("a\x00b", "no file can have")):
        assert main([*SIM[:1], "--map", name, *SIM[3:]]) == 2
        assert reason in one_line(capsys.readouterr().err), name


# --- output into a pipe that closes early -----------------------------------------------------------

def run_into_a_closed_pipe(argv: list[str], home: Path) -> subprocess.CompletedProcess:
    """The command with its stdout a pipe nobody reads any more (``| head -1`` once head has left)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        env = {**os.environ, "ESCARMOUCHE_HOME": str(home)}
        proc = subprocess.run([sys.executable, "-m", "game", *argv], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, env=env, timeout=120)
    finally:
        os.close(write_end)
    return proc


def test_every_command_that_writes_to_stdout_stops_quietly_when_the_pipe_closes(tmp_path):
    """Found after the first round: ``escarmouche sim ... | head -1`` printed a BrokenPipeError
    traceback. Each command stops with the code of a program ended by SIGPIPE and prints nothing;
    argparse's help and version already ignore a failed write and exit 0."""
    saved = tmp_path / "game.json"
    assert main([*SIM, "--save", str(saved)]) == 0
    commands = {"help": (["--help"], 0), "version": (["--version"], 0), "sim help": (["sim", "--help"], 0),
                "bench help": (["bench", "--help"], 0), "sim": ([*SIM, "--games", "3"], 128 + signal.SIGPIPE),
                "sim json": ([*SIM, "--json"], 128 + signal.SIGPIPE),
                "replay": (["replay", str(saved)], 128 + signal.SIGPIPE),
                "replay verify": (["replay", "--verify", str(saved)], 128 + signal.SIGPIPE),
                "validate-map": (["validate-map", str(MAP)], 128 + signal.SIGPIPE)}
    for name, (argv, code) in commands.items():
        proc = run_into_a_closed_pipe(argv, tmp_path)
        assert (proc.returncode, proc.stderr) == (code, ""), (name, proc.stderr)


def test_sim_still_saves_its_game_when_the_pipe_closes_before_the_first_line(tmp_path):
    saved = tmp_path / "out" / "game.json"
    proc = run_into_a_closed_pipe([*SIM, "--save", str(saved)], tmp_path)
    assert proc.returncode == 128 + signal.SIGPIPE and proc.stderr == ""
    assert saved.is_file() and leftovers(saved.parent) == []
