"""Run one fuzz case in a child process under resource limits, so that a hang or a bomb fails the
case instead of the suite: CPU time (RLIMIT_CPU), address space (RLIMIT_AS, above what the parent
already holds) and wall time (an alarm, for a child blocked on a pipe or a device).

``run_limited`` forks the test process (the case's data and the imported game are already there,
so a case costs a few milliseconds) and returns what the child used, measured by the kernel
(``wait4``), not by the child itself; ``run_command`` starts a program, for the command line.
"""
from __future__ import annotations

import math
import os
import pickle
import resource
import select
import signal
import subprocess
import time
from dataclasses import dataclass

MB = 1024 * 1024


@dataclass
class Outcome:
    """How a case ended: what it returned, or the exception it raised, or why it was stopped."""

    value: object = None
    error: str = ""          # "Type: message" of an exception the case raised
    stopped: str = ""        # "cpu", "wall", "memory" or "signal N" / "exit N" when the child died
    cpu_s: float = 0.0       # user + system time of the child
    peak_mb: float = 0.0     # resident memory the child added to what it shared with its parent

    @property
    def ok(self) -> bool:
        return not self.stopped and not self.error

    def __str__(self) -> str:
        how = self.stopped or self.error or repr(self.value)
        return f"{how} after {self.cpu_s:.2f} s CPU, +{self.peak_mb:.0f} MB"


def _resident_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _address_space() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _limit_child(cpu_s: float, memory_bytes: int | None, wall_s: float) -> None:
    soft = max(1, math.ceil(cpu_s))
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    if memory_bytes is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    signal.alarm(max(1, math.ceil(wall_s)))


def _why(status: int, killed_for_wall: bool) -> str:
    if killed_for_wall:
        return "wall"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return {signal.SIGXCPU: "cpu", signal.SIGALRM: "wall"}.get(sig, f"signal {sig}")
    code = os.WEXITSTATUS(status)
    return "" if code == 0 else f"exit {code}"


def run_limited(func, *args, cpu_s: float = 8.0, memory_mb: float = 512, wall_s: float | None = None) -> Outcome:
    """``func(*args)`` in a forked child: at most ``cpu_s`` of CPU, ``memory_mb`` of address space
    beyond the parent's, ``wall_s`` (default four times ``cpu_s`` plus 5 s) of wall time."""
    wall_s = wall_s if wall_s is not None else 4 * cpu_s + 5
    memory = _address_space() + int(memory_mb * MB)
    base_kb = _resident_kb()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                    # the child: run, report, leave at once
        os.close(read_end)
        code = 0
        try:
            _limit_child(cpu_s, memory, wall_s)
            try:
                result = (func(*args), "")
            except MemoryError:
                result, code = (None, "MemoryError"), 3
            except BaseException as exc:            # the case's own failure, reported to the parent
                result = (None, f"{type(exc).__name__}: {str(exc)[:2000]}")
            data = pickle.dumps(result)
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view):]
        except BaseException:
            code = 4
        finally:
            os._exit(code)
    os.close(write_end)
    chunks, deadline, killed_for_wall = [], time.monotonic() + wall_s + 5, False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                killed_for_wall = True
                break
            ready, _, _ = select.select([read_end], [], [], left)
            if ready:
                chunk = os.read(read_end, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        os.close(read_end)
    _, status, usage = os.wait4(pid, 0)
    out = Outcome(cpu_s=usage.ru_utime + usage.ru_stime, peak_mb=max(0.0, (usage.ru_maxrss - base_kb) / 1024))
    out.stopped = _why(status, killed_for_wall)
    if out.stopped == "exit 3":
        out.stopped = "memory"
    if chunks and not out.stopped:
        out.value, out.error = pickle.loads(b"".join(chunks))
    return out


def run_command(argv: list[str], cpu_s: float = 30.0, memory_mb: float = 2048, wall_s: float | None = None,
                env: dict | None = None, cwd=None, prepare=None) -> subprocess.CompletedProcess:
    """A program under RLIMIT_CPU and RLIMIT_AS (its whole address space, interpreter included)
    and a wall-time alarm; a negative return code is the signal that stopped it. ``prepare``
    runs in the child before the program starts (e.g. to set RLIMIT_FSIZE)."""
    wall_s = wall_s if wall_s is not None else 4 * cpu_s + 10

    def limit():
        _limit_child(cpu_s, int(memory_mb * MB), wall_s)
        if prepare is not None:
            prepare()

    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
                            preexec_fn=limit)
    try:
        out, err = proc.communicate(timeout=wall_s + 5)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)
