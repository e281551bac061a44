"""Eisdrachen actions (rules/eisdrachen.md 4.1-4.15): the legal options of an activation and
their resolution. Options carry everything ``apply`` needs (paths, targets) so nothing is
searched twice."""
from __future__ import annotations

import math

import numpy as np

from ...engine import events as ev
from ...engine import space
from ...engine.battlefield import Battlefield, Door, Tile
from ...engine.decision import Option
from ...engine.dice import Dice
from ...engine.events import Event
from ...engine.tokens import Token, discovers, triggered
from .combat import dodge_on, grenade_hit, lose_pv, resolve_attacks, shot_attacks, weapon
from .state import Emplacement, Figure, State, const

ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
PRAYER = {1: None, 2: "lucky", 3: "dodge_reroll", 4: "wound_reroll", 5: "double_attacks"}     # 4.15
DIRECTIONS = ORTHO + ((1, 1), (1, -1), (-1, 1), (-1, -1))


# --- geometry helpers -------------------------------------------------------------

class Sight:
    """The engine's line of sight on one battlefield with its doors as they are now (the battlefield
    keeps its own cache, engine/sight.py); ``stand`` holds the tiles normal movement may stop on,
    for the hot loops of option generation."""

    def __init__(self, bf: Battlefield):
        self.bf = bf
        ys, xs = np.nonzero(~(bf.blocks_move | bf.climbable | bf.deep_water | bf.crawl_gap | (bf.door >= Door.CLOSED)))
        self.stand = set(zip(xs.tolist(), ys.tolist()))
        self.sees = bf.sight()

    def __call__(self, a: Tile, b: Tile) -> bool:
        return self.sees(a, b)


_SIGHT: dict = {}


def sight_for(bf: Battlefield) -> Sight:
    key = (id(bf), bf.blocks_sight.shape, bf.blocks_sight.tobytes(), bf.door.tobytes())
    s = _SIGHT.get(key)
    if s is None:
        if len(_SIGHT) > 32:
            _SIGHT.clear()
        s = _SIGHT[key] = Sight(bf)
    return s


def tile_key(t: Tile) -> str:
    return f"{t[0]},{t[1]}"


def enemies_of(state: State, fig: Figure) -> list[Figure]:
    return [f for f in state.figures if f.alive and f.side != fig.side]


def visible_enemies(state: State, fig: Figure) -> list[Figure]:
    return [f for f in enemies_of(state, fig) if not f.hidden]


def known_tiles(state: State, side: int) -> set[Tile]:
    """Tiles of the figures ``side`` knows of: its own and the enemies not hidden. Options are
    built from these only, so a hidden enemy never shows as a hole in a reach (4.8)."""
    return {f.tile for f in state.figures if f.alive and (f.side == side or not f.hidden)}


def on_perch(bf: Battlefield, tile: Tile) -> bool:
    """A figure on a climbable tile stands on a perch and must Climb to leave it (4.2)."""
    return bool(bf.climbable[tile[1], tile[0]])


def reach_of(state: State, fig: Figure, budget: float, mode: str) -> space.Reach:
    blockers = frozenset(f.tile for f in visible_enemies(state, fig))
    return space.reach(state.battlefield, fig.tile, budget, space.MoveRules(mode), blockers)


def ends(state: State, fig: Figure, r: space.Reach, ok) -> dict[Tile, list[Tile]]:
    """Reachable tiles where the move may stop: free of known figures and accepted by ``ok``."""
    occupied = known_tiles(state, fig.side)
    return {t: r.path(t) for t in r.cost if t != r.start and t not in occupied and ok(t)}


def shooting_weapon(fig: Figure) -> dict:
    return weapon(fig.weapon)


def can_fire(fig: Figure, profile: dict, turn: int) -> bool:
    return not ("firearm" in profile.get("traits", ()) and fig.has("emp", turn))


def jump_tiles(length: int, d: tuple[int, int]) -> int:
    """Farthest line tile at most ``length`` pas away (Ambiguity 22)."""
    step = math.hypot(*d)
    return int(math.floor(length / step + 1e-9))


