"""Building Voyageurs states for the test vectors and driving their steps with stated dice."""
from __future__ import annotations

from game.engine.battlefield import Battlefield
from game.engine.dice import ScriptedDice
from game.engine.protocol import Army
from game.engine.steps import StepStack
from game.rules.voyageurs import Voyageurs, VoyageursAerial
from game.rules.voyageurs.fight import start_round
from game.rules.voyageurs.model import Game, State

GROUND = Voyageurs()
AIR = VoyageursAerial()


def fig(kind: str, tile, **kw) -> dict:
    return {"kind": kind, "tile": list(tile), **kw}


def ground(side0: list[dict], side1: list[dict], width: int = 20, height: int = 12,
           bf: Battlefield | None = None, **props) -> State:
    """A ground battle on open ground, waiting for its opening initiative roll."""
    bf = bf or Battlefield.open_ground(width, height)
    bf.properties.update(props)
    return GROUND.new_state(bf, [Army(0, "A", side0), Army(1, "B", side1)], 12)


def in_round(state: State, inits: dict[str, int], active: str | None = None) -> State:
    """The same battle with initiatives set and round 1 begun, its opening step dropped."""
    for cid, value in inits.items():
        state.fig(cid).initiative = value
    state.steps = StepStack()
    state.battle.round = 1
    state.phase = "round"
    state.active = active
    return state


def run(state: State, dice: list[int], *steps, refill=None) -> Game:
    """Push ``steps`` and run them on with ``dice`` until a decision waits (or, with the default refill,
    until they are done); every die must be used."""
    d = ScriptedDice(dice)
    game = Game(state, d)
    state.steps.push(*steps)
    state.steps.run(game, refill or (lambda g: False))
    assert d.left == [], f"dice left over: {d.left}"
    return game


def answer(state: State, key: str, dice: list[int] = (), refill=None) -> Game:
    d = ScriptedDice(list(dice))
    game = Game(state, d)
    option = state.steps.waiting.option(key)
    assert option is not None, (key, [o.key for o in state.steps.waiting.options])
    state.steps.resume(option, game, refill or (lambda g: False))
    assert d.left == [], f"dice left over: {d.left}"
    return game


def play(rules, state: State, key: str, dice: list[int] = ()) -> list:
    """One answer through the module itself, as the Match gives it."""
    d = ScriptedDice(list(dice))
    option = rules.pending(state).option(key)
    assert option is not None, (key, [o.key for o in rules.pending(state).options])
    events = rules.apply(state, option, d)
    assert d.left == [], f"dice left over: {d.left}"
    return events


def begin_round(state: State) -> Game:
    game = Game(state, ScriptedDice([]))
    start_round(game, state.battle)
    return game


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def aerial(side0: list[dict], side1: list[dict], bf: Battlefield | None = None, max_turns: int = 15,
           side_a: int | None = 0) -> State:
    """An aerial battle; past its opening roll-off, won by ``side_a`` (None: still waiting for it)."""
    bf = bf or Battlefield.open_ground(20, 12)
    st = AIR.new_state(bf, [Army(0, "A", side0), Army(1, "B", side1)], max_turns)
    if side_a is not None:
        play(AIR, st, "roll_off", [2, 1] if side_a == 0 else [1, 2])
    return st
