"""Shared fixtures for the Mordgrave tests: open ground, figures on given tiles, scripted dice, answers."""
from __future__ import annotations

from game.engine.battlefield import Battlefield
from game.engine.dice import ScriptedDice
from game.engine.protocol import Army
from game.rules.mordgrave import Mordgrave
from game.rules.mordgrave.roster import build_figure
from game.rules.mordgrave.state import Game, State

RULES = Mordgrave()


def fig(fid: str, side: int, tile, **spec):
    """A base human (Mouv 5, Comb 0, Tir 0, Def 6, Brav 0, Vit 1) with the given loadout."""
    return build_figure(side, 0, {"id": fid, "name": fid, **spec}, tuple(tile))


def state(*figures, bf: Battlefield | None = None, turn: int = 1, size=(20, 20)) -> State:
    return State(bf or Battlefield.open_ground(*size), list(figures), 10, turn=turn)


def game(st: State, dice=()) -> Game:
    return Game(st, ScriptedDice(dice))


def entry(fid: str, tile, role: str = "henchman", **spec) -> dict:
    return {"id": fid, "name": fid, "role": role, "tile": list(tile), "faction": "empire", **spec}


def match_state(side0: list[dict], side1: list[dict], bf: Battlefield | None = None, max_turns: int = 10) -> State:
    """A state of the module itself, waiting for its first decision (the initiative roll)."""
    bf = bf or Battlefield.open_ground(20, 20)
    return RULES.new_state(bf, [Army(0, "A", side0), Army(1, "B", side1)], max_turns)


def answer(st: State, key: str, dice=()):
    """Give the pending decision the option ``key`` with the listed dice; all of them must be used."""
    d = RULES.pending(st)
    option = d.option(key)
    assert option is not None, f"{key} is not among {[o.key for o in d.options]} ({d.kind})"
    scripted = ScriptedDice(dice)
    events = RULES.apply(st, option, scripted)
    assert scripted.left == [], f"dice left over: {scripted.left}"
    return events


def keys(st: State) -> list[str]:
    return [o.key for o in RULES.pending(st).options]


def of(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]
