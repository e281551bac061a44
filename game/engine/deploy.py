"""Deployment: where each side's figures start, shared by every rule module.

A side starts on its spawn zone; a map with no zone (or too small a one) lends the side its own
half of the map, nearest the zone first. An army larger than the ground it may stand on is cut
to fit, first figures first, so even a tiny foreign map plays one against one.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from ..errors import RulesError
from .battlefield import Battlefield, Tile


def _spread(xs: np.ndarray, ys: np.ndarray, anchor: tuple[float, float], mirror: int | None = None) -> list[Tile]:
    """Nearest the anchor first (ties by x, then y), every other tile before the rest so figures do
    not start in a clump. With ``mirror`` (the map's last column) x counts from the east edge, so that
    side 1 stands on the mirror image of the tiles side 0 would take on a mirrored map."""
    xs, ys = np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64)
    us, au = (xs, anchor[0]) if mirror is None else (mirror - xs, mirror - anchor[0])
    order = np.lexsort((ys, us, (us - au) ** 2 + (ys - anchor[1]) ** 2))
    even = ((us % 2 == 0) & (ys % 2 == 0))[order]
    order = np.concatenate([order[even], order[~even]])
    return list(zip(xs[order].tolist(), ys[order].tolist()))


def start_tiles(bf: Battlefield, side: int, taken: Iterable[Tile] = ()) -> list[Tile]:
    """Free standable start tiles for one side, best first."""
    taken = set(taken)
    zone = [tuple(t) for t in bf.spawn.get(side, [])]
    anchor_tiles = zone or [(0 if side == 0 else bf.width - 1, bf.height // 2)]
    anchor = (sum(t[0] for t in anchor_tiles) / len(anchor_tiles),
              sum(t[1] for t in anchor_tiles) / len(anchor_tiles))
    usable = [t for t in zone if bf.can_stand(t) and t not in taken]
    spare = bf.stand_mask() & ((np.arange(bf.width) < bf.width / 2) == (side == 0))[None, :]
    for x, y in taken | set(usable):
        if bf.inside((x, y)):
            spare[y, x] = False
    ys, xs = np.nonzero(spare)
    mirror = bf.width - 1 if side == 1 else None
    return _spread([t[0] for t in usable], [t[1] for t in usable], anchor, mirror) + _spread(xs, ys, anchor, mirror)


def deploy(bf: Battlefield, sides: dict[int, list[dict]]) -> dict[int, list[tuple[dict, Tile]]]:
    """Pair every figure spec that fits with its start tile; a spec with its own "tile" keeps it."""
    fixed = [tuple(spec["tile"]) for specs in sides.values() for spec in specs if "tile" in spec]
    for tile in fixed:
        if fixed.count(tile) > 1:
            raise RulesError("armies", f"two figures cannot stand on tile {tile}")
    taken = set(fixed)
    placed: dict[int, list[tuple[dict, Tile]]] = {}
    for side, specs in sorted(sides.items()):
        free = iter(start_tiles(bf, side, taken))
        placed[side] = []
        for spec in specs:
            tile = tuple(spec["tile"]) if "tile" in spec else next(free, None)
            if tile is None:
                break
            taken.add(tile)
            placed[side].append((spec, (int(tile[0]), int(tile[1]))))
        if not placed[side] and specs:
            raise RulesError("map", f"no tile where side {side} may stand: the map is too small to play on")
    return placed
