"""KOLAPS turn flow through the decision protocol: interrupts, reactions, hidden information, whole matches."""
from __future__ import annotations

from game.rules.kolaps.ai import KolapsAI
from game.ai.random_player import RandomPlayer
from game.engine.battlefield import Battlefield
from game.engine.decision import Option
from game.engine.dice import ScriptedDice
from game.engine.match import Match

from game.rules.kolaps.options import AMBUSH_ACTIONS
from game.rules.kolaps.steps import Activation, FirstPlayer, MoveStep

from tests.rules.kolaps_helpers import RULES, answer_step, armies, ctx_for, fig, make_state, run_steps


def activation(cid, mode="regular", **extra):
    return Activation(cid, mode, **extra)


def test_a_declared_ambush_is_secret_and_its_standing_order_fires_by_itself_during_the_enemy_walk():
    """§5.15 standing orders: the order is stipulated at declaration, in secret, and fires with no decision
    (so no hand-over) in the middle of the enemy's activation."""
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (15, 5), morale=5)])
    state.bf.cover[6, 5] = 2
    state.attacker, state.defender = 0, 1
    ctx = ctx_for(state, [])
    run_steps(ctx, activation("A1"))
    assert state.steps.waiting.secret
    answer_step(ctx, "ambush")
    a1 = state.chars["A1"]
    assert a1.ambush_armed and a1.ambush_order.trigger == "first" and a1.ambush_declared_turn == 1
    declared = [e for e in ctx.events if e.kind == "ambush_declared"]
    assert declared and all(e.visible_to == 0 for e in declared)
    assert not any(e.kind == "action" and e.data["action"] in AMBUSH_ACTIONS for e in ctx.events)
    assert not next(f for f in RULES.figures(state, 1) if f.id == "A1").marked("ambush")
    assert next(f for f in RULES.figures(state, 0) if f.id == "A1").marked("ambush")
    # B1 activates and walks: at W1 the order finds a shot and fires; nobody is asked
    ctx = ctx_for(state, [2, 2])              # the ambush shot (2D6 at 3+) misses without a 1
    run_steps(ctx, activation("B1"))
    assert state.steps.waiting.kind == "action" and state.steps.waiting.side == 1
    answer_step(ctx, "walk:16,5")
    fired = [e for e in ctx.events if e.kind == "ambush_fired"]
    assert len(fired) == 1 and fired[0].visible_to is None and fired[0].data["window"] == "W1"
    assert not a1.ambush_armed and a1.fatigue == 1
    assert any(e.kind == "dice" and e.data["who"] == "A1" and e.data["purpose"] == "action" for e in ctx.events)
    assert state.chars["B1"].tile == (16, 5) and state.steps.waiting is None   # the walk resumed and ended


def test_knife_carrier_in_contact_strikes_first_during_the_enemy_activation():
    state = make_state([fig("A1", "trooper", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (6, 5), morale=5)])
    state.chars["A1"].knife_foes = ["B1"]
    ctx = ctx_for(state, [2, 2])               # knife strike 2D6 at 4+: fails (no 1)
    run_steps(ctx, activation("B1"))
    assert state.steps.waiting.kind == "knife" and state.steps.waiting.side == 0
    answer_step(ctx, "knife:A1")
    a1 = state.chars["A1"]
    assert a1.activated_this_turn and a1.did_offensive_action_this_turn
    attack = next(e for e in ctx.events if e.kind == "attack")
    assert attack.data["weapon"] == "knife" and attack.data["figure"] == "A1"
    # the interrupted enemy resumes its own activation, and owes no reaction
    assert state.steps.waiting.kind == "action" and state.steps.waiting.figure == "B1"
    assert not any(o for s in state.steps.upcoming() if hasattr(s, "owed") for o in s.owed)


def test_forced_reaction_then_alternation_passes_to_the_opponent_of_the_last_actor():
    bf = Battlefield.open_ground(30, 10)
    m = Match(bf, RULES, armies([fig("A1", "veteran", (2, 2), morale=5), fig("A2", "trooper", (2, 6), morale=5)],
                                [fig("B1", "trooper", (10, 2), morale=5), fig("B2", "trooper", (27, 8), morale=5)]),
              seed=3)
    m.dice = ScriptedDice([5, 4])                # roll-off: side 0 speaks first
    m.answer("begin")
    while m.pending.kind == "bid":
        m.answer("bid:2" if m.pending.info["high_bid"] is None else "bid:0")
    while m.pending.kind == "offensive":
        m.answer(m.pending.options[0].key)
    assert m.state.attacker == 0
    m.answer("start:me")
    m.answer("activate:A1")
    # veteran (3+) shoots B1 (CIB 2) at 20 cm: 2D6; hit; severity 1 location 1; secondary 2C6 succeeds
    m.dice = ScriptedDice([4, 5, 1, 1, 6, 6])
    m.answer("shoot:B1")
    d = m.pending
    assert d.kind == "action" and d.figure == "B1" and d.info["mode"] == "reaction"
    assert m.state.chars["A1"].aff == m.state.chars["B1"].aff == 1
    m.answer("end")
    d = m.pending
    assert d.kind == "activate" and d.side == 0          # B reacted last: A plays next
    assert [o.figure for o in d.options] == ["A2"]


def test_bids_are_secret_decisions_with_private_then_revealed_events():
    bf = Battlefield.open_ground(30, 10)
    m = Match(bf, RULES, RULES.default_armies(bf), seed=5)
    m.answer("begin")
    d = m.pending
    assert d.kind == "bid" and d.secret
    events = m.answer(d.options[1].key)
    private = [e for e in events if e.kind == "bid"]
    assert private and private[0].visible_to == d.side
    assert not any(e.kind == "bid" for e in m.events_for(1 - d.side))


