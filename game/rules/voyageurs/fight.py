"""What every fight shares: the order of a round (4.2, 4.4), effects held back in a simultaneous group,
PV and the thresholds of consciousness and death (5.9, 5.10), and how a fight or the battle ends
(5.2, 5.16.6, 5.16.8)."""
from __future__ import annotations

from itertools import groupby
from typing import Callable

from ...engine import events as ev
from ...engine.events import Event
from ...engine.objectives import TURN_LIMIT, Piece, Score, score
from .model import (CAPTURED, DEAD, DESTROYED, FLED, FLYING, GROUND, LOST, UNCONSCIOUS, UP, Combatant, Fight,
                    Game, State, data)


# --- order -----------------------------------------------------------------------------------

def slots_by(ids: list[str], key: Callable[[str], tuple]) -> list[list[str]]:
    """Ids sorted by ``key``; those with equal keys form one simultaneous group (4.4)."""
    return [list(g) for _, g in groupby(sorted(ids, key=key), key=key)]


def combatant_order(state: State) -> Callable[[str], tuple]:
    """Decreasing initiative; on a tie the lower Condition first (5.3)."""
    return lambda cid: (-state.fig(cid).initiative, state.fig(cid).stat("CON"))


def can_act(state: State, fight: Fight, mid: str) -> bool:
    if mid in state.transports:
        return state.transports[mid].flying
    c = state.fig(mid)
    return c.conscious and c.tile is not None and c.woke != fight.round


def start_round(game: Game, fight: Fight) -> None:
    """Start-of-round updates, Observe first, then the flight penalty (4.2, 5.4, 5.12), and the order."""
    st = game.state
    fight.round += 1
    fight.truce.clear()
    members = [st.fig(m) for m in fight.members if st.fig(m).present]
    for c in members:
        if c.observed is not None:
            c.initiative = max(c.initiative, c.observed)
            c.observed = None
        if c.status == UNCONSCIOUS:
            c.protecting = c.interception = False
    for side in fight.penalised:
        for c in members:
            if c.side == side:
                c.initiative += data()["modifiers"]["flight_failed"]
    fight.penalised.clear()
    if st.mode == GROUND:
        st.turn = fight.round
        game.emit(ev.turn(fight.round, "4.2"))
    else:
        game.emit(Event("deck_round", {"round": fight.round}, rule="5.16.6"))
    fight.slots = slots_by([c.id for c in members if c.conscious], combatant_order(st))
    fight.order = [c for slot in fight.slots for c in slot]
    game.emit(Event("order", {"order": list(fight.order)}, rule="4.2"))


# --- effects ---------------------------------------------------------------------------------

def fight_of(state: State, target: str) -> Fight:
    return state.battle if target in state.transports else state.fight


def affect(game: Game, effect: dict) -> None:
    """Apply an effect, or hold it back while a simultaneous group acts if it falls on another (4.4)."""
    st = game.state
    fight = fight_of(st, effect["target"])
    if fight is not None and fight.grouped and effect["target"] != st.active:
        fight.buffer.append(effect)
        game.emit(Event("held_back", {"figure": effect["target"], "kind": effect["kind"],
                                      "amount": effect["amount"]}, rule="4.4"))
        return
    APPLY[effect["kind"]](game, effect)


def flush(game: Game, fight: Fight) -> None:
    """The simultaneous group has acted: what it held back now happens, in the order it was done."""
    fight.grouped = False
    held, fight.buffer = fight.buffer, []
    for effect in held:
        APPLY[effect["kind"]](game, effect)
    game.emit(Event("group_resolved", {"effects": len(held)}, rule="4.4"))
    settle(game)


