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

from functools import lru_cache

import numpy as np

Tile = tuple[int, int]


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


@lru_cache(maxsize=1 << 14)
def crossed_offsets(dx: int, dy: int) -> tuple[Tile, ...]:
    """Crossed tiles of (0,0)-(dx,dy) in the order of the conventions' reference: by x, then y."""
    return tuple(sorted(walk(dx, dy)[0]))


@lru_cache(maxsize=1 << 14)
def corner_offsets(dx: int, dy: int) -> tuple[tuple[Tile, Tile], ...]:
    """Corner pairs of (0,0)-(dx,dy) as the conventions' reference writes them, by the corner's x."""
    out = []
    for p, q in walk(dx, dy)[1]:
        cx, cy = max(p[0], q[0]), max(p[1], q[1])
        out.append(((cx, cy - 1), (cx - 1, cy)) if (dx > 0) == (dy > 0) else ((cx - 1, cy - 1), (cx, cy)))
    return tuple(sorted(out, key=lambda pair: max(pair[0][0], pair[1][0])))


@lru_cache(maxsize=1 << 16)
def flat_ray(dx: int, dy: int, width: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Crossed tiles and corner pairs of (0,0)-(dx,dy) as offsets in a row-major grid ``width`` wide."""
    crossed, corners = walk(dx, dy)
    return (tuple(y * width + x for x, y in crossed),
            tuple((p[1] * width + p[0], q[1] * width + q[0]) for p, q in corners))


def blocked_many(blocked: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each segment a[i]-b[i] (tiles as (x, y) rows, all on the map), whether sight is blocked.

    ``blocked`` is the [y, x] boolean array of tiles that block sight. Segments are grouped by
    length so that padding never more than doubles the work.
    """
    a = np.asarray(a, dtype=np.int64).reshape(-1, 2)
    b = np.asarray(b, dtype=np.int64).reshape(-1, 2)
    out = np.zeros(len(a), dtype=bool)
    if len(a) == 0:
        return out
    width = blocked.shape[1]
    flat = blocked.ravel()
    d = b - a
    big = np.abs(d).max(axis=1)
    group = np.zeros(len(a), dtype=np.int64)
    nz = big > 0
    group[nz] = np.ceil(np.log2(big[nz])).astype(np.int64)
    for g in np.unique(group[nz]):
        idx = np.nonzero(nz & (group == g))[0]
        out[idx] = _blocked_group(flat, width, a[idx], d[idx])
    return out


def _blocked_group(flat: np.ndarray, width: int, a: np.ndarray, d: np.ndarray) -> np.ndarray:
    dx, dy = d[:, 0], d[:, 1]
    swapped = np.abs(dy) > np.abs(dx)
    big = np.where(swapped, np.abs(dy), np.abs(dx))[:, None]
    small = np.where(swapped, np.abs(dx), np.abs(dy))[:, None]
    sx = np.where(dx >= 0, 1, -1)
    sy = np.where(dy >= 0, 1, -1)
    # a step along u or v, as an offset in the flat grid
    step_u = np.where(swapped, sy * width, sx)[:, None]
    step_v = np.where(swapped, sx, sy * width)[:, None]
    base = (a[:, 1] * width + a[:, 0])[:, None]
    u = np.arange(int(big.max()) + 1)[None, :]
    two_a = 2 * big
    n = (2 * u + 1) * small + big
    lo = (n - 2 * small) // two_a
    hi = (n - 1) // two_a
    in_ray = u <= big
    hit = np.zeros(len(a), dtype=bool)
    for v in (lo, lo + 1):
        ok = in_ray & (v <= hi) & ~((u == 0) & (v == 0)) & ~((u == big) & (v == small))
        cells = np.where(ok, base + u * step_u + v * step_v, 0)
        hit |= (flat[cells] & ok).any(axis=1)
    corner = (u < big) & (n % two_a == 0)
    first = np.where(corner, base + (u + 1) * step_u + hi * step_v, 0)
    second = np.where(corner, base + u * step_u + (hi + 1) * step_v, 0)
    hit |= (flat[first] & flat[second] & corner).any(axis=1)
    return hit
