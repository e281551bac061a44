"""Legal options of an activating KOLAPS character (§5.2–§5.15, §5.19 legal targets, §5.21 morale states)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ...engine import space
from ...engine.decision import Option
from .combat import (ENGAGEMENT_CM, behind_cover, line_of_sight, shot_band, shot_difficulty, strike_difficulty,
                     traits)
from .effects import Ctx, controller, hostile
from .model import MUTINOUS, NORMAL, PINNED, ROUTING, SHELTERED, WITHDRAWING, Character, Order

ATTACKS = ("shoot", "burst", "throw", "strike", "moveshoot", "movestrike")
AMBUSH_ACTIONS = ("ambush", "ambush_near", "ambush_only", "ambush_after")    # one per standing order (§5.15)
ORDER_RANGES = (10, 25, 50)             # cm a "near" standing order may name


@dataclass(frozen=True)
class Conduct:
    """What one activation may do: its mode ("regular", "reaction", "ambush" or "knife"), the restrictions
    it started under (no two-handed action, no offensive action) and, after a failed §5.20 check, the only
    enemy it may act against."""

    mode: str = "regular"
    no2h: bool = False
    nooff: bool = False
    only_target: str | None = None


def as_seen_by(shooter: Character, target: Character) -> Character:
    """The target as the shooter's controller knows it: another side's armed ambush is secret (§5.15), so
    options and odds count the target's offensive box against its cover as if no ambush were armed."""
    if target.ambush_armed and controller(shooter) != target.side:
        return dataclasses.replace(target, ambush_armed=False)
    return target


def order_of(option: Option) -> Order:
    """The standing order an ambush option stipulates."""
    return {"ambush": Order("first"), "ambush_near": Order("near", within=option.value),
            "ambush_only": Order("only", target=option.target), "ambush_after": Order("after")}[option.action]


def weapon(ctx: Ctx, name: str) -> dict:
    return ctx.data["weapons"][name]


def usable(ctx: Ctx, ch: Character, name: str, act: Conduct = Conduct()) -> bool:
    w = weapon(ctx, name)
    if w.get("hands", 0) == 2 and (ch.crippled_arm() or act.no2h):
        return False
    if name in ch.jammed:
        return False
    return ch.uses_left.get(name, 1) > 0


def can_offend(ctx: Ctx, ch: Character, act: Conduct) -> bool:
    if ch.never_offensive or act.nooff:
        return False
    if ch.morale_state == MUTINOUS or act.mode == "ambush":
        return True
    if ch.morale_state not in (NORMAL,) or ch.morale <= 2:
        return False
    return ch.offensive and ch.no_offensive_turn != ctx.turn


def legal_target(ctx: Ctx, a: Character, t: Character, act: Conduct = Conduct()) -> bool:
    """§5.19: AFF binding limits targets to the same AFF or enemies within 25 cm (A20); A16 and A78."""
    if not (t.in_play and hostile(a, t)) or t.id in a.ignores:
        return False
    if a.morale_state == MUTINOUS and not (t.is_avatar and t.side == a.side):
        return False
    if act.only_target and t.id != act.only_target:
        return False
    if a.aff is not None and t.aff != a.aff:
        return space.within_cm(a.tile, t.tile, ENGAGEMENT_CM, ctx.state.cm_per_tile)
    return True


def friendly_crossed(ctx: Ctx, a: Character, origin, target_tile) -> list[Character]:
    """Friendly or allied figures whose base the line of fire crosses, nearest the shooter first."""
    friends = {c.tile: c for c in ctx.in_play() if c.id != a.id and not hostile(a, c)}
    tiles = space.figures_on_line(origin, target_tile, friends)
    return sorted((friends[t] for t in tiles), key=lambda c: space.distance(origin, c.tile))


def in_melee(ctx: Ctx, t: Character) -> bool:
    return any(space.adjacent(t.tile, c.tile) for c in ctx.in_play() if hostile(t, c))


def occupied(ctx: Ctx) -> set:
    return {c.tile for c in ctx.in_play()}


