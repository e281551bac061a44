"""``escarmouche bench``: the speed and memory figures of docs/performance.md.

Every figure is a median over repeated runs and comes with a reference timed in the same run on
the same machine, so the ratio means the same on a fast laptop and a slow CI box. Times are CPU
times (of this process, of the drawing thread, or of a child process), so other programs busy on
the machine do not count. Window figures are taken in child processes with SDL's dummy drivers,
so the bench runs headless and its memory figure is the window's own. ``--json`` prints one
object on the last line.
"""
from __future__ import annotations

import base64
import heapq
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

FIGURES_ON_FIELD = 40
REACH_BUDGET = 12


@dataclass
class Figure:
    """One line of the table: a measured value, its in-run reference, and the target."""

    name: str
    value: float
    unit: str
    reference: str
    reference_value: float
    target: str

    @property
    def ratio(self) -> float:
        return self.value / self.reference_value if self.reference_value else math.inf

    def row(self) -> dict:
        return {**asdict(self), "ratio": round(self.ratio, 3)}


def median_time(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.process_time) -> float:
    """Median seconds (of ``clock``, CPU time of this process by default) of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)


def largest_map() -> Path:
    """The largest shipped map, read from the map headers only."""
    from .engine.mapfolders import list_maps

    shipped = [m for m in list_maps() if m.shipped and not m.error]
    if not shipped:
        raise SystemExit("escarmouche bench: no shipped map found")
    return max(shipped, key=lambda m: m.size[0] * m.size[1]).path


def figure_tiles(bf, n: int, seed: int = 11) -> list[tuple[int, int]]:
    """n distinct tiles a figure may stand on, chosen with a fixed seed."""
    import numpy as np

    ys, xs = np.nonzero(bf.stand_mask())
    picks = random.Random(seed).sample(range(len(xs)), n)
    return [(int(xs[i]), int(ys[i])) for i in picks]


# --- references ---------------------------------------------------------------------------

def reference_sight_pairs(blocked, tiles):
    """The batched numpy reference: each segment's grid-line crossings, sorted; the tile in the
    middle of each stretch between two crossings is crossed, and two crossings at the same point
    are a grid corner whose two tiles off the segment decide (conventions.md section 5)."""
    import numpy as np

    t = np.asarray(tiles, dtype=np.int64)
    i, j = np.triu_indices(len(t), 1)
    a, d = t[i], t[j] - t[i]
    ad = np.abs(d)
    n = int(ad.sum(axis=1).max())
    k = np.arange(1, n + 1)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        tx = np.where(k <= ad[:, :1], (2 * k - 1) / (2 * ad[:, :1]), 2.0)
        ty = np.where(k <= ad[:, 1:], (2 * k - 1) / (2 * ad[:, 1:]), 2.0)
    cuts = np.sort(np.concatenate([np.zeros((len(a), 1)), tx, ty, np.full((len(a), 1), 2.0)], axis=1), axis=1)
    cuts = np.minimum(cuts, 1.0)
    lo, hi = cuts[:, :-1], cuts[:, 1:]
    mid = (lo + hi) / 2
    x = np.floor(0.5 + a[:, :1] + mid * d[:, :1]).astype(np.int64)
    y = np.floor(0.5 + a[:, 1:] + mid * d[:, 1:]).astype(np.int64)
    h, w = blocked.shape
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    cell = blocked[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] & inside
    stretch = hi > lo
    ends = (lo == 0) | (hi >= 1)
    hit = (cell & stretch & ~ends).any(axis=1)
    # a corner: a zero-length stretch between two real ones; its off-segment tiles mix their coordinates
    before, after = np.arange(lo.shape[1] - 2), np.arange(2, lo.shape[1])
    corner = ~stretch[:, 1:-1] & (hi[:, 1:-1] < 1)
    p = blocked[np.clip(y[:, after], 0, h - 1), np.clip(x[:, before], 0, w - 1)]
    q = blocked[np.clip(y[:, before], 0, h - 1), np.clip(x[:, after], 0, w - 1)]
    hit |= (corner & p & q).any(axis=1)
    out = np.ones((len(t), len(t)), dtype=bool)
    out[i, j] = out[j, i] = ~hit
    return out


def reference_reach(bf, start, budget) -> dict:
    """A plain heapq Dijkstra on flat arrays: walking legality of each step read from flat lists."""
    from .engine.moves import STEP_LENGTH, STEPS, WALK, between, corner_mask, passable_mask

    w, h = bf.width, bf.height
    ok = passable_mask(bf, WALK).ravel().tolist()
    corner = corner_mask(bf, WALK).ravel().tolist()
    steps = [(dx, dy, STEP_LENGTH[(dx, dy)], between((dx, dy))) for dx, dy in STEPS]
    limit = budget + 1e-9
    s = start[1] * w + start[0]
    cost = {s: 0.0}
    heap = [(0.0, s)]
    while heap:
        c, p = heapq.heappop(heap)
        if c > cost[p]:
            continue
        y, x = divmod(p, w)
        for dx, dy, length, passes in steps:
            nx, ny = x + dx, y + dy
            nc = c + length
            if nc > limit or not (0 <= nx < w and 0 <= ny < h) or not ok[ny * w + nx]:
                continue
            if abs(dx) == 1 and abs(dy) == 1 and (corner[y * w + nx] or corner[ny * w + x]):
                continue
            if any(not (0 <= x + bx < w and 0 <= y + by < h) or not ok[(y + by) * w + x + bx] for bx, by in passes):
                continue
            q = ny * w + nx
            if nc < cost.get(q, math.inf) - 1e-12:
                cost[q] = nc
                heapq.heappush(heap, (nc, q))
    return {(p % w, p // w): c for p, c in cost.items()}


def empty_map(path: Path, size: int) -> Path:
    """A size×size map with no tile, no property and no object: the cheapest file of that area."""
    data = base64.b64encode(zlib.compress(bytes(4 * size * size))).decode()
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                    f'<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{size}" '
                    f'height="{size}" tilewidth="32" tileheight="32" infinite="0">\n'
                    f' <layer id="1" name="ground" width="{size}" height="{size}">\n'
                    f'  <data encoding="base64" compression="zlib">{data}</data>\n </layer>\n</map>\n')
    return path


def decode_layer(path: Path) -> None:
    """The least any loader must do with a map: read it and inflate its layer."""
    import numpy as np

    text = path.read_text()
    data = text.split('compression="zlib">', 1)[1].split("<", 1)[0]
    np.frombuffer(zlib.decompress(base64.b64decode(data)), dtype="<u4")


# --- the measures --------------------------------------------------------------------------

def bench_sight(path: Path, repeat: int) -> list[Figure]:
    from .engine import rays, space
    from .engine.tiled import load_battlefield

    bf = load_battlefield(path)
    tiles = figure_tiles(bf, FIGURES_ON_FIELD)
    truth = reference_sight_pairs(bf.sight_mask(), tiles)
    if not (space.sight_pairs(bf, tiles) == truth).all():
        raise SystemExit("escarmouche bench: the batched line of sight disagrees with the reference")
    ref = median_time(lambda: reference_sight_pairs(bf.sight_mask(), tiles), max(repeat, 5))
    warm = median_time(lambda: space.sight_pairs(bf, tiles), max(repeat, 5))
    cold = []
    for _ in range(max(repeat, 3)):
        fresh = load_battlefield(path)
        rays.forget_rays()
        cold.append(median_time(lambda: space.sight_pairs(fresh, tiles), 1))
    pairs = FIGURES_ON_FIELD * (FIGURES_ON_FIELD - 1) // 2
    what = f"line of sight, all {pairs} pairs of {FIGURES_ON_FIELD} figures, {path.stem}"
    ref_words = "the batched numpy reference (sorted grid-line crossings)"
    return [Figure(f"{what}, caches warm", warm * 1000, "ms", ref_words, ref * 1000, "≤ ×2"),
            Figure(f"{what}, caches cold", statistics.median(cold) * 1000, "ms", ref_words, ref * 1000, "≤ ×2")]


def bench_reach(path: Path, repeat: int) -> list[Figure]:
    from .engine import space
    from .engine.tiled import load_battlefield

    bf = load_battlefield(path)
    starts = figure_tiles(bf, FIGURES_ON_FIELD)
    for s in starts:
        mine, ref = space.reach(bf, s, REACH_BUDGET).cost, reference_reach(bf, s, REACH_BUDGET)
        if mine.keys() != ref.keys() or any(abs(mine[t] - ref[t]) > 1e-9 for t in ref):
            raise SystemExit(f"escarmouche bench: reach from {s} disagrees with the heapq reference")
    ours = median_time(lambda: [space.reach(bf, s, REACH_BUDGET) for s in starts], repeat) / len(starts)
    theirs = median_time(lambda: [reference_reach(bf, s, REACH_BUDGET) for s in starts], repeat) / len(starts)
    return [Figure(f"reach with a budget of {REACH_BUDGET} pas, {path.stem}", ours * 1000, "ms",
                   "a plain heapq Dijkstra on flat arrays", theirs * 1000, "≤ ×1")]


def bench_maps(repeat: int, folder: Path) -> list[Figure]:
    from .engine.mapcheck import check_map
    from .engine.tiled import load_battlefield

    out = []
    for size, runs in ((600, repeat), (2048, max(1, repeat // 2))):
        path = empty_map(folder / f"empty{size}.tmx", size)
        ref = median_time(lambda: decode_layer(path), runs, time.process_time)
        words = "reading the file and inflating its layer"
        out.append(Figure(f"validate an empty {size}×{size} map (CPU)",
                          median_time(lambda: check_map(path), runs, time.process_time), "s", words, ref,
                          "≤ 1 s" if size == 2048 else "—"))
        if size == 2048:
            out.append(Figure(f"load an empty {size}×{size} map (CPU)",
                              median_time(lambda: load_battlefield(path), runs, time.process_time), "s", words,
                              ref, "≤ 1 s"))
    return out


def _child(code: str, home: Path, timeout: float = 600) -> dict:
    """Run python code in a headless child process; it prints one JSON object as its last line."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "ESCARMOUCHE_HOME": str(home),
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(f"escarmouche bench: a child process failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _children_cpu() -> float:
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run_cpu(args: list[str], home: Path, repeat: int) -> float:
    """Median CPU seconds (user and system) of a headless child process running ``args``."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "ESCARMOUCHE_HOME": str(home),
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}

    def once() -> None:
        done = subprocess.run(args, capture_output=True, env=env, timeout=600)
        if done.returncode != 0:
            raise SystemExit(f"escarmouche bench: {' '.join(args[1:])} failed: {done.stderr.decode()[-400:]}")
    return median_time(once, repeat, _children_cpu)


BARE_WINDOW = ("import pygame; pygame.init(); s = pygame.display.set_mode((1280, 720)); s.fill((0, 0, 0)); "
               "pygame.display.flip()")


def peak_rss_mb() -> float:
    """The peak resident memory of this program: VmHWM, which a child does not inherit from its parent."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
    except (OSError, StopIteration, ValueError):
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_window(path: Path, repeat: int, home: Path) -> list[Figure]:
    frames = _child(f"import json; from game.bench import frame_child; print(json.dumps(frame_child({str(path)!r}, 300)))",
                    home)
    bare = _child("import json; from game.bench import BARE_WINDOW, peak_rss_mb; exec(BARE_WINDOW); "
                  "print(json.dumps({'rss_mb': peak_rss_mb()}))", home)
    out = []
    blit = frames["blit_ms"]
    for view in frames["views"]:
        label = f"frame, 1280×720, {path.stem}, {frames['figures']} figures, every overlay, {view['view']}"
        out.append(Figure(f"{label}: median", view["median_ms"], "ms", "one full-screen blit", blit, "≤ ×4"))
        out.append(Figure(f"{label}: p95", view["p95_ms"], "ms", "one full-screen blit", blit, "≤ ×8"))
    if "walking" in frames:
        label = f"frame while a figure walks, {path.stem}, {frames['figures']} figures, every overlay"
        out.append(Figure(f"{label}: median", frames["walking"]["median_ms"], "ms", "one full-screen blit", blit, "≤ ×4"))
        out.append(Figure(f"{label}: p95", frames["walking"]["p95_ms"], "ms", "one full-screen blit", blit, "≤ ×8"))
    if "clips" in frames:
        label = (f"frame while clips play ({', '.join(frames['clips']['kinds'])}), {path.stem}, "
                 f"{frames['figures']} figures, every overlay")
        out.append(Figure(f"{label}: median", frames["clips"]["median_ms"], "ms", "one full-screen blit", blit, "≤ ×4"))
        out.append(Figure(f"{label}: p95", frames["clips"]["p95_ms"], "ms", "one full-screen blit", blit, "≤ ×8"))
    out.append(Figure(f"window memory (peak RSS), {path.stem}, overlays on", frames["rss_mb"], "MB",
                      "a bare 1280×720 pygame window", bare["rss_mb"], "≤ 200 MB"))
    py = [sys.executable]
    runs = max(repeat, 5)
    out.append(Figure("escarmouche --help", _run_cpu(py + ["-m", "game", "--help"], home, runs) * 1000, "ms",
                      "python -c pass", _run_cpu(py + ["-c", "pass"], home, runs) * 1000, "≤ ×2.5"))
    first = _run_cpu(py + ["-m", "game", "play", "--map", str(path), "--rules", "eisdrachen", "--frames", "1"], home,
                  repeat)
    out.append(Figure(f"start to the first battle frame, {path.stem}", first * 1000, "ms",
                      "a bare pygame window opened and drawn once", _run_cpu(py + ["-c", BARE_WINDOW], home, repeat) * 1000,
                      "≤ 1000 ms"))
    return out


def bench_battles(path: Path, repeat: int, home: Path) -> list[Figure]:
    from .engine.save import save_match

    out = []
    for rules in ("eisdrachen", "kolaps"):
        times, decisions, match = [], [], None
        for _ in range(repeat):
            t = time.process_time()
            match, ms = headless_battle(path, rules)
            times.append(time.process_time() - t)
            decisions = ms
        replayed = median_time(lambda: replay_in_process(match, path), repeat)
        per_answer = replayed / max(1, len(match.answers)) * 1000
        engine = "the engine work per answer (replayed in process)"
        out.append(Figure(f"AI decision, {rules}, {path.stem}: median", statistics.median(decisions), "ms", engine,
                          per_answer, "≤ 20 ms"))
        out.append(Figure(f"AI decision, {rules}, {path.stem}: max", max(decisions), "ms", engine, per_answer,
                          "≤ 200 ms"))
        if rules != "eisdrachen":
            continue
        out.append(Figure(f"one headless 10-against-10 {rules} battle, {path.stem} ({len(match.answers)} answers)",
                          statistics.median(times), "s", "the engine work redone (its answers replayed in process)",
                          replayed, "≤ 2 s"))
        save = home / "battle.json"
        save_match(match, save)
        verify = _run_cpu([sys.executable, "-m", "game", "replay", str(save), "--verify"], home, repeat)
        out.append(Figure("replay --verify of that battle", verify, "s",
                          "the engine work redone (its answers replayed in process)", replayed, "≤ 1 s"))
    return out


def battle_armies(bf, rules: str, per_side: int):
    """The module's default armies, their figures repeated to ``per_side`` on each side."""
    from .rules import get
    from .engine.protocol import Army

    out = []
    for army in get(rules).default_armies(bf):
        figures = [dict(army.figures[i % len(army.figures)]) for i in range(per_side)]
        out.append(Army(army.side, army.name, figures))
    return out


def headless_battle(path: Path, rules: str, per_side: int = 10, seed: int = 1):
    """One tactical-against-tactical battle: (the finished match, every decision's milliseconds)."""
    from .ai import make_player
    from .engine.save import new_match
    from .engine.tiled import load_battlefield
    from .sim import Report, play_game

    match = new_match(path, rules, seed, battle_armies(load_battlefield(path), rules, per_side))
    decisions: list[float] = []
    players = {side: Timed(make_player("tactical", rules, seed * 2 + side + 1), decisions) for side in (0, 1)}
    play_game(match, players, Report(), check_invariants=False)
    return match, decisions or [0.0]


class Timed:
    """A player whose every decision is timed in CPU time of its thread (milliseconds)."""

    def __init__(self, player, times: list[float]):
        self.player, self.times, self.name = player, times, player.name

    def choose(self, *args):
        t = time.thread_time()
        key = self.player.choose(*args)
        self.times.append((time.thread_time() - t) * 1000)
        return key


def replay_in_process(match, path: Path) -> None:
    from .engine.save import new_match

    again = new_match(path, match.rules.id, match.seed, match.armies, match.max_turns)
    for key in match.answers:
        again.answer(key, undoable=False)


# --- the window, in a child process ----------------------------------------------------------

def frame_child(map_path: str, frames: int, figures: int = FIGURES_ON_FIELD, rules: str = "eisdrachen",
                zoom: float | None = None, screenshot: str | None = None) -> dict:
    """Time battle frames at 1280×720 with every overlay on (CPU time of the drawing thread).

    The armies are the module's default ones repeated to ``figures`` in all; the first move of
    the first figure is hovered (reach, path preview and odds), the terrain overlay is on, and the
    view pans a little every 60 frames, as a player does.
    """
    import pygame

    from .engine.tiled import load_battlefield
    from .ui.anim import Clip
    from .ui.app import App, start_battle
    from .ui.mapview import ZOOMS
    from .ui.settings import Settings

    path = Path(map_path)
    app = App({"fps": 0}, Settings(language="fr", ai_speed="instant"))
    armies = battle_armies(load_battlefield(path), rules, figures // 2)
    scene = start_battle(app, path, rules, "hotseat", 1, armies=armies)
    app.push(scene)
    match = scene.match
    while match.pending is not None and match.pending.kind != "action":   # get to a move decision
        match.answer(match.pending.options[0].key)
    app.step()
    scene.show_terrain = True
    d = match.pending
    moves = [o for o in d.options if o.path] if d is not None else []
    actor = scene.figure(d.figure) if d is not None else None
    views = [("zoom %.2f" % zoom, zoom)] if zoom else [("opening view", scene.view.zoom), ("whole map", ZOOMS[0])]
    result = {"figures": len(scene.figs), "views": []}
    for name, z in views:
        scene.view.zoom = z
        if actor is not None:
            scene.view.centre = (actor.tile[0] + 0.5, actor.tile[1] + 0.5)
        scene.view.pan_pixels(0, 0)
        hover = max(moves, key=lambda o: o.cost).tile if moves else (0, 0)
        pos = scene.view.tile_centre(hover)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        for _ in range(10):
            app.step()
        times = []
        for i in range(frames):
            if i % 60 == 30:
                scene.view.pan_pixels(3, 2)
            t = time.thread_time()
            app.step()
            times.append((time.thread_time() - t) * 1000)
        times.sort()
        result["views"].append({"view": name, "zoom": z, "median_ms": statistics.median(times),
                                "p95_ms": times[int(len(times) * 0.95) - 1], "max_ms": times[-1]})
    if actor is not None:       # while a figure walks it is drawn over the kept screen every frame
        scene.view.zoom = views[0][1]
        scene.view.centre = (actor.tile[0] + 0.5, actor.tile[1] + 0.5)
        scene.view.pan_pixels(0, 0)
        times = []
        tile = tuple(actor.tile)
        scene.timeline.clips.append(Clip("walk", scene.timeline.clock, 3600.0, actor.id, {"path": [tile, tile]}))
        for _ in range(frames // 2):
            t = time.thread_time()
            app.step()
            times.append((time.thread_time() - t) * 1000)
        times.sort()
        result["walking"] = {"median_ms": statistics.median(times), "p95_ms": times[int(len(times) * 0.95) - 1]}
        scene.timeline.clips.clear()
        if moves:
            result["clips"] = _clip_frames(app, scene, actor, max(moves, key=lambda o: len(o.path)), frames * 2)
    if screenshot:
        app.screenshot(screenshot)
    full = pygame.Surface(app.screen.get_size()).convert()
    result["blit_ms"] = median_time(lambda: app.screen.blit(full, (0, 0)), 300, time.thread_time) * 1000
    result["rss_mb"] = peak_rss_mb()
    result["map"] = path.name
    pygame.quit()
    return result


def _clip_frames(app, scene, actor, move, frames: int) -> dict:
    """Frames while every kind of clip plays, one answer's events after another as an AI turn shows
    them (a walk along the longest move, a shot, its dice, a wound, a throw and its blast, a death),
    the camera following: the frames where the events are queued are timed too."""
    from .engine.events import Event

    enemy = next(f for f in scene.figs if f.side != actor.side and f.tile is not None)
    lands = tuple(enemy.tile)
    sequence = [Event("moved", {"figure": actor.id, "from": list(actor.tile), "path": [list(t) for t in move.path]}),
                Event("attack", {"figure": actor.id, "target": enemy.id, "style": "shot", "hit": True}),
                Event("dice", {"who": actor.id, "faces": [6, 3], "needed": 4}),
                Event("damaged", {"figure": enemy.id, "amount": 2}),
                Event("thrown", {"figure": actor.id, "from": list(move.path[-1]), "aim": list(lands), "lands": list(lands)}),
                Event("blast", {"tile": list(lands), "radius": 2}),
                Event("removed", {"figure": enemy.id, "why": "killed"})]
    times, kinds = [], set()
    for _ in range(frames):
        t = time.thread_time()
        if not scene.timeline.busy:
            scene.version += 1
            scene.animate(sequence, {f.id: f for f in scene.figs})
        app.step()
        times.append((time.thread_time() - t) * 1000)
        kinds |= {c.kind for c in scene.timeline.playing()}
    times.sort()
    return {"median_ms": statistics.median(times), "p95_ms": times[int(len(times) * 0.95) - 1], "kinds": sorted(kinds)}


# --- the command -------------------------------------------------------------------------------

def run(as_json: bool = False, repeat: int = 3) -> int:
    """Measure every figure and print the table (or, with ``as_json``, one JSON object last)."""
    path = largest_map()
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if as_json else print
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="escarmouche-bench-") as tmp:
        home = Path(tmp)
        steps = [("line of sight", lambda: bench_sight(path, repeat)),
                 ("reach", lambda: bench_reach(path, repeat)),
                 ("window and start-up", lambda: bench_window(path, repeat, home)),
                 ("battles", lambda: bench_battles(path, repeat, home)),
                 ("map analysis", lambda: bench_maps(repeat, home))]
        for name, step in steps:
            say(f"measuring {name}…")
            found = step()
            figures += found
            if not as_json:
                for f in found:
                    print("  " + line(f))
    if as_json:
        print(json.dumps({"map": path.name, "repeat": repeat, "python": sys.version.split()[0],
                          "cpus": os.cpu_count(), "figures": [f.row() for f in figures]}, ensure_ascii=False))
    return 0


def line(f: Figure) -> str:
    def num(v: float) -> str:
        return f"{v:.3g}" if v < 100 else f"{v:.0f}"
    return (f"{f.name}: {num(f.value)} {f.unit} | reference {num(f.reference_value)} {f.unit} ({f.reference}) | "
            f"×{f.ratio:.2f} | target {f.target}")
