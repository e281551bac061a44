"""Voyageurs ground combat: the test vectors of voyageurs.md §7.1 and §7.2, each named for its rule."""
from __future__ import annotations

from game.engine.battlefield import Battlefield, Cover
from game.engine.dice import ScriptedDice
from game.rules.voyageurs import actions as act
from game.rules.voyageurs.fight import combatant_order, set_pv, slots_by
from game.rules.voyageurs.flow import FlightCheck, RoundOver
from game.rules.voyageurs.ground import Act, Activation, Strike
from game.rules.voyageurs.model import DEAD, UNCONSCIOUS, UP, Game

from .voyageurs_helpers import GROUND, answer, begin_round, fig, ground, in_round, kinds, play, run


def one_game(state):
    return Game(state, ScriptedDice([]))


def to_hit_totals(events, side: int) -> list[int]:
    """The to-hit totals ``side`` is told: on the dice, or apart when they would show an unknown CON."""
    return [e.data["total"] for e in events if e.seen_by(side) and e.data.get("purpose") == "to_hit"
            and "total" in e.data]


# --- §7.1 worked examples of the seed ------------------------------------------------------

def test_s1_s2_s3_unconscious_at_zero_and_minus_condition_dead_below_it():
    st = ground([fig("fighter", (1, 1), CON=7)], [fig("scout", (5, 5))])
    c = st.fig("a1")
    game = one_game(st)
    set_pv(game, c, 0, "5.10")
    assert c.status == UNCONSCIOUS                      # S3
    set_pv(game, c, -7, "5.10")
    assert c.status == UNCONSCIOUS                      # S1: −7 is not below −7
    set_pv(game, c, -8, "5.10")
    assert c.status == DEAD and "removed" in kinds(game.events)     # S2


def test_s6_on_equal_initiative_the_lower_condition_acts_first():
    st = ground([fig("fighter", (1, 1), CON=6)], [fig("fighter", (5, 5), CON=4)])
    in_round(st, {"a1": 18, "b1": 18})
    assert slots_by(["a1", "b1"], combatant_order(st)) == [["b1"], ["a1"]]


def test_s7_equal_initiative_and_condition_form_a_simultaneous_group():
    st = ground([fig("fighter", (1, 1))], [fig("fighter", (5, 5))])
    in_round(st, {"a1": 18, "b1": 18})
    assert slots_by(["a1", "b1"], combatant_order(st)) == [["a1", "b1"]]


def test_s8_g17_a_firearm_spends_its_pe_before_the_test_and_cannot_fire_at_zero():
    st = ground([fig("gunner", (1, 1), pe=1)], [fig("fighter", (2, 1))])
    in_round(st, {"a1": 15, "b1": 20}, active="a1")
    game = run(st, [1, 2], Strike("a1", "b1", "rifle", False))
    spent = next(e for e in game.events if e.kind == "damaged")
    assert (spent.data["gauge"], spent.data["left"]) == ("pe", 0)
    assert kinds(game.events).index("damaged") < kinds(game.events).index("dice")
    options = [o.key for o in act.attack_options(st, st.fig("a1"))]
    assert not any(k.endswith(":rifle") for k in options)
    assert "attack:b1:hands" in options             # G17: bare hands still strike (the knife is carried)


def test_s9_protect_takes_one_from_each_damage():
    st = ground([fig("scout", (1, 1))], [fig("fighter", (2, 1), weapon="knife")])
    in_round(st, {"a1": 10, "b1": 15}, active="a1")
    st.fig("b1").protecting = True
    run(st, [5, 5, 5], Strike("a1", "b1", "knife", False))
    assert st.fig("b1").pv == 18 - 4


def test_s10_a_critical_success_rolls_the_damage_dice_twice():
    st = ground([fig("fighter", (1, 1))], [fig("fighter", (2, 1))])
    in_round(st, {"a1": 10, "b1": 30}, active="a1")
    game = run(st, [6, 6, 1, 2, 3, 4], Strike("a1", "b1", "sword", False))
    rolls = [e.data for e in game.events if e.kind == "dice" and e.seen_by(0)]
    assert [r["purpose"] for r in rolls] == ["to_hit", "damage", "damage_critical"]
    assert st.fig("b1").pv == 18 - (1 + 2 + 3 + 4)


