"""The KOLAPS tactical AI: a legal answer to every decision kind, the §3.3 bidding rule, and the choices of the
framework's expected values (free kills, no friendly fire, falling back, grenades), from its side's view."""
from __future__ import annotations

import random
from pathlib import Path

from game.engine import space
from game.engine.battlefield import Battlefield, MapObject
from game.engine.match import Match, Observation
from game.engine.protocol import canonical
from game.engine.save import new_match
from game.rules.kolaps.ai import KolapsAI
from game.rules.kolaps.options import AMBUSH_ACTIONS
from game.rules.kolaps.steps import (Activate, Activation, AfterAttack, Attack, Hit, Incident, KnifeWindow, Reactions,
                                     bid_decision)

from tests.rules.kolaps_helpers import RULES, answer_step, armies, ctx_for, fig, make_state, run_steps


def match_on(state) -> Match:
    m = Match(state.bf, RULES, armies([fig("X", "trooper", (0, 0))], [fig("Y", "trooper", (1, 5))]), seed=0)
    m.state = state
    return m


def legal(state, decision=None, level="hard") -> str:
    """The AI's answer at the level that plays its scores as they are (normal hesitates between close ones)."""
    decision = decision or state.steps.waiting
    key = KolapsAI(0, level).choose(match_on(state).observe(decision.side), decision)
    assert decision.option(key) is not None, (decision.kind, key)
    return key


def duel(**b1):
    return make_state([fig("A1", "trooper", (0, 5), morale=5, offensive=True)],
                      [fig("B1", "trooper", (8, 5), morale=5, offensive=True, **b1)])


def test_tv33_ai_bids_its_attack_opportunities():
    side0 = [fig(f"A{i}", "trooper", (2, 2 * i), morale=m) for i, m in enumerate((5, 5, 5, 3, 2))]
    side1 = [fig(f"B{i}", "trooper", (12, 2 * i), morale=5) for i in range(5)]
    state = make_state(side0, side1)
    ctx = ctx_for(state, [])
    for high, expected in ((2, "bid:3"), (4, "bid:4"), (None, "bid:3")):
        state.auction = {"E": {0: 4, 1: 5}, "high": high, "high_bidder": 1, "last": {}, "barred": None}
        assert legal(state, bid_decision(ctx, 0)) == expected


def test_ai_bids_a_character_with_only_hopeless_shots_only_to_lie_in_ambush_where_its_side_can_wait():
    """An attacker's ticked character that does not attack breaches (§3.6): a trooper whose one target is a
    veteran in heavy cover at twice its range (5D6) is not bid for in the open; behind cover it may declare an
    ambush (§5.15), which keeps the commitment, but an ambush waits for the enemy to come: its side bids for
    it a figure ahead on points, not level, when it must take points before the limit."""
    for ahead, cover in ((True, False), (True, True), (False, True)):
        side1 = [fig("B1", "veteran", (26, 5), morale=5), fig("B2", "trooper", (30, 15), morale=5)]
        state = make_state([fig("A1", "trooper", (2, 5), morale=5)], side1, turn=3)
        state.bf.cover[5, 26] = 2
        if cover:
            state.bf.cover[5, 3] = 1
        state.chars["B2"].in_play = not ahead
        state.auction = {"E": {0: 1, 1: 1}, "high": None, "high_bidder": None, "last": {}, "barred": None}
        assert legal(state, bid_decision(ctx_for(state, []), 0)) == ("bid:1" if ahead and cover else "bid:0")


def test_ai_barred_announces_every_eligible_character_and_the_free_attacker_only_its_opportunities():
    """§3.3 AI bidding: a barred AI announces E; its attacker opponent risks a breach, so it announces U."""
    side0 = [fig(f"A{i}", "trooper", (2, 2 * i), morale=m) for i, m in enumerate((5, 5, 5, 3, 2))]
    side1 = [fig(f"B{i}", "trooper", (38, 2 * i), morale=5) for i in range(3)] + \
            [fig(f"B{i}", "trooper", (12, 2 * i), morale=5) for i in range(3, 5)]
    state = make_state(side0, side1)
    ctx = ctx_for(state, [])
    state.auction = {"E": {0: 4, 1: 5}, "high": None, "high_bidder": None, "last": {}, "barred": 0}
    assert legal(state, bid_decision(ctx, 0)) == "bid:4"
    state.auction["barred"] = 1
    assert legal(state, bid_decision(ctx, 0)) == "bid:3"          # A0..A2: morale 5 and a target within 2 x 30 cm


