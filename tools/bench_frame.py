"""Frame-time benchmark: the battle screen at 1280x720 on the largest shipped map, every overlay on.

Prints the median and 95th-percentile CPU milliseconds per frame of the drawing thread, and
one full-screen blit as the yardstick (docs/performance.md). ``escarmouche bench`` runs the same
measure with every other figure. Usage:
``python tools/bench_frame.py [--frames N] [--map FILE] [--rules NAME] [--figures N] [--zoom Z] [--screenshot PNG]``.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("ESCARMOUCHE_HOME", tempfile.mkdtemp(prefix="escarmouche-bench-"))

from game.bench import FIGURES_ON_FIELD, frame_child, largest_map  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--map")
    ap.add_argument("--rules", default="eisdrachen")
    ap.add_argument("--figures", type=int, default=FIGURES_ON_FIELD)
    ap.add_argument("--zoom", type=float, help="camera zoom (default: the opening view, then the whole map)")
    ap.add_argument("--screenshot", help="save the last frame as a PNG")
    args = ap.parse_args()
    path = args.map or str(largest_map())
    result = frame_child(path, args.frames, args.figures, args.rules, args.zoom, args.screenshot)
    for v in result["views"]:
        print(f"map {result['map']}, {result['figures']} figures, {v['view']} (zoom {v['zoom']}), every overlay on: "
              f"median {v['median_ms']:.2f} ms, p95 {v['p95_ms']:.2f} ms, max {v['max_ms']:.2f} ms per frame; "
              f"one full-screen blit {result['blit_ms']:.2f} ms; peak memory {result['rss_mb']:.0f} MB")
    if "walking" in result:
        w = result["walking"]
        print(f"while a figure walks: median {w['median_ms']:.2f} ms, p95 {w['p95_ms']:.2f} ms per frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
