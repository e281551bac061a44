"""Escarmouche: a tactical skirmish game playing five French tabletop rule systems."""
__version__ = "0.1.0"