def move_budget(ctx: Ctx, ch: Character, run: bool) -> tuple[float, str]:
    """Allowance in pas and the move mode: a prone character crawls as MVT 1 (§5.3, A24)."""
    if ch.prone:
        return 2.5 / ctx.state.cm_per_tile, space.CRAWL
    cm = ch.mvt_mod * (5.0 if run else 2.5)
    return cm / ctx.state.cm_per_tile, space.WALK


def destinations(ctx: Ctx, ch: Character, run: bool) -> list[tuple[tuple, list, float]]:
    budget, mode = move_budget(ctx, ch, run)
    if budget <= 0:
        return []
    enemies = frozenset(c.tile for c in ctx.in_play() if hostile(ch, c))
    r = space.reach(ctx.bf, ch.tile, budget, space.MoveRules(mode), enemies)
    taken = occupied(ctx)
    out = []
    for tile, cost in sorted(r.cost.items()):
        if tile == ch.tile or tile in taken:
            continue
        out.append((tile, r.path(tile), cost * ctx.state.cm_per_tile))
    return out


def hands_of(ctx: Ctx, name: str) -> int:
    return weapon(ctx, name).get("hands", 0)


def left_hand_free(ctx: Ctx, ch: Character) -> bool:
    """The left hand may hold an item: no two-handed ready weapon and no crippled arm ("a weapon and an
    object" is then impossible, §5.27)."""
    return hands_of(ctx, ch.ready_weapon) < 2 and not ch.crippled_arm()


def left_item(ctx: Ctx, ch: Character, act: Conduct) -> str | None:
    """The item in the left hand, when it may be used now."""
    if ch.left_hand is None or not left_hand_free(ctx, ch) or not usable(ctx, ch, ch.left_hand, act):
        return None
    return ch.left_hand


def shot_targets(ctx: Ctx, ch: Character, origin, act: Conduct, moving: bool,
                 name: str | None = None) -> list[tuple[Character, str]]:
    """(target, action) pairs for the ranged weapon ``name`` (default: the ready one) fired from origin."""
    name = name or ch.ready_weapon
    w = weapon(ctx, name)
    if w["range"] is None or not usable(ctx, ch, name, act):
        return []
    t_ = traits(w)
    if moving and "heavy" in t_:
        return []
    out = []
    for t in ctx.in_play():
        if not legal_target(ctx, ch, t, act) or space.adjacent(origin, t.tile):
            continue
        if not line_of_sight(ctx.bf, origin, t.tile):
            continue
        band = shot_band(origin, t.tile, w, ctx.state.cm_per_tile)
        if band is None:
            continue
        crossed = friendly_crossed(ctx, ch, origin, t.tile)
        if "explosion" in t_:
            if not crossed:
                out.append((t, "throw"))
            continue
        if "fragmentation" in t_ and (crossed or in_melee(ctx, t)):
            continue
        d = shot_difficulty(ctx.bf, ctx.state, ch, origin, as_seen_by(ch, t), w, moving)
        if d is None or not d.possible:
            continue
        out.append((t, "moveshoot" if moving else "shoot"))
        if not moving and "automatic" in t_ and not crossed:
            out.append((t, "burst"))
    return out


def strike_weapons(ctx: Ctx, ch: Character, act: Conduct) -> list[str]:
    """What it may strike with: the ready weapon, the item in its left hand (contact weapons and pistols,
    §5.12), and its bare hands."""
    out = []
    for name in (ch.ready_weapon, left_item(ctx, ch, act)):
        if name is None or name == "unarmed" or name in out:
            continue
        w = weapon(ctx, name)
        if usable(ctx, ch, name, act) and (w["range"] is None or "pistol" in traits(w)):
            out.append(name)
    out.append("unarmed")
    return out


def strike_targets(ctx: Ctx, ch: Character, tile, act: Conduct, moving: bool) -> list[tuple[Character, str]]:
    out = []
    for t in ctx.in_play():
        if space.adjacent(tile, t.tile) and legal_target(ctx, ch, t, act):
            for wname in strike_weapons(ctx, ch, act):
                if strike_difficulty(ch, t, weapon(ctx, wname), moving).possible:
                    out.append((t, wname))
    return out


