"""KOLAPS test vectors (kolaps.md §7), each named for the rule it checks."""
from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

from game.engine import space
from game.engine.battlefield import Battlefield
from game.engine.dice import ScriptedDice
from game.engine.steps import StepStack
from game.errors import RulesError
from game.rules.kolaps import Kolaps
from game.rules.kolaps import steps
from game.rules.kolaps.steps import (Activation, Assessment, Attack, Directives, Hit, Reactions, SimpleAction,
                                     TurnStart, begin_activation, initial_morale)
from game.rules.kolaps.combat import (EFFECTIVE, EXTREME, LONG, POINT_BLANK, CONTACT, modified_values,
                                      severity_dice, shot_band, shot_difficulty, strike_difficulty)
from game.rules.kolaps.effects import Ctx, clamp_amount
from game.rules.kolaps.model import DATA_FILE
from game.rules.kolaps.options import Conduct, action_options, destinations
from game.rules.kolaps.pools import (AUTOMATIC, IMPOSSIBLE, THRESHOLD, clamp_difficulty, judge, notation,
                                     roll_odds)

from tests.rules.kolaps_helpers import (RULES, answer_step, armies, ctx_for, dice_events, fig, make_state,
                                       run_steps)

W = RULES.data["weapons"]

# --- §4.6 exact success table ---------------------------------------------------------

TABLE = {
    0: ["5/9", "1/3", "1/9", "1/27", "1/81", "1/243"],
    1: ["3/4", "1/2", "1/4", "1/8", "1/16", "1/32"],
    2: ["3/4", "1/2", "1/4", "1/8", "1/16", "1/32"],
    3: ["8/9", "2/3", "4/9", "8/27", "16/81", "32/243"],
    4: ["35/36", "5/6", "25/36", "125/216", "625/1296", "3125/7776"],
}
TABLE_TWO_HANDS = {
    0: ["5/9", "1/3", "1/3", "11/54", "14/81", "1/8"],
    1: ["3/4", "1/2", "5/12", "1/3", "121/432", "77/324"],
    2: ["3/4", "1/2", "5/12", "1/3", "121/432", "77/324"],
    3: ["8/9", "2/3", "5/9", "53/108", "4/9", "529/1296"],
    4: ["35/36", "5/6", "3/4", "19/27", "875/1296", "425/648"],
}
CRITICALS = {0: ("11/36", "1/36"), 1: ("1/6", "1/6"), 2: ("1/36", "11/36"), 3: ("1/216", "91/216"),
             4: ("1/1296", "671/1296"), 5: ("1/7776", "4651/7776")}


@pytest.mark.parametrize("rank", range(5))
@pytest.mark.parametrize("difficulty", range(6))
def test_success_probability_by_rank_and_difficulty_matches_table(rank, difficulty):
    need = THRESHOLD[rank]
    assert roll_odds(difficulty, need)["success"] == Fraction(TABLE[rank][difficulty])
    assert roll_odds(difficulty, need, True)["success"] == Fraction(TABLE_TWO_HANDS[rank][difficulty])
    cs, cf = CRITICALS[difficulty]
    assert roll_odds(difficulty, need)["critical_success"] == Fraction(cs)
    assert roll_odds(difficulty, need)["critical_failure"] == Fraction(cf)


def test_threshold_table_reads_rank_4_as_2_plus():
    assert THRESHOLD == {0: 5, 1: 4, 2: 4, 3: 3, 4: 2}


# --- TV-01 --------------------------------------------------------------------------------

def test_tv01_walk_and_run_allowance_in_cm():
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "trooper", (39, 19))])
    ctx = ctx_for(state, [])
    ch = state.chars["A1"]
    walk = {t: round(c, 3) for t, _, c in destinations(ctx, ch, run=False)}
    assert walk[(4, 0)] == 10.0 and walk[(3, 2)] == 9.126 and walk[(2, 2)] == 7.071
    assert (3, 3) not in walk
    run = {t: round(c, 3) for t, _, c in destinations(ctx, ch, run=True)}
    assert run[(8, 0)] == 20.0 and run[(7, 2)] == 18.680 and run[(5, 5)] == 17.678 and run[(7, 3)] == 19.271
    assert (7, 4) not in run and (6, 6) not in run


def test_prone_walk_is_one_orthogonal_step():
    state = make_state([fig("A1", "trooper", (5, 5), prone=True)], [fig("B1", "trooper", (39, 19))])
    dest = {t for t, _, _ in destinations(ctx_for(state, []), state.chars["A1"], run=False)}
    assert dest == {(4, 5), (6, 5), (5, 4), (5, 6)}


# --- TV-02, TV-03, TV-06, TV-10: rolls ------------------------------------------------

def test_tv02_all_dice_must_reach_the_threshold():
    assert judge([4, 5, 6, 4], 4, 4).success and not judge([4, 5, 6, 4], 4, 4).critical_success
    r = judge([4, 5, 6, 3], 4, 4)
    assert not r.success and not r.critical_failure
    assert roll_odds(4, 4)["success"] == Fraction(1, 16)


def test_tv03_two_hands_contact_six_cancels_a_failed_die():
    r = judge([6, 5, 4, 1], 4, 3, True)
    assert r.success and not r.critical_success and not r.critical_failure
    r = judge([6, 5, 4, 1], 4, 3, False)
    assert not r.success and r.critical_failure and r.ones == 1
    r = judge([6, 6, 2, 1], 4, 3, True)
    assert r.success and not r.critical_success
    r = judge([6, 1, 1, 5], 4, 3, True)
    assert not r.success and r.critical_failure and r.ones == 1
    assert judge([6, 6, 6, 6], 4, 3, True).critical_success


def test_tv06_difficulty_clamping_automatic_and_impossible():
    assert clamp_difficulty(-3) == AUTOMATIC and clamp_difficulty(11) == IMPOSSIBLE
    assert clamp_difficulty(10) == 5 and notation(clamp_difficulty(10)) == "5D6"
    assert clamp_difficulty(-1) == 0 and notation(0) == "2C6"


def test_tv10_2c6_keeps_one_die_and_needs_two_ones_to_fail_critically():
    r = judge([3, 6], 0, 4)
    assert r.success and r.critical_success
    r = judge([1, 1], 0, 2)
    assert not r.success and r.critical_failure and r.ones == 2
    r = judge([1, 3], 0, 4)
    assert not r.success and not r.critical_failure


# --- TV-04, TV-09, TV-23, TV-24: difficulty and bands ---------------------------------

def test_tv04_long_range_adds_one():
    state = make_state([fig("A1", "veteran", (0, 0))], [fig("B1", "trooper", (20, 0))])
    a, t = state.chars["A1"], state.chars["B1"]
    d = shot_difficulty(state.bf, state, a, a.tile, t, W["rifle"], False)
    assert d.band == LONG and d.value == 3


def test_tv09_difficulty_composition_and_clamping():
    # a: veteran, rifle at 60 cm (long), trooper CIB 2 in light cover
    state = make_state([fig("A1", "veteran", (0, 0))], [fig("B1", "trooper", (24, 0))])
    state.bf.cover[0, 24] = 1
    a, t = state.chars["A1"], state.chars["B1"]
    d = shot_difficulty(state.bf, state, a, a.tile, t, W["rifle"], False)
    assert d.value == 4
    assert judge([5, 3, 4, 6], 4, 3).success and not judge([5, 2, 4, 6], 4, 3).success
    # b: move and shoot, assault rifle, 30 cm, CIB 3 heavy cover, prone
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "veteran", (12, 0), prone=True)])
    state.bf.cover[0, 12] = 2
    d = shot_difficulty(state.bf, state, state.chars["A1"], (0, 0), state.chars["B1"], W["assault_rifle"], True)
    assert d.raw == 8 and d.value == 5
    # c, d: prone shooter at point-blank, CIB 2 then CIB 0
    state = make_state([fig("A1", "trooper", (0, 0), prone=True)], [fig("B1", "trooper", (2, 0))])
    a, t = state.chars["A1"], state.chars["B1"]
    d = shot_difficulty(state.bf, state, a, a.tile, t, W["rifle"], False)
    assert d.raw == -1 and d.value == 0
    t.cib_mod = 0
    assert shot_difficulty(state.bf, state, a, a.tile, t, W["rifle"], False).value == AUTOMATIC
    # e, f: CIB 4, extreme, heavy cover (+huddled), move and shoot
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "veteran", (30, 0))])
    state.bf.cover[0, 30] = 2
    t = state.chars["B1"]
    t.cib_mod = 4
    t.huddled = True
    d = shot_difficulty(state.bf, state, state.chars["A1"], (0, 0), t, W["assault_rifle"], True)
    assert d.raw == 11 and d.value == IMPOSSIBLE
    t.huddled = False
    d = shot_difficulty(state.bf, state, state.chars["A1"], (0, 0), t, W["assault_rifle"], True)
    assert d.raw == 10 and d.value == 5