def test_s11_g11_observe_keeps_the_better_initiative():
    st = ground([fig("healer", (1, 1))], [fig("scout", (9, 9))])
    in_round(st, {"a1": 15, "b1": 12}, active="a1")
    run(st, [], Act("a1"))
    answer(st, "observe", [1, 2])
    assert st.fig("a1").observed == 4 + 7 + 3
    begin_round(st)
    assert st.fig("a1").initiative == 15


def test_s12_g2_surprise_adds_one_to_the_opening_initiative_test():
    st = ground([fig("gunner", (1, 1))], [fig("scout", (9, 9))], surprise="0")
    events = play(GROUND, st, "roll", [2, 1, 1, 4, 3, 3])
    assert st.fig("a1").initiative == 16 and st.fig("b1").initiative == 6 + 12
    assert "surprise" in kinds(events)


def test_s13_holding_back_costs_two_on_the_to_hit_test():
    st = ground([fig("scout", (1, 1), weapon="knife")], [fig("fighter", (2, 1))])
    c, t = st.fig("a1"), st.fig("b1")
    assert act.to_hit_bonus(st, c, t, "knife", True) == act.to_hit_bonus(st, c, t, "knife", False) - 2 == 9


# --- §7.2 ground combat ----------------------------------------------------------------------

def test_g1_initiative_is_agi_plus_int_plus_2d6_in_decreasing_order():
    st = ground([fig("fighter", (1, 1)), fig("scout", (1, 3)), fig("gunner", (1, 5))], [fig("healer", (9, 9))])
    events = play(GROUND, st, "roll", [2, 1, 4, 5, 2, 3, 1, 4, 1, 1])
    assert [st.fig(c).initiative for c in ("a1", "a2", "a3")] == [18, 17, 15]
    order = next(e for e in events if e.kind == "order").data["order"]
    assert order == ["a1", "a2", "a3", "b1"]            # healer 2 + 11 = 13


def test_g3_a_to_hit_total_equal_to_the_target_initiative_hits():
    st = ground([fig("fighter", (1, 1))], [fig("scout", (2, 1))])
    in_round(st, {"a1": 18, "b1": 17}, active="a1")
    game = run(st, [1, 2, 5, 4], Strike("a1", "b1", "sword", False))
    roll = next(e for e in game.events if e.kind == "dice")
    assert to_hit_totals(game.events, 0) == [17] and roll.data["success"]
    assert st.fig("b1").pv == 5 and st.fig("b1").status == UP


def test_g4_double_one_always_fails():
    st = ground([fig("fighter", (1, 1))], [fig("scout", (2, 1))])
    in_round(st, {"a1": 18, "b1": 15}, active="a1")
    game = run(st, [1, 1], Strike("a1", "b1", "sword", False))
    assert [e.data["hit"] for e in game.events if e.kind == "attack"] == [False]
    assert st.fig("b1").pv == 14


def test_g5_double_six_hits_whatever_the_total_and_doubles_the_rifle_damage():
    st = ground([fig("gunner", (1, 1))], [fig("fighter", (20, 1))], width=30)
    in_round(st, {"a1": 15, "b1": 25}, active="a1")
    run(st, [6, 6, 2, 3, 4, 1, 5, 6], Strike("a1", "b1", "rifle", False))
    assert st.fig("a1").pe == 7
    assert st.fig("b1").pv == -3 and st.fig("b1").status == UNCONSCIOUS


def test_g6_an_unconscious_target_is_hit_without_a_roll_and_dies_below_minus_condition():
    st = ground([fig("scout", (1, 1), weapon="knife")], [fig("fighter", (2, 1), pv=-3)])
    in_round(st, {"a1": 17, "b1": 25}, active="a1")
    st.fig("b1").status = UNCONSCIOUS
    game = run(st, [5], Strike("a1", "b1", "knife", False))
    assert "dice" in kinds(game.events) and all(e.data["purpose"] == "damage" for e in game.events
                                                 if e.kind == "dice")
    assert st.fig("b1").pv == -8 and st.fig("b1").status == UNCONSCIOUS
    run(st, [1], Strike("a1", "b1", "hands", False))
    assert st.fig("b1").pv == -9 and st.fig("b1").status == DEAD


