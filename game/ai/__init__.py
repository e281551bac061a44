"""AI players by name. ``tactical`` is the rule module's own AI; ``random`` the baseline every module has.

A player has ``name`` and ``choose(observation, decision) -> option key``: it sees only what its side
may see (``Match.observe``), never the match's dice or its full state.
"""
from __future__ import annotations

from ..errors import RulesError

AI_NAMES = ("random", "tactical")


def make_player(name: str, rules_id: str, seed: int = 0):
    """A fresh player; its own randomness comes from ``seed``, never from the match's dice."""
    from ..rules import get
    from .random_player import RandomPlayer     # here, not above: the command line lists AI_NAMES before numpy loads

    if name == "random":
        return RandomPlayer(seed)
    if name == "tactical":
        return get(rules_id).tactical_ai(seed)
    raise RulesError("--ai", f"unknown AI '{name}'; choose one of: {', '.join(AI_NAMES)}")
