"""The battle screen: map, figures, overlays, action bar, combat log, hand-over and AI turns.

Every pending decision is turned into widgets generically: options are grouped by ``action``;
options that point at the map (a tile, a target figure, a figure to pick) are answered by a
click there; the others by a button; any kind without a better widget gets a list of buttons.
The match is only ever changed here, on the main thread.
"""
from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from pathlib import Path

import pygame

from ..ai import make_player
from ..ai.random_player import RandomPlayer
from ..engine.decision import Decision, Option
from ..engine.events import Event
from ..engine.save import save_match
from ..errors import EscarmoucheError
from .anim import Timeline
from .combatlog import describe, in_words
from .hud import BattleDrawing, action_label, paces, side_name, term
from .i18n import has, language, name_words, tr, use_rules
from .mapview import ZOOMS, MapView
from .dice_tray import Tray
from .frame import LiveFrame, copy_area
from .maprender import base_tile_size, render_base, terrain_overlay
from .settings import AI_SPEEDS, autosave_path, saves_dir
from .sprites import Art, Sprites
from .widgets import ACCENT, BAD, BG, Scroll, side_colour

NOTICE_SECONDS = 5.0
SOUNDS = {"shot": "shot", "lunge": "melee", "throw": "throw", "blast": "blast", "trap": "blast", "puff": "puff",
          "wound": "wound", "death": "death", "dice": "dice"}      # clip kind -> sound (walks step per tile)
CAMERA_GLIDE = 0.2      # the share of the way to its goal the camera covers each update


def hands_over(rules, viewer: int | None, side: int) -> bool:
    """Hot-seat: does the screen pass to ``side`` behind a hand-over screen before it decides?

    For a rule system that keeps anything secret, at every change of the deciding side, the first
    decision of a game or of a saved game included (no one holds the screen yet: the first player may
    have a secret to declare, and whoever opened a save may be the other player). It never depends on
    what is hidden at the moment, so the rhythm of hand-overs tells a player nothing.
    """
    return rules.keeps_secrets and side != viewer


class AIJob:
    """One AI decision computed on a worker thread so the window keeps drawing."""

    def __init__(self, player, match, decision: Decision):
        self.decision = decision
        self.result: str | None = None
        self.error: str = ""
        self.done = threading.Event()
        threading.Thread(target=self._run, args=(player, match, decision), daemon=True).start()

    def _run(self, player, match, decision) -> None:
        try:
            self.result = str(player.choose(match.observe(decision.side), decision))
        except Exception as e:  # an AI bug must not freeze the game: the loop falls back to a legal answer
            self.error = f"{e.__class__.__name__}: {e}"
        finally:
            self.done.set()


