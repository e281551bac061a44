"""Mordgrave's tactical AI: a legal answer to every decision kind, the Leader phases played through the
command bubbles (group activation, outnumbering, charges), and the framework's choices: the hurt target
first, a wounded figure out of the enemy's sight; a paying fight taken at the normal level, a control zone
left to the friend who holds it; the rout weighed (a fight that would rout the enemy pressed, the Chief kept
out of one whose loss would put its own warband to the test)."""
from __future__ import annotations

from game.engine import space
from game.engine.battlefield import Battlefield, MapObject
from game.engine.match import Match
from game.engine.protocol import Army
from game.rules.mordgrave import ai as ai_module
from game.rules.mordgrave.ai import MordgraveAI
from game.rules.mordgrave.steps import DoubleShot, FollowUp, Melee

from tests.rules.mordgrave_helpers import RULES, answer, entry, keys, match_state


def observed(st, seed: int = 0, level: str = "hard"):
    """The AI at ``level`` and the observation of the side whose decision is pending."""
    m = Match(st.battlefield, RULES, [], seed)
    m.state = st
    return MordgraveAI(seed, level), m.observe(RULES.pending(st).side)


def ai_answer(st, seed: int = 0, level: str = "hard") -> str:
    """The AI's answer to the pending decision, from the observation of the side that decides, at the level
    that plays its scores as they are (normal hesitates between close ones)."""
    d = RULES.pending(st)
    ai, observation = observed(st, seed, level)
    key = ai.choose(observation, d)
    assert d.option(key) is not None, (d.kind, key)
    return key


def test_the_ai_rolls_for_initiative():
    st = match_state([entry("C", (0, 0), "chief")], [entry("E", (19, 19), "chief")])
    assert ai_answer(st) == "roll"


def test_the_ai_takes_first_the_leader_with_the_most_friends_in_its_bubble():
    st = match_state([entry("C", (2, 2), "chief"), entry("P", (10, 10), "champion"), entry("H1", (11, 10)),
                      entry("H2", (10, 11))], [entry("E", (19, 19), "chief")])
    answer(st, "roll", [15])
    assert RULES.pending(st).kind == "leader"
    assert ai_answer(st) == "lead:P"


def test_the_ai_activates_the_figures_of_the_bubble_and_moves_them_all_before_any_fights():
    st = match_state([entry("C", (5, 5), "chief", main="sword"), entry("H1", (6, 7), main="sword"),
                      entry("H2", (4, 7), main="sword")], [entry("E", (5, 9), "chief")])
    answer(st, "roll", [15])
    first = ai_answer(st)
    assert first != "pass"
    answer(st, first)
    mover = RULES.pending(st).figure
    move = ai_answer(st)
    assert move.startswith("move:")
    answer(st, move)
    assert ai_answer(st) == "switch"          # the others move in first, for the outnumbering
    answer(st, "switch")
    assert ai_answer(st) != f"activate:{mover}"


def test_the_ai_charges_into_contact_and_then_fights():
    st = match_state([entry("A", (2, 5), "chief", main="two_handed_axe")], [entry("B", (5, 5), "chief")])
    answer(st, "roll", [15])
    move = ai_answer(st)
    answer(st, move)
    assert st.figure("A").charges == ["B"]
    assert ai_answer(st) == "fight:B"


def test_the_ai_shoots_a_target_in_range():
    st = match_state([entry("S", (0, 5), "chief", ranged="bow")], [entry("T", (10, 5), "chief")],
                     Battlefield.open_ground(30, 12))
    answer(st, "roll", [15])
    answer(st, "stay")
    assert ai_answer(st) == "shoot:bow:T"


def test_the_ai_aims_the_blunderbuss_at_enemies_not_at_friends():
    st = match_state([entry("O", (0, 5), "chief", ranged="orc_blunderbuss", faction="mountain_orcs"),
                      entry("F", (3, 3), faction="mountain_orcs")],
                     [entry("T", (4, 6), "chief", faction="mountain_orcs")])
    st.figure("F").activated = st.figure("F").done = True
    answer(st, "roll", [15])
    answer(st, "stay")
    key = ai_answer(st)
    assert key == "breath:orc_blunderbuss:4,6"