@pytest.mark.parametrize("target,band", [((1, 0), CONTACT), ((1, 1), CONTACT), ((2, 0), POINT_BLANK),
                                         ((2, 1), EFFECTIVE), ((2, 2), EFFECTIVE), ((3, 0), EFFECTIVE),
                                         ((16, 0), EFFECTIVE), ((17, 0), LONG), ((32, 0), LONG),
                                         ((33, 0), EXTREME)])
def test_tv23_rifle_range_bands(target, band):
    assert shot_band((0, 0), target, W["rifle"], 2.5) == band


@pytest.mark.parametrize("target,band,severity", [((2, 0), POINT_BLANK, (3, "C")), ((2, 1), EFFECTIVE, (2, "C")),
                                                  ((4, 3), EFFECTIVE, (2, "C")), ((6, 0), EFFECTIVE, (2, "C")),
                                                  ((7, 0), EXTREME, (2, "M")), ((12, 0), EXTREME, (2, "M")),
                                                  ((13, 0), None, None)])
def test_tv24_fragmentation_bands_and_severity(target, band, severity):
    w = W["shotgun"]
    assert shot_band((0, 0), target, w, 2.5) == band
    if band:
        assert severity_dice(w, band, False) == severity


def test_tv24_fragmentation_cannot_fire_into_a_melee():
    state = make_state([fig("A1", "trooper", (0, 0), offensive=True), fig("A2", "trooper", (7, 0))],
                       [fig("B1", "trooper", (6, 0))])
    a = state.chars["A1"]
    a.weapons.append("shotgun")
    a.ready_weapon = "shotgun"
    keys = {o.key for o in action_options(ctx_for(state, []), a, Conduct())}
    assert "shoot:B1" not in keys
    state.chars["A2"].tile = (9, 5)
    keys = {o.key for o in action_options(ctx_for(state, []), a, Conduct())}
    assert "shoot:B1" in keys


def forced_reaction(state) -> tuple | None:
    """(figure, attacker) of the reaction activation the action led straight into, if any."""
    d = state.steps.waiting
    if d is None or d.kind != "action" or d.info.get("mode") != "reaction":
        return None
    return d.figure, d.info["attacker"]


# --- wounds: TV-05, TV-11 .. TV-18, TV-27 .. TV-29 --------------------------------------

def trooper_victim(**extra):
    state = make_state([fig("A1", "veteran", (0, 0))], [fig("B1", "trooper", (10, 0), morale=5, **extra)])
    return state, state.chars["B1"]


def test_tv05_sharp_weapon_checks_hemorrhage_one_row_higher():
    state, v = trooper_victim()
    ctx = ctx_for(state, [2, 6])          # hemorrhage die 2, then the secondary roll (1D6)
    ctx.apply_hit(v, 2, 3, sharp=True)
    assert "legs" in v.hemorrhage and v.total_wounds() == 0 and v.morale == 4
    state, v = trooper_victim()
    ctx = ctx_for(state, [3, 6])
    ctx.apply_hit(v, 2, 3, sharp=True)
    assert not v.hemorrhage and v.morale == 4


def test_tv11_first_wound_legs_hemorrhage_morale_secondary_prone():
    state, v = trooper_victim()
    ctx = ctx_for(state, [4, 3, 5, 5, 4, 2])
    run_steps(ctx, Hit("A1", "B1", (1, "D"), False, False, False))
    assert v.wounds["legs"] == 1 and not v.hemorrhage and v.morale == 4 and v.prone
    assert dice_events(ctx, "secondary_effect") == [[5, 4, 2]]
    assert ctx.dice.left == []


def test_tv12_location_modifier_full_zone_survival_and_totals():
    state, v = trooper_victim(wounds={"left_arm": 2})
    ctx = ctx_for(state, [4, 5, 3, 6, 6, 5, 4])
    ctx.apply_hit(v, 4, 1)
    assert v.in_play and v.wounds["left_arm"] == 3
    assert dice_events(ctx, "survival") == [[4], [5]]
    assert "left_arm" in v.hemorrhage and v.morale == 3 and not v.prone
    assert modified_values(v) == (2, 1, 1)
    assert ctx.dice.left == []


def test_tv13_head_wound_death_and_ally_morale_in_same_aff():
    state = make_state([fig("A1", "trooper", (0, 0))],
                       [fig("B1", "veteran", (10, 0), aff=1), fig("B2", "recruit", (11, 0), aff=1, morale=5),
                        fig("B3", "trooper", (12, 0), aff=1, morale=5), fig("B4", "avatar", (13, 0), aff=1),
                        fig("B5", "recruit", (14, 0), morale=5)])
    state.chars["A1"].aff = 1
    ctx = ctx_for(state, [2])
    ctx.apply_hit(state.chars["B1"], 3, 6)
    assert not state.chars["B1"].in_play
    assert [state.chars[c].morale for c in ("B2", "B3", "B4", "B5")] == [3, 4, 6, 5]


def test_tv14_head_overflow_three_survival_rolls_then_ko():
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "veteran", (10, 0), morale=6,
                                                             wounds={"head": 1})])
    v = state.chars["B1"]
    ctx = ctx_for(state, [3, 4, 6, 1, 3, 3, 3, 3])
    ctx.apply_hit(v, 5, 6)
    hit = next(e for e in ctx.events if e.kind == "hit")
    assert hit.data["severity"] == 8 and hit.data["row"] == 6
    assert dice_events(ctx, "survival") == [[3], [4], [6]] and v.in_play
    assert "head" in v.hemorrhage and v.morale == 4
    assert dice_events(ctx, "secondary_effect") == [[1, 3, 3, 3, 3]]
    assert v.prone and v.ko_activations_left == 2 and v.activated_this_turn   # 3 activations, this turn's used


def test_tv15_critical_crippled_left_arm():
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "veteran", (10, 0), morale=6)])
    v = state.chars["B1"]
    ctx = ctx_for(state, [1, 3, 4, 5])
    ctx.critical_hit(v)
    assert v.wounds["left_arm"] == 3 and "left_arm" in v.hemorrhage and "left_arm" in v.critical
    assert v.morale == 4
    opts = action_options(ctx, v, Conduct())
    assert not any(o.action == "shoot" for o in opts)        # rifle (2 hands) unusable now
    assert any(o.key == "change:knife" for o in opts)


def test_tv16_critical_in_the_heart():
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "trooper", (10, 0), morale=5, fatigue=1)])
    v = state.chars["B1"]
    ctx = ctx_for(state, [4, 5, 4, 6, 4, 3])
    ctx.critical_hit(v)
    assert v.wounds["belly"] == 2 and "belly" in v.hemorrhage and "belly" in v.critical
    assert v.wounds["chest"] == 0
    assert v.fatigue == 6 and v.fatigue_locked_at_6 and v.prone and v.cannot_activate_turn == 2
    assert v.no_offensive_next_activation and v.morale == 3


def test_tv17_hemorrhage_across_turns_and_the_c_box():
    for critical in (False, True):
        state, v = trooper_victim()
        v.wounds["legs"] = 1
        v.hemorrhage["legs"] = 2
        if critical:
            v.critical.append("legs")
        state.turn = 2
        ctx = ctx_for(state, [])
        ctx.hemorrhage_rolls(v)
        assert dice_events(ctx) == []
        for turn, dice, legs in ((3, [3], 2), (4, [2, 4], 3)):
            state.turn = turn
            ctx = ctx_for(state, dice)
            ctx.hemorrhage_rolls(v)
            assert v.wounds["legs"] == legs and v.in_play
        state.turn = 5
        ctx = ctx_for(state, [6])
        ctx.hemorrhage_rolls(v)
        assert ("legs" in v.hemorrhage) == critical