def jump_target(state: State, fig: Figure, d: tuple[int, int]) -> Tile | None:
    """The full-length landing tile of a jump in direction d, or None if the jump is illegal (4.12)."""
    bf = state.battlefield
    line = space.direction_line(fig.tile, d, jump_tiles(const("jump_length"), d))
    occupied = known_tiles(state, fig.side)
    here = fig.tile
    for t in line:
        if bf.stops_walker(t) or t in occupied:
            return None
        if d[0] and d[1] and (bf.stops_walker((here[0] + d[0], here[1])) or bf.stops_walker((here[0], here[1] + d[1]))):
            return None
        here = t
    target = line[-1]
    return target if target in sight_for(bf).stand else None


def jump_landing(state: State, fig: Figure, d: tuple[int, int], length: int) -> tuple[Tile, Figure | None]:
    """The farthest landable tile at most ``length`` pas along the line, falling back toward the
    start (4.12); a hidden figure on the line, unknown when the jump was chosen, cuts it short
    and is returned."""
    stand = sight_for(state.battlefield).stand
    line = space.direction_line(fig.tile, d, jump_tiles(length, d))
    in_the_way = None
    for i, t in enumerate(line):
        in_the_way = state.occupant(t)
        if in_the_way is not None:
            line = line[:i]
            break
    landing = next((t for t in reversed(line) if t in stand), fig.tile)
    return landing, in_the_way


# --- options ------------------------------------------------------------------------

