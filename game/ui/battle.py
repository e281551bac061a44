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
from fractions import Fraction
from pathlib import Path

import pygame

from ..ai import make_player
from ..ai.random_player import RandomPlayer
from ..engine import space
from ..engine.decision import Decision, Option
from ..engine.save import save_match
from ..errors import EscarmoucheError
from . import icons
from .combatlog import describe
from .i18n import tr
from .mapview import MapView
from .maprender import base_tile_size, overlay_surface, render_base
from .settings import AI_SPEEDS, autosave_path, saves_dir
from .widgets import ACCENT, BAD, BG, GOOD, MUTED, PANEL, TEXT, Button, side_colour

AREA_KEYS = ("radius", "blast_radius", "blast")
LANDING_KEYS = ("landings", "landing_tiles", "tiles")
CHOOSER_PAGE = 10
STEP_SECONDS = 0.08
PERCENT_DETAILS = ("kill", "attacker_killed", "chance", "success", "hit")


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
            self.result = str(player.choose(match, decision))
        except Exception as e:  # an AI bug must not freeze the game: the loop falls back to a legal answer
            self.error = f"{e.__class__.__name__}: {e}"
        finally:
            self.done.set()


def side_name(side: int) -> str:
    return tr(f"side.{side}", f"{side + 1}")


def action_label(action: str) -> str:
    return tr(f"action.{action}", action.replace("_", " "))


