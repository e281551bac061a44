"""What happens to combatants: rolls with their dice events, wounds on the monitor, conditions,
movement with hazards, and the end of the battle (rules/passe_d_armes.md 2.1, 4.3, 5.10-5.13, 5.17, 5.19).

Inside a simultaneous group (4.3) every change one combatant causes to another is held back in
``state.buffer`` and applied when the group has acted; ``wound`` and ``condition`` decide that.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine import events as ev
from ...engine import space
from ...engine.battlefield import Tile
from ...engine.dice import Dice
from ...engine.events import Event
from ...engine.objectives import Piece, Score, score
from ...engine.tiled import KNOWN_HAZARDS
from .rolls import BOXES, Roll, mark
from .state import HANDS, Combatant, Item, State, data


@dataclass
class Game:
    """What the steps of one answer work with."""

    state: State
    dice: Dice
    events: list[Event] = field(default_factory=list)


# --- rolls (2.1) -----------------------------------------------------------------------------

def throw(game: Game, fig: Combatant, skill: str, purpose: str, rule: str, extra: int = 0, attack: bool = False,
          defence: bool = False, **facts: Any) -> Roll:
    """One d10 under ``fig``'s score for ``skill``, with its own difficulties and ``extra``; the die
    shows in a dice event with the margin it gives. A feint is spent by the defence roll it weighs on."""
    state = game.state
    score = fig.score(skill)
    difficulty = fig.difficulty(skill, attack, defence, state.turn) + extra
    if defence and fig.feinted_until >= state.turn:
        fig.feinted_until = 0
    roll = Roll(score, difficulty, game.dice.d(10, rule))
    net = score - difficulty
    game.events.append(ev.dice(fig.id, [roll.die], purpose, rule, sides=10,
                               needed=f"1-{min(net, 10)}" if net >= 1 else None,
                               margin=roll.margin, exploit=roll.exploit, **facts))
    return roll


# --- wounds (5.10, 5.11) -----------------------------------------------------------------------

def wound(game: Game, fig: Combatant, n: int, nature: str, cause: str | None, rule: str) -> None:
    """``n`` wounds of ``nature`` for ``fig``; held back inside a simultaneous group when another
    combatant causes them."""
    if n < 1:
        return
    state = game.state
    if state.buffer is not None and cause is not None and cause != fig.id:
        state.buffer.append({"kind": "wound", "figure": fig.id, "n": n, "nature": nature, "rule": rule})
        game.events.append(Event("held_back", {"figure": fig.id, "wounds": n, "nature": nature}, rule="4.3"))
        return
    apply_wound(game, fig, n, nature, rule)


def apply_wound(game: Game, fig: Combatant, n: int, nature: str, rule: str) -> None:
    before = fig.monitor
    if before.dead:
        return
    after = mark(before, n, nature, fig.pui)
    fig.monitor = after
    counted = nature if not (before.ko and nature == "shock") else "trauma"
    game.events.append(ev.damaged(fig.id, "monitor", n, 10 - after.top, rule, nature=counted,
                                  monitor=after.text(), overflow=after.overflow if after.out else None))
    if after.dead:
        game.events.append(ev.removed(fig.id, "killed", "5.11"))
    elif after.out and not before.out:
        game.events.append(Event("out", {"figure": fig.id, "puissance": fig.pui}, rule="5.11"))
    elif after.ko and not before.ko:
        game.events.append(Event("knocked_out", {"figure": fig.id}, rule="5.11"))
    if after.helpless:
        fig.knocked_down = False
        fig.feinted_until = 0
        loosen_holds(game)


# --- conditions (5.3, 5.17) ----------------------------------------------------------------------

def condition(game: Game, kind: str, target: Combatant, cause: Combatant, **facts: Any) -> None:
    """A manoeuvre's effect on ``target``: knocked down, held, feinted, disarmed or displaced."""
    state = game.state
    change = {"kind": kind, "figure": target.id, "cause": cause.id, **facts}
    if state.buffer is not None:
        state.buffer.append(change)
        game.events.append(Event("held_back_effect", {"figure": target.id, "effect": kind}, rule="4.3"))
        return
    apply_condition(game, change)


