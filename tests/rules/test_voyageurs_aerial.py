"""Voyageurs aerial battle: the test vectors of voyageurs.md §7.1 (S4, S5, S14, S15) and §7.3, and the
ends of a boarding (5.16.6), each named for its rule."""
from __future__ import annotations

from game.engine.battlefield import Battlefield
from game.rules.voyageurs.aerial import between, gunners, range_modifier
from game.rules.voyageurs.model import CAPTURED, DESTROYED, FLED, UNCONSCIOUS

from .voyageurs_helpers import AIR, aerial, kinds, play

LIGHT = {"kind": "light_transport", "name": "Hirondelle"}
ARMED = {"kind": "armed_transport", "name": "Bourdon"}


def crew(n: int, **kw) -> list[dict]:
    return [{"kind": "fighter", **({"pilot": True} if i == 0 else {}), **kw} for i in range(n)]


def actions(state) -> list[str]:
    return [o.key for o in AIR.pending(state).options]


def until(state, kind: str, answer=None) -> None:
    """Answer every other decision with its end, stay or first option until one of ``kind`` waits."""
    for _ in range(200):
        d = AIR.pending(state)
        if d.kind == kind:
            return
        keys = [o.key for o in d.options]
        key = answer(d) if answer else next((k for k in ("end", "stay", "hold_fire") if k in keys), keys[0])
        play(AIR, state, key)
    raise AssertionError(f"no '{kind}' decision came")


def boarded(defenders: int, boarder=ARMED, boarder_crew=5, light_crew=3, **light) -> object:
    """Side 0 boards side 1 from the next case; side 1 sends ``defenders``; no two deck
    initiatives are equal, so no simultaneous group holds effects back."""
    st = aerial([{**boarder, "case": 3}] + crew(boarder_crew), [{**LIGHT, "case": 4, **light}] + crew(light_crew))
    if AIR.pending(st).figure == "bt":          # the faster light transport lets the turn pass
        play(AIR, st, "end")
    play(AIR, st, "board:bt")
    n = len(st.boarding.boarders) + defenders
    dice = [face for i in range(n) for face in (1, i + 1)] if defenders else []     # initiatives apart
    keys = [f"defend:{c}" for c in st.transports["bt"].crew if not st.fig(c).pilot][:defenders]
    if defenders < light_crew - 1:
        keys.append("defenders_done")
    for i, key in enumerate(keys):
        play(AIR, st, key, dice if i == len(keys) - 1 else [])
    return st


# --- §7.1 --------------------------------------------------------------------------------------

def test_s4_transports_start_in_cases_one_and_six_four_cases_apart_at_minus_six():
    st = aerial([LIGHT] + crew(3), [ARMED] + crew(5))
    a, b = st.transports["at"], st.transports["bt"]
    assert (a.case, b.case, between(a, b), range_modifier(between(a, b))) == (1, 6, 4, -6)


def test_s5_range_modifiers_and_boarding_only_side_by_side():
    assert [range_modifier(n) for n in (3, 2, 1, 0)] == [-4, -2, 0, 2]
    for gap, boarding in ((1, False), (0, True)):
        st = aerial([{**LIGHT, "case": 2}] + crew(3), [{**ARMED, "case": 3 + gap}] + crew(5))
        assert ("board:bt" in actions(st)) == boarding


def test_s14_a6_the_boarding_side_sends_all_but_its_pilot():
    st = boarded(2)
    b = st.boarding
    assert len(b.boarders) == 4 and not any(st.fig(c).pilot for c in b.boarders)
    assert sum(1 for c in st.transports["bt"].crew if not st.fig(c).on_deck) == 1       # the light pilot
    assert all(st.fig(c).on_deck for c in b.boarders + b.defenders)


def test_s15_the_boarded_side_sends_none_to_all_but_one():
    st = aerial([{**ARMED, "case": 3, "speed": 20}] + crew(5), [{**LIGHT, "case": 4}] + crew(3))
    play(AIR, st, "board:bt")
    d = AIR.pending(st)
    assert d.side == 1 and d.kind == "defenders"
    assert sorted(o.action for o in d.options) == ["defend"] * 3 + ["defenders_done"]
    play(AIR, st, "defend:b2")
    assert sorted(o.action for o in AIR.pending(st).options) == ["defend"] * 2 + ["defenders_done"]
    play(AIR, st, "defend:b3", [1, 1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6])
    assert AIR.phase(st) == "deck" and len(st.boarding.defenders) == 2      # the third stays: 0, 1 or 2


