"""The project's own errors: each names the place (file, layer, object, tile) and says what is wrong."""
from __future__ import annotations

import unicodedata

LONGEST_PLACE = 300       # characters of a place shown in a message (a path may be far longer)
LONGEST_MESSAGE = 2000    # characters of a message, which may quote a value read from a file


def printable(text, limit: int | None = None) -> str:
    """Text any screen can draw and any terminal can print: lone surrogates (from undecodable file
    names or JSON escapes) written as escapes, control characters as spaces, at most ``limit``
    characters (the middle elided)."""
    text = str(text)
    if limit is not None and len(text) > 4 * limit:
        text = text[:2 * limit] + text[-2 * limit:]          # the ends are all that can be shown
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cs") else c for c in text)
    if limit is not None and len(text) > limit:
        text = f"{text[:limit * 2 // 3]}…{text[-(limit // 3) + 1:]}"
    return text


class EscarmoucheError(Exception):
    """An error meant for a person: ``str()`` is one line, ``place: message``."""

    def __init__(self, place: str, message: str):
        self.place = printable(place, LONGEST_PLACE)
        self.message = " ".join(printable(message, LONGEST_MESSAGE).split())
        super().__init__(f"{self.place}: {self.message}" if self.place else self.message)


class MapError(EscarmoucheError):
    """A map that cannot be played."""


class SaveError(EscarmoucheError):
    """A save or replay file that cannot be read."""


class OutputError(EscarmoucheError):
    """A file the game was asked to write (a save, a screenshot, the settings) and could not."""


class RulesError(EscarmoucheError):
    """A rule module or its data files refused something."""


class IllegalAnswer(EscarmoucheError):
    """An answer that is not among the pending decision's options."""
