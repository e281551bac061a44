"""Fixtures for the Passe d'armes tests: roster combatants and Louis on open ground, and a driver that
runs the module's own steps with stated dice and answers."""
from __future__ import annotations

from game.engine.battlefield import Battlefield
from game.engine.dice import ScriptedDice
from game.engine.steps import Step, StepStack
from game.rules.passe_d_armes import PasseDArmes
from game.rules.passe_d_armes.effects import Game
from game.rules.passe_d_armes.state import Combatant, State

RULES = PasseDArmes()


def fighter(role: str, side: int, tile, fid: str | None = None, **changes) -> Combatant:
    """A roster combatant (3.4) standing on ``tile``."""
    f = RULES._build(side, 0, {"role": role})
    f.id = fid or role
    f.tile = tuple(tile)
    for k, v in changes.items():
        setattr(f, k, v)
    return f


def louis(side: int, tile, fid: str = "louis") -> Combatant:
    """The seed's Louis (3.4): PUI 3, ADR 4, RES 1, Escrime 3; Lutte 1, Tir 1, Réflexe 2, Résister 1;
    a sword-cane, no protection."""
    return Combatant(fid, side, "Louis", "fencer", pui=3, adr=4, res=1,
                     skills={"lutte": 1, "escrime": 3, "tir": 1, "reflexe": 2, "resister": 1},
                     weapons=["sword_cane"], in_hand="sword_cane", protection="none", mov=5, tile=tuple(tile))


def field(width: int = 16, height: int = 12) -> Battlefield:
    bf = Battlefield.open_ground(width, height)
    bf.properties["hazard_ids"] = {1: "campfire", 2: "blaze", 3: "gas", 4: "drop"}
    return bf


def state_of(*figures: Combatant, bf: Battlefield | None = None, turn: int = 1) -> State:
    s = State(bf or field(), list(figures), max_turns=30)
    s.turn = turn
    return s


class Driver:
    """Runs steps with scripted dice; each decision is answered by the next key given for its kind."""

    def __init__(self, state: State, dice: list[int], answers: list[str] = ()):
        self.state = state
        self.dice = ScriptedDice(dice)
        self.answers = list(answers)
        self.decisions = []
        self.events = []

    def run(self, *steps: Step):
        st = self.state
        st.steps = StepStack()
        st.steps.push(*steps)
        game = Game(st, self.dice)
        st.steps.run(game, lambda g: False)
        while st.steps.waiting is not None:
            d = st.steps.waiting
            self.decisions.append(d)
            if not self.answers:
                break
            key = self.answers.pop(0)
            option = d.option(key)
            assert option is not None, f"{key} is not among {[o.key for o in d.options]} ({d.kind})"
            st.steps.resume(option, game, lambda g: False)
        self.events += game.events
        return self

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def of(self, kind: str) -> list:
        return [e for e in self.events if e.kind == kind]

    @property
    def waiting(self):
        return self.state.steps.waiting