def test_the_original_lets_the_boarded_pilot_defend_if_another_stays_to_pilot():
    st = aerial([{**ARMED, "case": 3, "speed": 20}] + crew(5), [{**LIGHT, "case": 4}] + crew(3))
    play(AIR, st, "board:bt")
    play(AIR, st, "defend:b1")
    events = play(AIR, st, "defenders_done", [1, 1, 1, 2, 1, 3, 1, 4, 1, 5])
    assert st.fig("b1").on_deck and not st.fig("b1").pilot
    assert [e.data["figure"] for e in events if e.kind == "pilot"] == ["b2"] and st.fig("b2").pilot


# --- §7.3 --------------------------------------------------------------------------------------

def test_a1_a_transport_cannot_enter_or_pass_the_other_one():
    st = aerial([{**LIGHT, "case": 3}] + crew(3), [{**ARMED, "case": 4}] + crew(5))
    moves = [k for k in actions(st) if k.startswith(("approach", "withdraw"))]
    assert moves == ["withdraw:2"]


def test_a2_a_transport_cannot_leave_the_track():
    st = aerial([LIGHT] + crew(3), [ARMED] + crew(5))
    moves = [k for k in actions(st) if k.startswith(("approach", "withdraw"))]
    assert moves == ["approach:2"]


def test_a3_gunners_are_capped_by_the_pe_and_each_spends_one():
    st = aerial([{**ARMED, "pe": 3, "speed": 20, "case": 2}] + crew(5), [{**LIGHT, "case": 5}] + crew(3))
    assert len(gunners(st, st.transports["at"])) == 3
    play(AIR, st, "fire:bt", [1, 1] * 3)
    assert st.transports["at"].pe == 0 and gunners(st, st.transports["at"]) == []


def test_a4_each_gunner_tests_the_transport_to_hit_against_the_target_speed():
    st = aerial([{**LIGHT, "case": 2}] + crew(3), [{**ARMED, "case": 5}] + crew(5))
    events = play(AIR, st, "fire:bt", [3, 2, 4, 2, 3, 6])
    rolls = [e.data for e in events if e.kind == "dice" and e.data["purpose"] == "aerial_to_hit"]
    assert [(r["total"], r["success"]) for r in rolls] == [(13, False), (14, True)]
    assert st.transports["at"].pe == 8 and st.transports["bt"].pv == 31


def test_a5_a_critical_from_a_post_hits_and_doubles_the_damage():
    st = aerial([{**LIGHT, "case": 1, "speed": 18}] + crew(1), [{**LIGHT, "case": 6}] + crew(3))
    play(AIR, st, "fire:bt", [6, 6, 1, 2, 3, 4])
    assert st.transports["bt"].pv == 20


def test_a6_a7_after_each_deck_round_the_boarded_transport_fires_at_plus_two_with_who_stayed():
    st = boarded(2)
    assert AIR.phase(st) == "deck"
    until(st, "counter")
    d = AIR.pending(st)
    assert d.side == 1 and [o.key for o in d.options] == ["fire:at", "hold_fire"]
    events = play(AIR, st, "fire:at", [1, 2, 1, 1])
    roll = next(e.data for e in events if e.kind == "dice")
    assert roll["who"] == st.transports["bt"].crew[0] and roll["total"] == 15 and roll["success"]
    assert st.transports["bt"].pe == 9 and st.transports["at"].pv == 40 - 2


def flee_at_the_end_of_turn(dice):
    st = aerial([LIGHT, {"kind": "scout", "AGI": 5, "ESP": 4, "pilot": True}] + crew(2)[1:], [ARMED] + crew(5))
    play(AIR, st, "end")
    play(AIR, st, "end")
    d = AIR.pending(st)
    assert d.kind == "flight" and d.side == 0 and d.info["sums"] == [17, 14]
    play(AIR, st, "flee:a1", dice)
    return st


def test_a8_the_faster_side_may_flee_and_loses_with_its_transport_safe():
    st = flee_at_the_end_of_turn([5, 3])
    assert st.over and st.winner == 1 and st.reason == "fled"
    assert st.transports["at"].status == FLED


def test_a9_a_failed_flight_costs_one_speed_from_the_next_turn():
    st = flee_at_the_end_of_turn([2, 3])
    assert not st.over and st.transports["at"].speed == 16 and st.turn == 2