def test_the_ai_declares_a_combat_mode_and_answers_the_other_side_s_questions():
    st = match_state([entry("A", (5, 5), "chief", main="sword", modes=True)],
                     [entry("B", (6, 5), "chief", main="sword", modes=True)])
    answer(st, "roll", [15])
    answer(st, "stay")
    answer(st, "fight:B")
    assert RULES.pending(st).kind == "mode" and isinstance(next(st.steps.upcoming()), Melee)
    answer(st, ai_answer(st))
    d = RULES.pending(st)
    assert (d.kind, d.side) == ("mode", 1)
    answer(st, ai_answer(st, 1), [10, 12])
    follow = RULES.pending(st)
    assert follow.kind == "follow" and follow.side == 1 and isinstance(next(st.steps.upcoming()), FollowUp)
    assert ai_answer(st, 1) == "follow"


def test_the_ai_aims_the_second_shot_of_a_double_shot():
    st = match_state([entry("S", (0, 5), "chief", ranged="elven_repeating_crossbow", faction="dark_elves")],
                     [entry("T", (5, 5), "chief", faction="dark_elves"),
                      entry("U", (5, 8), faction="dark_elves")])
    answer(st, "roll", [15])
    answer(st, "stay")
    answer(st, "double:elven_repeating_crossbow:T", [1, 20])
    assert RULES.pending(st).kind == "second_shot" and isinstance(next(st.steps.upcoming()), DoubleShot)
    assert ai_answer(st) in ("shoot2:T", "shoot2:U")


def test_the_same_seed_gives_the_same_answers():
    st = match_state([entry("C", (5, 5), "chief", main="sword"), entry("H1", (6, 7), main="sword")],
                     [entry("E", (5, 12), "chief")])
    answer(st, "roll", [15])
    assert ai_answer(st, 3) == ai_answer(st, 3)


def test_the_ai_shoots_the_hurt_leader_a_wound_puts_out_of_action():
    """Two Leaders of Vitality 2 in range: the one left with 1 goes Out on a wound, so it is the one shot."""
    for hurt in ("T", "U"):
        st = match_state([entry("S", (0, 5), "chief", ranged="bow")],
                         [entry("T", (10, 3), "chief", Vit=2), entry("U", (10, 7), "champion", Vit=2)],
                         Battlefield.open_ground(30, 12))
        st.figure(hurt).vit = 1
        answer(st, "roll", [15])
        answer(st, "stay")
        assert ai_answer(st) == f"shoot:bow:{hurt}"


def test_a_wounded_swordsman_before_two_bows_moves_out_of_their_sight():
    bf = Battlefield.open_ground(30, 20)
    bf.blocks_move[10:16, 8] = bf.blocks_sight[10:16, 8] = True
    st = match_state([entry("C", (6, 8), "chief", main="sword", Vit=2)],
                     [entry("E", (24, 6), "chief", ranged="bow"), entry("F", (24, 11), ranged="bow")], bf)
    st.figure("C").vit = 1
    answer(st, "roll", [15])
    tile = RULES.pending(st).option(ai_answer(st)).tile
    assert not any(space.within(bow, tile, 18) and space.line_of_sight(bf, bow, tile) for bow in ((24, 6), (24, 11)))


def test_every_decision_kind_of_a_whole_game_gets_a_legal_answer():
    bf = Battlefield.open_ground(20, 12)
    bf.spawn = {0: [(1, y) for y in range(2, 10)], 1: [(18, y) for y in range(2, 10)]}
    seen = set()
    for seed in range(2):
        m = Match(bf, RULES, [Army(0, "a", RULES.default_armies(bf)[0].figures),
                              Army(1, "b", RULES.default_armies(bf)[1].figures)], seed, max_turns=5)
        players = {0: RULES.tactical_ai(seed), 1: RULES.tactical_ai(seed + 9)}
        while m.pending is not None:
            seen.add(m.pending.kind)
            key = m.ask(players[m.pending.side])
            assert m.pending.option(key) is not None
            m.answer(key)
    assert {"initiative", "leader", "activate", "action"} <= seen


def test_the_normal_level_takes_a_fight_that_pays_even_when_it_is_worth_less_than_its_margin():
    """A fight worth a little more than ending the activation is still taken at every seed: the battle has
    ten turns, and a blow not struck is one the enemy strikes first. (Three figures a side, so that no
    rout hangs on this fight.)"""
    for seed in range(12):
        st = match_state([entry("A", (5, 5), "chief", main="sword", second="dagger"), entry("A2", (0, 19)),
                          entry("A3", (1, 19))],
                         [entry("B", (6, 5), "chief", main="sword"), entry("B2", (19, 19)), entry("B3", (18, 19))])
        answer(st, "roll", [15])
        answer(st, "stay")
        ai = MordgraveAI(seed, "normal")
        a, b = st.figure("A"), st.figure("B")
        assert 0 < ai.fight_value(st, a, b, a, False, False, {}) < ai.level.margin * ai.SCALE
        assert ai_answer(st, seed, "normal") == "fight:B"


