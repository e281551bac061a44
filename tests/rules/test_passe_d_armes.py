"""Passe d'armes pure rules: the roll, the vital monitor, recovery and the exact odds of the spec
(rules/passe_d_armes.md 2.1, 2.3, 5.9-5.12, and the vectors of section 7.1 and 7.3)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.rules.passe_d_armes.odds import attack_odds, exploit_chance, initiative_order, opposed_win, success_chance
from game.rules.passe_d_armes.rolls import (Monitor, Roll, absorb_wounds, dodge_wounds, mark, mark_all, recovery,
                                            wound_modifier)
from game.rules.passe_d_armes.state import data

from .passe_d_armes_helpers import fighter, louis

MODIFIERS = data()["monitor"]["modifiers"]


def texts(hits, puissance=3, start=Monitor()):
    return [m.text() for m in mark_all(start, hits, puissance)]


# --- the roll (2.1) ----------------------------------------------------------------------

def test_margin_is_score_minus_die_and_difficulty_and_an_exploit_is_a_successful_natural_one():
    assert Roll(7, 3, 2).margin == 2 and Roll(7, 3, 2).success and not Roll(7, 3, 2).exploit
    assert Roll(4, 0, 1).exploit
    assert Roll(1, 1, 1).margin == -1 and not Roll(1, 1, 1).exploit    # a roll that cannot succeed
    assert Roll(5, 0, 6).margin == -1 and not Roll(5, 0, 6).success


def test_s1_louis_disarm_difficulty_three_leaves_a_total_score_of_four():
    lo = louis(0, (0, 0))
    assert lo.score("escrime") == 7
    assert lo.net("escrime", extra=3) == 4
    assert [Roll(lo.score("escrime"), 3, d).margin for d in range(1, 11)] == [4 - d for d in range(1, 11)]


def test_p13_the_wound_modifier_applies_to_the_score_guard_at_box_seven():
    guard = fighter("guard", 1, (0, 0), monitor=Monitor(T=7))
    score, difficulty = guard.score("tir"), guard.difficulty("tir")
    assert (score, difficulty) == (2, 1)
    assert Roll(score, difficulty, 1).margin == 0 and Roll(score, difficulty, 1).exploit
    assert Roll(score, difficulty, 2).margin == -1 and not Roll(score, difficulty, 2).success


def test_roster_scores_and_encumbrance_are_those_of_the_table():
    expected = {"fencer": (3, 8, 5, 7, 3, 0), "brawler": (7, 6, 3, 4, 7, 1), "shooter": (2, 5, 8, 6, 3, 0),
                "guard": (5, 5, 5, 5, 5, 1)}
    for role, row in expected.items():
        f = fighter(role, 0, (0, 0))
        assert tuple(f.score(s) for s in ("lutte", "escrime", "tir", "reflexe", "resister")) + (f.encumbrance,) == row


def test_encumbrance_weighs_on_every_roll_but_resister():
    brawler = fighter("brawler", 0, (0, 0))
    assert [brawler.difficulty(s) for s in ("lutte", "escrime", "tir", "reflexe", "resister")] == [1, 1, 1, 1, 0]


def test_conditions_add_their_difficulty_knocked_down_held_and_feinted():
    f = fighter("guard", 0, (0, 0), knocked_down=True)
    assert f.difficulty("reflexe") == 3 and f.difficulty("escrime") == 1 and f.difficulty("escrime", attack=True) == 3
    f = fighter("shooter", 0, (0, 0), held_by="brawler")
    assert f.difficulty("lutte") == 2 and f.difficulty("resister") == 0
    f = fighter("brawler", 0, (0, 0), feinted_until=2)
    assert f.difficulty("reflexe", defence=True, passe=2) == 4 and f.difficulty("reflexe", defence=True, passe=3) == 1


# --- wounds (5.6, 5.7) ----------------------------------------------------------------------

def test_p11_dodge_lost_takes_margin_plus_index_minus_protection():
    assert dodge_wounds(3, -1, 3, 0) == 6


def test_s13_tied_margins_go_to_the_attacker():
    assert dodge_wounds(2, 2, 2, 0) == 4
    assert dodge_wounds(2, 3, 2, 0) == 0


def test_absorb_always_costs_one_wound_and_a_failed_dodge_none_below_zero():
    assert absorb_wounds(1, 4, 3, 2) == 1
    assert absorb_wounds(-3, 5, 1, 3) == 1
    assert dodge_wounds(-2, -5, 1, 3) == 0


# --- the monitor (5.10, 5.11) ------------------------------------------------------------------

def test_s2_first_wound_marks_its_box_more_marks_its_own_fewer_marks_the_next():
    assert texts([(5, "shock"), (8, "shock"), (3, "shock")]) == ["/////.....", "////////..", "/////////."]


def test_s3_the_same_in_trauma():
    assert texts([(5, "trauma"), (8, "trauma"), (3, "trauma")]) == ["XXXXX.....", "XXXXXXXX..", "XXXXXXXXX."]


def test_s4_a_trauma_does_not_stack_on_shocks():
    [_, after] = mark_all(Monitor(), [(9, "shock"), (4, "trauma")], 3)
    assert after.text() == "XXXX/////." and (after.S, after.T) == (9, 4)


def test_s5_nine_shocks_then_five_shocks_mark_box_ten_ko():
    assert texts([(9, "shock"), (5, "shock")]) == ["/////////.", "//////////"]
    assert mark_all(Monitor(), [(9, "shock"), (5, "shock")], 3)[-1].status == "ko"


def test_s6_shocks_stack_on_traumas():
    assert texts([(5, "trauma"), (9, "shock")]) == ["XXXXX.....", "XXXXX////."]


def test_s7_an_out_combatant_dies_after_further_wounds_equal_to_puissance():
    ms = mark_all(Monitor(), [(10, "trauma"), (2, "trauma"), (1, "shock")], 3)
    assert [(m.status, m.overflow) for m in ms] == [("out", 0), ("out", 2), ("dead", 3)]


def test_s8_three_traumas_in_one_hit_kill_an_out_combatant_of_puissance_three():
    ms = mark_all(Monitor(), [(10, "trauma"), (3, "trauma")], 3)
    assert [m.status for m in ms] == ["out", "dead"]


def test_s9_a_ko_combatants_shocks_count_as_traumas():
    assert texts([(10, "shock"), (3, "shock"), (2, "shock")]) == ["//////////", "XXX///////", "XXXX//////"]


def test_s11_the_modifier_follows_the_highest_box():
    assert [wound_modifier(Monitor(S=b), MODIFIERS) for b in (3, 4, 6, 7, 9, 10)] == [0, -1, -1, -3, -3, -6]
    assert wound_modifier(Monitor(T=4, S=2), MODIFIERS) == -1


def test_m1_traumas_and_shocks_interleaved():
    assert texts([(2, "trauma"), (2, "shock"), (2, "trauma"), (2, "trauma")]) == \
        ["XX........", "XX/.......", "XXX.......", "XXXX......"]
    assert wound_modifier(mark_all(Monitor(), [(2, "trauma"), (2, "shock"), (2, "trauma"), (2, "trauma")], 3)[-1],
                          MODIFIERS) == -1


def test_m2_a_trauma_covers_the_shocks_below_it():
    assert texts([(6, "shock"), (8, "trauma"), (2, "shock")]) == ["//////....", "XXXXXXXX..", "XXXXXXXX/."]


def test_m3_surplus_wounds_of_the_hit_that_makes_out_are_discarded():
    ms = mark_all(Monitor(), [(3, "trauma"), (14, "trauma"), (1, "shock"), (1, "trauma")], 2)
    assert [m.text() for m in ms[:2]] == ["XXX.......", "XXXXXXXXXX"]
    assert [(m.status, m.overflow) for m in ms[1:]] == [("out", 0), ("out", 1), ("dead", 2)]


def test_m4_a_long_chain_to_death_at_puissance_two():
    hits = [(10, "shock"), (2, "trauma"), (4, "shock"), (1, "shock"), (9, "shock"), (12, "trauma"), (1, "shock"),
            (1, "trauma")]
    ms = mark_all(Monitor(), hits, 2)
    assert [m.text() for m in ms[:6]] == ["//////////", "XX////////", "XXXX//////", "XXXXX/////", "XXXXXXXXX/",
                                          "XXXXXXXXXX"]
    assert ms[0].status == "ko" and ms[5].status == "out"
    assert [(m.status, m.overflow) for m in ms[5:]] == [("out", 0), ("out", 1), ("dead", 2)]


def test_a_dead_combatant_takes_no_more_marks():
    dead = Monitor(10, 0, 3, True)
    assert mark(dead, 4, "trauma", 3) == dead


# --- recovery (5.12) ----------------------------------------------------------------------------

def test_s10_louis_wakes_in_two_minutes_and_recovers_in_three_days_cared_for_and_resting():
    r = recovery(Monitor(T=5, S=10), 3, 1)
    assert (r.shock_boxes, r.trauma_boxes) == (5, 5)
    assert (r.minutes, r.minutes_cared) == (2, 2)
    assert (r.days, r.days_cared) == (5, 3)


def test_m8_recovery_cared_for_and_resting():
    r = recovery(Monitor(T=3, S=8), 2, 4)
    assert (r.shock_boxes, r.trauma_boxes, r.minutes_cared, r.days_cared) == (5, 3, 2, 1)


# --- data (3.2, 3.3, 3.5) ------------------------------------------------------------------------

def test_s12_the_campfire_is_difficulty_zero_two_wounds_trauma():
    h = data()["hazards"]["campfire"]
    assert (h["difficulty"], h["wounds"], h["nature"]) == (0, 2, "trauma")


def test_the_seeds_weapons_keep_their_index_and_nature():
    expected = {"hands": (1, "shock"), "knife": (1, "trauma"), "club": (2, "shock"), "sword_cane": (2, "trauma"),
                "bat": (3, "shock"), "pistol": (3, "trauma"), "rifle": (4, "trauma")}
    assert {k: (w["index"], w["nature"]) for k, w in data()["weapons"].items()} == expected


# --- exact odds (2.3) ------------------------------------------------------------------------------

def test_success_and_exploit_chances():
    assert [success_chance(s) for s in (3, 5, 7, 10)] == [Fraction(3, 10), Fraction(1, 2), Fraction(7, 10), 1]
    assert exploit_chance(1) == exploit_chance(9) == Fraction(1, 10) and exploit_chance(0) == 0


def test_louis_disarm_succeeds_two_fifths_alone_and_twenty_three_fiftieths_against_a_defence_of_five():
    assert success_chance(4) == Fraction(2, 5) and exploit_chance(4) == Fraction(1, 10)
    assert attack_odds(4, 2, "dodge", 5, 0, "desarmement").win == Fraction(23, 50)


@pytest.mark.parametrize("a, d, p", [(7, 5, Fraction(18, 25)), (5, 5, Fraction(11, 20)), (5, 7, Fraction(9, 25))])
def test_the_attacker_wins_ties(a, d, p):
    assert opposed_win(a, d) == p
    assert attack_odds(a, 1, "dodge", d, 0).win == p


def test_initiative_between_two_reflexes_of_five():
    order = initiative_order(5, 5)
    assert order["first"] == Fraction(9, 20) and order["same"] == Fraction(1, 10)


def test_a_pistol_against_a_dodge_and_an_absorb():
    dodge = attack_odds(6, 3, "dodge", 5, 0)
    assert dodge.mean == Fraction(83, 25) and dodge.unhurt == Fraction(9, 25)
    absorb = attack_odds(6, 3, "absorb", 5, 0)
    assert absorb.mean == Fraction(183, 50) and absorb.unhurt == 0
    assert attack_odds(6, 3, "dodge", 5, 1).mean == Fraction(67, 25)
    assert attack_odds(6, 3, "absorb", 4, 1).mean == Fraction(153, 50)


def test_attack_odds_sum_to_one_and_a_defence_exploit_is_a_riposte_one_time_in_ten():
    for defence in ("dodge", "absorb"):
        o = attack_odds(6, 3, defence, 5, 1)
        assert sum(o.wounds.values()) == 1 and o.riposte == Fraction(1, 10)
    assert attack_odds(6, 3, "dodge", 0, 1).riposte == 0


def test_a_manoeuvre_exploit_skips_the_defence_roll_and_a_helpless_target_is_struck_without_one():
    botte = attack_odds(6, 2, "dodge", 10, 3, "botte")       # a defender who always rolls 0 or better
    assert botte.riposte == Fraction(9, 100)                  # 9 of 10 attacker dice let it roll; 1 in 10 an Exploit
    helpless = attack_odds(5, 2, "", 0, 2)
    assert helpless.win == 1 and helpless.riposte == 0
    assert sum(p for n, p in helpless.wounds.items()) == 1