@pytest.mark.parametrize("die,result", [(2, "collapse"), (1, "collapse"), (4, "rank_0"), (6, "unaffected")])
def test_tv18_sixth_fatigue_point_roll(die, result):
    state, v = trooper_victim(fatigue=5)
    ctx = ctx_for(state, [die])
    ctx.gain_fatigue(v, 1, "run")
    assert v.fatigue == 6
    assert next(e for e in ctx.events if e.kind == "exhausted").data["result"] == result
    if result == "collapse":
        assert v.prone and v.cannot_activate_turn == 2
    elif result == "rank_0":
        assert v.exhausted_from_turn == 2 and v.rank(2) == 0 and v.rank(1) == 2
    else:
        assert v.no_recovery_turn == 2
    ctx = ctx_for(state, [5])
    ctx.gain_fatigue(v, 1, "run")
    assert v.fatigue == 6 and dice_events(ctx, "sixth_fatigue_point") == [[5]]


@pytest.mark.parametrize("total,expected", [(0, (4, 3, 3)), (1, (3, 3, 3)), (2, (3, 2, 3)), (3, (2, 2, 2)),
                                            (4, (2, 1, 1)), (5, (1, 0, 0)), (6, (0, 0, 0)), (7, (0, 0, 0))])
def test_tv27_wound_totals_modify_mvt_cib_rng(total, expected):
    state = make_state([fig("A1", "veteran", (0, 0))], [fig("B1", "veteran", (9, 9))])
    v = state.chars["A1"]
    for zone, n in zip(("left_arm", "right_arm", "legs"), (min(total, 3), min(max(total - 3, 0), 3), max(total - 6, 0))):
        v.wounds[zone] = n
    assert modified_values(v) == expected


@pytest.mark.parametrize("s,amount,difficulty", [(1, 1, 0), (2, 1, 1), (3, 1, 2), (4, 2, 3), (5, 2, 4),
                                                 (6, 3, 5), (7, 3, 5), (8, 3, 5), (9, 3, 5)])
def test_tv28_secondary_effect_amount_and_difficulty(s, amount, difficulty):
    assert clamp_amount(s) == amount and clamp_difficulty(s - 1) == difficulty


def test_tv29_blunt_third_die_knockdown():
    state, v = trooper_victim()
    ctx = ctx_for(state, [1, 2, 4, 6, 6, 4, 4, 3])  # severity 1, location 2, third die 4, secondary 2C6, knockdown
    run_steps(ctx, Hit("A1", "B1", (1, "D"), False, False, True))
    assert dice_events(ctx, "knockdown") == [[4, 4, 3]] and v.prone
    state, v = trooper_victim()
    ctx = ctx_for(state, [1, 2, 1, 6, 6, 1, 1])
    run_steps(ctx, Hit("A1", "B1", (1, "D"), False, False, True))
    assert dice_events(ctx, "knockdown") == [[1, 1]] and v.prone


def test_tv30_automatic_burst_swaps_severity_and_location():
    state, v = trooper_victim()
    ctx = ctx_for(state, [2, 6, 1, 1, 1, 1, 1, 1])
    run_steps(ctx, Hit("A1", "B1", (1, "D"), True, False, False))
    assert state.steps.waiting.kind == "burst_swap" and state.steps.waiting.side == 0
    answer_step(ctx, "swap")
    hit = next(e for e in ctx.events if e.kind == "hit")
    assert hit.data["zone"] == "right_arm" and hit.data["severity"] == 6


def test_severity_c_roll_lets_the_attacker_keep_a_die():
    state, v = trooper_victim()
    ctx = ctx_for(state, [5, 2, 3, 6])
    run_steps(ctx, Hit("A1", "B1", (2, "C"), False, False, False))
    assert state.steps.waiting.kind == "keep_die" and [o.key for o in state.steps.waiting.options] == ["keep:5", "keep:2"]
    answer_step(ctx, "keep:2")
    assert next(e for e in ctx.events if e.kind == "hit").data["severity"] == 2


# --- morale: TV-08, TV-20 .. TV-22, TV-38 ----------------------------------------------

@pytest.mark.parametrize("rank,die,morale", [(1, 5, 6), (1, 3, 5), (2, 4, 6), (2, 3, 5), (3, 2, 5), (3, 1, 4),
                                             (4, 2, 6), (4, 1, 4)])
def test_tv08_initial_morale(rank, die, morale):
    assert initial_morale(rank, die) == morale


def test_tv08_avatar_starts_at_six_and_others_roll():
    from tests.rules.kolaps_helpers import match_with
    m = match_with([fig("A1", "avatar", (0, 0)), fig("A2", "recruit", (0, 2))],
                   [fig("B1", "recruit", (9, 0)), fig("B2", "veteran", (9, 2))], [3, 1, 3, 5, 4])
    m.answer("begin")
    assert [m.state.chars[c].morale for c in ("A1", "A2", "B1", "B2")] == [6, 5, 4, 6]
    assert m.state.first_speaker == 0


def morale_state(**extra):
    state = make_state([fig("A1", "trooper", (0, 0), aff=3, **extra)], [fig("B1", "trooper", (5, 0), aff=3)])
    return state, state.chars["A1"]


def test_tv20_morale_two_withdraw_then_shelter():
    state, ch = morale_state(morale=2)
    ctx = ctx_for(state, [5, 4])
    begin_activation(ctx, ch, Activation(ch.id, "regular"))
    assert ch.morale_state == "withdrawing"
    keys = {o.action for o in action_options(ctx, ch, Conduct())}
    assert keys <= {"end", "walk", "run", "cover", "prone", "stand"}
    ch.tile = (0, 15)                       # 26+ cm from the enemy
    state.bf.cover[15, 1] = 2
    run_steps(ctx, SimpleAction("A1", "cover", None, "cover"))
    assert ch.morale_state == "sheltered" and ch.aff is None
    assert any(o.action == "rally" for o in action_options(ctx, ch, Conduct()))


def test_tv20_morale_two_failure_pins():
    state, ch = morale_state(morale=2)
    ctx = ctx_for(state, [5, 2])
    begin_activation(ctx, ch, Activation(ch.id, "regular"))
    assert ch.morale_state == "pinned"
    assert {o.action for o in action_options(ctx, ch, Conduct())} == {"end", "prone"}


def test_tv21_morale_one_routing_or_mutiny():
    state = make_state([fig("A1", "recruit", (5, 5), morale=1), fig("A0", "avatar", (0, 0))],
                       [fig("B1", "trooper", (20, 5))])
    ch = state.chars["A1"]
    begin_activation(ctx_for(state, [4]), ch, Activation(ch.id, "regular"))
    assert ch.morale_state == "routing"
    assert [o.key for o in action_options(ctx_for(state, []), ch, Conduct())] == ["flee"]
    state = make_state([fig("A1", "recruit", (5, 5), morale=1), fig("A0", "avatar", (0, 0))],
                       [fig("B1", "trooper", (20, 5))])
    ch = state.chars["A1"]
    ctx = ctx_for(state, [3])
    begin_activation(ctx, ch, Activation(ch.id, "regular"))
    assert ch.morale_state == "mutinous" and ch.aff is not None and ch.aff == state.chars["A0"].aff
    opts = action_options(ctx, ch, Conduct())
    assert all(o.target in (None, "A0") for o in opts)
    assert any(o.target == "A0" for o in opts)
    state.chars["A0"].in_play = False
    state = make_state([fig("A1", "recruit", (5, 5), morale=1)], [fig("B1", "trooper", (20, 5))])
    ch = state.chars["A1"]
    begin_activation(ctx_for(state, [3]), ch, Activation(ch.id, "regular"))
    assert ch.morale_state == "routing"


@pytest.mark.parametrize("rank,before,after", [(1, 4, 3), (1, 3, 3), (2, 5, 4), (2, 2, 2), (3, 6, 5), (3, 5, 5),
                                               (4, 6, 5), (4, 4, 4)])
def test_tv22_simple_failure_morale(rank, before, after):
    arch = {1: "recruit", 2: "trooper", 3: "veteran", 4: "avatar"}[rank]
    state = make_state([fig("A1", arch, (0, 0), morale=before)], [fig("B1", "trooper", (9, 9))])
    ctx_for(state, []).simple_failure_morale(state.chars["A1"])
    assert state.chars["A1"].morale == after


@pytest.mark.parametrize("morale,eligible", [(6, True), (5, True), (4, True), (3, True), (2, False), (1, False)])
def test_tv38_offensive_box_needs_morale_three(morale, eligible):
    state = make_state([fig("A1", "veteran", (0, 0), morale=morale)], [fig("B1", "trooper", (9, 9))])
    assert steps.eligible(ctx_for(state, []), state.chars["A1"]) == eligible