def action_options(state: State, fig: Figure) -> list[Option]:
    bf = state.battlefield
    turn = state.turn
    sight = sight_for(bf)
    stand = sight.stand
    fid = fig.id
    opts: list[Option] = []
    perched = on_perch(bf, fig.tile)

    # 4.1 Move; 4.1 bis Crawl and 4.2 Climb at half V, not rounded (the seed halves it: V = 5 gives 2.5 pas)
    walk: dict[Tile, list[Tile]] = {}
    walk_reach = None
    if not perched:
        walk_reach = reach_of(state, fig, fig.V, space.WALK)
        walk = ends(state, fig, walk_reach, stand.__contains__)
        for t, p in walk.items():
            opts.append(Option(f"move:{tile_key(t)}", "move", fid, t, path=tuple(p),
                               cost=space.path_cost(bf, fig.tile, p)))
        heavy = "heavy" in shooting_weapon(fig).get("traits", ())
        if not heavy:
            def crawl_end(t: Tile) -> bool:
                return t not in walk and (t in stand or bool(bf.crawl_gap[t[1], t[0]]))
            for t, p in ends(state, fig, reach_of(state, fig, fig.V / 2, space.CRAWL), crawl_end).items():
                opts.append(Option(f"crawl:{tile_key(t)}", "crawl", fid, t, path=tuple(p),
                                   cost=space.path_cost(bf, fig.tile, p)))
    near_wall = perched or any(bf.climbable[y, x] for x, y in space.tiles_within(bf, fig.tile, const("climb_start_distance")))
    if near_wall:
        def climb_end(t: Tile) -> bool:
            return t not in walk and (t in stand or bool(bf.perch[t[1], t[0]]))
        for t, p in ends(state, fig, reach_of(state, fig, fig.V / 2, space.CLIMB), climb_end).items():
            opts.append(Option(f"climb:{tile_key(t)}", "climb", fid, t, path=tuple(p),
                               cost=space.path_cost(bf, fig.tile, p)))
    # 4.12 Jump
    if not perched:
        for d in DIRECTIONS:
            t = jump_target(state, fig, d)
            if t is not None:
                opts.append(Option(f"jump:{tile_key(t)}", "jump", fid, t, value=d))

    enemies = visible_enemies(state, fig)
    # 4.3 Shoot, 4.7 Sniper
    gun = shooting_weapon(fig)
    if can_fire(fig, gun, turn):
        sniper = fig.scope and gun["range"] >= const("sniper_min_range")
        for e in enemies:
            if space.within(fig.tile, e.tile, gun["range"]) and sight(fig.tile, e.tile):
                opts.append(Option(f"shoot:{e.id}", "shoot", fid, e.tile, target=e.id))
                if sniper:
                    opts.append(Option(f"sniper:{e.id}", "sniper", fid, e.tile, target=e.id))
    # 4.10 Use: fire an emplacement
    for emp in state.emplacements:
        if emp.working and in_contact(fig.tile, emp.tiles) and can_fire(fig, emp.weapon, turn):
            for e in enemies:
                if space.within(fig.tile, e.tile, emp.weapon["range"]) and sight(fig.tile, e.tile):
                    opts.append(Option(f"use_fire:{emp.id}:{e.id}", "use_fire", fid, e.tile, target=e.id,
                                       value=emp.id))
    # 4.5 Melee
    contact_reach = None
    for e in enemies:
        if not space.within(fig.tile, e.tile, const("melee_reach")):
            continue
        if space.adjacent(fig.tile, e.tile):
            opts.append(Option(f"melee:{e.id}", "melee", fid, e.tile, target=e.id))
            continue
        if perched:
            continue
        if contact_reach is None:
            contact_reach = contact_tiles_reach(state, fig)
        if any(space.adjacent(t, e.tile) for t in contact_reach):
            opts.append(Option(f"melee:{e.id}", "melee", fid, e.tile, target=e.id))
    # 4.4 Grenade
    if fig.grenades > 0:
        aims = [t for t in space.tiles_within(bf, fig.tile, const("grenade_throw_range"))
                if t != fig.tile and not bf.blocks_move[t[1], t[0]] and not bf.door_shut(t)]
        seen = sight.sees.many([fig.tile] * len(aims), aims).tolist() if aims else []
        for t, visible in zip(aims, seen):     # traced together: a throw's range holds hundreds of tiles
            if visible:
                opts.append(Option(f"grenade:{tile_key(t)}", "grenade", fid, t))
    # 4.6 Traps
    if fig.trap_kits > 0 and not perched:
        flight = flight_ends(state, fig, walk_reach if fig.V == const("trap_flight") else None)
        tokens_at = {tk.tile for tk in state.tokens}
        for t in [fig.tile] + space.neighbours(fig.tile):
            if bf.inside(t) and bf.trap_spot[t[1], t[0]] and t not in tokens_at:
                if any(not space.within(f, t, const("trap_radius")) for f in flight):
                    opts.append(Option(f"trap_spot:{tile_key(t)}", "trap_spot", fid, t))
        if completable(state, fig, [], flight):
            opts.append(Option("trap_open", "trap_open", fid))
    # 4.8 Hide, 4.9 Dig in
    x, y = fig.tile
    if not fig.hidden and bf.hiding[y, x] and not any(
            space.within(fig.tile, e.tile, const("hide_discovery")) for e in enemies_of(state, fig)):
        opts.append(Option("hide", "hide", fid, fig.tile))
    if not fig.dug_in and fig.tile in stand:
        opts.append(Option("dig_in", "dig_in", fid, fig.tile))
    # 4.10 Use: pick up, 4.13 Repair / Sabotage
    for item in state.items:
        if (item.tile == fig.tile or space.adjacent(item.tile, fig.tile)) and can_pick_up(fig, item.name):
            opts.append(Option(f"pickup:{item.id}", "pickup", fid, item.tile, value=item.id))
    for emp in state.emplacements:
        if in_contact(fig.tile, emp.tiles):
            act = "sabotage" if emp.working else "repair"
            t = contact_tile(fig.tile, emp.tiles)
            opts.append(Option(f"{act}:{tile_key(t)}", act, fid, t, value=emp.id))
    for t in space.neighbours(fig.tile):
        if bf.inside(t) and bf.door_shut(t):
            opts.append(Option(f"sabotage:{tile_key(t)}", "sabotage", fid, t))
    # 4.11 Heal
    if fig.medipack:
        for other in state.figures:
            if other.alive and (other is fig or space.adjacent(other.tile, fig.tile)) and (
                    other.side == fig.side or not other.hidden):
                opts.append(Option(f"heal:{other.id}", "heal", fid, other.tile, target=other.id))
    # 4.14 Alarm, 4.15 Pray
    opts.append(Option("alarm", "alarm", fid))
    opts.append(Option("pray", "pray", fid))
    if fig.hidden:
        opts.append(Option("unhide", "unhide", fid))
    opts.append(Option("end", "end", fid, ends="activation"))
    return opts


