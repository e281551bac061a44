"""Exact odds of every option that rolls dice, from the state given (a side's observation when it asks):
an enemy's PV enter the odds only when that side knows its type (5.15)."""
from __future__ import annotations

from fractions import Fraction
from math import gcd

from ...engine.decision import Option
from ...engine.dice import Dist, mean, sum_of_dice
from ...engine.protocol import Odds
from . import actions as act
from .aerial import between, gunners, range_modifier
from .checks import critical_chance, damage_dist, success_chance, total_dist
from .ground import Strike, knowledge_difficulty
from .model import State, data, difficulty


def odds(state: State, option: Option) -> Odds | None:
    handler = ODDS.get(option.action)
    return handler(state, option) if handler is not None else None


def strike_outcome(state: State, attacker_side: int, target, hit: Fraction, critical: Fraction,
                   weapon: dict, held: bool, protecting: bool) -> Odds:
    """Miss / hit / critical, and knocked out or killed when the attacker's side knows the target's PV."""
    plain = hit - critical

    def taken(is_critical: bool) -> Dist:
        dist = damage_dist(weapon["damage"], is_critical)
        cut = data()["modifiers"]["protect"] if protecting else 0
        out: dict[int, Fraction] = {}
        for v, p in dist.items():
            out[max(0, v + cut)] = out.get(max(0, v + cut), Fraction(0)) + p
        return out

    parts = [(plain, taken(False)), (critical, taken(True))]
    expected = sum((w * mean(d) for w, d in parts if w), Fraction(0))
    details = {"hit": hit, "mean_damage": expected}
    if target.pv is None or not state.knows(attacker_side, target):
        outcomes = {"miss": 1 - hit, "hit": plain, "critical": critical}
        return Odds("attack", {k: v for k, v in outcomes.items() if v}, details)
    con = target.traits["CON"]
    down = dead = Fraction(0)
    for w, dist in parts:
        for dmg, p in dist.items():
            left = max(0, target.pv - dmg) if held else target.pv - dmg
            if held and target.pv <= 0:
                left = target.pv
            if left < -con:
                dead += w * p
            elif left <= 0 < target.pv:
                down += w * p
    outcomes = {"miss": 1 - hit, "hit": hit - down - dead, "knocked_out": down, "killed": dead}
    return Odds("attack", {k: v for k, v in outcomes.items() if v}, details)


def _attack(state: State, o: Option) -> Odds:
    c, t = state.fig(o.figure), state.fig(o.target)
    held = o.action == "hold_back"
    w = act.weapon(o.value)
    if not t.conscious:
        return strike_outcome(state, c.side, t, Fraction(1), Fraction(0), w, held, t.protecting)
    bonus = act.to_hit_bonus(state, c, t, o.value, held)
    return strike_outcome(state, c.side, t, success_chance(bonus, t.initiative), critical_chance(), w, held,
                          t.protecting)


def waiting_strike(state: State) -> Strike:
    return next(s for s in state.steps.upcoming() if isinstance(s, Strike))


def _intercept(state: State, o: Option) -> Odds:
    """Taking the blow: it hits the protector automatically, never as a critical (5.5)."""
    s = waiting_strike(state)
    g = state.fig(o.figure)
    return strike_outcome(state, g.side, g, Fraction(1), Fraction(0), act.weapon(s.weapon), s.held, True)


def _let_through(state: State, o: Option) -> Odds:
    s = waiting_strike(state)
    c, t = state.fig(s.attacker), state.fig(s.target)
    w = act.weapon(s.weapon)
    if not t.conscious:
        return strike_outcome(state, t.side, t, Fraction(1), Fraction(0), w, s.held, t.protecting)
    bonus = act.to_hit_bonus(state, c, t, s.weapon, s.held)
    return strike_outcome(state, t.side, t, success_chance(bonus, t.initiative), critical_chance(), w, s.held,
                          t.protecting)


def _observe(state: State, o: Option) -> Odds:
    c = state.fig(o.figure)
    new = total_dist(c.pair("initiative"))
    better = sum((p for v, p in new.items() if v > c.initiative), Fraction(0))
    return Odds("observe", {k: v for k, v in {"better": better, "same": 1 - better}.items() if v},
                {"mean_initiative": mean({max(v, c.initiative): p for v, p in new.items()})})


