"""Every registered module says which picture the window draws for each kind of figure and each state
it shows, so a player tells a sniper from a medic, and a prone figure from a routing one, at a glance."""
from __future__ import annotations

import pytest

from game.ai.random_player import RandomPlayer
from game.resources import assets_dir
from game.rules import get, names
from tests.fake_rules import FakeRules
from tests.rules.test_every_module import first_playable_match

ICONS = assets_dir() / "icons"
WINDOW_MARKERS = {"active"}        # the window rings the acting figure: no badge


def shown(rules_id: str) -> tuple[set[str], set[str]]:
    """The kinds and the badge-worthy markers (those with a short word) of figures met in a few games."""
    rules = get(rules_id)
    words = rules.words("en")
    kinds, markers = set(), set()
    for seed in range(3):
        match = first_playable_match(rules_id, seed)
        players = {s: RandomPlayer(seed * 2 + s) for s in match.rules.sides}
        for _ in range(150):
            for f in rules.figures(match.state, None):
                kinds.add(f.kind)
                markers.update(m.key for m in f.markers if f"marker.{m.key}.short" in words)
            if match.over:
                break
            match.answer(match.ask(players[match.pending.side]))
    return kinds, markers - WINDOW_MARKERS


@pytest.mark.parametrize("rules_id", names())
def test_every_kind_and_state_a_module_shows_has_a_picture(rules_id):
    art = get(rules_id).art()
    kinds, markers = shown(rules_id)
    assert kinds - set(art["kinds"]) == set(), "kinds without a picture in art.json"
    assert markers - set(art["markers"]) == set(), "markers with a badge but no picture in art.json"
    missing = {p for p in (*art["kinds"].values(), *art["markers"].values()) if not (ICONS / f"{p}.png").is_file()}
    assert missing == set(), "pictures art.json names that tools/make_icons.py did not make"


@pytest.mark.parametrize("rules_id", names())
def test_a_modules_kinds_tell_its_default_figures_apart_by_trade(rules_id):
    """Not one picture for the whole army: a module's default armies show at least two pictures a side."""
    rules = get(rules_id)
    art = rules.art()
    match = first_playable_match(rules_id, 0)
    for side in rules.sides:
        pictures = {art["kinds"].get(f.kind) for f in rules.figures(match.state, None) if f.side == side}
        assert len(pictures) >= 2, (side, pictures)


def test_a_module_without_art_gets_empty_tables():
    assert FakeRules().art() == {"kinds": {}, "markers": {}}
