"""Mordgrave test vectors of rules/mordgrave.md §6.1 and §6.2 (TV-M01 to TV-M28), with the dice they state."""
from __future__ import annotations

import pytest

from game.engine.battlefield import Battlefield
from game.engine.dice import ScriptedDice
from game.rules.mordgrave.combat import band, critical, melee_weapon, penalty, ranged_weapon, weapon_damage
from game.rules.mordgrave.options import action_options, in_bubble, shot_options
from game.rules.mordgrave.state import Carried
from game.rules.mordgrave.steps import (DoubleShot, FollowUp, Melee, StartTurn, add_token, breath, end_turn,
                                        fight, shoot)

from .mordgrave_helpers import RULES, answer, entry, fig, game, keys, match_state, of, state


def follow_up(st):
    return next((s for s in st.steps.upcoming() if isinstance(s, FollowUp)), None)


# --- 6.1 seed examples ----------------------------------------------------------------------

def test_tvm01_range_bands_of_a_range_18_weapon_are_6_12_18():
    bow = ranged_weapon("bow")
    expected = {(6, 0): 0, (6, 1): 1, (12, 0): 1, (12, 1): 2, (18, 0): 2, (13, 13): None}
    assert {t: band(bow, (0, 0), t) for t in expected} == expected


def test_tvm01_beyond_long_range_a_target_cannot_be_shot():
    s = fig("S", 0, (0, 0), ranged="bow")
    near, far = fig("N", 1, (18, 0)), fig("F", 1, (13, 13))
    st = state(s, near, far, size=(30, 30))
    s.actions = 1
    assert {o.key for o in shot_options(st, s)} == {"shoot:bow:N"}


def test_tvm02_sword_margin_equal_to_defence_pushes_back_and_the_winner_may_follow():
    a, b = fig("A", 0, (5, 5), main="sword"), fig("B", 1, (6, 5))
    st = state(a, b)
    fight(game(st, [14, 9]), a, b, False, False, {})
    assert b.tile == (7, 5) and not b.tokens
    assert follow_up(st) == FollowUp("A", (6, 5))


def test_tvm02_sword_margin_above_defence_gives_great_difficulty():
    a, b = fig("A", 0, (5, 5), main="sword"), fig("B", 1, (6, 5))
    st = state(a, b)
    fight(game(st, [15, 9]), a, b, False, False, {})
    assert b.tile == (6, 5) and len(b.tokens) == 1


@pytest.mark.parametrize("roll,side", [(11, 0), (20, 0), (10, 1), (1, 1)])
def test_tvm03_initiative_goes_to_the_first_player_on_11_or_more(roll, side):
    st = state(fig("A", 0, (0, 0), role="chief"), fig("B", 1, (9, 9), role="chief"))
    g = game(st, [roll])
    assert StartTurn().run(g) is None
    assert st.initiative == side and st.order == [side, 1 - side]
    assert [e.data["faces"] for e in of(g.events, "dice")] == [[roll]]


def run_turn(st, first_roll: int, lead=None) -> list[tuple]:
    """Play one turn ending every activation at once; returns the phases as (name, side, leader)."""
    phases = []
    scripted = ScriptedDice([first_roll, 11])
    while st.turn == 1 and RULES.pending(st) is not None:
        d = RULES.pending(st)
        key = {"initiative": "roll", "leader": None, "action": "end", "activate": "pass"}[d.kind]
        if d.kind == "leader":
            key = lead(d) if lead else d.options[0].key
        events = RULES.apply(st, d.option(key), scripted)
        phases += [(e.data["phase"], e.data["side"], e.data.get("leader")) for e in of(events, "phase")]
    return phases


def leaders(side: int, n: int, x: int) -> list[dict]:
    roles = ["chief", "champion", "champion"][:n]
    return [entry(f"L{side}{i}", (x, 6 * i), role) for i, role in enumerate(roles)] + \
        [entry(f"H{side}", (x, 19))]


def test_tvm04_leader_phases_alternate_from_the_initiative_then_each_side_s_troops():
    st = match_state(leaders(0, 2, 0), leaders(1, 2, 19))
    assert run_turn(st, 15) == [("leader", 0, "L00"), ("leader", 1, "L10"), ("leader", 0, "L01"),
                                ("leader", 1, "L11"), ("troops", 0, None), ("troops", 1, None)]


