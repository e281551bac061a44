"""Figures a player reads at a glance: a token per kind of figure, states as small pictures.

A token shows the figure's trade as a picture inside (the module's ``art.json`` names it), its side by
colour *and* shape (a disc, a square, a hexagon, an octagon: colour-blind players tell sides apart by the
outline), its facing as a notch on the rim where a rule uses it, its gauges as a bar or pips under it,
and its states as badges over it. The pictures are game-icons.net drawings rasterised by
tools/make_icons.py. Tokens are drawn once per picture, side, size and look, then blitted.
"""
from __future__ import annotations

import math

import numpy as np
import pygame

from .icons import ICON_DIR
from .widgets import BAD, GOOD, side_colour

SHAPES = ("disc", "square", "hexagon", "octagon")          # side -> outline (after the colours run out too)
WINDOW_MARKERS = {"activated": "done", "hidden": "hide"}    # the states the window knows of any module
PERSON = "person"                                           # the picture of a kind no table names
GAUGE_MARKS = {"shock": (240, 200, 80), "trauma": (230, 70, 60)}     # a box's mark -> its colour
DARK = (16, 16, 20)
LIGHT = (240, 240, 235)
CACHE_LIMIT = 600


class Art:
    """Which picture each kind and state of the module in play is drawn with."""

    def __init__(self, rules):
        table = rules.art()
        self.kinds = table["kinds"]
        self.markers = {**WINDOW_MARKERS, **table["markers"]}

    def kind(self, kind: str) -> str:
        return self.kinds.get(kind, PERSON)

    def marker(self, marker_id: str) -> str | None:
        return self.markers.get(marker_id)


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The outline of a side's token as a polygon (a disc is drawn as a circle instead)."""
    corners, turn = {"square": (4, 45), "hexagon": (6, 90), "octagon": (8, 22.5)}.get(shape, (24, 0))
    k = 1.12 if shape == "square" else 1.04     # polygons reach out a little to look as big as the disc
    return [(cx + k * r * math.cos(math.radians(turn + 360 * i / corners)),
             cy + k * r * math.sin(math.radians(turn + 360 * i / corners))) for i in range(corners)]


def blend(colour, other, share: float) -> tuple[int, int, int]:
    return tuple(int(a + (b - a) * share) for a, b in zip(colour, other))


