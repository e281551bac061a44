"""The rule modules of the game, registered in this one place; each is imported on first use."""
from __future__ import annotations

from ..engine.registry import register, rules_ids, rules_named

register("eisdrachen", "game.rules.eisdrachen:Eisdrachen")
register("kolaps", "game.rules.kolaps:Kolaps")
register("mordgrave", "game.rules.mordgrave:Mordgrave")
register("passe_d_armes", "game.rules.passe_d_armes:PasseDArmes")
register("voyageurs", "game.rules.voyageurs:Voyageurs")
register("voyageurs_aerial", "game.rules.voyageurs:VoyageursAerial")


def names() -> list[str]:
    return rules_ids()


def get(name: str):
    return rules_named(name)