def test_a10_equal_speeds_form_a_simultaneous_group():
    st = aerial([{**LIGHT, "speed": 15, "case": 3}] + crew(3), [{**ARMED, "speed": 15, "case": 5}] + crew(5))
    assert st.battle.grouped and st.battle.group == ["bt"] and AIR.pending(st).figure == "at"   # A first
    events = play(AIR, st, "fire:bt", [6, 5, 1, 1, 2, 2])
    assert "held_back" in kinds(events) and st.transports["bt"].pv == 40
    assert AIR.pending(st).figure == "bt"
    events = play(AIR, st, "end")
    assert "group_resolved" in kinds(events) and st.transports["bt"].pv == 38


def test_the_roll_off_makes_its_winner_side_a_in_case_1_and_first_in_the_odd_turns_of_a_tie():
    st = aerial([ARMED] + crew(5), [ARMED] + crew(5), side_a=None)
    assert AIR.pending(st).kind == "side_a" and AIR.pending(st).side == 0
    events = play(AIR, st, "roll_off", [3, 3, 2, 5])              # a tie rolled again; side 1's die higher
    assert [e.data["faces"] for e in events if e.kind == "dice" and e.data["purpose"] == "side_a"] == [[3, 3], [2, 5]]
    assert st.side_a == 1 and next(e for e in events if e.kind == "side_a").data == {"side": 1}
    assert (st.transports["bt"].case, st.transports["at"].case) == (1, 6)
    assert AIR.pending(st).figure == "bt"                      # turn 1: side A first
    play(AIR, st, "end")
    assert AIR.pending(st).figure == "at"
    play(AIR, st, "end")
    assert st.battle.round == 2 and AIR.pending(st).figure == "at"     # turn 2: side B first


def test_side_0_winning_the_roll_off_keeps_case_1_and_acts_first_in_turn_1():
    st = aerial([ARMED] + crew(5), [ARMED] + crew(5), side_a=None)
    play(AIR, st, "roll_off", [6, 1])
    assert st.side_a == 0 and (st.transports["at"].case, st.transports["bt"].case) == (1, 6)
    assert AIR.pending(st).figure == "at"


def test_the_faster_transport_acts_first_whoever_won_the_roll_off():
    st = aerial([{**LIGHT, "speed": 18}] + crew(3), [ARMED] + crew(5), side_a=1)
    assert not st.battle.grouped and AIR.pending(st).figure == "at"


# --- the ends of a boarding (5.16.6) --------------------------------------------------------

def knock_out(st, ids) -> list:
    from game.engine.dice import ScriptedDice
    from game.rules.voyageurs.fight import set_pv, settle
    from game.rules.voyageurs.model import Game

    game = Game(st, ScriptedDice([]))
    for cid in ids:
        set_pv(game, st.fig(cid), 0, "test")
    settle(game)
    return game.events


def test_a_boarding_nobody_defends_takes_the_transport_at_once():
    st = aerial([{**ARMED, "case": 3, "speed": 20}] + crew(5), [{**LIGHT, "case": 4}] + crew(3))
    play(AIR, st, "board:bt")
    play(AIR, st, "defenders_done")
    assert st.over and st.winner == 0 and st.reason == "boarded"
    assert st.transports["bt"].status == CAPTURED
    assert all(st.fig(c).status == CAPTURED for c in st.transports["bt"].crew)


def test_a_boarding_succeeds_when_no_defender_stands_and_the_battle_ends():
    st = boarded(2)
    knock_out(st, st.boarding.defenders)
    assert st.over and st.winner == 0 and st.reason == "boarded"


def test_beaten_boarders_are_lost_and_the_aerial_battle_goes_on_side_by_side():
    st = boarded(2)
    b = st.boarding
    events = knock_out(st, b.boarders)
    assert "boarding_over" in kinds(events) and not st.over and st.boarding is None
    assert all(st.fig(c).status == CAPTURED for c in b.boarders)
    assert all(st.fig(c).tile is None and not st.fig(c).on_deck for c in b.defenders)
    assert AIR.phase(st) == "turn_end" and between(st.transports["at"], st.transports["bt"]) == 0


def test_fleeing_boarders_go_back_to_their_transport_with_their_unconscious():
    st = boarded(2)
    b = st.boarding
    knock_out(st, b.boarders[:1])
    until(st, "flight")
    d = AIR.pending(st)
    assert d.side == 0 and all(o.figure in b.boarders for o in d.options if o.action == "flee")
    play(AIR, st, next(o.key for o in d.options if o.action == "flee"), [6, 6])
    assert st.boarding is None and not st.over
    assert st.fig(b.boarders[0]).status == UNCONSCIOUS and st.fig(b.boarders[0]).tile is None
    assert all(not st.fig(c).on_deck for c in b.boarders)


