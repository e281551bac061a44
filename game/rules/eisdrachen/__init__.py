"""Eisdrachen: individual skirmish with firearms, grenades, traps and prayers (rules/eisdrachen.md)."""
from .module import Eisdrachen

__all__ = ["Eisdrachen"]
