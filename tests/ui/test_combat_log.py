"""The combat log tells every die and the rule in words, in French and English, and the tables agree."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.ai.random_player import RandomPlayer
from game.ui.combatlog import describe
from game.ui.i18n import set_language

from .driver import eisdrachen_match

TABLES = Path(__file__).resolve().parents[2] / "game" / "ui" / "i18n"


def test_french_and_english_tables_have_the_same_keys():
    fr = json.loads((TABLES / "fr.json").read_text(encoding="utf-8"))
    en = json.loads((TABLES / "en.json").read_text(encoding="utf-8"))
    assert set(fr) == set(en)
    assert all(v.strip() for v in fr.values()) and all(v.strip() for v in en.values())


@pytest.mark.parametrize("lang,word", [("fr", "lance"), ("en", "rolls")])
def test_every_die_of_a_played_match_is_in_the_log_with_its_rule(lang, word):
    set_language(lang)
    match = eisdrachen_match(seed=9, width=14, height=10)
    player = RandomPlayer(4)
    for _ in range(300):
        if match.over:
            break
        match.answer(match.ask(player))
    names = {f.id: f.name for f in match.rules.figures(match.state, None)}
    dice = [e for e in match.log if e.kind == "dice"]
    assert dice
    for e in dice:
        line = describe(e, names)
        assert word in line
        assert ", ".join(str(v) for v in e.data["values"]) in line
        assert e.rule in line
    lines = [describe(e, names) for e in match.log]
    assert not any(fid in line.split() for line in lines for fid in names), "ids leak instead of names"
    set_language("en")