def test_ai_committed_attacker_takes_a_fair_shot_rather_than_breach_but_not_a_hopeless_one():
    """§3.6: a ticked attacker that does not attack loses a point of morale and bars its side, so the AI shoots
    at a fair target it would leave alone as defender; a hopeless shot (5D6, a critical failure three times in
    five) costs as much morale as the breach (§5.31, §5.32), and more besides, so it moves up instead."""
    state = make_state([fig("A1", "trooper", (0, 5), morale=5, offensive=True)],
                       [fig("B1", "veteran", (10, 5), morale=5, offensive=True)])
    state.attacker, state.defender = 0, 1
    decision, scores = action_of(state)
    assert RULES.odds(state, decision.option("shoot:B1")).details["difficulty"] == 3
    assert legal(state).startswith(("shoot", "burst"))
    state.attacker, state.defender = 1, 0
    assert not legal(state).startswith(("shoot", "burst", "moveshoot"))
    state = make_state([fig("A1", "trooper", (0, 5), morale=5, offensive=True)],
                       [fig("B1", "veteran", (30, 5), morale=5)])
    state.bf.cover[5, 30] = 2
    state.attacker, state.defender = 0, 1
    decision, scores = action_of(state)
    assert RULES.odds(state, decision.option("shoot:B1")).details["difficulty"] == 5
    assert legal(state).startswith(("run", "walk"))


def test_ai_out_of_reach_moves_towards_the_enemy_instead_of_hiding_or_rallying():
    """Cover is worth nothing where no enemy can shoot; a far-off character closes in (ruined engagement otherwise)."""
    state = make_state([fig("A1", "trooper", (2, 10), morale=4)], [fig("B1", "trooper", (45, 10), morale=5)],
                       width=48)
    state.bf.cover[10, 3] = 1
    run_steps(ctx_for(state, []), Activation("A1", "regular"))
    assert {"cover", "rally"} <= {o.action for o in state.steps.waiting.options}
    assert legal(state).startswith("run:")


def test_ai_answers_setup_bid_selection_and_first_player():
    bf = Battlefield.open_ground(30, 10)
    m = Match(bf, RULES, RULES.default_armies(bf), seed=2)
    ai = KolapsAI(0)
    seen = set()
    while m.state.phase != "action":
        d = m.pending
        seen.add(d.kind)
        key = ai.choose(m.observe(d.side), d)
        assert d.option(key) is not None
        m.answer(key)
    assert {"start", "bid", "first_player"} <= seen


def test_ai_answers_activate_and_action():
    state = duel()
    run_steps(ctx_for(state, []), Activate(0))
    assert legal(state) == "activate:A1"
    answer_step(ctx_for(state, []), "activate:A1")
    assert state.steps.waiting.kind == "action"
    assert legal(state).startswith(("shoot", "burst", "moveshoot", "prone"))


def test_ai_closes_to_point_blank_on_an_enemy_that_has_acted_not_on_one_that_shoots_first():
    """Point-blank (§5.33: −2, 2C6 severity) cuts both ways: the AI runs in on an enemy that has already
    activated this turn, which cannot answer before its next shot, but not on an offensive one still to act."""
    for activated in (True, False):
        state = duel()
        state.chars["B1"].activated_this_turn = activated
        decision, _ = action_of(state)
        chosen = decision.option(legal(state))
        close = chosen.tile is not None and space.within_cm(chosen.tile, (8, 5), 5, 2.5)
        assert close == activated, chosen.key


def test_ai_keeps_the_best_severity_die_and_swaps_a_burst_when_it_hurts_more():
    state = duel()
    ctx = ctx_for(state, [5, 2, 3, 1])
    run_steps(ctx, Hit("A1", "B1", (2, "C"), True, False, False))
    assert state.steps.waiting.kind == "keep_die" and legal(state) == "keep:5"
    answer_step(ctx, "keep:2")
    assert state.steps.waiting.kind == "burst_swap" and legal(state) == "swap"      # 3 into the legs beats 2 in them


def test_ai_answers_incident_crossfire_and_reaction():
    state = duel()
    run_steps(ctx_for(state, []), Incident("A1", False))
    assert state.steps.waiting.kind == "incident" and legal(state) in ("jam", "drop")
    state = make_state([fig("A1", "trooper", (0, 5), morale=5, aff=1), fig("A2", "trooper", (20, 5), aff=2)],
                       [fig("B1", "trooper", (8, 5), morale=5, aff=2), fig("B2", "trooper", (8, 9), aff=1)])
    run_steps(ctx_for(state, []), AfterAttack("A1", "B1", False))
    assert state.steps.waiting.kind == "crossfire" and legal(state) in ("keep", "switch")
    state = duel()
    run_steps(ctx_for(state, [2, 2]), Attack("A1", "B1", "assault_rifle", "shoot", (0, 5), False, False),
              Reactions())
    assert state.steps.waiting.kind == "reaction" and legal(state) == "respond"


