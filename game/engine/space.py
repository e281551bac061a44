"""Spatial services of conventions.md: distance, adjacency, paths, line of sight, cover, lines.

Every function here is rules-agnostic: a rule module calls it with its own numbers. Line of sight
goes through the battlefield's one cache (``Battlefield.sight()``, engine/sight.py), crossed tiles
are computed in integers (engine/rays.py) and reach runs on precomputed step tables
(engine/moves.py); the answers are those of the conventions' reference definitions.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np

from . import rays
from .battlefield import SHUT, Battlefield, Cover, Tile
from .moves import (CLIMB, CRAWL, KING_STEPS, KNIGHT_STEPS, PAD, STEP_LENGTH, STEPS, WALK,  # noqa: F401 (space's
                    between, step_table, terrain_costs)                                  # names, as before)

EPS = 1e-9


# --- distance and adjacency (sections 2 and 4) ---------------------------------

distance = math.dist    # d(a, b) between tile centres (section 2): C's hypot of the differences, no Python frame


def within(a: Tile, b: Tile, n: float) -> bool:
    """d(a, b) <= n pas, exact for whole n (compares squares)."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    d2 = dx * dx + dy * dy
    if n.__class__ is int:
        return d2 <= n * n
    if float(n).is_integer():
        return d2 <= int(n) ** 2
    return d2 <= n * n + EPS


def within_cm(a: Tile, b: Tile, cm: float, cm_per_tile: float) -> bool:
    d2 = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    return d2 * cm_per_tile ** 2 <= cm * cm + EPS


def adjacent(a: Tile, b: Tile) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def neighbours(tile: Tile) -> list[Tile]:
    return [(tile[0] + dx, tile[1] + dy) for dx, dy in KING_STEPS]


def tiles_within(bf: Battlefield, centre: Tile, n: float) -> list[Tile]:
    """Tiles of the map within n of centre, row by row."""
    cx, cy = centre
    w, h = bf.width, bf.height
    return [(cx + dx, cy + dy) for dx, dy in _disc(n) if 0 <= cx + dx < w and 0 <= cy + dy < h]


@lru_cache(maxsize=256)
def _disc(n: float) -> tuple[Tile, ...]:
    r = int(math.floor(n + EPS))
    return tuple((dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1) if within((0, 0), (dx, dy), n))


# --- line of sight (section 5) ---------------------------------------------------

def crossed_tiles(a: Tile, b: Tile) -> list[Tile]:
    ax, ay = a
    return [(ax + x, ay + y) for x, y in rays.crossed_offsets(b[0] - ax, b[1] - ay)]


def corner_pairs(a: Tile, b: Tile) -> list[tuple[Tile, Tile]]:
    ax, ay = a
    return [((ax + p[0], ay + p[1]), (ax + q[0], ay + q[1]))
            for p, q in rays.corner_offsets(b[0] - ax, b[1] - ay)]


def line_of_sight(bf: Battlefield, a: Tile, b: Tile) -> bool:
    """Symmetric centre-to-centre LOS; closed doors and the map edge block it."""
    return bf.sight()(a, b)


def sight_matrix(bf: Battlefield, origins: Sequence[Tile], targets: Sequence[Tile]) -> np.ndarray:
    """``out[i, j]`` is ``line_of_sight(bf, origins[i], targets[j])``, answered in one batch."""
    return bf.sight().matrix(origins, targets)


def sight_pairs(bf: Battlefield, tiles: Sequence[Tile]) -> np.ndarray:
    """The symmetric matrix of ``line_of_sight`` among ``tiles`` (the AI's and the window's batch)."""
    return bf.sight().pairs(tiles)


def cover_level(bf: Battlefield, origin: Tile, target: Tile) -> Cover:
    """Highest cover among the target's tile and crossed tiles adjacent to it (section 6)."""
    def counts(t: Tile) -> bool:
        return bf.inside(t) and not adjacent(t, origin) and t != origin
    candidates = [target] + [t for t in crossed_tiles(origin, target) if adjacent(t, target)]
    level = 0
    for t in candidates:
        if counts(t) and not bf.sight_blocked(t):
            level = max(level, int(bf.cover[t[1], t[0]]))
    return Cover(level)


def figures_on_line(a: Tile, b: Tile, occupied: Iterable[Tile]) -> list[Tile]:
    """Tiles of figures that the segment a-b crosses (friendly fire, bursts)."""
    crossed = set(crossed_tiles(a, b))
    return [t for t in occupied if t in crossed]


# --- movement (section 3) --------------------------------------------------------

@dataclass(frozen=True)
class MoveRules:
    """What a movement may do: its mode, and whether terrain costs apply."""

    mode: str = WALK
    terrain_costs: bool = False


