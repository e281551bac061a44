"""Players answer decisions: a person through the window, an AI, or a replay."""
from __future__ import annotations

from typing import Protocol

from ..engine.decision import Decision
from ..engine.match import Match


class Player(Protocol):
    name: str

    def choose(self, match: Match, decision: Decision) -> str:
        """Return the key of one of ``decision.options``."""