def zone_ground() -> Battlefield:
    bf = Battlefield.open_ground(20, 20)
    bf.objects = [MapObject("objective", "square", ((10, 10), (11, 10)), {})]
    return bf


def test_a_figure_goes_for_the_control_zone_no_friend_holds_as_the_last_turn_nears():
    st = match_state([entry("A", (8, 13), "chief", main="sword")],
                     [entry("E", (13, 15), "chief", main="sword")], zone_ground())
    answer(st, "roll", [15])
    st.turn = 8
    tile = RULES.pending(st).option(ai_answer(st)).tile
    assert tile in ((10, 10), (11, 10))


def test_a_figure_leaves_the_control_zone_a_friend_holds_to_it_and_charges_instead():
    """A control zone goes to the side with more figures on it: a second figure there adds nothing."""
    st = match_state([entry("A", (8, 13), "chief", main="sword"), entry("F", (10, 10), main="sword")],
                     [entry("E", (13, 15), "chief", main="sword")], zone_ground())
    st.figure("F").activated = st.figure("F").done = True
    answer(st, "roll", [15])
    st.turn = 8
    tile = RULES.pending(st).option(ai_answer(st)).tile
    assert space.adjacent(tile, st.figure("E").tile)



def skirmish(a_spec: dict, b_spec: dict, ours: int, theirs: int, out: tuple = ()):
    """Our Chief A in contact with the enemy henchman B, their friends far away (``ours`` and ``theirs``
    figures a side); the figures of ``out`` Out of action, as many on each side so that the points are
    level. A has taken its first action (Stay put): fight B or end."""
    st = match_state([entry("A", (5, 5), "chief", **a_spec)] + [entry(f"A{i}", (i, 19)) for i in range(2, ours + 1)],
                     [entry("B", (6, 5), **b_spec), entry("BC", (19, 19), "chief")]
                     + [entry(f"B{i}", (19 - i, 19)) for i in range(3, theirs + 1)])
    for fid in out:
        st.figure(fid).out, st.figure(fid).vit = True, 0
    answer(st, "roll", [15])
    answer(st, "stay")
    return st


def test_hard_presses_a_fight_that_would_rout_the_enemy_and_lets_the_same_fight_go_otherwise():
    """Sword against sword, a Chief risking more than the henchman: not worth it at face value; but with one
    of the four enemies already Out of action, putting B out leaves half their warband down (a rout test,
    13/20 to hold, at the end of the turn). Our side has five, one of them out: losing A leaves it short of
    half."""
    sword = {"main": "sword"}
    assert ai_answer(skirmish(sword, sword, 5, 5, out=("A5", "B5"))) == "end"
    assert ai_answer(skirmish(sword, sword, 5, 4, out=("A5", "B4"))) == "fight:B"


def test_hard_keeps_its_chief_out_of_a_fight_whose_loss_would_put_its_warband_to_the_rout_test():
    """A two-handed axe against a dagger pays at face value; with one of our four already Out of action,
    losing the Chief too would leave half the warband down, to a test at 11 for want of a Chief."""
    axe, dagger = {"main": "two_handed_axe"}, {"main": "dagger"}
    assert ai_answer(skirmish(axe, dagger, 5, 5, out=("A5", "B5"))) == "fight:B"
    assert ai_answer(skirmish(axe, dagger, 4, 5, out=("A4", "B5"))) == "end"


def test_a_figure_back_for_its_second_action_hands_over_only_while_a_friend_waits_for_its_first(monkeypatch):
    """Handing over brings back a figure of the phase that has yet to act; once every one has taken its first
    action it would hand the phase back and forth between the same figures for ever, so it is then never the
    answer, however dangerous the figure's tile (made extreme here: every other option scores far below
    any fixed floor)."""
    monkeypatch.setattr(ai_module, "EXPOSURE", 1e6)
    st = match_state([entry("C", (5, 5), "chief", main="sword"), entry("H", (6, 7), main="sword")],
                     [entry("E", (5, 4), "chief", main="two_handed_axe")])
    answer(st, "roll", [15])
    for key in ("activate:H", "stay", "switch", "activate:C", "stay"):
        answer(st, key)
    assert "switch" in keys(st)
    assert ai_answer(st) != "switch"