def test_ai_stipulates_a_standing_order_within_its_gun_range_and_uses_its_knife_at_a_profit():
    """§5.15: its rifle (40 cm) waits for an enemy within 50 cm; a contact weapon for the first in reach.
    §5.34.4: a veteran's knife strikes first (3+, and a failure costs it no morale); a trooper's one-in-four
    strike, whose failure costs a point of morale (§5.31), only when it also spares an attacker's breach."""
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (15, 5), morale=5)])
    state.bf.cover[6, 5] = 2
    ai = KolapsAI(0)
    decision = Activation("A1", "regular").decision(ctx_for(state, []), state.chars["A1"])
    ambushes = [o for o in decision.options if o.action in AMBUSH_ACTIONS]
    scores = ai.score_action(match_on(state).observe(0), decision)
    assert max(ambushes, key=lambda o: scores[o.key]).key == "ambush:near:50"
    state.chars["A1"].ready_weapon = "knife"
    scores = ai.score_action(match_on(state).observe(0), decision)
    assert max(ambushes, key=lambda o: scores[o.key]).key == "ambush"
    for striker, attacker, strikes in (("veteran", None, True), ("trooper", None, False), ("trooper", 0, True)):
        state = make_state([fig("A1", striker, (5, 5), morale=5, offensive=True)],
                           [fig("B1", "trooper", (6, 5), morale=5)])
        state.attacker = attacker
        state.chars["A1"].knife_foes = ["B1"]
        run_steps(ctx_for(state, []), KnifeWindow("B1"))
        assert state.steps.waiting.kind == "knife" and legal(state) == ("knife:A1" if strikes else "pass")


SHIPPED_MAP = Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx"


def action_of(state, fid="A1"):
    """The action decision of ``fid``'s regular activation, and the AI's scores of its options."""
    run_steps(ctx_for(state, []), Activation(fid, "regular"))
    decision = state.steps.waiting
    return decision, KolapsAI(0).score_action(match_on(state).observe(decision.side), decision)


def test_ai_finishes_a_badly_wounded_enemy_rather_than_spread_its_fire():
    for wounded in (False, True):
        state = make_state([fig("A1", "trooper", (0, 5), morale=5, offensive=True)],
                           [fig("B1", "trooper", (7, 5), morale=5), fig("B2", "trooper", (7, 8), morale=5)])
        if wounded:
            state.chars["B2"].wounds.update({"legs": 3, "belly": 2, "chest": 1, "left_arm": 3, "right_arm": 3})
        decision, scores = action_of(state)
        assert (scores["burst:B2"] > scores["burst:B1"]) == wounded
        if wounded:             # the burst now, or a run to point-blank range of it (−2, and 2C6 severity)
            chosen = decision.option(legal(state))
            assert chosen.key == "burst:B2" or space.within_cm(chosen.tile, (7, 8), 5, 2.5)


def test_ai_does_not_fire_through_its_own_side_at_a_negative_expected_value():
    """A recruit's long shot past an ally on the line: a critical failure hits the ally (§5.32)."""
    state = make_state([fig("A1", "recruit", (0, 5), morale=5, offensive=True), fig("A2", "trooper", (4, 5))],
                       [fig("B1", "veteran", (26, 5), morale=5)])
    decision, scores = action_of(state)
    assert "friendly_fire" in RULES.odds(state, decision.option("shoot:B1")).details["critical_failure_results"]
    assert scores["shoot:B1"] < 0
    assert legal(state) != "shoot:B1"


def test_a_wounded_character_under_fire_falls_back_out_of_sight_and_a_whole_one_advances():
    for wounded in (False, True):
        state = make_state([fig("A1", "trooper", (5, 5), morale=5)],
                           [fig("B1", "veteran", (20, 3), morale=5), fig("B2", "veteran", (20, 7), morale=5)])
        state.bf.blocks_move[7:13, 7] = state.bf.blocks_sight[7:13, 7] = True
        if wounded:
            state.chars["A1"].wounds.update({"legs": 2, "belly": 1, "left_arm": 2})
        decision, _ = action_of(state)
        tile = decision.option(legal(state)).tile
        seen = [space.line_of_sight(state.bf, e, tile) for e in ((20, 3), (20, 7))]
        if wounded:
            assert not any(seen)
        else:
            assert tile[0] > 5 and all(seen)


def test_ai_readies_a_grenade_against_a_bunch_and_throws_it_when_that_is_the_best_value():
    """A jammed rifle and three enemies within a throw: the grenade is made ready rather than the rifle
    unjammed; with the grenade in hand, the throw beats anything else."""
    side1 = [fig(f"B{i}", "trooper", (5, 3 + i), morale=5) for i in (1, 2, 3)]
    state = make_state([fig("A1", "trooper", (0, 5), morale=5, offensive=True)], side1)
    state.chars["A1"].jammed.append("assault_rifle")
    decision, scores = action_of(state)
    assert legal(state) == "change:grenade" and scores["change:grenade"] > scores["unjam"]
    state = make_state([fig("A1", "trooper", (0, 5), morale=5, offensive=True)], side1)
    state.chars["A1"].ready_weapon = "grenade"
    action_of(state)
    assert legal(state).startswith("throw:")