def _test(title: str, bonus: int, diff: int) -> Odds:
    p = success_chance(bonus, diff)
    return Odds(title, {k: v for k, v in {"success": p, "failure": 1 - p}.items() if v}, {"chance": p})


def _knowledge(state: State, o: Option) -> Odds:
    c = state.fig(o.figure)
    return _test("knowledge", c.pair("knowledge"), knowledge_difficulty(state, o.value))


def _flee(state: State, o: Option) -> Odds:
    c = state.fig(o.figure)
    return _test("flight", c.pair("flight"), difficulty(data()["flight_difficulty"], "data"))


def _use_item(state: State, o: Option) -> Odds:
    item = data()["items"][o.value]
    b = state.fig(o.target)
    n, sides = item["dice"]
    dist = sum_of_dice(n, sides)
    if item["restores"] == "pe":
        room = b.max_pe - b.pe
    elif b.pv is None:
        return Odds("use_item", {f"restores:{v}": p for v, p in dist.items()}, {"mean_restored": mean(dist)})
    else:
        room = b.max_pv - b.pv
    gained: dict[int, Fraction] = {}
    for v, p in dist.items():
        gained[min(v, room)] = gained.get(min(v, room), Fraction(0)) + p
    return Odds("use_item", {f"restores:{v}": p for v, p in sorted(gained.items())}, {"mean_restored": mean(gained)})


def _interact(state: State, o: Option) -> Odds | None:
    gadget = next((g for g in state.gadgets if g.id == o.value), None)
    if gadget is None or not gadget.test:
        return None
    c = state.fig(o.figure)
    x, y, diff = gadget.test
    return _test("interact", c.stat(x) + c.stat(y), difficulty(diff, gadget.name))


def one_gunner(hit: Fraction, crit: Fraction, dice: list[int]) -> Dist:
    """The damage one gunner's test gives: nothing on a miss, the dice on a hit, twice on a critical."""
    one: dict[int, Fraction] = {0: 1 - hit}
    for w, d in ((hit - crit, damage_dist(dice, False)), (crit, damage_dist(dice, True))):
        for v, p in d.items():
            one[v] = one.get(v, Fraction(0)) + w * p
    return one


def volley_mean(state: State, shooter, target, modifier: int) -> Fraction:
    """Expected damage of a volley: each gunner's expectation, added (5.16.5)."""
    hit = success_chance(shooter.profile["to_hit"] + modifier, target.speed)
    return len(gunners(state, shooter)) * mean(one_gunner(hit, critical_chance(), shooter.profile["damage"]))


def repeat_exact(d: Dist, n: int) -> Dist:
    """Sum of n draws of ``d``, convolved in whole numbers over a common denominator (exact, and fast
    enough for the AI to ask every turn)."""
    den = 1
    for p in d.values():
        den = den * p.denominator // gcd(den, p.denominator)
    counts = {v: int(p * den) for v, p in d.items() if p}
    total = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for a, x in total.items():
            for b, y in counts.items():
                nxt[a + b] = nxt.get(a + b, 0) + x * y
        total = nxt
    return {v: Fraction(c, den ** n) for v, c in total.items()}


def volley_odds(state: State, shooter, target, modifier: int) -> Odds:
    """How many gunners hit, the expected damage, and the chance the volley destroys the target."""
    n = len(gunners(state, shooter))
    hit = success_chance(shooter.profile["to_hit"] + modifier, target.speed)
    total = repeat_exact(one_gunner(hit, critical_chance(), shooter.profile["damage"]), n)
    hits = repeat_exact({0: 1 - hit, 1: hit}, n)
    destroy = sum((p for v, p in total.items() if v >= target.pv), Fraction(0))
    return Odds("fire", {f"hits:{k}": p for k, p in sorted(hits.items()) if p},
                {"chance": hit, "mean_damage": mean(total), "kill": destroy, "gunners": n})


def _fire(state: State, o: Option) -> Odds:
    t = state.transports[o.figure]
    foe = state.transports[o.target]
    return volley_odds(state, t, foe, range_modifier(between(t, foe)))


ODDS = {"attack": _attack, "hold_back": _attack, "intercept": _intercept, "let_through": _let_through,
        "observe": _observe, "knowledge": _knowledge, "flee": _flee, "use_item": _use_item,
        "interact": _interact, "fire": _fire}