class BattleScene(BattleDrawing):
    ambient = False         # no menu ambience under a battle

    def __init__(self, app, match, mode: str = "hotseat", human_side: int = 0, loaded=None,
                 save_path: str | Path | None = None, ai_name: str = "tactical", zoom: float | None = None):
        self.app = app
        self.start_zoom = zoom          # a loaded battle opens at the zoom it was saved at
        self.notices: list[dict] = []
        self.side_scroll = Scroll()
        self.match = match
        self.rules = match.rules
        use_rules(match.rules)
        self.mode = mode
        self.human_side = human_side
        bf = match.battlefield
        self.base = render_base(bf, loaded)
        self.tile_px = base_tile_size(bf, loaded)
        self.terrain_layer = None
        self.show_terrain = False
        self.show_log = True
        self.view = MapView(self.base, (bf.width, bf.height), self.tile_px)
        # a module that shows side panels or figures off the map gets a column for them, kept all game
        self.has_side = bool(self.rules.panels(match.state, None)) or \
            any(f.tile is None for f in self.rules.figures(match.state, None))
        self._fitted = False
        ai_sides = {"hotseat": (), "vs-ai": (1 - human_side,), "ai-vs-ai": tuple(self.rules.sides)}[mode]
        self.ai_players = {s: self._make_ai(ai_name, s) for s in ai_sides}
        self.fallback_ai = RandomPlayer(match.seed)
        self.ai_job: AIJob | None = None
        self.ai_ready_at = 0.0
        self.fast_forward = False
        self.last_ai: Option | None = None
        self.viewer: int | None = None if mode == "ai-vs-ai" else (human_side if mode == "vs-ai" else None)
        self.handover_to: int | None = None
        self.group: str | None = None
        self.chooser: list[Option] | None = None
        self.chooser_page = 0
        self.decision_id = None
        self.hover_tile = None
        self.press = None
        self.dragged = False
        self.status = ""
        self.status_until = 0.0
        self.turn_seen = self.rules.turn(match.state)
        self.last_answer_side: int | None = None
        self.save_path = Path(save_path) if save_path else None
        self.log_scroll = 0
        self._cache_key = None
        self.version = 0
        self._log_mark = (None, 0, None)
        self._last_move = None
        self._odds_cache: dict[str, object] = {}
        self._seen: tuple = (None, None)
        self._reach_layer = None
        self._reach_key = None
        self.figs = []
        self.tokens = []
        self.overlays = []
        self.panels = []
        self.panel_rects: list[pygame.Rect] = []
        self.names: dict[str, str] = {}
        self.log_lines: list[str] = []
        self.log_sides: list[int | None] = []
        self.sides: dict[str, int] = {}
        self.timeline = Timeline()
        self.tray = Tray()
        self.before: dict[str, object] = {}     # figures as seen before the answer whose clips still play
        self.art = Art(self.rules)
        self.sprites = Sprites()
        self.badge_spots: list = []
        self.camera_goal: tuple[float, float] | None = None
        self.glide: tuple | None = None     # the camera's last glide, which its frame shows until the view moves
        self.glide_end: tuple[float, float] | None = None
        self.moved: frozenset = frozenset()     # the figures the last clips played were about
        self._steps_heard: dict[int, int] = {}
        self._wrap_key = None
        self._wrapped: list[tuple] = []
        self._log_layout: dict[tuple, list[tuple]] = {}
        self._header_key = None
        self._token_pictures: dict[tuple, tuple] = {}
        self._token_of: dict[str, tuple] = {}      # figure id: (the figure drawn, its size and ring, its picture)
        self._area_pictures: dict[tuple, tuple] = {}
        self._header_height = 0
        self.finished_at: float | None = None
        self._events = 0
        self._frame: LiveFrame | None = None
        self._frame_key = None
        self._kept: dict[str, pygame.Surface] = {}
        self._groups: tuple = (None, OrderedDict())
        self.layout()

    def _make_ai(self, name: str, side: int):
        try:
            return make_player(name, self.rules.id, self.match.seed * 2 + side + 1)
        except (EscarmoucheError, ImportError):
            return make_player("random", self.rules.id, self.match.seed * 2 + side + 1)

    # --- what the current viewer may see ------------------------------------------

    def refresh(self) -> None:
        """Recompute what the viewer sees after the match changed (every change goes through this scene)."""
        key = (self.version, self.viewer)
        if key == self._cache_key:
            return
        self._cache_key = key
        st = self.match.state
        self.figs = self.rules.figures(st, self.viewer)
        self.tokens = self.rules.tokens(st, self.viewer)
        self.overlays = self.rules.overlays(st, self.viewer)
        self.panels = self.rules.panels(st, self.viewer)
        everyone = self.rules.figures(st, None)
        shared = {f.name for f in everyone if sum(g.name == f.name for g in everyone) > 1}
        for f in everyone:      # two sides' "Avatar 1" are told apart by their side in the log and lists
            name = name_words(f.name)
            self.names.setdefault(f.id, f"{name} ({tr(f'side.short.{f.side}')})" if f.name in shared else name)
            self.sides.setdefault(f.id, f.side)
        for thing in self.rules.objects(st, self.viewer):   # "Mitrailleuse (5,6)", not the rules' "e1"
            x, y = thing.tiles[0]
            self.names.setdefault(thing.id, f"{term(thing.name)} ({x},{y})")
        log = self.match.log
        seen_viewer, seen_count, seen_last = self._log_mark
        if seen_viewer == self.viewer and 0 < seen_count <= len(log) and log[seen_count - 1] is seen_last:
            new = log[seen_count:]          # the log only grew: describe the new events alone
        else:
            new, self.log_lines, self.log_sides, self._last_move = log, [], [], None
        lines, sides = list(self.log_lines), list(self.log_sides)
        for e in (e for e in new if e.seen_by(self.viewer)):
            walk = self.walk_on(e)
            if walk is not None:        # one step after another of the same figure: one line for the walk
                lines[-1] = describe(walk, self.names)
                self._last_move = walk
                continue
            lines.append(describe(e, self.names))
            sides.append(self.event_side(e))
            self._last_move = e if e.kind == "moved" else None
        self.log_lines, self.log_sides = lines, sides
        self._log_mark = (self.viewer, len(log), log[-1] if log else None)
        self._odds_cache.clear()

    def walk_on(self, event) -> Event | None:
        """The last logged move carried on by this one (same figure, starting where it stopped), or None."""
        last = self._last_move
        if event.kind != "moved" or last is None or not isinstance(event.data, dict):
            return None
        start, end = event.data.get("from"), last.data.get("to")
        if event.data.get("figure") != last.data.get("figure") or start is None or end is None \
                or tuple(start) != tuple(end):
            return None
        path = list(last.data.get("path") or []) + list(event.data.get("path") or [])
        return Event("moved", {**last.data, "path": path, "to": event.data.get("to")}, last.visible_to, last.rule)

    def event_side(self, event) -> int | None:
        """The side an event is about (its acting figure's, or its own ``side``), to colour the log."""
        data = event.data if isinstance(event.data, dict) else {}
        for key in ("figure", "who"):
            if data.get(key) in self.sides:
                return self.sides[data[key]]
        side = data.get("side", data.get("who"))
        return side if isinstance(side, int) and not isinstance(side, bool) else None

    def figure_at(self, tile) -> object | None:
        for f in self.figs:
            if f.alive and f.tile is not None and tuple(f.tile) == tuple(tile):
                return f
        return None

    def on_map(self) -> list:
        """The figures drawn on the map (a crew member at a firing post is not)."""
        return [f for f in self.figs if f.tile is not None]

    def figure(self, fid: str | None):
        for f in self.figs:
            if f.id == fid:
                return f
        return None

    # --- decisions as widgets ---------------------------------------------------------

    @property
    def decision(self) -> Decision | None:
        return self.match.pending

    def human_turn(self) -> bool:
        """A person decides now: not the AI, and in hot-seat not while the screen waits to be handed over."""
        d = self.decision
        return d is not None and d.side not in self.ai_players and self.handover_to is None \
            and (self.mode != "hotseat" or self.viewer in (None, d.side) or not self.rules.keeps_secrets)

    def groups(self, d: Decision) -> OrderedDict:
        """The decision's options by action, in order (kept per decision: it is asked many times a frame)."""
        if self._groups[0] is not d:
            out: OrderedDict[str, list[Option]] = OrderedDict()
            for o in d.options:
                out.setdefault(o.action, []).append(o)
            self._groups = (d, out)
        return self._groups[1]

    def points_at(self, d: Decision, o: Option):
        """The tile an option is answered by clicking, or None for a button-only option."""
        if o.tile is not None:
            if o.target is None and not o.path and o.figure is not None and o.figure == d.figure:
                actor = self.figure(o.figure)
                if actor is not None and actor.tile is not None and tuple(actor.tile) == tuple(o.tile):
                    return None     # an action on the spot (hide, dig in): a button, not a map click
            return tuple(o.tile)
        if o.target is not None:
            f = self.figure(o.target)
            return tuple(f.tile) if f is not None and f.tile is not None else None
        if o.figure is not None and o.figure != d.figure:
            f = self.figure(o.figure)
            return tuple(f.tile) if f is not None and f.tile is not None else None
        return None

    def _new_decision(self, d: Decision) -> None:
        self.chooser = None
        self.chooser_page = 0
        self.group = None
        self._reach_key = None
        groups = self.groups(d)
        for action, opts in groups.items():
            if any(self.points_at(d, o) is not None and o.path for o in opts):
                self.group = action
                break
        if self.group is None and len(groups) == 1:
            self.group = next(iter(groups))
        actor = self.figure(d.figure) if d.figure else None
        if actor is not None and actor.tile is not None and self.app.settings.camera_follow \
                and not self.map_rect.collidepoint(self.view.tile_centre(actor.tile)):
            self.centre_on_actor()
        if d.kind not in ("action", "activate") and not any(o.path for o in d.options):
            self.chooser = list(d.options)      # choices that move a figure are made on the map instead

    def candidates(self, d: Decision, tile) -> list[Option]:
        pool = self.groups(d).get(self.group, []) if self.group else d.options
        return [o for o in pool if self.points_at(d, o) == tuple(tile)]

    def answer(self, option: Option, by_human: bool = True) -> None:
        side = self.decision.side if self.decision is not None else None
        self.refresh()
        before = {f.id: f for f in self.figs}
        try:
            events = self.match.answer(option.key, undoable=by_human)   # only a person may take an answer back
        except EscarmoucheError as e:
            self.say(str(e), bad=True)
            return
        self.version += 1
        self.animate(events, before)
        self.announce(events)
        self.last_answer_side = side if by_human else None
        self.decision_id = None
        self.chooser = None
        turn = self.rules.turn(self.match.state)
        if turn != self.turn_seen or self.match.over:
            self.turn_seen = turn
            self.autosave()

    def animate(self, events, before: dict) -> None:
        """Queue the clips of an answer's events the viewer may see (anim.py); the figures they concern
        keep their look from before the answer until their clips play."""
        where = {fid: tuple(f.tile) for fid, f in before.items() if f.tile is not None}
        self.before = {fid: f for fid, f in self.before.items() if self.timeline.waiting(fid) or self.timeline.dying(fid)}
        for clip in self.timeline.add(events, self.viewer, where, self.names):
            if clip.figure in before:
                self.before.setdefault(clip.figure, before[clip.figure])
            if clip.kind in ("wound", "heal") and clip.data.get("text"):
                amount = clip.data["text"].lstrip("+-")
                clip.data["text"] = tr("float.damaged" if clip.kind == "wound" else "float.healed", amount=amount)
        if self.app.settings.animations == "off":
            self.timeline.skip()

    def announce(self, events) -> None:
        """Put the notable events (the module says which) on screen in plain words, for each side that
        may see them, when it next has the screen."""
        self.refresh()      # names of figures the events concern
        for e in events:
            words = self.rules.notice(e)
            if words is None:
                continue
            if has(words.key):
                text = tr(words.key, **{k: in_words(k, v, self.names) for k, v in words.params})
            else:
                text = describe(Event(e.kind, e.data, e.visible_to), self.names)
            self.notices.append({"text": text, "side": self.event_side(e), "visible_to": e.visible_to, "shown": {}})
        del self.notices[:-12]

    def drawn_at(self, f) -> tuple[float, float] | None:
        """Where a figure is drawn now, in tiles: along its walk, leaning into a blow, or on its tile;
        None off the map."""
        if f.tile is None:
            then = self.before.get(f.id)
            if then is None or then.tile is None:
                return None
            f = then
        x, y = self.timeline.position(f.id, f.tile)
        dx, dy = self.timeline.lunge(f.id)
        return x + dx, y + dy

    def drawn_at_id(self, fid: str | None) -> tuple[float, float] | None:
        f = self.figure(fid) or self.before.get(fid)
        return self.drawn_at(f) if f is not None else None

    def play_clips(self, dt: float) -> None:
        """Advance the timeline: each clip that starts sounds, and the camera goes to it when it is off
        the screen (Settings may turn that off); a walk sounds a step per tile."""
        speed = 2.0 if self.app.settings.animations == "fast" else 1.0
        for clip in self.timeline.update(dt * speed, fast=self.fast_forward):
            if clip.kind in SOUNDS:
                self.app.sound.play(SOUNDS[clip.kind])
            if clip.focus is not None and self.app.settings.camera_follow:
                self.look_at(clip.focus)
        for clip in self.timeline.playing("walk"):
            tiles = int(clip.progress(self.timeline.clock) * (len(clip.data["path"]) - 1))
            if tiles > self._steps_heard.get(id(clip), 0):
                self._steps_heard[id(clip)] = tiles
                self.app.sound.play("step")
        if not self.timeline.clips:
            self._steps_heard.clear()
        if self.camera_goal is not None:
            (cx, cy), (gx, gy) = self.view.centre, self.camera_goal
            self.view.centre = (cx + (gx - cx) * CAMERA_GLIDE, cy + (gy - cy) * CAMERA_GLIDE)
            self.view.pan_pixels(0, 0)
            if abs(gx - cx) + abs(gy - cy) < 0.05 or self.view.centre == (cx, cy):
                self.camera_goal = None
                self.glide_end = self.view.centre

    def look_at(self, point: tuple[float, float], glide: bool = True) -> None:
        """Bring a point of the map into view when it is off the screen (or at its very edge): the camera
        glides there, or jumps when nothing is animated."""
        x, y = self.view.to_screen(*point)
        margin = int(self.view.cell)
        if not self.map_rect.inflate(-2 * margin, -2 * margin).collidepoint(x, y):
            self.camera_goal = point
            self.glide = ("glide", point)
            if not glide:
                self.view.centre = point
                self.view.pan_pixels(0, 0)
                self.camera_goal = None

    def click_tile(self, tile) -> None:
        d = self.decision
        if tile is None or d is None or not self.human_turn():
            return
        found = self.candidates(d, tile)
        if len(found) == 1:
            self.answer(found[0])
        elif len(found) > 1:
            self.chooser, self.chooser_page = found, 0
        else:
            others = [o for o in d.options if self.points_at(d, o) == tuple(tile)]
            if others:
                self.group = others[0].action
                self.say(tr("status.click_again", action=action_label(self.group)))
            else:
                self.say(tr("status.nothing_here"))

    def click_group(self, action: str) -> None:
        d = self.decision
        if d is None or not self.human_turn():
            return
        opts = self.groups(d).get(action, [])
        pointing = [o for o in opts if self.points_at(d, o) is not None]
        if len(opts) == 1 and not pointing:
            self.answer(opts[0])
        elif pointing and (self.group != action or self.chooser):
            self.group = action
            self.chooser = None if len(pointing) == len(opts) else [o for o in opts if o not in pointing]
        elif pointing:
            # a second press on a map group lists its options too: every choice has a button
            self.chooser, self.chooser_page = opts, 0
        else:
            self.group = action
            self.chooser, self.chooser_page = opts, 0

    def bar_actions(self, d: Decision) -> list[str]:
        """The action-bar groups in order, hotkeys 1..9; the end option has its own button and key."""
        end = self.end_option(d)
        return [a for a in self.groups(d) if end is None or a != end.action]

    def end_option(self, d: Decision | None) -> Option | None:
        """The option that ends the activation or the turn, which has its own button and key."""
        if d is None:
            return None
        return next((o for o in d.options if o.ends), None)

    def option_label(self, o: Option) -> str:
        """An option in words: who acts (when it is a choice among figures), the action, its target, then
        its weapon or value, the tile it ends on and the length of the way there."""
        d = self.decision
        picked = self.names.get(o.figure, str(o.figure)) if o.figure is not None and (
            d is None or o.figure != d.figure) else None
        scalar = o.value is not None and not isinstance(o.value, (dict, list, tuple))
        extras = []
        if scalar and has(f"opt.{o.action}"):
            side = side_name(o.value) if isinstance(o.value, int) and not isinstance(o.value, bool) else ""
            text = tr(f"opt.{o.action}", value=o.value, side=side, figure=picked or "")
        else:
            if picked is None:
                text = action_label(o.action)
            elif o.action == "activate":
                text = f"{action_label(o.action)} {picked}"
            else:
                text = f"{picked} : {action_label(o.action)}"
            if scalar:
                extras.append(self.names.get(o.value) if isinstance(o.value, str) and o.value in self.names
                              else term(str(o.value)))
        if o.target is not None:
            text += f" -> {self.names.get(o.target, str(o.target))}"
        actor = self.figure(o.figure) if o.figure is not None else None
        if o.tile is not None and (o.target is None or o.path) and \
                not (picked is not None and actor is not None and actor.tile == tuple(o.tile)):
            extras.append(f"({o.tile[0]},{o.tile[1]})")
        if o.path and o.cost:
            extras.append(paces(o.cost))
        if d is not None and o.figure in (d.info or {}).get("roll_required", ()):
            extras.append(tr("info.roll_required"))
        return " · ".join([text, *extras])

    # --- saving ------------------------------------------------------------------------

    def autosave(self) -> None:
        try:
            save_match(self.match, autosave_path(), window={"zoom": self.view.zoom})
        except (EscarmoucheError, OSError) as e:
            self.say(tr("status.save_failed", error=str(e)), bad=True)

    def save(self) -> None:
        if self.save_path is None:
            stem = Path(self.match.map_path).stem or "battle"
            self.save_path = saves_dir() / f"{self.rules.id}-{stem}-{self.match.seed}.json"
        try:
            save_match(self.match, self.save_path, window={"zoom": self.view.zoom})
            self.say(tr("status.saved", path=str(self.save_path)))
        except (EscarmoucheError, OSError) as e:
            self.say(tr("status.save_failed", error=str(e)), bad=True)

    def can_undo(self) -> bool:
        """Only the player who gave the last answer may take it back, and only while no die was rolled."""
        d = self.decision
        return (self.match.can_undo and self.human_turn() and d is not None
                and self.last_answer_side == d.side)

    def undo(self) -> None:
        if not self.can_undo():
            self.say(tr("status.no_undo"), bad=True)
            return
        self.match.undo()
        self.version += 1
        self.decision_id = None
        self.say(tr("status.undone"))

    def say(self, text: str, bad: bool = False) -> None:
        self.status = ("! " if bad else "") + text
        self.status_until = time.monotonic() + 4.0

    # --- the loop ----------------------------------------------------------------------

    def update(self, dt: float) -> None:
        if not self._fitted:
            self.layout()
            self.view.fit(self.map_rect)
            self._fitted = True
            if self.start_zoom is not None:
                self.view.zoom = min(ZOOMS, key=lambda z: abs(z - self.start_zoom))
                self.centre_on_side()
            elif self.view.zoom < 1.0:       # a big map opens with its figures readable, on the army about to play
                self.view.zoom = 1.0
                self.centre_on_side()
        self.play_clips(dt)
        d = self.decision
        if d is None:
            self.refresh()
            if self.timeline.busy and not self.fast_forward:
                return          # the last blow is shown before the results
            if self.finished_at is None:
                self.finished_at = time.monotonic()
                self.app.sound.play("end")
            if time.monotonic() - self.finished_at > 1.2 or self.fast_forward:
                from .scenes import ResultsScene
                self.app.replace(ResultsScene(self.app, self.match, self.viewer, self.names))
            return
        if d.side in self.ai_players:
            self._run_ai(d)
            if self.decision is not d:      # the AI answered: the next decision is set up next frame, afresh
                self.refresh()
                return
        else:
            self.fast_forward = False
            if self.mode == "hotseat" and self.viewer != d.side and self.handover_to is None:
                if hands_over(self.rules, self.viewer, d.side):
                    if not self.timeline.busy:      # the player who acted sees it happen first
                        self.handover_to = d.side
                        self.app.sound.play("handover")
                else:
                    self.viewer = d.side
        if self.handover_to is None and self.human_turn():
            key = (self.version, id(d))
            if key != self.decision_id:
                self.decision_id = key
                self.refresh()
                self._new_decision(d)
        self.refresh()

    @property
    def ai_thinking(self) -> bool:
        """The AI works out its answer now (once found, it waits for the last answer's clips in silence)."""
        return self.ai_job is not None and not self.ai_job.done.is_set()

    @property
    def thinking_shown(self) -> bool:
        """The header says the AI is thinking, its dots running, only while no clip plays: the screen is
        alive then, and a frame kept while clips play need not be drawn again for the dots."""
        return self.ai_thinking and not self.timeline.moving

    def _run_ai(self, d: Decision) -> None:
        """The AI thinks while the last answer is shown, and answers once it has been (the pause of its
        speed setting counted from the answer)."""
        now = time.monotonic()
        if self.ai_job is None:
            if now >= self.ai_ready_at or self.fast_forward:
                self.ai_job = AIJob(self.ai_players[d.side], self.match, d)
            return
        if not self.ai_job.done.is_set() or self.timeline.busy:
            return
        job, self.ai_job = self.ai_job, None
        if job.decision is not d:
            return
        option = d.option(job.result) if job.result is not None else None
        if option is None:
            self.say(tr("status.ai_error", error=job.error or str(job.result)), bad=True)
            option = d.option(self.fallback_ai.choose(self.match.observe(d.side), d))
        self.last_ai = None if d.secret and self.mode != "ai-vs-ai" else option
        self.answer(option, by_human=False)
        self.follow(self.last_ai)
        self.ai_ready_at = now + self.app.settings.ai_delay_ms / 1000.0

    def follow(self, o: Option | None) -> None:
        """Glide to the figure the AI acts with when it is off screen (and may be seen), where it stands
        before its clips play; each clip then brings the camera along (``play_clips``)."""
        self.refresh()
        f = self.figure(o.figure) if o is not None and o.figure is not None else None
        at = self.drawn_at(f) if f is not None and f.alive else None
        if at is not None and self.app.settings.camera_follow:
            self.look_at(at, glide=self.app.settings.animations != "off")

    def finish_handover(self) -> None:
        self.timeline.cut()     # what the last player was shown goes with them
        self.before.clear()
        self.viewer = self.handover_to
        self.handover_to = None
        self._cache_key = None
        self.decision_id = None

    # --- input -------------------------------------------------------------------------

    def key_is(self, event, name: str) -> bool:
        bound = self.app.settings.keys.get(name, "")
        return bool(bound) and pygame.key.name(event.key) == bound

    def handle(self, event: pygame.event.Event) -> None:
        self._events += 1
        if self.handover_to is not None:
            if event.type == pygame.MOUSEBUTTONUP and event.button == 1 or \
                    event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE):
                self.finish_handover()
            elif event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL and self.key_is(event, "save"):
                self.save()     # a save file holds the answers, which the screen never shows: nothing leaks
            return
        if event.type == pygame.MOUSEMOTION:
            self.hover_tile = self.view.tile_at(event.pos)
            if self.press is not None and (event.buttons[0] or event.buttons[1] or event.buttons[2]):
                if self.dragged or abs(event.pos[0] - self.press[0]) + abs(event.pos[1] - self.press[1]) > 6:
                    self.dragged = True
                    self.camera_goal = None     # the player's own hand on the camera wins
                    self.view.pan_pixels(*event.rel)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.minimap_rect is not None \
                and self.minimap_rect.collidepoint(event.pos):
            self.view.centre = self.minimap_to_world(event.pos)
            self.view.pan_pixels(0, 0)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3):
            if self.map_rect.collidepoint(event.pos):
                self.press, self.dragged = event.pos, False
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (1, 3):
            pressed, was_drag = self.press, self.dragged
            self.press, self.dragged = None, False
            if pressed is None or was_drag or not self.map_rect.collidepoint(event.pos):
                return
            if event.button == 1:
                self.click_tile(self.view.tile_at(event.pos))
            else:
                self.cancel()
        elif event.type == pygame.MOUSEWHEEL:
            pos = self.app.ui.mouse
            if self.log_rect.collidepoint(pos):
                self.log_scroll = max(0, self.log_scroll + event.y)
            else:
                self.view.zoom_by(1 if event.y > 0 else -1, pos)
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def key(self, event) -> None:
        ctrl = event.mod & pygame.KMOD_CTRL
        step = 40
        if event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            self.camera_goal = None
        if event.key == pygame.K_LEFT:
            self.view.pan_pixels(step, 0)
        elif event.key == pygame.K_RIGHT:
            self.view.pan_pixels(-step, 0)
        elif event.key == pygame.K_UP:
            self.view.pan_pixels(0, step)
        elif event.key == pygame.K_DOWN:
            self.view.pan_pixels(0, -step)
        elif ctrl and self.key_is(event, "save"):
            self.save()
        elif ctrl and self.key_is(event, "undo"):
            self.undo()
        elif ctrl:
            return
        elif self.key_is(event, "zoom_in") or event.key == pygame.K_KP_PLUS:
            self.view.zoom_by(1)
        elif self.key_is(event, "zoom_out") or event.key == pygame.K_KP_MINUS:
            self.view.zoom_by(-1)
        elif self.key_is(event, "terrain"):
            self.show_terrain = not self.show_terrain
        elif event.key == pygame.K_F1:
            self.open_help()
        elif self.key_is(event, "log"):
            self.show_log = not self.show_log
        elif self.key_is(event, "skip"):
            self.skip()
        elif self.key_is(event, "cancel"):
            self.cancel()
        elif self.key_is(event, "end"):
            o = self.end_option(self.decision)
            if o is not None and self.human_turn():
                self.answer(o)
        elif self.key_is(event, "next_figure"):
            self.centre_on_actor()
        elif event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN) and self.chooser:
            pages = max(1, math.ceil(len(self.chooser) / self.page_size))
            self.chooser_page = (self.chooser_page + (1 if event.key == pygame.K_PAGEDOWN else -1)) % pages
        elif pygame.K_0 <= event.key <= pygame.K_9:
            d = self.decision
            if d is not None and self.human_turn():
                n = (event.key - pygame.K_1) % 10      # keys 1..9 then 0: the tenth choice
                if self.chooser:
                    page = self.chooser[self.chooser_page * self.page_size:][:self.page_size]
                    if n < len(page):
                        self.answer(page[n])
                    return
                groups = self.bar_actions(d)
                if n < len(groups):
                    self.click_group(groups[n])

    def cancel(self) -> None:
        d = self.decision
        if self.chooser and d is not None and d.kind in ("action", "activate"):
            self.chooser = None
        elif self.group is not None and d is not None and len(self.groups(d)) > 1:
            self.group = None

    def centre_on_side(self) -> None:
        d = self.decision
        side = d.side if d is not None else 0
        mine = [f for f in self.rules.figures(self.match.state, side) if f.alive and f.side == side and f.tile]
        if mine:
            self.view.centre = (sum(f.tile[0] for f in mine) / len(mine) + 0.5,
                                sum(f.tile[1] for f in mine) / len(mine) + 0.5)
            self.view.pan_pixels(0, 0)

    def centre_on_actor(self) -> None:
        d = self.decision
        f = self.figure(d.figure) if d is not None else None
        if f is None:
            mine = [x for x in self.on_map() if x.alive and (self.viewer is None or x.side == self.viewer)]
            f = mine[0] if mine else None
        if f is not None and f.tile is not None:
            self.view.centre = (f.tile[0] + 0.5, f.tile[1] + 0.5)
            self.view.pan_pixels(0, 0)

    # --- drawing -----------------------------------------------------------------------

    def layout(self) -> None:
        ui = self.app.ui
        w, h = self.app.screen.get_size()
        top = self.plan_header(w)
        bar = self.plan_bar(w, self.decision, self.human_turn())
        log_w = min(ui.s(360), w // 3) if self.show_log else 0
        side_w = min(ui.s(300), w // 4) if self.has_side else 0
        self.side_rect = pygame.Rect(0, top, side_w, h - top - bar)     # the module's panels, off the map
        self.map_rect = pygame.Rect(side_w, top, w - log_w - side_w, h - top - bar)
        self.log_rect = pygame.Rect(w - log_w, top, log_w, h - top - bar)
        self.bar_rect = pygame.Rect(0, h - bar, w, bar)
        self.view.viewport = self.map_rect

    def draw(self, surface: pygame.Surface) -> None:
        """The battle screen, laid out and composed only when ``frame_key`` changes; the frames between
        show it and redraw what moves alone (frame.py)."""
        key = self.frame_key(surface)
        if key is None or key != self._frame_key or self._frame is None:
            self.layout()       # the key holds all the layout depends on
            self._frame = self.compose(surface, keep=key is not None)
            self._frame_key = key
        self._frame.show(surface, self.app.ui)

    def frame_key(self, surface: pygame.Surface):
        """All the screen depends on.

        Any input event changes it too, so only frames with no input and no answer reuse the last
        picture. While clips play, what they move is drawn live over it (``compose``), and a clip that
        starts or a figure that starts moving or whose death has been shown makes a new one (when the
        clips end their frame stays until something else changes); while the camera glides, the
        map is (``compose_gliding``), and its frame stays when the camera comes to rest where the glide
        took it (it lays the map where the camera is). Something new drawn from a clock must be named here.
        """
        ui, now = self.app.ui, time.monotonic()
        if self.timeline.moving:    # clips that end leave their frame, which draws their figures where they stopped
            self.moved = self.timeline.involved()
        camera = self.glide if self.camera_goal is not None or self.view.centre == self.glide_end else self.view.centre
        thinking = self.thinking_shown
        return (surface.get_size(), ui.scale, ui.mouse, language(), self._events, self.version, self.viewer,
                self.handover_to, id(self.decision), self.decision_id, self.group, id(self.chooser),
                self.chooser_page, self.hover_tile, self.show_terrain, self.show_log,
                tuple(id(n) for n in self.live_notices()), ui.pointing,
                self.log_scroll, self.status if now < self.status_until else "", self.view.zoom,
                camera, self.fast_forward, self.app.settings.ai_speed,
                id(self.last_ai), thinking, self.timeline.batches, len(self.timeline.clips),
                int(now * 3) % 4 if thinking else 0,
                tuple(sorted(self.app.settings.keys.items())), self.moved)

    def compose(self, surface: pygame.Surface, keep: bool = True) -> LiveFrame:
        """Draw the whole screen; ``keep`` keeps it for the frames to come (``frame_key`` None: the next
        frame is drawn afresh anyway)."""
        ui = self.app.ui
        surface.fill(BG)
        if self.handover_to is not None:
            self.draw_handover(surface)
            self.draw_status(surface)
            return LiveFrame(self.kept("picture", surface) if keep else None, ui)
        d = self.decision
        human = self.human_turn()
        if keep and self.camera_goal is not None:
            return self.compose_gliding(surface, d, human)
        with ui.layer("map"):       # the battlefield and what stands on it: labels there may crowd
            clip = surface.get_clip()
            surface.set_clip(self.map_rect)
            self.draw_ground(surface, d, human)
            motion = keep and self.timeline.moving
            moving = self.timeline.involved() if motion else frozenset()
            live = self.draw_figures(surface, d, moving)
            below = self.kept("below", surface) if keep and (live or motion) else None
            sprites = []
            if below is None:
                self.draw_live(surface, live)
                self.draw_action(surface)
            elif motion:        # the figures the clips are about, the rings and the clips' effects, drawn each frame
                def draw_motion(target, ids={f.id for f, _, _ in live}):
                    self.draw_live(target, self.draw_figures(None, d, moving, only=ids))
                    self.draw_action(target)
                sprites.append((self.map_rect.copy(), draw_motion))
            else:
                for f, selectable, _ in live:   # measured at the ring's widest, then left to LiveFrame to draw each frame
                    rect = self.draw_figure(surface, f, selectable, pulse=1.0).clip(self.map_rect)
                    surface.blit(below, rect, rect)
                    sprites.append((rect, lambda target, one=[(f, selectable, True)]: self.draw_live(target, one)))
                self.draw_action(surface)
            self.draw_pointing(surface, d, human)
            surface.set_clip(clip)
        self.draw_frame(surface, d, human)
        self.draw_boxes(surface, d, human)
        return LiveFrame(self.kept("picture", surface) if keep else None, ui, below, sprites)

    def compose_gliding(self, surface: pygame.Surface, d: Decision | None, human: bool) -> LiveFrame:
        """While the camera glides only the map moves: the header, log, bar and panels are kept, and the
        map is laid each frame from one picture of all the ground the glide crosses (``glide_picture``),
        with what the clips move, the boxes over the map and the rest drawn over it (``LiveFrame.over``)."""
        self.draw_frame(surface, d, human)
        ui = self.app.ui
        moving = self.timeline.involved() if self.timeline.moving else frozenset()
        ground = self.glide_picture(d, human, moving)

        def glide(target: pygame.Surface) -> None:
            clip = target.get_clip()
            target.set_clip(self.map_rect)      # the boxes too lie inside the map: all a glide lays is there
            with ui.layer("map"):
                if ground is None:
                    self.draw_ground(target, d, human)
                    self.draw_live(target, self.draw_figures(target, d))
                else:
                    picture, centre, live = ground
                    x, y = self.view.to_screen(*centre)
                    at = (x - picture.get_width() // 2, y - picture.get_height() // 2)
                    if not picture.get_rect(topleft=at).contains(self.map_rect):
                        target.fill(BG, self.map_rect)
                    copy_area(target, picture, self.map_rect, at)
                    self.draw_live(target, self.draw_figures(None, d, moving, only=live))
                self.draw_action(target)
                self.draw_pointing(target, d, human)
            self.draw_boxes(target, d, human)
            target.set_clip(clip)
        return LiveFrame(self.kept("picture", surface), ui, over=glide)

    def glide_picture(self, d: Decision | None, human: bool, moving: frozenset):
        """(picture, its centre in tiles, the ids of the figures left out to be drawn live) of the map and
        what stands still on it, over every view between here and the camera's goal; None when that
        ground is more than four views."""
        view, ui = self.view, self.app.ui
        viewport, centre = view.viewport, view.centre
        view.centre = self.camera_goal
        view.pan_pixels(0, 0)       # where the glide ends, the map kept in view
        end, view.centre = view.centre, centre
        cell = view.cell
        half_w, half_h = viewport.w / cell / 2 + 1, viewport.h / cell / 2 + 1
        x0, x1 = min(centre[0], end[0]) - half_w, max(centre[0], end[0]) + half_w
        y0, y1 = min(centre[1], end[1]) - half_h, max(centre[1], end[1]) + half_h
        w, h = int((x1 - x0) * cell), int((y1 - y0) * cell)
        if w * h > 4 * viewport.w * viewport.h:
            return None
        picture = pygame.Surface((w, h))
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        view.viewport, view.centre = pygame.Rect(0, 0, w, h), middle
        drawn = len(ui.drawn)
        try:
            self.draw_ground(picture, d, human)
            live = self.draw_figures(picture, d, moving)
        finally:
            view.viewport, view.centre = viewport, centre
        del ui.drawn[drawn:]        # drawn off the screen: its words and badges are not where they would be
        self.badge_spots = []
        return picture, middle, {f.id for f, _, _ in live}

    def draw_ground(self, surface: pygame.Surface, d: Decision | None, human: bool) -> None:
        """The battlefield under the figures: the map with its overlays, the targets offered, the tokens."""
        overlays = []
        if self.show_terrain:
            if self.terrain_layer is None:
                self.terrain_layer = terrain_overlay(self.match.battlefield)
            overlays.append(self.terrain_layer)
        reach = self.reach_overlay(d) if human and d is not None else None
        if reach is not None:
            overlays.append(reach)
        self.view.draw_map(surface, BG, overlays)
        self.draw_overlays(surface)
        if human and d is not None:
            self.draw_targets(surface, d)
        self.draw_tokens(surface)

    def draw_pointing(self, surface: pygame.Surface, d: Decision | None, human: bool) -> None:
        """Over the figures: what the pointed tile would do, or what the AI just did."""
        if human and d is not None:
            self.draw_hover(surface, d)
        elif self.last_ai is not None and d is not None:
            self.draw_ai_hint(surface)

    def draw_frame(self, surface: pygame.Surface, d: Decision | None, human: bool) -> None:
        """What lies round the map: the header, the log, the action bar and the panels' column."""
        self.draw_top(surface, d)
        self.draw_log(surface)
        self.draw_bar(surface, d, human)
        self.draw_panels(surface)

    def draw_boxes(self, surface: pygame.Surface, d: Decision | None, human: bool) -> None:
        """The boxes over the map, each placed off those before it."""
        if self.chooser and human:
            self.draw_chooser(surface)
        elif human and d is not None:
            self.draw_note(surface, d)
        self.draw_minimap(surface)
        self.draw_notices(surface)
        self.draw_status(surface)
        self.draw_figure_info(surface)
        self.draw_hover_box(surface)

    def kept(self, name: str, surface: pygame.Surface) -> pygame.Surface:
        """A copy of ``surface`` in a picture kept for reuse (a fresh full-screen surface costs
        milliseconds to allocate, a blit into an old one a tenth of that)."""
        picture = self._kept.get(name)
        if picture is None or picture.get_size() != surface.get_size():
            picture = self._kept[name] = surface.copy()
        else:
            picture.blit(surface, (0, 0))
        return picture

    @staticmethod
    def pulse() -> float:
        """The active figure's ring breathes, 0 to 1 and back, a little under once a second."""
        return 0.5 + 0.5 * math.sin(time.monotonic() * 5)

    def live_notices(self) -> list[dict]:
        """The notable events this viewer may see and has not yet seen for ``NOTICE_SECONDS``."""
        now = time.monotonic()
        return [n for n in self.notices
                if (n["visible_to"] is None or self.viewer is None or n["visible_to"] == self.viewer)
                and now - n["shown"].get(self.viewer, now) <= NOTICE_SECONDS]

    def draw_notices(self, surface: pygame.Surface) -> None:
        """The notable events of late, each for a few seconds from when this viewer first sees it."""
        ui = self.app.ui
        now = time.monotonic()
        m = self.map_rect
        for notice in self.live_notices():
            notice["shown"].setdefault(self.viewer, now)
            lines = ui.wrap(notice["text"], 22, m.w * 2 // 3)
            step = ui.line(22)
            size = (max(ui.font(22).size(t)[0] for t in lines) + ui.s(24), len(lines) * step + ui.s(14))
            cx = m.centerx - size[0] // 2
            box = self.put(size, [(cx, m.y + ui.s(48)), (cx, m.y + ui.s(8)), (cx, m.centery - size[1] // 2),
                                  (cx, m.bottom - size[1] - ui.s(60))])
            edge = side_colour(notice["side"]) if notice["side"] is not None else ACCENT
            pygame.draw.rect(surface, (16, 14, 10), box, border_radius=ui.s(6))
            pygame.draw.rect(surface, edge, box, 2, border_radius=ui.s(6))
            ui.occupy(box)
            for i, t in enumerate(lines):
                ui.text(surface, t, (box.centerx, box.y + ui.s(7) + i * step), 22, ACCENT, "midtop")

    def draw_status(self, surface: pygame.Surface) -> None:
        """The last message (saved, undone, a refusal) on a dark band at the foot of the map."""
        ui = self.app.ui
        if not self.status or time.monotonic() >= self.status_until:
            return
        colour = BAD if self.status.startswith("!") else ACCENT
        area = self.map_rect if self.handover_to is None else surface.get_rect()
        step = ui.line(18)
        box = lines = None
        for width in (area.w - ui.s(40), area.w * 2 // 3, area.w // 2):       # narrower, to pass the minimap
            wrapped = ui.wrap(self.status.lstrip("! "), 18, width)
            size = (max(ui.font(18).size(t)[0] for t in wrapped) + ui.s(20), len(wrapped) * step + ui.s(10))
            spot = ui.place(size, [(area.centerx - size[0] // 2, area.bottom - size[1] - ui.s(8)),
                                   (area.x + ui.s(8), area.bottom - size[1] - ui.s(8)),
                                   (area.centerx - size[0] // 2, area.y + ui.s(8))], area.inflate(-ui.s(8), -ui.s(8)))
            if box is None or ui.free(spot):
                box, lines = spot, wrapped
            if ui.free(spot):
                break
        pygame.draw.rect(surface, (12, 13, 18), box, border_radius=ui.s(4))
        pygame.draw.rect(surface, colour, box, 1, border_radius=ui.s(4))
        ui.occupy(box)
        for i, t in enumerate(lines):
            ui.text(surface, t, (box.x + ui.s(10), box.y + ui.s(5) + i * step), 18, colour)

    def actor_tile(self, d: Decision, o: Option):
        f = self.figure(o.figure or d.figure)
        return tuple(f.tile) if f is not None and f.tile is not None else None

    def seen_state(self):
        """The state as the viewer may know it: the odds shown are computed from it, so no percentage
        ever reflects a secret (the spectator of an AI game sees everything)."""
        if self.viewer is None:
            return self.match.state
        if self._seen[0] != self.version:
            self._seen = (self.version, self.rules.observe(self.match.state, self.viewer))
        return self._seen[1]

    def preview(self, o: Option) -> list:
        """The shapes the module says an option would touch (a blast, a cone), from what the viewer knows."""
        try:
            return self.rules.preview(self.seen_state(), o)
        except (EscarmoucheError, KeyError, ValueError, TypeError, AttributeError):
            return []

    def odds(self, o: Option):
        if o.key not in self._odds_cache:
            try:
                self._odds_cache[o.key] = self.rules.odds(self.seen_state(), o)
            except (EscarmoucheError, KeyError, ValueError, TypeError, AttributeError) as e:
                self._odds_cache[o.key] = None
                self.say(tr("status.odds_failed", error=str(e)), bad=True)
        return self._odds_cache[o.key]

    def toggle_terrain(self) -> None:
        self.show_terrain = not self.show_terrain

    def cycle_speed(self) -> None:
        speeds = list(AI_SPEEDS)
        current = self.app.settings.ai_speed
        self.app.settings.ai_speed = speeds[(speeds.index(current) + 1) % len(speeds)] if current in speeds \
            else "normal"
        self.app.apply_settings()

    def skip(self) -> None:
        """Space: what is being shown is shown done at once; against the AI, it also plays without pauses
        (its clips four times as fast) until a person must decide; press again to watch again."""
        self.timeline.skip()
        self.fast_forward = bool(self.ai_players) and not self.fast_forward

    def to_menu(self) -> None:
        if not self.match.over:
            self.autosave()
        from .scenes import MenuScene
        self.app.replace(MenuScene(self.app))
