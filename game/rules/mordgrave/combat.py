"""The numbers of a fight or a shot as pure functions of the state (rules/mordgrave.md 4.1–4.9, 4.14–4.23).

A combat phase and a shot are both an opposed 1D20 roll: ``melee_terms`` and ``shot_terms`` give every
modifier of both scores and of the margin, so the resolution (steps.py) and the exact odds (odds.py)
read them from one place.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...engine import space
from ...engine.battlefield import Tile
from .state import Figure, State, data, rule

NORMAL = "normal"


# --- profile and loadout -----------------------------------------------------------------

def melee_weapon(f: Figure) -> dict | None:
    return data()["melee"][f.main] if f.main else None


def ranged_weapon(wid: str) -> dict:
    return data()["ranged"][wid]


def has_rule(weapon: dict | None, name: str) -> bool:
    return weapon is not None and name in weapon["rules"]


def penalty(f: Figure) -> int:
    """Great difficulty: −3 per token to Comb, Tir, Brav and Psy (4.2)."""
    return rule("difficulty_penalty") * len(f.tokens)


def mouv(f: Figure) -> int:
    """Effective Movement: heavy armour gives −1 (4.15)."""
    return f.Mouv + data()["armour"][f.armour]["mouv"]


def two_handed_blade(f: Figure) -> bool:
    """An Elven blade is held in both hands when the other hand is free (4.22)."""
    return has_rule(melee_weapon(f), "versatile") and f.shield == "none" and f.second is None


def weapon_damage(f: Figure) -> int:
    w = melee_weapon(f)
    if w is None:
        return 0
    return w["two_handed_damage"] if two_handed_blade(f) else w["damage"]


def second_bonus(f: Figure) -> dict:
    if f.second is None:
        return {"combat": 0, "damage": 0}
    return rule("second_weapon")[data()["melee"][f.second]["category"]]


def weapon_combat(f: Figure) -> int:
    """Combat from the main weapon, the Hands-free item and the second weapon (4.1 step 3)."""
    total = melee_weapon(f)["combat"] if f.main else 0
    if f.hands_free:
        total += data()["melee"][f.hands_free]["combat"]
    return total + second_bonus(f)["combat"]


def armour_def(f: Figure) -> int:
    return f.Def + data()["armour"][f.armour]["def"] + data()["cloaks"][f.cloak]["def"]


def critical(weapon: dict | None) -> tuple[int, int]:
    """(lowest natural roll that is a critical, its bonus): a natural 20, or 19–20 with Double critical
    range; +3, or +5 with a barbed weapon (4.3)."""
    start = rule("double_critical_from") if has_rule(weapon, "double_critical") else rule("critical_from")
    return start, rule("barbed_critical_bonus") if has_rule(weapon, "barbed") else rule("critical_bonus")


def critical_bonus(crit: tuple[int, int], natural: int) -> int:
    return crit[1] if natural >= crit[0] else 0


def armour_rules_def(weapon: dict | None, target: Figure) -> int:
    """The weapon's "Def −1 against heavy / light armour" (4.14)."""
    return -int(has_rule(weapon, "def_minus_heavy") and target.armour == "heavy") \
        - int(has_rule(weapon, "def_minus_light") and target.armour == "light")


def tier(margin: int, defence: int) -> int:
    """The outcome ladder (4.2): 0 push-back, 1 Great difficulty, 2 Vitality, 3 Horrible wound."""
    if margin <= defence:
        return 0
    if margin <= 2 * defence:
        return 1
    if margin <= 3 * defence:
        return 2
    return 3


# --- contact ---------------------------------------------------------------------------------

def enemies_touching(state: State, f: Figure) -> list[Figure]:
    return [g for g in state.living() if g.side != f.side and space.adjacent(g.tile, f.tile)]


def engaged(state: State, f: Figure) -> bool:
    """In base contact with an enemy (4.0)."""
    return any(g.side != f.side and space.adjacent(g.tile, f.tile) for g in state.living())


def outnumbering(state: State, f: Figure, o: Figure) -> int:
    """+2 per ally of ``f`` also in contact with ``o``, when no ally of ``o`` touches them (4.5)."""
    allies = [g for g in state.living(f.side) if g is not f and space.adjacent(g.tile, o.tile)]
    if not allies:
        return 0
    group = [f] + allies
    if any(h is not o and any(space.adjacent(h.tile, m.tile) for m in group) for h in state.living(o.side)):
        return 0
    return rule("outnumber_bonus") * len(allies)


def supporters(state: State, f: Figure) -> list[Figure]:
    """Allies in contact with ``f`` that hold a weapon with Support from behind and are not engaged (4.17)."""
    return [g for g in state.living(f.side) if g is not f and space.adjacent(g.tile, f.tile)
            and has_rule(melee_weapon(g), "support") and not engaged(state, g)]


# --- a combat phase --------------------------------------------------------------------------

@dataclass(frozen=True)
class Fighter:
    """One side of a combat phase: what is added to its die, and, should it win, to the margin; and its
    Defence should it lose (4.1 steps 3, 5, 6); its weapon's ``critical`` (4.3)."""

    score: int
    damage: int
    defence: int
    critical: tuple[int, int]


