"""KOLAPS : Ground Zero (seed 002): alternating activations, D6 pools by rank and difficulty, wounds by zone."""
from .module import Kolaps

__all__ = ["Kolaps"]
