"""What a viewer sees of a passe d'armes: figures with their vital monitor as boxes, the initiative order,
the declarations it may know, weapons on the ground, and the post-battle recovery summary (5.12).
"""
from __future__ import annotations

from ...engine.objectives import TURN_LIMIT
from ...engine.objectives import panel as objective_panel
from ...engine.protocol import FigureView, Gauge, Marker, Outcome, Panel, Words
from .effects import points
from .flow import plan_words
from .rolls import recovery
from .state import Combatant, State


def visible_declarations(state: State, viewer: int | None) -> dict[str, list[str]]:
    """A side knows its own declarations, and every one once its initiative Exploit shows them (5.1 b)."""
    if viewer is None or viewer in state.foresight:
        return dict(state.declarations)
    return {fid: plan for fid, plan in state.declarations.items() if state.figure(fid).side == viewer}


def figure_view(state: State, f: Combatant) -> FigureView:
    m = f.monitor
    gauges = [Gauge("monitor", 10 - m.top, 10, "boxes", m.boxes())]
    if m.out and not m.dead:
        gauges.append(Gauge("death", f.pui - m.overflow, f.pui, "pips"))
    markers: list[Marker] = []
    if state.active == f.id:
        markers.append(Marker("active"))
    elif f.id in state.activated:
        markers.append(Marker("activated"))
    if f.id in state.initiative:
        margin, exploit = state.initiative[f.id]
        markers.append(Marker("exploit" if exploit else "initiative", margin=margin))
    status = m.status
    if status in ("ko", "out"):
        markers.append(Marker(status))
    if f.withdrawn:
        markers.append(Marker("withdrawn"))
    if f.knocked_down:
        markers.append(Marker("knocked_down"))
    if f.held_by is not None:
        markers.append(Marker("held"))
    if any(g.held_by == f.id for g in state.figures):
        markers.append(Marker("holding"))
    if f.feinted_until >= state.turn > 0:
        markers.append(Marker("feinted"))
    markers.append(Marker("weapon", weapon=f.in_hand))
    markers.append(Marker("protection", protection=f.protection))
    return FigureView(f.id, f.side, None if f.withdrawn else f.tile, f.name, tuple(gauges), tuple(markers),
                      alive=not m.dead, kind=f.role)


def figures(state: State, viewer: int | None) -> list[FigureView]:
    return [figure_view(state, f) for f in state.figures]


def panels(state: State, viewer: int | None) -> list[Panel]:
    out = []
    if state.order:
        out.append(Panel("order", tuple(Words("panel.order_line", rank=i + 1, figures=list(group),
                                              exploit=bool(state.initiative[group[0]][1]),
                                              margin=state.initiative[group[0]][0])
                                        for i, group in enumerate(state.order))))
    seen = visible_declarations(state, viewer)
    if seen:
        out.append(Panel("intentions", tuple(Words("panel.intention", figure=fid, plan=plan_words(state, plan))
                                             for fid, plan in seen.items())))
    if state.items:
        out.append(Panel("ground", tuple(Words("panel.item", weapon=i.weapon, tile=list(i.tile))
                                         for i in state.items)))
    found = objective_panel(state.battlefield, figures(state, viewer))
    return out + ([found] if found else [])


def outcome(state: State) -> Outcome | None:
    """The winner, and for every combatant how long its shocks and traumas take to clear (5.12)."""
    if not state.over:
        return None
    lines = []
    for f in state.figures:
        if f.monitor.dead:
            lines.append(Words("summary.dead", figure=f.id))
            continue
        r = recovery(f.monitor, f.pui, f.res)
        state_word = "withdrew" if f.withdrawn else f.monitor.status
        lines.append(Words("summary.figure", figure=f.id, state=state_word, monitor=f.monitor.text(),
                           shock=r.shock_boxes, minutes=r.minutes, minutes_cared=r.minutes_cared,
                           trauma=r.trauma_boxes, days=r.days, days_cared=r.days_cared))
    if state.reason == TURN_LIMIT:
        lines += points(state).lines()
    return Outcome(state.winner, state.reason, tuple(lines))
