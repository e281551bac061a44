"""The AI's knowledge of the air duel (5.16): the exchange of fire between two transports worked out turn by
turn to the battle's turn limit, as a game of two players, from the exact odds of the volleys.

A turn is one simultaneous group when the speeds are equal (4.4): the first mover (side A in odd turns) moves one case or not and
fires or not; the second sees that, and the damage it will take, and answers; then the held damage lands.
With unequal speeds the faster acts first and its damage lands at once. A destroyed transport loses, both
destroyed together is a draw, and at the turn limit the side that took more of the other's hull wins
(fight.points). The value of a position is, for each side, its chance of winning less its chance of losing, for
every pair of hulls at once (a grid, so that a volley's expectation is one matrix product); each side's
choice is the best for it, the second mover's made knowing the first's volley.

What the duel leaves out, the AI decides by its rules of thumb: boarding, truces and flight (a project
reading: equal crews never board, and neither ship may flee while the speeds are equal), and the track's ends
other than at four cases between (a ship one case from the other end is taken as free to withdraw).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .checks import critical_chance, success_chance
from .model import data
from .odds import one_gunner, repeat_exact

STAY, APPROACH, WITHDRAW = 0, -1, 1
LOOK = 4          # turns looked at to the limit: a position further from it is valued as one this far (the same
                  # first mover), the values then the same to three decimals and the work a sixth


@dataclass(frozen=True)
class Ship:
    """What of a transport the duel turns on: its gun and speed, hull and the crew at its posts."""

    to_hit: int
    damage: tuple[int, int]
    speed: int
    hull: int
    posts: int
    crew: int

    def gunners(self, pe: int) -> int:
        return max(0, min(self.posts, pe, self.crew))


def ship(t, crew: int) -> Ship:
    p = t.profile
    return Ship(p["to_hit"], tuple(p["damage"]), t.speed, t.max_pv, p["posts"], crew)


@lru_cache(maxsize=256)
def volley(shooter: Ship, target: Ship, gap: int, gunners: int) -> np.ndarray:
    """The target's hull after one volley, as a matrix: row its hull before (0 to its whole), column after
    (0 for destroyed)."""
    mod = data()["track"]["modifiers"][str(gap)]
    hit = success_chance(shooter.to_hit + mod, target.speed)
    dist = repeat_exact(one_gunner(hit, critical_chance(), list(shooter.damage)), gunners)
    size = target.hull + 1
    m = np.zeros((size, size))
    m[0, 0] = 1.0
    for before in range(1, size):
        for dmg, p in dist.items():
            m[before, max(0, before - dmg)] += float(p)
    return m


class Duel:
    """The value of every position of one duel, worked out on demand and kept. ``ships`` are side 0's and
    side 1's; ``last`` the battle's last turn. ``horizon`` turns are looked at from the one asked about; past
    them a position is worth what the hulls and energy left say (``rest``), and past the last turn what the
    points say. A value is a pair of grids by hulls, what the position is worth to side 0 and to side 1: a
    win 1, a loss −1, the points' draw 0, and both ships destroyed together ``both_lost`` (side 0's, side 1's):
    each side plays for its own value, knowing the other plays for its own."""

    def __init__(self, ships: tuple[Ship, Ship], last: int, horizon: int | None = None,
                 both_lost: tuple[float, float] = (0.0, 0.0), side_a: int = 0):
        self.ships = ships
        self.side_a = side_a
        self.both_lost = both_lost
        self.last = last
        self.horizon = horizon
        self._values: dict = {}
        self._rests: dict = {}
        self._replies: dict = {}
        hulls = [np.arange(s.hull + 1) for s in ships]
        a, b = np.meshgrid(hulls[0], hulls[1], indexing="ij")
        taken = np.sign((ships[1].hull - b) - (ships[0].hull - a)).astype(float)
        self.points = np.stack([taken, -taken])
        self.hulls = (a, b)

    def ended(self, value: np.ndarray) -> np.ndarray:
        """A value whose row or column 0 (a ship destroyed) is the battle's end."""
        out = value.copy()
        out[:, 0, :] = [[-1.0], [1.0]]
        out[:, :, 0] = [[1.0], [-1.0]]
        out[:, 0, 0] = self.both_lost
        return out

    def rest(self, pe: tuple[int, int]) -> np.ndarray:
        """Past the horizon (the short look of the normal level), a guess: each side fires all its energy left
        at one case between, its total damage taken as normal; each side's chance of destroying the other,
        and the points if neither does."""
        found = self._rests.get(pe)
        if found is None:
            kills = []
            for side in (0, 1):
                s, o = self.ships[side], self.ships[1 - side]
                p = float(success_chance(s.to_hit, o.speed))
                n, sides = s.damage
                mu, var = n * (sides + 1) / 2, n * (sides * sides - 1) / 12
                mean, spread = pe[side] * p * mu, pe[side] * (p * (var + mu * mu) - (p * mu) ** 2)
                hull = self.hulls[1 - side]
                z = (mean - hull + 0.5) / np.sqrt(max(spread, 1e-9) * 2)
                kills.append(0.5 * (1 + np.vectorize(math.erf)(z)) if pe[side] else np.zeros(hull.shape))
            k0, k1 = kills
            both = k0 * k1
            found = self._rests[pe] = np.stack([k0 * (1 - k1) - k1 * (1 - k0) + both * self.both_lost[0],
                                                k1 * (1 - k0) - k0 * (1 - k1) + both * self.both_lost[1]]) \
                + (1 - k0) * (1 - k1) * self.points
        return found

    def value(self, turn: int, gap: int, pe: tuple[int, int], start: int | None = None) -> np.ndarray:
        """The value at the start of ``turn``, before either ship acts."""
        start = turn if start is None else start
        if self.horizon is None and self.last - turn > LOOK:
            turn += 2 * ((self.last - turn - LOOK + 1) // 2)
        if turn > self.last or not (self.ships[0].gunners(pe[0]) or self.ships[1].gunners(pe[1])):
            return self.points
        if self.horizon is not None and turn >= start + self.horizon:
            return self.rest(pe)
        key = (turn, gap, pe, None if self.horizon is None else turn - start)
        found = self._values.get(key)
        if found is None:
            first = self.first(turn)
            found = self._values[key] = self.best(first, self.choices_first(turn, gap, pe, start, first))
        return found

    @staticmethod
    def best(side: int, options: dict) -> np.ndarray:
        """Where each pair of hulls stands once ``side`` takes the option best for it there."""
        stacked = np.stack(list(options.values()))
        pick = np.argmax(stacked[:, side], axis=0)
        return np.take_along_axis(stacked, pick[None, None], axis=0)[0]

    def first(self, turn: int) -> int:
        """Who acts first: the faster; at equal speeds side A (rolled off) in odd turns, B in even ones (4.4)."""
        s0, s1 = self.ships[0].speed, self.ships[1].speed
        if s0 != s1:
            return 0 if s0 > s1 else 1
        return self.side_a if turn % 2 else 1 - self.side_a

    def grouped(self) -> bool:
        return self.ships[0].speed == self.ships[1].speed

    # --- one turn ----------------------------------------------------------------------------

    @staticmethod
    def moves(gap: int, moved: bool = False) -> list[int]:
        if moved:
            return [STAY]
        return [STAY] + ([APPROACH] if gap > 0 else []) + ([WITHDRAW] if gap < 4 else [])

    def fire(self, side: int, gap: int, pe: tuple[int, int], value: np.ndarray) -> np.ndarray:
        """``value`` (by hulls after the volley) by hulls before it: side's volley at ``gap``."""
        n = self.ships[side].gunners(pe[side])
        m = volley(self.ships[side], self.ships[1 - side], gap, n)
        return m @ value if side == 1 else value @ m.T

    @staticmethod
    def spent(pe: tuple[int, int], side: int, n: int) -> tuple[int, int]:
        return (pe[0] - n, pe[1]) if side == 0 else (pe[0], pe[1] - n)

    def shots(self, side: int, pe: tuple[int, int]) -> tuple[bool, ...]:
        return (False, True) if self.ships[side].gunners(pe[side]) else (False,)

    def answers(self, turn: int, gap: int, pe: tuple[int, int], start: int, second: int,
                moved: bool = False) -> dict[tuple[int, bool], np.ndarray]:
        """The second mover's options (the first mover's damage already known): its move, then its volley
        or not, then the turn's held damage lands."""
        out = {}
        for m in self.moves(gap, moved):
            g = gap + m
            for shoot in self.shots(second, pe):
                after = self.spent(pe, second, self.ships[second].gunners(pe[second])) if shoot else pe
                value = self.ended(self.value(turn + 1, g, after, start))
                out[(m, shoot)] = self.fire(second, g, pe, value) if shoot else value
        return out

    def reply(self, turn: int, gap: int, pe: tuple[int, int], start: int, second: int) -> np.ndarray:
        key = (turn, gap, pe, None if self.horizon is None else turn - start)
        found = self._replies.get(key)
        if found is None:
            found = self._replies[key] = self.best(second, self.answers(turn, gap, pe, start, second))
        return found

    def choices_first(self, turn: int, gap: int, pe: tuple[int, int], start: int, first: int,
                      moved: bool = False) -> dict[tuple[int, bool], np.ndarray]:
        """The first mover's options, each valued at the start of its activation, the answer the second
        mover likes best assumed (at horizon 0, the guess of ``rest`` instead)."""
        second = 1 - first
        out = {}
        for m in self.moves(gap, moved):
            g = gap + m
            for shoot in self.shots(first, pe):
                after = self.spent(pe, first, self.ships[first].gunners(pe[first])) if shoot else pe
                if self.horizon == 0:
                    reply = self.rest(after)
                else:
                    reply = self.reply(turn, g, after, start, second)
                if shoot and not self.grouped():
                    reply = self.ended(reply)
                out[(m, shoot)] = self.fire(first, g, pe, reply) if shoot else reply
        return out


@lru_cache(maxsize=16)
def duel(ships: tuple[Ship, Ship], last: int, horizon: int | None, both_lost: tuple[float, float],
         side_a: int = 0) -> Duel:
    """One duel's values, kept for the whole process: the positions of a battle are those of the next."""
    return Duel(ships, last, horizon, both_lost, side_a)
