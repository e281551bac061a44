"""What a combatant may do in its activation (rules/passe_d_armes.md 4.2, 4.4, 5.2, 5.3, 5.17, 5.18), and
the geometry those options need: reach with terrain costs, weapon reach, cover.

The same list serves a combatant acting and one declaring its intentions (5.1 b): a declaration is
made from the tile its declared move would end on, with every other figure where it stands.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import space
from ...engine.battlefield import Tile
from ...engine.decision import Option
from .state import HANDS, Combatant, State, data, hand_weapon, weapon

MOVES = space.MoveRules(space.WALK, terrain_costs=True)
WOUNDING = ("attack", "botte")


@dataclass(frozen=True)
class Progress:
    """How far an activation has gone: its move and its action used, a sprint's second move still to
    make, and whether it has just begun."""

    moved: bool = False
    acted: bool = False
    first: bool = True
    extra: bool = False

    @property
    def may_move(self) -> bool:
        return not self.moved or self.extra

    @property
    def done(self) -> bool:
        return self.acted and not self.may_move


def tile_key(tile: Tile) -> str:
    return f"{tile[0]},{tile[1]}"


def corner_clear(state: State, a: Tile, b: Tile) -> bool:
    """A diagonal neighbour may be struck only if neither other tile at that corner blocks movement (4.4)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) != 1 or abs(dy) != 1:
        return True
    bf = state.battlefield
    return not (bf.stops_walker((a[0] + dx, a[1])) or bf.stops_walker((a[0], a[1] + dy)))


def in_reach(state: State, weapon_name: str, at: Tile, target: Tile) -> bool:
    """A hand weapon (or bare hands, or a manoeuvre) reaches an adjacent tile past the corner rule; a
    firearm reaches within its range in line of sight."""
    w = weapon(weapon_name)
    if w["range"] == 0:
        return space.adjacent(at, target) and corner_clear(state, at, target)
    return space.within(at, target, w["range"]) and space.line_of_sight(state.battlefield, at, target)


def cover_difficulty(state: State, weapon_name: str, at: Tile, target: Tile) -> int:
    """Cover adds to a Tir roll only (4.4)."""
    if weapon(weapon_name)["skill"] != "tir":
        return 0
    return data()["cover"][int(space.cover_level(state.battlefield, at, target))]


def manoeuvre_skill(fig: Combatant, manoeuvre: str) -> str:
    """Botte is Escrime, projection and hold Lutte; disarm and feint are Escrime with a weapon fought
    with by Escrime in hand, Lutte otherwise (5.3)."""
    skill = data()["manoeuvres"][manoeuvre]["skill"]
    if skill != "weapon":
        return skill
    return "escrime" if weapon(fig.in_hand)["skill"] == "escrime" else "lutte"


def attack_skill(fig: Combatant, manoeuvre: str) -> str:
    return manoeuvre_skill(fig, manoeuvre) if manoeuvre and manoeuvre != "botte" else weapon(fig.in_hand)["skill"]


def enemies(state: State, fig: Combatant) -> list[Combatant]:
    return [g for g in state.figures if g.side != fig.side and g.on_field]


def walk(state: State, fig: Combatant, start: Tile, budget: float) -> space.Reach:
    """Where a move may go: enemies bar the way, friends may be passed through (conventions 3.2)."""
    foes = frozenset(g.tile for g in enemies(state, fig))
    return space.reach(state.battlefield, start, budget, MOVES, foes)


def move_options(state: State, fig: Combatant, start: Tile) -> list[Option]:
    """A move to every free tile within MOV; one ending on the side's own exit tile withdraws (4.4)."""
    bf = state.battlefield
    reach = walk(state, fig, start, fig.mov)
    taken = state.occupied(but=fig.id)
    out = []
    for t in sorted(reach.cost):
        if t == start or t in taken:
            continue
        leaving = int(bf.exit_side[t[1], t[0]]) == fig.side
        out.append(Option(f"move:{tile_key(t)}", "withdraw" if leaving else "move", fig.id, t,
                          path=tuple(reach.path(t)), cost=round(reach.cost[t], 3)))
    return out


