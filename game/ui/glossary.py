"""The glossary: each rules term a tooltip or a log line uses, found by its words, with its meaning.

A module's words hold ``glossary.<id>`` (what the term means, in plain words) and ``glossary.<id>.term``
(the words that name it on screen, "|" between several: "AFF|engagement"). The window's own words may
hold entries too, for terms every system shares (cover, line of sight).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import i18n
from .i18n import keys_with, language, tr


@dataclass(frozen=True)
class Entry:
    id: str
    words: tuple[str, ...]      # as they appear on screen; the first is the headword
    meaning: str

    @property
    def headword(self) -> str:
        return self.words[0]


_cache: dict = {"key": None, "entries": [], "spans": {}}


def _words_in_use() -> tuple:
    """What the glossary depends on: the language and the module's words now in use."""
    table = i18n._module.get(language())
    return language(), id(table), len(table or ())


def entries() -> list[Entry]:
    """The glossary of the rules in play and the window, in the player's language, by headword."""
    if _cache["key"] != _words_in_use():
        _cache.update(key=_words_in_use(), entries=_entries(), spans={})
    return _cache["entries"]


def _entries() -> list[Entry]:
    out = []
    for key in keys_with("glossary."):
        if key.endswith(".term"):
            continue
        ident = key[len("glossary."):]
        words = tuple(w.strip() for w in tr(f"{key}.term", ident.replace("_", " ")).split("|") if w.strip())
        out.append(Entry(ident, words, tr(key)))
    return sorted(out, key=lambda e: e.headword.casefold())


_patterns: dict[tuple[str, ...], re.Pattern] = {}


def _pattern(words: tuple[str, ...]) -> re.Pattern:
    if words not in _patterns:
        alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        _patterns[words] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return _patterns[words]


def spans(text: str) -> list[tuple[int, int, Entry]]:
    """Where the glossary's terms stand in ``text``: (start, end, entry), in reading order."""
    known = entries()
    memo = _cache["spans"]
    if text not in memo:
        if len(memo) > 5000:
            memo.clear()
        memo[text] = _spans(text, known)
    return memo[text]


def _spans(text: str, known: list[Entry]) -> list[tuple[int, int, Entry]]:
    found = []
    for entry in known:
        for m in _pattern(entry.words).finditer(text):
            found.append((m.start(), m.end(), entry))
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    out, end = [], -1
    for start, stop, entry in found:       # the longest term wins where two overlap
        if start >= end:
            out.append((start, stop, entry))
            end = stop
    return out


def used_in(text: str) -> list[Entry]:
    """The glossary entries whose terms ``text`` uses, each once."""
    seen: dict[str, Entry] = {}
    for _, _, entry in spans(text):
        seen.setdefault(entry.id, entry)
    return list(seen.values())


def notes(text: str) -> list[str]:
    """What a tooltip adds under its text: "term: meaning" for each glossary term it uses."""
    return [tr("hud.glossary_note", term=e.headword, meaning=e.meaning) for e in used_in(text)]
