"""What a combatant may do where it stands (4.3, 4.5, 5.4–5.8, 5.15): pure functions of the state that
the steps, the odds and the AI share. Options carry plain keys; the steps resolve them."""
from __future__ import annotations

from ...engine import space
from ...engine.battlefield import Door, Tile
from ...engine.decision import Option
from .model import Combatant, State, data

MOVE_RULES = space.MoveRules(terrain_costs=True)
# every combat action of 4.3 and 5.8, for the words of the action bar
COMBAT_ACTIONS = ("attack", "hold_back", "observe", "protect", "use_item", "swap_weapon", "pass_item",
                  "sprint", "pick_up", "interact", "wait")


def weapon(wid: str) -> dict:
    return data()["weapons"][wid]


def is_weapon(thing: str) -> bool:
    return thing in data()["weapons"]


def fighting(state: State) -> list[Combatant]:
    """The combatants of the fight under way who are on the map (standing or lying)."""
    fight = state.fight
    members = set(fight.members) if fight is not None else set()
    return [c for c in state.on_map() if c.id in members]


def enemies(state: State, c: Combatant) -> list[Combatant]:
    return [o for o in fighting(state) if o.side != c.side]


def allies(state: State, c: Combatant) -> list[Combatant]:
    return [o for o in fighting(state) if o.side == c.side and o.id != c.id]


def melee_reach(state: State, a: Tile, b: Tile) -> bool:
    """Adjacent, and a diagonal neighbour only if neither tile of that corner blocks movement (4.5)."""
    if not space.adjacent(a, b):
        return False
    if a[0] != b[0] and a[1] != b[1]:
        bf = state.battlefield
        return not (bf.stops_walker((b[0], a[1])) or bf.stops_walker((a[0], b[1])))
    return True


def can_strike(state: State, c: Combatant, target: Combatant, wid: str) -> bool:
    """Whether ``wid`` reaches ``target`` from where ``c`` stands (5.6 preconditions)."""
    w = weapon(wid)
    if w["firearm"] and c.pe < w["pe"]:
        return False
    if w["type"] == "melee":
        return melee_reach(state, c.tile, target.tile)
    return space.within(c.tile, target.tile, w["range"]) and \
        space.line_of_sight(state.battlefield, c.tile, target.tile)


def strike_weapons(c: Combatant) -> list[str]:
    """The weapon in hand, and bare hands when the hand holds no melee weapon (a melee weapon always
    does at least as well, so bare hands are offered only beside a bow or gun, or an empty hand)."""
    hands = data()["bare_hands"]
    if c.weapon is None:
        return [hands]
    return [c.weapon] if weapon(c.weapon)["type"] == "melee" else [c.weapon, hands]


def cover_modifier(state: State, shooter: Tile, target: Tile, wid: str) -> int:
    if weapon(wid)["type"] == "melee":
        return 0
    level = space.cover_level(state.battlefield, shooter, target)
    return data()["modifiers"]["cover"][("none", "light", "heavy")[int(level)]]


def to_hit_bonus(state: State, c: Combatant, target: Combatant, wid: str, held: bool) -> int:
    """Characteristics of the weapon type plus modifiers: holding back −2, cover −2 (5.6, 5.14, 4.5)."""
    w = weapon(wid)
    bonus = c.pair(w["type"]) + cover_modifier(state, c.tile, target.tile, wid)
    return bonus + (data()["modifiers"]["hold_back"] if held else 0)


def attack_options(state: State, c: Combatant) -> list[Option]:
    out = []
    for t in enemies(state, c):
        for wid in strike_weapons(c):
            if can_strike(state, c, t, wid):
                for action in ("attack", "hold_back"):
                    out.append(Option(f"{action}:{t.id}:{wid}", action, c.id, target=t.id, value=wid))
    return out


def move_options(state: State, c: Combatant, action: str) -> list[Option]:
    """Tiles ``c`` can end a move of up to MOV pas on: enemies block, allies may be passed (4.5)."""
    bf = state.battlefield
    occupied = state.occupied()
    foes = {t for t, o in occupied.items() if o.side != c.side}
    reach = space.reach(bf, c.tile, c.mov, MOVE_RULES, foes)
    out = []
    for t in sorted(reach.cost):
        if t != c.tile and t not in occupied and bf.can_stand(t):
            out.append(Option(f"{action}:{t[0]},{t[1]}", action, c.id, t, path=tuple(reach.path(t)),
                              cost=round(reach.cost[t], 3)))
    return out


def item_options(state: State, c: Combatant) -> list[Option]:
    """Use an item on oneself or an adjacent ally, conscious or not (5.7)."""
    out = []
    beneficiaries = [c] + [a for a in allies(state, c) if space.adjacent(a.tile, c.tile)]
    for item in sorted(set(c.items)):
        for b in beneficiaries:
            out.append(Option(f"use:{item}:{b.id}", "use_item", c.id, target=b.id, value=item))
    return out


def free_weapon_slot(c: Combatant) -> bool:
    return c.weapon is None or c.carried is None


def free_slot_for(c: Combatant, thing: str) -> bool:
    return free_weapon_slot(c) if is_weapon(thing) else len(c.items) < data()["item_slots"]


def pass_options(state: State, c: Combatant) -> list[Option]:
    things = sorted(set(c.items)) + [w for w in (c.weapon, c.carried) if w]
    out = []
    for a in allies(state, c):
        if space.adjacent(a.tile, c.tile):
            for thing in things:
                if free_slot_for(a, thing):
                    out.append(Option(f"pass:{thing}:{a.id}", "pass_item", c.id, target=a.id, value=thing))
    return out


def pickup_options(state: State, c: Combatant) -> list[Option]:
    return [Option(f"pick:{i.id}", "pick_up", c.id, i.tile, value=i.thing) for i in state.items
            if (i.tile == c.tile or space.adjacent(i.tile, c.tile)) and free_slot_for(c, i.thing)]


def door_options(state: State, c: Combatant) -> list[Option]:
    bf = state.battlefield
    occupied = state.occupied()
    out = []
    for t in space.neighbours(c.tile):
        if not bf.inside(t):
            continue
        door = bf.feature("door", t)
        if door == Door.OPEN and t not in occupied:
            out.append(Option(f"door:{t[0]},{t[1]}", "interact", c.id, t, value="close"))
        elif door == Door.CLOSED:
            out.append(Option(f"door:{t[0]},{t[1]}", "interact", c.id, t, value="open"))
    return out


def gadget_options(state: State, c: Combatant) -> list[Option]:
    return [Option(f"gadget:{g.id}", "interact", c.id, g.tiles[0], value=g.id) for g in state.gadgets
            if not g.used and any(t == c.tile or space.adjacent(t, c.tile) for t in g.tiles)]


def knowledge_options(state: State, c: Combatant) -> list[Option]:
    """Enemy types in sight that neither ``c`` has tested nor its side knows (5.15)."""
    bf = state.battlefield
    kinds = sorted({e.kind for e in enemies(state, c)
                    if e.kind not in c.tested and e.kind not in state.known[c.side]
                    and space.line_of_sight(bf, c.tile, e.tile)})
    return [Option(f"know:{k}", "knowledge", c.id, value=k) for k in kinds]
