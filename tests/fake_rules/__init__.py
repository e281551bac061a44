"""A tiny rule module that uses every part of the protocol, for the window's and the engine's tests.

Each turn both sides bid in secret; the higher bid acts first. A figure moves, shoots, reads an omen
(a decision kind no widget knows, so the window's generic chooser answers it) or ends its activation.
A shot asks the *target's* side whether to duck, in the middle of the shooter's action. Figures carry
a gauge and markers, the field shows an overlay around the active figure, a panel lists the bids, and
the results name each side's standing figures. Its words are its own (``i18n/``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from game.engine import events as ev
from game.engine import space
from game.engine.decision import Decision, Option
from game.engine.events import Event
from game.engine.protocol import (Army, FigureView, Gauge, Marker, Odds, Outcome, Overlay, Panel, RuleModule,
                                  TokenView, Track, Words)
from game.engine.steps import Step, StepStack


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
    bids: dict = field(default_factory=dict)
    to_act: int = 0
    active: str | None = None
    steps: StepStack = field(default_factory=StepStack)
    over: bool = False
    winner: int | None = None

    def fig(self, fid: str) -> Fig:
        return next(f for f in self.figs if f.id == fid)

    def alive(self, side: int) -> list[Fig]:
        return [f for f in self.figs if f.side == side and f.pv > 0]


@dataclass
class Game:
    state: State
    dice: object
    events: list = field(default_factory=list)


@dataclass
class Bid(Step):
    side: int

    def run(self, game: Game) -> Decision | None:
        state = game.state
        answer = self.take_answer()
        if answer is None:
            return Decision(self.side, "bid", tuple(Option(f"bid:{v}", "bid", value=v) for v in range(3)),
                            secret=True)
        state.bids[self.side] = answer.value
        game.events.append(Event("bid", {"side": self.side, "value": answer.value}, visible_to=self.side))
        if len(state.bids) == 2:
            state.to_act = 0 if state.bids[0] >= state.bids[1] else 1
            game.events.append(Event("bids_revealed", {"bids": [state.bids[0], state.bids[1]]}))
            game.events.append(ev.phase("activation"))
        return None


@dataclass
class Activate(Step):
    side: int

    def run(self, game: Game) -> Decision | None:
        state = game.state
        answer = self.take_answer()
        if answer is None:
            opts = tuple(Option(f"activate:{f.id}", "activate", f.id) for f in state.alive(self.side) if not f.done)
            return Decision(self.side, "activate", opts)
        state.active = answer.figure
        game.events.append(Event("activation", {"figure": answer.figure, "actions": 2}))
        game.state.steps.push(Act(answer.figure, 2))
        return None


@dataclass
class Act(Step):
    figure: str
    left: int

    def run(self, game: Game) -> Decision | None:
        state = game.state
        f = state.fig(self.figure)
        answer = self.take_answer()
        if answer is None:
            return Decision(f.side, "action", self.options(state, f), figure=f.id, info={"actions_left": self.left})
        left = self.left - 1
        if answer.action == "move":
            game.events.append(ev.moved(f.id, f.tile, answer.path))
            f.tile = answer.tile
        elif answer.action == "shoot":
            state.steps.push(Duck(f.id, answer.target), Act(f.id, left))
            return None
        elif answer.action == "omen":
            state.steps.push(Omen(f.id))
            return None
        if answer.ends or left <= 0:
            end_activation(game)
        else:
            state.steps.push(Act(f.id, left))
        return None

    @staticmethod
    def options(state: State, f: Fig) -> tuple[Option, ...]:
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
        opts.append(Option("end", "end", f.id, ends="activation"))
        return tuple(opts)


@dataclass
class Duck(Step):
    """The target's side decides, in the middle of the shooter's action, whether the target ducks."""

    shooter: str
    target: str

    def run(self, game: Game) -> Decision | None:
        state = game.state
        t = state.fig(self.target)
        answer = self.take_answer()
        if answer is None:
            return Decision(t.side, "duck", (Option("duck", "duck", t.id, target=self.shooter),
                                             Option("stand", "stand", t.id, target=self.shooter)),
                            figure=t.id, info={"shooter": self.shooter})
        needed = 5 if answer.key == "duck" else 4
        roll = game.dice.d(6, "1.1")
        game.events.append(ev.dice(self.shooter, [roll], "wound", "1.1", needed=needed, target=t.id))
        hit = roll >= needed
        game.events.append(ev.attack(self.shooter, t.id, "ranged", hit, "1.1"))
        if hit:
            t.pv -= 1
            game.events.append(ev.damaged(t.id, "pv", 1, t.pv, "1.1"))
            if t.pv <= 0:
                game.events.append(ev.removed(t.id, "killed", "1.1"))
        return None


@dataclass
class Omen(Step):
    figure: str

    def run(self, game: Game) -> Decision | None:
        f = game.state.fig(self.figure)
        if self.take_answer() is None:
            return Decision(f.side, "omen", (Option("omen:left", "omen", f.id, value="left"),
                                             Option("omen:right", "omen", f.id, value="right")), figure=f.id)
        end_activation(game)
        return None


def end_activation(game: Game) -> None:
    state = game.state
    if state.active is None:
        return
    state.fig(state.active).done = True
    state.active = None
    alive = {s: state.alive(s) for s in (0, 1)}
    if not alive[0] or not alive[1]:
        state.over, state.winner = True, 0 if alive[0] else 1
        game.events.append(ev.game_over(state.winner, "test"))
        return
    other = 1 - state.to_act
    if any(not f.done for f in alive[other]):
        state.to_act = other
    elif not any(not f.done for f in alive[state.to_act]):
        game.events.append(Event("turn_end", {"turn": state.turn}))
        if state.turn >= state.max_turns:
            pv = [sum(f.pv for f in alive[s]) for s in (0, 1)]
            state.over, state.winner = True, None if pv[0] == pv[1] else (0 if pv[0] > pv[1] else 1)
            game.events.append(ev.game_over(state.winner, "test"))
            return
        state.turn += 1
        state.bids = {}
        game.events.append(ev.turn(state.turn))
        for f in state.figs:
            f.done = False


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
        return self.begin(State(battlefield, figs, max_turns or self.default_max_turns))

    def context(self, state, dice):
        return Game(state, dice)

    def refill(self, game: Game) -> bool:
        state = game.state
        if state.over:
            return False
        if len(state.bids) < 2:
            state.steps.push(Bid(0), Bid(1))
        else:
            state.steps.push(Activate(state.to_act))
        return True

    def outcome(self, state):
        if not state.over:
            return None
        return Outcome(state.winner, "test", tuple(Words("result.standing", side=s, n=len(state.alive(s)))
                                                   for s in (0, 1)))

    def figures(self, state, viewer):
        return [FigureView(f.id, f.side, f.tile, f"trooper {f.id}", (Gauge("pv", max(f.pv, 0), 2),),
                           (Marker("active"),) if f.id == state.active else (), f.pv > 0, kind="trooper")
                for f in state.figs]

    def tokens(self, state, viewer):
        return [TokenView(f"t{s}", (s * 5 + 3, 1), s, "real" if viewer in (None, s) else "unknown") for s in (0, 1)]

    def overlays(self, state, viewer):
        if state.active is None:
            return []
        f = state.fig(state.active)
        ring = tuple(t for t in space.tiles_within(state.battlefield, f.tile, 2))
        return [Overlay("bubble", ring, f.side, "overlay.reach", (f.id,))]

    def panels(self, state, viewer):
        bids = tuple(Words("panel.bid", side=s, value=state.bids[s]) for s in sorted(state.bids)
                     if viewer is None or s == viewer or len(state.bids) == 2)
        return [Panel("bids", bids, Track(3, tuple((f.id, f.side, min(3, f.pv + 1)) for f in state.figs)))]

    def odds(self, state, option):
        if option.action == "shoot":
            return Odds("shoot", {"pv_lost:0": Fraction(1, 2), "pv_lost:1": Fraction(1, 2)})
        if option.action in ("duck", "stand"):
            hit = Fraction(1, 3) if option.key == "duck" else Fraction(1, 2)
            return Odds(option.key, {"pv_lost:0": 1 - hit, "pv_lost:1": hit})
        return None