def test_tvm04_the_side_with_more_leaders_plays_its_remaining_phases_in_a_row():
    st = match_state(leaders(0, 3, 0), leaders(1, 1, 19))
    assert [p[:2] for p in run_turn(st, 15)] == [("leader", 0), ("leader", 1), ("leader", 0), ("leader", 0),
                                                 ("troops", 0), ("troops", 1)]


def test_tvm04_with_the_initiative_to_player_2_its_phases_come_first():
    st = match_state(leaders(0, 3, 0), leaders(1, 1, 19))
    assert [p[:2] for p in run_turn(st, 10)] == [("leader", 1), ("leader", 0), ("leader", 0), ("leader", 0),
                                                 ("troops", 1), ("troops", 0)]


def test_tvm04_a_player_takes_its_leaders_in_any_order():
    st = match_state(leaders(0, 2, 0), leaders(1, 2, 19))
    phases = run_turn(st, 15, lead=lambda d: d.options[-1].key)
    assert [p[2] for p in phases[:4]] == ["L01", "L11", "L00", "L10"]


def test_tvm05_chief_bubble_is_3_pas():
    chief = fig("C", 0, (5, 5), role="chief")
    st = state(chief, fig("a", 0, (8, 5)), fig("b", 0, (8, 7)), fig("c", 0, (9, 5)))
    assert [f.id for f in in_bubble(st, chief)] == ["a"]


def test_tvm05_champion_bubble_is_2_pas():
    champ = fig("C", 0, (5, 5), role="champion")
    st = state(champ, fig("a", 0, (7, 5)), fig("b", 0, (7, 3)), fig("c", 0, (8, 5)))
    assert [f.id for f in in_bubble(st, champ)] == ["a"]


def test_tvm05_the_eligible_figures_are_noted_when_the_phase_begins():
    st = match_state([entry("C", (5, 5), "chief"), entry("X", (7, 5))], [entry("E", (19, 19), "chief")])
    answer(st, "roll", [15])
    assert keys(st) == ["activate:C", "activate:X", "pass"]
    answer(st, "activate:C")
    answer(st, "move:0,5")                  # the Chief walks away: X is now 7 pas from it
    st.figure("X").tile = (9, 5)            # and X has been moved off too
    answer(st, "switch")
    assert keys(st) == ["activate:C", "activate:X", "pass"]
    answer(st, "activate:X")
    assert RULES.pending(st).figure == "X"


# --- 6.2 additional vectors ------------------------------------------------------------------

def test_tvm06_equal_scores_have_no_winner_and_no_effect():
    a, b = fig("A", 0, (5, 5)), fig("B", 1, (6, 5), Comb=1)
    st = state(a, b)
    g = game(st, [12, 11])
    fight(g, a, b, False, False, {})
    assert of(g.events, "melee")[0].data["winner"] is None
    assert (a.tile, b.tile, a.tokens, b.tokens) == ((5, 5), (6, 5), [], []) and not st.steps.steps


def horrible_scene():
    a = fig("A", 0, (5, 5), main="two_handed_sword")
    b = fig("B", 1, (6, 5), armour="medium")
    c, d, g = fig("C", 1, (8, 5)), fig("D", 1, (9, 5)), fig("G", 1, (10, 5))
    return state(a, b, c, d, g), a, b, c, d, g


def test_tvm07_a_critical_horrible_wound_puts_out_and_tests_the_bravery_of_allies_within_3():
    st, a, b, c, d, g = horrible_scene()
    gm = game(st, [19, 1, 7, 8])
    fight(gm, a, b, False, False, {})
    melee = of(gm.events, "melee")[0].data
    assert (melee["margin"], melee["defence"], melee["tier"], melee["critical"]) == (25, 8, 3, True)
    assert b.out and b.horrible == 1
    assert len(c.tokens) == 1 and not d.tokens and not g.tokens
    assert [(e.data["figure"], e.data["passed"]) for e in of(gm.events, "bravery")] == [("C", False), ("D", True)]