def passable(bf: Battlefield, tile: Tile, mode: str, enemies: frozenset | set = frozenset()) -> bool:
    if not bf.inside(tile) or tile in enemies:
        return False
    x, y = tile
    if bf.door[y, x] >= SHUT or bf.deep_water[y, x]:
        return False
    if bf.climbable[y, x]:
        return mode == CLIMB
    if bf.blocks_move[y, x]:
        return False
    if bf.crawl_gap[y, x]:
        return mode == CRAWL
    return True


def _corner_blocks(bf: Battlefield, tile: Tile, mode: str) -> bool:
    if not bf.inside(tile):
        return True
    x, y = tile
    if bf.door[y, x] >= SHUT:
        return True
    if bf.climbable[y, x]:
        return mode != CLIMB
    return bool(bf.blocks_move[y, x])


def step_legal(bf: Battlefield, s: Tile, d: tuple[int, int], mode: str,
               enemies: frozenset | set = frozenset()) -> bool:
    sx, sy = s
    dx, dy = d
    if not passable(bf, (sx + dx, sy + dy), mode, enemies):
        return False
    if abs(dx) == 1 and abs(dy) == 1:
        return not (_corner_blocks(bf, (sx + dx, sy), mode) or _corner_blocks(bf, (sx, sy + dy), mode))
    return all(passable(bf, (sx + bx, sy + by), mode, enemies) for bx, by in between(d))


def step_cost(bf: Battlefield, s: Tile, d: tuple[int, int], terrain_costs: bool) -> float:
    length = STEP_LENGTH[d]
    if not terrain_costs:
        return length
    sx, sy = s
    tiles = [d, *between(d)]
    return length * max(float(bf.terrain_cost[sy + y, sx + x]) for x, y in tiles)


@dataclass
class Reach:
    """Cheapest path costs from a start tile within a budget, with the paths."""

    start: Tile
    cost: dict[Tile, float]
    previous: dict[Tile, Tile]

    def path(self, tile: Tile) -> list[Tile]:
        """Tiles stepped on after the start, ending at tile (empty if tile is the start)."""
        if tile not in self.cost:
            return []
        out = []
        while tile != self.start:
            out.append(tile)
            tile = self.previous[tile]
        return out[::-1]


