"""Legal steps of conventions.md section 3.2 for every tile at once, as the fast path of ``space.reach``.

For one movement mode the terrain decides, for each tile and each of the 16 steps, whether the
step is legal apart from enemy figures; numpy computes that for the whole map as a 16-bit code
per tile. The tables are laid out column-major with a border of 2 tiles, so a flat index orders
tiles as (x, y) tuples do and no step ever leaves the array: Dijkstra then runs on plain ints.
"""
from __future__ import annotations

import math
from array import array

import numpy as np

from .battlefield import SHUT

PAD = 2
KING_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2))
STEPS = KING_STEPS + KNIGHT_STEPS
STEP_LENGTH = {d: math.hypot(*d) for d in STEPS}
WALK, CRAWL, CLIMB = "walk", "crawl", "climb"
TERRAIN = ("blocks_move", "climbable", "deep_water", "crawl_gap", "door")


def between(d: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The two tiles a knight step passes between, relative to its start; none for a king step."""
    dx, dy = d
    if abs(dx) == 2:
        return (dx // 2, 0), (dx // 2, dy)
    if abs(dy) == 2:
        return (0, dy // 2), (dx, dy // 2)
    return ()


def passable_mask(bf, mode: str) -> np.ndarray:
    """Tiles the movement may enter (section 3.2), enemy figures aside, as a [y, x] array."""
    shut = bf.door >= SHUT
    other = ~bf.blocks_move & (~bf.crawl_gap | (mode == CRAWL))
    return ~shut & ~bf.deep_water & np.where(bf.climbable, mode == CLIMB, other)


def corner_mask(bf, mode: str) -> np.ndarray:
    """Tiles whose corner a diagonal step may not cut during this movement, as a [y, x] array."""
    return (bf.door >= SHUT) | np.where(bf.climbable, mode != CLIMB, bf.blocks_move)


class StepTable:
    """One battlefield's legal steps for one movement mode, enemy figures aside."""

    def __init__(self, bf, mode: str):
        h, w = bf.height, bf.width
        self.width, self.height = w, h
        self.column = h + 2 * PAD            # flat index of (x, y): (x + PAD) * column + y + PAD
        big = 2 * PAD
        ok = np.pad(passable_mask(bf, mode), big, constant_values=False)
        corner = np.pad(corner_mask(bf, mode), big, constant_values=True)
        rows, cols = h + 2 * PAD, w + 2 * PAD

        def at(grid: np.ndarray, dx: int, dy: int) -> np.ndarray:
            return grid[PAD + dy:PAD + dy + rows, PAD + dx:PAD + dx + cols]

        codes = np.zeros((rows, cols), dtype=np.uint16)
        for k, (dx, dy) in enumerate(STEPS):
            legal = at(ok, dx, dy).copy()
            if abs(dx) == 1 and abs(dy) == 1:
                legal &= ~at(corner, dx, 0) & ~at(corner, 0, dy)
            for bx, by in between((dx, dy)):
                legal &= at(ok, bx, by)
            codes |= legal.astype(np.uint16) << k
        self.codes = array("H", codes.T.tobytes())
        self.offsets = tuple(dx * self.column + dy for dx, dy in STEPS)
        self.passes = tuple(tuple(bx * self.column + by for bx, by in between(d)) or (0, 0) for d in STEPS)
        self.known_steps: dict[int, tuple] = {}

    def index(self, x: int, y: int) -> int:
        return (x + PAD) * self.column + y + PAD

    def tile(self, p: int) -> tuple[int, int]:
        x, y = divmod(p, self.column)
        return x - PAD, y - PAD

    def covers(self, x: int, y: int) -> bool:
        """A tile of the table: on the map or within the border a step may start from."""
        return -PAD <= x < self.width + PAD and -PAD <= y < self.height + PAD

    def steps(self, code: int) -> tuple:
        """(offset, length, and the offsets of the two tiles passed between or 0, 0) of the legal
        steps of a code, in STEPS order; kept in ``known_steps``."""
        found = self.known_steps.get(code)
        if found is None:
            found = self.known_steps[code] = tuple((self.offsets[k], STEP_LENGTH[d], *self.passes[k])
                                                   for k, d in enumerate(STEPS) if code >> k & 1)
        return found


def step_table(bf, mode: str) -> StepTable:
    mode = mode if mode in (CRAWL, CLIMB) else WALK
    return bf.derived(f"steps:{mode}", TERRAIN, lambda b: StepTable(b, mode))


def terrain_costs(bf) -> array:
    """Terrain cost multipliers as floats in the StepTable layout (1.0 on the border)."""
    def build(b) -> array:
        grid = np.pad(b.terrain_cost.astype(np.float64), PAD, constant_values=1.0)
        return array("d", grid.T.tobytes())
    return bf.derived("terrain_costs", ("terrain_cost",), build)