def test_head_ko_before_activating_skips_this_turn_and_the_next():
    state = make_state([fig("A1", "trooper", (0, 0))], [fig("B1", "veteran", (10, 0), morale=6)])
    v = state.chars["B1"]
    ctx = ctx_for(state, [])
    ctx.knock_out(v, 2)
    assert v.activated_this_turn and v.ko_activations_left == 1
    state.turn = 2
    v.activated_this_turn = False
    state.attacker, state.defender = 0, 1
    ctx = ctx_for(state, [])
    run_steps(ctx, FirstPlayer(answer=Option("start:me", "start", value=0)))
    assert v.activated_this_turn and v.ko_activations_left == 0


def test_routing_character_runs_off_the_nearest_edge_and_is_a_casualty():
    state = make_state([fig("A1", "recruit", (3, 10), morale=1), fig("A0", "avatar", (20, 10))],
                       [fig("B1", "trooper", (30, 10))])
    state.chars["A1"].morale_state = "routing"
    ctx = ctx_for(state, [])
    run_steps(ctx, activation("A1"))
    answer_step(ctx, "flee")
    a1 = state.chars["A1"]
    assert not a1.in_play and a1.casualty == "fled" and a1.tile[0] == 0


def play(seed, players, bf=None, max_turns=0):
    bf = bf or ruined_field()
    m = Match(bf, RULES, RULES.default_armies(bf), seed, max_turns=max_turns)
    kinds = set()
    while m.pending is not None:
        d = m.pending
        kinds.add(d.kind)
        m.answer(m.ask(players[d.side]))
        assert RULES.check_invariants(m.state) == []
    return m, kinds


def ruined_field():
    bf = Battlefield.open_ground(30, 20)
    bf.cover[8:12, 10] = 1
    bf.cover[5, 15:18] = 2
    bf.cover[12:14, 20] = 1
    bf.blocks_move[14, 12:16] = True
    bf.blocks_sight[14, 12:16] = True
    return bf


def test_full_match_ai_against_random_ends_with_an_outcome():
    m, kinds = play(2, [KolapsAI(1), RandomPlayer(2)])
    assert m.outcome is not None and m.state.turn <= m.max_turns
    assert {"start", "bid", "activate", "action", "first_player"} <= kinds


def test_same_seed_and_answers_give_the_same_digest():
    m1, _ = play(4, [RandomPlayer(7), RandomPlayer(8)], max_turns=3)
    bf = ruined_field()
    m2 = Match(bf, RULES, RULES.default_armies(bf), 4, max_turns=3)
    for key in m1.answers:
        m2.answer(key)
    assert m2.digest() == m1.digest() and m2.outcome == m1.outcome


def test_a_stopped_move_never_ends_on_a_friend_and_a_knocked_down_walker_stops():
    state = make_state([fig("A1", "trooper", (12, 5))],
                       [fig("B1", "trooper", (10, 5)), fig("B2", "trooper", (11, 5))])
    b1 = state.chars["B1"]
    ctx = ctx_for(state, [])
    run_steps(ctx, MoveStep("B1", (11, 5), False), MoveStep("B1", (12, 5), False))
    assert b1.tile == (10, 5) and any(e.kind == "move_stopped" for e in ctx.events)
    state.chars["A1"].tile = (30, 5)
    steps = [MoveStep("B1", (x, 6), False) for x in (11, 12, 13)]
    ctx = ctx_for(state, [])
    run_steps(ctx, steps[0])
    b1.prone = True                                   # an ambush shot knocked it down mid-walk
    run_steps(ctx, *steps[1:])
    assert b1.tile == (11, 6)


def test_an_activation_that_may_declare_an_ambush_is_chosen_in_secret():
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (15, 5), morale=5)])
    run_steps(ctx_for(state, []), activation("A1"))
    assert state.steps.waiting.kind == "action" and not state.steps.waiting.secret
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (15, 5), morale=5)])
    state.bf.cover[6, 5] = 1
    run_steps(ctx_for(state, []), activation("A1"))
    assert state.steps.waiting.secret and any(o.action == "ambush" for o in state.steps.waiting.options)
    assert {o.action for o in state.steps.waiting.options} >= set(AMBUSH_ACTIONS)


def test_a_mutineer_is_played_by_the_opponent_against_its_own_avatar():
    state = make_state([fig("A1", "recruit", (5, 5), morale=1), fig("A0", "avatar", (9, 5), morale=6)],
                       [fig("B1", "trooper", (30, 15), morale=5)])
    ctx = ctx_for(state, [3])                                  # morale-1 test fails: mutiny
    run_steps(ctx, activation("A1"))
    d = state.steps.waiting
    assert d.kind == "action" and d.side == 1 and d.figure == "A1"
    assert {o.target for o in d.options if o.target} == {"A0"}
    assert all(o.action in ("end", "walk", "run", "shoot", "burst", "moveshoot", "strike", "movestrike")
               for o in d.options)
    views = {f.id: f for f in RULES.figures(state, None)}
    assert views["A1"].side == 1 and views["A1"].marked("mutinous")


def test_every_die_rolled_appears_in_a_dice_event_and_moves_go_one_tile_at_a_time():
    for seed in (3, 6):
        m, _ = play(seed, [RandomPlayer(seed), KolapsAI(seed + 1)], max_turns=4)
        dice = [e for e in m.log if e.kind == "dice"]
        assert sum(len(e.data["faces"]) for e in dice) == m.dice.count > 0
        assert all(e.data["purpose"] and e.data["sides"] == 6 for e in dice)
        moves = [e for e in m.log if e.kind == "moved"]
        assert moves and all(len(e.data["path"]) == 1 and e.data["to"] == e.data["path"][0] for e in moves)
        assert m.log[-1].kind == "game_over"
