"""What each side may see (5.15): an enemy's level, PV (current and maximum, so its CON too) and special
abilities stay hidden until a knowledge test of its side has succeeded for its type. Everything else of
the battle is in plain sight: standing, unconscious or dead, initiative, PE, the track."""
from __future__ import annotations

import copy
import random

from ...engine.protocol import FigureView, Gauge, Marker, ObjectView, Panel, Track, Words
from .model import DEAD, UNCONSCIOUS, UP, Combatant, State, Transport, data


def knows(state: State, viewer: int | None, c: Combatant) -> bool:
    return viewer is None or state.knows(viewer, c)


def combatant_view(state: State, c: Combatant, viewer: int | None) -> FigureView:
    known = knows(state, viewer, c)
    pv = Gauge("pv", max(0, c.pv), c.max_pv) if known else Gauge("pv", None, None)
    markers = []
    if state.active == c.id:
        markers.append(Marker("active"))
    fight = state.fight
    if c.present and fight is not None and fight.round and c.id in fight.members:
        markers.append(Marker("initiative", value=c.initiative))
    if c.status == UNCONSCIOUS:
        markers.append(Marker("unconscious", pv=c.pv if known else None))
    if c.protecting:
        markers.append(Marker("protecting"))
    if c.observed is not None:
        markers.append(Marker("observing"))
    if known:
        markers.append(Marker("level", value=c.level))
    if c.pilot:
        markers.append(Marker("pilot"))
    if c.transport is not None and c.present and not c.on_deck:
        markers.append(Marker("aboard", transport=state.transports[c.transport].name))
    on_field = c.tile if c.status in (UP, UNCONSCIOUS, DEAD) else None     # the fled and captured have left
    return FigureView(c.id, c.side, on_field, c.name,
                      (pv, Gauge("pe", c.pe, c.max_pe)), tuple(markers), c.present, c.kind)


def transport_view(state: State, t: Transport) -> FigureView:
    markers = [Marker("case", value=t.case), Marker("speed", value=t.speed)]
    if state.active == t.id:
        markers.insert(0, Marker("active"))
    return FigureView(t.id, t.side, None, t.name, (Gauge("structure", max(0, t.pv), t.max_pv),
                                                   Gauge("pe", t.pe, t.max_pe)), tuple(markers), t.flying, t.kind)


def figures(state: State, viewer: int | None) -> list[FigureView]:
    out = [transport_view(state, t) for t in state.transports.values()]
    return out + [combatant_view(state, c, viewer) for c in state.combatants.values()]


def panels(state: State, viewer: int | None) -> list[Panel]:
    """The distance track with each transport and where its crew is; the boarding; the round's order."""
    out = []
    if state.transports:
        flying = [t for t in state.transports.values() if t.flying]
        lines: list[Words] = []
        for t in flying:
            lines.append(Words("panel.transport", name=t.name, case=t.case, speed=t.speed, pv=max(0, t.pv),
                               max=t.max_pv, pe=t.pe))
            crew = [state.fig(c) for c in t.crew if state.fig(c).present]
            for where in ("pilot", "post", "deck", "down"):
                who = [c.id for c in crew if post(c) == where]
                if who:
                    lines.append(Words(f"panel.crew.{where}", figures=who))
        if len(flying) == 2:
            gap = abs(flying[0].case - flying[1].case) - 1
            lines.append(Words("panel.between", n=gap, modifier=data()["track"]["modifiers"][str(gap)]))
        if state.boarding is not None:
            lines.append(Words("panel.boarding", figure=state.boarding.boarder, target=state.boarding.boarded))
        track = Track(data()["track"]["length"], tuple((t.id, t.side, t.case) for t in flying))
        out.append(Panel("track", tuple(lines), track))
    fight = state.fight
    if fight is not None and fight.round:
        order = [cid for cid in fight.order if state.fig(cid).conscious]
        out.append(Panel("order", (Words("panel.round", n=fight.round),) + tuple(
            Words("panel.initiative", figure=cid, value=state.fig(cid).initiative) for cid in order)))
    return out


def post(c: Combatant) -> str:
    """Where a crew member is: piloting, at a firing post, on the deck, or down."""
    if c.status != UP:
        return "down"
    if c.on_deck:
        return "deck"
    return "pilot" if c.pilot else "post"


def objects(state: State) -> list[ObjectView]:
    """Things on the ground that options and events name: items to pick up, interactive objects."""
    return [ObjectView(i.id, i.thing, (i.tile,)) for i in state.items] + \
        [ObjectView(g.id, g.name, g.tiles, "used" if g.used else "") for g in state.gadgets]


def observe(state: State, side: int) -> State:
    """The state as ``side`` knows it: what it has not learnt of an enemy type is None."""
    seen = copy.deepcopy(state)
    for fight in (seen.battle, seen.deck):
        if fight is not None:       # a tie of initiative is a simultaneous group only if Conditions tie too (4.4)
            fight.slots = [part for slot in fight.slots for part in told_apart(seen, side, slot)]
    for c in seen.combatants.values():
        if not seen.knows(side, c):
            c.pv, c.level, c.abilities = None, None, None
            c.traits["CON"] = None
    return seen


def told_apart(state: State, side: int, slot: list[str]) -> list[list[str]]:
    """A slot still to come as ``side`` knows it: a group holding a combatant whose Condition it does not
    know could as well be one slot after another, in the announced order."""
    if len(slot) > 1 and any(m in state.combatants and not state.knows(side, state.fig(m)) for m in slot):
        return [[m] for m in slot]
    return [slot]


def disguise(state: State, side: int, rng: random.Random) -> State:
    """Draw afresh what ``side`` has not learnt, consistent with what it sees: standing (PV above 0),
    unconscious (−CON to 0) or dead (below −CON)."""
    lo, hi = data()["characteristic_range"]
    lv_lo, lv_hi = data()["level_range"]
    base = data()["pools"]["pv_base"]
    out = copy.deepcopy(state)
    for c in out.combatants.values():
        if out.knows(side, c):
            continue
        con = rng.randint(lo, hi)
        c.traits["CON"] = con
        c.level = rng.randint(lv_lo, lv_hi)
        if c.status == UP:
            c.pv = rng.randint(1, base + con)
        elif c.status == UNCONSCIOUS:
            c.pv = rng.randint(-con, 0)
        elif c.status == DEAD:
            c.pv = -con - rng.randint(1, base)
        else:
            c.pv = rng.randint(-con, base + con)
    return out
