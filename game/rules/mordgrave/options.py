"""The legal answers of each decision (rules/mordgrave.md 3.5, 4.13): the two actions of an activation,
the choice of a Leader and of who acts next in a phase, combat modes and the follow-up."""
from __future__ import annotations

from ...engine import space
from ...engine.battlefield import Door, Tile
from ...engine.decision import Option
from .combat import engaged, enemies_touching, may_shoot_at, mouv, ranged_weapon, step_to
from .state import Figure, Group, State, data, rule


def tile_key(t: Tile) -> str:
    return f"{t[0]},{t[1]}"


def bubble(f: Figure) -> int:
    return rule("bubble")[f.role]


def in_bubble(state: State, leader: Figure) -> list[Figure]:
    """Friends a Leader may activate with it, were its phase to begin now (3.3)."""
    return [g for g in state.living(leader.side) if g is not leader and not g.activated
            and space.within(g.tile, leader.tile, bubble(leader))]


def reach_of(state: State, f: Figure, budget: float) -> space.Reach:
    enemies = frozenset(g.tile for g in state.living() if g.side != f.side)
    return space.reach(state.battlefield, f.tile, budget, space.MoveRules(space.WALK), enemies)


def move_options(state: State, f: Figure, budget: float, action: str) -> list[Option]:
    """A path of at most ``budget`` pas to a free tile where it may stop (4.13.1, 4.13.4)."""
    bf = state.battlefield
    r = reach_of(state, f, budget)
    taken = {g.tile for g in state.living()}
    return [Option(f"{action}:{tile_key(t)}", action, f.id, t, path=tuple(r.path(t)), cost=round(c, 3))
            for t, c in sorted(r.cost.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if t not in taken and bf.can_stand(t)]


def shooting_weapons(f: Figure) -> list[str]:
    """Ranged weapons ready to fire: carried ones (loaded, for those with Reload) and the thrown forms of
    the melee weapons in hand (4.20)."""
    out = []
    for c in f.ranged:
        if (c.loaded or "reload" not in ranged_weapon(c.weapon)["rules"]) and c.weapon not in out:
            out.append(c.weapon)
    for wid in (f.second, f.main):
        thrown = data()["melee"][wid].get("thrown") if wid else None
        if thrown and thrown not in out:
            out.append(thrown)
    return out


def unloaded(f: Figure) -> list[str]:
    return sorted({c.weapon for c in f.ranged if not c.loaded})


def template_aims(state: State, f: Figure, wid: str) -> list[Tile]:
    """Aim tiles for a template weapon: every tile within its length gives a direction (4.21)."""
    length = ranged_weapon(wid)["template"]["length"]
    return [t for t in space.tiles_within(state.battlefield, f.tile, length) if t != f.tile]


def shot_options(state: State, f: Figure) -> list[Option]:
    out = []
    foes = [g for g in state.living() if g.side != f.side]
    for wid in shooting_weapons(f):
        w = ranged_weapon(wid)
        if "template" in w:
            if not engaged(state, f):
                out += [Option(f"breath:{wid}:{tile_key(t)}", "breath", f.id, t, value=wid)
                        for t in template_aims(state, f, wid)]
            continue
        for g in foes:
            if may_shoot_at(state, f, wid, g):
                out.append(Option(f"shoot:{wid}:{g.id}", "shoot", f.id, target=g.id, value=wid))
                if "double_shot" in w["rules"]:
                    out.append(Option(f"double:{wid}:{g.id}", "double", f.id, target=g.id, value=wid))
    return out


def door_options(state: State, f: Figure) -> list[Option]:
    """The Special action: open a closed or locked door in base contact (4.13.8)."""
    bf = state.battlefield
    return [Option(f"open:{tile_key(t)}", "open", f.id, t) for t in space.neighbours(f.tile)
            if bf.inside(t) and bf.door[t[1], t[0]] >= Door.CLOSED]


def action_options(state: State, f: Figure, others_waiting: bool) -> tuple[Option, ...]:
    """The figure's next action: a first action, or a second one after it (3.5). ``others_waiting``: other
    figures of its phase may act, so after its first action it may hand over and take its second later (3.4)."""
    if f.actions == 0:
        opts = move_options(state, f, mouv(f), "move")
        opts.append(Option("stay", "stay", f.id))
        opts.append(Option("concentrate", "concentrate", f.id))
        opts += [Option(f"reload:{w}", "reload", f.id, value=w) for w in unloaded(f)]
    else:
        opts = move_options(state, f, mouv(f) / 2, "run") if f.first == "move" and f.stepped else []
        opts += shot_options(state, f)
        opts += [Option(f"fight:{g.id}", "fight", f.id, target=g.id) for g in enemies_touching(state, f)]
        opts += door_options(state, f)
    if others_waiting and f.actions == 1:
        opts.append(Option("switch", "switch", f.id))
    opts.append(Option("end", "end", f.id, ends="activation"))
    return tuple(opts)


def ready(state: State, group: Group) -> list[Figure]:
    """The figures of the phase that may still act (those activated in an earlier phase are done)."""
    return [f for f in (state.figure(fid) for fid in group.members) if f.alive and not f.done]


def second_shot_options(state: State, f: Figure, wid: str) -> tuple[Option, ...]:
    opts = [Option(f"shoot2:{g.id}", "shoot", f.id, target=g.id, value=wid)
            for g in state.living() if g.side != f.side and may_shoot_at(state, f, wid, g)]
    return tuple(opts) + (Option("no_shot", "no_shot", f.id),)


def follow_options(state: State, winner: Figure, vacated: Tile) -> tuple[Option, ...]:
    """The winner may step into the tile the loser left, or stay (4.2)."""
    d = (vacated[0] - winner.tile[0], vacated[1] - winner.tile[1])
    opts = []
    if step_to(state, winner, d) == vacated:
        opts.append(Option("follow", "follow", winner.id, vacated, path=(vacated,), cost=space.STEP_LENGTH[d]))
    return tuple(opts) + (Option("no_follow", "no_follow", winner.id),)


def mode_options(f: Figure, other: Figure) -> tuple[Option, ...]:
    return tuple(Option(m, m, f.id, target=other.id) for m in rule("modes"))
