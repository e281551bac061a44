"""AI players by name. ``random`` and ``greedy`` are the baselines every module has; ``tactical`` is the
rule module's own AI, at a level: ``tactical`` (normal), ``tactical:easy``, ``tactical:hard``.

A player has ``name`` and ``choose(observation, decision) -> option key``: it sees only what its side
may see (``Match.observe``), never the match's dice or its full state.
"""
from __future__ import annotations

from ..errors import RulesError

AI_LEVELS = ("easy", "normal", "hard")      # their play: tactics.LEVELS
AI_NAMES = ("random", "greedy", "tactical") + tuple(f"tactical:{level}" for level in AI_LEVELS)


def make_player(name: str, rules_id: str, seed: int = 0, level: str | None = None):
    """A fresh player; its own randomness comes from ``seed``, never from the match's dice. ``level``
    (easy, normal, hard) sets a tactical player's level unless ``name`` gives one."""
    from ..rules import get
    # here, not above: the command line lists AI_NAMES before numpy loads
    from .greedy import GreedyPlayer
    from .random_player import RandomPlayer

    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer(seed)
    kind, _, named = name.partition(":")
    if kind == "tactical" and (named or level or "normal") in AI_LEVELS:
        return get(rules_id).tactical_ai(seed, named or level or "normal")
    raise RulesError("--ai", f"unknown AI '{name}'; choose one of: {', '.join(AI_NAMES)}")
