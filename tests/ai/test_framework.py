"""The shared decision framework (game/ai/tactics.py): the seeded pick, the threat map, focus fire, falling
back, objectives and levels, as every module's AI uses them."""
from __future__ import annotations

from dataclasses import replace

import pytest

from game.ai import AI_LEVELS, AI_NAMES, make_player
from game.ai.tactics import LEVELS, Objectives, Posture, Tactician, Threat, ThreatMap
from game.engine.battlefield import Battlefield, MapObject
from game.errors import RulesError
from game.rules import names as rule_names


def open_sight(a, b) -> bool:
    return True


def test_the_levels_are_the_names_the_menus_and_the_command_line_offer():
    assert tuple(LEVELS) == AI_LEVELS == ("easy", "normal", "hard")
    assert {"random", "greedy", "tactical", "tactical:easy", "tactical:hard"} <= set(AI_NAMES)


@pytest.mark.parametrize("rules", rule_names())
def test_every_module_gives_its_tactician_at_each_level(rules):
    for level in AI_LEVELS:
        player = make_player(f"tactical:{level}", rules, 1)
        framework = LEVELS[level]
        assert isinstance(player, Tactician) and player.level.name == level
        # a module may widen a level's margin (Mordgrave's normal), and change nothing else of it
        assert replace(player.level, margin=framework.margin) == framework
        assert player.level.margin >= framework.margin
    assert make_player("tactical", rules, 1).name == "tactical"
    assert make_player("tactical:hard", rules, 1).name == "tactical:hard"


def test_an_unknown_ai_or_level_is_refused_with_the_names_to_choose_from():
    with pytest.raises(RulesError, match="tactical:hard"):
        make_player("tactical:brutal", "eisdrachen")
    with pytest.raises(RulesError, match="greedy"):
        make_player("clever", "eisdrachen")


def test_ties_break_on_the_players_own_seed():
    scores = {f"k{i}": 1.0 for i in range(8)} | {"worse": 0.5}
    first = [Tactician(3).pick(scores) for _ in range(3)]
    assert first == [Tactician(3).pick(scores) for _ in range(3)]
    assert "worse" not in {Tactician(s, "hard").pick(scores) for s in range(20)}
    assert len({Tactician(s, "hard").pick(scores) for s in range(20)}) > 1


def test_the_hard_level_always_picks_the_best_where_normal_hesitates_between_close_options_and_easy_misjudges():
    scores = {"best": 1.0, "close": 0.9, "poor": 0.5, "bad": -1.0}
    picks = {level: [Tactician(s, level).pick(scores) for s in range(200)] for level in AI_LEVELS}
    assert set(picks["hard"]) == {"best"}
    assert set(picks["normal"]) == {"best", "close"}          # never the clearly worse ones
    assert "poor" in picks["easy"]                              # a blur can take one well below the best


def test_the_hard_level_looks_at_more_candidates_than_normal_and_every_level_at_one_at_least():
    assert Tactician(1, "hard").foresight(8) > Tactician(1).foresight(8) >= Tactician(1, "easy").foresight(8)
    assert min(Tactician(1, level).foresight(1) for level in AI_LEVELS) == 1


def test_a_threat_counts_where_its_attack_reaches_now_lessened_by_cover():
    gun = Threat((0, 0), harm=2.0, reach=10)
    blade = Threat((20, 0), harm=1.0, reach=1.5, sighted=False)
    blocked = {(8, 0)}
    grid = ThreatMap([gun, blade], lambda a, b: b not in blocked, lambda a, b: 2 if b == (6, 0) else 0)
    assert grid.danger((5, 0)) == 2.0
    assert grid.danger((8, 0)) == 0.0                 # out of its sight
    assert grid.danger((6, 0)) == pytest.approx(2.0 * 0.35)
    assert grid.danger((12, 0)) == 0.0                # out of range
    assert grid.danger((19, 1)) == 1.0 and grid.lines_of_fire((19, 1)) == 1


def test_focus_fire_harm_on_a_hurt_target_is_worth_more():
    t = Tactician(1)
    assert t.worth(1.0) == 1.0 < t.worth(0.5) < t.worth(0.1)
    assert Tactician(1, "easy").worth(0.1) == 1.0


def test_a_wounded_or_outmatched_figure_fears_danger_more():
    t = Tactician(1)
    whole = t.caution(1.0, 1.0, 2.0)
    assert t.caution(0.2, 1.0, 2.0) > whole
    assert t.caution(1.0, 6.0, 1.0) > whole
    assert Tactician(1, "easy").caution(1.0, 1.0, 2.0) < whole


def test_objectives_pull_a_figure_onto_them_more_as_the_last_turn_nears():
    bf = Battlefield.open_ground(20, 20)
    bf.objects = [MapObject("objective", "hill", ((10, 10), (11, 10)), {}),
                  MapObject("objective", "edge", ((19, 0),), {"kind": "exit", "side": "1"})]
    early, late = Objectives(bf, 0, 5, 1, 12), Objectives(bf, 0, 5, 12, 12)
    assert late.pull((10, 10)) == 5 > early.pull((10, 10)) > early.pull((6, 10)) > early.pull((0, 0)) >= 0
    assert early.pull((19, 0)) < early.pull((10, 10))          # side 1's exit is nothing to side 0
    assert Objectives(bf, 1, 5, 12, 12).pull((19, 0)) == 5
    assert not Objectives(Battlefield.open_ground(5, 5), 0, 5, 1, 12)


def test_the_score_makes_a_side_level_or_behind_bolder_as_turns_pass_one_ahead_hold_and_one_far_ahead_press():
    t = Tactician(1)
    early, late = t.posture(0, 5, 1, 12), t.posture(0, 5, 11, 12)
    behind = t.posture(-10, 5, 11, 12)
    ahead, far_ahead = t.posture(6, 5, 11, 12), t.posture(12, 5, 11, 12)
    assert ahead.caution > 1 > early.caution > late.caution > behind.caution
    assert ahead.drive < 1 < early.drive < late.drive < behind.drive
    assert far_ahead.caution == 1 and far_ahead.drive > 1          # it presses on to finish the enemy
    assert Tactician(1, "easy").posture(-10, 5, 11, 12) == Posture(1.0, 1.0)
    # a wounded figure keeps its fear, whatever the score asks of its side
    assert t.caution(0.2, posture=behind) > t.caution(1.0, posture=behind)
    assert t.caution(0.2, posture=behind) > 1.0