def in_contact(tile: Tile, tiles: tuple[Tile, ...]) -> bool:
    return any(t == tile or space.adjacent(t, tile) for t in tiles)


def contact_tile(tile: Tile, tiles: tuple[Tile, ...]) -> Tile:
    return next(t for t in tiles if t == tile or space.adjacent(t, tile))


def contact_tiles_reach(state: State, fig: Figure) -> dict[Tile, list[Tile]]:
    """Free tiles a Melee's automatic contact move can reach: a path of at most 2 pas (4.5)."""
    bf = state.battlefield
    return ends(state, fig, reach_of(state, fig, const("contact_move"), space.WALK), sight_for(bf).stand.__contains__)


def contact_options(state: State, fig: Figure, target: Figure) -> list[Option]:
    tiles = contact_tiles_reach(state, fig)
    return [Option(f"contact:{tile_key(t)}", "contact", fig.id, t, target=target.id, path=tuple(p),
                   cost=space.path_cost(state.battlefield, fig.tile, p))
            for t, p in sorted(tiles.items()) if space.adjacent(t, target.tile)]


def can_pick_up(fig: Figure, name: str) -> bool:
    """Loadout limits of 2.5; a shooting weapon is swapped for the one carried."""
    kind = weapon(name)["kind"]
    if kind == "grenade":
        return fig.grenades < const("max_grenades")
    if kind == "medipack":
        return not fig.medipack
    if kind == "scope":
        return not fig.scope and weapon(fig.weapon)["range"] >= const("sniper_min_range")
    if kind == "trap_kit":
        return fig.trap_kits < const("max_trap_kits")
    if kind == "blade":
        return fig.blade is None
    if kind == "shooting":
        return name != fig.weapon
    return False


# --- traps: placement feasibility ------------------------------------------------------

def flight_ends(state: State, fig: Figure, walk_reach: space.Reach | None = None) -> dict[Tile, list[Tile]]:
    """Where a free 5-pas flight (Move rules) may end, the start tile included, with its path (4.6).
    ``walk_reach`` is the figure's Move reach when its V equals the flight length."""
    r = walk_reach or reach_of(state, fig, const("trap_flight"), space.WALK)
    out = ends(state, fig, r, sight_for(state.battlefield).stand.__contains__)
    out[fig.tile] = []
    return out


def token_candidates(state: State, fig: Figure) -> list[Tile]:
    bf = state.battlefield
    stand = sight_for(bf).stand
    occupied = known_tiles(state, fig.side)
    tokens_at = {tk.tile for tk in state.tokens}
    return [t for t in space.tiles_within(bf, fig.tile, const("trap_token_radius"))
            if t in stand and t not in occupied and t not in tokens_at]


def completable(state: State, fig: Figure, chosen: list[Tile], flight: list[Tile],
                candidates: list[Tile] | None = None) -> bool:
    """Whether ``chosen`` tokens can be completed to three with a legal flight after (4.6)."""
    r = const("trap_radius")
    cands = token_candidates(state, fig) if candidates is None else candidates
    need = 3 - len(chosen)
    for f in flight:
        if any(space.within(f, c, r) for c in chosen):
            continue
        free = sum(1 for c in cands if c not in chosen and not space.within(f, c, r))
        if free >= need:
            return True
    return False


def token_options(state: State, fig: Figure, chosen: list[Tile]) -> list[Option]:
    flight = flight_ends(state, fig)
    cands = token_candidates(state, fig)
    return [Option(f"token:{tile_key(t)}", "trap_token", fig.id, t)
            for t in cands if t not in chosen and completable(state, fig, chosen + [t], flight, cands)]


def flee_options(state: State, fig: Figure, token_tiles: list[Tile]) -> list[Option]:
    rad = const("trap_radius")
    return [Option(f"flee:{tile_key(t)}", "flee", fig.id, t, path=tuple(p))
            for t, p in sorted(flight_ends(state, fig).items())
            if not any(space.within(t, k, rad) for k in token_tiles)]


