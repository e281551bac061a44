"""Exact odds of a combat phase and of a shot, by going through all 400 pairs of D20 faces (6.3).

Outcomes are labelled from the point of view of the figure whose option it is: "win:<effect>" and
"lose:<effect>" in melee, "hit:<effect>" or "dodged" for a shot, where the effect is what the loser
suffers: push, difficulty, wound (a Vitality point), out (Out of action) or horrible.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ...engine.protocol import Odds
from .combat import Fighter, melee_terms, opposed, penalty, shot_result, shot_terms, tier
from .state import Figure, State, rule

FACES = range(1, 21)
PAIRS = 400
EFFECTS = ("push", "difficulty", "wound", "horrible")


def effect(t: int, loser: Figure) -> str:
    """The name of what tier ``t`` does to ``loser``: tier 2 puts a figure with 1 Vitality Out of action."""
    if t == 2 and loser.vit <= 1:
        return "out"
    return EFFECTS[t]


def bravery_chance(f: Figure, difficulty: int) -> Fraction:
    """The exact chance that ``f`` passes a Bravery test of ``difficulty``: 1D20 + Brav − 3 per token (4.2)."""
    return Fraction(sum(1 for n in FACES if n + f.Brav - penalty(f) >= difficulty), len(FACES))


def melee_tiers(first: Fighter, second: Fighter) -> Counter:
    """Counts over the 400 pairs of (winner 0/1 or None on a tie, tier)."""
    out: Counter = Counter()
    for n1 in FACES:
        for n2 in FACES:
            r = opposed(first, second, n1, n2)
            out[(None, None) if r is None else (r[0], tier(r[1], r[2]))] += 1
    return out


def shot_tiers(shot) -> Counter:
    """Counts over the 400 pairs of the tier a shot inflicts, None when dodged."""
    out: Counter = Counter()
    for ns in FACES:
        for nt in FACES:
            r = shot_result(shot, ns, nt)
            out[None if r is None else tier(*r)] += 1
    return out


def stun_counts(shot) -> Counter:
    """Destabilisation (4.23): "stun" on a hit with a natural 15 or more, "no_effect" on another hit."""
    out: Counter = Counter()
    for ns in FACES:
        for nt in FACES:
            if shot_result(shot, ns, nt) is None:
                out["dodged"] += 1
            else:
                out["stun" if ns >= rule("destabilisation_from") else "no_effect"] += 1
    return out


def _labelled(counts: Counter, label) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for key, n in counts.items():
        name = label(key)
        out[name] = out.get(name, Fraction(0)) + Fraction(n, PAIRS)
    return out


def melee_outcomes(state: State, me: Figure, other: Figure, attacker: Figure, charge: bool, concentrate: bool,
                   modes: dict[str, str]) -> dict[str, Fraction]:
    """One combat phase between ``attacker`` and the other, seen by ``me`` (either of them)."""
    defender = other if me is attacker else me
    a, d = melee_terms(state, attacker, defender, charge, concentrate, modes)
    mine = 0 if me is attacker else 1
    figures = (attacker, defender)

    def label(key):
        winner, t = key
        if winner is None:
            return "tie"
        return f"{'win' if winner == mine else 'lose'}:{effect(t, figures[1 - winner])}"
    return _labelled(melee_tiers(a, d), label)


def melee_odds(state: State, me: Figure, other: Figure, attacker: Figure, charge: bool, concentrate: bool,
               modes: dict[str, str]) -> Odds:
    """Outcomes with the modes declared so far (Normal for the rest); in the details, the outcomes
    against each mode the other fighter may still declare."""
    outcomes = melee_outcomes(state, me, other, attacker, charge, concentrate, modes)
    details: dict = {}
    if other.modes and other.id not in modes:
        for m in rule("modes"):
            details[f"against_{m}"] = melee_outcomes(state, me, other, attacker, charge, concentrate,
                                                     {**modes, other.id: m})
    details["out_of_action"] = sum((p for k, p in outcomes.items() if k in ("win:out", "win:horrible")
                                    and other.vit <= 1), Fraction(0))
    details["own_out_of_action"] = sum((p for k, p in outcomes.items() if k in ("lose:out", "lose:horrible")
                                        and me.vit <= 1), Fraction(0))
    return Odds("melee", outcomes, details)


def shot_outcomes(state: State, shooter: Figure, target: Figure, wid: str, concentrate: bool,
                  double: bool = False) -> dict[str, Fraction]:
    shot = shot_terms(state, shooter, target, wid, concentrate, double)
    if "destabilisation" in shot.weapon["rules"]:
        return _labelled(stun_counts(shot), lambda k: k)
    return _labelled(shot_tiers(shot), lambda t: "dodged" if t is None else f"hit:{effect(t, target)}")


def hit_chance(outcomes: dict[str, Fraction]) -> Fraction:
    return sum((p for k, p in outcomes.items() if k != "dodged"), Fraction(0))


def shot_odds(state: State, shooter: Figure, target: Figure, wid: str, concentrate: bool,
              double: bool = False) -> Odds:
    outcomes = shot_outcomes(state, shooter, target, wid, concentrate, double)
    details: dict = {}
    if double:
        # a miss changes nothing, so a second shot at the same target has the same chance again
        miss = 1 - hit_chance(outcomes)
        details["at_least_one_hit"] = 1 - miss * miss
    return Odds("double" if double else "shoot", outcomes, details)


def template_odds(state: State, firer: Figure, victims: list[Figure], wid: str, concentrate: bool) -> Odds:
    """A blunderbuss: each figure under the template is shot separately (4.21), so the number of enemies
    hit is a sum of independent chances; friends hit are in the details."""
    chances = {v.id: hit_chance(shot_outcomes(state, firer, v, wid, concentrate)) for v in victims}

    def count(side_filter) -> dict[str, Fraction]:
        dist = {0: Fraction(1)}
        for v in victims:
            if not side_filter(v):
                continue
            p = chances[v.id]
            nxt: dict[int, Fraction] = {}
            for k, q in dist.items():
                nxt[k] = nxt.get(k, Fraction(0)) + q * (1 - p)
                nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + q * p
            dist = nxt
        return {f"hits:{k}": q for k, q in sorted(dist.items()) if q}
    enemies = count(lambda v: v.side != firer.side)
    friends = count(lambda v: v.side == firer.side)
    details: dict = {"hit_chance": chances}
    if len(friends) > 1:
        details["friends_hit"] = friends
    return Odds("template", enemies, details)


def bravery_pass(f: Figure) -> Fraction:
    """A Bravery test of the rules' difficulty passes on 1D20 + Brav − tokens ≥ 8 (4.2)."""
    need = rule("bravery_difficulty") - f.Brav + penalty(f)
    return Fraction(sum(1 for n in FACES if n >= need), 20)

