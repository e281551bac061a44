"""Eisdrachen test vectors TV-E01..TV-E23 (rules/eisdrachen.md 6.2) with scripted dice."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.engine.battlefield import Battlefield, Door, MapObject
from game.engine.dice import ScriptedDice
from game.engine.tokens import Token
from game.engine.protocol import Army
from game.rules.eisdrachen import actions as act
from game.rules.eisdrachen.combat import shot_attacks

from .eisdrachen_helpers import RULES, activate, answer, build, end_turn, keys, of_kind, unit

# --- 6.1 / 6.2 shooting ------------------------------------------------------------------

def test_tv_e01_shoot_seed_example_dodges_then_one_wound_die_per_damage_point():
    s = build(unit("v", 0, (0, 0), "Vétéran", loadout="assault"), unit("b", 1, (5, 0), "Bleu"))
    events = answer(s, "shoot:b", [3, 5, 6, 2, 2, 4, 6])
    attack = of_kind(events, "attack")[0].data
    assert (attack["attacks"], attack["through"], attack["damage_points"], attack["wounds"]) == (3, 2, 4, 3)
    dodge, wound = of_kind(events, "dice")
    assert dodge.data["purpose"] == "dodge" and dodge.data["successes"] == 1 and dodge.data["who"] == "b"
    assert wound.data["purpose"] == "wound" and wound.data["faces"] == [2, 2, 4, 6]
    assert s.figure("b").pv == 2
    assert s.figure("b").vengeance_next == 1


def test_tv_e02_dodge_table_row_three_dodges_on_five_plus():
    s = build(unit("v", 0, (0, 0), "Vétéran", loadout="assault"), unit("t", 1, (5, 0), "Vétéran"))
    events = answer(s, "shoot:t", [3, 5, 6, 2, 2])
    attack = of_kind(events, "attack")[0].data
    assert (attack["through"], attack["damage_points"], attack["wounds"]) == (1, 2, 2)
    assert s.figure("t").pv == 3


def test_tv_e03_assassin_fails_to_wound_only_on_six():
    s = build(unit("a", 0, (0, 0), "Assassin", loadout="rifleman"), unit("t", 1, (10, 0), "Vétéran"))
    events = answer(s, "shoot:t", [5, 2, 6, 5])
    attack = of_kind(events, "attack")[0].data
    assert (attack["through"], attack["damage_points"], attack["wounds"]) == (1, 2, 1)
    assert s.figure("t").pv == 4 and s.figure("t").vengeance_next == 1


def test_tv_e04_shoot_range_is_checked_on_centre_distance():
    s = build(unit("r", 0, (0, 0), loadout="rifleman"), unit("in", 1, (18, 0)), unit("out", 1, (0, 19)),
              unit("d1", 1, (12, 13)), unit("d2", 1, (13, 13)))
    k = keys(s)
    assert "shoot:in" in k and "shoot:d1" in k
    assert "shoot:out" not in k and "shoot:d2" not in k


def test_tv_e04_shoot_needs_line_of_sight():
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_sight[0, 5] = True
    s = build(unit("r", 0, (0, 0), loadout="rifleman"), unit("t", 1, (10, 0)), bf=bf)
    assert "shoot:t" not in keys(s)


# --- melee -------------------------------------------------------------------------------

def test_tv_e05_melee_declarer_strikes_first_and_target_may_riposte():
    s = build(unit("s", 0, (0, 0), "Soldat", loadout="rifleman"), unit("v", 1, (1, 0), "Vétéran", blade=None))
    events = answer(s, "melee:v", [5, 1, 3, 4])
    attack = of_kind(events, "attack")[0].data
    assert (attack["attacks"], attack["through"], attack["damage_points"], attack["wounds"]) == (2, 1, 2, 1)
    assert s.figure("v").pv == 4
    decision = RULES.pending(s)
    assert decision.kind == "riposte" and decision.side == 1
    assert {o.key for o in decision.options} == {"riposte", "no_riposte"}
    events = answer(s, "riposte", [6, 2, 4])
    attack = of_kind(events, "attack")[0].data
    assert (attack["through"], attack["damage_points"], attack["wounds"]) == (1, 1, 1)
    assert s.figure("s").pv == 4
    assert s.figure("s").vengeance_next == 0 and s.figure("v").vengeance_next == 0


def test_tv_e05_riposte_may_be_declined():
    s = build(unit("s", 0, (0, 0), "Soldat", loadout="rifleman"), unit("v", 1, (1, 0), "Vétéran", blade=None))
    answer(s, "melee:v", [5, 1, 3, 4])
    answer(s, "no_riposte", [])
    assert s.figure("s").pv == 5 and RULES.pending(s).kind == "action"


def test_tv_e06_a_bleu_target_strikes_first_and_no_riposte_follows():
    s = build(unit("v", 0, (0, 0), "Vétéran", loadout="rifleman", blade="sword"),
              unit("b", 1, (1, 1), "Bleu", loadout="rifleman", blade=None))
    events = answer(s, "melee:b", [1, 1, 1, 6, 2, 6, 4, 4, 5, 1, 2])
    strikes = of_kind(events, "strike")
    assert [e.data["striker"] for e in strikes] == ["b", "v"]
    bleu, veteran = (e.data for e in of_kind(events, "attack"))
    assert (bleu["through"], bleu["damage_points"], bleu["wounds"]) == (2, 2, 1)
    assert (veteran["through"], veteran["damage_points"], veteran["wounds"]) == (2, 4, 3)
    assert s.figure("v").pv == 4 and s.figure("b").pv == 2
    assert RULES.pending(s).kind == "action"


def test_tv_e07_melee_automatic_contact_within_three_pas():
    s = build(unit("a", 0, (0, 0), blade=None), unit("t", 1, (3, 1)), unit("u", 1, (20, 20)))
    assert "melee:t" not in keys(s)
    s.figure("t").tile = (4, 0)
    assert "melee:t" not in keys(s)
    s.figure("t").tile = (3, 0)
    events = answer(s, "melee:t", [1, 1, 1, 1])
    moved = of_kind(events, "moved")[0].data
    assert moved["path"] == [[1, 0], [2, 0]] and s.figure("a").tile == (2, 0)


def test_tv_e07_contact_tile_is_chosen_by_the_attacker():
    s = build(unit("a", 0, (0, 0), blade=None), unit("t", 1, (2, 1)))
    answer(s, "melee:t", [])
    decision = RULES.pending(s)
    assert decision.kind == "melee_contact"
    assert sorted(o.tile for o in decision.options) == [(1, 0), (1, 1), (2, 0)]
    answer(s, "contact:1,1", [1, 1, 1, 1])
    assert s.figure("a").tile == (1, 1) and RULES.pending(s).kind == "riposte"


def test_double_attacks_double_melee_strikes_too():
    s = build(unit("s", 0, (0, 0), loadout="rifleman"), unit("v", 1, (1, 0), "Vétéran", blade=None), turn=2)
    s.figure("s").add_status("double_attacks", [2])
    events = answer(s, "melee:v", [1] * 4 + [6] * 8)
    assert of_kind(events, "strike")[0].data["attacks"] == 4


def test_a_wolf_trapped_bleu_does_not_strike_first():
    s = build(unit("v", 0, (0, 0), "Vétéran", blade="sword"), unit("b", 1, (1, 0), "Bleu", blade=None), turn=5)
    s.figure("b").add_status("wolf_trapped", [5])
    events = answer(s, "melee:b", [1, 1, 1, 6, 6, 6, 6, 6, 6])
    assert [e.data["striker"] for e in of_kind(events, "strike")] == ["v"]
    assert RULES.pending(s).kind == "action"


# --- grenades ------------------------------------------------------------------------------

def test_tv_e08_grenade_blast_radius_three_and_dodge_on_five_plus():
    s = build(unit("g", 0, (0, 0), "Soldat", grenades=1), unit("x", 1, (10, 1), "Bleu"),
              unit("w", 1, (11, 0), "Assassin"), unit("y", 1, (11, 3), "Assassin"), unit("z", 1, (12, 0)))
    events = answer(s, "grenade:5,0", [3, 4, 5, 3, 4, 5, 6])
    g = of_kind(events, "thrown")[0].data
    assert g["bounce_tiles"] == [[6, 0], [7, 0], [8, 0]] and g["lands"] == [8, 0]
    x_hit, w_hit = (e.data for e in of_kind(events, "attack"))
    assert (x_hit["target"], x_hit["through"], x_hit["damage_points"], x_hit["wounds"]) == ("x", 1, 2, 1)
    assert (w_hit["target"], w_hit["through"], w_hit["damage_points"]) == ("w", 0, 0)
    assert s.figure("x").pv == 4 and s.figure("w").pv == 5
    assert s.figure("y").pv == 5 and s.figure("z").pv == 5
    assert all(f.vengeance_next == 0 for f in s.figures)
    assert s.figure("g").grenades == 0


def test_tv_e09_grenade_stops_at_the_foot_of_a_wall():
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_move[0, 7] = bf.blocks_sight[0, 7] = True
    s = build(unit("g", 0, (0, 0), grenades=1), unit("e", 1, (20, 20)), bf=bf)
    events = answer(s, "grenade:5,0", [4])
    assert of_kind(events, "thrown")[0].data["lands"] == [6, 0]


def test_tv_e10_off_axis_bounce_is_a_distance_in_pas_along_the_throw_line():
    s = build(unit("g", 0, (0, 0), grenades=1), unit("e", 1, (20, 20)))
    events = answer(s, "grenade:4,2", [3])
    g = of_kind(events, "thrown")[0].data
    assert g["bounce_tiles"] == [[5, 2], [6, 3], [7, 3]] and g["lands"] == [7, 3]


def test_tv_e10b_diagonal_bounce_of_two_pas_lands_one_tile_on():
    s = build(unit("g", 0, (0, 0), grenades=1), unit("e", 1, (20, 20)))
    events = answer(s, "grenade:4,4", [2])
    assert of_kind(events, "thrown")[0].data["lands"] == [5, 5]


def test_tv_e10b_grenade_landing_odds_measure_the_bounce_in_pas():
    s = build(unit("g", 0, (0, 0), grenades=1), unit("e", 1, (20, 20)))
    odds = RULES.odds(s, RULES.pending(s).option("grenade:4,4"))
    # P = (4,4) + k(0.707, 0.707): k = 1..6 reach 4.71, 5.41, 6.12, 6.83, 7.54, 8.24
    assert odds.outcomes == {"landing:5,5": Fraction(1, 3), "landing:6,6": Fraction(1, 6),
                             "landing:7,7": Fraction(1, 6), "landing:8,8": Fraction(1, 3)}


def test_grenade_aim_is_within_eight_pas_in_sight_and_the_thrower_is_caught_in_its_own_blast():
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_sight[3, 1] = True                              # (1,3) is crossed on the way to (2,5)
    s = build(unit("g", 0, (0, 0), grenades=1), unit("e", 1, (20, 20)), bf=bf)
    k = keys(s)
    assert "grenade:8,0" in k and "grenade:6,5" in k          # d = 8 and d = √61 ≈ 7.810
    assert "grenade:6,6" not in k and "grenade:9,0" not in k  # d = √72 ≈ 8.485 and 9
    assert "grenade:0,0" not in k and "grenade:2,5" not in k
    events = answer(s, "grenade:1,0", [1, 6, 6])
    assert of_kind(events, "thrown")[0].data["lands"] == [2, 0]
    assert [e.data["target"] for e in of_kind(events, "attack")] == ["g"]


def test_grenade_blast_does_not_hit_hidden_figures_or_figures_behind_walls():
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_sight[0, 9] = bf.blocks_move[0, 9] = True
    bf.hiding[2, 8] = True
    s = build(unit("g", 0, (0, 0), grenades=1), unit("h", 1, (8, 2)), unit("w", 1, (10, 0)), bf=bf)
    s.figure("h").hidden = True
    events = answer(s, "grenade:5,0", [3])
    assert of_kind(events, "attack") == []


# --- traps ---------------------------------------------------------------------------------

def test_tv_e11_decoy_is_removed_then_real_token_stops_the_move():
    s = build(unit("e", 0, (6, 10)), unit("o", 1, (25, 25)))
    s.tokens += [Token("t1", (10, 10), 1, False), Token("t2", (14, 10), 1, True)]
    events = answer(s, "move:11,10", [])
    revealed = of_kind(events, "revealed")
    assert [(e.data["token"], e.data["real"]) for e in revealed] == [("t1", False)]
    assert of_kind(events, "moved")[0].data["to"] == [8, 10]
    assert s.figure("e").tile == (11, 10)
    events = answer(s, "move:16,10", [2])
    assert s.figure("e").tile == (12, 10)
    assert of_kind(events, "trap")[0].data["kind"] == "incendiary"
    assert s.figure("e").pv == 3 and s.tokens == []


def test_tv_e12_emp_forbids_firearms_for_the_two_next_turns_only():
    s = build(unit("e", 0, (6, 10), loadout="rifleman", grenades=1), unit("o", 1, (10, 14)), turn=4)
    s.tokens.append(Token("t", (8, 10), 1, True))
    answer(s, "move:7,10", [3])
    assert s.figure("e").statuses["emp"] == [5, 6]
    assert "shoot:o" in keys(s)
    for turn, allowed in ((5, False), (6, False), (7, True)):
        s.turn = turn
        k = keys(s)
        assert ("shoot:o" in k) is allowed
        assert "grenade:10,14" in k
    s.figure("o").tile = (8, 11)
    s.turn = 5
    assert "melee:o" in keys(s)


def test_tv_e13_wolf_trap_ends_the_move_and_empties_the_next_turn():
    s = build(unit("e", 0, (6, 10), rank="Vétéran"), unit("o", 1, (20, 20)), turn=4)
    s.tokens.append(Token("t", (10, 10), 1, True))
    answer(s, "move:11,10", [6])
    assert s.figure("e").tile == (8, 10)
    assert RULES.pending(s).kind == "action" and RULES.pending(s).info["actions_left"] == 1
    answer(s, "end")
    # finish turn 4: the enemy's activation
    answer(s, "activate:o")
    events = answer(s, "end", [1, 2])
    assert s.turn == 5 and s.figure("e").allowance == 0
    # turn 5: attacked in melee, it dodges but may not riposte
    s.figure("o").tile = (9, 10)
    activate(s, "o")
    events = answer(s, "melee:e", [1, 1, 6, 6, 6, 6])
    assert of_kind(events, "dice")[0].data["who"] == "e"
    assert RULES.pending(s).kind == "action"


def test_tv_e13_wolf_trapped_figure_gets_no_alarm_riposte():
    s = build(unit("o", 1, (10, 10), loadout="rifleman"), unit("e", 0, (14, 10), loadout="rifleman"), turn=5)
    s.figure("e").add_status("wolf_trapped", [5])
    s.figure("e").add_status("alerted", [5])
    answer(s, "shoot:e", [1, 1, 6, 6, 6, 6])
    assert RULES.pending(s).kind == "action"


def test_trap_mode_b_three_tokens_one_real_then_flight_out_of_range():
    s = build(unit("l", 0, (10, 10), trap_kits=2), unit("o", 1, (25, 25)))
    answer(s, "trap_open")
    for tile in ((12, 10), (10, 12), (8, 10)):
        d = RULES.pending(s)
        assert d.kind == "trap_token" and d.secret
        answer(s, f"token:{tile[0]},{tile[1]}")
    d = RULES.pending(s)
    assert d.kind == "trap_real" and d.secret
    events = answer(s, "real:10,12")
    real = of_kind(events, "trap_real")[0]
    assert real.visible_to == 0
    assert [t.kind for t in RULES.tokens(s, 1)] == ["unknown"] * 3
    assert sorted(t.kind for t in RULES.tokens(s, 0)) == ["decoy", "decoy", "real"]
    flee = RULES.pending(s)
    assert flee.kind == "flee"
    assert all(min(act.space.distance(o.tile, t) for t in ((12, 10), (10, 12), (8, 10))) > 2 for o in flee.options)
    answer(s, "flee:10,7")
    assert s.figure("l").tile == (10, 7) and len(s.tokens) == 3 and s.figure("l").trap_kits == 1
    assert RULES.pending(s).info["actions_left"] == 1


def test_trap_mode_a_on_a_trap_spot_then_flight():
    bf = Battlefield.open_ground(30, 30)
    bf.trap_spot[10, 11] = True
    s = build(unit("l", 0, (10, 10), trap_kits=1), unit("o", 1, (25, 25)), bf=bf)
    assert "trap_spot:11,10" in keys(s)
    answer(s, "trap_spot:11,10")
    assert [o.tile for o in RULES.pending(s).options if o.tile == (10, 10)] == []
    answer(s, "flee:7,10")
    assert [(t.tile, t.real) for t in s.tokens] == [((11, 10), True)]


def test_trap_springing_on_a_friends_tile_stops_the_mover_on_the_last_free_tile():
    s = build(unit("e", 0, (6, 10)), unit("f", 0, (8, 10)), unit("o", 1, (25, 25)))
    s.tokens.append(Token("t", (10, 10), 1, True))
    events = answer(s, "move:9,10", [4])
    assert s.figure("e").tile == (7, 10) and s.figure("f").tile == (8, 10)
    assert RULES.check_invariants(s) == []
    assert any(e.kind == "moved" and e.data.get("reason") == "stopped_on_a_friend" for e in events)


def test_lucky_figure_triggers_no_token():
    s = build(unit("e", 0, (6, 10)), unit("o", 1, (25, 25)), turn=3)
    s.figure("e").add_status("lucky", [3])
    s.tokens.append(Token("t", (8, 10), 1, True))
    answer(s, "move:11,10")
    assert s.figure("e").tile == (11, 10) and len(s.tokens) == 1


# --- sniper, dig in -----------------------------------------------------------------------

def test_tv_e14_sniper_cancels_every_dodge():
    s = build(unit("v", 0, (0, 0), "Vétéran", loadout="sniper"), unit("t", 1, (22, 0), "Assassin"))
    events = answer(s, "sniper:t", [1, 5, 4, 6])
    assert [e.data["purpose"] for e in of_kind(events, "dice")] == ["wound"]
    assert s.figure("t").pv == 3 and s.figure("t").vengeance_next == 1


def test_sniper_needs_a_scope_on_a_weapon_of_range_twenty_or_more():
    s = build(unit("r", 0, (0, 0), loadout="rifleman"), unit("g", 0, (0, 2), loadout="gunner"),
              unit("t", 1, (10, 0)))
    assert "shoot:t" in keys(s) and "sniper:t" not in keys(s)
    activate(s, "g")
    assert "sniper:t" not in keys(s)
    s.figure("g").scope = True
    assert "sniper:t" in keys(s)


def test_tv_e15_dig_in_halves_shots_rounding_up_but_not_grenades():
    s = build(unit("a", 0, (0, 0), loadout="assault", grenades=1), unit("t", 1, (5, 0)))
    shooter, target = s.figure("a"), s.figure("t")
    target.dug_in = True
    assert [shot_attacks(a, shooter, target, 1) for a in (1, 2, 3, 5)] == [1, 1, 2, 3]
    shooter.add_status("double_attacks", [1])
    assert shot_attacks(3, shooter, target, 1) == 3
    events = answer(s, "grenade:6,0", [1, 6, 6])
    assert len(of_kind(events, "dice")[1].data["faces"]) == 2


def test_dig_in_lasts_until_the_figure_leaves_its_tile():
    s = build(unit("a", 0, (0, 0)), unit("t", 1, (20, 0)))
    answer(s, "dig_in")
    assert s.figure("a").dug_in and "dig_in" not in keys(s)
    answer(s, "move:1,0")
    assert not s.figure("a").dug_in


# --- hide, heal ----------------------------------------------------------------------------

def hide_setup():
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 5] = True
    s = build(unit("h", 0, (5, 5), pv=2), unit("o", 1, (20, 20)), bf=bf, turn=3)
    answer(s, "hide")
    return s


def test_tv_e16_hidden_figure_heals_from_its_third_hidden_turn_end():
    s = hide_setup()
    h = s.figure("h")
    expected = {3: (1, 2), 4: (2, 2), 5: (3, 4), 6: (4, 5), 7: (5, 5)}
    for turn in range(3, 8):
        s.turn = turn
        end_turn(s)
        assert (h.hide_count, h.pv) == expected[turn]
    assert RULES.figures(s, 1) and all(v.id != "h" for v in RULES.figures(s, 1))
    assert any(v.id == "h" and v.marked("hidden") for v in RULES.figures(s, 0))


def test_tv_e16_enemy_within_three_pas_discovers_and_resets_the_counter():
    s = hide_setup()
    for turn in (3, 4, 5):
        s.turn = turn
        end_turn(s)
    assert s.figure("h").pv == 4
    s.turn = 6
    s.figure("o").tile = (10, 5)
    activate(s, "o")
    answer(s, "move:8,5")
    h = s.figure("h")
    assert not h.hidden and h.hide_count == 0
    end_turn(s)
    assert h.pv == 4


def test_hidden_figure_cannot_be_targeted_and_prays_without_leaving():
    s = hide_setup()
    s.figure("o").tile = (10, 5)
    activate(s, "o")
    s.figure("o").grenades = 1
    assert "shoot:h" not in keys(s) and "melee:h" not in keys(s)
    activate(s, "h")
    events = answer(s, "pray", [1])
    assert s.figure("h").hidden and all(e.visible_to == 0 for e in events)
    answer(s, "move:4,5", [1, 2])
    assert not s.figure("h").hidden


def test_hide_is_not_possible_with_an_enemy_within_three_pas():
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 5] = True
    s = build(unit("h", 0, (5, 5)), unit("o", 1, (8, 5)), bf=bf)
    assert "hide" not in keys(s)


def hidden_enemy_setup(mover_tile):
    """A far enemy keeps the battle going when a test takes the hidden one away."""
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 10] = True
    s = build(unit("m", 0, mover_tile), unit("h", 1, (10, 5)), unit("far", 1, (28, 28)), bf=bf)
    s.figure("h").hidden = True
    return s


def test_hidden_enemy_leaves_no_hole_in_the_options_of_the_other_side():
    s = hidden_enemy_setup((5, 5))
    with_hidden = set(keys(s))
    s.figure("h").alive = False
    assert set(keys(s)) == with_hidden and "move:10,5" in with_hidden and "jump:10,5" in with_hidden


def test_move_toward_a_hidden_enemy_discovers_it_and_stops_in_front_of_it():
    s = hidden_enemy_setup((5, 5))
    events = answer(s, "move:10,5")
    assert not s.figure("h").hidden and s.figure("m").tile == (9, 5)
    assert any(e.kind == "status" and e.data["reason"] == "discovered" for e in events)
    assert RULES.check_invariants(s) == []


def test_move_stopped_by_a_found_enemy_on_a_friends_tile_ends_on_the_last_free_tile():
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 9] = True
    s = build(unit("m", 0, (4, 5)), unit("f", 0, (8, 5)), unit("h", 1, (9, 5)), bf=bf)
    s.figure("h").hidden = True
    answer(s, "move:9,5")
    assert s.figure("m").tile == (7, 5) and not s.figure("h").hidden
    assert RULES.check_invariants(s) == []


def test_jump_onto_a_hidden_enemy_lands_in_front_of_it_and_reveals_it():
    s = hidden_enemy_setup((5, 5))
    answer(s, "jump:10,5", [1])
    assert s.figure("m").tile == (9, 5) and not s.figure("h").hidden
    assert RULES.check_invariants(s) == []


def test_tv_e17_heal_one_pv_up_to_the_maximum_in_contact_only():
    s = build(unit("m", 0, (0, 0), loadout="medic"), unit("a", 0, (1, 1), pv=3), unit("far", 0, (2, 0), pv=3),
              unit("full", 0, (0, 1)), unit("o", 1, (20, 20)))
    assert "heal:far" not in keys(s) and "heal:m" in keys(s)
    answer(s, "heal:a")
    assert s.figure("a").pv == 4
    answer(s, "heal:full")
    assert s.figure("full").pv == 5


# --- jump ----------------------------------------------------------------------------------

def jump_state(bf=None):
    s = build(unit("j", 0, (0, 0)), unit("o", 1, (20, 20)), bf=bf)
    return s


def test_tv_e18_full_jump_clears_the_trigger_radius():
    s = jump_state()
    s.tokens.append(Token("t", (2, 0), 1, True))
    answer(s, "jump:5,0", [4])
    assert s.figure("j").tile == (5, 0) and len(s.tokens) == 1


def test_tv_e18_short_jump_lands_within_two_and_triggers():
    s = jump_state()
    s.tokens.append(Token("t", (2, 0), 1, True))
    events = answer(s, "jump:5,0", [6, 1])
    assert s.figure("j").tile == (4, 0) and of_kind(events, "trap")[0].data["kind"] == "incendiary"


def test_tv_e18_short_jump_over_water_falls_back_to_the_start():
    bf = Battlefield.open_ground(30, 30)
    bf.deep_water[0, 1:5] = True
    s = jump_state(bf)
    assert "jump:5,0" in keys(s)
    answer(s, "jump:5,0", [6])
    assert s.figure("j").tile == (0, 0)


def test_tv_e18_diagonal_jump_lengths_are_true_distances():
    s = jump_state()
    assert "jump:3,3" in keys(s) and "jump:4,4" not in keys(s)
    answer(s, "jump:3,3", [4])
    assert s.figure("j").tile == (3, 3)
    s = jump_state()
    answer(s, "jump:3,3", [6])
    assert s.figure("j").tile == (2, 2)


def test_jump_cannot_clear_a_wall():
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_move[0, 2] = True
    s = jump_state(bf)
    assert "jump:5,0" not in keys(s)


# --- prayer and rerolls --------------------------------------------------------------------

def test_tv_e19_prayer_six_is_rerolled_and_dodge_reroll_applies_next_turn():
    s = build(unit("b", 0, (0, 0), "Bleu"), unit("o", 1, (5, 0), loadout="medic"), turn=2)
    events = answer(s, "pray", [6, 3])
    assert [e.data["faces"] for e in of_kind(events, "dice")] == [[6], [3]]
    assert s.figure("b").statuses["dodge_reroll"] == [3]
    s.turn = 3
    activate(s, "o")
    events = answer(s, "shoot:b", [2, 6])
    dice = of_kind(events, "dice")
    assert dice[1].data.get("reroll") and dice[1].data["successes"] == 1
    assert all(e.data["purpose"] == "dodge" for e in dice) and s.figure("b").pv == 5


def test_tv_e19_wound_reroll_turns_a_failed_wound_into_a_wound():
    s = build(unit("b", 0, (0, 0), "Bleu"), unit("t", 1, (5, 0), "Vétéran"), turn=3)
    s.figure("b").add_status("wound_reroll", [3])
    events: list = []
    profile = {"id": "test", "name": "test", "range": 10, "A": 2, "F": 1, "traits": []}
    act.shoot(s, s.figure("b"), s.figure("t"), profile, ScriptedDice([5, 2, 5, 2]), events, False, "4.3")
    attack = of_kind(events, "attack")[0].data
    assert (attack["through"], attack["damage_points"], attack["wounds"]) == (1, 1, 1)
    assert s.figure("t").pv == 4


def test_the_same_prayer_result_twice_does_not_stack_but_different_ones_do():
    s = build(unit("p", 0, (0, 0)), unit("o", 1, (20, 20)), turn=2)
    answer(s, "pray", [5])
    answer(s, "pray", [5])
    assert s.figure("p").statuses == {"double_attacks": [3]}
    activate(s, "p")
    answer(s, "pray", [2])
    assert s.figure("p").statuses == {"double_attacks": [3], "lucky": [3]}


def test_tv_e20_double_attacks_doubles_a_before_dig_in_halves_it():
    s = build(unit("a", 0, (0, 0), loadout="assault"), unit("t", 1, (5, 0)), turn=4)
    s.figure("a").add_status("double_attacks", [4])
    events = answer(s, "shoot:t", [6] * 6)
    assert of_kind(events, "attack")[0].data["attacks"] == 6
    s.figure("t").dug_in = True
    events = answer(s, "shoot:t", [6] * 3)
    assert of_kind(events, "attack")[0].data["attacks"] == 3


def test_move_enters_no_wall_shut_door_deep_water_crawl_gap_or_climbable_tile():
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_move[10, 12] = True
    bf.door[10, 8] = Door.CLOSED
    bf.deep_water[12, 10] = True
    bf.crawl_gap[8, 10] = True
    bf.climbable[12, 12] = True
    bf.door[11, 9] = Door.OPEN
    s = build(unit("m", 0, (10, 10)), unit("o", 1, (25, 25)), bf=bf)
    moves = {o.tile for o in RULES.pending(s).options if o.action == "move"}
    assert not moves & {(12, 10), (8, 10), (10, 12), (10, 8), (12, 12)}
    assert {(9, 11), (11, 11), (13, 10), (10, 13)} <= moves


# --- crawl and climb -----------------------------------------------------------------------

def test_tv_e21_crawl_and_climb_budgets_are_half_speed():
    bf = Battlefield.open_ground(30, 30)
    bf.crawl_gap[10, 11] = True
    bf.blocks_move[9, 11] = bf.blocks_move[11, 11] = True
    s = build(unit("c", 0, (10, 10)), unit("o", 1, (25, 25)), bf=bf)
    opts = RULES.pending(s).options
    crawl = [o for o in opts if o.action == "crawl"]
    assert crawl and all(o.cost <= 2 + 1e-9 for o in crawl)
    assert any(o.tile == (12, 10) for o in crawl)
    s.figure("c").weapon = "machine_gun"
    assert not [k for k in keys(s) if k.startswith("crawl:")]


def test_tv_e10c_crawl_halves_an_odd_speed_exactly():
    bf = Battlefield.open_ground(30, 30)
    bf.crawl_gap[:, :] = True              # only a Crawl leaves the start tile
    bf.crawl_gap[0, 0] = False
    s = build(unit("c", 0, (0, 0)), unit("o", 1, (25, 25)), bf=bf)
    assert s.figure("c").V == 5
    crawl = {o.tile: o.cost for o in RULES.pending(s).options if o.action == "crawl"}
    assert (2, 1) in crawl and abs(crawl[(2, 1)] - 5 ** 0.5) < 1e-9     # one knight step, 2.236 pas
    assert (3, 0) not in crawl and (2, 2) not in crawl                  # 3 pas and 2.828 pas
    assert set(crawl) == {(1, 0), (2, 0), (0, 1), (1, 1), (0, 2), (2, 1), (1, 2)}


def test_climb_halves_an_odd_speed_exactly():
    bf = Battlefield.open_ground(30, 30)
    bf.climbable[:, 1] = True
    s = build(unit("c", 0, (0, 0)), unit("o", 1, (25, 25)), bf=bf)
    k = keys(s)
    assert "climb:2,1" in k and "climb:2,0" in k        # a knight step over the wall: 2.236 <= 2.5 pas
    assert "climb:2,2" not in k                          # 2.828 pas
    answer(s, "climb:2,1")
    assert s.figure("c").tile == (2, 1)


def test_tv_e21_climb_over_a_one_tile_wall_only_from_adjacent():
    bf = Battlefield.open_ground(30, 30)
    bf.climbable[:, 10] = True
    s = build(unit("c", 0, (9, 5)), unit("o", 1, (25, 25)), bf=bf)
    assert "climb:11,5" in keys(s)
    answer(s, "climb:11,5")
    assert s.figure("c").tile == (11, 5)
    s = build(unit("c", 0, (8, 5)), unit("o", 1, (25, 25)), bf=bf)
    assert not [k for k in keys(s) if k.startswith("climb:") and int(k[6:].split(",")[0]) > 10]


def test_figure_on_a_perch_must_climb_to_leave():
    bf = Battlefield.open_ground(30, 30)
    bf.climbable[5, 5] = bf.perch[5, 5] = True
    s = build(unit("c", 0, (5, 5)), unit("o", 1, (25, 25)), bf=bf)
    k = keys(s)
    assert not [x for x in k if x.startswith(("move:", "jump:", "crawl:"))]
    assert "climb:6,5" in k


# --- vengeance, alarm -----------------------------------------------------------------------

def test_tv_e22_vengeance_stacks_once_per_shoot_action():
    s = build(unit("o", 1, (0, 0), loadout="rifleman"), unit("f", 0, (10, 0)), turn=2)
    answer(s, "shoot:f", [6, 6])
    answer(s, "shoot:f", [1, 6, 4, 4])
    assert s.figure("f").vengeance_next == 2
    s.figure("o").activated = True
    activate(s, "f")
    answer(s, "end", [1, 2])
    assert s.turn == 3 and s.figure("f").allowance == 4
    end_turn(s)
    assert s.figure("f").vengeance_now == 0


def test_tv_e23_alarm_alerts_friends_within_six_for_the_next_turn():
    s = build(unit("s", 0, (0, 0)), unit("a", 0, (6, 6), loadout="rifleman"), unit("b", 0, (7, 0)),
              unit("c", 0, (0, 6), loadout="rifleman"), unit("e", 1, (10, 6), loadout="rifleman"),
              unit("e2", 1, (12, 6), loadout="rifleman"), turn=2)
    events = answer(s, "alarm")
    assert of_kind(events, "alarm")[0].data["alerted"] == ["c"]
    assert s.figure("c").statuses["alerted"] == [3]
    s.turn = 3
    activate(s, "e")
    answer(s, "shoot:c", [1, 1, 6, 6, 6, 6])
    d = RULES.pending(s)
    assert d.kind == "alarm_riposte" and d.side == 0
    answer(s, "shoot", [1, 1, 6, 6, 6, 6])
    assert s.figure("e").vengeance_next == 1
    activate(s, "e2", actions=3)
    answer(s, "shoot:c", [1, 1, 6, 6, 6, 6])
    assert RULES.pending(s).kind == "action"
    answer(s, "shoot:a", [1, 1, 6, 6, 6, 6])
    assert RULES.pending(s).kind == "action"


# --- use, repair, sabotage, pick up ----------------------------------------------------------

def test_emplacement_fire_sabotage_repair_and_door_sabotage():
    from game.engine.battlefield import MapObject
    bf = Battlefield.open_ground(30, 30)
    bf.objects.append(MapObject("emplacement", "tourelle", ((1, 0),), {"weapon": "machine_gun"}))
    bf.objects.append(MapObject("item", "g", ((0, 1),), {"item": "grenade"}))
    bf.door[1, 1] = Door.LOCKED
    s = build(unit("u", 0, (0, 0)), unit("t", 1, (10, 0)), bf=bf)
    k = keys(s)
    emp = s.emplacements[0].id
    assert f"use_fire:{emp}:t" in k and "sabotage:1,1" in k and "sabotage:1,0" in k
    events = answer(s, f"use_fire:{emp}:t", [6] * 5)
    assert of_kind(events, "attack")[0].data["attacks"] == 5 and s.figure("t").vengeance_next == 1
    answer(s, "sabotage:1,1")
    assert bf.door[1, 1] == Door.OPEN
    activate(s, "u")
    answer(s, "sabotage:1,0")
    assert not s.emplacements[0].working and not [x for x in keys(s) if x.startswith("use_fire")]
    answer(s, "repair:1,0")
    assert s.emplacements[0].working
    activate(s, "u")
    pick = [x for x in keys(s) if x.startswith("pickup:")]
    answer(s, pick[0])
    assert s.figure("u").grenades == 1 and s.items == []


# --- turn structure, victory, views -----------------------------------------------------------

def test_turn_structure_initiative_and_alternating_activations():
    bf = Battlefield.open_ground(24, 24)
    armies = [Army(0, "A", [{"rank": "Soldat"}, {"rank": "Soldat"}, {"rank": "Soldat"}]),
              Army(1, "B", [{"rank": "Soldat"}])]
    s = RULES.new_state(bf, armies, 12)
    assert RULES.pending(s).kind == "initiative"
    events = answer(s, "roll", [3, 3, 2, 5])
    assert [e.data["faces"] for e in of_kind(events, "dice")] == [[3, 3], [2, 5]]
    d = RULES.pending(s)
    assert d.kind == "activate" and d.side == 1
    answer(s, "activate:b1")
    answer(s, "end")
    sides = []
    for _ in range(3):
        d = RULES.pending(s)
        sides.append(d.side)
        answer(s, d.options[0].key)
        answer(s, "end", [] if _ < 2 else [4, 1])
    assert sides == [0, 0, 0] and s.turn == 2 and RULES.pending(s).side == 0


def test_turn_limit_victory_on_points_pv_taken_and_draw_on_equal():
    s = build(unit("a", 0, (0, 0)), unit("b", 1, (10, 0)))
    s.max_turns = 1
    s.figure("b").pv = 4
    events = end_turn(s)
    assert RULES.outcome(s).winner == 0 and RULES.outcome(s).reason == "points"
    assert events[-1].data["points"] == [1, 0]
    assert [w.as_dict()["points"] for w in RULES.outcome(s).details] == [1, 0]
    s = build(unit("a", 0, (0, 0)), unit("b", 1, (10, 0)))
    s.max_turns = 1
    end_turn(s)
    assert s.over and RULES.outcome(s).winner is None


def test_turn_limit_points_count_a_control_zone_as_a_standard_figure_of_pv():
    """A zone worth one figure is worth 5 PV: holding it beats having taken 4 PV (project default)."""
    s = build(unit("a", 0, (5, 5)), unit("b", 1, (10, 0)))
    s.battlefield.objects = [MapObject("objective", "square", ((5, 5),), {})]
    s.max_turns = 1
    s.figure("a").pv = 1
    end_turn(s)
    assert RULES.outcome(s).winner == 0 and RULES.outcome(s).details[0].as_dict()["held"] == 5


def test_killing_every_enemy_wins():
    s = build(unit("v", 0, (0, 0), "Assassin", loadout="assault"), unit("b", 1, (5, 0), "Bleu", pv=1))
    answer(s, "shoot:b", [1] * 9)
    assert RULES.pending(s) is None and RULES.outcome(s).winner == 0


def test_invariants_catch_shared_tiles_and_bad_pv():
    s = build(unit("a", 0, (0, 0)), unit("b", 1, (10, 0)))
    assert RULES.check_invariants(s) == []
    s.figure("b").tile = (0, 0)
    s.figure("a").pv = 9
    problems = RULES.check_invariants(s)
    assert any("shares" in p for p in problems) and any("PV 9" in p for p in problems)


def test_invariants_catch_statuses_outliving_their_window():
    s = build(unit("a", 0, (0, 0)), unit("b", 1, (10, 0)), turn=5)
    s.figure("a").add_status("emp", [4])
    assert any("outlived" in p for p in RULES.check_invariants(s))


def test_end_of_turn_removes_statuses_whose_last_turn_has_passed():
    s = build(unit("a", 0, (0, 0)), unit("b", 1, (10, 0)), turn=4)
    a = s.figure("a")
    a.add_status("emp", [5, 6])
    a.add_status("lucky", [4])
    end_turn(s)
    assert a.statuses == {"emp": [5, 6]}
    s.turn = 6
    end_turn(s)
    assert a.statuses == {}


def test_a_roster_with_an_unknown_rank_is_refused_with_a_clear_message():
    from game.errors import RulesError
    bf = Battlefield.open_ground(10, 10)
    with pytest.raises(RulesError, match="unknown rank 'Général'"):
        RULES.new_state(bf, [Army(0, "A", [{"rank": "Général"}]), Army(1, "B", [{}])], 12)


@pytest.mark.parametrize("spec, message", [
    ({"loadout": "grenadier"}, "unknown loadout 'grenadier'"),
    ({"shooting": "sword"}, "'sword' is not a shooting weapon"),
    ({"blade": "rifle"}, "'rifle' is not a blade weapon"),
    ({"shooting": None}, "exactly one shooting weapon"),
])
def test_a_loadout_outside_the_arsenal_limits_is_refused_with_a_clear_message(spec, message):
    from game.errors import RulesError
    bf = Battlefield.open_ground(10, 10)
    with pytest.raises(RulesError, match=message):
        RULES.new_state(bf, [Army(0, "A", [spec]), Army(1, "B", [{}])], 12)


def test_default_rosters_spawn_on_the_map_spawn_zones():
    bf = Battlefield.open_ground(24, 24)
    bf.spawn = {0: [(1, y) for y in range(24)], 1: [(22, y) for y in range(24)]}
    s = RULES.new_state(bf, RULES.default_armies(bf), 12)
    assert {f.tile[0] for f in s.figures if f.side == 0} == {1}
    assert {f.tile[0] for f in s.figures if f.side == 1} == {22}
    assert len(s.figures) == 10 and RULES.check_invariants(s) == []