@pytest.mark.parametrize("die,keeps", [(3, True), (2, False)])
def test_tv38_morale_three_directive_roll(die, keeps):
    state = make_state([fig("A1", "veteran", (0, 0), morale=3, offensive=True)], [fig("B1", "trooper", (9, 9))])
    state.attacker, state.defender = 0, 1
    ctx = ctx_for(state, [die])
    run_steps(ctx, Directives())
    assert state.chars["A1"].offensive == keeps and state.chars["A1"].directive_lost == (not keeps)


# --- failures: TV-25, TV-26 ---------------------------------------------------------------

def shooter_state(**target):
    state = make_state([fig("A1", "trooper", (0, 0), morale=5, offensive=True)],
                       [fig("B1", "trooper", (10, 0), morale=5, **target)])
    return state, state.chars["A1"]


def attack(a="A1", t="B1", kind="shoot", weapon="assault_rifle", origin=(0, 0)):
    return Attack(a, t, weapon, kind, tuple(origin) if origin else None, False, False)


@pytest.mark.parametrize("dice,result,morale", [
    ([1, 5, 1, 2, 5], "minor_incident", 4),
    ([1, 5, 1, 1, 3, 2, 5, 6, 6], "major_incident", 3),
    ([1, 4, 5, 4], "more_fear_than_harm", 4),
    ([1, 4, 5, 1, 5], "minor_incident", 4),
    ([1, 5, 1, 6], "more_fear_than_harm", 4)])
def test_tv25_critical_failure_table(dice, result, morale):
    state, a = shooter_state()
    state.chars["B1"].cib_mod = 3
    ctx = ctx_for(state, dice)
    run_steps(ctx, attack())
    if result == "minor_incident":
        assert state.steps.waiting.kind == "incident"
        answer_step(ctx, "jam")
        assert "assault_rifle" in a.jammed
    assert next(e for e in ctx.events if e.kind == "incident").data["result"] == result
    if result == "major_incident":
        hit = next(e for e in ctx.events if e.kind == "hit")
        assert hit.data["figure"] == "A1" and hit.data["zone"] == "right_arm" and a.wounds["right_arm"] == 1
        assert a.prone
    assert a.morale == morale
    assert ctx.dice.left == []


def test_tv26_friendly_fire_hits_the_first_crossed_ally():
    state = make_state([fig("A1", "veteran", (0, 0), morale=5, offensive=True), fig("A2", "trooper", (3, 0)),
                        fig("A3", "trooper", (3, 1))], [fig("B1", "trooper", (6, 0))])
    state.chars["B1"].cib_mod = 2
    ctx = ctx_for(state, [1, 5, 2, 3, 2, 6])
    run_steps(ctx, attack(weapon="rifle"))
    assert next(e for e in ctx.events if e.kind == "friendly_fire").data["victim"] == "A2"
    hit = next(e for e in ctx.events if e.kind == "hit")
    assert hit.data["figure"] == "A2" and hit.data["zone"] == "legs"
    assert space.figures_on_line((0, 0), (2, 2), [(1, 0), (0, 1), (1, 1)]) == [(1, 1)]
    assert space.crossed_tiles((0, 0), (3, 1)) == [(1, 0), (2, 1)]


# --- TV-31, TV-32: auction -----------------------------------------------------------

def auction_state(e0, e1, turn=2, defender=1):
    side0 = [fig(f"A{i}", "trooper", (0, i * 2), morale=5) for i in range(5)]
    side1 = [fig(f"B{i}", "trooper", (39, i * 2), morale=5) for i in range(5)]
    state = make_state(side0, side1, turn=turn)
    for i in range(5):
        state.chars[f"A{i}"].morale = 5 if i < e0 else 2
        state.chars[f"B{i}"].morale = 5 if i < e1 else 2
    state.defender = defender
    state.phase = "assessment"
    return state


def test_tv31_auction_outbid_then_stop():
    state = auction_state(4, 5)
    state.turn = 1
    ctx = ctx_for(state, [])
    run_steps(ctx, TurnStart())
    assert state.steps.waiting.kind == "bid" and state.steps.waiting.side == 1 and state.steps.waiting.secret
    for key in ("bid:2", "bid:3", "bid:4", "bid:3"):
        answer_step(ctx, key)
    assert state.attacker == 1 and state.defender == 0
    assert state.auction["counts"] == {"0": 3, "1": 4}
    assert state.steps.waiting.kind == "offensive" and state.steps.waiting.side == 0
    private = [e for e in ctx.events if e.kind == "bid"]
    assert all(e.visible_to == e.data["side"] for e in private)


def test_tv32_barred_attacker_announces_freely():
    state = auction_state(4, 5)
    state.barred = 1
    ctx = ctx_for(state, [])
    run_steps(ctx, TurnStart())
    assert state.steps.waiting.side == 0
    answer_step(ctx, "bid:1")
    assert state.steps.waiting.side == 1 and len(state.steps.waiting.options) == 6
    answer_step(ctx, "bid:4")
    assert state.attacker == 0 and state.auction["counts"] == {"0": 1, "1": 4}


# --- TV-34, TV-35: engagement and commitment ---------------------------------------

def test_tv34_engagement_creation_joining_crossfire_and_ignoring():
    side0 = [fig(f"A{i}", "trooper", (0, 2 * i), morale=5, offensive=True) for i in range(1, 5)]
    side1 = [fig("B1", "trooper", (8, 2), morale=5, offensive=True), fig("B2", "trooper", (8, 8), morale=5, aff=2),
             fig("B3", "trooper", (8, 12), morale=5)]
    state = make_state(side0 + [fig("A9", "trooper", (30, 19), aff=2)], side1)
    for c in state.chars.values():
        c.cib_mod = 1
    # 1. A1 hits B1 -> AFF 1 and a forced reaction
    ctx = ctx_for(state, [5, 1, 6, 6, 6])
    run_steps(ctx, attack("A1", "B1", origin=(0, 2)), Reactions())
    assert state.chars["A1"].aff == state.chars["B1"].aff == 1
    assert forced_reaction(state) == ("B1", "A1")
    # 2. B1 reacting against A2 (within 25 cm) needs a difficulty-3 check; on failure only A1 remains
    state.steps = StepStack()
    b1 = state.chars["B1"]
    state.chars["A2"].tile = (2, 8)
    state.bf.cover[2, 9] = 1                          # B1 could ambush, were it free to choose
    shot = next(o for o in action_options(ctx, b1, Conduct("reaction")) if o.key == "shoot:A2")
    act = Activation("B1", "reaction", attacker="A1", stage="choose", answer=shot)
    ctx = ctx_for(state, [4, 5, 3])
    run_steps(ctx, act)
    assert state.steps.waiting.kind == "action" and dice_events(ctx, "reaction_target") == [[4, 5, 3]]
    targets = {o.target for o in state.steps.waiting.options if o.target}
    assert targets == {"A1"}
    assert not any(o.action == "ambush" for o in state.steps.waiting.options)     # no offensive action but on A1
    state.steps = StepStack()
    b1.activated_this_turn = True
    # 3. A3 misses B1 and still joins AFF 1
    ctx = ctx_for(state, [2])
    run_steps(ctx, attack("A3", "B1", origin=(0, 6)))
    assert state.chars["A3"].aff == 1
    # 4. A1 shoots B2 (AFF 2, within 25 cm): crossfire, B chooses
    state.chars["B2"].tile = (5, 2)
    ctx = ctx_for(state, [2])
    run_steps(ctx, attack("A1", "B2", origin=(0, 2)))
    assert state.chars["B2"].morale == 4 and state.steps.waiting.kind == "crossfire" and state.steps.waiting.side == 1
    answer_step(ctx, "switch")
    assert state.chars["B2"].aff == 1
    state.steps = StepStack()
    # 5. A4 misses B3, already activated: nothing
    state.chars["B3"].activated_this_turn = True
    ctx = ctx_for(state, [2])
    run_steps(ctx, attack("A4", "B3", origin=(0, 8)), Reactions())
    assert state.chars["A4"].aff is None and state.chars["B3"].aff is None and state.steps.waiting is None
    # 6. not activated, and declining: B3 may not attack A4 this turn
    state.chars["B3"].activated_this_turn = False
    ctx = ctx_for(state, [2])
    run_steps(ctx, attack("A4", "B3", origin=(0, 8)), Reactions())
    assert state.steps.waiting.kind == "reaction" and state.steps.waiting.side == 1
    answer_step(ctx, "decline")
    assert "A4" in state.chars["B3"].ignores
    state.chars["B3"].offensive = True
    opts = action_options(ctx, state.chars["B3"], Conduct())
    assert not any(o.target == "A4" for o in opts)