def apply_condition(game: Game, change: dict) -> None:
    state = game.state
    fig = state.figure(change["figure"])
    cause = state.figure(change["cause"])
    kind = change["kind"]
    if not fig.on_field:
        return
    if kind == "displace":
        tile = tuple(change["tile"])
        if tile != fig.tile and state.standing_at(tile) is None:
            frm = fig.tile
            fig.tile = tile
            game.events.append(ev.moved(fig.id, frm, [tile], "5.3", thrown_by=cause.id))
        if not fig.helpless:
            fig.knocked_down = True
            game.events.append(Event("knocked_down", {"figure": fig.id}, rule="5.17"))
        loosen_holds(game)
        hazard = hazard_at(state, fig.tile)
        if hazard is not None:
            trigger_hazard(game, fig, hazard)
    elif kind == "held":
        if fig.helpless or not cause.active or not space.adjacent(fig.tile, cause.tile):
            return
        fig.held_by = cause.id
        game.events.append(Event("held", {"figure": fig.id, "holder": cause.id}, rule="5.17"))
    elif kind == "feinted":
        if fig.helpless:
            return
        fig.feinted_until = state.turn + 1
        game.events.append(Event("feinted", {"figure": fig.id, "by": cause.id}, rule="5.17"))
    elif kind == "disarm":
        lost = fig.in_hand
        if lost == HANDS:
            return
        fig.weapons.remove(lost)
        fig.in_hand = HANDS
        tile = tuple(change["tile"])
        state.items.append(Item(f"w{state.next_item}", lost, tile))
        state.next_item += 1
        game.events.append(Event("disarmed", {"figure": fig.id, "weapon": lost, "tile": list(tile), "by": cause.id},
                                 rule="5.3"))


def flush(game: Game) -> None:
    """A simultaneous group has acted: what its members did to each other now happens, in order (4.3)."""
    state = game.state
    held, state.buffer = state.buffer or [], None
    game.events.append(Event("group_resolved", {"effects": len(held)}, rule="4.3"))
    for change in held:
        if change["kind"] == "wound":
            apply_wound(game, state.figure(change["figure"]), change["n"], change["nature"], change["rule"])
        else:
            apply_condition(game, change)


def release(game: Game, held: Combatant, why: str) -> None:
    holder = held.held_by
    if holder is None:
        return
    held.held_by = None
    game.events.append(Event("released", {"figure": held.id, "holder": holder, "why": why}, rule="5.17"))


def loosen_holds(game: Game) -> None:
    """A hold needs both on their feet side by side: it ends when either is helpless, gone or apart."""
    state = game.state
    for g in state.figures:
        if g.held_by is None:
            continue
        holder = state.figure(g.held_by)
        if not (holder.active and g.on_field and not g.helpless and space.adjacent(g.tile, holder.tile)):
            release(game, g, "apart")


# --- hazards (5.13) ---------------------------------------------------------------------------------

def hazard_at(state: State, tile: Tile | None) -> str | None:
    """The hazard of a map tile, by the loader's code table (tiles code = index + 1 by default)."""
    if tile is None:
        return None
    bf = state.battlefield
    code = int(bf.hazard[tile[1], tile[0]])
    if code <= 0:
        return None
    ids = bf.properties.get("hazard_ids") or {i + 1: h for i, h in enumerate(KNOWN_HAZARDS)}
    name = ids.get(code, ids.get(str(code)))
    return name if name in data()["hazards"] else None


def hazard_wounds(fig: Combatant, hazard: str) -> int:
    h = data()["hazards"][hazard]
    return max(0, h["wounds"] - (fig.defence if h["protection"] else 0))


