"""What happened, shown: every core event of an answer becomes a clip on one timeline the window plays.

The match has already changed when the clips play: they only draw what happened, one after another
(a walk, then the shot, then the dice, then the wound), from the core events alone, so a new module gets
them for free. The timeline runs on the window's fixed update step, never on the engine's: it cannot
change a result or when it happens. Space skips it; the AI's fast-forward plays it four times as fast.

Secrets: only the events the viewer may see become clips, and a clip of a private event (``visible_to``
set) plays alongside the others without pushing them later, so how long the public sequence lasts (and
so when a hot-seat hand-over comes) never depends on what one side alone may see.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import ANIMATIONS

STEP_SECONDS = 0.12         # one tile of a walk: slow enough to follow the path
WALK_MOST = 1.6
SEQUENCE_MOST = 5.0         # a long answer (a blast on a crowd) plays faster rather than longer
FAST = 4.0
FLOAT_SECONDS = 1.3
TRAY_HOLD = 2.5             # the dice stay in the tray this long after the sequence ends

# kind -> (how long it plays, how long the next clip waits for it)
TIMING = {"shot": (0.5, 0.4), "lunge": (0.45, 0.4), "throw": (0.9, 0.9), "blast": (0.7, 0.45),
          "trap": (0.7, 0.5), "puff": (0.7, 0.45), "wound": (FLOAT_SECONDS, 0.3), "heal": (FLOAT_SECONDS, 0.3),
          "death": (0.8, 0.5), "dice": (0.45, 0.35)}
FIGURE_KINDS = ("walk", "lunge", "wound", "heal", "death")      # the clips that change how their figure looks
KINDS = ANIMATIONS


@dataclass
class Clip:
    """One thing shown: ``kind`` is one of KINDS; ``data`` its plain facts (tiles in world coordinates)."""

    kind: str
    start: float
    duration: float
    figure: str | None = None
    data: dict = field(default_factory=dict)
    focus: tuple[float, float] | None = None
    private: bool = False
    batch: int = 0              # the answer it shows (the dice tray shows the latest answer's rolls)

    @property
    def end(self) -> float:
        return self.start + self.duration

    def progress(self, clock: float) -> float:
        return 0.0 if self.duration <= 0 else min(1.0, max(0.0, (clock - self.start) / self.duration))


def _tile(value) -> tuple[int, int] | None:
    try:
        return int(value[0]), int(value[1])
    except (TypeError, ValueError, IndexError, KeyError):
        return None


def centre(tile) -> tuple[float, float]:
    return tile[0] + 0.5, tile[1] + 0.5


def miss_point(frm, to, salt: str) -> tuple[float, float]:
    """Where a missed shot flies: past the target and off to one side (the side drawn from the ids, so
    the same shot misses the same way each time it is shown)."""
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    length = math.hypot(dx, dy) or 1.0
    side = 1 if sum(map(ord, salt)) % 2 else -1
    return (to[0] + dx / length * 1.2 - dy / length * 0.9 * side,
            to[1] + dy / length * 1.2 + dx / length * 0.9 * side)


class Timeline:
    """The clips of the answers made so far and the clock that plays them."""

    def __init__(self):
        self.clips: list[Clip] = []
        self.clock = 0.0
        self.cursor = 0.0           # where the next public clip starts: the end of the sequence
        self.started: set[int] = set()
        self.batches = 0
        self._memo: tuple = (None, [])           # (clock and clips, the clips playing then)
        self._index: tuple = (None, {}, 0.0)     # (clips, every clip by its figure, when the last one ends)

    # --- building ----------------------------------------------------------------------

    def add(self, events, viewer: int | None, where: dict[str, tuple[int, int]], names: dict[str, str]) -> list[Clip]:
        """Clips for the events of one answer the viewer may see. ``where`` maps figure ids to their tile
        before the answer; it is moved along as the events move figures."""
        where = dict(where)
        self.cursor = max(self.cursor, self.clock)
        first = len(self.clips)
        begin = self.cursor
        self.batches += 1
        for e in events:
            if not e.seen_by(viewer) or not isinstance(e.data, dict):
                continue
            for clip in self._clips_of(e, where, names):
                clip.private = e.visible_to is not None
                clip.batch = self.batches
                self._place(clip)
        new = self.clips[first:]
        length = self.cursor - begin
        if length > SEQUENCE_MOST:     # squeeze a long sequence into the longest one shown
            k = SEQUENCE_MOST / length
            for c in new:
                c.start = begin + (c.start - begin) * k
                c.duration *= k
            self.cursor = begin + SEQUENCE_MOST
        return new

    def _place(self, clip: Clip) -> None:
        clip.start = self.cursor
        if clip.kind == "walk":
            last = next((c for c in reversed(self.clips) if c.kind == "walk" and c.figure == clip.figure), None)
            if last is not None and last.end >= self.cursor - 1e-9 and last.data["path"][-1] == clip.data["path"][0] \
                    and last.private == clip.private:
                last.data["path"] += clip.data["path"][1:]     # one step after another: one walk
                extra = min(WALK_MOST, STEP_SECONDS * (len(last.data["path"]) - 1)) - last.duration
                last.duration += max(0.0, extra)
                if not clip.private:
                    self.cursor = max(self.cursor, last.end)
                return
            clip.duration = min(WALK_MOST, STEP_SECONDS * (len(clip.data["path"]) - 1))
            wait = clip.duration
        else:
            clip.duration, wait = TIMING[clip.kind]
        if clip.kind in ("wound", "heal"):      # a lane of its own over the figure while another still rises
            taken = {c.data.get("lane") for c in self.clips if c.kind in ("wound", "heal")
                     and c.figure == clip.figure and c.end > clip.start}
            clip.data["lane"] = next(n for n in range(len(taken) + 1) if n not in taken)
        self.clips.append(clip)
        if not clip.private:
            self.cursor += wait

    def _clips_of(self, e, where: dict, names: dict) -> list[Clip]:
        d, kind = e.data, e.kind
        fid = d.get("figure") if isinstance(d.get("figure"), str) else None
        if kind == "moved":
            start, path = _tile(d.get("from")), [_tile(t) for t in d.get("path") or ()]
            if fid is None or start is None or not path or None in path:
                return []
            where[fid] = path[-1]
            return [Clip("walk", 0, 0, fid, {"path": [start, *path]}, centre(path[-1]))]
        if kind == "attack":
            frm = where.get(fid)
            target = d.get("target")
            to = where.get(target) if isinstance(target, str) else None
            to = to or _tile(d.get("tile"))
            if frm is None or to is None:
                return []
            a, b = centre(frm), centre(to)
            hit = d.get("hit") is not False
            if d.get("style") == "melee":
                return [Clip("lunge", 0, 0, fid, {"from": a, "to": b, "hit": hit}, b)]
            end = b if hit else miss_point(a, b, f"{fid}{target}")
            return [Clip("shot", 0, 0, fid, {"from": a, "to": end, "target": b, "hit": hit}, b)]
        if kind == "thrown":
            frm, aim, lands = _tile(d.get("from")), _tile(d.get("aim")), _tile(d.get("lands"))
            if frm is None or lands is None:
                return []
            return [Clip("throw", 0, 0, fid, {"from": centre(frm), "aim": centre(aim or lands),
                                              "lands": centre(lands)}, centre(lands))]
        if kind == "blast":
            tile = _tile(d.get("tile"))
            radius = d.get("radius")
            if tile is None or not isinstance(radius, (int, float)) or isinstance(radius, bool):
                return []
            return [Clip("blast", 0, 0, None, {"at": centre(tile), "radius": max(0.5, float(radius))}, centre(tile))]
        if kind == "revealed":
            tile = _tile(d.get("tile"))
            if tile is None:
                return []
            return [Clip("trap" if d.get("real") else "puff", 0, 0, None, {"at": centre(tile)}, centre(tile))]
        if kind in ("damaged", "healed") and fid is not None and fid in where:
            amount = d.get("amount")
            text = f"{'-' if kind == 'damaged' else '+'}{amount}" if isinstance(amount, int) else ""
            return [Clip("wound" if kind == "damaged" else "heal", 0, 0, fid, {"text": text, "gauge": d.get("gauge")},
                         centre(where[fid]))]
        if kind == "removed" and fid is not None and fid in where:
            return [Clip("death", 0, 0, fid, {"at": centre(where[fid]), "why": d.get("why")}, centre(where[fid]))]
        if kind == "dice" and isinstance(d.get("faces"), list):
            who = d.get("who")
            focus = centre(where[who]) if isinstance(who, str) and who in where else None
            return [Clip("dice", 0, 0, who if isinstance(who, str) else None, dict(d), focus)]
        return []

    # --- playing -----------------------------------------------------------------------

    def update(self, dt: float, fast: bool = False) -> list[Clip]:
        """Advance the clock; the clips that have just started (for sounds and the camera)."""
        self.clock += dt * (FAST if fast else 1.0)
        begun = []
        for i, c in enumerate(self.clips):
            if i not in self.started and c.start <= self.clock:
                self.started.add(i)
                begun.append(c)
        self._forget()
        return begun

    def _forget(self) -> None:
        """Drop clips long over (the dice tray keeps the last rolls a while)."""
        if self.clips and self._indexed()[1] + TRAY_HOLD < self.clock:
            self.clips.clear()
            self.started.clear()

    def skip(self) -> None:
        """Space: everything scheduled is shown done at once (the dice tray keeps the last roll)."""
        end = max([self.cursor] + [c.end for c in self.clips])
        self.clock = max(self.clock, end)
        self.started = set(range(len(self.clips)))

    def cut(self) -> None:
        """A hand-over: what the last viewer was shown goes with them."""
        self.clock = max([self.clock, self.cursor] + [c.end for c in self.clips]) + TRAY_HOLD + 1
        self.clips.clear()
        self.started.clear()

    @property
    def busy(self) -> bool:
        """The public sequence is still playing (what the AI's next move and a hand-over wait for)."""
        return self.clock < self.cursor - 1e-9

    @property
    def moving(self) -> bool:
        """Something is still being drawn from the clock."""
        return any(c.start - 1e-9 <= self.clock < c.end for c in self.clips) or self.busy

    def _indexed(self) -> tuple[dict[str, list[Clip]], float]:
        """Every clip by the figure it is about, and when the last clip ends: worked out again only when
        clips come or go (an answer's clips are added in one batch)."""
        shape = (len(self.clips), self.batches)
        if self._index[0] != shape:
            by_figure: dict[str, list[Clip]] = {}
            for c in self.clips:
                if c.figure is not None:
                    by_figure.setdefault(c.figure, []).append(c)
            self._index = (shape, by_figure, max((c.end for c in self.clips), default=0.0))
        return self._index[1], self._index[2]

    def _now(self) -> tuple[list[Clip], dict[str, list[Clip]]]:
        """The clips playing now, and every clip by the figure it is about (every figure drawn asks)."""
        by_figure = self._indexed()[0]
        now = (self.clock, len(self.clips), self.batches)
        if self._memo[0] != now:
            self._memo = (now, [c for c in self.clips if c.start <= self.clock < c.end])
        return self._memo[1], by_figure

    def playing(self, kind: str | None = None) -> list[Clip]:
        return [c for c in self._now()[0] if kind is None or c.kind == kind]

    def of(self, fid: str) -> list[Clip]:
        return self._now()[1].get(fid, [])

    def involved(self) -> frozenset[str]:
        """The figures some clip of the answers shown now is about, but the dead whose death has been
        shown: drawn anew each frame while clips play (they walk, lunge, flash, fade, or look as before
        the answer until their clip starts), so the rest of the screen is kept from the answer until
        its clips are forgotten."""
        return frozenset(fid for fid, clips in self._now()[1].items()
                         if any(c.kind in FIGURE_KINDS for c in clips)
                         and not any(c.kind == "death" and c.end <= self.clock for c in clips))

    def waiting(self, fid: str) -> bool:
        """A clip about this figure has not started: it is still drawn as it was before the answer."""
        return any(c.start > self.clock and c.kind != "dice" for c in self.of(fid))

    def dying(self, fid: str) -> Clip | None:
        return next((c for c in self.of(fid) if c.kind == "death" and c.end > self.clock), None)

    def position(self, fid: str, tile) -> tuple[float, float]:
        """Where a figure is drawn now, in world coordinates: along its walk, else where it stands."""
        for c in self.of(fid):
            if c.kind != "walk":
                continue
            path = c.data["path"]
            if self.clock < c.start:
                return centre(path[0])
            if self.clock < c.end:
                pos = c.progress(self.clock) * (len(path) - 1)
                i = int(pos)
                a, b = path[i], path[min(i + 1, len(path) - 1)]
                k = pos - i
                return a[0] + (b[0] - a[0]) * k + 0.5, a[1] + (b[1] - a[1]) * k + 0.5
        return centre(tile)

    def lunge(self, fid: str) -> tuple[float, float]:
        """How far a figure leans out of its tile now (towards the enemy it strikes), in tiles."""
        for c in self.of(fid):
            if c.kind == "lunge" and c.start <= self.clock < c.end:
                (ax, ay), (bx, by) = c.data["from"], c.data["to"]
                k = 0.45 * math.sin(math.pi * c.progress(self.clock))
                return (bx - ax) * k, (by - ay) * k
        return 0.0, 0.0

    def flash(self, fid: str) -> tuple[int, int, int] | None:
        """The colour a figure flashes now (hurt red, healed green), or None."""
        for c in self.of(fid):
            if c.kind in ("wound", "heal") and c.start <= self.clock < c.end and self.clock - c.start < 0.3:
                return (255, 60, 40) if c.kind == "wound" else (90, 240, 120)
        return None

    def floaters(self) -> list[tuple[Clip, int]]:
        """The rising numbers now, each with its lane: a number over a figure whose last one still
        rises takes the next lane up, so numbers never pile on one another."""
        return [(c, c.data.get("lane", 0)) for c in self.playing() if c.kind in ("wound", "heal") and c.data.get("text")]

    def rolls(self) -> list[Clip]:
        """The dice rolled so far by the latest answer that rolled any, for the tray (its last three)."""
        shown = [c for c in self.clips if c.kind == "dice" and c.start <= self.clock]
        latest = max((c.batch for c in shown), default=0)
        return [c for c in shown if c.batch == latest][-3:]
