"""One battlefield's line of sight (conventions.md section 5), cached: the engine's only LOS memo.

``Battlefield.sight()`` hands out the Sight for the doors as they are now and builds a new one when
a door or a sight-blocking tile changed, so no answer ever outlives the ground it was traced on.
Single questions walk one ray (shared by offset between battlefields of one width) and are
remembered by pair; the batched forms answer many pairs with numpy in one go for the AI and the
window.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from . import rays

Tile = tuple[int, int]

MEMO_LIMIT = 1 << 18        # remembered pairs (about 25 MB); the memo starts afresh past it


class Sight:
    """Who sees whom on one fixed set of sight-blocking tiles."""

    def __init__(self, blocked: np.ndarray):
        self.blocked = np.array(blocked, dtype=bool)
        self.blocked.flags.writeable = False
        self.height, self.width = self.blocked.shape
        self._bytes = self.blocked.tobytes()
        self._padded = np.pad(self.blocked, 1, constant_values=True)
        self._area = self.width * self.height
        self.memo: dict[int, bool] = {}

    def __call__(self, a: Tile, b: Tile) -> bool:
        """Symmetric centre-to-centre line of sight; the map edge and outside it block."""
        ax, ay = a
        bx, by = b
        w = self.width
        if not (0 <= ax < w and 0 <= bx < w and 0 <= ay < self.height and 0 <= by < self.height):
            return self._off_map(a, b)
        pa, pb = ay * w + ax, by * w + bx
        key = pa * self._area + pb if pa <= pb else pb * self._area + pa
        seen = self.memo.get(key)
        if seen is None:
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            seen = self.memo[key] = self._trace(pa, bx - ax, by - ay)
        return seen

    def _trace(self, start: int, dx: int, dy: int) -> bool:
        crossed, corners = rays.flat_ray(dx, dy, self.width)
        blocked = self._bytes
        for o in crossed:
            if blocked[start + o]:
                return False
        for p, q in corners:
            if blocked[start + p] and blocked[start + q]:
                return False
        return True

    def _off_map(self, a: Tile, b: Tile) -> bool:
        """A segment with an end off the map: tiles off the map block like walls."""
        def blocks(x: int, y: int) -> bool:
            return not (0 <= x < self.width and 0 <= y < self.height) or bool(self._bytes[y * self.width + x])
        crossed, corners = rays.walk(b[0] - a[0], b[1] - a[1])
        if any(blocks(a[0] + x, a[1] + y) for x, y in crossed):
            return False
        return not any(blocks(a[0] + p[0], a[1] + p[1]) and blocks(a[0] + q[0], a[1] + q[1]) for p, q in corners)

    def many(self, a: Sequence[Tile], b: Sequence[Tile]) -> np.ndarray:
        """Line of sight for each pair a[k]-b[k]: from the memo, the rest traced together with numpy."""
        a = np.asarray(a, dtype=np.int64).reshape(-1, 2)
        b = np.asarray(b, dtype=np.int64).reshape(-1, 2)
        out = np.ones(len(a), dtype=bool)
        w, h = self.width, self.height
        on = ((a >= 0) & (a < (w, h)) & (b >= 0) & (b < (w, h))).all(axis=1)
        for k in np.nonzero(~on)[0].tolist():
            out[k] = self._off_map(tuple(a[k].tolist()), tuple(b[k].tolist()))
        rows = np.nonzero(on)[0]
        pa = a[rows, 1] * w + a[rows, 0]
        pb = b[rows, 1] * w + b[rows, 0]
        keys = (np.minimum(pa, pb) * self._area + np.maximum(pa, pb)).tolist()
        memo = self.memo
        known = [memo.get(k) for k in keys]
        todo: dict[int, int] = {}
        for n, seen in enumerate(known):
            if seen is None:
                todo.setdefault(keys[n], n)
        if todo:
            sel = rows[list(todo.values())]
            seen = (~rays.blocked_many(self._padded, a[sel], b[sel])).tolist()
            if len(memo) + len(todo) > MEMO_LIMIT:
                memo.clear()
            memo.update(zip(todo, seen))
            known = [memo[k] if s is None else s for k, s in zip(keys, known)]
        out[rows] = known
        return out

    def matrix(self, origins: Sequence[Tile], targets: Sequence[Tile]) -> np.ndarray:
        """``out[i, j]``: origins[i] sees targets[j]."""
        o = np.asarray(origins, dtype=np.int64).reshape(-1, 2)
        t = np.asarray(targets, dtype=np.int64).reshape(-1, 2)
        i, j = np.divmod(np.arange(len(o) * len(t)), max(1, len(t)))
        return self.many(o[i], t[j]).reshape(len(o), len(t))

    def pairs(self, tiles: Iterable[Tile]) -> np.ndarray:
        """The symmetric matrix of who sees whom among ``tiles`` (everyone sees their own tile)."""
        t = np.asarray(list(tiles), dtype=np.int64).reshape(-1, 2)
        i, j = np.triu_indices(len(t), 1)
        out = np.ones((len(t), len(t)), dtype=bool)
        seen = self.many(t[i], t[j])
        out[i, j] = seen
        out[j, i] = seen
        return out