def _hurt(game: Game, e: dict) -> None:
    c = game.state.fig(e["target"])
    if not c.present:
        return
    if e["held"] and c.pv <= 0:             # a held-back blow leaves a fallen enemy as it is (5.14)
        game.emit(Event("no_effect", {"figure": c.id, "by": e["by"]}, rule="5.14"))
        return
    new = max(0, c.pv - e["amount"]) if e["held"] else c.pv - e["amount"]
    game.tell(ev.damaged(c.id, "pv", c.pv - new, new, e["rule"], by=e["by"]), c, ("left",))
    set_pv(game, c, new, e["rule"])


def _restore(game: Game, e: dict) -> None:
    c = game.state.fig(e["target"])
    if not c.present:
        return
    if e["gauge"] == "pe":
        new = min(c.max_pe, c.pe + e["amount"])
        game.emit(ev.healed(c.id, "pe", new - c.pe, new, e["rule"], by=e["by"]))
        c.pe = new
        return
    new = min(c.max_pv, c.pv + e["amount"])
    game.tell(ev.healed(c.id, "pv", new - c.pv, new, e["rule"], by=e["by"]), c, ("left",))
    set_pv(game, c, new, e["rule"])


def _structure(game: Game, e: dict) -> None:
    st = game.state
    t = st.transports[e["target"]]
    t.pv -= e["amount"]
    game.emit(ev.damaged(t.id, "structure", e["amount"], t.pv, e["rule"], by=e["by"]))
    if t.pv <= 0 and t.flying:
        t.status = DESTROYED
        game.emit(ev.removed(t.id, "destroyed", "5.16.5"))
        for cid in t.crew:                  # who is aboard goes down with it; boarders fight on (5.16.6 item 8)
            c = st.fig(cid)
            if c.present and not c.on_deck:
                c.status = LOST
                game.emit(ev.removed(c.id, "lost", "5.16.5"))
        b = st.boarding
        if b is not None and b.boarder == t.id:
            st.deck.fleeing.clear()


APPLY = {"hurt": _hurt, "restore": _restore, "structure": _structure}


def set_pv(game: Game, c: Combatant, new: int, rule: str) -> None:
    """PV ≤ 0: unconscious; PV < −CON: dead (5.10). Healed above 0: awake, acting from next round."""
    c.pv = new
    if new < -c.stat("CON"):
        if c.status != DEAD:
            c.status = DEAD
            c.protecting = c.interception = False
            game.emit(ev.removed(c.id, "killed", "5.10"))
    elif new <= 0:
        if c.status == UP:
            c.status = UNCONSCIOUS
            game.emit(Event("unconscious", {"figure": c.id}, rule="5.10"))
    elif c.status == UNCONSCIOUS:
        c.status = UP
        c.woke = game.state.fight.round
        game.emit(Event("woke", {"figure": c.id}, rule="5.7"))


# --- the end ---------------------------------------------------------------------------------

def finish(game: Game, winner: int | None, reason: str, rule: str = "5.2") -> None:
    st = game.state
    st.over, st.winner, st.reason, st.phase, st.active = True, winner, reason, "over", None
    st.steps.discard(lambda s: True)
    game.emit(ev.game_over(winner, reason, rule))


def standing(state: State, ids: list[str]) -> bool:
    return any(state.fig(i).conscious and state.fig(i).tile is not None for i in ids)


def settle(game: Game) -> None:
    """After a change: end the fight that has a side down, unless a group still holds effects back."""
    st = game.state
    if st.over:
        return
    if st.mode == GROUND:
        if st.battle.grouped:
            return
        up = {s: standing(st, [c.id for c in st.side_of(s)]) for s in (0, 1)}
        if not (up[0] and up[1]):
            finish(game, None if up[0] == up[1] else (0 if up[0] else 1), "defeated")
        return
    b = st.boarding
    if b is not None and st.deck is not None and not st.deck.grouped:
        if not standing(st, b.boarders):
            end_boarding(game, False, "repelled")
        elif not standing(st, b.defenders):
            end_boarding(game, True, "taken")
    if not st.over and st.boarding is None and not st.battle.grouped:
        flying = {s: any(t.flying for t in st.transports.values() if t.side == s) for s in (0, 1)}
        if not (flying[0] and flying[1]):
            finish(game, None if flying[0] == flying[1] else (0 if flying[0] else 1), "transport_lost",
                   "5.16.8")