class Sprites:
    """Tokens, badges and grave markers, drawn on first use and kept."""

    def __init__(self):
        self._cache: dict[tuple, pygame.Surface] = {}

    def _keep(self, key: tuple, surf: pygame.Surface) -> pygame.Surface:
        if len(self._cache) >= CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = surf
        return surf

    def picture(self, stem: str, size: int) -> pygame.Surface | None:
        key = ("picture", stem, size)
        if key in self._cache:
            return self._cache[key]
        try:
            pic = pygame.image.load(str(ICON_DIR / f"{stem}.png")).convert_alpha()
        except (pygame.error, FileNotFoundError, OSError):
            return None
        small = pygame.transform.smoothscale(pic, (size, size))
        if size < 32:       # thin strokes fade when shrunk: thicken them back by raising their opacity
            alpha = pygame.surfarray.pixels_alpha(small)
            alpha[:] = np.minimum(255, alpha.astype(np.uint16) * 2).astype(np.uint8)
            del alpha
        return self._keep(key, small)

    def token(self, picture: str, side: int, radius: int, spent: bool = False) -> pygame.Surface:
        """A figure's token, ``radius`` pixels round its centre, with room for its shadow: the surface's
        centre is the figure's. ``spent`` (it has acted) greys it, so the figures still to act stand out."""
        key = ("token", picture, side, radius, spent)
        if key in self._cache:
            return self._cache[key]
        size = 2 * radius + 6
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        c = size / 2
        shape = SHAPES[side % len(SHAPES)]
        colour = side_colour(side)
        fill = blend(colour, (95, 95, 100), 0.6) if spent else colour
        rim = blend(LIGHT, (120, 120, 120), 0.5) if spent else LIGHT
        self._outline(surf, shape, c + 1, c + 2, radius, (0, 0, 0, 110), 0)         # its shadow
        self._outline(surf, shape, c, c, radius, fill, 0)
        self._outline(surf, shape, c, c, radius, rim, max(1, radius // 8))
        self._outline(surf, shape, c, c, radius - max(1, radius // 8), DARK, 1)
        if radius >= 7:
            side_px = max(6, int(radius * 1.55))
            pic = self.picture(picture, side_px)
            if pic is not None:
                shade = pic.copy()
                shade.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MULT)
                spot = pic.get_rect(center=(int(c), int(c)))
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)):     # a dark edge: it reads on any colour
                    surf.blit(shade, spot.move(dx, dy))
                if spent:
                    pic = pic.copy()
                    pic.fill((170, 170, 170, 255), special_flags=pygame.BLEND_RGBA_MULT)
                surf.blit(pic, spot)
        return self._keep(key, surf)

    @staticmethod
    def _outline(surf, shape: str, cx: float, cy: float, r: float, colour, width: int) -> None:
        if shape == "disc":
            pygame.draw.circle(surf, colour, (int(cx), int(cy)), int(r), width)
        else:
            pygame.draw.polygon(surf, colour, shape_points(shape, cx, cy, r), width)

    def badge(self, picture: str, size: int) -> pygame.Surface:
        """A state's badge: its picture on a small dark disc, so it reads over any ground."""
        key = ("badge", picture, size)
        if key in self._cache:
            return self._cache[key]
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.circle(surf, (30, 28, 24, 240), (size // 2, size // 2), size // 2)
        pygame.draw.circle(surf, (235, 215, 150), (size // 2, size // 2), size // 2, 1)
        pic = self.picture(picture, max(4, int(size * 0.8)))
        if pic is not None:
            surf.blit(pic, pic.get_rect(center=(size // 2, size // 2)))
        return self._keep(key, surf)

    def grave(self, side: int, radius: int) -> pygame.Surface:
        """What a dead figure leaves on the ground: a headstone on a stain of its side's colour."""
        key = ("grave", side, radius)
        if key in self._cache:
            return self._cache[key]
        size = 2 * radius + 4
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        r, g, b = blend(side_colour(side), (40, 40, 40), 0.45)
        pygame.draw.ellipse(surf, (r, g, b, 150), (2, size // 2 - radius // 3, size - 4, radius))
        pic = self.picture("grave", max(4, int(radius * 1.2)))
        if pic is not None:
            pic = pic.copy()
            pic.fill((150, 150, 150, 230), special_flags=pygame.BLEND_RGBA_MULT)
            surf.blit(pic, pic.get_rect(midbottom=(size // 2, size // 2 + radius // 2)))
        return self._keep(key, surf)


def facing_notch(surface: pygame.Surface, centre: tuple[int, int], radius: int, facing: int) -> None:
    """A small arrow head on the rim pointing where the figure faces (0 east, clockwise by eighths)."""
    a = math.radians(45 * facing)
    tip = (centre[0] + math.cos(a) * (radius + 6), centre[1] + math.sin(a) * (radius + 6))
    left = (centre[0] + math.cos(a - 0.5) * (radius - 1), centre[1] + math.sin(a - 0.5) * (radius - 1))
    right = (centre[0] + math.cos(a + 0.5) * (radius - 1), centre[1] + math.sin(a + 0.5) * (radius - 1))
    pygame.draw.polygon(surface, (255, 235, 140), (tip, left, right))
    pygame.draw.polygon(surface, DARK, (tip, left, right), 1)


def draw_gauges(surface: pygame.Surface, gauges, first: pygame.Rect) -> pygame.Rect:
    """Each gauge the viewer knows under the last: a bar, a row of pips, or a row of marked boxes.
    Returns what was drawn."""
    rect = first.copy()
    drawn = pygame.Rect(first.x, first.y, first.w, 0)
    for g in gauges[:3]:
        if g.value is None or not g.max:
            continue
        if g.style == "boxes" and g.boxes:
            pygame.draw.rect(surface, (20, 20, 20), rect)
            w = max(1, rect.w // len(g.boxes))
            for k, mark in enumerate(g.boxes):
                box = pygame.Rect(rect.x + k * w, rect.y, max(1, w - 1), rect.h)
                pygame.draw.rect(surface, GAUGE_MARKS.get(mark, BAD) if mark else (90, 95, 105), box)
        elif g.style == "pips" and g.max <= 12 and rect.w >= 3 * g.max:
            w = rect.w / g.max
            for k in range(g.max):
                pip = pygame.Rect(int(rect.x + k * w), rect.y - 1, max(2, int(w) - 1), rect.h + 2)
                pygame.draw.rect(surface, DARK, pip)
                if k < max(0, g.value):
                    pygame.draw.rect(surface, GOOD, pip.inflate(-2, -2))
        else:
            pygame.draw.rect(surface, (20, 20, 20), rect)
            share = max(0, min(g.value, g.max)) / g.max
            pygame.draw.rect(surface, GOOD if share > 0.5 else BAD, (rect.x, rect.y, int(rect.w * share), rect.h))
        drawn.union_ip(rect.inflate(0, 2))
        rect.y += rect.h + 2
    return drawn
