"""Passe d'armes: opposed d10 rolls, the defender's choice to dodge or absorb, the vital monitor."""
from .module import PasseDArmes

__all__ = ["PasseDArmes"]