# --- resolution helpers ----------------------------------------------------------------

def leave_hiding(fig: Figure, events: list, reason: str) -> None:
    """An alarm heard in hiding is told as the figure shows again: a hidden figure cannot move, so the
    enemy, who heard the alarm, now sees the tile that was within 6 pas of it (4.14). Its alarm riposte is
    then asked of an alert both sides know of, and the question shows nothing."""
    if fig.hidden:
        fig.hidden = False
        fig.hide_count = 0
        fig.pv_when_hidden = 0
        events.append(Event("status", {"figure": fig.id, "status": "hidden", "on": False, "reason": reason,
                                       "tile": list(fig.tile)}, rule="4.8"))
        if "alerted" in fig.unseen:
            turns = fig.unseen["alerted"]
            fig.reveal("alerted")
            events.append(Event("status", {"figure": fig.id, "status": "alerted", "on": True, "turns": turns},
                                rule="4.14"))


def discover(state: State, mover: Figure, events: list) -> None:
    """Any enemy ending within 3 pas of a hidden figure discovers it, no LOS needed (4.8)."""
    rad = const("hide_discovery")
    for h in state.figures:
        if h.alive and h.hidden and h.side != mover.side and discovers(h.tile, [mover.tile], rad):
            leave_hiding(h, events, "discovered")


def check_tokens(state: State, fig: Figure, dice: Dice, events: list, immune: tuple[str, ...] = ()) -> bool:
    """Reveal every token within 2 pas of ``fig``; spring the real ones. True if a trap sprang (4.6).
    Tokens a Lucky figure passes by stay face down for all to see: its luck is no secret then."""
    if not fig.alive:
        return False
    rad = const("trap_radius")
    near = [t for t in triggered(state.tokens, fig.tile, rad) if t.id not in immune]
    if fig.has("lucky", state.turn):
        if near:
            fig.reveal("lucky")
        return False
    sprang = False
    for tk in near:
        state.tokens.remove(tk)
        events.append(ev.revealed(tk.id, tk.tile, tk.real, "4.6", owner=tk.owner, figure=fig.id))
        if tk.real and fig.alive:
            sprang = True
            spring_trap(state, fig, tk, dice, events)
    return sprang


def spring_trap(state: State, fig: Figure, tk: Token, dice: Dice, events: list) -> None:
    roll = dice.d(6, "4.6")
    kind = "incendiary" if roll <= 2 else "emp" if roll <= 4 else "wolf_trap"
    events.append(ev.dice(fig.id, [roll], "trap", "4.6", result=kind, token=tk.id))
    events.append(Event("trap", {"figure": fig.id, "token": tk.id, "kind": kind}, rule="4.6"))
    n = state.turn
    if kind == "incendiary":
        lose_pv(state, fig, const("incendiary_loss"), events, "4.6")
    elif kind == "emp":
        set_status(fig, "emp", [n + 1, n + 2], events, "4.6")
    else:
        set_status(fig, "wolf_trapped", [n + 1], events, "4.6")


def set_status(fig: Figure, status: str, turns: list[int], events: list, rule: str, unseen: bool = False) -> None:
    """``unseen``: gained out of the enemy's sight; the event and the status stay its side's alone."""
    fig.add_status(status, turns, unseen)
    events.append(Event("status", {"figure": fig.id, "status": status, "on": True, "turns": turns},
                        visible_to=fig.side if unseen else None, rule=rule))


def place(state: State, fig: Figure, tile: Tile) -> None:
    if tile != fig.tile:
        fig.dug_in = False
        fig.tile = tile