def test_g7_a_protector_takes_the_blow_for_an_adjacent_ally_hit_automatically_less_one():
    st = ground([fig("fighter", (1, 1)), fig("scout", (2, 1))], [fig("healer", (8, 1))])
    in_round(st, {"a1": 17, "a2": 17, "b1": 15}, active="b1")
    st.fig("a1").protecting = st.fig("a1").interception = True
    run(st, [], Strike("b1", "a2", "pistol", False))
    asked = st.steps.waiting
    assert asked.side == 0 and asked.kind == "intercept" and st.fig("b1").pe == 8
    game = answer(st, "intercept:a1", [3, 3])
    assert not any(e.data.get("purpose") == "to_hit" for e in game.events if e.kind == "dice")
    assert st.fig("a1").pv == 13 and st.fig("a2").pv == 14
    assert not st.fig("a1").interception


def test_g8_a_held_back_blow_leaves_the_target_unconscious_never_dead():
    st = ground([fig("scout", (1, 1), weapon="knife")], [fig("fighter", (2, 1), pv=4)])
    in_round(st, {"a1": 17, "b1": 17}, active="a1")
    game = run(st, [5, 4, 6], Strike("a1", "b1", "knife", True))
    assert to_hit_totals(game.events, 0) == [18]
    assert st.fig("b1").pv == 0 and st.fig("b1").status == UNCONSCIOUS


def test_g9_a_held_back_blow_on_a_target_at_zero_has_no_effect():
    st = ground([fig("scout", (1, 1), weapon="knife")], [fig("fighter", (2, 1), pv=0)])
    in_round(st, {"a1": 17, "b1": 17}, active="a1")
    st.fig("b1").status = UNCONSCIOUS
    game = run(st, [6], Strike("a1", "b1", "knife", True))
    assert st.fig("b1").pv == 0 and "no_effect" in kinds(game.events)


def test_g10_observe_takes_effect_from_the_next_round():
    st = ground([fig("healer", (1, 1))], [fig("scout", (9, 9))])
    in_round(st, {"a1": 15, "b1": 12}, active="a1")
    run(st, [], Act("a1"))
    answer(st, "observe", [6, 5])
    assert st.fig("a1").initiative == 15
    begin_round(st)
    assert st.fig("a1").initiative == 22


def test_g12_the_side_with_the_greater_sum_may_flee_and_a_failure_costs_one_initiative():
    st = ground([fig("scout", (1, 1)), fig("fighter", (1, 3))], [fig("gunner", (9, 1)), fig("healer", (9, 3))])
    in_round(st, {"a1": 19, "a2": 17, "b1": 18, "b2": 15})
    st.battle.slots = []
    run(st, [], FlightCheck("battle"))
    asked = st.steps.waiting
    assert asked.side == 0 and asked.info["sums"] == [36, 33]
    answer(st, "flee:a1", [2, 3])
    assert not st.over and st.battle.penalised == [0] and st.fig("a1").initiative == 19
    run(st, [], RoundOver())
    assert [st.fig(c).initiative for c in ("a1", "a2")] == [18, 16]


def test_g13_a_knowledge_test_against_the_landscape_difficulty_shows_the_type_to_the_side():
    st = ground([fig("healer", (1, 1))], [fig("fighter", (5, 1)), fig("fighter", (5, 3))], landscape="hostile")
    in_round(st, {"a1": 15, "b1": 12, "b2": 11}, active="a1")
    assert [g.value for g in GROUND.figures(st, 0)[1].gauges][0] is None
    run(st, [], Act("a1"))
    answer(st, "know:fighter", [4, 4])
    assert st.known[0] == ["fighter"]
    views = {f.id: f for f in GROUND.figures(st, 0)}
    assert views["b1"].gauges[0].value == 18 and views["b2"].gauges[0].value == 18
    assert views["b1"].marked("level")


