"""A tiny rule module for engine tests: figures walk toward each other and strike on a die."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.engine import events as ev
from game.engine.decision import Decision, Option
from game.engine.protocol import Army, FigureView, Gauge, Outcome, RuleModule
from game.engine.steps import Step, StepStack


@dataclass
class ToyFigure:
    id: str
    side: int
    tile: tuple[int, int]
    alive: bool = True


@dataclass
class ToyState:
    figures: dict[str, ToyFigure]
    max_turns: int
    turn: int = 1
    side: int = 0
    steps: StepStack = field(default_factory=StepStack)


@dataclass
class ToyGame:
    state: ToyState
    dice: object
    events: list = field(default_factory=list)


@dataclass
class Act(Step):
    """The side to play moves its figure one tile, strikes, or waits; then the other side plays."""

    def run(self, game: ToyGame) -> Decision | None:
        state = game.state
        me = [f for f in state.figures.values() if f.side == state.side and f.alive][0]
        foe = [f for f in state.figures.values() if f.side != state.side and f.alive][0]
        option = self.take_answer()
        if option is None:
            opts = [Option("wait", "end", me.id, ends="turn")]
            if abs(me.tile[0] - foe.tile[0]) > 1:
                opts.append(Option("step", "move", me.id,
                                   tile=(me.tile[0] + (1 if state.side == 0 else -1), me.tile[1])))
            else:
                opts.append(Option(f"strike:{foe.id}", "strike", me.id, target=foe.id))
            return Decision(state.side, "action", tuple(opts), figure=me.id)
        if option.action == "move":
            game.events.append(ev.moved(me.id, me.tile, [option.tile]))
            me.tile = option.tile
        elif option.action == "strike":
            roll = game.dice.d(6, "strike")
            game.events.append(ev.dice(me.id, [roll], "strike", needed=4))
            if roll >= 4:
                state.figures[option.target].alive = False
                game.events.append(ev.removed(option.target, "killed"))
        if state.side == 1:
            state.turn += 1
        state.side = 1 - state.side
        return None


class ToyRules(RuleModule):
    id = "toy"
    default_max_turns = 30

    @property
    def data_files(self) -> list[Path]:
        return [Path(__file__)]

    def default_armies(self, battlefield):
        return [Army(0, "west", [{"id": "w"}]), Army(1, "east", [{"id": "e"}])]

    def new_state(self, battlefield, armies, max_turns):
        figs = {}
        for army in armies:
            for i, f in enumerate(army.figures):
                x = 0 if army.side == 0 else battlefield.width - 1
                figs[f["id"]] = ToyFigure(f["id"], army.side, (x, i))
        return self.begin(ToyState(figs, max_turns))

    def context(self, state, dice):
        return ToyGame(state, dice)

    def refill(self, game) -> bool:
        if self.outcome(game.state):
            return False
        game.state.steps.push(Act())
        return True

    def outcome(self, state):
        alive = {f.side for f in state.figures.values() if f.alive}
        if len(alive) == 1:
            return Outcome(alive.pop(), "annihilation")
        if state.turn > state.max_turns:
            return Outcome(None, "turn limit")
        return None

    def figures(self, state, viewer):
        return [FigureView(f.id, f.side, f.tile, f.id, (Gauge("life", 1 if f.alive else 0, 1),), alive=f.alive)
                for f in state.figures.values()]