def walk(state: State, fig: Figure, path: tuple[Tile, ...], dice: Dice, events: list, rule: str,
         mode: str = space.WALK, immune: tuple[str, ...] = ()) -> None:
    """Follow a path step by step; after each step check tokens and hidden enemies (4.1, 4.6, 4.8).
    A step that an enemy found on the way now bars ends the movement where it stands."""
    start = fig.tile
    stepped = [fig.tile]
    travelled: list[Tile] = []
    stopped = False
    for t in path:
        here = fig.tile
        barring = frozenset(f.tile for f in enemies_of(state, fig))
        if not space.step_legal(state.battlefield, here, (t[0] - here[0], t[1] - here[1]), mode, barring):
            stopped = True
            break
        place(state, fig, t)
        stepped.append(t)
        travelled.append(t)
        after: list = []
        sprang = check_tokens(state, fig, dice, after, immune)
        discover(state, fig, after)
        if after:
            events.append(ev.moved(fig.id, start, travelled, rule))
            events.extend(after)
            start, travelled = t, []
        if sprang or not fig.alive:
            stopped = True
            break
    if travelled:
        events.append(ev.moved(fig.id, start, travelled, rule))
    if stopped and fig.alive:
        step_back_off_friend(state, fig, stepped, events, rule)


def step_back_off_friend(state: State, fig: Figure, stepped: list[Tile], events: list, rule: str) -> None:
    """A movement stopped (by a trap or an enemy in the way) while the figure passes through a
    friend's tile ends on the last free tile of its path instead (two figures never share a tile)."""
    others = {f.tile for f in state.figures if f.alive and f is not fig}
    if fig.tile not in others:
        return
    back = next(t for t in reversed(stepped) if t not in others)
    events.append(ev.moved(fig.id, fig.tile, [back], rule, reason="stopped_on_a_friend"))
    place(state, fig, back)


def shoot(state: State, shooter: Figure, target: Figure, profile: dict, dice: Dice, events: list,
          sniper: bool, rule: str) -> None:
    """Shoot, Sniper, Use-fire and the alarm riposte (4.3, 4.7, 4.10, 4.14); vengeance to a survivor."""
    if shooter.has("double_attacks", state.turn):
        shooter.reveal("double_attacks")
    n = shot_attacks(profile["A"], shooter, target, state.turn)
    events.append(Event("shot", {"shooter": shooter.id, "target": target.id, "weapon": profile["id"],
                                 "attacks": n, "force": profile["F"], "sniper": sniper,
                                 "from": list(shooter.tile), "to": list(target.tile)}, rule=rule))
    resolve_attacks(state, shooter, target, n, profile["F"], None if sniper else dodge_on(target.I),
                    dice, events, rule, "ranged")
    if target.alive:
        target.vengeance_next += 1
        events.append(Event("status", {"figure": target.id, "status": "vengeance", "on": True,
                                       "turns": [state.turn + 1], "total": target.vengeance_next}, rule="4.3"))


def may_alarm_riposte(state: State, alerted: Figure, shooter: Figure) -> bool:
    n = state.turn
    if not (alerted.alive and shooter.alive and alerted.has("alerted", n) and alerted.alarm_used_turn != n):
        return False
    if alerted.has("wolf_trapped", n) or alerted.hidden or shooter.hidden:
        return False
    gun = shooting_weapon(alerted)
    return can_fire(alerted, gun, n) and space.within(alerted.tile, shooter.tile, gun["range"]) and \
        sight_for(state.battlefield)(alerted.tile, shooter.tile)


def grenade(state: State, thrower: Figure, aim: Tile, dice: Dice, events: list) -> None:
    bf = state.battlefield
    thrower.grenades -= 1
    k = dice.d(6, "4.4")
    landing, travelled = space.scatter_along(bf, thrower.tile, aim, k)
    events.append(ev.dice(thrower.id, [k], "bounce", "4.4"))
    events.append(ev.thrown(thrower.id, thrower.tile, aim, landing, "4.4", bounce=k,
                            bounce_tiles=[list(t) for t in travelled]))
    events.append(ev.blast(landing, const("grenade_blast_radius"), "4.4"))
    for victim in blast_victims(state, landing):
        grenade_hit(state, thrower, victim, dice, events)


def blast_victims(state: State, landing: Tile) -> list[Figure]:
    sight = sight_for(state.battlefield)
    rad = const("grenade_blast_radius")
    return [f for f in state.figures if f.alive and not f.hidden and space.within(landing, f.tile, rad)
            and (f.tile == landing or sight(landing, f.tile))]


