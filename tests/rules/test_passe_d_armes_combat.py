"""Passe d'armes combat on the module's own steps with stated dice: the vectors of rules/passe_d_armes.md
7.2 and 7.3 (P1-P18, M5-M7), run as a match would run them."""
from __future__ import annotations

from game.engine.battlefield import Cover
from game.rules.passe_d_armes.flow import Act, Attack, BreakFree, Group, StartPasse
from game.rules.passe_d_armes.effects import Game, do_move
from game.rules.passe_d_armes.rolls import Monitor

from .passe_d_armes_helpers import Driver, field, fighter, louis, state_of


def dice_faces(driver):
    return [(e.data["who"], e.data["faces"][0], e.data["margin"], e.data["exploit"]) for e in driver.of("dice")]


# --- initiative (5.1) ---------------------------------------------------------------------

def test_p1_exploits_first_then_margins_and_a_tie_is_a_simultaneous_group():
    st = state_of(fighter("fencer", 0, (1, 1)), fighter("shooter", 0, (1, 3)),
                  fighter("brawler", 1, (9, 1)), fighter("guard", 1, (9, 3)), turn=0)
    st.turn = 1         # past the opening question
    d = Driver(st, [1, 4, 1, 2]).run(StartPasse())
    assert st.initiative == {"fencer": [6, True], "shooter": [2, False], "brawler": [2, True], "guard": [2, False]}
    assert st.order == [["fencer"], ["brawler"], ["shooter", "guard"]]
    assert st.phase == "declarations"
    assert d.waiting.kind == "declare" and d.waiting.secret and d.waiting.figure == "shooter"


def test_s14_tied_initiative_with_the_same_exploit_status_acts_together():
    st = state_of(fighter("guard", 0, (1, 1), fid="g0"), fighter("guard", 1, (9, 1), fid="g1"), turn=0)
    st.turn = 1
    Driver(st, [4, 4]).run(StartPasse())
    assert st.order == [["g0", "g1"]] and st.phase == "activations"


def test_p17_knocked_down_adds_two_to_the_next_initiative():
    st = state_of(fighter("guard", 1, (5, 5), knocked_down=True), fighter("brawler", 0, (4, 5)), turn=0)
    st.turn = 1
    Driver(st, [3, 5]).run(StartPasse())
    assert st.initiative["guard"] == [-1, False]


# --- attacks, defence and exploits (5.2-5.7) --------------------------------------------------------

def test_p2_a_rifle_shot_at_a_dodging_guard_marks_seven_traumas():
    st = state_of(fighter("shooter", 0, (1, 1)), fighter("guard", 1, (9, 1)))
    d = Driver(st, [3, 4], ["dodge"]).run(Attack("shooter", "guard"))
    assert d.decisions[0].kind == "defence" and d.decisions[0].side == 1 and d.decisions[0].secret
    assert dice_faces(d) == [("shooter", 3, 5, False), ("guard", 4, 0, False)]
    guard = st.figure("guard")
    assert guard.monitor.text() == "XXXXXXX..." and guard.modifier() == -3
    assert d.of("attack")[0].data["wounds"] == 7 and d.of("attack")[0].data["hit"]


def test_p3_a_defence_exploit_wins_and_grants_a_riposte_p3b_the_pistol_riposte_wounds_the_shooter():
    st = state_of(fighter("shooter", 0, (1, 1)), fighter("guard", 1, (9, 1)))
    d = Driver(st, [6, 1, 2, 5], ["dodge", "attack:shooter", "dodge"]).run(Attack("shooter", "guard"))
    assert dice_faces(d)[:2] == [("shooter", 6, 2, False), ("guard", 1, 3, True)]
    assert st.figure("guard").monitor == Monitor()
    riposte = d.decisions[1]
    assert riposte.kind == "riposte" and riposte.side == 1
    assert {o.key for o in riposte.options} == {"attack:shooter", "no_riposte"}
    assert dice_faces(d)[2:] == [("guard", 2, 2, False), ("shooter", 5, 1, False)]
    assert st.figure("shooter").monitor.text() == "XXXXX....."
    assert [e.data["riposte"] for e in d.of("assault")] == [False, True]