def test_g14_cover_costs_two_on_a_ranged_to_hit_test():
    bf = Battlefield.open_ground(20, 12)
    bf.cover[1, 8] = Cover.HEAVY
    st = ground([fig("gunner", (1, 1))], [fig("scout", (8, 1))], bf=bf)
    in_round(st, {"a1": 15, "b1": 18}, active="a1")
    game = run(st, [3, 4], Strike("a1", "b1", "rifle", False))
    roll = next(e for e in game.events if e.kind == "dice")
    assert roll.data["total"] == 17 and not roll.data["success"]


def test_g15_a_healing_plant_is_capped_at_pv_max_and_wakes_the_unconscious_for_the_next_round():
    for before, after in ((5, 9), (12, 14), (-2, 2)):
        st = ground([fig("healer", (1, 1)), fig("scout", (2, 1), pv=before)], [fig("fighter", (9, 9))])
        in_round(st, {"a1": 15, "a2": 14, "b1": 10}, active="a1")
        if before <= 0:
            st.fig("a2").status = UNCONSCIOUS
        run(st, [], Act("a1"))
        answer(st, "use:heal_plant:a2", [4])
        assert st.fig("a2").pv == after and st.fig("a2").status == UP
    assert st.fig("a2").woke == st.battle.round


def test_g16_a_simultaneous_group_holds_effects_on_others_until_it_has_acted():
    st = ground([fig("fighter", (1, 1))], [fig("fighter", (2, 1), pv=7)])
    in_round(st, {"a1": 18, "b1": 18})
    st.battle.round = 0
    begin_round(st)
    assert st.battle.slots == [["a1", "b1"]]
    refill = GROUND.refill
    run(st, [], refill=refill)
    assert st.steps.waiting.figure == "a1"          # side A first in round 1
    answer(st, "attack:b1:sword", [3, 4, 4, 5], refill=refill)
    assert st.fig("b1").pv == 7
    answer(st, "end", refill=refill)
    assert st.steps.waiting.figure == "b1"
    answer(st, "attack:a1:sword", [2, 2, 3, 1], refill=refill)
    answer(st, "end", refill=refill)
    assert st.fig("b1").pv == -2 and st.fig("b1").status == UNCONSCIOUS
    assert st.fig("a1").pv == 14


def test_the_battle_opens_on_a_roll_off_for_side_a_before_the_initiative_tests():
    st = ground([fig("fighter", (1, 1))], [fig("fighter", (9, 1))])
    events = play(GROUND, st, "roll", [1, 6, 3, 4, 4, 3])
    assert st.side_a == 1 and kinds(events).index("side_a") < kinds(events).index("initiative")
    assert st.fig("a1").initiative == st.fig("b1").initiative == 16
    assert GROUND.pending(st).figure == "b1"                 # the tied pair is a group, side A first


def test_side_a_of_the_roll_off_goes_first_in_a_group_of_an_odd_round_and_b_in_an_even_one():
    for side_a, first in ((1, "b1"), (0, "a1")):
        st = ground([fig("fighter", (1, 1))], [fig("fighter", (9, 1))])
        st.side_a = side_a
        in_round(st, {"a1": 18, "b1": 18})
        st.battle.round = 0
        begin_round(st)
        run(st, [], refill=GROUND.refill)
        assert st.steps.waiting.figure == first
        answer(st, "end", refill=GROUND.refill)
        answer(st, "end", refill=GROUND.refill)
        while st.battle.round < 2 or st.steps.waiting.kind != "action":
            answer(st, next(o.key for o in st.steps.waiting.options if o.action in ("stay", "refuse_truce", "end")),
                   refill=GROUND.refill)
        assert st.steps.waiting.figure == ({"a1", "b1"} - {first}).pop()


def test_g18_a_bow_reaches_twelve_pas_by_centre_distance():
    st = ground([fig("scout", (0, 0))], [fig("fighter", (12, 5)), fig("healer", (8, 8))])
    keys = {o.target for o in act.attack_options(st, st.fig("a1"))}
    assert "b2" in keys and "b1" not in keys


# --- what the vectors do not spell out, the rules still do ------------------------------------