class BattleScene:
    def __init__(self, app, match, mode: str = "hotseat", human_side: int = 0, loaded=None,
                 save_path: str | Path | None = None, ai_name: str = "tactical"):
        self.app = app
        self.match = match
        self.rules = match.rules
        self.mode = mode
        self.human_side = human_side
        bf = match.battlefield
        self.base = render_base(bf, loaded)
        self.tile_px = base_tile_size(bf, loaded)
        self.terrain_layer: pygame.Surface | None = None
        self.show_terrain = False
        self.show_log = True
        self.show_help = False
        self.view = MapView(self.base, (bf.width, bf.height), self.tile_px)
        self.layout()
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
        self._odds_cache: dict[str, object] = {}
        self._reach_layer = None
        self._reach_key = None
        self.figs = []
        self.tokens = []
        self.names: dict[str, str] = {}
        self.log_lines: list[str] = []
        self.moves: dict[str, tuple] = {}
        self._wrap_key = None
        self._wrapped: list[str] = []
        self.finished_at: float | None = None

    def _make_ai(self, name: str, side: int):
        try:
            return make_player(name, self.rules.id, self.match.seed * 2 + side + 1)
        except (EscarmoucheError, ImportError):
            return make_player("random", self.rules.id, self.match.seed * 2 + side + 1)

    # --- what the current viewer may see ------------------------------------------

    def hidden_info(self, decision: Decision | None) -> bool:
        """True when the two sides do not see the same thing, so the screen must be handed over."""
        if decision is not None and decision.secret:
            return True
        st = self.match.state
        views = []
        for side in self.rules.sides[:2]:
            figs = sorted((f.id, tuple(f.tile), f.markers) for f in self.rules.figures(st, side))
            toks = sorted((t.id, tuple(t.tile), t.kind) for t in self.rules.tokens(st, side))
            views.append((figs, toks))
        return views[0] != views[1] or any(e.visible_to is not None for e in self.match.log)

    def refresh(self) -> None:
        """Recompute what the viewer sees after the match changed (every change goes through this scene)."""
        key = (self.version, self.viewer)
        if key == self._cache_key:
            return
        self._cache_key = key
        st = self.match.state
        self.figs = self.rules.figures(st, self.viewer)
        self.tokens = self.rules.tokens(st, self.viewer)
        for f in self.rules.figures(st, None):
            self.names.setdefault(f.id, f.name)
        log = self.match.log
        seen_viewer, seen_count, seen_last = self._log_mark
        if seen_viewer == self.viewer and 0 < seen_count <= len(log) and log[seen_count - 1] is seen_last:
            new = log[seen_count:]          # the log only grew: describe the new events alone
        else:
            new, self.log_lines = log, []
        self.log_lines = self.log_lines + [describe(e, self.names) for e in new if e.seen_by(self.viewer)]
        self._log_mark = (self.viewer, len(log), log[-1] if log else None)
        self._odds_cache.clear()

    def figure_at(self, tile) -> object | None:
        for f in self.figs:
            if f.alive and tuple(f.tile) == tuple(tile):
                return f
        return None

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
        d = self.decision
        return d is not None and d.side not in self.ai_players and self.handover_to is None

    def groups(self, d: Decision) -> OrderedDict:
        out: OrderedDict[str, list[Option]] = OrderedDict()
        for o in d.options:
            out.setdefault(o.action, []).append(o)
        return out

    def points_at(self, d: Decision, o: Option):
        """The tile an option is answered by clicking, or None for a button-only option."""
        if o.tile is not None:
            if o.target is None and not o.path and o.figure is not None and o.figure == d.figure:
                actor = self.figure(o.figure)
                if actor is not None and tuple(actor.tile) == tuple(o.tile):
                    return None     # an action on the spot (hide, dig in): a button, not a map click
            return tuple(o.tile)
        if o.target is not None:
            f = self.figure(o.target)
            return tuple(f.tile) if f is not None else None
        if o.figure is not None and o.figure != d.figure:
            f = self.figure(o.figure)
            return tuple(f.tile) if f is not None else None
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
        if actor is not None and not self.map_rect.collidepoint(self.view.tile_centre(actor.tile)):
            self.centre_on_actor()
        if d.kind not in ("action", "activate"):
            self.chooser = list(d.options)

    def candidates(self, d: Decision, tile) -> list[Option]:
        pool = self.groups(d).get(self.group, []) if self.group else d.options
        return [o for o in pool if self.points_at(d, o) == tuple(tile)]

    def answer(self, option: Option, by_human: bool = True) -> None:
        side = self.decision.side if self.decision is not None else None
        try:
            events = self.match.answer(option.key)
        except EscarmoucheError as e:
            self.say(str(e), bad=True)
            return
        self.version += 1
        self.animate(events)
        self.last_answer_side = side if by_human else None
        self.decision_id = None
        self.chooser = None
        turn = self.rules.turn(self.match.state)
        if turn != self.turn_seen or self.match.over:
            self.turn_seen = turn
            self.autosave()

    def animate(self, events) -> None:
        """Walk moved figures along their path (only moves the viewer may see)."""
        now = time.monotonic()
        for e in events:
            path = e.data.get("path") if isinstance(e.data, dict) else None
            fid = e.data.get("figure") if isinstance(e.data, dict) else None
            if not path or not isinstance(fid, str) or not e.seen_by(self.viewer):
                continue
            try:
                tiles = [(int(t[0]), int(t[1])) for t in [e.data.get("from") or path[0], *path]]
            except (TypeError, ValueError, IndexError, KeyError):
                continue
            duration = min(0.6, STEP_SECONDS * len(path))
            self.moves[fid] = (tiles, now, duration)
            self.ai_ready_at = max(self.ai_ready_at, now + duration)

    def drawn_at(self, f) -> tuple[float, float]:
        """Where a figure is drawn now, in tiles: its tile, or a point along its last move."""
        move = self.moves.get(f.id)
        if move is None:
            return f.tile[0] + 0.5, f.tile[1] + 0.5
        tiles, start, duration = move
        t = (time.monotonic() - start) / duration if duration > 0 else 1.0
        if t >= 1 or tuple(tiles[-1]) != tuple(f.tile):
            del self.moves[f.id]
            return f.tile[0] + 0.5, f.tile[1] + 0.5
        pos = t * (len(tiles) - 1)
        i = int(pos)
        a, b = tiles[i], tiles[min(i + 1, len(tiles) - 1)]
        k = pos - i
        return a[0] + (b[0] - a[0]) * k + 0.5, a[1] + (b[1] - a[1]) * k + 0.5

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
        if d is None:
            return None
        for o in d.options:
            if o.action in ("end", "pass", "end_turn", "end_activation"):
                return o
        return None

    def option_label(self, o: Option) -> str:
        parts = [action_label(o.action)]
        if o.target is not None:
            parts.append(self.names.get(o.target, str(o.target)))
        if o.figure is not None and o.action in ("activate",):
            parts.append(self.names.get(o.figure, str(o.figure)))
        if o.tile is not None and o.target is None:
            parts.append(f"({o.tile[0]},{o.tile[1]})")
        if o.value is not None and not isinstance(o.value, (dict, list, tuple)):
            parts.append(tr(f"term.{o.value}", str(o.value)))
        if o.path:
            parts.append(tr("hud.pas", n=_fmt(o.cost)))
        return " ".join(parts)

    # --- saving ------------------------------------------------------------------------

    def autosave(self) -> None:
        try:
            save_match(self.match, autosave_path())
        except (EscarmoucheError, OSError) as e:
            self.say(tr("status.save_failed", error=str(e)), bad=True)

    def save(self) -> None:
        if self.save_path is None:
            stem = Path(self.match.map_path).stem or "battle"
            self.save_path = saves_dir() / f"{self.rules.id}-{stem}-{self.match.seed}.json"
        try:
            save_match(self.match, self.save_path)
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
            if self.view.zoom < 0.7:       # a big map opens readable, on the army about to play
                self.view.zoom = 1.0
                self.centre_on_side()
        d = self.decision
        if d is None:
            self.refresh()
            if self.finished_at is None:
                self.finished_at = time.monotonic()
            if time.monotonic() - self.finished_at > 0.8 or self.fast_forward:
                from .scenes import ResultsScene
                self.app.replace(ResultsScene(self.app, self.match, self.viewer, self.names))
            return
        if d.side in self.ai_players:
            self._run_ai(d)
        else:
            self.fast_forward = False
            if self.mode == "hotseat" and self.viewer != d.side:
                if self.viewer is not None and self.hidden_info(d) and self.handover_to is None:
                    self.handover_to = d.side
                elif self.handover_to is None:
                    self.viewer = d.side
        if self.handover_to is None and self.human_turn():
            key = (self.version, id(d))
            if key != self.decision_id:
                self.decision_id = key
                self.refresh()
                self._new_decision(d)
        self.refresh()

    def _run_ai(self, d: Decision) -> None:
        now = time.monotonic()
        if self.ai_job is None:
            if now >= self.ai_ready_at or self.fast_forward:
                self.ai_job = AIJob(self.ai_players[d.side], self.match, d)
            return
        if not self.ai_job.done.is_set():
            return
        job, self.ai_job = self.ai_job, None
        if job.decision is not d:
            return
        option = d.option(job.result) if job.result is not None else None
        if option is None:
            self.say(tr("status.ai_error", error=job.error or str(job.result)), bad=True)
            option = d.option(self.fallback_ai.choose(self.match, d))
        self.last_ai = None if d.secret and self.mode != "ai-vs-ai" else option
        self.answer(option, by_human=False)
        self.ai_ready_at = now + self.app.settings.ai_delay_ms / 1000.0

    def finish_handover(self) -> None:
        self.moves.clear()      # what moved before the hand-over is shown where it stands now
        self.viewer = self.handover_to
        self.handover_to = None
        self._cache_key = None
        self.decision_id = None

    # --- input -------------------------------------------------------------------------

    def key_is(self, event, name: str) -> bool:
        bound = self.app.settings.keys.get(name, "")
        return bool(bound) and pygame.key.name(event.key) == bound

    def handle(self, event: pygame.event.Event) -> None:
        if self.show_help:
            if event.type == pygame.KEYDOWN:
                self.show_help = False
            return
        if self.handover_to is not None:
            if event.type == pygame.MOUSEBUTTONUP and event.button == 1 or \
                    event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE):
                self.finish_handover()
            return
        if event.type == pygame.MOUSEMOTION:
            self.hover_tile = self.view.tile_at(event.pos)
            if self.press is not None and (event.buttons[0] or event.buttons[1] or event.buttons[2]):
                if self.dragged or abs(event.pos[0] - self.press[0]) + abs(event.pos[1] - self.press[1]) > 6:
                    self.dragged = True
                    self.view.pan_pixels(*event.rel)
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
            self.show_help = True
        elif self.key_is(event, "log"):
            self.show_log = not self.show_log
        elif self.key_is(event, "skip"):
            self.fast_forward = bool(self.ai_players)
        elif self.key_is(event, "cancel"):
            self.cancel()
        elif self.key_is(event, "end"):
            o = self.end_option(self.decision)
            if o is not None and self.human_turn():
                self.answer(o)
        elif self.key_is(event, "next_figure"):
            self.centre_on_actor()
        elif event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN) and self.chooser:
            pages = max(1, math.ceil(len(self.chooser) / CHOOSER_PAGE))
            self.chooser_page = (self.chooser_page + (1 if event.key == pygame.K_PAGEDOWN else -1)) % pages
        elif pygame.K_1 <= event.key <= pygame.K_9:
            d = self.decision
            if d is not None and self.human_turn():
                if self.chooser:
                    i = self.chooser_page * CHOOSER_PAGE + event.key - pygame.K_1
                    page = self.chooser[self.chooser_page * CHOOSER_PAGE:]
                    if event.key - pygame.K_1 < min(CHOOSER_PAGE, len(page)):
                        self.answer(self.chooser[i])
                    return
                groups = self.bar_actions(d)
                i = event.key - pygame.K_1
                if i < len(groups):
                    self.click_group(groups[i])

    def cancel(self) -> None:
        d = self.decision
        if self.chooser and d is not None and d.kind in ("action", "activate"):
            self.chooser = None
        elif self.group is not None and d is not None and len(self.groups(d)) > 1:
            self.group = None

    def centre_on_side(self) -> None:
        d = self.decision
        side = d.side if d is not None else 0
        mine = [f for f in self.rules.figures(self.match.state, side) if f.alive and f.side == side]
        if mine:
            self.view.centre = (sum(f.tile[0] for f in mine) / len(mine) + 0.5,
                                sum(f.tile[1] for f in mine) / len(mine) + 0.5)
            self.view.pan_pixels(0, 0)

    def centre_on_actor(self) -> None:
        d = self.decision
        f = self.figure(d.figure) if d is not None else None
        if f is None:
            mine = [x for x in self.figs if x.alive and (self.viewer is None or x.side == self.viewer)]
            f = mine[0] if mine else None
        if f is not None:
            self.view.centre = (f.tile[0] + 0.5, f.tile[1] + 0.5)
            self.view.pan_pixels(0, 0)

    # --- drawing -----------------------------------------------------------------------

    def layout(self) -> None:
        ui = self.app.ui
        w, h = self.app.screen.get_size()
        top, bar = ui.s(40), ui.s(64)
        log_w = min(ui.s(360), w // 3) if self.show_log else 0
        self.map_rect = pygame.Rect(0, top, w - log_w, h - top - bar)
        self.log_rect = pygame.Rect(w - log_w, top, log_w, h - top - bar)
        self.bar_rect = pygame.Rect(0, h - bar, w, bar)
        self.view.viewport = self.map_rect

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        self.layout()
        surface.fill(BG)
        if self.handover_to is not None:
            self.draw_handover(surface)
            return
        self.view.blit_layer(surface, self.base)
        if self.show_terrain:
            if self.terrain_layer is None:
                bf = self.match.battlefield
                self.terrain_layer = overlay_surface(bf, *self.tile_px)
            self.view.blit_layer(surface, self.terrain_layer)
        d = self.decision
        human = self.human_turn()
        clip = surface.get_clip()
        surface.set_clip(self.map_rect)
        if human and d is not None:
            self.draw_reach(surface, d)
        self.draw_tokens(surface)
        self.draw_figures(surface, d)
        if human and d is not None:
            self.draw_hover(surface, d)
        elif self.last_ai is not None and d is not None:
            self.draw_ai_hint(surface)
        surface.set_clip(clip)
        self.draw_top(surface, d)
        self.draw_log(surface)
        self.draw_bar(surface, d, human)
        if self.chooser and human:
            self.draw_chooser(surface)
        self.draw_figure_info(surface)
        if self.show_help:
            self.draw_help(surface)
        if self.status and time.monotonic() < self.status_until:
            colour = BAD if self.status.startswith("!") else ACCENT
            ui.text(surface, self.status.lstrip("! "), (self.map_rect.x + ui.s(8), self.map_rect.bottom - ui.s(6)),
                    18, colour, "bottomleft", max_width=self.map_rect.w - ui.s(16))

    def draw_help(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        keys = {k: v.upper() if len(v) == 1 else v for k, v in self.app.settings.keys.items()}
        lines = [tr(f"help.{k}", **keys) for k in ("click", "cancel", "pan", "actions", "keep", "view")]
        w = min(self.map_rect.w - ui.s(40), ui.s(760))
        wrapped = [part for line in lines for part in ui.wrap(line, 20, w - ui.s(30))]
        h = ui.s(60) + len(wrapped) * ui.s(24) + ui.s(30)
        box = pygame.Rect(self.map_rect.centerx - w // 2, self.map_rect.centery - h // 2, w, h)
        pygame.draw.rect(surface, (16, 17, 22), box, border_radius=ui.s(8))
        pygame.draw.rect(surface, ACCENT, box, 1, border_radius=ui.s(8))
        ui.text(surface, tr("help.title"), (box.x + ui.s(15), box.y + ui.s(14)), 28, ACCENT)
        for i, line in enumerate(wrapped):
            ui.text(surface, line, (box.x + ui.s(15), box.y + ui.s(56) + i * ui.s(24)), 20)
        ui.text(surface, tr("help.close"), (box.centerx, box.bottom - ui.s(12)), 16, MUTED, "midbottom")
        # drawn last, so a click anywhere closes the help instead of reaching what lies beneath
        ui.buttons.append(Button(surface.get_rect(), "", lambda: setattr(self, "show_help", False)))

    def draw_handover(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        w, h = surface.get_size()
        colour = side_colour(self.handover_to)
        pygame.draw.rect(surface, colour, (0, 0, w, ui.s(8)))
        ui.text(surface, tr("handover.title", side=side_name(self.handover_to)), (w // 2, h // 2 - ui.s(40)),
                40, TEXT, "center")
        ui.text(surface, tr("handover.hint"), (w // 2, h // 2 + ui.s(10)), 22, MUTED, "center")
        ui.button(surface, (w // 2 - ui.s(110), h // 2 + ui.s(50), ui.s(220), ui.s(44)), tr("handover.ready"),
                  self.finish_handover)

    def draw_reach(self, surface: pygame.Surface, d: Decision) -> None:
        """The reachable area of the selected group, cached as a picture per decision and group."""
        key = (self.decision_id, self.group, self.viewer)
        if key != self._reach_key:
            self._reach_key = key
            opts = self.groups(d).get(self.group, []) if self.group else []
            tiles = {self.points_at(d, o) for o in opts if o.path or (o.target is None and o.tile is not None)}
            tiles.discard(None)
            self._reach_layer = None
            if tiles:
                tw, th = self.tile_px
                layer = pygame.Surface(self.base.get_size(), pygame.SRCALPHA)
                for x, y in tiles:
                    layer.fill((120, 200, 255, 70), (x * tw, y * th, tw, th))
                    pygame.draw.rect(layer, (150, 220, 255, 120), (x * tw, y * th, tw, th), 1)
                self._reach_layer = layer
        if self._reach_layer is not None:
            self.view.blit_layer(surface, self._reach_layer)
        cell = self.view.cell
        for o in (self.groups(d).get(self.group, []) if self.group else []):
            if o.target is not None:
                f = self.figure(o.target)
                if f is not None:
                    pygame.draw.circle(surface, BAD, self.view.tile_centre(f.tile), int(cell * 0.55), 2)

    def draw_tokens(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        cell = self.view.cell
        for t in self.tokens:
            cx, cy = self.view.tile_centre(t.tile)
            r = max(3, int(cell * 0.3))
            pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
            pygame.draw.polygon(surface, side_colour(t.owner), pts)
            pygame.draw.polygon(surface, (10, 10, 10), pts, 1)
            if cell >= 16:
                label = "?" if t.kind == "unknown" else tr(f"token.{t.kind}.short", t.kind[:1].upper())
                ui.text(surface, label, (cx, cy), 16, (255, 255, 255), "center")

    def draw_figures(self, surface: pygame.Surface, d: Decision | None) -> None:
        ui = self.app.ui
        cell = self.view.cell
        pulse = 0.5 + 0.5 * math.sin(time.monotonic() * 5)
        active = d.figure if d is not None else None
        selectable = set()
        if d is not None and self.human_turn():
            selectable = {o.figure for o in d.options if o.figure and o.figure != d.figure}
        for f in self.figs:
            cx, cy = self.view.to_screen(*self.drawn_at(f))
            r = max(3, int(cell * 0.38))
            if not f.alive:
                pygame.draw.line(surface, MUTED, (cx - r, cy - r), (cx + r, cy + r), 2)
                pygame.draw.line(surface, MUTED, (cx - r, cy + r), (cx + r, cy - r), 2)
                continue
            colour = side_colour(f.side)
            if f.id == active or "active" in f.markers:
                pygame.draw.circle(surface, (255, 230, 90), (cx, cy), r + 3 + int(3 * pulse), 3)
            elif f.id in selectable:
                pygame.draw.circle(surface, (255, 255, 255), (cx, cy), r + 3, 1)
            pygame.draw.circle(surface, (15, 15, 15), (cx + 1, cy + 2), r)
            pygame.draw.circle(surface, colour, (cx, cy), r)
            pygame.draw.circle(surface, (240, 240, 240), (cx, cy), r, 2)
            if "hidden" in f.markers:
                pygame.draw.circle(surface, (20, 20, 20), (cx, cy), max(2, r - 3), 2)
            if "activated" in f.markers:
                pygame.draw.circle(surface, (0, 0, 0), (cx, cy), r - 2)
                pygame.draw.circle(surface, colour, (cx, cy), r - 4)
            hp, hp_max = f.health
            if hp_max and cell >= 12:
                bw = int(cell * 0.8)
                bx, by = cx - bw // 2, cy + r + 2
                pygame.draw.rect(surface, (20, 20, 20), (bx, by, bw, 4))
                pygame.draw.rect(surface, GOOD if hp * 2 > hp_max else BAD,
                                 (bx, by, int(bw * max(0, hp) / hp_max), 4))
            if cell >= 28:
                shown = [m for m in f.markers if m not in ("active",)][:3]
                for i, m in enumerate(shown):
                    label = tr(f"marker.{m}.short", m[:2])
                    ui.text(surface, label, (cx + r + 1, cy - r + i * ui.s(12)), 14, (255, 255, 200), "topleft")

    def actor_tile(self, d: Decision, o: Option):
        f = self.figure(o.figure or d.figure)
        return tuple(f.tile) if f is not None else None

    def draw_hover(self, surface: pygame.Surface, d: Decision) -> None:
        ui = self.app.ui
        tile = self.hover_tile
        if tile is None or (self.chooser and not all(self.points_at(d, o) is not None for o in self.chooser)):
            return
        pygame.draw.rect(surface, (255, 255, 255), self.view.tile_rect(tile), 1)
        found = self.candidates(d, tile)
        if not found:
            return
        o = found[0]
        mouse = self.app.ui.mouse
        lines: list[tuple[str, tuple]] = [(self.option_label(o), ACCENT)]
        origin = self.actor_tile(d, o)
        if o.path:
            pts = [self.view.tile_centre(origin)] if origin else []
            pts += [self.view.tile_centre(t) for t in o.path]
            if len(pts) >= 2:
                pygame.draw.lines(surface, (255, 240, 120), False, pts, 3)
            cm = o.cost * self.match.battlefield.cm_per_tile
            lines.append((tr("hud.path_length", pas=_fmt(o.cost), cm=_fmt(cm)), TEXT))
        target = self.figure(o.target) if o.target is not None else None
        aim = tuple(target.tile) if target is not None else None
        if o.path:
            origin = tuple(o.path[-1])       # a move-then-shoot aims from where the move ends
        if o.target is not None and origin is not None and aim is not None:
            bf = self.match.battlefield
            seen = space.line_of_sight(bf, origin, aim)
            pygame.draw.line(surface, GOOD if seen else BAD, self.view.tile_centre(origin),
                             self.view.tile_centre(aim), 2)
            cover = int(space.cover_level(bf, origin, aim))
            lines.append((tr("hud.los_yes") if seen else tr("hud.los_no"), GOOD if seen else BAD))
            lines.append((tr("hud.cover", level=tr(f"cover.{cover}")), TEXT))
            lines.append((tr("hud.distance", pas=_fmt(space.distance(origin, aim)),
                             cm=_fmt(space.distance(origin, aim) * bf.cm_per_tile)), TEXT))
        odds = self.odds(o)
        if odds is not None:
            self.draw_area(surface, o, odds)
            lines.append((tr(f"odds.title.{odds.title}", odds.title) if odds.title else tr("hud.odds"), ACCENT))
            for label, p in odds.outcomes.items():
                lines.append((f"{odds_label(label)}  {float(p) * 100:.1f} %", TEXT))
            lines += [(text, MUTED) for text in self.detail_lines(odds.details or {})]
        width = max(ui.font(18).size(text)[0] for text, _ in lines) + ui.s(14)
        height = len(lines) * ui.s(18) + ui.s(10)
        if mouse[0] > self.map_rect.centerx:     # keep the box off the side the shot goes to
            x = max(self.map_rect.x + 2, mouse[0] - width - ui.s(18))
        else:
            x = min(mouse[0] + ui.s(18), self.map_rect.right - width - 2)
        y = min(mouse[1] + ui.s(18), self.map_rect.bottom - height - 2)
        box = pygame.Rect(x, y, width, height)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((10, 10, 14, 215))
        surface.blit(shade, box)
        for i, (text, colour) in enumerate(lines):
            ui.text(surface, text, (x + ui.s(7), y + ui.s(5) + i * ui.s(18)), 18, colour)

    def odds(self, o: Option):
        if o.key not in self._odds_cache:
            try:
                self._odds_cache[o.key] = self.rules.odds(self.match.state, o)
            except (EscarmoucheError, KeyError, ValueError, TypeError, AttributeError) as e:
                self._odds_cache[o.key] = None
                self.say(tr("status.odds_failed", error=str(e)), bad=True)
        return self._odds_cache[o.key]

    def detail_lines(self, details: dict) -> list[str]:
        """The module's extra exact figures in words: chances as %, means as decimals, per-figure values."""
        out = []
        for key, value in details.items():
            label = tr(f"odds.detail.{key}", key.replace("_", " "))
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, dict) and value:
                if all(isinstance(k, str) and ":" in k for k in value):
                    out.append(label + " :")
                    out += [f"  {odds_label(k)}  {float(p) * 100:.1f} %" for k, p in value.items()]
                elif all(k in self.names for k in value):
                    out += [f"{label} · {self.names[fid]} : {float(v):.2f}" for fid, v in value.items()
                            if isinstance(v, (int, float, Fraction))]
            elif isinstance(value, (int, float, Fraction)):
                if key in PERCENT_DETAILS:
                    out.append(f"{label} : {float(value) * 100:.1f} %")
                else:
                    out.append(f"{label} : {_fmt(round(float(value), 2))}")
        return out[:14]

    def draw_area(self, surface: pygame.Surface, o: Option, odds) -> None:
        """Grenade-like previews: where the throw may land and the blast radius, when the rules say."""
        details = odds.details or {}
        value = o.value if isinstance(o.value, dict) else {}
        radius = next((details.get(k) or value.get(k) for k in AREA_KEYS if details.get(k) or value.get(k)), None)
        landings = list(next((details[k] for k in LANDING_KEYS if isinstance(details.get(k), (list, tuple))), []))
        for key in odds.outcomes:
            name, _, where = str(key).partition(":")
            if name == "landing" and "," in where:
                landings.append(where.split(","))
        spots = []
        for t in landings:
            try:
                spots.append((int(t[0]), int(t[1])))
            except (TypeError, IndexError, ValueError):
                continue
        shade = pygame.Surface((max(1, int(self.view.cell)), max(1, int(self.view.cell))), pygame.SRCALPHA)
        shade.fill((255, 150, 50, 90))
        for t in spots:
            rect = self.view.tile_rect(t)
            surface.blit(shade, rect)
            pygame.draw.rect(surface, (255, 160, 60), rect, 1)
        if isinstance(radius, (int, float)) and not isinstance(radius, bool):
            for centre in spots or ([tuple(o.tile)] if o.tile is not None else []):
                pygame.draw.circle(surface, (255, 120, 40), self.view.tile_centre(centre),
                                   int(radius * self.view.cell), 1)
        exposed = next((v for v in details.values() if isinstance(v, dict) and v and all(k in self.names for k in v)),
                       {})
        for fid in exposed:
            f = self.figure(fid)
            if f is not None:
                pygame.draw.circle(surface, (255, 120, 40), self.view.tile_centre(f.tile), int(self.view.cell * 0.6), 3)

    def draw_ai_hint(self, surface: pygame.Surface) -> None:
        o = self.last_ai
        if o is None:
            return
        tiles = list(o.path) or ([o.tile] if o.tile is not None else [])
        for t in tiles:
            pygame.draw.rect(surface, (255, 200, 90), self.view.tile_rect(t), 2)
        if o.target is not None:
            f = self.figure(o.target)
            if f is not None:
                pygame.draw.circle(surface, BAD, self.view.tile_centre(f.tile), int(self.view.cell * 0.6), 3)

    def draw_top(self, surface: pygame.Surface, d: Decision | None) -> None:
        ui = self.app.ui
        w = surface.get_width()
        bar = pygame.Rect(0, 0, w, self.map_rect.y)
        pygame.draw.rect(surface, PANEL, bar)
        st = self.match.state
        phase = self.rules.phase(st)
        text = tr("hud.turn", n=self.rules.turn(st), max=self.match.max_turns)
        if phase:
            text += " · " + tr(f"phase.{phase}", phase)
        bw, gap = ui.s(96), ui.s(6)
        right = w - gap
        buttons = [(tr("button.menu"), self.to_menu, True, ""),
                   (tr("button.help"), lambda: setattr(self, "show_help", True), True, "F1"),
                   (tr("button.save"), self.save, True, "Ctrl+S"),
                   (tr("button.undo"), self.undo, self.can_undo(), "Ctrl+Z"),
                   (tr("button.terrain"), self.toggle_terrain, True, self.app.settings.keys.get("terrain", ""))]
        if self.ai_players:
            buttons.append((tr("button.skip"), self.skip, True, self.app.settings.keys.get("skip", "")))
            buttons.append((tr("hud.ai") + " : " + tr(f"speed.{self.app.settings.ai_speed}"), self.cycle_speed, True,
                            ""))
        for label, cb, enabled, hk in buttons:
            width = max(bw, ui.font(18).size(label)[0] + ui.s(16))
            if right - width < w // 3:      # a narrow window keeps the first buttons (menu, help, save…)
                break
            rect = pygame.Rect(right - width, ui.s(5), width, bar.h - ui.s(10))
            ui.button(surface, rect, label, cb, enabled=enabled, hotkey="", size=18,
                      tooltip=f"{label} ({hk})" if hk else label,
                      selected=(cb == self.toggle_terrain and self.show_terrain))
            right -= width + gap
        x = ui.s(10)
        x = ui.text(surface, text, (x, bar.centery), 22, TEXT, "midleft", max_width=right - x).right + ui.s(16)
        if d is not None and right - x > ui.s(40):
            who = side_name(d.side)
            if d.side in self.ai_players:
                who += " (" + tr("hud.ai") + ")"
                if self.ai_job is not None:
                    who += " " + tr("hud.thinking") + "." * (int(time.monotonic() * 3) % 4)
            kind = tr(f"kind.{d.kind}", d.kind.replace("_", " "))
            actor = self.names.get(d.figure, "") if d.figure else ""
            label = f"{who} — {kind}" + (f" : {actor}" if actor else "")
            ui.text(surface, label, (x, bar.centery), 20, side_colour(d.side), "midleft", max_width=right - x - gap)

    def toggle_terrain(self) -> None:
        self.show_terrain = not self.show_terrain

    def cycle_speed(self) -> None:
        speeds = list(AI_SPEEDS)
        current = self.app.settings.ai_speed
        self.app.settings.ai_speed = speeds[(speeds.index(current) + 1) % len(speeds)] if current in speeds \
            else "normal"
        self.app.apply_settings()

    def skip(self) -> None:
        self.fast_forward = True

    def to_menu(self) -> None:
        if not self.match.over:
            self.autosave()
        from .scenes import MenuScene
        self.app.replace(MenuScene(self.app))

    def draw_log(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        r = self.log_rect
        if r.w <= 0:
            return
        pygame.draw.rect(surface, (30, 32, 38), r)
        pygame.draw.line(surface, (70, 74, 84), r.topleft, r.bottomleft)
        ui.text(surface, tr("hud.log"), (r.x + ui.s(8), r.y + ui.s(6)), 20, ACCENT)
        line_h = ui.s(16)
        key = (len(self.log_lines), id(self.log_lines), r.w, ui.scale)
        if key != self._wrap_key:
            self._wrap_key = key
            self._wrapped = [part for line in self.log_lines[-200:] for part in ui.wrap(line, 16, r.w - ui.s(16))]
        wrapped = self._wrapped
        room = max(1, (r.h - ui.s(34)) // line_h)
        self.log_scroll = min(self.log_scroll, max(0, len(wrapped) - room))
        end = len(wrapped) - self.log_scroll
        shown = wrapped[max(0, end - room):end]
        for i, line in enumerate(shown):
            ui.text(surface, line, (r.x + ui.s(8), r.y + ui.s(28) + i * line_h), 16, TEXT)

    def draw_bar(self, surface: pygame.Surface, d: Decision | None, human: bool) -> None:
        ui = self.app.ui
        r = self.bar_rect
        pygame.draw.rect(surface, PANEL, r)
        if d is None or not human:
            if d is not None:
                ui.text(surface, tr("hud.waiting_ai"), (r.x + ui.s(12), r.centery), 20, MUTED, "midleft")
            return
        groups = self.groups(d)
        end = self.end_option(d)
        size = r.h - ui.s(14)
        x = r.x + ui.s(8)
        bw = min(ui.s(150), max(ui.s(60), (r.w - ui.s(200)) // max(1, len(groups))))
        for i, action in enumerate(self.bar_actions(d)):
            opts = groups[action]
            label = action_label(action) + (f" ×{len(opts)}" if len(opts) > 1 else "")
            tip = tr(f"tip.{action}", action_label(action))
            if len(opts) == 1 and self.points_at(d, opts[0]) is None:
                odds = self.odds(opts[0])
                if odds is not None:
                    tip += "\n" + "\n".join(f"{odds_label(k)}: {float(p) * 100:.1f} %"
                                            for k, p in odds.outcomes.items())
            hotkey = str(i + 1) if i < 9 else ""
            shown = label if bw >= ui.s(100) else ""       # narrow: the icon, the label in the tooltip
            ui.button(surface, (x, r.y + ui.s(7), bw, size), shown, lambda a=action: self.click_group(a),
                      tooltip=(f"{label}: " if not shown else "") + (f"{tip} [{hotkey}]" if hotkey else tip),
                      selected=(action == self.group),
                      icon=icons.icon(action, ui.s(26)), hotkey=hotkey, size=17)
            x += bw + ui.s(6)
        if end is not None:
            rect = (r.right - ui.s(190), r.y + ui.s(7), ui.s(180), size)
            ui.button(surface, rect, action_label(end.action), lambda: self.answer(end),
                      tooltip=tr(f"tip.{end.action}", action_label(end.action)) + f" [{self.app.settings.keys['end']}]",
                      icon=icons.icon(end.action, ui.s(26)), hotkey=self.app.settings.keys["end"].upper(), size=18)

    def draw_chooser(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        opts = self.chooser or []
        pages = max(1, math.ceil(len(opts) / CHOOSER_PAGE))
        self.chooser_page = min(self.chooser_page, pages - 1)
        page = opts[self.chooser_page * CHOOSER_PAGE:(self.chooser_page + 1) * CHOOSER_PAGE]
        bh, w = ui.s(34), ui.s(340)
        h = ui.s(40) + len(page) * (bh + ui.s(4)) + (bh + ui.s(6) if pages > 1 else 0)
        d = self.decision
        docked = d is not None and all(self.points_at(d, o) is not None for o in opts)
        if docked:   # the map stays clickable beside a list of map choices
            box = pygame.Rect(self.map_rect.right - w - ui.s(8), self.map_rect.y + ui.s(8), w, h)
        else:
            box = pygame.Rect(self.map_rect.centerx - w // 2, self.map_rect.centery - h // 2, w, h)
        pygame.draw.rect(surface, (20, 22, 28), box, border_radius=ui.s(6))
        pygame.draw.rect(surface, ACCENT, box, 1, border_radius=ui.s(6))
        title = tr(f"kind.{d.kind}", d.kind.replace("_", " ")) if d is not None else ""
        ui.text(surface, title, (box.x + ui.s(10), box.y + ui.s(10)), 22, ACCENT)
        y = box.y + ui.s(36)
        for i, o in enumerate(page):
            odds = self.odds(o)
            tip = "\n".join(f"{odds_label(k)}: {float(p) * 100:.1f} %" for k, p in odds.outcomes.items()) \
                if odds is not None else ""
            ui.button(surface, (box.x + ui.s(10), y, w - ui.s(20), bh), self.option_label(o),
                      lambda o=o: self.answer(o), tooltip=tip, hotkey=str(i + 1), size=18,
                      icon=icons.icon(o.action, ui.s(22)))
            y += bh + ui.s(4)
        if pages > 1:
            half = (w - ui.s(30)) // 2
            ui.button(surface, (box.x + ui.s(10), y + ui.s(2), half, bh), "<",
                      lambda: setattr(self, "chooser_page", max(0, self.chooser_page - 1)))
            ui.button(surface, (box.x + ui.s(20) + half, y + ui.s(2), half, bh),
                      f"{self.chooser_page + 1}/{pages} >",
                      lambda: setattr(self, "chooser_page", (self.chooser_page + 1) % pages))

    def draw_figure_info(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        if self.hover_tile is None:
            return
        f = self.figure_at(self.hover_tile)
        if f is None:
            return
        lines = [f.name, tr("hud.health", hp=f.health[0], max=f.health[1]), side_name(f.side)]
        lines += [tr(f"marker.{m}", m.replace("_", " ")) for m in f.markers]
        w = max(ui.font(18).size(t)[0] for t in lines) + ui.s(14)
        h = len(lines) * ui.s(18) + ui.s(10)
        x, y = self.map_rect.x + ui.s(8), self.map_rect.bottom - h - ui.s(28)
        box = pygame.Rect(x, y, w, h)
        pygame.draw.rect(surface, (14, 15, 20), box, border_radius=ui.s(4))
        pygame.draw.rect(surface, side_colour(f.side), box, 1, border_radius=ui.s(4))
        for i, t in enumerate(lines):
            ui.text(surface, t, (x + ui.s(7), y + ui.s(5) + i * ui.s(18)), 18, TEXT)


def odds_label(key: str) -> str:
    """"pv_lost:2" -> the "odds.pv_lost" text with n=2; a bare key is looked up as is."""
    name, _, n = str(key).partition(":")
    if n:
        return tr(f"odds.{name}", f"{name.replace('_', ' ')} {{n}}", n=n)
    return tr(f"odds.{name}", name.replace("_", " "))


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)
