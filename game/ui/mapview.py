"""The camera over the cached map picture: zoom, pan, and conversions between tiles and pixels.

The map and its tile overlays are composed into one picture the size of the view, rebuilt only
when the camera or an overlay changes; every other frame blits that picture once.
"""
from __future__ import annotations

from typing import Sequence

import pygame

MAX_CACHED_PIXELS = 4_500_000
ZOOMS = (0.25, 0.35, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0)


class MapView:
    """Draws only the visible part of the pre-rendered surfaces, scaled to the current zoom."""

    def __init__(self, base: pygame.Surface, grid: tuple[int, int], tile_px: tuple[int, int]):
        self.base = base
        self.grid = grid            # battlefield width, height in tiles
        self.tile_px = tile_px      # size of one tile in the base picture
        self.zoom = 1.0
        self.centre = (grid[0] / 2, grid[1] / 2)   # in tiles
        self.viewport = pygame.Rect(0, 0, 1, 1)
        self._scaled: tuple[float, pygame.Surface] | None = None     # the whole base at the current zoom
        self._composite: pygame.Surface | None = None
        self._composite_key = None

    @property
    def cell(self) -> float:
        """One tile's size on screen, in pixels (square tiles on screen keep paths readable)."""
        return max(2.0, 32 * self.zoom)

    def fit(self, viewport: pygame.Rect) -> None:
        self.viewport = pygame.Rect(viewport)
        best = ZOOMS[0]
        for z in ZOOMS:
            if self.grid[0] * 32 * z <= viewport.w and self.grid[1] * 32 * z <= viewport.h:
                best = z
        self.zoom = best
        self.centre = (self.grid[0] / 2, self.grid[1] / 2)

    def zoom_by(self, steps: int, anchor: tuple[int, int] | None = None) -> None:
        i = min(range(len(ZOOMS)), key=lambda k: abs(ZOOMS[k] - self.zoom))
        new = ZOOMS[max(0, min(len(ZOOMS) - 1, i + steps))]
        if anchor is not None and self.viewport.collidepoint(anchor):
            before = self.to_world(anchor)
            self.zoom = new
            after = self.to_world(anchor)
            self.centre = (self.centre[0] + before[0] - after[0], self.centre[1] + before[1] - after[1])
        else:
            self.zoom = new
        self._clamp()

    def pan_pixels(self, dx: float, dy: float) -> None:
        self.centre = (self.centre[0] - dx / self.cell, self.centre[1] - dy / self.cell)
        self._clamp()

    def _clamp(self) -> None:
        """Keep the map filling the view when it is larger, centred when it is smaller."""
        out = []
        for c, n, px in ((self.centre[0], self.grid[0], self.viewport.w), (self.centre[1], self.grid[1],
                                                                           self.viewport.h)):
            half = px / self.cell / 2
            out.append(n / 2 if n <= 2 * half else min(max(c, half), n - half))
        self.centre = (out[0], out[1])

    def to_world(self, pos) -> tuple[float, float]:
        c = self.cell
        return (self.centre[0] + (pos[0] - self.viewport.centerx) / c,
                self.centre[1] + (pos[1] - self.viewport.centery) / c)

    def tile_at(self, pos) -> tuple[int, int] | None:
        if not self.viewport.collidepoint(pos):
            return None
        wx, wy = self.to_world(pos)
        x, y = int(wx // 1), int(wy // 1)
        if 0 <= x < self.grid[0] and 0 <= y < self.grid[1]:
            return (x, y)
        return None

    def to_screen(self, wx: float, wy: float) -> tuple[int, int]:
        c = self.cell
        return (int(round(self.viewport.centerx + (wx - self.centre[0]) * c)),
                int(round(self.viewport.centery + (wy - self.centre[1]) * c)))

    def tile_rect(self, tile) -> pygame.Rect:
        x0, y0 = self.to_screen(tile[0], tile[1])
        x1, y1 = self.to_screen(tile[0] + 1, tile[1] + 1)
        return pygame.Rect(x0, y0, max(1, x1 - x0), max(1, y1 - y0))

    def tile_centre(self, tile) -> tuple[int, int]:
        return self.to_screen(tile[0] + 0.5, tile[1] + 0.5)

    def visible_tiles(self) -> tuple[int, int, int, int] | None:
        """(x0, y0, x1, y1): the tiles at least partly in the viewport, x1 and y1 excluded."""
        vp = self.viewport
        wx0, wy0 = self.to_world(vp.topleft)
        wx1, wy1 = self.to_world(vp.bottomright)
        x0, y0 = max(0.0, wx0), max(0.0, wy0)
        x1, y1 = min(float(self.grid[0]), wx1), min(float(self.grid[1]), wy1)
        if x1 <= x0 or y1 <= y0:
            return None
        return int(x0), int(y0), min(self.grid[0], int(x1) + 1), min(self.grid[1], int(y1) + 1)

    def draw_map(self, surface: pygame.Surface, background, overlays: Sequence = ()) -> None:
        """The base picture and the tile overlays over it: the base alone is blitted straight into the
        view; with overlays the two are composed at view size once per change.

        Each overlay has a ``key`` that changes when its picture does and ``draw(target, view,
        offset)``; the composite is rebuilt when the camera, the viewport or a key changes.
        """
        vp = self.viewport
        if not overlays:        # the base alone is one blit: composing it first would be two
            clip = surface.get_clip()
            surface.set_clip(vp.clip(clip))
            x0, y0 = self.to_screen(0, 0)
            x1, y1 = self.to_screen(*self.grid)
            if not pygame.Rect(x0, y0, x1 - x0, y1 - y0).contains(vp):     # the map leaves some of the view bare
                surface.fill(background, vp)
            self._draw_base(surface, (0, 0))
            surface.set_clip(clip)
            return
        key = (self.zoom, self.centre, tuple(vp), id(self.base), tuple(o.key for o in overlays))
        if key != self._composite_key or self._composite is None:
            comp = self._composite
            if comp is None or comp.get_size() != vp.size:
                comp = pygame.Surface(vp.size)
            comp.fill(background)
            offset = (-vp.x, -vp.y)
            self._draw_base(comp, offset)
            for overlay in overlays:
                overlay.draw(comp, self, offset)
            self._composite, self._composite_key = comp, key
        surface.blit(self._composite, vp.topleft)

    def _draw_base(self, target: pygame.Surface, offset: tuple[int, int]) -> None:
        """The visible window of the base picture, scaled. Zoomed out, the whole base is scaled once
        per zoom level and kept (it is smaller than the base); zoomed in, only the window is scaled."""
        ox, oy = offset
        layer = self.base
        full = (self.grid[0] * self.cell) * (self.grid[1] * self.cell)
        if self.cell < min(self.tile_px) and full <= MAX_CACHED_PIXELS:
            if self._scaled is None or self._scaled[0] != self.cell:
                size = (max(1, round(self.grid[0] * self.cell)), max(1, round(self.grid[1] * self.cell)))
                self._scaled = (self.cell, pygame.transform.smoothscale(layer, size))
            x, y = self.to_screen(0, 0)
            target.blit(self._scaled[1], (x + ox, y + oy))
            return
        shown = self.visible_tiles()
        if shown is None:
            return
        ix0, iy0, ix1, iy1 = shown
        tw, th = self.tile_px
        src = pygame.Rect(ix0 * tw, iy0 * th, (ix1 - ix0) * tw, (iy1 - iy0) * th).clip(layer.get_rect())
        if src.w <= 0 or src.h <= 0:
            return
        sx, sy = self.to_screen(ix0, iy0)
        ex, ey = self.to_screen(ix1, iy1)
        window = layer.subsurface(src)
        size = (max(1, ex - sx), max(1, ey - sy))
        scaled = window if size == window.get_size() else pygame.transform.scale(window, size)
        target.blit(scaled, (sx + ox, sy + oy))
