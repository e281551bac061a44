"""Voyageurs (rules/voyageurs.md): initiative combat with energy, and its aerial battle mode."""
from .module import Voyageurs, VoyageursAerial

__all__ = ["Voyageurs", "VoyageursAerial"]
