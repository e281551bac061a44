"""Which rule modules exist, by id. ``game.rules`` fills it; the engine only looks modules up here.

Kept free of heavy imports so the command line can list the modules before it loads anything.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

from ..errors import RulesError, printable

_REGISTERED: dict[str, str] = {}


def register(rules_id: str, target: str) -> None:
    """Make a module known by id; ``target`` is "package.module:Class", imported on first use so one
    broken module cannot stop the others."""
    _REGISTERED[rules_id] = target


def rules_ids() -> list[str]:
    return sorted(_REGISTERED)


def rules_named(rules_id: str) -> Any:
    """A fresh instance of the module registered as ``rules_id``."""
    if rules_id not in _REGISTERED:
        raise RulesError("--rules", f"unknown rule system '{printable(rules_id, 80)}'; choose one of: {', '.join(rules_ids())}")
    module_name, cls_name = _REGISTERED[rules_id].split(":")
    return getattr(import_module(module_name), cls_name)()
