"""Drawing the timeline's clips over the map: tracers and muzzle flashes, lunges' clashes, a grenade's arc
and bounce, blast rings, traps going off and decoys puffing away, and the rising numbers of wounds."""
from __future__ import annotations

import math

import pygame

from .anim import Clip, Timeline

FLASH = (255, 245, 200)
TRACER = (255, 225, 120)
FIRE = (255, 150, 50)
SMOKE = (170, 170, 165)


def _glow(surface: pygame.Surface, at, radius: float, colour, alpha: int) -> None:
    """A soft disc: drawn on its own small surface since the screen has no alpha of its own."""
    r = max(1, int(radius))
    spot = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    pygame.draw.circle(spot, (*colour, max(0, min(255, alpha))), (r + 1, r + 1), r)
    surface.blit(spot, (int(at[0]) - r - 1, int(at[1]) - r - 1))


def _ring(surface: pygame.Surface, at, radius: float, colour, alpha: int, width: int) -> None:
    r = max(2, int(radius))
    spot = pygame.Surface((2 * r + 4, 2 * r + 4), pygame.SRCALPHA)
    pygame.draw.circle(spot, (*colour, max(0, min(255, alpha))), (r + 2, r + 2), r, max(1, width))
    surface.blit(spot, (int(at[0]) - r - 2, int(at[1]) - r - 2))


def _star(surface: pygame.Surface, at, radius: float, colour, points: int = 8, turn: float = 0.0) -> None:
    for k in range(points):
        a = turn + 2 * math.pi * k / points
        inner = (at[0] + math.cos(a) * radius * 0.3, at[1] + math.sin(a) * radius * 0.3)
        outer = (at[0] + math.cos(a) * radius, at[1] + math.sin(a) * radius)
        pygame.draw.line(surface, colour, inner, outer, 2)


def draw_effects(surface: pygame.Surface, view, timeline: Timeline) -> None:
    """Every clip playing now that draws over the map (a walk's way ahead; wounds and deaths are drawn
    on the figures themselves)."""
    clock = timeline.clock
    cell = view.cell
    for c in timeline.playing():
        t = c.progress(clock)
        draw = DRAWERS.get(c.kind)
        if draw is not None:
            draw(surface, view, c, t, cell)


def _shot(surface, view, c: Clip, t: float, cell: float) -> None:
    a, b = view.to_screen(*c.data["from"]), view.to_screen(*c.data["to"])
    if t < 0.25:        # the muzzle flash
        _glow(surface, a, cell * (0.45 - t), FLASH, int(255 * (1 - t * 4)))
        _star(surface, a, cell * 0.5, FLASH, 6, t * 3)
    head = min(1.0, t / 0.6)
    tail = max(0.0, head - 0.4)
    if tail < 1.0:
        p = (a[0] + (b[0] - a[0]) * head, a[1] + (b[1] - a[1]) * head)
        q = (a[0] + (b[0] - a[0]) * tail, a[1] + (b[1] - a[1]) * tail)
        pygame.draw.line(surface, TRACER, q, p, 3)
        pygame.draw.line(surface, (255, 255, 255), q, p, 1)
    if t >= 0.6:
        k = (t - 0.6) / 0.4
        if c.data["hit"]:
            _star(surface, b, cell * (0.25 + 0.3 * k), (255, 90, 60), 7, k)
        else:           # the bullet kicks up dust where it lands, well off the target
            _glow(surface, b, cell * (0.15 + 0.25 * k), SMOKE, int(200 * (1 - k)))


def _lunge(surface, view, c: Clip, t: float, cell: float) -> None:
    if 0.35 <= t <= 0.8:
        (ax, ay), (bx, by) = c.data["from"], c.data["to"]
        at = view.to_screen(ax + (bx - ax) * 0.7, ay + (by - ay) * 0.7)
        k = (t - 0.35) / 0.45
        colour = (255, 80, 60) if c.data["hit"] else (230, 230, 230)
        _star(surface, at, cell * (0.2 + 0.3 * k), colour, 8, k)


