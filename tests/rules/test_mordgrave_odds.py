"""Exact probabilities of rules/mordgrave.md §6.3, and the odds the window shows before a player commits."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from game.engine.battlefield import Battlefield
from game.engine.decision import Option
from game.engine.dice import add, point, uniform_die
from game.rules.mordgrave.combat import melee_terms, rule, shot_terms
from game.rules.mordgrave.odds import bravery_pass, melee_tiers, shot_outcomes, shot_tiers, stun_counts
from game.rules.mordgrave.steps import Melee

from .mordgrave_helpers import RULES, fig, state


def exact(counts) -> dict:
    return {k: F(n, 400) for k, n in counts.items()}


def duel(a_spec=None, b_spec=None):
    a, b = fig("A", 0, (5, 5), **(a_spec or {})), fig("B", 1, (6, 5), **(b_spec or {}))
    return state(a, b), a, b


def tiers(a_spec=None, b_spec=None) -> dict:
    st, a, b = duel(a_spec, b_spec)
    return exact(melee_tiers(*melee_terms(st, a, b, False, False, {})))


def test_63_combat_plus_1_against_plus_0_winner_and_tie():
    t = tiers({"Comb": 1})
    a_wins = sum(p for (w, _), p in t.items() if w == 0)
    b_wins = sum(p for (w, _), p in t.items() if w == 1)
    assert (a_wins, t[(None, None)], b_wins) == (F(21, 40), F(19, 400), F(171, 400))


def test_63_raw_margin_above_defence_6_without_damage_or_critical():
    st, a, b = duel({"Comb": 1})
    ta, tb = melee_terms(st, a, b, False, False, {})
    diff = add(add(uniform_die(20), point(ta.score)), {-v: p for v, p in add(uniform_die(20), point(tb.score)).items()})
    a_raw = sum(p for v, p in diff.items() if v > 6)
    b_raw = sum(p for v, p in diff.items() if v < -6)
    assert (a_raw, b_raw, a_raw + b_raw) == (F(21, 80), F(39, 200), F(183, 400))


def test_63_margin_above_defence_6_unarmed_with_criticals():
    t = tiers({"Comb": 1})
    a_over = sum(p for (w, k), p in t.items() if w == 0 and k >= 1)
    b_over = sum(p for (w, k), p in t.items() if w == 1 and k >= 1)
    assert (a_over, b_over, a_over + b_over) == (F(27, 100), F(81, 400), F(189, 400))


def test_63_full_outcome_table_combat_plus_1_against_plus_0():
    assert tiers({"Comb": 1}) == {
        (0, 0): F(51, 200), (0, 1): F(69, 400), (0, 2): F(33, 400), (0, 3): F(3, 200),
        (1, 0): F(9, 40), (1, 1): F(57, 400), (1, 2): F(21, 400), (1, 3): F(3, 400), (None, None): F(19, 400)}


@pytest.mark.parametrize("spec,row", [
    ({}, (F(1, 20), F(6, 25), F(63, 400), F(27, 400), F(1, 100))),
    ({"main": "sword"}, (F(1, 20), F(79, 400), F(69, 400), F(33, 400), F(9, 400)))])
def test_63_equal_fighters_have_equal_chances_per_side(spec, row):
    t = tiers(spec, spec)
    assert t[(None, None)] == row[0]
    for side in (0, 1):
        assert tuple(t[(side, k)] for k in range(4)) == row[1:]


@pytest.mark.parametrize("weapon,tile,cover,row", [
    ("bow", (5, 0), 0, (F(171, 400), F(9, 40), F(81, 400), F(9, 80), F(13, 400))),
    ("bow", (15, 0), 2, (F(7, 10), F(31, 200), F(9, 80), F(3, 100), F(1, 400))),
    ("crossbow", (5, 0), 0, (F(171, 400), F(19, 200), F(97, 400), F(63, 400), F(31, 400)))])
def test_63_shooting_outcomes(weapon, tile, cover, row):
    bf = Battlefield.open_ground(20, 3)
    bf.cover[tile[1], tile[0]] = cover
    s, t = fig("S", 0, (0, 0), ranged=weapon), fig("T", 1, tile)
    st = state(s, t, bf=bf)
    table = exact(shot_tiers(shot_terms(st, s, t, weapon, False)))
    assert (table[None], table[0], table[1], table[2], table[3]) == row


def shooter_and_target(weapon="bow", tile=(5, 0)):
    s, t = fig("S", 0, (0, 0), ranged=weapon, faction="dark_elves"), fig("T", 1, tile)
    return state(s, t), s, t


def test_63_one_shot_hits_and_one_double_shot_shot_hits():
    st, s, t = shooter_and_target()
    single = shot_outcomes(st, s, t, "bow", False)
    assert 1 - single["dodged"] == F(229, 400)
    st, s, t = shooter_and_target("elven_repeating_crossbow")
    double = shot_outcomes(st, s, t, "elven_repeating_crossbow", False, double=True)
    assert 1 - double["dodged"] == F(171, 400)


def test_63_at_least_one_of_two_double_shot_shots_hits():
    st, s, t = shooter_and_target("elven_repeating_crossbow")
    odds = RULES.odds(st, Option("double:elven_repeating_crossbow:T", "double", "S", target="T",
                                 value="elven_repeating_crossbow"))
    assert odds.details["at_least_one_hit"] == F(107559, 160000)


def test_63_shurikens_at_one_pas_stun_and_succeed():
    st, s, t = shooter_and_target("shurikens", (1, 0))
    counts = exact(stun_counts(shot_terms(st, s, t, "shurikens", False)))
    assert counts["stun"] == F(11, 40)
    assert counts["stun"] + counts["no_effect"] == F(229, 400)


def test_63_bravery_test_of_difficulty_8():
    f = fig("F", 0, (0, 0))
    assert bravery_pass(f) == F(13, 20)
    f.tokens = [2]
    assert bravery_pass(f) == F(1, 2)


def test_63_initiative_to_player_1_is_one_in_two():
    assert F(sum(1 for n in range(1, 21) if n >= rule("initiative_first_player_from")), 20) == F(1, 2)


# --- the odds the window shows ---------------------------------------------------------------

def test_fight_odds_are_labelled_for_the_attacker_and_sum_to_one():
    st, a, b = duel({"Comb": 1})
    odds = RULES.odds(st, Option("fight:B", "fight", "A", target="B"))
    assert odds.title == "melee" and sum(odds.outcomes.values()) == 1
    assert odds.outcomes["win:push"] == F(51, 200) and odds.outcomes["win:out"] == F(33, 400)
    assert odds.outcomes["win:horrible"] == F(3, 200) and odds.outcomes["lose:difficulty"] == F(57, 400)
    assert odds.details["out_of_action"] == F(33, 400) + F(3, 200)
    assert odds.details["own_out_of_action"] == F(21, 400) + F(3, 400)


def test_fight_odds_list_each_combat_mode_the_defender_may_declare():
    st, a, b = duel({"main": "sword"}, {"main": "sword", "modes": True})
    odds = RULES.odds(st, Option("fight:B", "fight", "A", target="B"))
    assert set(odds.details) >= {"against_normal", "against_defensive", "against_offensive"}
    assert odds.details["against_normal"] == odds.outcomes
    wins_hard = {m: sum(p for k, p in odds.details[f"against_{m}"].items()
                        if k.startswith("win:") and k != "win:push") for m in ("defensive", "normal", "offensive")}
    assert wins_hard["defensive"] < wins_hard["normal"] < wins_hard["offensive"]


def test_a_charge_shows_in_the_fight_odds():
    st, a, b = duel({"main": "axe"}, {"armour": "light"})
    plain = RULES.odds(st, Option("fight:B", "fight", "A", target="B")).outcomes
    a.first, a.charges = "move", ["B"]
    charging = RULES.odds(st, Option("fight:B", "fight", "A", target="B")).outcomes
    assert charging["win:push"] < plain["win:push"] and charging["win:difficulty"] > plain["win:difficulty"]
    assert sum(p for k, p in charging.items() if k.startswith("win")) == \
        sum(p for k, p in plain.items() if k.startswith("win"))


def test_mode_odds_are_seen_by_the_figure_declaring():
    st, a, b = duel({"main": "sword", "modes": True}, {"main": "sword", "modes": True})
    step = Melee("A", "B", False, False, {"A": "offensive"})
    st.steps.push(step)
    odds = RULES.odds(st, Option("defensive", "defensive", "B", target="A"))
    ta, tb = melee_terms(st, a, b, False, False, {"A": "offensive", "B": "defensive"})
    counts = exact(melee_tiers(ta, tb))
    assert odds.outcomes["win:push"] == counts[(1, 0)] and odds.outcomes["lose:push"] == counts[(0, 0)]


def test_template_odds_count_enemies_hit_and_keep_friends_apart():
    firer = fig("O", 0, (0, 5), ranged="orc_blunderbuss", faction="mountain_orcs")
    st = state(firer, fig("T1", 1, (2, 5)), fig("T2", 1, (4, 5)), fig("A", 0, (3, 5), Comb=2))
    odds = RULES.odds(st, Option("breath:orc_blunderbuss:1,5", "breath", "O", (1, 5), value="orc_blunderbuss"))
    p1, p2 = odds.details["hit_chance"]["T1"], odds.details["hit_chance"]["T2"]
    assert p1 == p2 == F(190, 400)                                # 1D20 + 0 must beat 1D20 + 0
    assert odds.outcomes == {"hits:0": (1 - p1) * (1 - p2), "hits:1": 2 * p1 * (1 - p1), "hits:2": p1 * p2}
    assert odds.details["friends_hit"]["hits:1"] == odds.details["hit_chance"]["A"]
    preview = RULES.preview(st, Option("breath:orc_blunderbuss:1,5", "breath", "O", (1, 5), value="orc_blunderbuss"))
    assert preview[0].kind == "template" and set(preview[0].figures) == {"T1", "A", "T2"}