def surrender(game: Game, side: int) -> None:
    """A forfeit: the battle ends at once, the other side wins, the surrendering combatants are captured."""
    for c in game.state.side_of(side):
        if c.present:
            c.status = CAPTURED
    finish(game, 1 - side, "forfeit")


def flee(game: Game, side: int, rule: str) -> None:
    """The whole side leaves, carrying its unconscious (5.12), or its transport flies off (5.16.7); the
    battle ends and it loses."""
    st = game.state
    for c in st.side_of(side):
        if c.present:
            c.status = FLED
    for t in st.transports.values():
        if t.side == side and t.flying:
            t.status = FLED
    finish(game, 1 - side, "fled", rule)


def end_boarding(game: Game, success: bool, reason: str) -> None:
    """The boarding is decided (5.16.6 items 5 and 6): the ship is taken, or the aerial fight goes on."""
    st = game.state
    b = st.boarding
    boarder, boarded = st.transports[b.boarder], st.transports[b.boarded]
    st.steps.discard(lambda s: True)
    st.active = None
    game.emit(Event("boarding_over", {"figure": boarder.id, "target": boarded.id, "result": reason},
                    rule="5.16.6"))
    if success:
        boarded.status = CAPTURED
        game.emit(ev.removed(boarded.id, "captured", "5.16.6"))
        for cid in boarded.crew:
            c = st.fig(cid)
            if c.present:
                c.status = CAPTURED
                game.emit(ev.removed(c.id, "captured", "5.16.6"))
        finish(game, boarder.side, "boarded", "5.16.6")
        return
    for cid in b.boarders + b.defenders:
        c = st.fig(cid)
        if reason == "repelled" and cid in b.boarders and c.present:     # "withdrew": they go back aboard
            c.status = CAPTURED
            game.emit(ev.removed(c.id, "captured", "5.16.6"))
        c.tile, c.on_deck = None, False
        c.protecting = c.interception = False
    st.boarding, st.deck, st.phase = None, None, "turn_end"
    if not boarder.flying:
        finish(game, boarded.side, "boarders_lost", "5.16.6")


def figure_value() -> int:
    """A standard combatant's PV max, the measure an objective's worth counts in: 10 + the roster's mean
    CON, rounded down."""
    d = data()
    cons = [k["CON"] for k in d["roster"].values()]
    return d["pools"]["pv_base"] + sum(cons) // len(cons)


def points(st: State, believed: Callable[[Combatant], tuple[int, int]] | None = None) -> Score:
    """The project default at the turn limit (docs/rules-voyageurs.md): PV taken from the enemy's
    combatants (a combatant's whole PV max once unconscious, dead, captured or lost) and from its
    transports' hull (the whole hull once destroyed or captured), plus the map's objectives held by
    combatants standing on them. ``believed`` gives a combatant's (PV, PV max) as a side estimates them
    when it does not know them (the AI); by default they are read from the state."""
    pieces = []
    for c in st.combatants.values():
        pv, whole = believed(c) if believed is not None else (c.pv, c.max_pv)
        lost = whole - max(0, min(whole, pv)) if c.status in (UP, FLED) else whole
        pieces.append(Piece(c.side, c.tile if c.conscious else None, whole, lost))
    for t in st.transports.values():
        lost = t.max_pv - max(0, t.pv) if t.status in (FLYING, FLED) else t.max_pv
        pieces.append(Piece(t.side, None, t.max_pv, lost))
    return score(st.battlefield, pieces, figure_value())


def time_up(game: Game) -> None:
    """The turn limit: the side with more points wins (engine/objectives.py); equal is a draw."""
    result = points(game.state)
    finish(game, result.winner, TURN_LIMIT, "4.2")
