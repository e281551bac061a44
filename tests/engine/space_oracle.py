"""The spatial core as it was before the integer rays and the step tables: the oracle of test_space_oracle.

Copied unchanged in substance from game/engine/space.py (exact Fraction arithmetic over the
whole box of each ray, Dijkstra over tuples with per-step numpy look-ups), so the new code can be
checked answer for answer. Never used by the game.
"""
from __future__ import annotations

import heapq
import math
from fractions import Fraction
from functools import lru_cache

from game.engine.battlefield import Battlefield, Tile

EPS = 1e-9
KING_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2))
STEPS = KING_STEPS + KNIGHT_STEPS
STEP_LENGTH = {d: math.hypot(*d) for d in STEPS}
WALK, CRAWL, CLIMB = "walk", "crawl", "climb"


@lru_cache(maxsize=65536)
def crossed_offsets(dx: int, dy: int) -> tuple[Tile, ...]:
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
def corner_offsets(dx: int, dy: int) -> tuple[tuple[Tile, Tile], ...]:
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
    return [(ax + x, ay + y) for x, y in crossed_offsets(b[0] - ax, b[1] - ay)]


def corner_pairs(a: Tile, b: Tile) -> list[tuple[Tile, Tile]]:
    ax, ay = a
    return [((ax + p[0], ay + p[1]), (ax + q[0], ay + q[1])) for p, q in corner_offsets(b[0] - ax, b[1] - ay)]


def sight_blocked(bf: Battlefield, tile: Tile) -> bool:
    if not bf.inside(tile):
        return True
    x, y = tile
    return bool(bf.blocks_sight[y, x] or bf.door[y, x] >= 2)


def line_of_sight(bf: Battlefield, a: Tile, b: Tile) -> bool:
    if any(sight_blocked(bf, t) for t in crossed_tiles(a, b)):
        return False
    return not any(sight_blocked(bf, p) and sight_blocked(bf, q) for p, q in corner_pairs(a, b))


def passable(bf: Battlefield, tile: Tile, mode: str, enemies=frozenset()) -> bool:
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


def step_legal(bf: Battlefield, s: Tile, d, mode: str, enemies=frozenset()) -> bool:
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


def step_cost(bf: Battlefield, s: Tile, d, terrain_costs: bool) -> float:
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


def reach(bf: Battlefield, start: Tile, budget: float, mode: str = WALK, terrain_costs: bool = False,
          enemies=frozenset()) -> tuple[dict, dict]:
    """(cost, previous) of the old Dijkstra over tuples."""
    limit = budget + EPS
    cost = {start: 0.0}
    previous: dict = {}
    heap = [(0.0, start)]
    while heap:
        c, tile = heapq.heappop(heap)
        if c > cost.get(tile, math.inf):
            continue
        for d in STEPS:
            nxt = (tile[0] + d[0], tile[1] + d[1])
            if c + STEP_LENGTH[d] > limit or not step_legal(bf, tile, d, mode, enemies):
                continue
            nc = c + step_cost(bf, tile, d, terrain_costs)
            if nc > limit or nc >= cost.get(nxt, math.inf) - 1e-12:
                continue
            cost[nxt] = nc
            previous[nxt] = tile
            heapq.heappush(heap, (nc, nxt))
    return cost, previous