def test_p4_tied_margins_go_to_the_attacker():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("guard", 1, (5, 4)))
    Driver(st, [6, 2], ["dodge"]).run(Attack("fencer", "guard"))
    assert st.figure("guard").monitor.text() == "XX........"


def test_p5_absorbing_takes_the_difference_of_margins_weapon_and_protection():
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("guard", 1, (5, 4)))
    Driver(st, [2, 3], ["absorb"]).run(Attack("brawler", "guard"))
    assert st.figure("guard").monitor.text() == "//........"


def test_p6_absorbing_costs_at_least_one_wound_and_a_defence_exploit_still_ripostes():
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("guard", 1, (5, 4)))
    d = Driver(st, [4, 1], ["absorb"]).run(Attack("brawler", "guard"))
    assert st.figure("guard").monitor.text() == "/........."
    assert d.waiting.kind == "riposte" and d.waiting.figure == "guard"


def test_p7_two_failed_rolls_tie_and_the_attacker_strikes_with_its_index():
    st = state_of(fighter("guard", 0, (4, 4), in_hand="club"), fighter("shooter", 1, (5, 4)))
    Driver(st, [8, 10], ["dodge"]).run(Attack("guard", "shooter"))
    assert st.figure("shooter").monitor.text() == "//........"


def test_p8_an_attack_exploit_kept_then_spent_to_ignore_protection():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("brawler", 1, (5, 4)))
    d = Driver(st, [1, 4], ["absorb", "keep", "ignore_protection"]).run(Attack("fencer", "brawler"))
    assert [x.kind for x in d.decisions] == ["defence", "exploit", "exploit"]
    assert {o.key for o in d.decisions[1].options} == {"force:dodge", "keep"}
    assert st.figure("brawler").monitor.text() == "XXXXXX...."
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("brawler", 1, (5, 4)))
    Driver(st, [1, 4], ["absorb", "keep", "unused"]).run(Attack("fencer", "brawler"))
    assert st.figure("brawler").monitor.text() == "XXXX......"


def test_p9_a_forced_reroll_replaces_the_defence_exploit_and_its_riposte():
    st = state_of(fighter("shooter", 0, (4, 4), in_hand="knife"), fighter("fencer", 1, (5, 4)))
    d = Driver(st, [1, 1, 8], ["dodge", "keep", "reroll"]).run(Attack("shooter", "fencer"))
    assert dice_faces(d) == [("shooter", 1, 4, True), ("fencer", 1, 6, True), ("fencer", 8, -1, False)]
    assert st.figure("fencer").monitor.text() == "XXXX......"
    assert d.waiting is None and not any(x.kind == "riposte" for x in d.decisions)


def test_p10_an_attack_exploit_chooses_the_defence_in_the_defenders_place():
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("shooter", 1, (5, 4)))
    d = Driver(st, [1, 5], ["dodge", "force:absorb"]).run(Attack("brawler", "shooter"))
    assert dice_faces(d)[1] == ("shooter", 5, -2, False)
    assert d.of("dice")[1].data["purpose"] == "absorb"
    assert st.figure("shooter").monitor.text() == "///////..."


def test_p14_cover_adds_to_the_tir_roll():
    for cover, margin in ((Cover.HEAVY, 3), (Cover.LIGHT, 4), (Cover.NONE, 5)):
        bf = field()
        bf.cover[1, 9] = int(cover)
        st = state_of(fighter("shooter", 0, (1, 1)), fighter("guard", 1, (9, 1)), bf=bf)
        d = Driver(st, [3, 10], ["dodge"]).run(Attack("shooter", "guard"))
        assert dice_faces(d)[0][2] == margin


# --- manoeuvres (5.3) -----------------------------------------------------------------------

