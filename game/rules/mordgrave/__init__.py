"""Mordgrave: leaders, command bubbles and D20 melee between fantasy warbands (rules/mordgrave.md)."""
from .module import Mordgrave

__all__ = ["Mordgrave"]