def melee_terms(state: State, attacker: Figure, defender: Figure, charge: bool, concentrate: bool,
                modes: dict[str, str]) -> tuple[Fighter, Fighter]:
    """Both fighters' terms; ``modes`` maps a figure id to its declared combat mode (4.19)."""
    table = rule("modes")
    out = []
    for f, o in ((attacker, defender), (defender, attacker)):
        mode = table[modes.get(f.id, NORMAL)]
        score = f.Comb + weapon_combat(f) + outnumbering(state, f, o) \
            + rule("support_bonus") * len(supporters(state, f)) - penalty(f)
        if f is attacker and concentrate:
            score += rule("concentrate_bonus")
        damage = weapon_damage(f) + second_bonus(f)["damage"] + mode["damage"]
        if f is attacker and charge:
            damage += rule("charge_damage")
        if has_rule(melee_weapon(o), "opponent_damage_minus"):
            damage -= 1
        shield = data()["shields"][f.shield]["melee"] if not has_rule(melee_weapon(o), "ignores_shield") else 0
        defence = armour_def(f) + shield + mode["def"] + armour_rules_def(melee_weapon(o), f)
        out.append(Fighter(score, damage, defence, critical(melee_weapon(f))))
    return out[0], out[1]


def opposed(first: Fighter, second: Fighter, n1: int, n2: int) -> tuple[int, int, int] | None:
    """(winner 0 or 1, margin, loser's Defence) of one roll of both dice; None on a tie (4.1 step 4)."""
    s1, s2 = n1 + first.score, n2 + second.score
    if s1 == s2:
        return None
    w, l, nat = (first, second, n1) if s1 > s2 else (second, first, n2)
    return (0 if s1 > s2 else 1), abs(s1 - s2) + w.damage + critical_bonus(w.critical, nat), l.defence


# --- shooting --------------------------------------------------------------------------------

def short_range(weapon: dict) -> int:
    """p: short range is a third of the range (4.6)."""
    return weapon["range"] // 3


def band(weapon: dict, a: Tile, b: Tile) -> int | None:
    """0 short, 1 medium, 2 long, None out of range (4.6)."""
    p = short_range(weapon)
    for i in range(3):
        if space.within(a, b, p * (i + 1)):
            return i
    return None


def cover_bonus(state: State, origin: Tile, target: Tile) -> int:
    return rule("cover_bonus")[int(space.cover_level(state.battlefield, origin, target))]


@dataclass(frozen=True)
class Shot:
    """A shot's terms: the shooter's and the target's score modifiers, damage, ranged Defence and the
    weapon's critical (4.7)."""

    shooter: int
    target: int
    damage: int
    defence: int
    critical: tuple[int, int]
    weapon: dict


def shot_terms(state: State, shooter: Figure, target: Figure, wid: str, concentrate: bool,
               double: bool = False) -> Shot:
    w = ranged_weapon(wid)
    bonus = 0 if "template" in w else rule("range_bonus")[band(w, shooter.tile, target.tile)]
    score = shooter.Tir + bonus - penalty(shooter)
    if concentrate:
        score += rule("concentrate_bonus")
    if double:
        score -= rule("double_shot_penalty")
    dodge = target.Comb + cover_bonus(state, shooter.tile, target.tile) - penalty(target)
    defence = armour_def(target) + data()["shields"][target.shield]["ranged"] + armour_rules_def(w, target)
    return Shot(score, dodge, w["damage"], defence, critical(w), w)


def shot_result(shot: Shot, n_shooter: int, n_target: int) -> tuple[int, int] | None:
    """(margin, Defence) when the shot lands; None when the target dodges (ties favour it, 4.7 step 3)."""
    s, t = n_shooter + shot.shooter, n_target + shot.target
    if t >= s:
        return None
    return s - t + shot.damage + critical_bonus(shot.critical, n_shooter), shot.defence


def template_tiles(state: State, f: Figure, wid: str, aim: Tile) -> list[Tile]:
    """The tiles under a template weapon aimed from ``f`` at ``aim`` (4.21)."""
    shape = ranged_weapon(wid)["template"]
    return space.triangle_template(state.battlefield, f.tile, aim, shape["length"], shape["half_width"])


def may_shoot_at(state: State, shooter: Figure, wid: str, target: Figure) -> bool:
    """No shooting into or out of melee, save Destabilisation at an enemy in contact (4.7, 4.9, 4.23)."""
    w = ranged_weapon(wid)
    if "template" in w or target.side == shooter.side or not target.alive:
        return False
    bf = state.battlefield
    if engaged(state, shooter):
        if not (has_rule(w, "destabilisation") and space.adjacent(shooter.tile, target.tile)):
            return False
    elif engaged(state, target):
        return False
    return band(w, shooter.tile, target.tile) is not None and space.line_of_sight(bf, shooter.tile, target.tile)


def push_tile(state: State, loser: Figure, origin: Tile) -> Tile | None:
    """One step directly away from ``origin``, or None when it is taken, not enterable or cuts a corner
    (4.2 push-back)."""
    d = (int(math.copysign(1, loser.tile[0] - origin[0])) if loser.tile[0] != origin[0] else 0,
         int(math.copysign(1, loser.tile[1] - origin[1])) if loser.tile[1] != origin[1] else 0)
    if d == (0, 0):
        return None
    return step_to(state, loser, d)


def step_to(state: State, f: Figure, d: tuple[int, int]) -> Tile | None:
    """The tile one legal walking step ``d`` away that ``f`` may stop on, or None."""
    bf = state.battlefield
    to = (f.tile[0] + d[0], f.tile[1] + d[1])
    enemies = {g.tile for g in state.living() if g.side != f.side}
    if state.at(to) is not None or not bf.can_stand(to) or not space.step_legal(bf, f.tile, d, space.WALK, enemies):
        return None
    return to