def test_p12_louis_disarms_the_guard_and_the_pistol_drops_beside_it():
    st = state_of(louis(0, (4, 4)), fighter("guard", 1, (5, 4)))
    d = Driver(st, [2, 4], ["dodge"]).run(Attack("louis", "guard", "desarmement"))
    assert dice_faces(d) == [("louis", 2, 2, False), ("guard", 4, 0, False)]
    drop = d.waiting
    assert drop.kind == "drop" and drop.side == 0
    assert all(max(abs(o.tile[0] - 5), abs(o.tile[1] - 4)) == 1 and o.tile != (4, 4) for o in drop.options)
    d.answers = [drop.options[0].key]
    st.steps.resume(drop.options[0], Game(st, d.dice), lambda g: False)
    guard = st.figure("guard")
    assert guard.in_hand == "hands" and "pistol" not in guard.weapons
    assert [(i.weapon, i.tile) for i in st.items] == [("pistol", drop.options[0].tile)]


def test_p12b_a_manoeuvre_exploit_succeeds_without_a_defence_roll_and_without_riposte():
    st = state_of(louis(0, (4, 4)), fighter("guard", 1, (5, 4)))
    d = Driver(st, [1], ["dodge"]).run(Attack("louis", "guard", "desarmement"))
    assert dice_faces(d) == [("louis", 1, 3, True)]
    assert d.waiting.kind == "drop"
    st.steps.resume(d.waiting.options[0], Game(st, d.dice), lambda g: False)
    assert st.steps.waiting is None and st.figure("guard").in_hand == "hands"     # disarmed, and no riposte


def test_p12c_a_lost_manoeuvre_has_no_effect():
    st = state_of(louis(0, (4, 4)), fighter("guard", 1, (5, 4)))
    d = Driver(st, [5, 3], ["dodge"]).run(Attack("louis", "guard", "desarmement"))
    assert dice_faces(d) == [("louis", 5, -1, False), ("guard", 3, 1, False)]
    assert d.waiting is None and st.figure("guard").in_hand == "pistol"
    assert d.of("manoeuvre")[0].data["success"] is False


def test_p15_a_feint_adds_three_to_the_next_defence_roll():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("brawler", 1, (5, 4)), fighter("guard", 0, (6, 4)))
    d = Driver(st, [3, 2], ["dodge"]).run(Attack("fencer", "brawler", "feinte"))
    assert dice_faces(d) == [("fencer", 3, 4, False), ("brawler", 2, 1, False)]
    brawler = st.figure("brawler")
    assert brawler.feinted_until == 2
    d = Driver(st, [10, 2], ["dodge"]).run(Attack("guard", "brawler"))
    assert dice_faces(d)[1] == ("brawler", 2, -2, False)
    assert brawler.feinted_until == 0          # spent by that roll


def test_p16_a_hold_then_breaking_free_p16b_fails_p16c_succeeds():
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("shooter", 1, (5, 4)))
    d = Driver(st, [2, 5], ["dodge"]).run(Attack("brawler", "shooter", "prise"))
    assert dice_faces(d) == [("brawler", 2, 2, False), ("shooter", 5, 1, False)]
    shooter = st.figure("shooter")
    assert shooter.held_by == "brawler"
    st.turn = 2
    d = Driver(st, [1, 6]).run(BreakFree("shooter"))
    assert dice_faces(d) == [("shooter", 1, -1, False), ("brawler", 6, 0, False)]
    assert shooter.held_by == "brawler"
    d = Driver(st, [1, 9]).run(BreakFree("shooter"))
    assert dice_faces(d) == [("shooter", 1, -1, False), ("brawler", 9, -3, False)]
    assert shooter.held_by is None


def test_p17_a_throw_exploit_places_the_target_beside_the_thrower_knocked_down():
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("guard", 1, (5, 4)))
    d = Driver(st, [1], ["dodge"]).run(Attack("brawler", "guard", "projection"))
    assert dice_faces(d) == [("brawler", 1, 3, True)]
    landing = d.waiting
    assert landing.kind == "landing"
    spot = next(o for o in landing.options if o.tile == (3, 4))
    st.steps.resume(spot, Game(st, d.dice), lambda g: False)
    guard = st.figure("guard")
    assert guard.tile == (3, 4) and guard.knocked_down


