"""KOLAPS ambushes (§5.15): standing orders that fire by themselves, and what the enemy may learn of them."""
from __future__ import annotations

import random

from game.engine.protocol import canonical
from game.rules.kolaps.model import Order
from game.rules.kolaps.options import Conduct, action_options
from game.rules.kolaps.steps import Activation, Assessment, Hit, Reactions

from tests.rules.kolaps_helpers import RULES, answer_step, ctx_for, fig, make_state, run_steps


def ambusher(order: Order | None = None, **b1):
    """A1 (veteran, rifle) in heavy cover at (5,5); B1 (trooper) further east."""
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", b1.pop("tile", (16, 5)), morale=5, **b1)])
    state.bf.cover[5, 6] = 2
    if order is not None:
        a1 = state.chars["A1"]
        a1.ambush_armed, a1.ambush_order, a1.ambush_declared_turn = True, order, 1
    return state


def decisions_during(ctx, state, first_answer: str) -> list:
    """Answer the enemy's action with ``first_answer`` and every later decision with its first option,
    noting the side of each decision asked."""
    sides = []
    answer_step(ctx, first_answer)
    while state.steps.waiting is not None:
        sides.append(state.steps.waiting.side)
        answer_step(ctx, state.steps.waiting.options[0].key)
    return sides


def test_an_ambush_declaration_leaves_the_enemy_the_same_trace_as_ending_the_activation():
    """Issue 10: no public event, marker, view or field tells the enemy an ambush from doing nothing."""
    seen = {}
    for answer in ("end", "ambush", "ambush:near:25", "ambush:only:B1", "ambush:after"):
        state = ambusher()
        ctx = ctx_for(state, [])
        run_steps(ctx, Activation("A1", "regular"))
        answer_step(ctx, answer)
        events = [(e.kind, e.data, e.rule) for e in ctx.events if e.seen_by(1)]
        view = [(f.id, f.tile, f.markers, f.gauges) for f in RULES.figures(state, 1)]
        seen[answer] = (events, view, canonical(RULES.observe(state, 1).chars))
    assert all(trace == seen["end"] for trace in seen.values())


def test_a_declared_ambush_keeps_the_character_huddled_and_marks_it_for_its_own_side_only():
    state = ambusher()
    a1 = state.chars["A1"]
    a1.huddled = True
    ctx = ctx_for(state, [])
    run_steps(ctx, Activation("A1", "regular"))
    answer_step(ctx, "ambush:near:25")
    assert a1.huddled and a1.ambush_order == Order("near", within=25) and a1.quiet_turn == 1
    mine = next(f for f in RULES.figures(state, 0) if f.id == "A1")
    theirs = next(f for f in RULES.figures(state, 1) if f.id == "A1")
    assert mine.marked("ambush_near") and not any(m.key.startswith("ambush") for m in theirs.markers)


def test_a_near_order_waits_until_the_enemy_steps_within_its_range():
    state = ambusher(Order("near", within=25))          # 25 cm = 10 pas: B1 starts 11 pas away
    ctx = ctx_for(state, [2, 2])
    run_steps(ctx, Activation("B1", "regular"))
    assert decisions_during(ctx, state, "walk:12,5") == []
    fired = next(e for e in ctx.events if e.kind == "ambush_fired")
    moves = [e for e in ctx.events if e.kind == "moved"]
    assert fired.data["window"] == "W2" and fired.data["order"] == "order_near"
    assert ctx.events.index(moves[0]) < ctx.events.index(fired) < ctx.events.index(moves[1])
    assert moves[0].data["to"] == [15, 5] and state.chars["B1"].tile == (12, 5)