def static_attacks(ctx: Ctx, ch: Character, act: Conduct) -> list[Option]:
    """Shots, bursts, throws and strikes from where the character stands."""
    out = [Option(f"{kind}:{t.id}", kind, ch.id, t.tile, t.id, value=ch.ready_weapon)
           for t, kind in shot_targets(ctx, ch, ch.tile, act, moving=False)]
    left = left_item(ctx, ch, act)
    if left is not None and left != ch.ready_weapon:        # a pistol or a grenade in the left hand
        out += [Option(f"{kind}:{t.id}:{left}", kind, ch.id, t.tile, t.id, value=left)
                for t, kind in shot_targets(ctx, ch, ch.tile, act, False, left)]
    out += [Option(f"strike:{t.id}:{wname}", "strike", ch.id, t.tile, t.id, value=wname)
            for t, wname in strike_targets(ctx, ch, ch.tile, act, moving=False)]
    return out


def encouraged(ctx: Ctx, ch: Character) -> list[Character]:
    """Friends it may try to steady (seed §5.21: "durant la recherche d'un couvert, un personnage peut tenter
    de faire remonter le moral de ce dernier, annulant la fuite"): withdrawing, within 25 cm and in sight of a
    standing character that still answers orders (morale 3 or more). Project interpretation of a mechanism
    the seed leaves to its annexes."""
    if ch.prone or ch.morale < 3 or ch.morale_state not in (NORMAL, SHELTERED):
        return []
    return [f for f in sorted(ctx.in_play(), key=lambda c: c.id)
            if f.id != ch.id and not hostile(ch, f) and f.morale_state == WITHDRAWING
            and space.within_cm(ch.tile, f.tile, ENGAGEMENT_CM, ctx.state.cm_per_tile)
            and line_of_sight(ctx.bf, ch.tile, f.tile)]


def ambush_orders(ctx: Ctx, ch: Character) -> list[Option]:
    """Declaring an ambush is choosing its standing order (§5.15): the first enemy that offers a shot or a
    strike, the first within N cm, one named enemy only, or after the enemy's action."""
    out = [Option("ambush", "ambush", ch.id)]
    out += [Option(f"ambush:near:{cm}", "ambush_near", ch.id, value=cm) for cm in ORDER_RANGES]
    out += [Option(f"ambush:only:{e.id}", "ambush_only", ch.id, e.tile, e.id)
            for e in sorted(ctx.in_play(), key=lambda c: c.id) if hostile(ch, e)]
    out.append(Option("ambush:after", "ambush_after", ch.id))
    return out


def tile_key(tile) -> str:
    return f"{tile[0]},{tile[1]}"


