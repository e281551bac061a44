"""Frame time while animations play: an AI-against-AI battle at 1280x720, frames timed while a clip is
drawn and while none is, each as a ratio to one full-screen blit timed in the same run (the reference
of docs/performance.md, whose targets are a median within x4 and a 95th percentile within x8).

Usage: ``python tools/bench_anim.py [--frames N] [--map FILE] [--rules NAME] [--ai-speed SPEED]``. Runs
headless; times are the drawing thread's CPU time, so other work on the machine does not count. Frames
are drawn back to back while the game's clocks advance 1/60 s a frame, as at 60 frames a second (waiting
between frames would leave the caches cold and time the machine, not the frame). The AI's speed is the
Settings one: ``instant`` (the default here) lands each answer as soon as the last one's clips end, so
more of the frames are the ones an answer lands in than at the game's own ``normal``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("ESCARMOUCHE_HOME", tempfile.mkdtemp(prefix="escarmouche-bench-"))

import pygame  # noqa: E402

from game.engine.mapfolders import shipped_maps_dir  # noqa: E402
from game.ui.app import TICK, App, start_battle  # noqa: E402
from game.ui.settings import AI_SPEEDS, Settings  # noqa: E402


def reference(app: App, n: int = 200) -> float:
    """One opaque full-screen blit, median of ``n``, in ms."""
    picture = app.screen.copy().convert()
    times = []
    for _ in range(n):
        t = time.thread_time()
        app.screen.blit(picture, (0, 0))
        times.append((time.thread_time() - t) * 1000)
    return statistics.median(times)


def summary(times: list[float], ref: float) -> str:
    if not times:
        return "no frames"
    times = sorted(times)
    median, p95 = statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)]
    return f"{len(times)} frames: median {median:.2f} ms (x{median / ref:.1f}), p95 {p95:.2f} ms (x{p95 / ref:.1f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=1500)
    ap.add_argument("--map", default=str(shipped_maps_dir() / "ruined_town.tmx"))
    ap.add_argument("--rules", default="eisdrachen")
    ap.add_argument("--ai-speed", default="instant", choices=tuple(AI_SPEEDS))
    args = ap.parse_args()
    clock = [time.monotonic()]
    time.monotonic = lambda: clock[0]       # the game's clocks: the pause before an AI answers, the ring's breath
    app = App({"fps": 0}, Settings(language="en", ai_speed=args.ai_speed, animations="normal"))
    scene = start_battle(app, Path(args.map), args.rules, "ai-vs-ai", 3)
    app.push(scene)
    for _ in range(5):
        app.step()
    moving, still = [], []
    kinds: set[str] = set()
    for _ in range(args.frames):
        busy = scene.timeline.moving
        kinds |= {c.kind for c in scene.timeline.playing()}
        t = time.thread_time()
        app.step()
        (moving if busy else still).append((time.thread_time() - t) * 1000)
        clock[0] += TICK
        if scene.match.over:
            break
    ref = reference(app)
    print(f"map {Path(args.map).name}, {args.rules}, AI speed {args.ai_speed}, window {app.screen.get_size()}, reference (one full-screen "
          f"blit) {ref:.3f} ms; clips seen: {', '.join(sorted(kinds))}")
    print(f"  animating: {summary(moving, ref)}")
    print(f"  still:     {summary(still, ref)}")
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
