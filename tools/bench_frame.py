"""Frame-time benchmark: the battle screen at 1280x720 on the largest shipped map, overlays on.

Prints median and 95th-percentile milliseconds per frame (target: under 16 ms). Usage:
``python tools/bench_frame.py [--frames N] [--map FILE] [--rules NAME]``. Runs headless.
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
from game.ui.app import App, start_battle  # noqa: E402
from game.ui.maprender import load_map_picture  # noqa: E402
from game.ui.mapview import ZOOMS  # noqa: E402
from game.ui.settings import Settings  # noqa: E402


def largest_map() -> Path:
    best, size = None, -1
    for path in sorted(shipped_maps_dir().glob("*.tmx")):
        _, bf = load_map_picture(path)
        if bf.width * bf.height > size:
            best, size = path, bf.width * bf.height
    if best is None:
        sys.exit(f"no map in {shipped_maps_dir()}")
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--map")
    ap.add_argument("--rules", default="eisdrachen")
    ap.add_argument("--zoom", type=float, help="camera zoom (default: the whole map fitted)")
    ap.add_argument("--screenshot", help="save the last frame as a PNG")
    args = ap.parse_args()
    path = Path(args.map) if args.map else largest_map()
    app = App({"fps": 0}, Settings(language="fr", ai_speed="instant"))
    scene = start_battle(app, path, args.rules, "hotseat", 1)
    app.push(scene)
    match = scene.match
    while match.pending is not None and match.pending.kind != "action":   # get to a move decision
        d = match.pending
        match.answer(d.options[0].key)
    app.step()
    scene.show_terrain = True
    d = match.pending
    moves = [o for o in d.options if o.path] if d is not None else []
    actor = scene.figure(d.figure) if d is not None else None
    zooms = [args.zoom] if args.zoom else [scene.view.zoom, ZOOMS[0]]     # opening view, whole map
    bf = match.battlefield
    for zoom in zooms:
        scene.view.zoom = zoom
        if actor is not None:
            scene.view.centre = (actor.tile[0] + 0.5, actor.tile[1] + 0.5)
        scene.view.pan_pixels(0, 0)
        hover = max(moves, key=lambda o: o.cost).tile if moves else (0, 0)
        pos = scene.view.tile_centre(hover)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        for _ in range(10):
            app.step()
        times = []
        for i in range(args.frames):
            if i % 60 == 30:    # pan a little now and then, as a player does
                scene.view.pan_pixels(3, 2)
            t = time.perf_counter()
            app.step()
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"map {path.name} {bf.width}x{bf.height} tiles, window {app.screen.get_size()[0]}x"
              f"{app.screen.get_size()[1]}, zoom {zoom}, terrain overlay on, reach overlay "
              f"{'on' if moves else 'off'}, path preview on, {len(times)} frames: "
              f"median {statistics.median(times):.2f} ms/frame, p95 {p95:.2f} ms/frame, max {times[-1]:.2f} ms")
    if args.screenshot:
        app.screenshot(args.screenshot)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