def test_tv35_commitment_check_bars_the_attacker():
    side1 = [fig(f"B{i}", "trooper", (39, 2 * i), morale=5, offensive=True) for i in range(1, 5)]
    state = make_state([fig("A1", "trooper", (0, 0))], side1)
    state.attacker, state.defender = 1, 0
    b = state.chars
    b["B1"].did_offensive_action_this_turn = True
    b["B2"].did_offensive_action_this_turn = True     # declared an ambush
    b["B4"].commitment_excused_this_turn = True       # KO'd before activating
    run_steps(ctx_for(state, []), Assessment())
    assert [b[c].morale for c in ("B1", "B2", "B3", "B4")] == [5, 5, 4, 5]
    assert state.barred == 1


def test_tv19_lost_directive_is_a_breach_for_the_attacker():
    state = make_state([fig("A1", "recruit", (0, 0), morale=3, offensive=True),
                        fig("A2", "trooper", (0, 2), morale=5, offensive=True)], [fig("B1", "trooper", (39, 0))])
    state.attacker, state.defender = 0, 1
    ctx = ctx_for(state, [2])
    run_steps(ctx, Directives())
    state.chars["A2"].did_offensive_action_this_turn = True
    run_steps(ctx, Assessment())
    assert state.chars["A1"].morale == 2 and state.barred == 0


def test_tv07_and_tv36_catch_breath_and_natural_recovery():
    for wounds, removed in ((0, 6), (2, 4), (5, 1), (7, 1)):
        state = make_state([fig("A1", "veteran", (0, 0), fatigue=6)], [fig("B1", "trooper", (39, 0))])
        ch = state.chars["A1"]
        left = wounds
        for zone in ("left_arm", "right_arm", "legs"):
            ch.wounds[zone] = min(3, left)
            left -= ch.wounds[zone]
        ch.catch_breath_declared = True
        ch.fatigue_gained_this_turn = True
        run_steps(ctx_for(state, []), Assessment())
        assert ch.fatigue == 6 - removed
    state = make_state([fig("A1", "veteran", (0, 0), fatigue=5, wounds={"legs": 2})], [fig("B1", "trooper", (39, 0))])
    ch = state.chars["A1"]
    ch.catch_breath_declared = True
    run_steps(ctx_for(state, []), Assessment())
    assert ch.fatigue == 0


# --- TV-37: explosion ------------------------------------------------------------------

def test_tv37_grenade_explosion_bands_and_rolls():
    side0 = [fig("T", "trooper", (0, 0), morale=5, offensive=True), fig("O", "trooper", (4, 2))]
    side1 = [fig("E1", "trooper", (4, 0)), fig("E2", "trooper", (5, 1)), fig("E3", "trooper", (7, 0)),
             fig("E4", "trooper", (8, 0)), fig("E5", "trooper", (9, 0))]
    state = make_state(side0, side1)
    t = state.chars["T"]
    t.ready_weapon = "grenade"
    opts = action_options(ctx_for(state, []), t, Conduct())
    throw = next(o for o in opts if o.key == "throw:E1")
    odds = RULES.odds(state, throw)
    assert odds.outcomes["hit:E1"] == Fraction(35, 36) and odds.outcomes["hit:E3"] == Fraction(125, 216)
    assert odds.outcomes["hit:T"] == Fraction(125, 216) and "hit:E5" not in odds.outcomes
    assert odds.details["bands"]["O"] == POINT_BLANK and odds.details["bands"]["E4"] == EXTREME
    assert odds.details["blast_radius"] == 4 and odds.details["friendly"] == ["O", "T"]
    # all miss: E1, E2, O on 2C6 (1,1); E3, E4, T on 3D6 with a 1
    ctx = ctx_for(state, [1, 1] * 3 + [1, 2, 2] * 3)
    run_steps(ctx, attack("T", "E1", kind="throw", weapon="grenade", origin=(0, 0)))
    rolled = [e.data["target"] for e in ctx.events if e.kind == "dice"]
    assert all(e.data["who"] == "T" for e in ctx.events if e.kind == "dice")
    assert sorted(rolled) == ["E1", "E2", "E3", "E4", "O", "T"]
    assert all(e.data["needed"] == 2 for e in ctx.events if e.kind == "dice")
    assert t.uses_left["grenade"] == 0 and "grenade" not in t.weapons
    assert state.chars["E1"].aff is None


def test_odds_for_a_shot_are_exact_and_sum_to_one():
    state, a = shooter_state()
    opts = action_options(ctx_for(state, []), a, Conduct())
    shot = next(o for o in opts if o.key == "shoot:B1")
    odds = RULES.odds(state, shot)
    assert sum(odds.outcomes.values()) == 1
    assert odds.details["success"] == Fraction(1, 4)              # CIB 2, rank 2: 2D6 at 4+
    assert sum(odds.details["severity_given_hit"].values()) == 1


def test_strike_prone_target_is_base_zero():
    state = make_state([fig("A1", "brawler", (0, 0))], [fig("B1", "veteran", (1, 0), prone=True)])
    d = strike_difficulty(state.chars["A1"], state.chars["B1"], W["two_handed_axe"], False)
    assert d.raw == 0
    d = strike_difficulty(state.chars["A1"], state.chars["B1"], W["pistol"], True)
    assert d.raw == 4


def test_odds_of_a_burst_swap_severity_and_location_for_the_higher_severity():
    state, a = shooter_state()
    opts = action_options(ctx_for(state, []), a, Conduct())
    burst = next(o for o in opts if o.key == "burst:B1")
    rows = RULES.odds(state, burst).details["severity_given_hit"]
    assert rows == {f"severity:{k}": Fraction(2 * k - 1, 36) for k in range(1, 7)}     # the higher of two dice


def test_odds_of_a_two_handed_strike_use_the_cancelling_table():
    state = make_state([fig("A1", "brawler", (0, 0), offensive=True)], [fig("B1", "veteran", (1, 0))])
    state.chars["B1"].cib_mod = 4
    opts = action_options(ctx_for(state, []), state.chars["A1"], Conduct())
    axe = next(o for o in opts if o.key == "strike:B1:two_handed_axe")
    assert RULES.odds(state, axe).details["success"] == Fraction(4, 9)      # rank 3, difficulty 4, 2 hands


@pytest.mark.parametrize("dice,morale", [([4, 4, 6], 5), ([4, 4, 3], 4), ([4, 3], 3)])
def test_rally_rolls_at_assessment_difficulty_two_then_a_d6(dice, morale):
    state = make_state([fig("A1", "trooper", (0, 0), morale=3)], [fig("B1", "trooper", (39, 0))])
    ch = state.chars["A1"]
    ch.rally_declared = True
    ch.fatigue_gained_this_turn = True
    ctx = ctx_for(state, dice)
    run_steps(ctx, Assessment())
    assert ch.morale == morale and ctx.dice.left == []


def test_take_cover_needs_cover_on_or_next_to_the_tile_and_huddling_adds_a_level():
    state = make_state([fig("A1", "trooper", (0, 0), offensive=True)], [fig("B1", "trooper", (10, 0))])
    b1 = state.chars["B1"]
    b1.offensive = True
    assert not any(o.action == "cover" for o in action_options(ctx_for(state, []), b1, Conduct()))
    state.bf.cover[1, 10] = 1
    opts = action_options(ctx_for(state, []), b1, Conduct())
    assert any(o.action == "cover" for o in opts) and any(o.action == "ambush" for o in opts)
    state.bf.cover[0, 10] = 1
    a1 = state.chars["A1"]
    w = W["assault_rifle"]
    assert shot_difficulty(state.bf, state, a1, a1.tile, b1, w, False).raw == 2      # light cover − offensive
    b1.ambush_armed = True
    assert shot_difficulty(state.bf, state, a1, a1.tile, b1, w, False).raw == 3      # the ambusher keeps it
    b1.huddled = True
    assert shot_difficulty(state.bf, state, a1, a1.tile, b1, w, False).raw == 4