def test_an_only_order_lets_every_other_enemy_pass():
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                       [fig("B1", "trooper", (16, 5), morale=5), fig("B2", "trooper", (16, 9), morale=5)])
    state.bf.cover[5, 6] = 2
    a1 = state.chars["A1"]
    a1.ambush_armed, a1.ambush_order = True, Order("only", target="B2")
    ctx = ctx_for(state, [])
    run_steps(ctx, Activation("B1", "regular"))
    assert decisions_during(ctx, state, "walk:14,5") == [] and a1.ambush_armed
    ctx = ctx_for(state, [2, 2])
    run_steps(ctx, Activation("B2", "regular"))
    decisions_during(ctx, state, "walk:14,9")
    assert not a1.ambush_armed and next(e for e in ctx.events if e.kind == "ambush_fired").data["enemy"] == "B2"


def test_an_after_order_fires_once_the_enemy_action_is_resolved():
    state = ambusher(Order("after"))
    ctx = ctx_for(state, [2, 2])
    run_steps(ctx, Activation("B1", "regular"))
    assert decisions_during(ctx, state, "walk:12,5") == []
    fired = next(e for e in ctx.events if e.kind == "ambush_fired")
    last_move = [e for e in ctx.events if e.kind == "moved"][-1]
    assert fired.data["window"] == "W3" and ctx.events.index(last_move) < ctx.events.index(fired)


def test_a_standing_order_keeps_the_best_severity_die_and_takes_no_answer():
    """Point-blank severity is 2C6: the order keeps the 5 against an enemy, nobody is asked."""
    state = ambusher(Order("first"), tile=(7, 5))
    # action roll 2C6 at 3+ (CIB 2, point-blank -2): 5,4; severity 2,5; location 3 (legs); hemorrhage 6;
    # B1's secondary roll at difficulty 4: 6,6,6,6
    ctx = ctx_for(state, [5, 4, 2, 5, 3, 6, 6, 6, 6, 6])
    run_steps(ctx, Activation("B1", "regular"))
    assert decisions_during(ctx, state, "end") == []
    assert next(e for e in ctx.events if e.kind == "kept_die").data["kept"] == 5
    assert state.chars["B1"].wounds["legs"] == 2 and ctx.dice.left == []


def test_a_standing_burst_swaps_severity_and_location_when_that_hurts_more():
    state = ambusher()
    state.chars["A1"].ready_weapon = "assault_rifle"
    ctx = ctx_for(state, [2, 6, 6, 6, 6, 6, 6, 6])      # severity 2, location 6; then survival, secondary 5D6
    run_steps(ctx, Hit("A1", "B1", (1, "D"), True, False, False, standing=True))
    assert state.steps.waiting is None
    hit = next(e for e in ctx.events if e.kind == "hit")
    assert hit.data["zone"] == "right_arm" and hit.data["severity"] == 6


def test_a_standing_orders_minor_incident_jams_the_weapon_without_asking():
    state = ambusher(Order("first"))
    # action roll 2D6 at 3+: 1,5 (one 1); incident die 1 - 1 = 0: minor incident; difficulty-1 roll 5: no fall
    ctx = ctx_for(state, [1, 5, 1, 5])
    run_steps(ctx, Activation("B1", "regular"))
    assert decisions_during(ctx, state, "end") == []
    assert "rifle" in state.chars["A1"].jammed and not state.chars["A1"].prone


def impossible_only_through_the_ambush():
    """B1 (CIB 4, extreme range, heavy cover, huddled): a move-and-shoot is difficulty 10 against an unarmed
    offensive target, 11 (impossible) against an armed ambusher, whose offensive box leaves its cover whole."""
    state = make_state([fig("A1", "trooper", (0, 0), morale=5, offensive=True)],
                       [fig("B1", "veteran", (30, 0), morale=5, offensive=True)])
    state.bf.cover[0, 30] = 2
    state.chars["B1"].cib_mod = 4
    state.chars["B1"].huddled = True
    return state


