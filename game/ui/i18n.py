"""Localised text: the window's own table per language, under the words of the rule module in play.

A rule module owns its words (``game/rules/<id>/i18n/``): its terms, actions, markers, odds labels and
log templates. The window looks a key up in the module's table first, then in its own; English fills
any gap in French.
"""
from __future__ import annotations

import json
from pathlib import Path

LANGUAGES = ("fr", "en")
_DIR = Path(__file__).parent / "i18n"
_tables: dict[str, dict[str, str]] = {}
_current = {"lang": "en"}
_module: dict[str, dict[str, str]] = {}        # the rule module in play: language -> its words


def _table(lang: str) -> dict[str, str]:
    if lang not in _tables:
        _tables[lang] = json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return _tables[lang]


def use_rules(rules) -> None:
    """Speak the words of ``rules`` (a rule module) from now on."""
    _module.clear()
    _module.update({lang: rules.words(lang) for lang in LANGUAGES})


def _lookup(key: str) -> str | None:
    lang = language()
    for table in (_module.get(lang, {}), _table(lang), _module.get("en", {}), _table("en")):
        if key in table:
            return table[key]
    return None


def keys_with(prefix: str) -> list[str]:
    """Every key starting with ``prefix`` in the words now in use (the module's and the window's)."""
    lang = language()
    found = set()
    for table in (_module.get(lang, {}), _table(lang), _module.get("en", {}), _table("en")):
        found.update(k for k in table if k.startswith(prefix))
    return sorted(found)


def set_language(lang: str) -> None:
    _current["lang"] = lang if lang in LANGUAGES else "en"


def language() -> str:
    return _current["lang"]


def has(key: str) -> bool:
    return _lookup(key) is not None


def tr(key: str, default: str | None = None, **values) -> str:
    """The text for ``key`` in the current language; unknown keys show ``default`` or the key itself."""
    text = _lookup(key)
    if not text:
        text = default if default is not None else key
    if values:
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def name_words(text: str) -> str:
    """A figure's or an army's name in the player's language. The names a rule system gives (a rank,
    a warband, "Vétéran 2") have words in its tables as ``name.<name>``, a number after one kept;
    a name of the player's own stays as it is."""
    if has(f"name.{text}"):
        return tr(f"name.{text}")
    stem, _, number = text.rpartition(" ")
    if stem and number.isdigit() and has(f"name.{stem}"):
        return f"{tr(f'name.{stem}')} {number}"
    return text


def key_label(name: str) -> str:
    """A key as printed on the keyboard: letters in capitals, named keys in the player's language."""
    return name.upper() if len(name) == 1 else tr(f"keyname.{name}", name.capitalize())