def test_tv37_only_the_primary_target_of_a_blast_is_bound_and_must_react():
    side0 = [fig("T", "trooper", (0, 0), morale=5, offensive=True), fig("O", "trooper", (4, 2))]
    side1 = [fig("E1", "trooper", (4, 0)), fig("E2", "trooper", (5, 1)), fig("E3", "trooper", (7, 0)),
             fig("E4", "trooper", (8, 0))]
    state = make_state(side0, side1)
    state.chars["T"].ready_weapon = "grenade"
    blast_rolls = [6, 5] + [1, 1] * 2 + [1, 2, 2] * 3          # E1 hit; E2, O, E3, E4, T missed
    hit_on_e1 = [1, 1, 1, 1, 6, 6]                               # severity 3C6, location, secondary 2C6
    ctx = ctx_for(state, blast_rolls + hit_on_e1)
    run_steps(ctx, attack("T", "E1", kind="throw", weapon="grenade", origin=(0, 0)), Reactions())
    assert ctx.dice.left == []
    assert state.chars["T"].aff == state.chars["E1"].aff == 1
    assert all(state.chars[c].aff is None for c in ("E2", "E3", "E4", "O"))
    assert forced_reaction(state) == ("E1", "T")


def test_scenario_weapon_with_ammunition_empties_and_reloads(tmp_path):
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    data["weapons"]["rifle"]["ammo"] = 1
    path = tmp_path / "kolaps.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    rules = Kolaps(path)
    state = rules.new_state(Battlefield.open_ground(30, 10),
                            armies([fig("A1", "veteran", (0, 0), offensive=True)], [fig("B1", "trooper", (8, 0))]), 5)
    state.steps = StepStack()
    a = state.chars["A1"]
    ctx = Ctx(state, ScriptedDice([2, 2]), rules.data)
    assert any(o.key == "shoot:B1" for o in action_options(ctx, a, Conduct()))
    run_steps(ctx, attack("A1", "B1", weapon="rifle"))
    opts = {o.key for o in action_options(ctx, a, Conduct())}
    assert "shoot:B1" not in opts and "reload" in opts
    run_steps(ctx, SimpleAction("A1", "reload", "rifle", "reload"))
    assert any(o.key == "shoot:B1" for o in action_options(ctx, a, Conduct()))


def test_bad_armies_are_refused_with_a_clear_message():
    with pytest.raises(RulesError, match="unknown archetype"):
        make_state([fig("A1", "dragon", (0, 0))], [fig("B1", "trooper", (5, 5))])
    with pytest.raises(RulesError, match="cannot stand"):
        make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "trooper", (0, 0))])


def test_odds_split_a_critical_failure_into_the_incident_table_or_friendly_fire():
    state, a = shooter_state()
    state.chars["B1"].cib_mod = 3
    shot = next(o for o in action_options(ctx_for(state, []), a, Conduct()) if o.key == "shoot:B1")
    odds = RULES.odds(state, shot)
    split = odds.details["critical_failure_results"]
    assert sum(split.values()) == odds.outcomes["critical_failure"] == Fraction(91, 216)
    # one 1 (75/216): the incident D6 gives 0 on a 1; two 1s (15/216): −1 on a 1, 0 on a 2; three 1s (1/216)
    assert split["mishap:minor_incident"] == Fraction(75 + 15 + 1, 216 * 6)
    assert split["mishap:major_incident"] == Fraction(15 + 2, 216 * 6)
    state.chars["A2"] = dataclasses.replace(state.chars["A1"], id="A2", tile=(5, 0), wounds=dict(a.wounds))
    odds = RULES.odds(state, shot)
    assert odds.details["critical_failure_results"] == {"friendly_fire": Fraction(91, 216)}


# --- audit additions ---------------------------------------------------------------------

def test_lost_directive_bars_the_attacker_even_when_the_character_is_removed():
    """§3.3/§3.6: a failed morale-3 directive roll is never excused."""
    state = make_state([fig("A1", "recruit", (0, 0), morale=3, offensive=True)], [fig("B1", "trooper", (39, 0))])
    state.attacker, state.defender = 0, 1
    ctx = ctx_for(state, [2])
    run_steps(ctx, Directives())
    state.chars["A1"].in_play = False
    run_steps(ctx, Assessment())
    assert state.barred == 0 and state.chars["A1"].morale == 3


def test_defender_lost_directive_is_never_a_breach():
    state = make_state([fig("A1", "recruit", (0, 0), morale=3, offensive=True)], [fig("B1", "trooper", (39, 0))])
    state.attacker, state.defender = 1, 0
    ctx = ctx_for(state, [2])
    run_steps(ctx, Directives())
    run_steps(ctx, Assessment())
    assert state.barred is None and state.chars["A1"].morale == 3


def test_blast_difficulty_uses_effective_cover_from_the_impact():
    """§5.5: cover against an explosion is the effective level (offensive −1, huddled +1)."""
    side1 = [fig("E1", "trooper", (4, 0)), fig("E3", "trooper", (7, 0))]
    state = make_state([fig("T", "trooper", (0, 0), offensive=True)], side1)
    state.bf.cover[0, 7] = 1
    e3 = state.chars["E3"]
    w = W["grenade"]
    from game.rules.kolaps.combat import blast_difficulty
    assert blast_difficulty(state.bf, (4, 0), e3, w["explosion"], 2.5).raw == 2 + 1 + 1
    e3.huddled = True
    assert blast_difficulty(state.bf, (4, 0), e3, w["explosion"], 2.5).raw == 2 + 1 + 2
    e3.huddled, e3.offensive = False, True
    assert blast_difficulty(state.bf, (4, 0), e3, w["explosion"], 2.5).raw == 2 + 1


def test_withdrawing_character_already_huddled_may_still_take_cover_to_shelter():
    """§5.21: Take cover completes the withdrawal even if the character huddled there before."""
    state = make_state([fig("A1", "trooper", (0, 15), aff=3, morale=2)], [fig("B1", "trooper", (0, 0), aff=3)])
    state.bf.cover[15, 1] = 2
    ch = state.chars["A1"]
    ch.huddled = True
    ch.morale_state = "withdrawing"
    assert any(o.action == "cover" for o in action_options(ctx_for(state, []), ch, Conduct()))
    ch.morale_state = "normal"
    ch.morale = 5
    assert not any(o.action == "cover" for o in action_options(ctx_for(state, []), ch, Conduct()))


def test_odds_never_reveal_an_enemy_armed_ambush():
    """§5.15: the ambush is secret, so the odds shown count the target's offensive box against its cover."""
    state = make_state([fig("A1", "trooper", (0, 0), offensive=True)],
                       [fig("B1", "trooper", (10, 0), offensive=True)])
    state.bf.cover[0, 10] = 1
    shot = next(o for o in action_options(ctx_for(state, []), state.chars["A1"], Conduct())
                if o.key == "shoot:B1")
    before = RULES.odds(state, shot)
    state.chars["B1"].ambush_armed = True
    after = RULES.odds(state, shot)
    assert before.details["raw"] == after.details["raw"] == 2 and before.outcomes == after.outcomes
    # the resolution itself uses the real cover: the ambusher keeps its light cover
    ctx = ctx_for(state, [2, 2, 2])
    run_steps(ctx, attack())
    assert next(e for e in ctx.events if e.kind == "attack").data["raw"] == 3


def test_tv26_friendly_fire_severity_is_the_band_to_the_ally_and_a_side_ally_is_not_crossed():
    state = make_state([fig("A1", "veteran", (0, 0), morale=5, offensive=True), fig("A3", "trooper", (3, 1))],
                       [fig("B1", "trooper", (6, 0))])
    ctx = ctx_for(state, [1, 5, 3])
    run_steps(ctx, attack(weapon="rifle"))
    assert not any(e.kind == "friendly_fire" for e in ctx.events)
    assert next(e for e in ctx.events if e.kind == "incident").data["result"] == "more_fear_than_harm"
    state = make_state([fig("A1", "veteran", (0, 0), morale=5, offensive=True), fig("A2", "trooper", (3, 0))],
                       [fig("B1", "trooper", (6, 0))])
    ctx = ctx_for(state, [1, 5, 2, 3, 2])
    run_steps(ctx, attack(weapon="rifle"))
    severity = next(e for e in ctx.events if e.kind == "dice" and e.data["purpose"] == "severity")
    assert severity.data["faces"] == [2] and severity.data["roll"] == "1D6"     # rifle at 7.5 cm: effective
    action = next(e for e in ctx.events if e.kind == "dice" and e.data["purpose"] == "action")
    assert action.data["who"] == "A1" and action.data["target"] == "B1"
    assert ctx.dice.left == []