def test_the_shooter_is_offered_the_same_options_whether_or_not_its_target_lies_in_ambush():
    """Issue 10: options are computed from what the acting side may know."""
    state = impossible_only_through_the_ambush()
    ctx = ctx_for(state, [])
    plain = [o.key for o in action_options(ctx, state.chars["A1"], Conduct())]
    b1 = state.chars["B1"]
    b1.ambush_armed, b1.ambush_order = True, Order("only", target="A9")
    armed = [o.key for o in action_options(ctx, state.chars["A1"], Conduct())]
    assert armed == plain and any(k.startswith("moveshoot:") and k.endswith(":B1") for k in armed)


def test_a_shot_believed_possible_at_an_armed_ambusher_turns_out_impossible_and_rolls_nothing():
    state = impossible_only_through_the_ambush()
    b1 = state.chars["B1"]
    b1.ambush_armed, b1.ambush_order = True, Order("only", target="A9")
    ctx = ctx_for(state, [])
    run_steps(ctx, Activation("A1", "regular"))
    option = next(o for o in state.steps.waiting.options if o.action == "moveshoot" and o.target == "B1")
    answer_step(ctx, option.key)
    attack = next(e for e in ctx.events if e.kind == "attack")
    assert attack.data["difficulty"] == "impossible" and attack.data["hit"] is False
    assert not any(e.kind == "dice" for e in ctx.events) and state.chars["A1"].tile == option.tile


def test_the_commitment_check_counts_a_secret_ambush_and_so_tells_it():
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True),
                        fig("A2", "veteran", (5, 9), morale=5, offensive=True)],
                       [fig("B1", "trooper", (30, 5), morale=5)])
    state.bf.cover[5, 6] = 2
    state.bf.cover[9, 6] = 2
    state.attacker, state.defender = 0, 1
    ctx = ctx_for(state, [])
    run_steps(ctx, Activation("A1", "regular"))
    answer_step(ctx, "ambush:after")
    run_steps(ctx, Activation("A2", "regular"))
    answer_step(ctx, "end")
    a1, a2 = state.chars["A1"], state.chars["A2"]
    assert a1.may_lie_in_ambush() and a2.may_lie_in_ambush()
    run_steps(ctx, Assessment())
    assert [e.data["figure"] for e in ctx.events if e.kind == "commitment_broken"] == ["A2"]
    assert a1.morale == 5 and a2.morale == 4 and state.barred == 0
    assert not a1.may_lie_in_ambush() and not a2.may_lie_in_ambush() and a1.ambush_armed


def test_the_enemy_observes_no_ambush_and_a_disguise_draws_one_only_where_it_could_be():
    state = make_state([fig("A1", "veteran", (5, 5), morale=5, offensive=True),
                        fig("A2", "veteran", (5, 9), morale=5, offensive=True)],
                       [fig("B1", "trooper", (30, 5), morale=5)])
    state.bf.cover[5, 6] = 2
    ctx = ctx_for(state, [])
    run_steps(ctx, Activation("A1", "regular"))
    answer_step(ctx, "ambush:only:B1")
    seen = RULES.observe(state, 1).chars["A1"]
    assert not seen.ambush_armed and seen.ambush_order is None and seen.ambush_declared_turn is None
    assert RULES.observe(state, 0).chars["A1"].ambush_armed
    drawn = {RULES.disguise(state, 1, random.Random(seed)).chars["A1"].ambush_armed for seed in range(20)}
    assert drawn == {True, False}
    assert not any(RULES.disguise(state, 1, random.Random(seed)).chars["A2"].ambush_armed for seed in range(20))
    assert all(canonical(RULES.observe(RULES.disguise(state, 1, random.Random(seed)), 1)) ==
               canonical(RULES.observe(state, 1)) for seed in range(20))


def test_an_ambush_owes_no_reaction_from_the_enemy_it_interrupts():
    state = ambusher(Order("first"))
    ctx = ctx_for(state, [6, 6, 3, 1, 6, 6, 6])        # the shot hits: severity 3, location 1 (left arm)
    run_steps(ctx, Activation("B1", "regular"), Reactions())
    decisions_during(ctx, state, "end")
    assert not any(e.kind == "activation" and e.data["mode"] == "reaction" for e in ctx.events)