def test_ai_answer_does_not_change_when_the_other_sides_hidden_ambushes_are_redrawn():
    """The AI sees only its side: every enemy ambush it cannot rule out is drawn afresh (``disguise``), and
    its answer to each decision of two short AI games stays the same."""
    rng = random.Random(5)
    compared = redrawn = 0
    for seed in (1, 2):
        m = new_match(SHIPPED_MAP, "kolaps", seed, max_turns=4)
        players = {s: KolapsAI(seed * 2 + s, "easy") for s in (0, 1)}     # blind to the score, they set ambushes
        while m.pending is not None:
            d = m.pending
            disguised = RULES.disguise(m.state, d.side, rng)
            redrawn += any(c.ambush_order != m.state.chars[c.id].ambush_order for c in disguised.chars.values())
            seen = Observation(d.side, RULES, RULES.observe(disguised, d.side), m.battlefield,
                               tuple(m.events_for(d.side)), m.max_turns)
            truth = m.observe(d.side)
            assert canonical(seen.state) == canonical(truth.state)          # all the AI is shown ...
            assert KolapsAI(seed).choose(seen, d) == KolapsAI(seed).choose(truth, d), d.kind    # ... and its answer
            compared += 1
            m.answer(m.ask(players[d.side]))
    assert compared > 100 and redrawn > 5


def test_ai_bids_for_a_character_at_morale_3_only_where_its_attack_is_worth_the_directive_roll():
    """§3.3: at morale 3 the directive needs a difficulty-1 roll and an attacker's lost one is a breach (to
    morale 2, and the bar). A veteran (3+) with a fair rifle shot is worth the roll; a recruit (4+) with the
    same target, whose shot is poorer and roll likelier to fail, is not; at point-blank range both are."""
    for archetype, x, expected in (("veteran", 10, "bid:1"), ("recruit", 10, "bid:0"), ("recruit", 4, "bid:1")):
        state = make_state([fig("A1", archetype, (2, 5), morale=3)], [fig("B1", "trooper", (x, 5), morale=5)])
        state.auction = {"E": {0: 1, 1: 1}, "high": None, "high_bidder": None, "last": {}, "barred": None}
        assert legal(state, bid_decision(ctx_for(state, []), 0)) == expected, (archetype, x)


def test_ai_takes_a_control_zone_in_the_last_turn_not_in_the_first():
    """The points at the turn limit count a zone a sheet's boxes for the side with more figures on it then:
    in the last turn a trooper a run away from it runs onto it; in the first it is worth next to nothing and
    the trooper closes on the far-off enemy instead."""
    for turn, onto in ((10, True), (1, False)):
        bf = Battlefield.open_ground(40, 20)
        bf.objects = [MapObject("objective", "square", ((5, 16), (6, 16)), {})]
        state = make_state([fig("A1", "trooper", (5, 10), morale=5)], [fig("B1", "trooper", (38, 10), morale=5)],
                           turn=turn, bf=bf)
        decision, _ = action_of(state)
        tile = decision.option(legal(state)).tile
        assert (tile in {(5, 16), (6, 16)}) == onto, (turn, tile)
        assert onto or tile[0] > 5


def test_a_second_spare_on_a_held_zone_goes_after_the_enemy_while_the_first_stays_as_insurance():
    """A zone held without a figure is worth insurance against a friend's fall, and a second spare only
    against two: level on points late in the battle (a character lost, the zone held), the third of three
    figures on the zone leaves it to close on the enemy, while the second of two stays."""
    zone = tuple((x, y) for x in range(4, 7) for y in range(14, 17))
    for friends, stays in ((("A2",), True), (("A2", "A3"), False)):
        bf = Battlefield.open_ground(40, 20)
        bf.objects = [MapObject("objective", "square", zone, {})]
        side0 = [fig("A1", "trooper", (5, 15), morale=5), fig("A2", "trooper", (4, 15), morale=5),
                 fig("A3", "trooper", (6, 15), morale=5), fig("A4", "trooper", (0, 0), morale=5)]
        state = make_state(side0, [fig("B1", "trooper", (36, 10), morale=5)], turn=9, bf=bf)
        state.chars["A4"].in_play = False
        if "A3" not in friends:
            state.chars["A3"].tile = (10, 5)
        decision, _ = action_of(state)
        tile = decision.option(legal(state)).tile or state.chars["A1"].tile
        assert (tile in zone) == stays, (friends, tile)
        assert stays or tile[0] > 6
