"""Shared fixtures for the KOLAPS tests: open-ground states, scripted dice, step runners."""
from __future__ import annotations

from game.engine.battlefield import Battlefield
from game.engine.dice import ScriptedDice
from game.engine.match import Match
from game.engine.protocol import Army
from game.engine.steps import Step, StepStack
from game.rules.kolaps import Kolaps
from game.rules.kolaps.effects import Ctx

RULES = Kolaps()


def fig(cid: str, archetype: str, tile, **extra) -> dict:
    return {"id": cid, "archetype": archetype, "tile": list(tile), **extra}


def armies(side0: list[dict], side1: list[dict]) -> list[Army]:
    return [Army(0, "A", side0), Army(1, "B", side1)]


def make_state(side0, side1, width=40, height=20, turn=1, bf=None):
    bf = bf or Battlefield.open_ground(width, height)
    state = RULES.new_state(bf, armies(side0, side1), 10)
    state.turn = turn
    state.phase = "action"
    state.steps = StepStack()
    return state


def ctx_for(state, dice) -> Ctx:
    return Ctx(state, ScriptedDice(dice), RULES.data)


def run_steps(ctx: Ctx, *steps: Step) -> None:
    """Run steps (and what they push) until a decision is needed or the stack is empty."""
    ctx.state.steps.push(*steps)
    ctx.state.steps.run(ctx, lambda game: False)


def answer_step(ctx: Ctx, key: str) -> None:
    """Answer the waiting decision with the option ``key`` and run on."""
    option = ctx.state.steps.waiting.option(key)
    assert option is not None, (key, [o.key for o in ctx.state.steps.waiting.options])
    ctx.state.steps.resume(option, ctx, lambda game: False)


def dice_events(ctx: Ctx, purpose: str | None = None) -> list:
    return [e.data["faces"] for e in ctx.events if e.kind == "dice" and (purpose is None or e.data["purpose"] == purpose)]


def match_with(side0, side1, dice, width=40, height=20, bf=None) -> Match:
    bf = bf or Battlefield.open_ground(width, height)
    m = Match(bf, RULES, armies(side0, side1), seed=1)
    m.dice = ScriptedDice(dice)
    return m
