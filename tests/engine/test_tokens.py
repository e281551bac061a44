"""Tokens trigger within their radius and hide their nature from the other side."""
from game.engine.tokens import Token, discovers, triggered


def test_token_triggers_within_its_radius_only():
    tokens = [Token("t1", (10, 10), 0, False), Token("t2", (14, 10), 0, True)]
    assert [t.id for t in triggered(tokens, (8, 10), 2)] == ["t1"]
    assert triggered(tokens, (7, 10), 2) == []


def test_token_nature_is_shown_to_its_owner_only():
    t = Token("t", (0, 0), 1, True)
    assert t.seen_as(1) == "real" and t.seen_as(0) == "unknown" and t.seen_as(None) == "real"


def test_hidden_figure_is_discovered_by_an_enemy_within_the_radius():
    assert discovers((0, 0), [(3, 0)], 3) and not discovers((0, 0), [(3, 1)], 3)