def _throw(surface, view, c: Clip, t: float, cell: float) -> None:
    """The grenade flies in an arc (its flight so far dotted, its shadow on the ground), then bounces."""
    bounces = c.data["aim"] != c.data["lands"]
    flight = 0.7 if bounces else 1.0
    for k in range(0, int(min(t, flight) / flight * 12)):       # the arc so far
        x, y, h = _airborne(c, k / 12 * flight, flight)
        sx, sy = view.to_screen(x, y)
        pygame.draw.circle(surface, (230, 230, 210), (sx, sy - int(h * cell)), max(1, int(cell / 16)))
    x, y, height = _airborne(c, t, flight)
    ground = view.to_screen(x, y)
    _glow(surface, ground, cell * 0.16, (0, 0, 0), 120)
    air = (ground[0], ground[1] - int(height * cell))
    size = max(3, int(cell * 0.2))
    pygame.draw.circle(surface, (45, 60, 38), air, size)
    pygame.draw.circle(surface, (220, 230, 200), air, size, 1)
    pygame.draw.circle(surface, (255, 200, 80), (air[0] + size // 2, air[1] - size), max(1, size // 3))   # its fuse


def _airborne(c: Clip, t: float, flight: float) -> tuple[float, float, float]:
    """Where the thrown thing is at ``t`` (0..1 of the clip) and how high, in tiles: the arc to the aimed
    tile, high in proportion to its length, then hops along the ground to where it comes to rest."""
    (fx, fy), (ax, ay), (lx, ly) = c.data["from"], c.data["aim"], c.data["lands"]
    if t < flight:
        k = t / flight
        return fx + (ax - fx) * k, fy + (ay - fy) * k, math.hypot(ax - fx, ay - fy) * 0.35 * 4 * k * (1 - k)
    k = (t - flight) / (1 - flight)
    return ax + (lx - ax) * k, ay + (ly - ay) * k, 0.35 * abs(math.sin(math.pi * 2 * k)) * (1 - k)


def _blast(surface, view, c: Clip, t: float, cell: float) -> None:
    at = view.to_screen(*c.data["at"])
    reach = c.data["radius"] * cell
    if t < 0.2:
        _glow(surface, at, reach * (0.3 + t * 2), FLASH, int(230 * (1 - t * 5)))
    _glow(surface, at, reach * min(1.0, 0.2 + t * 1.2), FIRE, int(120 * (1 - t)))
    _ring(surface, at, reach * min(1.0, 0.2 + t * 1.2), (255, 110, 40), int(255 * (1 - t * 0.7)), max(2, int(cell / 8)))


def _trap(surface, view, c: Clip, t: float, cell: float) -> None:
    at = view.to_screen(*c.data["at"])
    _glow(surface, at, cell * (0.4 + 1.2 * t), FIRE, int(200 * (1 - t)))
    _star(surface, at, cell * (0.5 + 1.0 * t), (255, 70, 40), 10, t)
    _ring(surface, at, cell * (0.5 + 1.5 * t), (255, 120, 40), int(255 * (1 - t)), 2)


def _puff(surface, view, c: Clip, t: float, cell: float) -> None:
    """A decoy is taken away: a little cloud of smoke drifts up and thins out."""
    x, y = view.to_screen(*c.data["at"])
    for k in range(6):
        a = 2 * math.pi * k / 6 + 0.6
        r = cell * (0.3 + 0.5 * t)
        spot = (x + math.cos(a) * r * 0.8, y + math.sin(a) * r * 0.55 - t * cell * 0.7)
        _glow(surface, spot, r * 0.75, (215, 215, 210), int(230 * (1 - t)))
        _glow(surface, spot, r * 0.45, (245, 245, 240), int(200 * (1 - t)))


def _walk(surface, view, c: Clip, t: float, cell: float) -> None:
    """The way still to go, dotted, so a walk reads as a path and not a jump."""
    path = c.data["path"]
    for tile in path[int(t * (len(path) - 1)) + 1:]:
        at = view.to_screen(tile[0] + 0.5, tile[1] + 0.5)
        pygame.draw.circle(surface, (255, 240, 150), at, max(2, int(cell / 10)))
        pygame.draw.circle(surface, (40, 35, 20), at, max(2, int(cell / 10)), 1)


DRAWERS = {"walk": _walk, "shot": _shot, "lunge": _lunge, "throw": _throw, "blast": _blast, "trap": _trap, "puff": _puff}


def draw_floaters(surface: pygame.Surface, view, timeline: Timeline, ui, where) -> None:
    """Each wound or heal as a number rising over its figure and fading, one lane up per number still
    rising there. ``where`` gives a figure's drawn position in world coordinates, or None."""
    for c, lane in timeline.floaters():
        at = where(c.figure)
        if at is None:
            continue
        t = c.progress(timeline.clock)
        x, y = view.to_screen(*at)
        colour = (255, 110, 90) if c.kind == "wound" else (120, 230, 130)
        label = ui.render(c.data["text"], 24, colour)
        shadow = ui.render(c.data["text"], 24, (0, 0, 0))
        if t > 0.6:
            alpha = int(255 * (1 - (t - 0.6) / 0.4))
            label.set_alpha(alpha)
            shadow.set_alpha(alpha)
        rise = int(view.cell * (0.55 + 0.6 * t)) + lane * (label.get_height() + 2)
        spot = label.get_rect(midbottom=(x, y - rise))
        surface.blit(shadow, spot.move(1, 1))
        surface.blit(label, spot)