def test_protect_forbids_moving_in_the_same_activation():
    st = ground([fig("fighter", (1, 1))], [fig("scout", (9, 9))])
    in_round(st, {"a1": 15, "b1": 12}, active="a1")
    run(st, [], Act("a1"))
    assert "protect" in [o.key for o in st.steps.waiting.options]
    answer(st, "move:2,1")
    assert "protect" not in [o.key for o in st.steps.waiting.options]
    st2 = ground([fig("fighter", (1, 1))], [fig("scout", (9, 9))])
    in_round(st2, {"a1": 15, "b1": 12}, active="a1")
    run(st2, [], Act("a1"))
    answer(st2, "protect")
    assert not any(o.action == "move" for o in st2.steps.waiting.options)


def test_the_activation_starts_by_ending_its_own_protect():
    st = ground([fig("fighter", (1, 1))], [fig("scout", (9, 9))])
    in_round(st, {"a1": 15, "b1": 12})
    st.fig("a1").protecting = True
    run(st, [], Activation("a1"))
    assert not st.fig("a1").protecting


def test_a_diagonal_melee_cannot_cut_a_blocked_corner():
    bf = Battlefield.open_ground(10, 10)
    bf.blocks_move[1, 2] = True
    st = ground([fig("fighter", (1, 1))], [fig("scout", (2, 2))], bf=bf)
    assert act.attack_options(st, st.fig("a1")) == []


def test_the_side_with_no_one_standing_loses():
    st = ground([fig("fighter", (1, 1))], [fig("scout", (2, 1), pv=2)])
    in_round(st, {"a1": 18, "b1": 10}, active="a1")
    run(st, [5, 5, 6, 6], Strike("a1", "b1", "sword", False))
    assert st.over and st.winner == 0 and st.reason == "defeated"


def test_damage_to_an_enemy_of_unknown_type_is_told_without_the_pv_left():
    st = ground([fig("fighter", (1, 1))], [fig("scout", (2, 1))])
    in_round(st, {"a1": 18, "b1": 10}, active="a1")
    game = run(st, [5, 5, 1, 1], Strike("a1", "b1", "sword", False))
    damage = [e for e in game.events if e.kind == "damaged"]
    assert [(e.visible_to, e.data["amount"], e.data["left"]) for e in damage] == [(None, 2, None)]
    roll = next(e for e in game.events if e.kind == "dice" and e.data["purpose"] == "to_hit")
    assert roll.visible_to is None and "total" not in roll.data and "needed" not in roll.data
    assert to_hit_totals(game.events, 0) == [5 + 5 + 14] and to_hit_totals(game.events, 1) == []
    st.known[0].append("scout")
    game = run(st, [5, 5, 1, 1], Strike("a1", "b1", "sword", False))
    assert [e.data["left"] for e in game.events if e.kind == "damaged"] == [10]


def test_a_side_observes_no_simultaneous_group_it_could_tell_only_from_an_unknown_condition():
    """Issue 10: equal initiatives make one slot only if the Conditions are equal too (4.4); a side that has
    not learnt the enemy's type sees two slots in the announced order, whichever the truth."""
    st = in_round(ground([fig("fighter", (1, 1))], [fig("scout", (9, 1))]), {"a1": 12, "b1": 12})
    st.fig("b1").traits["CON"] = st.fig("a1").traits["CON"]
    begin_round(st)
    assert st.battle.slots == [["a1", "b1"]]
    assert GROUND.observe(st, 0).battle.slots == [["a1"], ["b1"]]
    st.known[0].append("scout")
    assert GROUND.observe(st, 0).battle.slots == [["a1", "b1"]]


def test_hidden_pv_are_none_in_the_observation_and_drawn_afresh_in_a_disguise():
    import random

    st = ground([fig("fighter", (1, 1))], [fig("scout", (2, 1))])
    seen = GROUND.observe(st, 0)
    assert seen.fig("b1").pv is None and seen.fig("b1").traits["CON"] is None and seen.fig("a1").pv == 18
    other = GROUND.disguise(st, 0, random.Random(3))
    assert other.fig("b1").status == UP and 0 < other.fig("b1").pv <= other.fig("b1").max_pv
    assert GROUND.figures(other, 0) == GROUND.figures(st, 0)
    assert GROUND.observe(other, 0) == seen
