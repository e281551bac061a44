"""Escarmouche: a tactical skirmish game playing five French tabletop rule systems."""
import os

# pytmx imports pygame when it is installed; keep pygame's banner out of headless output (sim --json).
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"

from . import rules  # noqa: E402,F401  (registers the rule modules; it imports nothing heavy)
