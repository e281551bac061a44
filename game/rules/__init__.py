"""Registered rule modules, imported on first use so one broken module cannot stop the others."""
from __future__ import annotations

from importlib import import_module

from ..errors import RulesError
from .base import RuleModule

REGISTRY: dict[str, str] = {
    "eisdrachen": "game.rules.eisdrachen:Eisdrachen",
    "kolaps": "game.rules.kolaps:Kolaps",
}


def names() -> list[str]:
    return sorted(REGISTRY)


def get(name: str) -> RuleModule:
    if name not in REGISTRY:
        raise RulesError("--rules", f"unknown rule system '{name}'; choose one of: {', '.join(names())}")
    module_name, cls_name = REGISTRY[name].split(":")
    return getattr(import_module(module_name), cls_name)()