@pytest.mark.parametrize("victim,roll", [("E1", "3C6"), ("E2", "3C6"), ("E3", "2M6")])
def test_tv37_blast_severity_dice_by_band(victim, roll):
    side0 = [fig("T", "trooper", (0, 0), morale=5, offensive=True)]
    side1 = [fig("E1", "trooper", (4, 0)), fig("E2", "trooper", (5, 1)), fig("E3", "trooper", (7, 0))]
    state = make_state(side0, side1)
    state.chars["T"].ready_weapon = "grenade"
    order = ["E1", "E2", "E3", "T"]                   # by distance from the impact
    dice = {"E1": [1, 1], "E2": [1, 1], "E3": [1, 2, 2], "T": [1, 2, 2]}
    dice[victim] = [6, 6] if victim != "E3" else [6, 6, 6]
    hit = [2, 3, 5, 3] if roll == "3C6" else [2, 3, 3]       # severity dice, then location (legs)
    ctx = ctx_for(state, [d for f in order for d in dice[f]] + hit + [6] * 12)
    run_steps(ctx, attack("T", "E1", kind="throw", weapon="grenade", origin=(0, 0)))
    if state.steps.waiting is not None and state.steps.waiting.kind == "keep_die":
        answer_step(ctx, state.steps.waiting.options[0].key)
    sev = next(e for e in ctx.events if e.kind == "dice" and e.data["purpose"] == "severity")
    assert sev.data["roll"] == roll and sev.data["who"] == "T"
    kept = next(e for e in ctx.events if e.kind == "kept_die")
    assert kept.data["kept"] == (5 if roll == "3C6" else 2)


def test_tv20_withdrawal_shelters_only_more_than_25_cm_from_every_enemy():
    """§5.21 / A33: "more than 25 cm" is d > 25 cm; at exactly 25 cm the character keeps withdrawing."""
    state, ch = morale_state(morale=2)
    ctx = ctx_for(state, [5, 4])
    begin_activation(ctx, ch, Activation(ch.id, "regular"))
    state.chars["B1"].tile = (10, 0)                      # 10 pas = 25 cm from (0, 0)
    state.bf.cover[1, 0] = 2
    run_steps(ctx, SimpleAction("A1", "cover", None, "cover"))
    assert ch.morale_state == "withdrawing" and ch.aff == 3 and ch.huddled
    state.chars["B1"].tile = (11, 0)
    run_steps(ctx, SimpleAction("A1", "cover", None, "cover"))
    assert ch.morale_state == "sheltered" and ch.aff is None


def test_a13_attacker_character_at_morale_two_when_activating_is_excused():
    state = make_state([fig("A1", "trooper", (0, 0), morale=2, offensive=True)], [fig("B1", "trooper", (39, 0))])
    state.attacker, state.defender = 0, 1
    ctx = ctx_for(state, [])
    begin_activation(ctx, state.chars["A1"], Activation(state.chars["A1"].id, "regular"))
    run_steps(ctx, Assessment())
    assert state.barred is None and state.chars["A1"].morale == 2


def test_odds_of_a_reaction_against_another_target_show_the_difficulty_3_permission_roll():
    """§5.20: the permission roll comes before the attack; its exact chance is shown with the attack's odds."""
    state = make_state([fig("A1", "trooper", (0, 2), morale=5), fig("A2", "trooper", (2, 8), morale=5)],
                       [fig("B1", "trooper", (8, 2), morale=5, offensive=True)])
    run_steps(ctx_for(state, []), Activation("B1", "reaction", attacker="A1"))
    options = {o.key: o for o in state.steps.waiting.options}
    assert RULES.odds(state, options["shoot:A2"]).details["target_check"] == Fraction(1, 8)     # 3D6 at 4+
    assert "target_check" not in RULES.odds(state, options["shoot:A1"]).details


# --- the left-hand item (seed: "l'objet qu'il tenait en main gauche") --------------------------------

def one_handed(**extra):
    """A1 (avatar) with its pistol ready and its knife in the left hand; B1 in base contact."""
    state = make_state([fig("A1", "avatar", (0, 0), morale=6, offensive=True, **extra)],
                       [fig("B1", "trooper", (1, 0), morale=5)])
    a1 = state.chars["A1"]
    a1.ready_weapon, a1.left_hand = "pistol", "knife"
    return state, a1


def test_left_arm_secondary_effect_drops_the_left_hand_item_onto_the_tile():
    """§5.26: the object held in the left hand is lost and must be picked up; both hands are barred next."""
    state, a1 = one_handed()
    ctx = ctx_for(state, [])
    ctx.secondary_effect(a1, "left_arm", 3)
    assert a1.left_hand is None and "knife" not in a1.weapons and a1.ready_weapon == "pistol"
    assert state.ground == [[(0, 0), "knife"]] and a1.no_two_handed_next_activation
    dropped = next(e for e in ctx.events if e.kind == "dropped")
    assert dropped.data["hand"] == "left_hand" and dropped.data["weapon"] == "knife"
    keys = {o.key for o in action_options(ctx, a1, Conduct())}
    assert {"pickup:0:knife", "pickup_left:0:knife"} <= keys
    run_steps(ctx, SimpleAction("A1", "pickup_left", "knife", "pickup_left:0:knife"))
    assert a1.left_hand == "knife" and a1.ready_weapon == "pistol" and state.ground == []


def test_left_arm_effect_leaves_a_two_handed_weapon_in_hand():
    """A50: a two-handed weapon counts as held in the right hand."""
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "trooper", (9, 9))])
    a1 = state.chars["A1"]
    ctx_for(state, []).secondary_effect(a1, "left_arm", 3)
    assert a1.ready_weapon == "assault_rifle" and "assault_rifle" in a1.weapons and state.ground == []


def test_the_left_hand_item_strikes_and_a_left_hand_grenade_is_thrown_from_it():
    state, a1 = one_handed()
    keys = {o.key for o in action_options(ctx_for(state, []), a1, Conduct())}
    assert {"strike:B1:pistol", "strike:B1:knife", "strike:B1:unarmed"} <= keys
    a1.left_hand = "grenade"
    a1.weapons.append("grenade")
    a1.uses_left["grenade"] = 1
    state.chars["B1"].tile = (4, 0)
    throw = next(o for o in action_options(ctx_for(state, []), a1, Conduct()) if o.key == "throw:B1:grenade")
    assert throw.value == "grenade"
    ctx = ctx_for(state, [1, 1] + [1, 2, 2, 2])         # B1 (2C6) and A1 (CIB 3, extreme: 4D6) both missed
    run_steps(ctx, Activation("A1", "regular", stage="choose", answer=throw))
    assert a1.left_hand is None and a1.ready_weapon == "pistol" and "grenade" not in a1.weapons


def test_a_crippled_arm_or_a_two_handed_weapon_leaves_no_left_hand_use():
    """§5.27: a crippled arm forbids "a weapon and an object"; a two-handed ready weapon takes both hands."""
    state, a1 = one_handed()
    a1.critical.append("right_arm")
    keys = {o.key for o in action_options(ctx_for(state, []), a1, Conduct())}
    assert "strike:B1:knife" not in keys and not any(k.startswith("left:") for k in keys)
    state, a1 = one_handed()
    ctx = ctx_for(state, [])
    run_steps(ctx, SimpleAction("A1", "change_weapon", "assault_rifle", "change:assault_rifle"))
    assert a1.ready_weapon == "assault_rifle" and a1.left_hand is None and "knife" in a1.weapons
    assert any(e.kind == "stowed_left" for e in ctx.events)
    run_steps(ctx, SimpleAction("A1", "change_weapon", "pistol", "change:pistol"))
    assert any(o.key == "left:knife" for o in action_options(ctx, a1, Conduct()))
    run_steps(ctx, SimpleAction("A1", "take_left", "knife", "left:knife"))
    assert a1.left_hand == "knife"
    view = next(f for f in RULES.figures(state, 1) if f.id == "A1")
    assert any(m.key == "left_hand" and m.get("weapon") == "knife" for m in view.markers)


def test_an_army_may_start_a_figure_with_a_left_hand_item_only_beside_a_one_handed_weapon():
    with pytest.raises(RulesError, match="takes both hands"):
        make_state([fig("A1", "avatar", (0, 0), left_hand="knife")], [fig("B1", "trooper", (5, 5))])
    with pytest.raises(RulesError, match="one-handed item the figure carries"):
        make_state([fig("A1", "avatar", (0, 0), left_hand="shotgun")], [fig("B1", "trooper", (5, 5))])


