"""The KOLAPS tactical AI: a legal answer to every decision kind, the §3.3 bidding rule, and it wins."""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from game.ai.kolaps import KolapsAI
from game.ai.random_player import RandomPlayer
from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.engine.save import new_match
from game.rules.kolaps import flow

from tests.rules.kolaps_helpers import RULES, answer_step, armies, ctx_for, fig, make_state, run_steps


def match_on(state) -> Match:
    m = Match(state.bf, RULES, armies([fig("X", "trooper", (0, 0))], [fig("Y", "trooper", (1, 5))]), seed=0)
    m.state = state
    return m


def legal(state) -> str:
    decision = state.choice
    key = KolapsAI(0).choose(match_on(state).observe(decision.side), decision)
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
        state.choice = flow.bid_decision(ctx, 0)
        assert legal(state) == expected


def test_ai_barred_announces_every_eligible_character_and_the_free_attacker_only_its_opportunities():
    """§3.3 AI bidding: a barred AI announces E; its attacker opponent risks a breach, so it announces U."""
    side0 = [fig(f"A{i}", "trooper", (2, 2 * i), morale=m) for i, m in enumerate((5, 5, 5, 3, 2))]
    side1 = [fig(f"B{i}", "trooper", (38, 2 * i), morale=5) for i in range(3)] + \
            [fig(f"B{i}", "trooper", (12, 2 * i), morale=5) for i in range(3, 5)]
    state = make_state(side0, side1)
    ctx = ctx_for(state, [])
    state.auction = {"E": {0: 4, 1: 5}, "high": None, "high_bidder": None, "last": {}, "barred": 0}
    state.choice = flow.bid_decision(ctx, 0)
    assert legal(state) == "bid:4"
    state.auction["barred"] = 1
    state.choice = flow.bid_decision(ctx, 0)
    assert legal(state) == "bid:3"          # A0..A2: morale 5 and a target within 2 x 30 cm


def test_ai_committed_attacker_takes_a_poor_shot_rather_than_breach_its_commitment():
    """§3.6: a ticked attacker that does not attack loses morale and bars its side, so the AI shoots."""
    state = make_state([fig("A1", "trooper", (0, 5), morale=5, offensive=True)],
                       [fig("B1", "veteran", (30, 5), morale=5)])
    state.bf.cover[5, 30] = 2
    state.attacker, state.defender = 0, 1
    run_steps(ctx_for(state, []), {"op": "activation", "fig": "A1", "mode": "regular", "stage": "start"})
    assert state.choice.kind == "action"
    assert legal(state).startswith(("shoot", "burst", "moveshoot"))
    state.attacker, state.defender = 1, 0           # as defender, it moves up instead
    assert legal(state).startswith(("run", "walk"))


def test_ai_out_of_reach_moves_towards_the_enemy_instead_of_hiding_or_rallying():
    """Cover is worth nothing where no enemy can shoot; a far-off character closes in (ruined engagement otherwise)."""
    state = make_state([fig("A1", "trooper", (2, 10), morale=4)], [fig("B1", "trooper", (45, 10), morale=5)],
                       width=48)
    state.bf.cover[10, 3] = 1
    run_steps(ctx_for(state, []), {"op": "activation", "fig": "A1", "mode": "regular", "stage": "start"})
    assert {"cover", "rally"} <= {o.action for o in state.choice.options}
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
    run_steps(ctx_for(state, []), {"op": "activate", "side": 0})
    assert legal(state) == "activate:A1"
    answer_step(ctx_for(state, []), "activate:A1")
    assert state.choice.kind == "action"
    assert legal(state).startswith(("shoot", "burst", "moveshoot"))


def test_ai_keeps_the_best_severity_die_and_swaps_a_burst_when_it_hurts_more():
    state = duel()
    ctx = ctx_for(state, [5, 2, 3, 1])
    run_steps(ctx, {"op": "hit", "a": "A1", "victim": "B1", "sev": [2, "C"], "burst": True, "sharp": False,
                    "blunt": False})
    assert state.choice.kind == "keep_die" and legal(state) == "keep:5"
    ctx.state.queue[0]["answer"] = "keep:2"
    state.choice = None
    run_steps(ctx)
    assert state.choice.kind == "burst_swap" and legal(state) == "swap"      # 3 into the legs beats 2 in them


def test_ai_answers_incident_crossfire_and_reaction():
    state = duel()
    run_steps(ctx_for(state, []), {"op": "incident", "a": "A1", "fell": False})
    assert state.choice.kind == "incident" and legal(state) in ("jam", "drop")
    state = make_state([fig("A1", "trooper", (0, 5), morale=5, aff=1), fig("A2", "trooper", (20, 5), aff=2)],
                       [fig("B1", "trooper", (8, 5), morale=5, aff=2), fig("B2", "trooper", (8, 9), aff=1)])
    run_steps(ctx_for(state, []), {"op": "after_attack", "a": "A1", "t": "B1", "success": False})
    assert state.choice.kind == "crossfire" and legal(state) in ("keep", "switch")
    state = duel()
    run_steps(ctx_for(state, [2, 2]), {"op": "attack", "a": "A1", "t": "B1", "weapon": "assault_rifle",
                                    "kind": "shoot", "origin": [0, 5], "moving": False, "burst": False},
              {"op": "reactions"})
    assert state.choice.kind == "reaction" and legal(state) == "respond"


def test_ai_triggers_an_ambush_and_uses_its_knife():
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (15, 5), morale=5)])
    state.chars["A1"].ambush_armed = True
    state.bf.cover[6, 5] = 2
    run_steps(ctx_for(state, []), {"op": "ambush_window", "enemy": "B1", "window": "W1"})
    assert state.choice.kind == "ambush" and legal(state) != "pass"
    state = make_state([fig("A1", "trooper", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (6, 5), morale=5)])
    state.chars["A1"].knife_foes = ["B1"]
    run_steps(ctx_for(state, []), {"op": "knife_window", "enemy": "B1"})
    assert state.choice.kind == "knife" and legal(state) == "knife:A1"


SHIPPED_MAP = Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx"


def test_ai_beats_random_over_seeded_games_and_answers_fast():
    score = {"ai": 0, "random": 0}
    times = []
    for seed in range(4):
        m = new_match(SHIPPED_MAP, "kolaps", seed)
        ai_side = seed % 2
        players = {ai_side: KolapsAI(seed), 1 - ai_side: RandomPlayer(seed)}
        while m.pending is not None:
            d = m.pending
            start = time.perf_counter()
            key = m.ask(players[d.side])
            if d.side == ai_side:
                times.append(time.perf_counter() - start)
            m.answer(key)
        if m.outcome.winner is not None:
            score["ai" if m.outcome.winner == ai_side else "random"] += 1
    assert score["ai"] > score["random"] and score["ai"] >= 3
    assert statistics.median(times) < 0.1