def reach(bf: Battlefield, start: Tile, budget: float, rules: MoveRules = MoveRules(),
          enemies: frozenset | set = frozenset()) -> Reach:
    """Dijkstra over the 16-neighbour steps (section 3.3). Ties keep the first path found.

    Tiles leave the heap by (cost, x, y) and relax their steps in STEPS order, as they always
    have: the table's flat indices order like (x, y) tuples, so costs, paths and the order in
    which tiles were found are exactly those of a Dijkstra over tuples.
    """
    limit = budget + EPS
    table = step_table(bf, rules.mode)
    sx, sy = start
    if not table.covers(sx, sy):
        return Reach(start, {start: 0.0}, {})
    mult = terrain_costs(bf) if rules.terrain_costs else None
    barred = {table.index(x, y) for x, y in enemies if table.covers(x, y)}
    codes, known_steps, steps_of = table.codes, table.known_steps, table.steps
    p0 = table.index(sx, sy)
    cost = {p0: 0.0}
    get = cost.get
    previous: dict[int, int] = {}
    heap = [(0.0, p0)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        c, p = pop(heap)
        if c > cost[p]:
            continue
        code = codes[p]
        steps = known_steps.get(code)
        if steps is None:
            steps = steps_of(code)
        for off, length, b1, b2 in steps:
            nc = c + length
            if nc > limit:
                continue
            q = p + off
            if barred and (q in barred or b1 and (p + b1 in barred or p + b2 in barred)):
                continue
            if mult is not None:
                nc = c + length * (max(mult[q], mult[p + b1], mult[p + b2]) if b1 else mult[q])
                if nc > limit:
                    continue
            old = get(q)
            if old is not None and nc >= old - 1e-12:
                continue
            cost[q] = nc
            previous[q] = p
            push(heap, (nc, q))
    del cost[p0]
    col = table.column
    return Reach(start, {start: 0.0, **{(p // col - PAD, p % col - PAD): v for p, v in cost.items()}},
                 {(q // col - PAD, q % col - PAD): start if p == p0 else (p // col - PAD, p % col - PAD)
                  for q, p in previous.items()})


def path_cost(bf: Battlefield, start: Tile, path: list[Tile], terrain_costs: bool = False) -> float:
    total, here = 0.0, start
    for t in path:
        total += step_cost(bf, here, (t[0] - here[0], t[1] - here[1]), terrain_costs)
        here = t
    return total


# --- straight-line procedures (section 3.5) --------------------------------------

def round_half_away(v: Fraction) -> int:
    return int(math.floor(abs(v) + Fraction(1, 2))) * (1 if v >= 0 else -1)


def line_beyond(origin: Tile, aim: Tile, k: int) -> list[Tile]:
    """The k tiles after aim continuing away from origin, stepped by the major axis."""
    dx, dy = aim[0] - origin[0], aim[1] - origin[1]
    m = max(abs(dx), abs(dy))
    if m == 0:
        return []
    return [(aim[0] + round_half_away(Fraction(i * dx, m)), aim[1] + round_half_away(Fraction(i * dy, m)))
            for i in range(1, k + 1)]


def scatter(bf: Battlefield, origin: Tile, aim: Tile, k: int) -> tuple[Tile, list[Tile]]:
    """Where an object thrown at aim ends after k bounce tiles, stopped in front of walls."""
    landing, travelled = aim, []
    for t in line_beyond(origin, aim, k):
        if bf.stops_walker(t):
            break
        travelled.append(t)
        landing = t
    return landing, travelled


def _below_root(c: int, root: int, t: int) -> bool:
    """c·√root < t, decided in integers."""
    if c < 0 <= t:
        return True
    if t <= 0 <= c:
        return False
    return c * c * root < t * t if c >= 0 else c * c * root > t * t


def _round_off_root(base: int, num: int, root: int) -> int:
    """base + num/√root rounded half away from zero, exactly: no float decides which side of a half it lies."""
    s = math.isqrt(root)
    if s * s == root:
        return round_half_away(Fraction(base * s + num, s))
    n = math.floor(base + num / math.sqrt(root) + 0.5)     # an irrational value is never exactly half-way
    while not _below_root(2 * (n - base) - 1, root, 2 * num):
        n -= 1
    while _below_root(2 * (n - base) + 1, root, 2 * num):
        n += 1
    return n


def scatter_along(bf: Battlefield, origin: Tile, aim: Tile, pas: int) -> tuple[Tile, list[Tile]]:
    """Where an object thrown at aim comes to rest after bouncing ``pas`` pas on along the throw line:
    the tile holding aim + pas·u (u the unit vector from origin to aim), reached from aim along the
    straight tile line and stopped in front of walls. ``scatter`` counts tiles instead of pas."""
    dx, dy = aim[0] - origin[0], aim[1] - origin[1]
    root = dx * dx + dy * dy
    if root == 0 or pas <= 0:
        return aim, []
    end = (_round_off_root(aim[0], pas * dx, root), _round_off_root(aim[1], pas * dy, root))
    ex, ey = end[0] - aim[0], end[1] - aim[1]
    m = max(abs(ex), abs(ey))
    landing, travelled = aim, []
    for i in range(1, m + 1):
        t = (aim[0] + round_half_away(Fraction(i * ex, m)), aim[1] + round_half_away(Fraction(i * ey, m)))
        if bf.stops_walker(t):
            break
        travelled.append(t)
        landing = t
    return landing, travelled


def blast(bf: Battlefield, centre: Tile, radius: float, tiles: Iterable[Tile]) -> list[Tile]:
    """Those tiles within radius of centre that it can see (walls shelter)."""
    return [t for t in tiles if within(centre, t, radius) and (t == centre or line_of_sight(bf, centre, t))]


def direction_line(start: Tile, direction: tuple[int, int], n: int) -> list[Tile]:
    return [(start[0] + direction[0] * k, start[1] + direction[1] * k) for k in range(1, n + 1)]


# --- triangular templates (a breath weapon's cone) -------------------------------

def triangle_template(bf: Battlefield, origin: Tile, aim: Tile, length: float, half_width: float) -> list[Tile]:
    """Tiles under an isosceles triangle whose tip is at the centre of ``origin`` and whose axis points at
    the centre of ``aim``: ``length`` pas long, ``half_width`` pas either side of the axis at its far end.

    A tile is under it when its centre lies at t along the axis and s across it with 0 < t <= length and
    s <= t * half_width / length (edges count), and ``origin`` sees it. Work is bounded by the triangle's
    area, whatever the map size. Sorted by distance along the axis, then across, then by tile.
    """
    dx, dy = aim[0] - origin[0], aim[1] - origin[1]
    norm = math.hypot(dx, dy)
    if norm == 0:
        return []
    ux, uy = dx / norm, dy / norm
    slope = half_width / length
    reach_out = int(math.ceil(math.hypot(length, half_width)))
    ox, oy = origin
    found = []
    for y in range(max(0, oy - reach_out), min(bf.height, oy + reach_out + 1)):
        for x in range(max(0, ox - reach_out), min(bf.width, ox + reach_out + 1)):
            cx, cy = x - ox, y - oy
            t = cx * ux + cy * uy
            s = abs(cx * uy - cy * ux)
            if EPS < t <= length + EPS and s <= t * slope + EPS:
                found.append((t, s, (x, y)))
    found.sort(key=lambda f: (round(f[0], 9), round(f[1], 9), f[2][1], f[2][0]))
    return [tile for _, _, tile in found if line_of_sight(bf, origin, tile)]