def test_the_normal_level_closes_in_on_a_distant_enemy_at_every_seed_rather_than_wander():
    """A pas nearer is worth about the normal level's margin: among the tiles of its Move (5 pas), a lone
    swordsman far from the enemy ends within about a pas of the nearest it can reach, whatever tile its own
    generator draws among those its margin takes as alike."""
    for seed in range(12):
        st = match_state([entry("A", (2, 10), "chief", main="sword")], [entry("E", (19, 10), "chief", main="sword")])
        answer(st, "roll", [15])
        tile = RULES.pending(st).option(ai_answer(st, seed, "normal")).tile
        assert space.distance(tile, (19, 10)) < 13.1         # the nearest it can reach: 12


def test_the_normal_level_never_takes_a_losing_fight_as_alike_to_holding_back():
    """Its margin makes close options alike, but a fight that costs more than it gains (sword against
    sword and dagger, or against sword and shield) is never taken at any seed instead of ending the
    activation. (Three figures a side, so that no rout hangs on this fight.)"""
    for second in ({"second": "dagger"}, {"shield": "shield"}):
        for seed in range(12):
            st = match_state([entry("A", (5, 5), "chief", main="sword"), entry("A2", (0, 19)), entry("A3", (1, 19))],
                             [entry("B", (6, 5), "chief", main="sword", **second), entry("B2", (19, 19)),
                              entry("B3", (18, 19))])
            answer(st, "roll", [15])
            answer(st, "stay")
            ai = MordgraveAI(seed, "normal")
            a, b = st.figure("A"), st.figure("B")
            assert -ai.alike < ai.fight_value(st, a, b, a, False, False, {}) < 0
            assert ai_answer(st, seed, "normal") == "end", (second, seed)


def exit_ground() -> Battlefield:
    """Open ground whose west edge is side 0's exit."""
    bf = Battlefield.open_ground(20, 20)
    bf.objects = [MapObject("objective", "edge", tuple((0, y) for y in range(20)), {"kind": "exit", "side": "0"})]
    return bf


def test_a_figure_whose_zone_alone_puts_its_side_ahead_stays_on_it_in_the_last_turn():
    """Its own holding is the lead: counted as won, it would make the figure careless of the zone (a side
    ahead keeps what it has) and walk off it toward the enemy, losing the lead it had."""
    for level in ("normal", "hard"):
        for seed in range(6):
            st = match_state([entry("A", (10, 10), "chief", main="sword")],
                             [entry("E", (14, 13), "chief", main="sword")], zone_ground())
            answer(st, "roll", [15])
            st.turn = st.max_turns
            option = RULES.pending(st).option(ai_answer(st, seed, level))
            assert option.action == "stay" or option.tile in ((10, 10), (11, 10)), (level, seed, option.key)


def test_in_the_last_turn_a_figure_a_move_and_a_run_from_its_exit_ends_its_activation_on_it():
    """The exit scores only for a figure standing on it when the battle ends: a move that stops where a run
    reaches it is worth the exit, rather than a few pas toward an enemy it can no longer fight."""
    for level in ("normal", "hard"):
        for seed in range(6):
            st = match_state([entry("A", (7, 5), "chief", main="sword")],
                             [entry("E", (17, 5), "chief", main="sword")], exit_ground())
            answer(st, "roll", [15])
            st.turn = st.max_turns
            answer(st, ai_answer(st, seed, level))
            answer(st, ai_answer(st, seed, level))
            assert st.figure("A").tile[0] == 0, (level, seed, st.figure("A").tile)


def test_a_side_ahead_by_a_figure_still_values_an_objective_as_a_figure_taken():
    """Ahead, a side keeps what it has and fights less boldly; but a point held is as good as a point taken,
    so the score's caution does not cheapen the exit (the lead can be lost in one unlucky fight)."""
    st = match_state([entry("A", (3, 5), "chief", main="sword"), entry("A2", (2, 18)), entry("A3", (3, 18))],
                     [entry("E", (12, 5), "chief", main="sword"), entry("B2", (18, 18)), entry("B3", (17, 18))],
                     exit_ground())
    st.figure("B3").out, st.figure("B3").vit = True, 0
    answer(st, "roll", [15])
    st.turn = st.max_turns
    ai, observation = observed(st)
    sight = ai_module.Sight(st, st.figure("A"), ai, observation)
    assert sight.risk > 1.0                                         # ahead: the score asks for caution
    assert sight.objectives.pull((0, 5)) == ai_module.EFFECT_VALUE["out"]