# --- steadying a withdrawing friend (seed: "un personnage peut tenter de faire remonter le moral") -------

def withdrawal(helper_tile=(0, 4), **helper):
    """A2 (trooper, morale 2, AFF 3) is withdrawing; A1 (veteran, 3+) stands nearby; B1 is the enemy."""
    state = make_state([fig("A1", "veteran", helper_tile, **{"morale": 5, **helper}),
                        fig("A2", "trooper", (0, 0), morale=2, aff=3)],
                       [fig("B1", "trooper", (12, 0), morale=5, aff=3)])
    state.chars["A2"].morale_state = "withdrawing"
    return state, state.chars["A1"], state.chars["A2"]


@pytest.mark.parametrize("dice,morale,state_after", [([4, 3, 6], 4, "normal"), ([4, 3, 2], 3, "normal"),
                                                     ([2, 5], 2, "withdrawing")])
def test_a_friend_may_raise_a_withdrawing_characters_morale_and_end_its_flight(dice, morale, state_after):
    state, a1, a2 = withdrawal()
    ctx = ctx_for(state, dice)
    option = next(o for o in action_options(ctx, a1, Conduct()) if o.action == "encourage")
    assert option.target == "A2" and option.tile == a2.tile
    run_steps(ctx, Activation("A1", "regular", stage="choose", answer=option))
    assert a2.morale == morale and a2.morale_state == state_after and a2.aff == 3 and ctx.dice.left == []
    assert dice_events(ctx, "encourage") == [dice[:2]]


def test_steadying_needs_a_standing_helper_with_orders_in_it_within_25_cm_of_a_withdrawing_friend():
    for helper_tile, extra in (((0, 11), {}), ((0, 4), {"prone": True}), ((0, 4), {"morale": 2})):
        state, a1, _ = withdrawal(helper_tile, **extra)
        assert not any(o.action == "encourage" for o in action_options(ctx_for(state, []), a1, Conduct()))
    state, a1, a2 = withdrawal()
    a2.morale_state = "pinned"
    assert not any(o.action == "encourage" for o in action_options(ctx_for(state, []), a1, Conduct()))


def test_odds_of_steadying_are_the_helpers_difficulty_two_roll_then_the_d6():
    state, a1, _ = withdrawal()
    option = next(o for o in action_options(ctx_for(state, []), a1, Conduct()) if o.action == "encourage")
    odds = RULES.odds(state, option)
    assert odds.outcomes == {"morale_gain:2": Fraction(4, 54), "morale_gain:1": Fraction(20, 54),
                             "failure": Fraction(5, 9)}


def test_unjam_of_a_weapon_dropped_meanwhile_does_nothing():
    """An ambush in the W1 window may knock the jammed weapon out of hand before the Unjam resolves: the
    action is no longer legal and is skipped (seen in a sim game: it crashed on the missing weapon)."""
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "trooper", (9, 9))])
    a1 = state.chars["A1"]
    a1.jammed.append("assault_rifle")
    ctx = ctx_for(state, [])
    ctx.drop_weapon(a1, "5.26")
    run_steps(ctx, SimpleAction("A1", "unjam", None, "unjam"))
    assert a1.ready_weapon == "unarmed" and a1.jammed == []
    assert any(e.kind == "action" and e.data.get("reason") == "no_longer_legal" for e in ctx.events)


def test_turn_limit_is_decided_on_points_wound_boxes_taken_and_objectives_held():
    """Project default (engine/objectives.py): at the limit, boxes ticked on the enemy (a whole sheet for a
    character out of play) plus the objectives held, a sheet's boxes per figure an objective is worth."""
    from game.engine.battlefield import MapObject
    from game.rules.kolaps.model import TOTAL_BOXES

    state = make_state([fig("A1", "trooper", (0, 0)), fig("A2", "trooper", (3, 3))],
                       [fig("B1", "trooper", (9, 9))], turn=10)
    state.chars["A1"].wounds["legs"] = 2
    ctx = ctx_for(state, [])
    steps.check_end(ctx)
    assert state.finished and (state.winner, state.end_reason) == (1, "points")
    assert ctx.events[-1].data["points"] == [0, 2]
    state = make_state([fig("A1", "trooper", (0, 0)), fig("A2", "trooper", (3, 3))],
                       [fig("B1", "trooper", (9, 9))], turn=10)
    state.chars["A1"].wounds["legs"] = 2
    state.bf.objects = [MapObject("objective", "square", ((3, 3),), {})]
    steps.check_end(ctx_for(state, []))
    assert state.winner == 0
    assert [w.as_dict()["held"] for w in RULES.outcome(state).details] == [TOTAL_BOXES, 0]


def unit(side: int, n: int = 5) -> list[dict]:
    return [fig(f"{'AB'[side]}{i}", "trooper", (39 * side, 2 * i)) for i in range(1, n + 1)]


def test_a_side_that_has_lost_more_than_half_its_characters_is_routed_at_the_end_of_the_turn():
    """Project default (docs/rules-kolaps.md): three of five out of play, out of action or fled, lose the
    battle at the end of that turn, whatever the points say (here the routed side is ahead on boxes)."""
    state = make_state(unit(0), unit(1), turn=4)
    ctx = ctx_for(state, [])
    ctx.remove(state.chars["A1"], "out_of_action", "5.27")
    ctx.remove(state.chars["A2"], "fled", "5.21")
    for c in ("B1", "B2", "B3", "B4", "B5"):
        state.chars[c].wounds["left_arm"] = 3
        state.chars[c].wounds["right_arm"] = 3
        state.chars[c].wounds["legs"] = 2
    ctx.remove(state.chars["A3"], "out_of_action", "5.27")
    assert not state.finished                     # mid-turn: the battle goes on to the assessment
    run_steps(ctx, Assessment())
    assert state.finished and (state.winner, state.end_reason) == (1, "routed")
    over = ctx.events[-1]
    assert over.kind == "game_over" and over.data["routed"] == [0] and over.data["points"][0] > over.data["points"][1]
    assert RULES.outcome(state).reason == "routed" and len(RULES.outcome(state).details) == 2


def test_losing_exactly_half_is_no_rout_and_the_battle_goes_on():
    state = make_state(unit(0, 4), unit(1), turn=4)
    ctx = ctx_for(state, [])
    ctx.remove(state.chars["A1"], "out_of_action", "5.27")
    ctx.remove(state.chars["A2"], "out_of_action", "5.27")
    steps.check_end(ctx)
    assert not state.finished
    ctx.remove(state.chars["A3"], "out_of_action", "5.27")
    steps.check_end(ctx)
    assert (state.finished, state.winner, state.end_reason) == (True, 1, "routed")


def test_both_sides_routed_at_once_are_decided_on_points_and_equal_points_are_a_draw():
    for extra_wound, winner in ((0, None), (1, 0)):
        state = make_state(unit(0), unit(1), turn=6)
        ctx = ctx_for(state, [])
        for c in ("A1", "A2", "A3", "B1", "B2", "B3"):
            ctx.remove(state.chars[c], "out_of_action", "5.27")
        state.chars["B4"].wounds["legs"] = extra_wound
        steps.check_end(ctx)
        assert state.finished and (state.winner, state.end_reason) == (winner, "both_routed")
        assert ctx.events[-1].data["routed"] == [0, 1]


def test_a_side_wiped_out_loses_by_5_36_even_when_the_other_is_routed_too():
    state = make_state(unit(0, 2), unit(1), turn=6)
    ctx = ctx_for(state, [])
    for c in ("A1", "A2", "B1", "B2", "B3"):
        ctx.remove(state.chars[c], "out_of_action", "5.27")
    steps.check_end(ctx)
    assert (state.winner, state.end_reason) == (1, "no_character_left")


def test_replay_verify_refuses_a_save_of_rules_version_2_in_one_line_exit_2(tmp_path, capsys):
    """Version 3 adds the rout: a version-2 save's answers could replay to another ending."""
    from game.cli import main

    path = tmp_path / "kolaps.json"
    assert main(["sim", "--map", "maps/ruined_town.tmx", "--rules", "kolaps", "--games", "1", "--seed", "3",
                 "--ai", "random", "--max-turns", "1", "--save", str(path)]) == 0
    assert main(["replay", "--verify", str(path)]) == 0
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["rules"]["version"] = "2"
    path.write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", "--verify", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "kolaps rules version 2, this game has version 3" in err
