"""Exact odds (rules/eisdrachen.md 6.3): PV-loss distributions built from the same tables the
resolution uses, as Fractions. Distributions are cached by their parameters: the AI asks often."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ...engine.dice import Dist, binomial, compound, with_reroll
from .combat import wound_fails_on


def p_dodge(needed: int | None, reroll: bool) -> Fraction:
    if needed is None:
        return Fraction(0)
    p = Fraction(7 - needed, 6)
    return with_reroll(p) if reroll else p


def p_wound(attacker_i: int, reroll: bool) -> Fraction:
    p = Fraction(wound_fails_on(attacker_i) - 1, 6)
    return with_reroll(p) if reroll else p


@lru_cache(maxsize=4096)
def loss_dist(n: int, force: int, pd: Fraction, pw: Fraction) -> tuple[tuple[int, Fraction], ...]:
    """Wounds dealt by n attacks of the given force: attacks through, then one die per point."""
    through = binomial(n, 1 - pd)
    dist = compound(through, lambda h: binomial(h * force, pw))
    return tuple(sorted(dist.items()))


def attack_loss(n: int, force: int, dodge_needed: int | None, dodge_reroll: bool,
                attacker_i: int, wound_reroll: bool) -> Dist:
    return dict(loss_dist(n, force, p_dodge(dodge_needed, dodge_reroll), p_wound(attacker_i, wound_reroll)))


def labelled(dist: Dist, prefix: str = "pv_lost") -> dict[str, Fraction]:
    return {f"{prefix}:{k}": p for k, p in sorted(dist.items()) if p}


def kill_chance(dist: Dist, pv: int) -> Fraction:
    return sum((p for k, p in dist.items() if k >= pv), Fraction(0))


def melee_losses(first: Dist, first_victim_pv: int, second: Dist | None) -> tuple[Dist, Dist]:
    """PV lost by the first striker's victim and by the first striker, the second strike only
    happening when its striker survived the first (4.5 step 4)."""
    lost_by_first_victim = dict(first)
    survive = sum((p for k, p in first.items() if k < first_victim_pv), Fraction(0))
    if second is None:
        return lost_by_first_victim, {0: Fraction(1)}
    lost_by_first_striker = {k: p * survive for k, p in second.items()}
    lost_by_first_striker[0] = lost_by_first_striker.get(0, Fraction(0)) + (1 - survive)
    return lost_by_first_victim, lost_by_first_striker


def mixture(parts: list[tuple[Fraction, Dist]]) -> Dist:
    out: dict[int, Fraction] = {}
    for w, d in parts:
        for k, p in d.items():
            out[k] = out.get(k, Fraction(0)) + w * p
    return out

