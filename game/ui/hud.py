"""What the battle screen draws: figures, tokens, overlays, previews with odds, bars, log and panels.

A mixin of ``BattleScene``: it reads the scene's state (view, decision, figures, selection) and
never changes the match.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from string import Formatter

import numpy as np
import pygame

from ..engine import space
from ..engine.decision import Decision, Option
from ..engine.protocol import Gauge, Marker
from . import glossary, icons
from .combatlog import in_words
from .effects import draw_effects, draw_floaters
from .i18n import has, key_label, language, tr
from .maprender import TileOverlay
from .sprites import draw_gauges, facing_notch
from .widgets import ACCENT, BAD, GOOD, MUTED, PANEL, TEXT, side_colour

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
    _minimap_ground: pygame.Surface | None = None
    _minimap: tuple | None = None       # ((size, figures' dots), the minimap with them)
    hover_lines: list = []
    hover_avoid: list = []
    page_size: int = CHOOSER_PAGE
    chooser_box: pygame.Rect | None = None

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
        r = pygame.Rect(0, 0, *size)
        r.bottomright = (self.map_rect.right - ui.s(8), self.map_rect.bottom - ui.s(8))
        if not ui.free(r):          # the list of choices needs the room: the minimap waits until it closes
            self.minimap_rect = None
            return
        self.minimap_rect = r
        dots = tuple((f.tile, f.side) for f in self.on_map() if f.alive)
        if self._minimap is None or self._minimap[0] != (size, dots):      # drawn again when a figure moves
            if self._minimap_ground is None or self._minimap_ground.get_size() != size:
                self._minimap_ground = pygame.transform.smoothscale(self.base, size)
            picture = self._minimap_ground.copy()
            for tile, side in dots:
                pygame.draw.circle(picture, side_colour(side), (int((tile[0] + 0.5) * k), int((tile[1] + 0.5) * k)),
                                   max(2, int(k)))
            self._minimap = ((size, dots), picture)
        surface.blit(self._minimap[1], r)
        self.app.ui.occupy(r)
        window = pygame.Rect(r.x + int(max(0, wx0) * k), r.y + int(max(0, wy0) * k),
                             int((min(gw, wx1) - max(0, wx0)) * k), int((min(gh, wy1) - max(0, wy0)) * k))
        pygame.draw.rect(surface, (255, 255, 255), window, 1)
        pygame.draw.rect(surface, ACCENT, r, 1)

    def minimap_to_world(self, pos) -> tuple[float, float]:
        r = self.minimap_rect
        return ((pos[0] - r.x) / r.w * self.view.grid[0], (pos[1] - r.y) / r.h * self.view.grid[1])

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

    def draw_figures(self, surface: pygame.Surface | None, d: Decision | None, moving: frozenset = frozenset(),
                     only: set | None = None) -> list:
        """The dead first (their graves lie under the living), then every figure standing but those that
        pulse (the active ones) and those ``moving`` names: those are returned in drawing order, as
        (figure, selectable, pulses), to be drawn live (``draw_live``). ``only``: these figures alone
        are looked at, as they look now, and none is drawn."""
        active = d.figure if d is not None else None
        selectable = set()
        if d is not None and self.human_turn():
            selectable = {o.figure for o in d.options if o.figure and o.figure != d.figure}
        if only is None:
            self.badge_spots = []
        live = []
        shown = [f for f in self.shown_figures() if only is None or f.id in only]
        for f in sorted(shown, key=lambda f: f.alive and self.timeline.dying(f.id) is None):
            pulses = f.alive and self.timeline.dying(f.id) is None and (f.id == active or f.marked("active"))
            if pulses or f.id in moving or only is not None:
                live.append((f, f.id in selectable, pulses))
            else:
                self.draw_figure(surface, f, f.id in selectable)
        return live

    def draw_live(self, surface: pygame.Surface, live: list) -> None:
        """Figures drawn anew each frame; their badges are not pointed at while they move (the spots of
        a frame that lasts a moment would pile up)."""
        spots = len(self.badge_spots)
        for f, selectable, pulses in live:
            self.draw_figure(surface, f, selectable, pulse=self.pulse() if pulses else None)
        del self.badge_spots[spots:]

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
        ring = selectable and pulse is None
        flash = tl.flash(f.id)
        if flash is not None:
            return drawn.union(self.draw_token(surface, f, cx, cy, r, ring, flash))
        picture, (dx, dy), spots = self.token_picture(f, r, ring)
        surface.blit(picture, (cx + dx, cy + dy))
        self.badge_spots += [(spot.move(cx, cy), f, m) for spot, m in spots]
        return drawn.union(picture.get_rect(topleft=(cx + dx, cy + dy)))

    def draw_token(self, surface: pygame.Surface, f, cx: int, cy: int, r: int, ring: bool, flash) -> pygame.Rect:
        """A standing figure's token, its gauges and badges at (cx, cy), with the ring of a figure that may
        be chosen and the glow of a wound or a healing; returns what it covers."""
        cell = self.view.cell
        drawn = pygame.Rect(cx - r - 8, cy - r - 8, 2 * r + 17, 2 * r + 17)
        if ring:
            pygame.draw.circle(surface, (255, 255, 255), (cx, cy), r + 4, 1)
        token = self.sprites.token(self.art.kind(f.kind), f.side, r, spent=f.marked("activated"))
        if f.marked("hidden"):          # seen by its own side only: drawn faint
            token.set_alpha(140)
        surface.blit(token, token.get_rect(center=(cx, cy)))
        token.set_alpha(255)
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

    def token_picture(self, f, r: int, ring: bool) -> tuple[pygame.Surface, tuple[int, int], list]:
        """A standing figure as one picture, kept while it looks the same: (picture, its top left from the
        figure's centre, its badges' spots from the centre). Drawn once on black and once on white, the
        two give each pixel's colour and how opaque it is, so the picture blitted over the map is what
        drawing it there piece by piece gives (a figure is a dozen blits and shapes, a picture one blit)."""
        look = (r, ring, self.view.cell, language())
        last = self._token_of.get(f.id)
        if last is not None and last[0] is f and last[1] == look:
            return last[2]      # the same figure as last frame, without hashing its gauges and markers again
        kept = self._token_picture(f, r, ring)
        self._token_of[f.id] = (f, look, kept)
        return kept

    def _token_picture(self, f, r: int, ring: bool) -> tuple[pygame.Surface, tuple[int, int], list]:
        key = (f.kind, f.side, r, ring, f.facing, f.gauges, f.markers, self.view.cell, language())
        try:
            kept = self._token_pictures.get(key)
        except TypeError:       # a marker's parameter that is not hashable (a list): its words stand for it
            key = key[:5] + (repr(f.gauges), repr(f.markers)) + key[7:]
            kept = self._token_pictures.get(key)
        if kept is not None:
            return kept
        ui = self.app.ui
        half = 2 * r + 8 * max(16, int(self.view.cell * 0.55))
        spots, drawn = len(self.badge_spots), len(ui.drawn)
        canvases = []
        for background in ((0, 0, 0), (255, 255, 255)):
            canvas = pygame.Surface((2 * half, 2 * half))
            canvas.fill(background)
            covered = self.draw_token(canvas, f, half, half, r, ring, None).clip(canvas.get_rect())
            canvases.append(canvas)
        once = (len(self.badge_spots) - spots) // 2       # each of the two drawings pointed at its badges
        found = [(spot.move(-half, -half), m) for spot, _, m in self.badge_spots[spots:spots + once]]
        del self.badge_spots[spots:], ui.drawn[drawn:]     # drawn off the screen: nothing there to point at
        black, white = (pygame.surfarray.pixels3d(c)[covered.left:covered.right, covered.top:covered.bottom].astype(np.int32)
                        for c in canvases)
        alpha = 255 - (white - black).max(axis=2).clip(0, 255)
        colour = np.where(alpha[..., None] > 0, black * 255 // np.maximum(alpha, 1)[..., None], 0).clip(0, 255)
        picture = pygame.Surface(covered.size, pygame.SRCALPHA)
        pygame.surfarray.pixels3d(picture)[...] = colour.astype(np.uint8)
        pygame.surfarray.pixels_alpha(picture)[...] = alpha.astype(np.uint8)
        if len(self._token_pictures) > 4000:
            self._token_pictures.clear()
        kept = self._token_pictures[key] = (picture, (covered.x - half, covered.y - half), found)
        return kept

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
        area = self.map_rect
        if self.minimap_rect is not None:       # the tray keeps left of the minimap, which is drawn over it
            area = pygame.Rect(area.x, area.y, max(1, self.minimap_rect.x - area.x), area.h)
        self.tray.draw(surface, self.app.ui, self.timeline.rolls(), self.timeline.clock, area, self.names)

    def draw_overlays(self, surface: pygame.Surface) -> None:
        """The module's shapes on the map now: command bubbles, zones, templates."""
        for o in self.overlays:
            self.draw_overlay(surface, o)

    def draw_overlay(self, surface: pygame.Surface, o) -> None:
        fill, edge = OVERLAY_COLOURS.get(o.kind, OVERLAY_COLOURS["zone"])
        if o.side is not None and o.kind == "bubble":
            r, g, b = side_colour(o.side)
            fill, edge = (r, g, b, 45), (r, g, b)
        tiles = frozenset(map(tuple, o.tiles))
        if tiles:
            picture, corner = self.area_picture(tiles, fill, edge)
            x, y = self.view.to_screen(*corner)
            surface.blit(picture, (x - 1, y - 1))
        if o.kind == "bubble":
            for fid in o.figures:
                f = self.figure(fid)
                if f is not None and f.tile is not None:
                    pygame.draw.circle(surface, edge, self.view.tile_centre(f.tile), int(self.view.cell * 0.5), 2)

    def area_picture(self, tiles: frozenset, fill, edge) -> tuple[pygame.Surface, tuple[int, int]]:
        """An area of tiles shaded, its edge outlined (the sides with no neighbour inside it), as one
        picture kept while the area and the zoom stay, with the tile at its top left corner; the picture
        starts one pixel above and left of that tile, for the outline."""
        cell = self.view.cell
        key = (tiles, fill, edge, cell)
        kept = self._area_pictures.get(key)
        if kept is not None:
            return kept
        x0, y0 = min(x for x, _ in tiles), min(y for _, y in tiles)
        x1, y1 = max(x for x, _ in tiles) + 1, max(y for _, y in tiles) + 1

        def at(x, y) -> tuple[int, int]:
            return int(round((x - x0) * cell)) + 1, int(round((y - y0) * cell)) + 1
        picture = pygame.Surface((at(x1, y1)[0] + 2, at(x1, y1)[1] + 2), pygame.SRCALPHA)
        for x, y in tiles:
            (ax, ay), (bx, by) = at(x, y), at(x + 1, y + 1)
            picture.fill(fill, (ax, ay, bx - ax, by - ay))
        for x, y in tiles:
            (ax, ay), (bx, by) = at(x, y), at(x + 1, y + 1)
            for (dx, dy), a, b in (((0, -1), (ax, ay), (bx, ay)), ((0, 1), (ax, by), (bx, by)),
                                   ((-1, 0), (ax, ay), (ax, by)), ((1, 0), (bx, ay), (bx, by))):
                if (x + dx, y + dy) not in tiles:
                    pygame.draw.line(picture, edge, a, b, 2)
        if len(self._area_pictures) > 200:
            self._area_pictures.clear()
        kept = self._area_pictures[key] = (picture, (x0, y0))
        return kept

    def draw_panels(self, surface: pygame.Surface) -> None:
        """The module's side panels and the figures that are not on the map, in the column left of it,
        which scrolls when they are more than it holds."""
        ui, side = self.app.ui, self.side_rect
        self.panel_rects = []
        if side.w <= 0:
            return
        pygame.draw.rect(surface, (30, 32, 38), side)
        ui.occupy(side)
        width = side.w - ui.s(12)
        rows = [(self.panel_height(p, width - ui.s(32)), lambda x, y, w, p=p: self.draw_panel(surface, p, x, y, w))
                for p in self.panels]
        off_map = [f for f in self.figs if f.tile is None and f.alive]
        if off_map:
            rows.append((ui.line(18) + ui.s(4), lambda x, y, w: ui.text(surface, tr("hud.off_map"), (x, y), 18, ACCENT)))
            rows += [(ui.line(16) + ui.line(14) + ui.s(4), lambda x, y, w, f=f: self.draw_off_map(surface, f, x, y, w))
                     for f in off_map]
        shown, room = ui.rows(surface, side.inflate(-ui.s(12), -ui.s(12)), [h for h, _ in rows], self.side_scroll)
        for i, top in shown:
            rows[i][1](side.x + ui.s(6), top, room)

    def panel_lines(self, p, width: int) -> list[str]:
        ui = self.app.ui
        lines = [tr(w.key, w.key, **self.words_params(w)) for w in p.lines]
        return [part for line in lines for part in ui.wrap(line, 16, width - ui.s(14))]

    def panel_height(self, p, width: int) -> int:
        ui = self.app.ui
        return ui.s(28) + len(self.panel_lines(p, width)) * ui.line(16) + (ui.s(34) if p.track is not None else 0) \
            + ui.s(6)

    def draw_panel(self, surface: pygame.Surface, p, x: int, y: int, width: int) -> int:
        ui = self.app.ui
        box = pygame.Rect(x, y, width, self.panel_height(p, width))
        self.panel_box(surface, box)
        ui.text(surface, tr(f"panel.{p.id}", p.id.replace("_", " ")), (x + ui.s(7), y + ui.s(5)), 18, ACCENT,
                max_width=width - ui.s(14))
        ty = y + ui.s(26)
        for line in self.panel_lines(p, width):
            ui.text(surface, line, (x + ui.s(7), ty), 16, TEXT)
            ty += ui.line(16)
        if p.track is not None:
            self.draw_track(surface, p.track, pygame.Rect(x + ui.s(7), ty + ui.s(2), width - ui.s(14), ui.s(28)))
        self.panel_rects.append(box)
        return box.bottom

    def draw_track(self, surface: pygame.Surface, track, rect: pygame.Rect) -> None:
        """A row of numbered cells; each piece sits in its cell in its side's colour, labelled by its
        name where the cell holds it, else by its initials (the panel's lines name it in full)."""
        ui = self.app.ui
        w = rect.w / max(1, track.length)
        for k in range(track.length):
            cell = pygame.Rect(rect.x + int(k * w), rect.y, int(w) - 2, rect.h)
            pygame.draw.rect(surface, (40, 44, 52), cell, border_radius=ui.s(3))
            ui.occupy(cell)
            ui.text(surface, str(k + 1), (cell.x + 2, cell.y + 1), 12, MUTED)
        in_cell: dict[int, list] = {}
        for pid, side, at in track.pieces:
            if 1 <= at <= track.length:
                in_cell.setdefault(at, []).append((pid, side))
        for at, pieces in in_cell.items():        # pieces sharing a cell stack down it, below its number
            size = 14 if len(pieces) == 1 else 12
            top = rect.y + ui.line(12)
            h = (rect.bottom - top) / len(pieces)
            for n, (pid, side) in enumerate(pieces):
                name = self.names.get(pid, pid)
                if ui.font(size).size(name)[0] > int(w) - 6:
                    name = "".join(word[:1] for word in name.split())[:3]
                spot = (rect.x + int((at - 0.5) * w) - 1, int(top + (n + 0.5) * h))
                ui.text(surface, name, spot, size, side_colour(side), "center")

    def draw_off_map(self, surface: pygame.Surface, f, x: int, y: int, width: int) -> None:
        """A figure off the map (a crew at its firing posts): its name and bars, its gauges in words."""
        ui = self.app.ui
        ui.text(surface, self.names.get(f.id, f.name), (x + ui.s(7), y), 16, side_colour(f.side),
                max_width=width // 2 - ui.s(10))
        draw_gauges(surface, f.gauges, pygame.Rect(x + width // 2, y + ui.s(4), width // 2 - ui.s(10), 5))
        words = " · ".join(gauge_label(g) for g in f.gauges)
        ui.text(surface, words, (x + ui.s(7), y + ui.line(16)), 14, MUTED, max_width=width - ui.s(14))

    def panel_box(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((12, 13, 18, 220))
        surface.blit(shade, box)
        pygame.draw.rect(surface, (70, 74, 84), box, 1, border_radius=self.app.ui.s(4))
        self.app.ui.occupy(box)

    def words_params(self, words) -> dict:
        """A module's words parameters as the reader sees them: sides, figure names and terms in words."""
        return {k: in_words(k, v, self.names) for k, v in words.params}

    def draw_hover(self, surface: pygame.Surface, d: Decision) -> None:
        tile = self.hover_tile
        self.hover_avoid = []
        if tile is None or (self.chooser and not all(self.points_at(d, o) is not None for o in self.chooser)):
            return
        pygame.draw.rect(surface, (255, 255, 255), self.view.tile_rect(tile), 1)
        found = self.candidates(d, tile)
        if not found:
            return
        o = found[0]
        lines: list[tuple[str, tuple]] = [(self.option_label(o), ACCENT)]
        origin = self.actor_tile(d, o)
        if o.path:
            pts = [self.view.tile_centre(origin)] if origin else []
            pts += [self.view.tile_centre(t) for t in o.path]
            if len(pts) >= 2:
                pygame.draw.lines(surface, (255, 240, 120), False, pts, 3)
            cm = o.cost * self.match.battlefield.cm_per_tile
            lines.append((tr("hud.path_length", paces=paces(o.cost), cm=fmt_number(cm)), TEXT))
            near = self.tokens_in_reach(o.path)
            self.hover_avoid = [self.view.tile_rect(t.tile).inflate(4, 4) for t in near]
            for t in near:          # each token this way would turn over, and the ground it watches
                centre = self.view.tile_centre(t.tile)
                pygame.draw.circle(surface, BAD, centre, int((t.radius + 0.5) * self.view.cell), 2)
                pygame.draw.circle(surface, BAD, centre, max(4, int(self.view.cell * 0.45)), 3)
            if near:
                lines.append((tr("hud.tokens_near", n=len(near)), BAD))
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
            lines.append((tr("hud.distance", paces=paces(space.distance(origin, aim)),
                             cm=fmt_number(space.distance(origin, aim) * bf.cm_per_tile)), TEXT))
        for shape in self.preview(o):
            self.draw_overlay(surface, shape)
        odds = self.odds(o)
        if odds is not None:
            self.draw_area(surface, o, odds)
            lines.append((tr(f"odds.title.{odds.title}", odds.title) if odds.title else tr("hud.odds"), ACCENT))
            lines += [(text, TEXT) for text in self.outcome_lines(odds.outcomes)]
            lines += [(text, MUTED) for text in self.detail_lines(odds.details or {})]
        under = self.figure_at(tile)
        if under is not None:       # the figure pointed at, in the same box
            lines += [(text, MUTED) for text in self.figure_lines(under)]
        terms = [e.headword for e in glossary.used_in(" · ".join(text for text, _ in lines))]
        if terms:
            lines.append((tr("hud.glossary_see", terms=", ".join(terms)), MUTED))
        self.hover_lines = lines

    def draw_hover_box(self, surface: pygame.Surface) -> None:
        """What the pointed option would do, in a box beside the pointer that hides no other box: in
        columns when it is taller than the map."""
        lines, self.hover_lines = self.hover_lines, []
        if not lines:
            return
        ui = self.app.ui
        step = ui.line(18)
        m = self.map_rect
        full = max(1, (m.h - ui.s(24)) // step)
        mx, my = ui.mouse
        gap = ui.s(18)
        box = columns = widths = None
        for room in sorted({full, full * 3 // 4, full // 2, full // 3}, reverse=True):     # lower and wider
            room = max(1, room)
            cols = [lines[k:k + room] for k in range(0, len(lines), room)]
            ws = [max(ui.font(18).size(text)[0] for text, _ in col) + ui.s(14) for col in cols]
            while len(cols) > 1 and sum(ws) > m.w - ui.s(8):     # too much: its head, and "…"
                cols.pop()
                ws.pop()
                cols[-1] = cols[-1][:-1] + [("…", MUTED)]
            size = (sum(ws), max(len(col) for col in cols) * step + ui.s(10))
            away = [(mx - size[0] - gap, my + gap), (mx - size[0] - gap, my - size[1] - gap)]
            near = [(mx + gap, my + gap), (mx + gap, my - size[1] - gap)]
            corners = [(m.x, m.y), (m.right, m.y), (m.x, m.bottom), (m.right, m.bottom)]
            keep = [m.clip(pygame.Rect(mx - gap, my - gap, 2 * gap, 2 * gap)), *self.hover_avoid]   # the pointed tile
            spot = self.put(size, (away + near if mx > m.centerx else near + away) + corners, keep)
            if box is None:
                box, columns, widths = spot, cols, ws
            if ui.free(spot, keep):
                box, columns, widths = spot, cols, ws
                break
        # where it cannot help hiding a panel, it lies over it as a tooltip does, whole
        with ui.layer("screen" if ui.free(box) else "pointer"):
            shade = pygame.Surface(box.size, pygame.SRCALPHA)
            shade.fill((10, 10, 14, 235))
            surface.blit(shade, box)
            pygame.draw.rect(surface, (90, 95, 108), box, 1)
            ui.occupy(box)
            x = box.x
            for col, width in zip(columns, widths):
                for i, (text, colour) in enumerate(col):
                    ui.text(surface, text, (x + ui.s(7), box.y + ui.s(5) + i * step), 18, colour)
                x += width

    def tokens_in_reach(self, path) -> list:
        """The tokens a figure walking ``path`` would set off: face down to the viewer, or its own real
        ones (a trap goes off under anyone), each within its trigger radius of a tile of the way."""
        return [t for t in self.tokens if t.radius is not None and t.kind != "decoy"
                and any(space.within(t.tile, step, t.radius) for step in path)]

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

    def header_words(self, d: Decision | None) -> tuple[str, str]:
        """The header's words: the turn and phase, and who decides what (with room for the AI's dots)."""
        st = self.match.state
        phase = self.rules.phase(st)
        text = tr("hud.turn", n=self.rules.turn(st), max=self.match.max_turns)
        if phase:
            text += " · " + tr(f"phase.{phase}", phase)
        if d is None:
            return text, ""
        who = side_name(d.side)
        if d.side in self.ai_players:
            who += " (" + tr("hud.ai") + ")"
            if self.thinking_shown:
                who += " " + tr("hud.thinking")
        kind = tr(f"kind.{d.kind}", d.kind.replace("_", " "))
        mode = (d.info or {}).get("mode") if isinstance(d.info, dict) else None
        if isinstance(mode, str) and mode != "regular":      # a reaction, an ambush… is not a turn of one's own
            kind += f" ({term(mode)})"
        actor = self.names.get(d.figure, "") if d.figure else ""
        return text, f"{who} — {kind}" + (f" : {actor}" if actor else "")

    def header_buttons(self) -> list[tuple]:
        """(label, action, enabled, shortcut, selected) of the header's buttons, from the right edge."""
        keys = self.app.settings.keys
        buttons = [(tr("button.menu"), self.to_menu, True, "", False),
                   (tr("button.help"), self.open_help, True, "F1", False),
                   (tr("button.save"), self.save, True, "Ctrl+S", False),
                   (tr("button.undo"), self.undo, self.can_undo(), "Ctrl+Z", False),
                   (tr("button.terrain"), self.toggle_terrain, True, key_label(keys.get("terrain", "")),
                    self.show_terrain)]
        if self.ai_players:
            buttons.append((tr("button.skip"), self.skip, True, key_label(keys.get("skip", "")), self.fast_forward))
            buttons.append((tr("hud.ai") + " : " + tr(f"speed.{self.app.settings.ai_speed}"), self.cycle_speed,
                            True, "", False))
        return buttons

    def plan_header(self, w: int) -> int:
        """Where the header's words and buttons go in a window ``w`` wide, on one row when they fit,
        else the words above the buttons (on as many lines as they need); its height."""
        ui = self.app.ui
        buttons = self.header_buttons()
        text, label = self.header_words(self.decision)
        tail = "..." if self.decision is not None and self.decision.side in self.ai_players else ""
        key = (w, ui.scale, text, label, tail, [b[:1] + b[2:] for b in buttons])
        if key != self._header_key:     # the same words and buttons are laid out the same way: once
            self._header_key = key
            self._header_height = self.lay_header(w, buttons, text, label, tail)
        return self._header_height

    def lay_header(self, w: int, buttons: list[tuple], text: str, label: str, tail: str) -> int:
        ui = self.app.ui
        gap, row = ui.s(6), ui.s(40)
        widths = [max(ui.s(64), ui.font(18).size(b[0])[0] + ui.s(20)) for b in buttons]
        text_w = ui.font(22).size(text)[0]
        label_w = ui.font(20).size(label + tail)[0] if label else 0
        all_buttons = sum(widths) + gap * (len(widths) + 1)
        words_w = ui.s(10) + text_w + (ui.s(16) + label_w if label else 0) + ui.s(10)
        if words_w + all_buttons <= w:
            lines = [[(text, 22, (ui.s(10), row // 2))] + ([(label, 20, (ui.s(10) + text_w + ui.s(16), row // 2))]
                                                          if label else [])]
            top = 0
        else:
            lines, y = [], ui.s(16)
            if words_w <= w:
                lines.append([(text, 22, (ui.s(10), y)), (label, 20, (ui.s(10) + text_w + ui.s(16), y))])
                y += ui.s(28)
            else:
                lines.append([(text, 22, (ui.s(10), y))])
                y += ui.s(26)
                for part in ui.wrap(label + tail, 20, w - ui.s(20)) if label else []:
                    lines.append([(part, 20, (ui.s(10), y))])
                    y += ui.s(24)
            top = y - ui.s(14)
        rects, right, y = [], w - gap, top + ui.s(5)
        for width in widths:
            if right - width < gap:     # a row full: the next buttons go on a row of their own below
                right, y = w - gap, y + row
            rects.append(pygame.Rect(right - width, y, width, row - ui.s(10)))
            right -= width + gap
        self.header_plan = (lines, list(zip(buttons, rects)))
        return max(r.bottom for r in rects) + ui.s(5)

    def open_help(self, tab: str = "rules") -> None:
        """The rule system's primer and glossary, and the controls, over the waiting battle."""
        from .primer import PrimerScene

        self.app.push(PrimerScene(self.app, self.rules, tab=tab, controls=True))

    def draw_top(self, surface: pygame.Surface, d: Decision | None) -> None:
        ui = self.app.ui
        w = surface.get_width()
        bar = pygame.Rect(0, 0, w, self.map_rect.y)
        pygame.draw.rect(surface, PANEL, bar)
        lines, buttons = self.header_plan
        for (label, cb, enabled, hk, selected), rect in buttons:
            ui.button(surface, rect, label, cb, enabled=enabled, size=18, tooltip=f"{label} ({hk})" if hk else label,
                      selected=selected)
        for k, line in enumerate(lines):
            for n, (text, size, (x, y)) in enumerate(line):
                if not text:
                    continue
                own = k > 0 or n > 0       # who decides, in that side's colour
                if own and d is not None and d.side in self.ai_players and self.thinking_shown \
                        and k == len(lines) - 1 and n == len(line) - 1:
                    text += "." * (int(time.monotonic() * 3) % 4)
                ui.text(surface, text, (x, y), size, side_colour(d.side) if own and d is not None else TEXT,
                        "midleft")

    def draw_log(self, surface: pygame.Surface) -> None:
        """The log's last lines; a rules term in a line is underlined, and pointing at the line shows
        what its terms mean (a click opens the glossary there)."""
        ui = self.app.ui
        r = self.log_rect
        if r.w <= 0:
            return
        pygame.draw.rect(surface, (30, 32, 38), r)
        pygame.draw.line(surface, (70, 74, 84), r.topleft, r.bottomleft)
        head = ui.text(surface, tr("hud.log"), (r.x + ui.s(8), r.y + ui.s(6)), 20, ACCENT)
        line_h = max(ui.s(16), ui.font(16).get_linesize())
        key = (len(self.log_lines), id(self.log_lines), r.w, ui.scale, language())
        if key != self._wrap_key:
            self._wrap_key = key
            size = (r.w - ui.s(16), ui.scale, language())
            pairs = list(zip(self.log_lines, self.log_sides))[-200:]
            laid = {(line, side, size): self._log_layout.get((line, side, size)) or self.lay_log_line(line, side, size[0])
                    for line, side in pairs}
            self._log_layout = laid
            self._wrapped = [part for line, side in pairs for part in laid[line, side, size]]
        wrapped = self._wrapped
        top = head.bottom + ui.s(4)
        room = max(1, (r.bottom - top) // line_h)
        self.log_scroll = min(self.log_scroll, max(0, len(wrapped) - room))
        end = len(wrapped) - self.log_scroll
        shown = wrapped[max(0, end - room):end]
        for i, (line, colour, underlines, entry) in enumerate(shown):
            rect = ui.text(surface, line, (r.x + ui.s(8), top + i * line_h), 16, colour)
            for x0, x1 in underlines:
                pygame.draw.line(surface, MUTED, (rect.x + x0, rect.bottom - 1), (rect.x + x1, rect.bottom - 1), 1)
            if entry is not None:
                ui.hotspot(rect, lambda e=entry: self.open_glossary(e), line)

    def lay_log_line(self, line: str, side, width: int) -> list[tuple]:
        """One line of the log cut to the log's width, each part with its colour, the spans of its rules
        terms to underline (pixels from its left) and the glossary entry it opens; worked out once a line."""
        ui = self.app.ui
        font = ui.font(16)
        parts = []
        for part in ui.wrap(line, 16, width):
            found = glossary.spans(part)
            underlines = [(font.size(part[:start])[0], font.size(part[:stop])[0]) for start, stop, _ in found]
            parts.append((part, log_colour(side), underlines, found[0][2].id if found else None))
        return parts

    def open_glossary(self, entry: str) -> None:
        from .primer import PrimerScene

        self.app.push(PrimerScene(self.app, self.rules, tab="glossary", focus=entry, controls=True))

    def plan_bar(self, w: int, d: Decision | None, human: bool) -> int:
        """Where the action bar's buttons go: on one row while every action's name fits beside or under
        its icon, else on two or three rows; the end button stands on the right. Its height."""
        ui = self.app.ui
        self.bar_plan = ([], None, False)
        if d is None or not human:
            return ui.s(64)
        groups = self.groups(d)
        actions = self.bar_actions(d)
        end = self.end_option(d)
        gap = ui.s(6)
        end_w = max(ui.s(140), ui.font(18).size(action_label(end.action))[0] + ui.s(56)) if end is not None else 0
        room = w - ui.s(16) - (end_w + ui.s(12) if end is not None else 0)
        labels = [action_label(a) + bar_count(groups[a]) for a in actions]
        rows, bw, stacked = 1, ui.s(110), False
        for rows in (1, 2, 3):
            per = max(1, math.ceil(len(actions) / rows))
            bw = min(ui.s(230), (room - gap * (per - 1)) // per)
            stacked = any(ui.font(17).size(t)[0] + ui.s(46) > bw for t in labels)
            if not stacked or all(self.fits_stacked(action_label(a), bw) for a in actions):
                break
        per = max(1, math.ceil(len(actions) / rows))
        row_h = ui.s(58)
        placed = []
        for i, action in enumerate(actions):
            placed.append((action, pygame.Rect(ui.s(8) + (i % per) * (bw + gap), ui.s(7) + (i // per) * row_h,
                                               bw, row_h - ui.s(8))))
        height = rows * row_h + ui.s(6)
        end_rect = pygame.Rect(w - end_w - ui.s(10), ui.s(7), end_w, height - ui.s(14)) if end is not None else None
        self.bar_plan = (placed, end_rect, stacked)
        return height

    def fits_stacked(self, label: str, width: int) -> bool:
        """A name fits under an icon on at most two lines of the button's width."""
        ui = self.app.ui
        lines = ui.wrap(label, 15, width - ui.s(6))
        return len(lines) <= 2 and all(ui.font(15).size(line)[0] <= width - ui.s(6) for line in lines)

    def draw_bar(self, surface: pygame.Surface, d: Decision | None, human: bool) -> None:
        ui = self.app.ui
        r = self.bar_rect
        pygame.draw.rect(surface, PANEL, r)
        if d is None or not human:
            if d is not None and d.side in self.ai_players:
                ui.text(surface, tr("hud.waiting_ai"), (r.x + ui.s(12), r.centery), 20, MUTED, "midleft",
                        max_width=r.w - ui.s(24))
            return
        groups = self.groups(d)
        end = self.end_option(d)
        placed, end_rect, stacked = self.bar_plan
        for i, (action, rect) in enumerate(placed):
            opts = groups[action]
            count = bar_count(opts)
            label = action_label(action) + ("" if stacked else count)
            tip = tr(f"tip.{action}", action_label(action))
            if len(opts) == 1 and self.points_at(d, opts[0]) is None:
                odds = self.odds(opts[0])
                if odds is not None:
                    tip += "\n" + "\n".join(f"{odds_label(k)}: {fmt_percent(p)}" for k, p in odds.outcomes.items())
            hotkey = hotkey_label(i)
            ui.button(surface, rect.move(r.x, r.y), label, lambda a=action: self.click_group(a),
                      tooltip=f"{action_label(action)}{count}: " + (f"{tip} [{hotkey}]" if hotkey else tip),
                      selected=(action == self.group), stacked=stacked,
                      icon=icons.icon(action, ui.s(26)), hotkey=hotkey, size=17)
        if end is not None and end_rect is not None:
            ui.button(surface, end_rect.move(r.x, r.y), action_label(end.action), lambda: self.answer(end),
                      tooltip=tr(f"tip.{end.action}", action_label(end.action)) + f" [{key_label(self.app.settings.keys['end'])}]",
                      icon=icons.icon(end.action, ui.s(26)), hotkey=key_label(self.app.settings.keys["end"]), size=18)

    def put(self, size: tuple[int, int], candidates, avoid=()) -> pygame.Rect:
        """A box of ``size`` over the map, at the first of ``candidates`` where it hides nothing the
        screen shows already (panels, minimap, notes) nor ``avoid``; inside the map in any case."""
        ui = self.app.ui
        return ui.place(size, candidates, self.map_rect.inflate(-ui.s(8), -ui.s(8)), avoid)

    def draw_chooser(self, surface: pygame.Surface) -> None:
        """The list of choices, as many to a page as the map's height holds (at most ten: keys 1..0)."""
        ui = self.app.ui
        opts = self.chooser or []
        d = self.decision
        title = tr(f"kind.{d.kind}", d.kind.replace("_", " ")) if d is not None else ""
        bh, step = ui.s(34), ui.s(38)
        labels = [self.option_label(o) for o in opts]
        widest = max([ui.font(22).size(title)[0]] + [ui.font(18).size(t)[0] + ui.s(60) for t in labels])
        w = min(max(ui.s(340), widest + ui.s(24)), max(ui.s(340), self.map_rect.w * 2 // 3),
                self.map_rect.w - ui.s(16))
        note = ui.wrap(self.decision_note(d), 16, w - ui.s(20)) if d is not None else []
        line = ui.line(16)
        top = ui.line(22) + ui.s(16) + len(note) * line
        room = (self.map_rect.h - ui.s(16) - top - ui.s(8)) // step
        most = max(1, min(CHOOSER_PAGE, room if len(opts) <= room else room - 1))
        box = None
        for size in range(most, 0, -1):     # fewer to a page, to stay off the panels and the minimap
            pages = max(1, math.ceil(len(opts) / size))
            rows = min(size, len(opts))
            spot = self.chooser_rect(w, top + rows * step + (step if pages > 1 else 0) + ui.s(6))
            if box is None or ui.free(spot):
                box, self.page_size = spot, size
            if ui.free(spot) or size <= min(3, most):
                break
        self.chooser_box = box
        pages = max(1, math.ceil(len(opts) / self.page_size))
        self.chooser_page = min(self.chooser_page, pages - 1)
        first = self.chooser_page * self.page_size
        page = opts[first:first + self.page_size]
        pygame.draw.rect(surface, (20, 22, 28), box, border_radius=ui.s(6))
        pygame.draw.rect(surface, ACCENT, box, 1, border_radius=ui.s(6))
        ui.occupy(box)
        y = ui.text(surface, title, (box.x + ui.s(10), box.y + ui.s(8)), 22, ACCENT,
                    max_width=w - ui.s(20)).bottom + ui.s(4)
        for text in note:
            y = ui.text(surface, text, (box.x + ui.s(10), y), 16, TEXT).bottom
        y = box.y + top
        for i, o in enumerate(page):
            odds = self.odds(o)
            tip = "\n".join(f"{odds_label(k, self.names)}: {fmt_percent(p)}" for k, p in odds.outcomes.items()) \
                if odds is not None else ""
            ui.button(surface, (box.x + ui.s(10), y, w - ui.s(20), bh), labels[first + i],
                      lambda o=o: self.answer(o), tooltip=tip, hotkey=hotkey_label(i), size=18,
                      icon=icons.icon(o.action, ui.s(22)))
            y += step
        if pages > 1:
            half = (w - ui.s(30)) // 2
            ui.button(surface, (box.x + ui.s(10), y, half, bh), "<",
                      lambda: setattr(self, "chooser_page", max(0, self.chooser_page - 1)))
            ui.button(surface, (box.x + ui.s(20) + half, y, half, bh),
                      f"{self.chooser_page + 1}/{pages} >",
                      lambda: setattr(self, "chooser_page", (self.chooser_page + 1) % pages))

    def draw_note(self, surface: pygame.Surface, d: Decision) -> None:
        """The decision's note (who acts, what is asked) over the top of the map when no list shows it."""
        text = self.decision_note(d)
        if not text:
            return
        ui = self.app.ui
        lines = ui.wrap(text, 18, self.map_rect.w - ui.s(60))
        line = ui.line(18)
        size = (max(ui.font(18).size(t)[0] for t in lines) + ui.s(16), len(lines) * line + ui.s(8))
        cx = self.map_rect.centerx - size[0] // 2
        box = self.put(size, [(cx, self.map_rect.y + ui.s(6)), (self.map_rect.right, self.map_rect.y),
                              (cx, self.map_rect.bottom)])
        pygame.draw.rect(surface, (14, 15, 20), box, border_radius=ui.s(4))
        pygame.draw.rect(surface, side_colour(d.side), box, 1, border_radius=ui.s(4))
        ui.occupy(box)
        for i, t in enumerate(lines):
            ui.text(surface, t, (box.x + ui.s(8), box.y + ui.s(4) + i * line), 18, TEXT)

    def chooser_rect(self, w: int, h: int) -> pygame.Rect:
        """Where the list of choices goes: beside the map choices it lists (on the side away from them,
        so they stay visible and clickable), or in the middle of the map when none has a place; off
        the panels and notes in any case."""
        ui, d = self.app.ui, self.decision
        opts = self.chooser or []
        spots = [t for t in (self.points_at(d, o) for o in opts) if t is not None] if d is not None else []
        m = self.map_rect
        left, right, top = m.x + ui.s(8), m.right - w - ui.s(8), m.y + ui.s(8)
        centre = (m.centerx - w // 2, m.centery - h // 2)
        if not spots:
            return self.put((w, h), [centre, (centre[0], top), (right, top), (left, top)])
        mean_x = sum(self.view.tile_centre(t)[0] for t in spots) / len(spots)
        sides = [(left, top), (right, top)] if mean_x > m.centerx else [(right, top), (left, top)]
        return self.put((w, h), sides + [(sides[0][0], m.bottom), (sides[1][0], m.bottom), centre])

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

    def figure_lines(self, f) -> list[str]:
        """A figure as the viewer may know it: name, gauges, side, states."""
        return [self.names.get(f.id, f.name), *(gauge_label(g) for g in f.gauges), side_name(f.side),
                *(marker_label(m) for m in f.markers)]

    def draw_figure_info(self, surface: pygame.Surface) -> None:
        """The hovered figure named in full: its trade, gauges, side and every state with its picture;
        the state under the mouse is lit and explained (its ``.tip`` words), and what its states mean."""
        ui = self.app.ui
        if self.hover_tile is None:
            return
        f = self.figure_at(self.hover_tile)
        if f is None or self.hover_lines:       # an option's box already tells of it
            return
        pointed = next((m for spot, fig, m in getattr(self, "badge_spots", ()) if fig.id == f.id
                        and spot.collidepoint(ui.mouse)), None)
        trade = tr(f"kind.{f.kind}", "") if f.kind and has(f"kind.{f.kind}") else (term(f.kind) if f.kind else "")
        lines = [(self.names.get(f.id, f.name), None, TEXT, 18)]
        lines += [(trade, self.art.kind(f.kind), MUTED, 18)] if trade else []
        lines += [(gauge_label(g), None, TEXT, 18) for g in f.gauges]
        lines += [(side_name(f.side), None, side_colour(f.side), 18)]
        width = min(ui.s(320), self.map_rect.w // 2)
        for m in f.markers:
            lines.append((marker_label(m), self.art.marker(m.key), ACCENT if m is pointed else TEXT, 18))
            if m is pointed and has(f"marker.{m.key}.tip"):
                lines += [(part, None, MUTED, 16) for part in ui.wrap(tr(f"marker.{m.key}.tip"), 16, width)]
        for note in glossary.notes(" · ".join(marker_label(m) for m in f.markers)):
            lines += [(part, None, MUTED, 16) for part in ui.wrap(note, 16, width)]
        row = ui.line(18)
        w = max(ui.font(size).size(t)[0] for t, _, _, size in lines) + ui.s(14) + row
        h = len(lines) * row + ui.s(10)
        m = self.map_rect
        box = self.put((w, h), [(m.x + ui.s(8), m.bottom - h - ui.s(8)), (m.x + ui.s(8), m.y + ui.s(8)),
                                (m.right - w - ui.s(8), m.y + ui.s(8)), (m.centerx - w // 2, m.bottom - h)])
        pygame.draw.rect(surface, (14, 15, 20), box, border_radius=ui.s(4))
        pygame.draw.rect(surface, side_colour(f.side), box, 1, border_radius=ui.s(4))
        ui.occupy(box)
        for i, (text, picture, colour, size) in enumerate(lines):
            ty = box.y + ui.s(5) + i * row
            if picture is not None:
                pic = self.sprites.picture(picture, row - ui.s(3))
                if pic is not None:
                    surface.blit(pic, (box.x + ui.s(5), ty))
            ui.text(surface, text, (box.x + ui.s(7) + row, ty), size, colour)


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


def bar_count(options) -> str:
    """" ×3" beside an action that may pick among several figures; nothing where it picks a tile (a
    grenade aimed at any of 114 tiles is one action to the player)."""
    return f" ×{len(options)}" if len(options) > 1 and all(o.target for o in options) else ""


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


def paces(v: float) -> str:
    """A length in pas as the player's language says it: "1 pace", "2.5 paces"."""
    return tr("hud.pas.one" if v == 1 else "hud.pas", n=fmt_number(v))


def fmt_number(v: float) -> str:
    """A length or a mean with at most one decimal, with the decimal comma in French."""
    text = f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)
    return text.replace(".", ",") if language() == "fr" else text