def test_the_defenders_may_not_flee_the_deck():
    st = boarded(2, light_crew=5)
    for cid in st.boarding.boarders:
        st.fig(cid).initiative = 1          # the defenders' initiatives now add up to more
    asked = []
    until(st, "counter", answer=lambda d: asked.append(d.kind) or
          next(k for k in (o.key for o in d.options) if k in ("end", "stay", "hold_fire")))
    assert "flight" not in asked and st.boarding is not None


def test_transports_neither_move_nor_act_while_a_boarding_is_in_progress():
    st = boarded(2)
    seen = []
    until(st, "counter", answer=lambda d: seen.append(d.figure) or
          next(k for k in (o.key for o in d.options) if k in ("end", "stay")))
    assert not set(seen) & set(st.transports)


def test_a_boarding_transport_destroyed_meanwhile_leaves_its_boarders_no_way_back():
    st = boarded(2, boarder={**ARMED, "pv": 3})
    until(st, "counter")
    play(AIR, st, "fire:at", [6, 5, 2, 2])
    assert st.transports["at"].status == DESTROYED and not st.over
    assert st.deck.fleeing == [] and st.fig(st.transports["at"].crew[0]).status == "lost"
    knock_out(st, st.boarding.boarders)
    assert st.over and st.winner == 1 and st.reason == "boarders_lost"


def test_the_deck_is_the_match_map_with_its_boarding_and_crew_zones():
    from pathlib import Path

    from game.engine.tiled import load_battlefield

    bf = load_battlefield(Path(__file__).resolve().parents[2] / "maps" / "sky_deck.tmx")
    st = aerial([{**ARMED, "case": 3, "speed": 20}] + crew(5), [{**LIGHT, "case": 4}] + crew(3), bf=bf)
    play(AIR, st, "board:bt")
    play(AIR, st, "defend:b2")
    play(AIR, st, "defenders_done", [1, 1, 1, 2, 1, 3, 1, 4, 1, 5])
    zone = {k: {t for o in bf.objects_of(k) for t in o.tiles} for k in ("boarding_zone", "crew_zone")}
    assert all(st.fig(c).tile in zone["boarding_zone"] for c in st.boarding.boarders)
    assert all(st.fig(c).tile in zone["crew_zone"] for c in st.boarding.defenders)
    assert all(bf.can_stand(t) for ts in zone.values() for t in ts)


def test_on_a_map_without_deck_zones_the_boarders_come_aboard_beside_the_defenders():
    from game.engine import space
    from game.rules.voyageurs.aerial import BOARDING_GAP

    st = aerial([{**ARMED, "case": 3, "speed": 20}] + crew(5), [{**LIGHT, "case": 4}] + crew(3),
                bf=Battlefield.open_ground(60, 20))
    play(AIR, st, "board:bt")
    play(AIR, st, "defend:b2")
    play(AIR, st, "defenders_done", [1, 1, 1, 2, 1, 3, 1, 4, 1, 5])
    b = st.boarding
    defenders = [st.fig(c).tile for c in b.defenders]
    gaps = [min(space.distance(st.fig(c).tile, t) for t in defenders) for c in b.boarders]
    assert all(BOARDING_GAP < g <= BOARDING_GAP + 2 for g in gaps), gaps


def test_at_the_turn_limit_the_hull_taken_from_the_enemy_decides_in_points_not_the_share_left():
    """Project default (engine/objectives.py): the light transport that lost 10 of its 30 took 12 of the
    armed one's 40, so its side wins on points though it keeps the smaller share of its hull."""
    st = aerial([LIGHT] + crew(3), [ARMED] + crew(5), max_turns=1)
    st.transports["at"].pv -= 10
    st.transports["bt"].pv -= 12
    st.known[0].append("fighter")       # the points are listed once no PV max is secret (5.15)
    st.known[1].append("fighter")
    for _ in range(50):
        d = AIR.pending(st)
        if d is None:
            break
        keys = [o.key for o in d.options]
        play(AIR, st, next((k for k in ("end", "stay", "refuse_truce") if k in keys), keys[0]))
    outcome = AIR.outcome(st)
    assert (outcome.winner, outcome.reason) == (0, "points")
    assert [w.as_dict()["taken"] for w in outcome.details if w.key == "result.points"] == [12, 10]
