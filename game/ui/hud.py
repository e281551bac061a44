"""What the battle screen draws: figures, tokens, overlays, previews with odds, bars, log and panels.

A mixin of ``BattleScene``: it reads the scene's state (view, decision, figures, selection) and
never changes the match.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from string import Formatter

import pygame

from ..engine import space
from ..engine.decision import Decision, Option
from ..engine.protocol import Gauge, Marker
from . import icons
from .combatlog import in_words
from .dice_tray import draw_tray
from .effects import draw_effects, draw_floaters
from .i18n import has, key_label, language, tr
from .maprender import TileOverlay
from .sprites import draw_gauges, facing_notch
from .widgets import ACCENT, BAD, GOOD, MUTED, PANEL, TEXT, Button, side_colour

AREA_KEYS = ("radius", "blast_radius", "blast")
LANDING_KEYS = ("landings", "landing_tiles", "tiles")
CHOOSER_PAGE = 10
PERCENT_DETAILS = ("kill", "attacker_killed", "chance", "success", "hit", "wound_given_hit", "target_check")
OVERLAY_COLOURS = {"zone": ((120, 200, 255, 50), (150, 220, 255)), "template": ((255, 140, 50, 80), (255, 150, 60)),
                   "bubble": ((255, 230, 120, 40), (255, 230, 120)), "path": ((255, 240, 120, 60), (255, 240, 120))}
RARE = Fraction(1, 2000)       # an outcome below 0.05 % would read "0.0 %": it joins the "other outcomes" line


def side_name(side: int) -> str:
    return tr(f"side.{side}", f"{side + 1}")


def action_label(action: str) -> str:
    return tr(f"action.{action}", action.replace("_", " "))


class BattleDrawing:
    minimap_rect: pygame.Rect | None = None
    _minimap: pygame.Surface | None = None

    def draw_minimap(self, surface: pygame.Surface) -> None:
        """A small picture of the whole map with the figures and the visible window, when it does not fit."""
        ui, view = self.app.ui, self.view
        wx0, wy0 = view.to_world(view.viewport.topleft)
        wx1, wy1 = view.to_world(view.viewport.bottomright)
        gw, gh = view.grid
        if wx0 <= 0 and wy0 <= 0 and wx1 >= gw and wy1 >= gh:
            self.minimap_rect = None
            return
        side = min(ui.s(170), self.map_rect.w // 4, self.map_rect.h // 3)     # a small window keeps its map
        k = min(side / gw, side / gh)
        size = (max(1, int(gw * k)), max(1, int(gh * k)))
        if self._minimap is None or self._minimap.get_size() != size:
            self._minimap = pygame.transform.smoothscale(self.base, size)
        r = pygame.Rect(0, 0, *size)
        r.bottomright = (self.map_rect.right - ui.s(8), self.map_rect.bottom - ui.s(8))
        self.minimap_rect = r
        surface.blit(self._minimap, r)
        for f in self.on_map():
            if f.alive:
                pygame.draw.circle(surface, side_colour(f.side),
                                   (r.x + int((f.tile[0] + 0.5) * k), r.y + int((f.tile[1] + 0.5) * k)), max(2, int(k)))
        window = pygame.Rect(r.x + int(max(0, wx0) * k), r.y + int(max(0, wy0) * k),
                             int((min(gw, wx1) - max(0, wx0)) * k), int((min(gh, wy1) - max(0, wy0)) * k))
        pygame.draw.rect(surface, (255, 255, 255), window, 1)
        pygame.draw.rect(surface, ACCENT, r, 1)

    def minimap_to_world(self, pos) -> tuple[float, float]:
        r = self.minimap_rect
        return ((pos[0] - r.x) / r.w * self.view.grid[0], (pos[1] - r.y) / r.h * self.view.grid[1])

    def draw_help(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        keys = {k: key_label(v) for k, v in self.app.settings.keys.items()}
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
        ui.text(surface, tr("handover.save", shortcut="Ctrl+" + key_label(self.app.settings.keys.get("save", "s"))),
                (w // 2, h // 2 + ui.s(120)), 18, MUTED, "center")
        ui.button(surface, (w // 2 - ui.s(110), h // 2 + ui.s(50), ui.s(220), ui.s(44)), tr("handover.ready"),
                  self.finish_handover)

    def reach_overlay(self, d: Decision):
        """The reachable area of the selected group as a tile overlay, made once per decision and group."""
        key = (self.decision_id, self.group, self.viewer)
        if key != self._reach_key:
            self._reach_key = key
            opts = self.groups(d).get(self.group, []) if self.group else []
            tiles = {self.points_at(d, o) for o in opts if o.path or (o.target is None and o.tile is not None)}
            tiles.discard(None)
            self._reach_layer = TileOverlay.of_tiles(self.view.grid, tiles, (120, 200, 255, 70),
                                                     (150, 220, 255, 120)) if tiles else None
        return self._reach_layer

    def draw_targets(self, surface: pygame.Surface, d: Decision) -> None:
        """A ring round every figure the selected group may target."""
        cell = self.view.cell
        for o in (self.groups(d).get(self.group, []) if self.group else []):
            if o.target is not None:
                f = self.figure(o.target)
                if f is not None and f.tile is not None:
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

    def draw_figures(self, surface: pygame.Surface, d: Decision | None) -> list:
        """The dead first (their graves lie under the living), then every figure standing but those that
        pulse (the active ones): those are returned, to be drawn live."""
        active = d.figure if d is not None else None
        selectable = set()
        if d is not None and self.human_turn():
            selectable = {o.figure for o in d.options if o.figure and o.figure != d.figure}
        self.badge_spots = []
        live = []
        for f in sorted(self.shown_figures(), key=lambda f: f.alive and self.timeline.dying(f.id) is None):
            if f.alive and self.timeline.dying(f.id) is None and (f.id == active or f.marked("active")):
                live.append(f)
            else:
                self.draw_figure(surface, f, f.id in selectable)
        return live

    def shown_figures(self) -> list:
        """The figures on the map as the viewer sees them now: one whose clips have not all started yet
        still looks as it did before the answer (alive, unhurt, where it stood)."""
        out = []
        for f in self.figs:
            then = self.before.get(f.id)
            if then is not None and (self.timeline.waiting(f.id) or self.timeline.dying(f.id)):
                f = then
            if f.tile is not None:
                out.append(f)
        seen = {f.id for f in out}
        out += [then for fid, then in self.before.items() if fid not in seen and then.tile is not None
                and (self.timeline.waiting(fid) or self.timeline.dying(fid))]
        return out

    def draw_figure(self, surface: pygame.Surface, f, selectable: bool = False,
                    pulse: float | None = None) -> pygame.Rect:
        """One figure: its token (trade, side, facing), its gauges and state badges, or its grave;
        ``pulse`` (0 to 1) sizes the ring of an active one. Returns what it covers."""
        cell, tl = self.view.cell, self.timeline
        wx, wy = self.drawn_at(f)
        cx, cy = self.view.to_screen(wx, wy)
        r = max(3, int(cell * 0.44))
        drawn = pygame.Rect(cx - r - 8, cy - r - 8, 2 * r + 17, 2 * r + 17)     # the token, its shadow and ring
        dying = tl.dying(f.id)
        if not f.alive or (dying is not None and tl.clock >= dying.start):
            fade = dying.progress(tl.clock) if dying is not None else 1.0
            grave = self.sprites.grave(f.side, r)
            grave.set_alpha(int(255 * fade))
            surface.blit(grave, grave.get_rect(center=(cx, cy + int(r * 0.2))))
            grave.set_alpha(255)
            if fade < 1.0:      # the token sinks and fades as the marker appears
                token = self.sprites.token(self.art.kind(f.kind), f.side, max(3, int(r * (1 - 0.4 * fade))))
                token.set_alpha(int(255 * (1 - fade)))
                surface.blit(token, token.get_rect(center=(cx, cy + int(r * 0.5 * fade))))
                token.set_alpha(255)
            return drawn
        if pulse is not None:
            pygame.draw.circle(surface, (255, 230, 90), (cx, cy), r + 4 + int(3 * pulse), 3)
        elif selectable:
            pygame.draw.circle(surface, (255, 255, 255), (cx, cy), r + 4, 1)
        token = self.sprites.token(self.art.kind(f.kind), f.side, r, spent=f.marked("activated"))
        if f.marked("hidden"):          # seen by its own side only: drawn faint
            token.set_alpha(140)
        surface.blit(token, token.get_rect(center=(cx, cy)))
        token.set_alpha(255)
        flash = tl.flash(f.id)
        if flash is not None:
            glow = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
            pygame.draw.circle(glow, (*flash, 150), (r + 1, r + 1), r)
            surface.blit(glow, (cx - r - 1, cy - r - 1))
        if f.facing is not None:
            facing_notch(surface, (cx, cy), r, f.facing)
        if cell >= 12:
            drawn.union_ip(draw_gauges(surface, f.gauges,
                                       pygame.Rect(cx - int(cell * 0.4), cy + r + 3, int(cell * 0.8), 4)))
        if cell >= 24:
            drawn.union_ip(self.draw_badges(surface, f, cx, cy - r + max(4, r // 2), r))
        return drawn

    def draw_badges(self, surface: pygame.Surface, f, cx: int, bottom: int, r: int) -> pygame.Rect:
        """The figure's states as small pictures in a row over its token (a lettered badge for a state the
        module gave no picture); hovering one names it (``badge_spots``). Returns what it covers."""
        ui = self.app.ui
        covered = pygame.Rect(cx, bottom, 0, 0)
        states = [m for m in f.markers if self.art.marker(m.key) or has(f"marker.{m.key}.short")]
        states = [m for m in states if m.key not in ("active", "activated")]
        if not states:
            return covered
        size = max(16, int(self.view.cell * 0.55))
        most = max(3, (2 * r + size) // size)
        shown = states[:most] if len(states) <= most else states[:most - 1]
        x = cx - len(shown) * size // 2 - (size // 2 if len(shown) < len(states) else 0)
        for m in shown:
            spot = pygame.Rect(x, bottom - size, size, size)
            picture = self.art.marker(m.key)
            if picture is not None:
                surface.blit(self.sprites.badge(picture, size), spot)
            else:
                pygame.draw.circle(surface, (12, 12, 16), spot.center, size // 2)
                ui.text(surface, tr(f"marker.{m.key}.short"), spot.center, 12, (255, 255, 200), "center")
            count = next((v for k, v in m.params if k in ("n", "value") and isinstance(v, int)
                          and not isinstance(v, bool)), None)
            if count is not None and size >= 14:
                ui.text(surface, str(count), spot.bottomright, 11, (255, 240, 160), "bottomright")
            self.badge_spots.append((spot, f, m))
            covered.union_ip(spot)
            x += size
        if len(shown) < len(states):
            covered.union_ip(ui.text(surface, f"+{len(states) - len(shown)}", (x + 1, bottom - size // 2), 12,
                                     (255, 255, 200), "midleft"))
        return covered

    def draw_action(self, surface: pygame.Surface) -> None:
        """What the timeline plays now over the map: tracers, lunges, throws, blasts, rising numbers, dice."""
        draw_effects(surface, self.view, self.timeline)
        draw_floaters(surface, self.view, self.timeline, self.app.ui, self.drawn_at_id)
        draw_tray(surface, self.app.ui, self.timeline.rolls(), self.timeline.clock, self.map_rect, self.names)

    def draw_overlays(self, surface: pygame.Surface) -> None:
        """The module's shapes on the map now: command bubbles, zones, templates."""
        for o in self.overlays:
            self.draw_overlay(surface, o)

    def draw_overlay(self, surface: pygame.Surface, o) -> None:
        fill, edge = OVERLAY_COLOURS.get(o.kind, OVERLAY_COLOURS["zone"])
        if o.side is not None and o.kind == "bubble":
            r, g, b = side_colour(o.side)
            fill, edge = (r, g, b, 45), (r, g, b)
        cell = max(1, int(self.view.cell))
        shade = pygame.Surface((cell, cell), pygame.SRCALPHA)
        shade.fill(fill)
        tiles = set(map(tuple, o.tiles))
        for t in tiles:
            rect = self.view.tile_rect(t)
            surface.blit(shade, rect)
            x, y = t           # outline the edge of the area: the sides with no neighbour inside it
            for (dx, dy), a, b in (((0, -1), rect.topleft, rect.topright), ((0, 1), rect.bottomleft, rect.bottomright),
                                   ((-1, 0), rect.topleft, rect.bottomleft), ((1, 0), rect.topright, rect.bottomright)):
                if (x + dx, y + dy) not in tiles:
                    pygame.draw.line(surface, edge, a, b, 2)
        if o.kind == "bubble":
            for fid in o.figures:
                f = self.figure(fid)
                if f is not None and f.tile is not None:
                    pygame.draw.circle(surface, edge, self.view.tile_centre(f.tile), int(self.view.cell * 0.5), 2)

    def draw_panels(self, surface: pygame.Surface) -> None:
        """The module's side panels and the figures that are not on the map, in the column left of it."""
        ui, side = self.app.ui, self.side_rect
        self.panel_rects = []
        if side.w <= 0:
            return
        pygame.draw.rect(surface, (30, 32, 38), side)
        clip = surface.get_clip()
        surface.set_clip(side)
        x, y, width = side.x + ui.s(6), side.y + ui.s(6), side.w - ui.s(12)
        for p in self.panels:
            y = self.draw_panel(surface, p, x, y, width) + ui.s(6)
        off_map = [f for f in self.figs if f.tile is None and f.alive]
        if off_map:
            self.draw_roster(surface, off_map, x, y, width)
        surface.set_clip(clip)

    def draw_panel(self, surface: pygame.Surface, p, x: int, y: int, width: int) -> int:
        ui = self.app.ui
        lines = [tr(w.key, w.key, **self.words_params(w)) for w in p.lines]
        wrapped = [part for line in lines for part in ui.wrap(line, 16, width - ui.s(14))]
        track_h = ui.s(34) if p.track is not None else 0
        h = ui.s(28) + len(wrapped) * ui.s(18) + track_h + ui.s(6)
        box = pygame.Rect(x, y, width, h)
        self.panel_box(surface, box)
        ui.text(surface, tr(f"panel.{p.id}", p.id.replace("_", " ")), (x + ui.s(7), y + ui.s(5)), 18, ACCENT,
                max_width=width - ui.s(14))
        ty = y + ui.s(26)
        for line in wrapped:
            ui.text(surface, line, (x + ui.s(7), ty), 16, TEXT)
            ty += ui.s(18)
        if p.track is not None:
            self.draw_track(surface, p.track, pygame.Rect(x + ui.s(7), ty + ui.s(2), width - ui.s(14), ui.s(28)))
        self.panel_rects.append(box)
        return box.bottom

    def draw_track(self, surface: pygame.Surface, track, rect: pygame.Rect) -> None:
        """A row of numbered cells; each piece sits in its cell in its side's colour, labelled by name."""
        ui = self.app.ui
        w = rect.w / max(1, track.length)
        for k in range(track.length):
            cell = pygame.Rect(rect.x + int(k * w), rect.y, int(w) - 2, rect.h)
            pygame.draw.rect(surface, (40, 44, 52), cell, border_radius=ui.s(3))
            ui.text(surface, str(k + 1), (cell.x + 2, cell.y + 1), 12, MUTED)
        in_cell: dict[int, list] = {}
        for pid, side, at in track.pieces:
            if 1 <= at <= track.length:
                in_cell.setdefault(at, []).append((pid, side))
        for at, pieces in in_cell.items():        # pieces sharing a cell stack down it
            h = rect.h / len(pieces)
            for n, (pid, side) in enumerate(pieces):
                spot = (rect.x + int((at - 0.5) * w) - 1, rect.y + int((n + 0.5) * h))
                ui.text(surface, self.names.get(pid, pid), spot, 14 if len(pieces) == 1 else 12, side_colour(side),
                        "center", max_width=int(w) - 4)

    def draw_roster(self, surface: pygame.Surface, figures, x: int, y: int, width: int) -> None:
        """Figures off the map (a crew at its firing posts): each its name, its gauges in words, and bars."""
        ui = self.app.ui
        row = ui.s(40)
        box = pygame.Rect(x, y, width, ui.s(28) + len(figures) * row)
        self.panel_box(surface, box)
        ui.text(surface, tr("hud.off_map"), (x + ui.s(7), y + ui.s(5)), 18, ACCENT)
        ty = y + ui.s(28)
        for f in figures:
            ui.text(surface, self.names.get(f.id, f.name), (x + ui.s(7), ty), 16, side_colour(f.side),
                    max_width=width // 2)
            draw_gauges(surface, f.gauges, pygame.Rect(x + width // 2, ty + ui.s(4), width // 2 - ui.s(10), 5))
            words = " · ".join(gauge_label(g) for g in f.gauges)
            ui.text(surface, words, (x + ui.s(7), ty + ui.s(18)), 14, MUTED, max_width=width - ui.s(14))
            ty += row
        self.panel_rects.append(box)

    def panel_box(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((12, 13, 18, 220))
        surface.blit(shade, box)
        pygame.draw.rect(surface, (70, 74, 84), box, 1, border_radius=self.app.ui.s(4))

    def words_params(self, words) -> dict:
        """A module's words parameters as the reader sees them: sides, figure names and terms in words."""
        return {k: in_words(k, v, self.names) for k, v in words.params}

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
            lines.append((tr("hud.path_length", pas=fmt_number(o.cost), cm=fmt_number(cm)), TEXT))
        target = self.figure(o.target) if o.target is not None else None
        aim = tuple(target.tile) if target is not None and target.tile is not None else None
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
            lines.append((tr("hud.distance", pas=fmt_number(space.distance(origin, aim)),
                             cm=fmt_number(space.distance(origin, aim) * bf.cm_per_tile)), TEXT))
        for shape in self.preview(o):
            self.draw_overlay(surface, shape)
        odds = self.odds(o)
        if odds is not None:
            self.draw_area(surface, o, odds)
            lines.append((tr(f"odds.title.{odds.title}", odds.title) if odds.title else tr("hud.odds"), ACCENT))
            lines += [(text, TEXT) for text in self.outcome_lines(odds.outcomes)]
            lines += [(text, MUTED) for text in self.detail_lines(odds.details or {})]
        room = max(1, (self.map_rect.h - ui.s(14)) // ui.s(18))
        if len(lines) > room:       # a long panel keeps its head and says it was cut
            lines = lines[:room - 1] + [("…", MUTED)]
        width = max(ui.font(18).size(text)[0] for text, _ in lines) + ui.s(14)
        height = len(lines) * ui.s(18) + ui.s(10)
        if mouse[0] > self.map_rect.centerx:     # keep the box off the side the shot goes to
            x = max(self.map_rect.x + 2, mouse[0] - width - ui.s(18))
        else:
            x = min(mouse[0] + ui.s(18), self.map_rect.right - width - 2)
        y = max(self.map_rect.y + 2, min(mouse[1] + ui.s(18), self.map_rect.bottom - height - 2))
        box = pygame.Rect(x, y, width, height)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((10, 10, 14, 215))
        surface.blit(shade, box)
        for i, (text, colour) in enumerate(lines):
            ui.text(surface, text, (x + ui.s(7), y + ui.s(5) + i * ui.s(18)), 18, colour)

    def outcome_lines(self, outcomes: dict, indent: str = "") -> list[str]:
        """One line per outcome; those under 0.05 % are summed on one last line rather than listed as 0.0 %."""
        shown = [(k, p) for k, p in outcomes.items() if p >= RARE]
        rest = sum((p for p in outcomes.values() if p < RARE), Fraction(0))
        out = [f"{indent}{odds_label(k, self.names)}  {fmt_percent(p)}" for k, p in shown]
        if rest > 0:
            out.append(f"{indent}{tr('odds.rest')}  {fmt_percent(rest)}")
        return out

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
                    out += self.outcome_lines(value, "  ")
                elif all(k in self.names for k in value):
                    out += [f"{label} · {self.names[fid]} : {fmt_number(round(float(v), 2))}"
                            for fid, v in value.items() if isinstance(v, (int, float, Fraction))]
            elif isinstance(value, (int, float, Fraction)):
                if key in PERCENT_DETAILS:
                    out.append(f"{label} : {fmt_percent(value)}")
                else:
                    out.append(f"{label} : {fmt_number(round(float(value), 2))}")
            elif isinstance(value, str):
                out.append(f"{label} : {term(value)}")
            elif isinstance(value, (list, tuple)) and all(isinstance(t, (list, tuple)) and len(t) == 2 for t in value):
                out.append(f"{label} : " + ", ".join(f"{term(str(a))} {b}" for a, b in value))
        return out

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
            if f is not None and f.tile is not None:
                pygame.draw.circle(surface, (255, 120, 40), self.view.tile_centre(f.tile), int(self.view.cell * 0.6), 3)

    def draw_ai_hint(self, surface: pygame.Surface) -> None:
        """Where the AI's last answer went, unless it concerns a figure this viewer may not see."""
        o = self.last_ai
        if o is None or (o.figure is not None and self.figure(o.figure) is None):
            return
        tiles = list(o.path) or ([o.tile] if o.tile is not None else [])
        for t in tiles:
            pygame.draw.rect(surface, (255, 200, 90), self.view.tile_rect(t), 2)
        if o.target is not None:
            f = self.figure(o.target)
            if f is not None and f.tile is not None:
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
                   (tr("button.terrain"), self.toggle_terrain, True, key_label(self.app.settings.keys.get("terrain", "")))]
        if self.ai_players:
            buttons.append((tr("button.skip"), self.skip, True, key_label(self.app.settings.keys.get("skip", ""))))
            buttons.append((tr("hud.ai") + " : " + tr(f"speed.{self.app.settings.ai_speed}"), self.cycle_speed, True,
                            ""))
        for label, cb, enabled, hk in buttons:
            width = max(bw, ui.font(18).size(label)[0] + ui.s(16))
            if right - width < w // 3:      # a narrow window keeps the first buttons (menu, help, save…)
                break
            rect = pygame.Rect(right - width, ui.s(5), width, bar.h - ui.s(10))
            ui.button(surface, rect, label, cb, enabled=enabled, hotkey="", size=18,
                      tooltip=f"{label} ({hk})" if hk else label,
                      selected=(cb == self.toggle_terrain and self.show_terrain)
                      or (cb == self.skip and self.fast_forward))
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
            mode = (d.info or {}).get("mode") if isinstance(d.info, dict) else None
            if isinstance(mode, str) and mode != "regular":      # a reaction, an ambush… is not a turn of one's own
                kind += f" ({term(mode)})"
            actor = self.names.get(d.figure, "") if d.figure else ""
            label = f"{who} — {kind}" + (f" : {actor}" if actor else "")
            ui.text(surface, label, (x, bar.centery), 20, side_colour(d.side), "midleft", max_width=right - x - gap)

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
            pairs = list(zip(self.log_lines, self.log_sides))[-200:]
            self._wrapped = [(part, log_colour(side)) for line, side in pairs
                             for part in ui.wrap(line, 16, r.w - ui.s(16))]
        wrapped = self._wrapped
        room = max(1, (r.h - ui.s(34)) // line_h)
        self.log_scroll = min(self.log_scroll, max(0, len(wrapped) - room))
        end = len(wrapped) - self.log_scroll
        shown = wrapped[max(0, end - room):end]
        for i, (line, colour) in enumerate(shown):
            ui.text(surface, line, (r.x + ui.s(8), r.y + ui.s(28) + i * line_h), 16, colour)

    def draw_bar(self, surface: pygame.Surface, d: Decision | None, human: bool) -> None:
        ui = self.app.ui
        r = self.bar_rect
        pygame.draw.rect(surface, PANEL, r)
        if d is None or not human:
            if d is not None and d.side in self.ai_players:
                ui.text(surface, tr("hud.waiting_ai"), (r.x + ui.s(12), r.centery), 20, MUTED, "midleft")
            return
        groups = self.groups(d)
        end = self.end_option(d)
        size = r.h - ui.s(14)
        x = r.x + ui.s(8)
        actions = self.bar_actions(d)
        labels = [action_label(a) + (f" ×{len(groups[a])}" if len(groups[a]) > 1 else "") for a in actions]
        widest = max((ui.font(17).size(t)[0] for t in labels), default=0) + ui.s(46)
        room = max(ui.s(60), (r.w - ui.s(200)) // max(1, len(groups)) - ui.s(6))
        bw = min(room, max(ui.s(110), min(widest, ui.s(230))))
        stacked = widest > bw       # narrow: the icon above a short label, the count in the tooltip
        for i, action in enumerate(actions):
            opts = groups[action]
            count = f" ×{len(opts)}" if len(opts) > 1 else ""
            label = action_label(action) + ("" if stacked else count)
            tip = tr(f"tip.{action}", action_label(action))
            if len(opts) == 1 and self.points_at(d, opts[0]) is None:
                odds = self.odds(opts[0])
                if odds is not None:
                    tip += "\n" + "\n".join(f"{odds_label(k)}: {fmt_percent(p)}" for k, p in odds.outcomes.items())
            hotkey = hotkey_label(i)
            ui.button(surface, (x, r.y + ui.s(7), bw, size), label, lambda a=action: self.click_group(a),
                      tooltip=f"{action_label(action)}{count}: " + (f"{tip} [{hotkey}]" if hotkey else tip),
                      selected=(action == self.group), stacked=stacked,
                      icon=icons.icon(action, ui.s(26)), hotkey=hotkey, size=17)
            x += bw + ui.s(6)
        if end is not None:
            rect = (r.right - ui.s(190), r.y + ui.s(7), ui.s(180), size)
            ui.button(surface, rect, action_label(end.action), lambda: self.answer(end),
                      tooltip=tr(f"tip.{end.action}", action_label(end.action)) + f" [{key_label(self.app.settings.keys['end'])}]",
                      icon=icons.icon(end.action, ui.s(26)), hotkey=key_label(self.app.settings.keys["end"]), size=18)

    def draw_chooser(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        opts = self.chooser or []
        pages = max(1, math.ceil(len(opts) / CHOOSER_PAGE))
        self.chooser_page = min(self.chooser_page, pages - 1)
        page = opts[self.chooser_page * CHOOSER_PAGE:(self.chooser_page + 1) * CHOOSER_PAGE]
        d = self.decision
        title = tr(f"kind.{d.kind}", d.kind.replace("_", " ")) if d is not None else ""
        bh = ui.s(34)
        labels = [self.option_label(o) for o in page]
        widest = max([ui.font(22).size(title)[0]] + [ui.font(18).size(t)[0] + ui.s(56) for t in labels])
        w = min(max(ui.s(340), widest + ui.s(24)), max(ui.s(340), self.map_rect.w // 2))
        note = ui.wrap(self.decision_note(d), 16, w - ui.s(20)) if d is not None else []
        top = ui.s(36) + len(note) * ui.s(18)
        h = top + ui.s(4) + len(page) * (bh + ui.s(4)) + (bh + ui.s(6) if pages > 1 else 0)
        box = self.chooser_rect(w, h)
        pygame.draw.rect(surface, (20, 22, 28), box, border_radius=ui.s(6))
        pygame.draw.rect(surface, ACCENT, box, 1, border_radius=ui.s(6))
        ui.text(surface, title, (box.x + ui.s(10), box.y + ui.s(10)), 22, ACCENT, max_width=w - ui.s(20))
        for i, line in enumerate(note):
            ui.text(surface, line, (box.x + ui.s(10), box.y + ui.s(34) + i * ui.s(18)), 16, TEXT)
        y = box.y + top
        for i, o in enumerate(page):
            odds = self.odds(o)
            tip = "\n".join(f"{odds_label(k, self.names)}: {fmt_percent(p)}" for k, p in odds.outcomes.items()) \
                if odds is not None else ""
            ui.button(surface, (box.x + ui.s(10), y, w - ui.s(20), bh), labels[i],
                      lambda o=o: self.answer(o), tooltip=tip, hotkey=hotkey_label(i), size=18,
                      icon=icons.icon(o.action, ui.s(22)))
            y += bh + ui.s(4)
        if pages > 1:
            half = (w - ui.s(30)) // 2
            ui.button(surface, (box.x + ui.s(10), y + ui.s(2), half, bh), "<",
                      lambda: setattr(self, "chooser_page", max(0, self.chooser_page - 1)))
            ui.button(surface, (box.x + ui.s(20) + half, y + ui.s(2), half, bh),
                      f"{self.chooser_page + 1}/{pages} >",
                      lambda: setattr(self, "chooser_page", (self.chooser_page + 1) % pages))

    def draw_note(self, surface: pygame.Surface, d: Decision) -> None:
        """The decision's note (who acts, what is asked) over the top of the map when no list shows it."""
        text = self.decision_note(d)
        if not text:
            return
        ui = self.app.ui
        label = ui.render(text, 18, TEXT)
        box = label.get_rect(midtop=(self.map_rect.centerx, self.map_rect.y + ui.s(6))).inflate(ui.s(16), ui.s(8))
        pygame.draw.rect(surface, (14, 15, 20), box, border_radius=ui.s(4))
        pygame.draw.rect(surface, side_colour(d.side), box, 1, border_radius=ui.s(4))
        surface.blit(label, label.get_rect(center=box.center))

    def chooser_rect(self, w: int, h: int) -> pygame.Rect:
        """Where the list of choices goes: beside the map choices it lists (on the side away from them,
        so they stay visible and clickable), or in the middle of the map when none has a place."""
        ui, d = self.app.ui, self.decision
        opts = self.chooser or []
        spots = [t for t in (self.points_at(d, o) for o in opts) if t is not None] if d is not None else []
        if not spots:
            return pygame.Rect(self.map_rect.centerx - w // 2, self.map_rect.centery - h // 2, w, h)
        mean_x = sum(self.view.tile_centre(t)[0] for t in spots) / len(spots)
        x = self.map_rect.x + ui.s(8) if mean_x > self.map_rect.centerx else self.map_rect.right - w - ui.s(8)
        return pygame.Rect(x, self.map_rect.y + ui.s(8), w, h)

    def decision_note(self, d: Decision) -> str:
        """What the decision's info tells the player (the standing bid, who attacks…), when the UI words it."""
        info = d.info if isinstance(d.info, dict) else {}
        values = {}
        for key, v in info.items():
            if isinstance(v, dict):
                values.update({f"{key}{k}": v[k] for k in v})
            elif v is not None:
                values[key] = in_words(key, v, self.names)
        for key in (f"info.{d.kind}", f"info.{d.kind}.open"):
            if has(key) and all(name in values for _, name, _, _ in Formatter().parse(tr(key)) if name):
                return tr(key, **values)
        return ""

    def draw_figure_info(self, surface: pygame.Surface) -> None:
        """The hovered figure named in full: its trade, gauges, side and every state with its picture;
        the state under the mouse is lit and explained (its ``.tip`` words)."""
        ui = self.app.ui
        if self.hover_tile is None:
            return
        f = self.figure_at(self.hover_tile)
        if f is None:
            return
        pointed = next((m for spot, fig, m in getattr(self, "badge_spots", ()) if fig.id == f.id
                        and spot.collidepoint(ui.mouse)), None)
        trade = tr(f"kind.{f.kind}", "") if f.kind and has(f"kind.{f.kind}") else (term(f.kind) if f.kind else "")
        lines = [(f.name, None, TEXT)] + ([(trade, self.art.kind(f.kind), MUTED)] if trade else [])
        lines += [(gauge_label(g), None, TEXT) for g in f.gauges] + [(side_name(f.side), None, side_colour(f.side))]
        for m in f.markers:
            lines.append((marker_label(m), self.art.marker(m.key), ACCENT if m is pointed else TEXT))
            if m is pointed and has(f"marker.{m.key}.tip"):
                lines += [(part, None, MUTED) for part in ui.wrap(tr(f"marker.{m.key}.tip"), 16, ui.s(300))]
        row = ui.s(20)
        w = max(ui.font(18).size(t)[0] for t, _, _ in lines) + ui.s(14) + row
        h = len(lines) * row + ui.s(10)
        x, y = self.map_rect.x + ui.s(8), self.map_rect.bottom - h - ui.s(28)
        box = pygame.Rect(x, y, w, h)
        pygame.draw.rect(surface, (14, 15, 20), box, border_radius=ui.s(4))
        pygame.draw.rect(surface, side_colour(f.side), box, 1, border_radius=ui.s(4))
        for i, (text, picture, colour) in enumerate(lines):
            ty = y + ui.s(5) + i * row
            if picture is not None:
                pic = self.sprites.picture(picture, row - ui.s(3))
                if pic is not None:
                    surface.blit(pic, (x + ui.s(5), ty))
            ui.text(surface, text, (x + ui.s(7) + row, ty), 18, colour)


def log_colour(side: int | None) -> tuple[int, int, int]:
    """A side's colour lightened for reading on the dark log; neutral lines stay plain."""
    if side is None:
        return TEXT
    r, g, b = side_colour(side)
    return ((r + 2 * 235) // 3, (g + 2 * 235) // 3, (b + 2 * 235) // 3)


def odds_label(key: str, names: dict[str, str] | None = None) -> str:
    """"pv_lost:2" -> the "odds.pv_lost" text with n=2 (a figure id or a term in words); a bare key as is."""
    name, _, n = str(key).partition(":")
    if n:
        shown = (names or {}).get(n) or term(n)
        return tr(f"odds.{name}", f"{name.replace('_', ' ')} {{n}}", n=shown)
    return tr(f"odds.{name}", name.replace("_", " "))


def gauge_label(gauge: Gauge) -> str:
    """A gauge in the module's words ("Cases de blessure libres 11/13"); an unknown value reads "?"."""
    value = "?" if gauge.value is None else gauge.value
    top = "?" if gauge.max is None else gauge.max
    return tr(f"gauge.{gauge.id}", f"{gauge.id.replace('_', ' ')} {{value}}/{{max}}", value=value, max=top)


def marker_label(marker: Marker) -> str:
    """A state marker in the module's words, its parameters filled in (words among them translated)."""
    params = {k: term(v) if isinstance(v, str) else v for k, v in marker.params}
    return tr(f"marker.{marker.key}", marker.key.replace("_", " "), **params)


def term(value: str) -> str:
    """A rules word (weapon, zone, state…) in the player's language; unknown words lose their underscores."""
    return tr(f"term.{value}", value.replace("_", " "))


def hotkey_label(i: int) -> str:
    """The number key of the i-th choice: 1..9, then 0 for the tenth."""
    return str(i + 1) if i < 9 else ("0" if i == 9 else "")


def fmt_percent(p) -> str:
    """An exact chance as a percentage with one decimal, with the decimal comma in French."""
    text = f"{float(p) * 100:.1f} %"
    return text.replace(".", ",") if language() == "fr" else text


def fmt_number(v: float) -> str:
    """A length or a mean with at most one decimal, with the decimal comma in French."""
    text = f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)
    return text.replace(".", ",") if language() == "fr" else text