def test_a_held_combatant_may_attack_its_holder_only():
    from game.rules.passe_d_armes.options import attack_options
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("fencer", 0, (6, 4)), fighter("shooter", 1, (5, 4)))
    st.figure("shooter").held_by = "brawler"
    targets = {o.target for o in attack_options(st, st.figure("shooter"), (5, 4))}
    assert targets == {"brawler"}


# --- simultaneous groups (4.3) ----------------------------------------------------------------

def test_p18_a_simultaneous_group_holds_every_wound_back_until_all_have_acted():
    st = state_of(fighter("shooter", 0, (1, 1)), fighter("guard", 1, (9, 1)))
    d = Driver(st, [3, 4, 2, 2], ["attack:guard", "dodge", "end", "attack:shooter", "absorb", "end"])
    d.run(Group(["shooter", "guard"], next_side=0))
    assert [x.figure for x in d.decisions if x.kind == "action"][0] == "shooter"
    assert dice_faces(d) == [("shooter", 3, 5, False), ("guard", 4, 0, False), ("guard", 2, 2, False),
                             ("shooter", 2, 1, False)]
    assert st.figure("guard").monitor.text() == "XXXXXXX..."
    assert st.figure("shooter").monitor.text() == "XXXX......"
    assert st.buffer is None
    kinds = d.kinds()
    assert kinds.index("group_resolved") < kinds.index("damaged")


# --- helpless combatants and hazards (5.13, 5.16) ------------------------------------------------

def test_m5_a_ko_combatant_does_not_defend_and_its_shocks_count_as_traumas():
    st = state_of(fighter("guard", 0, (4, 4), in_hand="club"), fighter("shooter", 1, (5, 4), monitor=Monitor(S=10)))
    d = Driver(st, [7]).run(Attack("guard", "shooter"))
    assert not any(x.kind == "defence" for x in d.decisions)
    assert dice_faces(d) == [("guard", 7, -3, False)]
    assert st.figure("shooter").monitor.text() == "XX////////"


def test_m6_a_failed_hazard_roll_costs_its_wounds_less_protection():
    bf = field()
    bf.hazard[4, 5] = 1
    st = state_of(fighter("fencer", 0, (4, 4)), bf=bf)
    game = Game(st, Driver(st, [8]).dice)
    do_move(game, st.figure("fencer"), ((5, 4),))
    assert st.figure("fencer").monitor.text() == "X........."
    assert [e.data["avoided"] for e in game.events if e.kind == "hazard"] == [False]


def test_m7_a_successful_hazard_roll_avoids_it():
    bf = field()
    bf.hazard[4, 5] = 1
    st = state_of(fighter("fencer", 0, (4, 4)), bf=bf)
    game = Game(st, Driver(st, [7]).dice)
    do_move(game, st.figure("fencer"), ((5, 4), (6, 4)))
    assert st.figure("fencer").monitor == Monitor() and st.figure("fencer").tile == (6, 4)


def test_a_helpless_combatant_fails_its_hazard_roll_without_a_die():
    bf = field()
    bf.hazard[4, 3] = 4         # a drop: 3 shock, protection counts
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("guard", 1, (5, 4), monitor=Monitor(S=10)), bf=bf)
    d = Driver(st, [], ["landing:3,4"]).run(Attack("brawler", "guard", "projection"))
    assert [x.kind for x in d.decisions] == ["landing"]        # no defence, no roll: it succeeds (5.16)
    assert dice_faces(d) == []
    guard = st.figure("guard")
    assert guard.tile == (3, 4) and not guard.knocked_down
    assert guard.monitor.text() == "X/////////"           # 3 - 2 = 1 shock, counted as a trauma


def test_a_declared_plan_is_carried_out_without_asking_while_it_stays_legal():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("guard", 1, (8, 4)))
    st.declarations["fencer"] = ["move:7,4", "attack:guard"]
    d = Driver(st, [5, 5], ["dodge"]).run(Act("fencer"))
    assert st.figure("fencer").tile == (7, 4)
    assert [x.kind for x in d.decisions] == ["defence"]
    assert "activation_end" in d.kinds()
