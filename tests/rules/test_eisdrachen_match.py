"""Whole Eisdrachen matches through the Match: completion, determinism, undo, hidden information."""
from __future__ import annotations

import json

from game.ai import make_player
from game.engine.battlefield import Battlefield, Door, MapObject
from game.engine.match import Match
from game.rules.eisdrachen import Eisdrachen

from .eisdrachen_helpers import RULES, answer, build, unit


def field():
    bf = Battlefield.open_ground(24, 24)
    bf.spawn = {0: [(0, y) for y in range(24)], 1: [(23, y) for y in range(24)]}
    bf.blocks_move[8:14, 11] = bf.blocks_sight[8:14, 11] = True
    bf.hiding[2:4, 5:7] = True
    return bf


def play(seed, ai_side=0, check=True):
    bf = field()
    rules = Eisdrachen()
    match = Match(bf, rules, rules.default_armies(bf), seed)
    players = {ai_side: make_player("tactical", "eisdrachen", seed),
               1 - ai_side: make_player("random", "eisdrachen", seed)}
    while match.pending is not None:
        d = match.pending
        assert len({o.key for o in d.options}) == len(d.options), f"duplicate keys in {d.kind}"
        match.answer(match.ask(players[d.side]))
        if check:
            assert rules.check_invariants(match.state) == []
    return match


def test_full_match_ai_against_random_ends_with_an_outcome():
    match = play(5)
    assert match.outcome is not None and match.outcome.reason in ("elimination", "points")
    assert match.state.turn <= match.max_turns
    json.dumps([e.to_json() for e in match.log])
    assert any(e.kind == "dice" and e.data["purpose"] == "initiative" for e in match.log)


def test_every_die_rolled_appears_in_a_dice_event():
    for seed in (2, 8):
        match = play(seed, ai_side=seed % 2, check=False)
        shown = sum(len(e.data["faces"]) for e in match.log if e.kind == "dice")
        assert shown == match.dice.count > 0


def test_same_seed_and_answers_give_the_same_digest():
    first = play(11, check=False)
    bf = field()
    rules = Eisdrachen()
    again = Match(bf, rules, rules.default_armies(bf), 11)
    for key in first.answers:
        again.answer(key)
    assert again.digest() == first.digest() and again.outcome == first.outcome


def test_answers_without_dice_can_be_undone():
    bf = field()
    rules = Eisdrachen()
    match = Match(bf, rules, rules.default_armies(bf), 3)
    match.answer("roll")
    assert not match.can_undo
    d = match.pending
    before = match.digest()
    match.answer(d.options[0].key)
    assert match.can_undo and match.undo() and match.digest() == before


def test_hidden_figures_and_their_events_are_kept_from_the_opponent():
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 5] = True
    s = build(unit("h", 0, (5, 5)), unit("o", 1, (20, 20)), bf=bf)
    events = answer(s, "hide")
    assert all(e.visible_to == 0 for e in events if e.kind == "status")
    assert [v.id for v in RULES.figures(s, 1)] == ["o"]
    assert {v.id for v in RULES.figures(s, None)} == {"h", "o"}
    assert next(v for v in RULES.figures(s, 0) if v.id == "h").marked("hidden")


def test_figure_views_carry_status_markers():
    s = build(unit("a", 0, (0, 0)), unit("b", 1, (10, 0)), turn=2)
    a = s.figure("a")
    a.add_status("emp", [3, 4])
    a.add_status("wolf_trapped", [3])
    a.dug_in = True
    a.pv = 3
    a.vengeance_next = 1
    marks = {m.key for m in next(v for v in RULES.figures(s, 0) if v.id == "a").markers}
    assert {"wounded", "dug_in", "emp", "wolf_trapped", "vengeance", "active"} <= marks


def rich_field():
    """Every terrain feature and map object the module uses, so random play walks every rule."""
    bf = field()
    bf.hiding[0:6, 0:3] = bf.hiding[0:6, 21:24] = True
    bf.deep_water[16:18, 14:18] = True
    bf.climbable[4:7, 16] = True
    bf.perch[5, 16] = True
    bf.crawl_gap[15, 5:8] = True
    bf.blocks_move[14, 5:8] = bf.blocks_move[16, 5:8] = True
    bf.trap_spot[[3, 10, 20], [4, 12, 19]] = True
    bf.door[11, 15] = Door.CLOSED
    bf.blocks_move[10, 15] = bf.blocks_move[12, 15] = True
    bf.objects += [MapObject("emplacement", "tourelle", ((12, 4),), {"weapon": "machine_gun"}),
                   MapObject("emplacement", "épave", ((12, 19),), {"state": "broken"}),
                   MapObject("item", "", ((6, 6),), {"item": "medipack"}),
                   MapObject("item", "", ((17, 6),), {"item": "grenade"}),
                   MapObject("trap", "", ((12, 12),), {"owner": -1})]
    return bf


def test_random_play_on_every_feature_keeps_the_invariants():
    rules = Eisdrachen()
    kinds = set()
    actions = set()
    for seed in range(3):
        match = Match(rich_field(), rules, rules.default_armies(rich_field()), seed)
        players = {0: make_player("random", "eisdrachen", seed), 1: make_player("random", "eisdrachen", seed + 9)}
        while match.pending is not None:
            d = match.pending
            kinds.add(d.kind)
            key = match.ask(players[d.side])
            actions.add(d.option(key).action)
            match.answer(key)
            assert rules.check_invariants(match.state) == [], (seed, key)
        assert match.outcome is not None
    assert {"activate", "action", "trap_token", "trap_real", "flee"} <= kinds
    assert {"move", "shoot", "grenade", "pray", "trap_open"} <= actions