def jump(state: State, fig: Figure, option: Option, dice: Dice, events: list) -> None:
    d = tuple(option.value)
    roll = dice.d(6, "4.12")
    short = roll == 6
    events.append(ev.dice(fig.id, [roll], "jump", "4.12", needed="1-5", short=short))
    landing, in_the_way = jump_landing(state, fig, d, const("jump_short_length" if short else "jump_length"))
    if in_the_way is not None:
        leave_hiding(in_the_way, events, "discovered")
    start = fig.tile
    place(state, fig, landing)
    events.append(ev.moved(fig.id, start, [landing] if landing != start else [], "4.12",
                           jump="short" if short else "full"))
    if landing != start:
        check_tokens(state, fig, dice, events)
        discover(state, fig, events)


def pray(state: State, fig: Figure, dice: Dice, events: list, vis: int | None) -> None:
    """Roll until 1-5: result 6 is missing from the seed (Ambiguity 25). A prayer said in hiding
    (``vis`` set) is its side's secret, and so is the blessing it brings."""
    while True:
        roll = dice.d(6, "4.15")
        events.append(ev.dice(fig.id, [roll], "pray", "4.15", visible_to=vis, reroll=roll == 6))
        if roll != 6:
            break
    status = PRAYER[roll]
    events.append(Event("prayer", {"figure": fig.id, "result": roll, "status": status}, visible_to=vis,
                        rule="4.15"))
    if status:
        set_status(fig, status, [state.turn + 1], events, "4.15", unseen=vis is not None)


def heal(state: State, medic: Figure, patient: Figure, events: list, vis: int | None) -> None:
    before = patient.pv
    patient.pv = min(patient.max_pv, patient.pv + 1)
    events.append(ev.healed(patient.id, "pv", patient.pv - before, patient.pv, "4.11", visible_to=vis, by=medic.id))


def alarm(state: State, fig: Figure, events: list) -> None:
    """Friends within 6 pas are alerted (4.14). The enemy hears of those it can see only: a hidden
    friend's alert is its side's secret, or it would tell the enemy that one hides within 6 pas."""
    rad = const("alarm_radius")
    alerted = [f for f in state.living(fig.side) if f is not fig and space.within(f.tile, fig.tile, rad)]
    events.append(Event("alarm", {"figure": fig.id, "alerted": [f.id for f in alerted if not f.hidden]},
                        rule="4.14"))
    for f in alerted:
        set_status(f, "alerted", [state.turn + 1], events, "4.14", unseen=f.hidden)


def pick_up(state: State, fig: Figure, item_id: str, events: list) -> None:
    item = next(i for i in state.items if i.id == item_id)
    kind = weapon(item.name)["kind"]
    state.items.remove(item)
    if kind == "grenade":
        fig.grenades += 1
    elif kind == "medipack":
        fig.medipack = True
    elif kind == "scope":
        fig.scope = True
    elif kind == "trap_kit":
        fig.trap_kits += 1
    elif kind == "blade":
        fig.blade = item.name
    elif kind == "shooting":
        dropped = fig.weapon
        fig.weapon = item.name
        if fig.scope and weapon(item.name)["range"] < const("sniper_min_range"):
            fig.scope = False
            state.items.append(type(item)(state.new_id("i"), "sniper_scope", item.tile))
        state.items.append(type(item)(state.new_id("i"), dropped, item.tile))
    events.append(Event("picked_up", {"figure": fig.id, "item": item.name, "tile": list(item.tile)}, rule="4.10"))


def repair_or_sabotage(state: State, fig: Figure, option: Option, events: list) -> None:
    bf = state.battlefield
    if option.value is not None:
        emp: Emplacement = next(e for e in state.emplacements if e.id == option.value)
        emp.working = option.action == "repair"
        events.append(Event(option.action, {"figure": fig.id, "emplacement": emp.id, "working": emp.working,
                                            "tile": list(option.tile)}, rule="4.13"))
        return
    x, y = option.tile
    bf.door[y, x] = Door.OPEN
    events.append(Event("sabotage", {"figure": fig.id, "tile": list(option.tile), "door": "open"}, rule="4.13"))