def trigger_hazard(game: Game, fig: Combatant, hazard: str) -> None:
    """A roll of the hazard's kind with its difficulty avoids it; a helpless combatant fails (5.13, 5.16)."""
    h = data()["hazards"][hazard]
    if fig.helpless:
        avoided = False
    else:
        avoided = throw(game, fig, h["roll"], "hazard", "5.13", extra=h["difficulty"], hazard=hazard).success
    n = 0 if avoided else hazard_wounds(fig, hazard)
    game.events.append(Event("hazard", {"figure": fig.id, "hazard": hazard, "avoided": avoided, "wounds": n},
                             rule="5.13"))
    wound(game, fig, n, h["nature"], None, "5.13")


# --- movement (4.4) -------------------------------------------------------------------------------------

def do_move(game: Game, fig: Combatant, path: tuple[Tile, ...], rule: str = "4.4") -> None:
    """Walk ``path`` tile by tile; each hazard tile entered is rolled for, and a combatant felled on the
    way stops there (or on the last free tile before it). Ending on one's own exit tile withdraws."""
    state = game.state
    for g in state.figures:
        if g.held_by == fig.id:
            release(game, g, "holder_moved")
    start = fig.tile
    walked: list[Tile] = []
    stop = len(path)
    for i, t in enumerate(path):
        walked.append(t)
        hazard = hazard_at(state, t)
        if hazard is None:
            continue
        game.events.append(ev.moved(fig.id, fig.tile, walked, rule))
        fig.tile, walked = t, []
        trigger_hazard(game, fig, hazard)
        if not fig.active:
            stop = i
            break
    if walked:
        game.events.append(ev.moved(fig.id, fig.tile, walked, rule))
        fig.tile = walked[-1]
    if any(g is not fig and g.on_field and g.tile == fig.tile for g in state.figures):
        free = [t for t in (start, *path[:stop]) if state.standing_at(t) is None]
        frm, fig.tile = fig.tile, free[-1]
        game.events.append(ev.moved(fig.id, frm, [fig.tile], rule, fell_back=True))
    bf = state.battlefield
    x, y = fig.tile
    if fig.active and int(bf.exit_side[y, x]) == fig.side and path and fig.tile == path[-1]:
        fig.withdrawn = True
        game.events.append(ev.removed(fig.id, "withdrew", "4.4", tile=list(fig.tile)))
        fig.tile = None
        loosen_holds(game)


# --- the end of the battle (5.19) -------------------------------------------------------------------------

def finish(game: Game, winner: int | None, reason: str, **facts) -> None:
    """The battle is over: what a simultaneous group still held back happens, and nothing more runs."""
    state = game.state
    if state.buffer is not None:
        flush(game)
    state.over, state.winner, state.reason = True, winner, reason
    state.active = None
    state.phase = "over"
    game.events.append(ev.game_over(winner, reason, "5.19", **facts))
    state.steps.discard(lambda step: True)


def points(state: State) -> Score:
    """The project default at the last passe (docs/rules-passe_d_armes.md): boxes marked on the enemy's vital
    monitors, a whole monitor for a combatant out of the fight (helpless, dead or withdrawn), and the map's
    objectives held, a monitor per figure an objective is worth."""
    pieces = [Piece(f.side, f.tile if f.active else None, BOXES, f.monitor.top if f.active else BOXES)
              for f in state.figures]
    return score(state.battlefield, pieces, BOXES)


def check_end(game: Game) -> bool:
    """A side with no active combatant on the field has lost; both at once is a draw. Not decided
    while a simultaneous group is still acting."""
    state = game.state
    if state.over:
        return True
    if state.buffer is not None:
        return False
    standing = {side: bool(state.active_of(side)) for side in (0, 1)}
    if all(standing.values()):
        return False
    if not any(standing.values()):
        finish(game, None, "mutual")
    else:
        finish(game, 0 if standing[0] else 1, "defeat")
    return True