def action_options(ctx: Ctx, ch: Character, act: Conduct) -> list[Option]:
    """The flat list of concrete options of one activation (the "action" decision)."""
    opts: list[Option] = []
    state = ch.morale_state
    only_offensive = act.mode in ("ambush", "knife")
    if state == ROUTING:
        return [Option("flee", "flee", ch.id)]
    if act.mode == "knife":
        return [Option(f"strike:{t.id}:knife", "strike", ch.id, t.tile, t.id, value="knife")
                for t in ctx.in_play() if space.adjacent(ch.tile, t.tile) and legal_target(ctx, ch, t, act)
                and "knife" in ch.weapons]
    offend = can_offend(ctx, ch, act)
    allowed = None
    if state == PINNED:
        allowed = {"prone", "cover", "end"}
    elif state == WITHDRAWING:
        allowed = {"walk", "run", "stand", "prone", "cover", "end"}
    elif state == MUTINOUS:
        allowed = {"walk", "run", "stand", "end"} | set(ATTACKS)
    avatar = None
    if state == MUTINOUS:
        avatar = next((c for c in ctx.in_play() if c.side == ch.side and c.is_avatar), None)

    def add(o: Option) -> None:
        if allowed is not None and o.action not in allowed:
            return
        if only_offensive and o.action not in ATTACKS:
            return
        opts.append(o)

    if not only_offensive:
        add(Option("end", "end", ch.id, ends="activation"))
    closer = (lambda tile: avatar is None or space.distance(tile, avatar.tile) < space.distance(ch.tile, avatar.tile))
    walks = destinations(ctx, ch, run=False)
    if not only_offensive:
        for tile, path, cost in walks:
            if closer(tile):
                add(Option(f"walk:{tile_key(tile)}", "walk", ch.id, tile, path=tuple(path), cost=cost))
        if not ch.prone:
            for tile, path, cost in destinations(ctx, ch, run=True):
                if closer(tile):
                    add(Option(f"run:{tile_key(tile)}", "run", ch.id, tile, path=tuple(path), cost=cost))
        if not ch.prone and behind_cover(ctx.bf, ch.tile) and (not ch.huddled or state == WITHDRAWING):
            add(Option("cover", "cover", ch.id))
        if not ch.prone:
            add(Option("prone", "prone", ch.id))
        elif not ch.permanently_prone:
            add(Option("stand", "stand", ch.id))
        if state != MUTINOUS:
            if ch.fatigue > 0 and not ch.fatigue_locked_at_6 and not ch.catch_breath_declared:
                add(Option("breath", "catch_breath", ch.id))
            if ch.aff is None and ch.morale < 6 and not ch.rally_declared:
                add(Option("rally", "rally", ch.id))
            for friend in encouraged(ctx, ch):
                add(Option(f"encourage:{friend.id}", "encourage", ch.id, friend.tile, friend.id))
            if ch.ready_weapon in ch.jammed:
                add(Option("unjam", "unjam", ch.id))
            ammo = weapon(ctx, ch.ready_weapon).get("ammo")
            if ammo and ch.uses_left.get(ch.ready_weapon, ammo) < ammo:
                add(Option("reload", "reload", ch.id, value=ch.ready_weapon))
            for w in sorted(set(ch.weapons)):
                if w != ch.ready_weapon and w not in ch.jammed and ch.uses_left.get(w, 1) > 0:
                    add(Option(f"change:{w}", "change_weapon", ch.id, value=w))
            for w in sorted(set(ch.weapons)):
                if (w not in (ch.ready_weapon, ch.left_hand) and hands_of(ctx, w) == 1 and w not in ch.jammed
                        and ch.uses_left.get(w, 1) > 0 and left_hand_free(ctx, ch)):
                    add(Option(f"left:{w}", "take_left", ch.id, value=w))
            for i, (tile, w) in enumerate(ctx.state.ground):
                if tuple(tile) == ch.tile:
                    add(Option(f"pickup:{i}:{w}", "pickup", ch.id, value=w))
                    if hands_of(ctx, w) == 1 and ch.left_hand is None and left_hand_free(ctx, ch):
                        add(Option(f"pickup_left:{i}:{w}", "pickup_left", ch.id, value=w))
    if not offend:
        return opts
    if state != MUTINOUS and not only_offensive and not act.only_target and behind_cover(ctx.bf, ch.tile):
        for o in ambush_orders(ctx, ch):             # a failed §5.20 target check leaves only the attacker
            add(o)
    for o in static_attacks(ctx, ch, act):
        add(o)
    if ch.prone:
        return opts
    shots = [t for t, kind in shot_targets(ctx, ch, ch.tile, act, moving=True)]
    for tile, path, cost in walks:
        for t in shots:
            add(Option(f"moveshoot:{tile_key(tile)}:{t.id}", "moveshoot", ch.id, tile, t.id, tuple(path),
                       ch.ready_weapon, cost))
        for t in ctx.in_play():
            if not space.adjacent(tile, t.tile) or not legal_target(ctx, ch, t, act):
                continue
            for wname in strike_weapons(ctx, ch, act):
                if strike_difficulty(ch, t, weapon(ctx, wname), True).possible:
                    add(Option(f"movestrike:{tile_key(tile)}:{t.id}:{wname}", "movestrike", ch.id, tile, t.id,
                               tuple(path), wname, cost))
    return opts

