"""Eisdrachen test set-ups: figures placed by hand, an activation opened on the step stack, answers
with scripted dice."""
from __future__ import annotations

from game.engine.battlefield import Battlefield
from game.engine.dice import ScriptedDice
from game.engine.protocol import Army
from game.engine.steps import StepStack
from game.rules.eisdrachen import Eisdrachen
from game.rules.eisdrachen import steps

RULES = Eisdrachen()


def fig(fid, side, tile, rank="Soldat", **kw):
    spec = {"id": fid, "rank": rank, "tile": list(tile), "grenades": 0, "trap_kits": 0}
    spec.update(kw)
    return spec


def unit(fid, side, tile, rank="Soldat", **kw):
    spec = fig(fid, side, tile, rank, **kw)
    spec["side"] = side
    return spec


def build(*specs, bf=None, turn=1, size=30):
    """The figures on their tiles, every allowance 2, the first figure's activation open."""
    bf = bf or Battlefield.open_ground(size, size)
    armies = [Army(s, f"side {s}", [dict(spec, side=None) for spec in specs if spec["side"] == s]) for s in (0, 1)]
    for a in armies:
        for f in a.figures:
            f.pop("side")
    state = RULES.new_state(bf, armies, 12)
    state.turn = turn
    for f in state.figures:
        f.allowance = 2
    activate(state, specs[0]["id"])
    return state


def activate(state, fid, actions=2):
    """Open ``fid``'s activation with ``actions`` actions, whatever the stack held."""
    state.figure(fid).activated = True
    state.steps = StepStack()
    state.steps.push(steps.Act(fid, actions))
    RULES.begin(state)


def bless_in_hiding(state, fid, prayer, then):
    """``fid``, whose activation is open on a hiding place, hides and prays (``prayer`` the die) out of
    the enemy's sight; next turn it leaves its hiding place, then ``then``'s activation opens."""
    answer(state, "hide")
    events = answer(state, "pray", [prayer])
    state.turn += 1
    activate(state, fid)
    answer(state, "unhide")
    activate(state, then)
    return events


def end_turn(state):
    """The end of the current turn, as the turn's last activation would reach it."""
    game = RULES.context(state, ScriptedDice([]))
    steps.end_turn(game)
    return game.events


def ask_again(state):
    """A test moves figures and sets statuses by hand: the waiting step asks its decision afresh."""
    state.steps.waiting = None
    RULES.begin(state)
    return RULES.pending(state)


def keys(state):
    return [o.key for o in ask_again(state).options]


def answer(state, key, dice=()):
    decision = ask_again(state)
    option = decision.option(key)
    assert option is not None, f"{key} not in {[o.key for o in decision.options]}"
    d = ScriptedDice(dice)
    events = RULES.apply(state, option, d)
    assert d.left == [], f"dice left over: {d.left}"
    return events


def of_kind(events, kind):
    return [e for e in events if e.kind == kind]