def attack_options(state: State, fig: Combatant, at: Tile, only: str | None = None) -> list[Option]:
    """Attacks with the weapon in hand and the manoeuvres of 5.3 on every enemy in reach; a held
    combatant may attack its holder only (5.17)."""
    allowed = {g.id for g in enemies(state, fig)} if only is None else {only}
    if fig.held_by is not None:
        allowed &= {fig.held_by}
    out = []
    for g in enemies(state, fig):
        if g.id not in allowed:
            continue
        if in_reach(state, fig.in_hand, at, g.tile):
            out.append(Option(f"attack:{g.id}", "attack", fig.id, target=g.id, value=fig.in_hand))
        if not (space.adjacent(at, g.tile) and corner_clear(state, at, g.tile)):
            continue
        for m in data()["manoeuvres"]:
            if m == "botte" and not (hand_weapon(fig.in_hand) and fig.in_hand != HANDS):
                continue
            if m == "desarmement" and g.in_hand == HANDS:
                continue
            if m == "prise" and g.held_by == fig.id:
                continue
            out.append(Option(f"{m}:{g.id}", "manoeuvre", fig.id, target=g.id, value=m))
    return out


def activation_options(state: State, fig: Combatant, progress: Progress, at: Tile | None = None,
                       declaring: bool = False) -> list[Option]:
    """The choices of one decision of an activation, from ``at`` (the figure's tile unless declaring)."""
    at = fig.tile if at is None else at
    out: list[Option] = []
    held = fig.held_by is not None
    walking = not held and (not fig.knocked_down or progress.moved)      # standing up is its move
    if fig.knocked_down and not progress.moved:
        out.append(Option("stand_up", "stand_up", fig.id))
    elif walking and progress.may_move:
        out += move_options(state, fig, at)
    if not progress.acted:
        out += attack_options(state, fig, at)
        for w in [*fig.weapons, HANDS]:
            if w != fig.in_hand:
                out.append(Option(f"ready:{w}", "ready", fig.id, value=w))
        for item in state.items:
            if item.tile == at or space.adjacent(item.tile, at):
                out.append(Option(f"pick:{item.id}", "pick_up", fig.id, item.tile, value=item.weapon))
        if held:
            out.append(Option("break_free", "break_free", fig.id, target=fig.held_by))
        elif walking:
            out.append(Option("sprint", "sprint", fig.id))
    if not declaring:
        for g in state.figures:
            if g.held_by == fig.id:
                out.append(Option(f"release:{g.id}", "release", fig.id, target=g.id))
        if progress.first:
            if state.truce_offer is None:
                out.append(Option("truce", "propose_truce", fig.id))
            out.append(Option("surrender", "surrender", fig.id))
    out.append(Option("end", "end", fig.id, ends="activation"))
    return out


def after(progress: Progress, option: Option) -> Progress:
    """What an answer uses up: a sprint is the action and gives a second move (5.18); standing up is the
    move (5.17)."""
    a = option.action
    moved, extra = progress.moved, progress.extra
    if a in ("move", "withdraw"):
        moved, extra = True, extra and not progress.moved
    elif a == "stand_up":
        moved = True
    elif a == "sprint":
        extra = True
    acted = progress.acted or a in ("attack", "manoeuvre", "ready", "pick_up", "break_free", "sprint")
    return Progress(moved, acted, progress.first and a in ("release", "propose_truce"), extra)


def plan_complete(progress: Progress, option: Option) -> bool:
    """A declaration is whole once it ends, withdraws, or has used its move and its action."""
    return option.action in ("end", "withdraw") or progress.done


def destination(option: Option, at: Tile) -> Tile:
    return option.tile if option.path else at
