"""A tiny rule module for window tests: a secret bid each turn, tokens hidden from the opponent,
a move/shoot/omen/end action list and an ``omen`` decision kind no widget knows (generic chooser)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from game.engine import space
from game.engine.decision import Decision, Option
from game.engine.events import Event
from game.rules.base import Army, FigureView, Odds, Outcome, RuleModule, TokenView


@dataclass
class Fig:
    id: str
    side: int
    tile: tuple
    pv: int = 2
    done: bool = False


@dataclass
class State:
    battlefield: object
    figs: list
    max_turns: int
    turn: int = 1
    phase: str = "bid"
    bids: dict = field(default_factory=dict)
    to_act: int = 0
    active: str | None = None
    left: int = 0
    omen: bool = False
    over: bool = False
    winner: int | None = None


class FakeRules(RuleModule):
    id = "fake"
    default_max_turns = 2

    @property
    def data_files(self) -> list[Path]:
        return [Path(__file__)]

    def default_armies(self, battlefield):
        return [Army(s, f"army {s}", [{"name": f"trooper {s}{i}"} for i in range(2)]) for s in (0, 1)]

    def new_state(self, battlefield, armies, max_turns):
        figs = []
        for army in armies:
            for i, _ in enumerate(army.figures):
                figs.append(Fig(f"f{army.side}{i}", army.side, battlefield.spawn[army.side][i]))
        return State(battlefield, figs, max_turns or self.default_max_turns)

    def fig(self, state, fid):
        return next(f for f in state.figs if f.id == fid)

    def pending(self, state):
        if state.over:
            return None
        if state.phase == "bid":
            side = len(state.bids)
            return Decision(side, "bid", tuple(Option(f"bid:{v}", "bid", value=v) for v in range(3)), secret=True)
        if state.omen:
            f = self.fig(state, state.active)
            return Decision(f.side, "omen", (Option("omen:left", "omen", f.id, value="left"),
                                             Option("omen:right", "omen", f.id, value="right")), figure=f.id)
        if state.active is None:
            opts = tuple(Option(f"activate:{f.id}", "activate", f.id) for f in state.figs
                         if f.side == state.to_act and f.pv > 0 and not f.done)
            return Decision(state.to_act, "activate", opts)
        f = self.fig(state, state.active)
        bf = state.battlefield
        occupied = {g.tile for g in state.figs if g.pv > 0 and g is not f}
        reach = space.reach(bf, f.tile, 3)
        opts = []
        for t in sorted(reach.cost):
            if t != f.tile and t not in occupied and bf.can_stand(t):
                opts.append(Option(f"move:{t[0]},{t[1]}", "move", f.id, t, path=tuple(reach.path(t)),
                                   cost=reach.cost[t]))
        for g in state.figs:
            if g.side != f.side and g.pv > 0 and space.line_of_sight(bf, f.tile, g.tile):
                opts.append(Option(f"shoot:{g.id}", "shoot", f.id, target=g.id))
        opts.append(Option("omen", "omen", f.id))
        opts.append(Option("end", "end", f.id))
        return Decision(f.side, "action", tuple(opts), figure=f.id)

    def apply(self, state, option, dice):
        ev = []
        if option.action == "bid":
            state.bids[len(state.bids)] = option.value
            ev.append(Event("bid", {"side": len(state.bids) - 1, "value": option.value},
                            visible_to=len(state.bids) - 1))
            if len(state.bids) == 2:
                state.to_act = 0 if state.bids[0] >= state.bids[1] else 1
                state.phase = "activate"
                ev.append(Event("bids_revealed", {"bids": [state.bids[0], state.bids[1]]}))
            return ev
        if option.action == "activate":
            state.active, state.left = option.figure, 2
            ev.append(Event("activation", {"figure": option.figure, "actions": 2}))
            return ev
        f = self.fig(state, state.active)
        if option.action == "move":
            ev.append(Event("moved", {"figure": f.id, "from": list(f.tile), "to": list(option.tile)}))
            f.tile = option.tile
        elif option.action == "shoot":
            g = self.fig(state, option.target)
            roll = dice.d(6, "shoot")
            ev.append(Event("dice", {"figure": f.id, "purpose": "wound", "values": [roll], "sides": 6,
                                     "needed": 4, "target": g.id}, rule="1.1"))
            if roll >= 4:
                g.pv -= 1
                ev.append(Event("wounded", {"figure": g.id, "amount": 1, "pv": g.pv}))
        elif option.action == "omen" and option.value is None:
            state.omen = True
            return ev
        state.omen = False
        state.left -= 1
        if option.action == "end" or state.left <= 0 or option.key.startswith("omen:"):
            self._end_activation(state, ev)
        return ev

    def _end_activation(self, state, ev):
        self.fig(state, state.active).done = True
        state.active = None
        alive = {s: [f for f in state.figs if f.side == s and f.pv > 0] for s in (0, 1)}
        if not alive[0] or not alive[1]:
            state.over, state.winner = True, 0 if alive[0] else 1
            return
        other = 1 - state.to_act
        if any(not f.done for f in alive[other]):
            state.to_act = other
        elif not any(not f.done for f in alive[state.to_act]):
            ev.append(Event("turn_end", {"turn": state.turn}))
            if state.turn >= state.max_turns:
                pv = [sum(f.pv for f in alive[s]) for s in (0, 1)]
                state.over, state.winner = True, None if pv[0] == pv[1] else (0 if pv[0] > pv[1] else 1)
                return
            state.turn += 1
            state.phase, state.bids = "bid", {}
            for f in state.figs:
                f.done = False

    def outcome(self, state):
        return Outcome(state.winner, "test") if state.over else None

    def figures(self, state, viewer):
        return [FigureView(f.id, f.side, f.tile, f"trooper {f.id}", (max(f.pv, 0), 2),
                           ("active",) if f.id == state.active else (), f.pv > 0) for f in state.figs]

    def tokens(self, state, viewer):
        return [TokenView(f"t{s}", (s * 5 + 3, 1), s, "real" if viewer in (None, s) else "unknown") for s in (0, 1)]

    def odds(self, state, option):
        if option.action == "shoot":
            return Odds("shoot", {"pv_lost:0": Fraction(1, 2), "pv_lost:1": Fraction(1, 2)})
        return None