def test_tvm07_variant_margin_of_exactly_three_times_defence_is_out_of_action_without_horrible_wound():
    st, a, b, c, d, g = horrible_scene()
    gm = game(st, [19, 2])
    fight(gm, a, b, False, False, {})
    assert of(gm.events, "melee")[0].data["margin"] == 24
    assert b.out and b.horrible == 0 and not of(gm.events, "bravery")


def charge_scene(a_tile):
    return match_state([entry("A", a_tile, "chief", main="axe")], [entry("B", (5, 5), "chief", armour="light")])


def test_tvm08_a_move_into_contact_then_a_combat_phase_is_a_charge():
    st = charge_scene((2, 5))
    answer(st, "roll", [15])
    answer(st, "move:4,5")
    assert st.figure("A").charges == ["B"]
    events = answer(st, "fight:B", [13, 8])
    assert of(events, "melee")[0].data["margin"] == 8 and of(events, "melee")[0].data["defence"] == 6
    assert len(st.figure("B").tokens) == 1


def test_tvm08_variant_already_in_contact_no_charge():
    st = charge_scene((4, 5))
    answer(st, "roll", [15])
    answer(st, "stay")
    events = answer(st, "fight:B", [13, 8])
    assert of(events, "melee")[0].data["margin"] == 6 and st.figure("B").tile == (6, 5)


def test_tvm08_variant_the_charger_losing_is_pushed_and_the_defender_s_side_decides_the_follow_up():
    st = charge_scene((2, 5))
    answer(st, "roll", [15])
    answer(st, "move:4,5")
    events = answer(st, "fight:B", [5, 8])
    assert of(events, "melee")[0].data["margin"] == 3
    assert st.figure("A").tile == (3, 5)
    d = RULES.pending(st)
    assert (d.kind, d.side, d.figure) == ("follow", 1, "B")
    answer(st, "follow")
    assert st.figure("B").tile == (4, 5)


def outnumbering_scene(with_f: bool):
    b, a = fig("B", 1, (5, 5)), fig("A", 0, (4, 5), main="sword")
    c, d = fig("C", 0, (6, 5)), fig("D", 0, (3, 5), main="spear")
    figures = [b, a, c, d] + ([fig("F", 1, (7, 5))] if with_f else [])
    return state(*figures), a, b


