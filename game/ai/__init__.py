"""AI players by name. ``tactical`` picks the rule module's own tactical AI."""
from __future__ import annotations

from importlib import import_module

from ..errors import RulesError
from .random_player import RandomPlayer

TACTICAL: dict[str, str] = {
    "eisdrachen": "game.ai.eisdrachen:EisdrachenAI",
    "kolaps": "game.ai.kolaps:KolapsAI",
}

AI_NAMES = ("random", "tactical")


def make_player(name: str, rules_id: str, seed: int = 0):
    """A fresh player; its own randomness comes from ``seed``, never from the match's dice."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "tactical":
        if rules_id not in TACTICAL:
            raise RulesError("--ai", f"no tactical AI for '{rules_id}' yet; use --ai random")
        module_name, cls_name = TACTICAL[rules_id].split(":")
        return getattr(import_module(module_name), cls_name)(seed)
    raise RulesError("--ai", f"unknown AI '{name}'; choose one of: {', '.join(AI_NAMES)}")
