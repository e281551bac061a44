"""Crossed tiles and grid corners of centre-to-centre segments (conventions.md section 5), in integers.

A segment is walked column by column along its major axis: each column holds one or two crossed
tiles, found with one floor division, so the cost is proportional to the segment's length and no
rational number is ever built. The same arithmetic, on numpy arrays, answers many segments at once.

In the frame where the segment runs from (0, 0) to (A, B) with A >= B >= 0 (tile centres at
integer points), column u holds the tiles v with lo(u) <= v <= hi(u), where N(u) = (2u + 1) B + A:

    lo(u) = floor(N(u - 1) / 2A)    (the row where the segment enters the column)
    hi(u) = ceil(N(u) / 2A) - 1     (the row where it leaves)

and the segment passes exactly through a grid corner between columns u and u + 1 when 2A divides
N(u); the two tiles meeting there off the segment are (u + 1, m) and (u, m + 1), m = N(u) / 2A - 1.
"""
from __future__ import annotations

from array import array
from functools import lru_cache

import numpy as np

Tile = tuple[int, int]
FLAT_BUDGET = 1 << 22       # flat offsets kept for single questions (16 MB); the cache starts afresh past it
_flat: dict[tuple[int, int, int], tuple[array, tuple[tuple[int, int], ...]]] = {}
_flat_size = 0


def _frame(dx: int, dy: int) -> tuple[int, int, bool, int, int]:
    """(A, B, swapped, sign of x, sign of y): the major-axis frame of the segment (0,0)-(dx,dy)."""
    sx = 1 if dx >= 0 else -1
    sy = 1 if dy >= 0 else -1
    a, b = abs(dx), abs(dy)
    return (b, a, True, sx, sy) if b > a else (a, b, False, sx, sy)


def walk(dx: int, dy: int) -> tuple[list[Tile], list[tuple[Tile, Tile]]]:
    """Crossed tiles (from the start outwards) and corner pairs of the segment from (0,0) to (dx,dy)."""
    big, small, swapped, sx, sy = _frame(dx, dy)
    crossed: list[Tile] = []
    corners: list[tuple[Tile, Tile]] = []
    if big == 0:
        return crossed, corners

    def place(u: int, v: int) -> Tile:
        return (sx * v, sy * u) if swapped else (sx * u, sy * v)

    two_a = 2 * big
    n = small + big                     # N(u), kept up to date as u grows
    lo = 0
    for u in range(big + 1):
        hi = (n - 1) // two_a
        for v in range(lo, hi + 1):
            if (u, v) != (0, 0) and (u, v) != (big, small):
                crossed.append(place(u, v))
        if u < big and n % two_a == 0:
            corners.append((place(u + 1, hi), place(u, hi + 1)))
        lo = n // two_a
        n += 2 * small
    return crossed, corners


@lru_cache(maxsize=1 << 12)
def crossed_offsets(dx: int, dy: int) -> tuple[Tile, ...]:
    """Crossed tiles of (0,0)-(dx,dy) in the order of the conventions' reference: by x, then y."""
    return tuple(sorted(walk(dx, dy)[0]))


@lru_cache(maxsize=1 << 12)
def corner_offsets(dx: int, dy: int) -> tuple[tuple[Tile, Tile], ...]:
    """Corner pairs of (0,0)-(dx,dy) as the conventions' reference writes them, by the corner's x."""
    out = []
    for p, q in walk(dx, dy)[1]:
        cx, cy = max(p[0], q[0]), max(p[1], q[1])
        out.append(((cx, cy - 1), (cx - 1, cy)) if (dx > 0) == (dy > 0) else ((cx - 1, cy - 1), (cx, cy)))
    return tuple(sorted(out, key=lambda pair: max(pair[0][0], pair[1][0])))