def test_tvm09_outnumbering_and_support_from_behind_add_two_each():
    st, a, b = outnumbering_scene(False)
    gm = game(st, [8, 11])
    fight(gm, a, b, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert m["scores"] == [12, 11] and m["winner"] == "A" and m["margin"] == 2 and m["tier"] == 0
    assert b.tile == (5, 5) and of(gm.events, "push_blocked") and follow_up(st) is None


def test_tvm09_variant_an_ally_touching_the_group_cancels_outnumbering():
    st, a, b = outnumbering_scene(True)
    gm = game(st, [8, 11])
    fight(gm, a, b, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert m["scores"] == [10, 11] and m["winner"] == "B" and m["margin"] == 1
    assert a.tile == (4, 5) and of(gm.events, "push_blocked")


def test_tvm10_tokens_stack_and_each_expires_at_the_end_of_the_turn_after_it_was_gained():
    x = fig("X", 0, (5, 5))
    st = state(x, fig("Y", 1, (6, 5)), turn=3)
    add_token(game(st), x, "4.2")
    st.turn = 4
    add_token(game(st), x, "4.2")
    assert x.tokens == [4, 5]
    assert penalty(x) == 6
    end_turn(game(st))
    assert st.turn == 5 and penalty(x) == 3
    end_turn(game(st))
    assert st.turn == 6 and penalty(x) == 0


def test_tvm10_two_tokens_take_six_from_the_combat_score():
    x, y = fig("X", 0, (5, 5)), fig("Y", 1, (6, 5))
    x.tokens = [4, 5]
    st = state(x, y, turn=4)
    gm = game(st, [17, 6])
    fight(gm, x, y, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert m["scores"] == [11, 6] and m["margin"] == 5 and m["tier"] == 0


def test_tvm11_vitality_2_loses_a_point_then_goes_out_of_action():
    a, b, a2 = fig("A", 0, (5, 5)), fig("B", 1, (6, 5), Vit=2), fig("A2", 0, (15, 15))
    st = state(a, b, a2)
    fight(game(st, [18, 4]), a, b, False, False, {})
    assert (b.vit, len(b.tokens), b.out) == (1, 1, False)
    a.tile, a2.tile = (0, 0), (7, 5)           # A steps away, A2 comes into contact: no outnumbering
    gm = game(st, [17, 3])
    fight(gm, a2, b, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert m["scores"] == [17, 0] and m["margin"] == 17 and b.out


def test_tvm12_shooting_at_medium_range_into_heavy_cover_against_a_large_shield():
    bf = Battlefield.open_ground(20, 5)
    bf.cover[0, 10] = 2
    s = fig("S", 0, (0, 0), Tir=1, ranged="bow")
    t = fig("T", 1, (10, 0), armour="light", shield="large_shield")
    st = state(s, t, bf=bf)
    gm = game(st, [18, 5])
    shoot(gm, s, t, "bow", False)
    shot = of(gm.events, "shot")[0].data
    assert shot["scores"] == [20, 9] and shot["margin"] == 12 and shot["defence"] == 9 and shot["tier"] == 1
    assert len(t.tokens) == 1


def test_tvm13_a_shooting_tie_is_a_dodge():
    s, t = fig("S", 0, (0, 0), ranged="bow"), fig("T", 1, (4, 0))
    st = state(s, t)
    gm = game(st, [8, 10])
    shoot(gm, s, t, "bow", False)
    assert of(gm.events, "shot")[0].data == {"figure": "S", "target": "T", "weapon": "bow", "scores": [10, 10],
                                             "hit": False}
    assert t.tile == (4, 0) and not t.tokens


def test_tvm14_a_shot_pushes_the_target_directly_away_and_the_shooter_stays():
    s, t = fig("S", 0, (0, 0), ranged="bow"), fig("T", 1, (5, 2))
    st = state(s, t)
    gm = game(st, [9, 7])
    shoot(gm, s, t, "bow", False)
    assert of(gm.events, "shot")[0].data["margin"] == 5
    assert t.tile == (6, 3) and s.tile == (0, 0) and follow_up(st) is None


def test_tvm15_a_crossbow_must_be_reloaded_by_a_first_action_before_it_fires_again():
    def duel():
        return match_state([entry("S", (0, 5), "chief", ranged="crossbow")], [entry("T", (15, 5), "chief")],
                           Battlefield.open_ground(30, 12))
    st = duel()
    answer(st, "roll", [15])
    answer(st, "move:1,5")
    answer(st, "shoot:crossbow:T", [1, 20])
    assert [c.loaded for c in st.figure("S").ranged] == [False]
    answer(st, "move:15,0")                 # T's own activation
    answer(st, "end", [15])                 # turn 2
    answer(st, "move:2,5")
    assert not [k for k in keys(st) if k.startswith("shoot")]
    st2 = duel()
    st2.figure("S").ranged[0].loaded = False
    answer(st2, "roll", [15])
    assert "reload:crossbow" in keys(st2)
    answer(st2, "reload:crossbow")
    answer(st2, "shoot:crossbow:T", [1, 20])
    assert [c.loaded for c in st2.figure("S").ranged] == [False]


def test_tvm16_double_shot_fires_twice_at_minus_3_and_the_first_token_counts_for_the_second():
    s = fig("S", 0, (0, 0), ranged="elven_repeating_crossbow")
    t = fig("T", 1, (5, 0))
    st = state(s, t)
    step = DoubleShot("S", "elven_repeating_crossbow", "T", False)
    st.steps.push(step)
    gm = game(st, [12, 4])
    d = step.run(gm)
    assert of(gm.events, "shot")[0].data["scores"] == [11, 4] and of(gm.events, "shot")[0].data["margin"] == 11
    assert d.kind == "second_shot" and [o.key for o in d.options] == ["shoot2:T", "no_shot"]
    step.answer = d.option("shoot2:T")
    gm = game(st, [6, 4])
    assert step.run(gm) is None
    shot = of(gm.events, "shot")[0].data
    assert shot["scores"] == [5, 1] and shot["margin"] == 8 and shot["tier"] == 1
    assert len(t.tokens) == 2


@pytest.mark.parametrize("diagonal,dice,hit,stunned", [
    (False, [15, 9], True, True), (False, [14, 9], True, False), (False, [5, 9], False, False),
    (True, [15, 9], True, True), (True, [14, 9], True, False), (True, [5, 9], False, False)])
def test_tvm17_shurikens_stun_on_a_natural_15_and_are_lost_whatever_the_result(diagonal, dice, hit, stunned):
    x = fig("X", 0, (5, 5), main="sword", ranged="shurikens", faction="dark_elves")
    y = fig("Y", 1, (6, 6) if diagonal else (6, 5))
    st = state(x, y)
    x.actions = 1
    assert "shoot:shurikens:Y" in {o.key for o in action_options(st, x, False)}
    gm = game(st, dice)
    shoot(gm, x, y, "shurikens", False)
    e = of(gm.events, "destabilised")[0].data
    assert e["scores"][0] == dice[0] + (1 if diagonal else 2)
    assert (e["hit"], e["stunned"]) == (hit, stunned)
    assert len(y.tokens) == int(stunned) and y.tile == ((6, 6) if diagonal else (6, 5)) and y.vit == 1
    assert x.ranged == [] and of(gm.events, "lost")


def test_tvm18_flail_ignores_the_shield_and_lowers_heavy_armour():
    a = fig("A", 0, (5, 5), main="flail")
    b = fig("B", 1, (6, 5), armour="heavy", shield="shield")
    st = state(a, b)
    gm = game(st, [14, 7])
    fight(gm, a, b, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert m["scores"] == [13, 7] and m["margin"] == 9 and m["defence"] == 8 and m["tier"] == 1


@pytest.mark.parametrize("second,score,margin,tier", [("sword", 14, 7, 1), (None, 13, 5, 0)])
def test_tvm19_a_medium_second_weapon_adds_combat_and_damage(second, score, margin, tier):
    a, b = fig("A", 0, (5, 5), main="sword", second=second), fig("B", 1, (6, 5))
    st = state(a, b)
    gm = game(st, [13, 9])
    fight(gm, a, b, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert (m["scores"][0], m["margin"], m["tier"]) == (score, margin, tier)


def test_tvm20_two_handed_staff_deals_minus_one_and_takes_one_from_the_winner():
    a, b = fig("A", 0, (5, 5), main="two_handed_staff"), fig("B", 1, (6, 5))
    st = state(a, b)
    gm = game(st, [12, 4])
    fight(gm, a, b, False, False, {})
    assert of(gm.events, "melee")[0].data["margin"] == 7 and len(b.tokens) == 1
    a2, b2 = fig("A", 0, (5, 5), main="two_handed_staff"), fig("B", 1, (6, 5), main="sword")
    st = state(a2, b2)
    gm = game(st, [3, 9])
    fight(gm, a2, b2, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert (m["winner"], m["margin"], m["tier"]) == ("B", 6, 0) and a2.tile == (4, 5)


def test_tvm21_defensive_mode_raises_defence_and_the_defender_declares_it_mid_action():
    b = fig("B", 0, (5, 5), main="sword")
    a = fig("A", 1, (6, 5), main="sword", modes=True)
    st = state(b, a)
    step = Melee("B", "A", False, False)
    st.steps.push(step)
    d = step.run(game(st))
    assert (d.kind, d.side, d.figure) == ("mode", 1, "A")
    assert [o.key for o in d.options] == ["normal", "defensive", "offensive"]
    step.answer = d.option("defensive")
    gm = game(st, [16, 10])
    assert step.run(gm) is None
    m = of(gm.events, "melee")[0].data
    assert (m["winner"], m["margin"], m["defence"], m["tier"]) == ("B", 7, 7, 0)


def test_tvm21_in_normal_mode_the_same_roll_is_great_difficulty():
    b, a = fig("B", 0, (5, 5), main="sword"), fig("A", 1, (6, 5), main="sword")
    st = state(b, a)
    gm = game(st, [16, 10])
    fight(gm, b, a, False, False, {})
    assert of(gm.events, "melee")[0].data["tier"] == 1


def test_combat_modes_are_declared_by_the_attacker_first_then_the_defender():
    a = fig("A", 0, (5, 5), main="sword", modes=True)
    b = fig("B", 1, (6, 5), main="sword", modes=True)
    st = state(a, b)
    step = Melee("A", "B", False, False)
    first = step.run(game(st))
    assert (first.side, first.figure) == (0, "A")
    step.answer = first.option("offensive")
    second = step.run(game(st))
    assert (second.side, second.figure, second.info["mode_A"]) == (1, "B", "offensive")
    step.answer = second.option("normal")
    gm = game(st, [16, 10])
    step.run(gm)
    m = of(gm.events, "melee")[0].data
    assert m["margin"] == 6 + 1 + 1 and m["tier"] == 1      # Offensive: damage +1


@pytest.mark.parametrize("spec,move_in,move_out,run_in,run_out", [
    ({}, [(5, 0), (3, 3)], [(6, 0), (4, 3)], [(2, 1)], [(2, 2), (3, 0)]),                      # Mouv 5, Run 2.5
    ({"armour": "heavy"}, [(4, 0), (3, 2)], [(5, 0), (4, 1)], [(2, 0), (1, 1)], [(2, 1)]),      # Mouv 4, Run 2
    ({"Mouv": 7}, [(7, 0), (4, 3)], [(8, 0), (5, 5)], [(2, 2), (3, 1)], [(3, 2), (4, 0)])])  # Mouv 7, Run 3.5
def test_tvm22_move_up_to_mouv_then_run_half_of_it(spec, move_in, move_out, run_in, run_out):
    f = fig("F", 0, (10, 10), **spec)
    st = state(f, fig("E", 1, (0, 0)), size=(21, 21))

    def offsets(action):
        return {(o.tile[0] - 10, o.tile[1] - 10) for o in action_options(st, f, False) if o.action == action}
    moves = offsets("move")
    assert set(move_in) <= moves and not set(move_out) & moves
    f.actions, f.first, f.stepped = 1, "move", True
    runs = offsets("run")
    assert set(run_in) <= runs and not set(run_out) & runs


@pytest.mark.parametrize("first,stepped", [("concentrate", False), ("stay", False), ("move", False)])
def test_tvm22_no_run_without_a_move_that_made_a_step(first, stepped):
    f = fig("F", 0, (10, 10))
    st = state(f, fig("E", 1, (0, 0)), size=(21, 21))
    f.actions, f.first, f.stepped = 1, first, stepped
    assert not [o for o in action_options(st, f, False) if o.action == "run"]


def test_tvm23_blunderbuss_shoots_every_figure_under_the_template_friend_or_foe():
    firer = fig("O", 0, (0, 5), ranged="orc_blunderbuss", faction="mountain_orcs")
    t1, t2 = fig("T1", 1, (2, 5)), fig("T2", 0, (4, 5), Comb=2)
    st = state(firer, t1, t2)
    gm = game(st, [11, 6, 3, 6])
    breath(gm, firer, "orc_blunderbuss", (1, 5), False)
    shots = of(gm.events, "shot")
    assert [(s.data["target"], s.data["scores"], s.data["hit"]) for s in shots] == [
        ("T1", [11, 6], True), ("T2", [3, 8], False)]
    assert shots[0].data["margin"] == 6 and shots[0].data["tier"] == 0
    assert t1.tile == (3, 5) and t2.tile == (4, 5)
    assert firer.ranged == [Carried("orc_blunderbuss")]        # no Reload, not Lost


def test_tvm24_an_engaged_figure_cannot_shoot_but_may_throw_shurikens():
    s = fig("S", 0, (5, 5), ranged=["bow", "shurikens"], faction="dark_elves")
    st = state(s, fig("E", 1, (6, 5)), fig("F", 1, (12, 5)))
    s.actions = 1
    assert {o.key for o in shot_options(st, s)} == {"shoot:shurikens:E"}


def test_tvm24_a_target_in_contact_with_a_friend_of_the_shooter_cannot_be_shot():
    s = fig("S", 0, (0, 5), ranged="bow")
    st = state(s, fig("A", 0, (9, 5)), fig("T", 1, (10, 5)), fig("U", 1, (10, 9)))
    s.actions = 1
    assert {o.target for o in shot_options(st, s)} == {"U"}


def test_tvm24_the_blunderbuss_template_hits_engaged_figures():
    firer = fig("O", 0, (0, 5), ranged="orc_blunderbuss", faction="mountain_orcs")
    t, friend = fig("T", 1, (3, 5)), fig("A", 0, (3, 6))
    st = state(firer, t, friend)
    gm = game(st, [12, 1, 1, 20])
    breath(gm, firer, "orc_blunderbuss", (1, 5), False)
    assert [s.data["target"] for s in of(gm.events, "shot")] == ["T", "A"]
    assert of(gm.events, "shot")[0].data["hit"]


def test_tvm25_a_thrown_dagger_is_lost_and_its_thrower_fights_unarmed():
    x, y = fig("X", 0, (0, 0), main="dagger"), fig("Y", 1, (3, 0))
    st = state(x, y)
    x.actions = 1
    assert "shoot:dagger:Y" in {o.key for o in shot_options(st, x)}
    shoot(game(st, [1, 20]), x, y, "dagger", False)
    assert x.main is None and weapon_damage(x) == 0 and critical(melee_weapon(x)) == (20, 3)


def test_tvm26_push_back_is_blocked_by_a_wall_and_then_no_one_moves():
    bf = Battlefield.open_ground(12, 12)
    bf.blocks_move[5, 7] = True
    w, l_ = fig("W", 0, (5, 5)), fig("L", 1, (6, 5))
    st = state(w, l_, bf=bf)
    fight(game(st, [15, 9]), w, l_, False, False, {})
    assert l_.tile == (6, 5) and w.tile == (5, 5) and follow_up(st) is None


def test_tvm26_push_back_into_a_free_tile_lets_the_winner_follow():
    w, l_ = fig("W", 0, (5, 5)), fig("L", 1, (6, 5))
    st = state(w, l_)
    fight(game(st, [15, 9]), w, l_, False, False, {})
    assert l_.tile == (7, 5)
    step = follow_up(st)
    d = step.run(game(st))
    assert [o.key for o in d.options] == ["follow", "no_follow"] and d.option("follow").tile == (6, 5)


def test_tvm26_a_diagonal_push_back_goes_diagonally():
    w, l_ = fig("W", 0, (5, 5)), fig("L", 1, (6, 6))
    st = state(w, l_)
    fight(game(st, [15, 9]), w, l_, False, False, {})
    assert l_.tile == (7, 7)


@pytest.mark.parametrize("weapon,margin,tier", [("barbed_sword", 22, 3), ("sword", 20, 2)])
def test_tvm27_a_barbed_weapon_critical_adds_five(weapon, margin, tier):
    a = fig("A", 0, (5, 5), main=weapon, faction="dark_elves")
    b = fig("B", 1, (6, 5), armour="light", Vit=2)
    st = state(a, b)
    gm = game(st, [20, 4])
    fight(gm, a, b, False, False, {})
    m = of(gm.events, "melee")[0].data
    assert (m["margin"], m["defence"], m["tier"]) == (margin, 7, tier)


def test_tvm28_a_leader_activated_in_another_leader_s_phase_loses_its_own():
    st = match_state([entry("C", (0, 0), "chief"), entry("P", (2, 1), "champion"), entry("H", (0, 19))],
                     [entry("E", (19, 19), "chief"), entry("F", (19, 0))])
    phases = []
    for key, dice in [("roll", [15]), ("lead:C", []), ("activate:C", []), ("end", []), ("activate:P", []),
                      ("end", []), ("end", []), ("end", []), ("end", [11])]:
        phases += [(e.data["phase"], e.data["side"], e.data.get("leader")) for e in of(answer(st, key, dice), "phase")]
    assert phases == [("leader", 0, "C"), ("leader", 1, "E"), ("troops", 0, None), ("troops", 1, None)]
    assert st.turn == 2
