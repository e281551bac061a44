"""The baseline: any legal option, drawn from the player's own seeded generator."""
from __future__ import annotations

import random

from ..engine.decision import Decision


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int = 0):
        self._rng = random.Random(seed)

    def choose(self, observation, decision: Decision) -> str:
        return self._rng.choice(decision.options).key