def flat_ray(dx: int, dy: int, width: int) -> tuple[array, tuple[tuple[int, int], ...]]:
    """Crossed tiles and corner pairs of (0,0)-(dx,dy) as offsets in a row-major grid ``width`` wide,
    kept (up to FLAT_BUDGET offsets in all) since a ray's offsets do not depend on where it starts."""
    global _flat_size
    key = (dx, dy, width)
    ray = _flat.get(key)
    if ray is None:
        crossed, corners = walk(dx, dy)
        ray = (array("i", [y * width + x for x, y in crossed]),
               tuple((p[1] * width + p[0], q[1] * width + q[0]) for p, q in corners))
        if _flat_size + len(crossed) > FLAT_BUDGET:
            forget_rays()
        _flat[key] = ray
        _flat_size += len(crossed)
    return ray


def forget_rays() -> None:
    """Empty the cache of flat rays (the bench's cold start)."""
    global _flat_size
    _flat.clear()
    _flat_size = 0


CHUNK = 1 << 14     # columns per batch: small arrays are recycled by malloc instead of mapped afresh


def blocked_many(blocked: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each segment a[k]-b[k] (tiles as (x, y) rows, all on the map), whether sight is blocked.

    ``blocked`` is the [y, x] boolean array of tiles that block sight, with a border of one
    blocking tile all round (``np.pad(mask, 1, constant_values=True)``) so that no index strays
    off it. Every column of every segment is one entry of flat arrays, so the work is the total
    length of the segments.
    """
    a = np.asarray(a, dtype=np.int64).reshape(-1, 2)
    b = np.asarray(b, dtype=np.int64).reshape(-1, 2)
    out = np.zeros(len(a), dtype=bool)
    big = np.abs(b - a).max(axis=1)
    rows = np.nonzero(big > 0)[0]
    ends = np.cumsum(big[rows] + 1)
    start = 0
    while start < len(rows):
        stop = max(start + 1, int(np.searchsorted(ends, ends[start] - big[rows[start]] - 1 + CHUNK, "right")))
        part = rows[start:stop]
        out[part] = _blocked(blocked, a[part], b[part])
        start = stop
    return out


def _blocked(blocked: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """blocked_many for segments of positive length. With q, r = divmod(N(u), 2A), the rows of
    column u are lo = q - (r < 2B) to hi = q - (r == 0), and r == 0 marks a grid corner."""
    width = blocked.shape[1]
    flat = blocked.ravel()
    d = b - a
    dx, dy = d[:, 0], d[:, 1]
    swapped = np.abs(dy) > np.abs(dx)
    big = np.abs(d).max(axis=1)
    small = np.where(swapped, np.abs(dx), np.abs(dy))
    sx, sy = np.where(dx >= 0, 1, -1), np.where(dy >= 0, 1, -1)
    step_u = np.where(swapped, sy * width, sx)        # one step along the major axis, in the flat grid
    step_v = np.where(swapped, sx, sy * width)
    base = (a[:, 1] + 1) * width + a[:, 0] + 1
    counts = big + 1
    first = np.cumsum(counts) - counts

    def spread(values: np.ndarray) -> np.ndarray:
        return np.repeat(values.astype(np.int32), counts)

    A, B, su, sv = spread(big), spread(small), spread(step_u), spread(step_v)
    u = np.arange(int(counts.sum()), dtype=np.int32) - spread(first)
    q, r = np.divmod((2 * u + 1) * B + A, 2 * A)
    lo = q - (r < 2 * B)
    at = spread(base) + u * su + lo * sv
    # lo of column 0 is the start tile and lo of column A the end tile
    hit = flat[at] & (u > 0) & (u < A)
    two = np.nonzero(lo < q - (r == 0))[0]          # columns holding a second tile, lo + 1
    hit[two] |= flat[at[two] + sv[two]]
    corner = np.nonzero((r == 0) & (u < A))[0]       # there hi = lo: the corner's tiles are (u+1, lo), (u, lo+1)
    hit[corner] |= flat[at[corner] + su[corner]] & flat[at[corner] + sv[corner]]
    return np.logical_or.reduceat(hit, first)
