"""The project's own errors: each names the place (file, layer, object, tile) and says what is wrong."""
from __future__ import annotations


class EscarmoucheError(Exception):
    """An error meant for a person: ``str()`` is one line, ``place: message``."""

    def __init__(self, place: str, message: str):
        self.place = str(place)
        self.message = " ".join(str(message).split())
        super().__init__(f"{self.place}: {self.message}" if self.place else self.message)


class MapError(EscarmoucheError):
    """A map that cannot be played."""


class SaveError(EscarmoucheError):
    """A save or replay file that cannot be read."""


class RulesError(EscarmoucheError):
    """A rule module or its data files refused something."""


class IllegalAnswer(EscarmoucheError):
    """An answer that is not among the pending decision's options."""
