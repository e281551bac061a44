"""Dice: one seeded generator per match, and exact outcome distributions as fractions.

A ``Dice`` object is the only source of randomness a rule module may use. Every roll
is recorded with the rule that asked for it, so events can show every die.
"""
from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable

Dist = dict[int, Fraction]


@dataclass
class Roll:
    sides: int
    values: tuple[int, ...]
    rule: str


@dataclass
class Dice:
    """Seeded dice. ``rolls`` keeps every roll made since the last ``take_rolls``."""

    seed: int
    rolls: list[Roll] = field(default_factory=list)
    count: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def _next(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def roll(self, n: int, sides: int = 6, rule: str = "") -> list[int]:
        values = [self._next(sides) for _ in range(n)]
        self.count += n
        self.rolls.append(Roll(sides, tuple(values), rule))
        return values

    def d(self, sides: int = 6, rule: str = "") -> int:
        return self.roll(1, sides, rule)[0]

    def take_rolls(self) -> list[Roll]:
        out, self.rolls = self.rolls, []
        return out


class ScriptedDice(Dice):
    """Dice that return listed values in order: test vectors state their dice this way."""

    def __init__(self, values: Iterable[int]):
        self._values = list(values)
        super().__init__(seed=0)

    def _next(self, sides: int) -> int:
        if not self._values:
            raise AssertionError("scripted dice exhausted")
        v = self._values.pop(0)
        assert 1 <= v <= sides, f"scripted die {v} is not a d{sides}"
        return v

    @property
    def left(self) -> list[int]:
        return list(self._values)


def roll_off(dice: Dice, sides: int, rule: str) -> tuple[int, list[tuple[int, int]]]:
    """One die per side until they differ: the side with the higher die wins. Returns the winner and
    every pair rolled (side 0's die first), so a module can show each one."""
    pairs = []
    while True:
        a, b = dice.roll(2, sides, rule)
        pairs.append((a, b))
        if a != b:
            return (0 if a > b else 1), pairs


# --- exact distributions ---------------------------------------------------------

def point(v: int) -> Dist:
    return {v: Fraction(1)}


def uniform_die(sides: int = 6) -> Dist:
    return {v: Fraction(1, sides) for v in range(1, sides + 1)}


def chance(successes: int, sides: int = 6) -> Fraction:
    return Fraction(successes, sides)


def bernoulli(p: Fraction) -> Dist:
    return {k: v for k, v in ((0, 1 - p), (1, p)) if v}


def add(a: Dist, b: Dist) -> Dist:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] += px * py
    return dict(out)


def repeat(d: Dist, n: int) -> Dist:
    """Sum of n independent draws of d."""
    out = point(0)
    for _ in range(n):
        out = add(out, d)
    return out


def binomial(n: int, p: Fraction) -> Dist:
    return repeat(bernoulli(Fraction(p)), n)


def compound(count: Dist, each: Callable[[int], Dist]) -> Dist:
    """Mix ``each(k)`` over k drawn from ``count``: e.g. wounds given hits."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for k, pk in count.items():
        for v, pv in each(k).items():
            out[v] += pk * pv
    return dict(out)


def map_values(d: Dist, f: Callable[[int], int]) -> Dist:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for v, p in d.items():
        out[f(v)] += p
    return dict(out)


def with_reroll(p: Fraction) -> Fraction:
    """Success chance of a die that may be rerolled once on failure."""
    return p + (1 - p) * p


def successes(n: int, needed: int, sides: int = 6) -> Dist:
    """Number of dice of an n-dice pool that reach ``needed`` or more."""
    return binomial(n, Fraction(max(0, min(sides, sides - needed + 1)), sides))


def mixture(parts: list[tuple[Fraction, Dist]]) -> Dist:
    """A distribution drawn from ``parts`` with their weights (e.g. over the landing of a grenade)."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for weight, d in parts:
        for v, p in d.items():
            out[v] += weight * p
    return dict(out)


def keep_best(n: int, sides: int = 6) -> Dist:
    """Highest of n dice."""
    return {v: Fraction(v ** n - (v - 1) ** n, sides ** n) for v in range(1, sides + 1)}


def keep_worst(n: int, sides: int = 6) -> Dist:
    """Lowest of n dice."""
    return {v: Fraction((sides - v + 1) ** n - (sides - v) ** n, sides ** n) for v in range(1, sides + 1)}


def sum_of_dice(n: int, sides: int = 6) -> Dist:
    return repeat(uniform_die(sides), n)


def at_least(d: Dist, v: int) -> Fraction:
    return sum((p for k, p in d.items() if k >= v), Fraction(0))


def mean(d: Dist) -> Fraction:
    return sum((k * p for k, p in d.items()), Fraction(0))


def opposed(a: Dist, b: Dist) -> dict[str, Fraction]:
    """Chances that a beats, ties or loses to b (e.g. opposed D20 rolls)."""
    win = tie = lose = Fraction(0)
    for x, px in a.items():
        for y, py in b.items():
            if x > y:
                win += px * py
            elif x == y:
                tie += px * py
            else:
                lose += px * py
    return {"win": win, "tie": tie, "lose": lose}


def sample(d: Dist, rng: random.Random) -> int:
    """Draw from a distribution (for tests comparing odds with simulation only)."""
    r, acc = rng.random(), 0.0
    for k in sorted(d):
        acc += float(d[k])
        if r < acc:
            return k
    return max(d)
