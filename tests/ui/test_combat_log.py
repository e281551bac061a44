"""The combat log tells every die and the rule in words, in French and English, and the tables agree."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.ai.random_player import RandomPlayer
from game.ui.combatlog import describe
from game.ui.i18n import set_language, use_rules

from .driver import eisdrachen_match

TABLES = Path(__file__).resolve().parents[2] / "game" / "ui" / "i18n"
RULES = Path(__file__).resolve().parents[2] / "game" / "rules"


@pytest.mark.parametrize("folder", [TABLES, *sorted(RULES.glob("*/i18n"))], ids=lambda p: p.parent.name)
def test_french_and_english_tables_have_the_same_keys(folder):
    fr = json.loads((folder / "fr.json").read_text(encoding="utf-8"))
    en = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    assert set(fr) == set(en), sorted(set(fr) ^ set(en))
    assert all(v.strip() for v in fr.values()) and all(v.strip() for v in en.values())


@pytest.mark.parametrize("lang,word", [("fr", "lance"), ("en", "rolls")])
def test_every_die_of_a_played_match_is_in_the_log_with_its_rule(lang, word):
    set_language(lang)
    match = eisdrachen_match(seed=9, width=14, height=10)
    use_rules(match.rules)
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
        numbers = iter(re.findall(r"\d+", line))
        assert all(str(v) in numbers for v in e.data["faces"]), (line, e.data["faces"])   # every face, in order
        assert e.rule in line
    lines = [describe(e, names) for e in match.log]
    assert not any(fid in line.split() for line in lines for fid in names), "ids leak instead of names"
    set_language("en")
