"""Spatial services of conventions.md: distance, adjacency, paths, line of sight, cover, lines.

Every function here is rules-agnostic: a rule module calls it with its own numbers.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable

from .battlefield import Battlefield, Cover, Tile

EPS = 1e-9
KING_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2))
STEPS = KING_STEPS + KNIGHT_STEPS
STEP_LENGTH = {d: math.hypot(*d) for d in STEPS}


# --- distance and adjacency (sections 2 and 4) ---------------------------------

def distance(a: Tile, b: Tile) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def within(a: Tile, b: Tile, n: float) -> bool:
    """d(a, b) <= n pas, exact for whole n (compares squares)."""
    d2 = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
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
    r = int(math.floor(n + EPS))
    cx, cy = centre
    return [(x, y)
            for y in range(max(0, cy - r), min(bf.height, cy + r + 1))
            for x in range(max(0, cx - r), min(bf.width, cx + r + 1))
            if within(centre, (x, y), n)]


# --- line of sight (section 5) ---------------------------------------------------

@lru_cache(maxsize=65536)
def _crossed_offsets(dx: int, dy: int) -> tuple[Tile, ...]:
    """Crossed tiles of the segment from the centre of (0,0) to that of (dx,dy), exact."""
    def inside(q: int, k: int):
        if q == 0:
            return (Fraction(0), Fraction(1)) if k == 0 else None
        lo = Fraction(2 * k - 1, 2 * q)
        hi = Fraction(2 * k + 1, 2 * q)
        return (min(lo, hi), max(lo, hi))
    out = []
    for x in range(min(0, dx), max(0, dx) + 1):
        for y in range(min(0, dy), max(0, dy) + 1):
            if (x, y) in ((0, 0), (dx, dy)):
                continue
            ix, iy = inside(dx, x), inside(dy, y)
            if ix is None or iy is None:
                continue
            if max(0, ix[0], iy[0]) < min(1, ix[1], iy[1]):
                out.append((x, y))
    return tuple(out)


@lru_cache(maxsize=65536)
def _corner_offsets(dx: int, dy: int) -> tuple[tuple[Tile, Tile], ...]:
    pairs = []
    if dx == 0 or dy == 0:
        return ()
    for cx in range(min(0, dx) + 1, max(0, dx) + 1):
        t = Fraction(2 * cx - 1, 2 * dx)
        y2 = 1 + 2 * t * dy
        if 0 < t < 1 and y2.denominator == 1 and y2.numerator % 2 == 0:
            cy = y2.numerator // 2
            if (dx > 0) == (dy > 0):
                pairs.append(((cx, cy - 1), (cx - 1, cy)))
            else:
                pairs.append(((cx - 1, cy - 1), (cx, cy)))
    return tuple(pairs)


def crossed_tiles(a: Tile, b: Tile) -> list[Tile]:
    ax, ay = a
    return [(ax + x, ay + y) for x, y in _crossed_offsets(b[0] - ax, b[1] - ay)]


def corner_pairs(a: Tile, b: Tile) -> list[tuple[Tile, Tile]]:
    ax, ay = a
    return [((ax + p[0], ay + p[1]), (ax + q[0], ay + q[1]))
            for p, q in _corner_offsets(b[0] - ax, b[1] - ay)]


def line_of_sight(bf: Battlefield, a: Tile, b: Tile) -> bool:
    """Symmetric centre-to-centre LOS; closed doors and the map edge block it."""
    blocked = bf.sight_blocked
    if any(blocked(t) for t in crossed_tiles(a, b)):
        return False
    return not any(blocked(p) and blocked(q) for p, q in corner_pairs(a, b))


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

WALK, CRAWL, CLIMB = "walk", "crawl", "climb"


@dataclass(frozen=True)
class MoveRules:
    """What a movement may do: its mode, and whether terrain costs apply."""

    mode: str = WALK
    terrain_costs: bool = False


def passable(bf: Battlefield, tile: Tile, mode: str, enemies: frozenset | set = frozenset()) -> bool:
    if not bf.inside(tile) or tile in enemies:
        return False
    x, y = tile
    if bf.door[y, x] >= 2 or bf.deep_water[y, x]:
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
    if bf.door[y, x] >= 2:
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
    if abs(dx) == 2:
        between = ((sx + dx // 2, sy), (sx + dx // 2, sy + dy))
    elif abs(dy) == 2:
        between = ((sx, sy + dy // 2), (sx + dx, sy + dy // 2))
    else:
        return True
    return all(passable(bf, t, mode, enemies) for t in between)


def step_cost(bf: Battlefield, s: Tile, d: tuple[int, int], terrain_costs: bool) -> float:
    dx, dy = d
    length = STEP_LENGTH[d]
    if not terrain_costs:
        return length
    sx, sy = s
    tiles = [(sx + dx, sy + dy)]
    if abs(dx) == 2:
        tiles += [(sx + dx // 2, sy), (sx + dx // 2, sy + dy)]
    elif abs(dy) == 2:
        tiles += [(sx, sy + dy // 2), (sx + dx, sy + dy // 2)]
    return length * max(float(bf.terrain_cost[y, x]) for x, y in tiles)


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
    """Dijkstra over the 16-neighbour steps (section 3.3). Ties keep the first path found."""
    limit = budget + EPS
    cost = {start: 0.0}
    previous: dict[Tile, Tile] = {}
    heap = [(0.0, start)]
    while heap:
        c, tile = heapq.heappop(heap)
        if c > cost.get(tile, math.inf):
            continue
        for d in STEPS:
            nxt = (tile[0] + d[0], tile[1] + d[1])
            if c + STEP_LENGTH[d] > limit or not step_legal(bf, tile, d, rules.mode, enemies):
                continue
            nc = c + step_cost(bf, tile, d, rules.terrain_costs)
            if nc > limit or nc >= cost.get(nxt, math.inf) - 1e-12:
                continue
            cost[nxt] = nc
            previous[nxt] = tile
            heapq.heappush(heap, (nc, nxt))
    return Reach(start, cost, previous)


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
