"""Attack resolution (rules/eisdrachen.md 4.3-4.5): dodge dice by the defender, then one wound
die per damage point by the attacker, with the prayer rerolls applied automatically.

Rerolls are never a decision: rerolling a failed die can only help its owner, so the module
always takes them (project default).
"""
from __future__ import annotations

import math

from ...engine import events as ev
from ...engine.dice import Dice
from ...engine.events import Event
from .state import Figure, State, const, data


def dodge_on(intelligence: int) -> int:
    return data()["dodge_on"][str(intelligence)]


def wound_fails_on(intelligence: int) -> int:
    return data()["wound_fails_on"][str(intelligence)]


def weapon(name: str) -> dict:
    return data()["arsenal"][name]


def melee_profile(fig: Figure) -> tuple[int, int]:
    """A blade replaces the character's own A and F (4.5)."""
    if fig.blade:
        w = weapon(fig.blade)
        return w["A"], w["F"]
    return fig.A, fig.F


def shot_attacks(base: int, shooter: Figure, target: Figure, turn: int) -> int:
    """Double attacks first, then Dig in halves rounding up (4.9, TV-E15)."""
    n = base * (2 if shooter.has("double_attacks", turn) else 1)
    if target.dug_in:
        n = math.ceil(n / 2)
    return n


def wound_faces(attacker_i: int) -> str:
    """The faces that wound, as the window shows a needed range ("1-3"): a die fails on the table's N+."""
    return f"1-{wound_fails_on(attacker_i) - 1}"


def resolve_attacks(state: State, attacker: Figure, defender: Figure, n: int, force: int,
                    dodge_needed: int | None, dice: Dice, events: list, rule: str, style: str) -> int:
    """Roll dodges (unless ``dodge_needed`` is None) and wounds; apply the loss; return wounds.
    A reroll the enemy sees used shows it the prayer behind it."""
    turn = state.turn
    through = n
    if dodge_needed is not None and n > 0:
        values = dice.roll(n, 6, rule)
        ok = sum(v >= dodge_needed for v in values)
        events.append(ev.dice(defender.id, values, "dodge", rule, needed=dodge_needed, successes=ok,
                              attacker=attacker.id))
        failed = n - ok
        if failed and defender.has("dodge_reroll", turn):
            defender.reveal("dodge_reroll")
            again = dice.roll(failed, 6, rule)
            more = sum(v >= dodge_needed for v in again)
            events.append(ev.dice(defender.id, again, "dodge", rule, needed=dodge_needed, successes=more,
                                  attacker=attacker.id, reroll=True))
            ok += more
        through = n - ok
    points = through * force
    wounds = 0
    if points:
        fails = wound_fails_on(attacker.I)
        values = dice.roll(points, 6, rule)
        wounds = sum(v < fails for v in values)
        events.append(ev.dice(attacker.id, values, "wound", rule, needed=wound_faces(attacker.I), successes=wounds,
                              target=defender.id))
        missed = points - wounds
        if missed and attacker.has("wound_reroll", turn):
            attacker.reveal("wound_reroll")
            again = dice.roll(missed, 6, rule)
            more = sum(v < fails for v in again)
            events.append(ev.dice(attacker.id, again, "wound", rule, needed=wound_faces(attacker.I), successes=more,
                                  target=defender.id, reroll=True))
            wounds += more
    events.append(ev.attack(attacker.id, defender.id, style, through > 0, rule, attacks=n, through=through,
                            damage_points=points, wounds=wounds))
    lose_pv(state, defender, wounds, events, rule)
    return wounds


def lose_pv(state: State, fig: Figure, amount: int, events: list, rule: str) -> None:
    if amount <= 0:
        return
    fig.pv -= amount
    events.append(ev.damaged(fig.id, "pv", amount, max(fig.pv, 0), rule))
    if fig.pv <= 0:
        fig.pv = 0
        fig.alive = False
        fig.hidden = False
        fig.dug_in = False
        events.append(ev.removed(fig.id, "killed", "3.4", tile=list(fig.tile)))


def grenade_hit(state: State, thrower: Figure, victim: Figure, dice: Dice, events: list) -> int:
    """2 attacks of F2, dodge on 5+ whatever the victim's I, wounds by the thrower's I (4.4)."""
    return resolve_attacks(state, thrower, victim, const("grenade_attacks"), const("grenade_force"),
                           const("grenade_dodge_on"), dice, events, "4.4", "ranged")


def strike(state: State, striker: Figure, victim: Figure, dice: Dice, events: list) -> int:
    """One melee strike (4.5): every attack lands, the victim dodges by its own I."""
    a, f = melee_profile(striker)
    doubled = striker.has("double_attacks", state.turn)
    if doubled:
        striker.reveal("double_attacks")
    n = a * (2 if doubled else 1)
    events.append(Event("strike", {"striker": striker.id, "victim": victim.id, "attacks": n, "force": f},
                        rule="4.5"))
    return resolve_attacks(state, striker, victim, n, f, dodge_on(victim.I), dice, events, "4.5", "melee")
