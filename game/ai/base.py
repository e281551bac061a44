"""Players answer decisions: a person through the window, an AI, or a replay."""
from __future__ import annotations

from typing import Protocol

from ..engine.decision import Decision
from ..engine.match import Observation


class Player(Protocol):
    name: str

    def choose(self, observation: Observation, decision: Decision) -> str:
        """Return the key of one of ``decision.options``."""
