"""Exact odds by enumerating every die (rules/passe_d_armes.md 2.3): opposed attacks against a dodge and
against an absorb, manoeuvres, breaking free, hazards along a path.

Each roll is summed up by its *net score*, score minus the difficulty total: the die d gives the margin
net - d, and an Exploit when d = 1 and net >= 1. The attacker's Exploit benefits are choices (5.4), so
attack odds leave them unspent, as the spec's table does; ``exploit`` says how often there is one.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

from .rolls import Monitor, absorb_wounds, dodge_wounds, effective, helpless_wounds, mark

DIE = range(1, 11)
TENTH = Fraction(1, 10)


def exploit_chance(net: int) -> Fraction:
    return TENTH if net >= 1 else Fraction(0)


def success_chance(net: int) -> Fraction:
    return Fraction(min(10, max(0, net)), 10)


@dataclass(frozen=True)
class AttackOdds:
    """Wounds dealt (``wounds`` n -> chance), the attacker's chance to win the opposition (a manoeuvre's
    success), the defender's chance of an Exploit (a riposte) and the attacker's of one."""

    outcomes: tuple[tuple[int, Fraction], ...]     # (wounds, chance), fewest first: hashable, so cacheable
    win: Fraction
    riposte: Fraction
    exploit: Fraction

    @property
    def wounds(self) -> dict[int, Fraction]:
        return dict(self.outcomes)

    @cached_property
    def mean(self) -> Fraction:
        return sum((n * p for n, p in self.outcomes), Fraction(0))

    @property
    def unhurt(self) -> Fraction:
        return self.wounds.get(0, Fraction(0))


def _dist(counts: dict[int, int], total: int) -> tuple[tuple[int, Fraction], ...]:
    return tuple((n, Fraction(c, total)) for n, c in sorted(counts.items()))


@lru_cache(maxsize=65536)
def attack_odds(net_a: int, index: int, defence: str, net_d: int, protection: int, manoeuvre: str = "") -> AttackOdds:
    """One attack against a defender who ``defence``s ("dodge" or "absorb"; "" for a helpless one).

    A manoeuvre other than botte wounds nobody: its ``wounds`` are {0: 1} and ``win`` is its success,
    an Exploit included (5.3). A botte ignores protection and, on an Exploit, skips the defence roll.
    """
    wounds: dict[int, int] = defaultdict(int)
    win = riposte = 0
    wounding = manoeuvre in ("", "botte")
    if manoeuvre == "botte":
        protection = 0
    if not defence:
        if manoeuvre and not wounding:
            return AttackOdds(((0, Fraction(1)),), Fraction(1), Fraction(0), Fraction(0))
        for da in DIE:
            m_a = net_a - da
            exploit = da == 1 and m_a >= 0
            wounds[helpless_wounds(m_a, index, 0 if exploit else protection)] += 10
            win += 10
        return AttackOdds(_dist(wounds, 100), Fraction(win, 100), Fraction(0), exploit_chance(net_a))
    rule = dodge_wounds if defence == "dodge" else absorb_wounds
    for da in DIE:
        m_a = net_a - da
        if manoeuvre and da == 1 and m_a >= 0:       # an Exploit makes the manoeuvre without a defence roll
            win += 10
            wounds[effective(m_a) + index if wounding else 0] += 10
            continue
        for dd in DIE:
            m_d = net_d - dd
            win += m_a >= m_d
            riposte += dd == 1 and m_d >= 0
            wounds[rule(m_a, m_d, index, protection) if wounding else 0] += 1
    return AttackOdds(_dist(wounds, 100), Fraction(win, 100), Fraction(riposte, 100), exploit_chance(net_a))


@lru_cache(maxsize=4096)
def opposed_win(net_a: int, net_b: int) -> Fraction:
    """The chance that a's margin is at least b's (a wins ties: an attack, breaking free)."""
    return Fraction(sum(1 for da in DIE for db in DIE if net_a - da >= net_b - db), 100)


def initiative_order(net_a: int, net_b: int) -> dict[str, Fraction]:
    """Chances that A acts strictly before B, at the same time, or after (Exploits first, then margin)."""
    first = same = Fraction(0)
    for da in DIE:
        for db in DIE:
            ka = (da == 1 and net_a - da >= 0, net_a - da)
            kb = (db == 1 and net_b - db >= 0, net_b - db)
            first += TENTH * TENTH * (ka > kb)
            same += TENTH * TENTH * (ka == kb)
    return {"first": first, "same": same, "after": 1 - first - same}


def hazard_odds(monitor: Monitor, entries: list[tuple[str, int, int, str]], puissance: int,
                net_of) -> tuple[dict[int, Fraction], dict[Monitor, Fraction]]:
    """The hazards met along a path, in order: each entry is (roll skill, difficulty, wounds after
    protection, nature). ``net_of(monitor, skill, difficulty)`` gives the net score of the roll with that
    monitor's wound modifier, so a wound taken on the way weighs on the next roll. Returns the chance of
    each number of failed rolls, and of each final monitor."""
    states: dict[tuple[Monitor, int], Fraction] = {(monitor, 0): Fraction(1)}
    for skill, difficulty, wounds, nature in entries:
        nxt: dict[tuple[Monitor, int], Fraction] = defaultdict(Fraction)
        for (m, fails), p in states.items():
            if m.helpless:
                nxt[(m, fails)] += p            # a fallen combatant is not walking on
                continue
            ok = success_chance(net_of(m, skill, difficulty))
            if ok:
                nxt[(m, fails)] += p * ok
            if ok < 1:
                nxt[(mark(m, wounds, nature, puissance), fails + 1)] += p * (1 - ok)
        states = dict(nxt)
    fails: dict[int, Fraction] = defaultdict(Fraction)
    finals: dict[Monitor, Fraction] = defaultdict(Fraction)
    for (m, k), p in states.items():
        fails[k] += p
        finals[m] += p
    return dict(sorted(fails.items())), dict(finals)
