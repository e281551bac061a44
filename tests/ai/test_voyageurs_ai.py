"""The Voyageurs AI answers every decision kind of both modes from its side's observation, with the
defaults of voyageurs.md §5.17."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from game.engine import space
from game.engine.battlefield import Battlefield
from game.engine.match import Match, Observation
from game.engine.protocol import Army
from game.engine.save import new_match
from game.engine.steps import StepStack
from game.rules.voyageurs import duel
from game.rules.voyageurs.ai import VoyageursAI
from game.rules.voyageurs.flow import FlightCheck, TruceCheck
from game.rules.voyageurs.ground import Act, Strike

from tests.rules.voyageurs_helpers import AIR, GROUND, aerial, answer, fig, ground, in_round, play, run

MAPS = Path(__file__).resolve().parents[2] / "maps"


def ask(rules, state, events=()) -> str:
    d = rules.pending(state) if state.steps.waiting is None else state.steps.waiting
    obs = Observation(d.side, rules, rules.observe(state, d.side), state.battlefield, tuple(events), state.max_turns)
    key = VoyageursAI(1).choose(obs, d)
    assert d.option(key) is not None
    return key


def test_ai_games_answer_every_decision_kind_they_meet_in_both_modes():
    kinds: Counter = Counter()
    for rules, map_name in (("voyageurs", "ruined_town"), ("voyageurs_aerial", "sky_deck")):
        for seed in range(3):
            match = new_match(MAPS / f"{map_name}.tmx", rules, seed)
            players = {s: VoyageursAI(seed * 2 + s) for s in (0, 1)}
            while match.pending is not None:
                d = match.pending
                kinds[(rules, d.kind)] += 1
                match.answer(match.ask(players[d.side]))
            assert match.outcome is not None
    assert {k for r, k in kinds if r == "voyageurs"} >= {"initiative", "action", "flight"}
    assert {k for r, k in kinds if r == "voyageurs_aerial"} >= {"action"}


def test_intercept_when_the_ally_has_fewer_pv_than_the_protector():
    for ally_pv, expected in ((5, "intercept:a1"), (18, "let_through")):     # the protector has 14
        st = ground([fig("scout", (1, 1)), fig("fighter", (2, 1), pv=ally_pv)], [fig("healer", (8, 1))])
        in_round(st, {"a1": 17, "a2": 17, "b1": 15}, active="b1")
        st.fig("a1").protecting = st.fig("a1").interception = True
        run(st, [], Strike("b1", "a2", "pistol", False))
        assert ask(GROUND, st) == expected


def test_flee_having_lost_half_the_starting_combatants_with_the_best_agi_plus_esp():
    st = ground([fig("scout", (1, 1)), fig("healer", (1, 3)), fig("fighter", (1, 5), pv=0)],
                [fig("gunner", (9, 1))])
    in_round(st, {"a1": 19, "a2": 18, "a3": 17, "b1": 15})
    st.fig("a3").status = "unconscious"
    st.battle.slots = []
    run(st, [], FlightCheck("battle"))
    assert ask(GROUND, st) == "stay"            # one of three down: not half
    st.fig("a2").pv, st.fig("a2").status = 0, "unconscious"
    st.fig("b1").initiative = 5
    st.steps.waiting = None
    st.steps.steps.clear()
    run(st, [], FlightCheck("battle"))
    assert ask(GROUND, st) == "flee:a1"         # scout AGI 7 + ESP 4


def test_accept_a_truce_only_behind_on_points_and_with_fewer_pv_than_the_proposer():
    for pv, expected in ((3, "accept_truce"), (18, "refuse_truce")):
        st = ground([fig("fighter", (1, 1), pv=pv)], [fig("fighter", (9, 1), pv=10)])
        in_round(st, {"a1": 17, "b1": 15})
        st.known[0].append("fighter")
        st.battle.truce.append(1)
        run(st, [], TruceCheck())
        assert ask(GROUND, st) == expected


def test_the_first_truce_of_an_even_battle_is_refused():
    kinds = ("scout", "gunner", "fighter", "healer")
    st = ground([fig(k, (1, 1 + 2 * i)) for i, k in enumerate(kinds)],
                [fig(k, (18, 1 + 2 * i)) for i, k in enumerate(kinds)])
    in_round(st, {f"{s}{i}": 15 for s in "ab" for i in range(1, 5)})
    st.battle.truce.append(1)
    run(st, [], TruceCheck())
    mine = sum(c.max_pv for c in st.side_of(0))
    ai = VoyageursAI(1)
    ai.seen = ()
    assert mine < ai.side_pv(GROUND.observe(st, 0), 1)     # the enemy's unknown PV guessed above its own
    assert ask(GROUND, st) == "refuse_truce"                # but nothing taken yet on either side


def test_hold_back_only_when_the_objective_is_capture():
    for objective, action in (("defeat", "attack"), ("capture", "hold_back")):
        st = ground([fig("fighter", (1, 1))], [fig("scout", (2, 1))], objective=objective)
        in_round(st, {"a1": 17, "b1": 15}, active="a1")
        st.known[0].append("scout")
        run(st, [], Act("a1"))
        assert ask(GROUND, st).startswith(action + ":b1")


def test_an_energy_plant_goes_to_a_gunner_whose_gun_is_nearly_empty():
    st = ground([fig("gunner", (1, 1), pe=1)], [fig("scout", (15, 1))])
    in_round(st, {"a1": 17, "b1": 15}, active="a1")
    st.known[0].append("scout")
    run(st, [], Act("a1"))
    assert ask(GROUND, st) == "use:energy_plant:a1"


def test_with_nothing_to_strike_and_nowhere_to_go_it_protects_the_ally_beside_it():
    bf = Battlefield.open_ground(20, 12)
    for x, y in ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (3, 1), (0, 2), (1, 2), (2, 2), (3, 2)):
        bf.blocks_move[y, x] = True
    st = ground([fig("fighter", (1, 1), items=[]), fig("scout", (2, 1))], [fig("gunner", (18, 10))], bf=bf)
    in_round(st, {"a1": 17, "a2": 16, "b1": 15}, active="a1")
    st.known[0].append("gunner")
    run(st, [], Act("a1"))
    assert not any(o.action in ("move", "sprint", "attack") for o in st.steps.waiting.options)
    assert ask(GROUND, st) == "protect"
    st.fig("a2").pv, st.fig("a2").status = 0, "unconscious"
    assert ask(GROUND, st) == "observe"          # an ally lying senseless is no one to stand guard with


def test_a_knowledge_test_is_taken_first_since_it_is_free():
    st = ground([fig("healer", (1, 1))], [fig("scout", (9, 1))])
    in_round(st, {"a1": 17, "b1": 15}, active="a1")
    run(st, [], Act("a1"))
    assert ask(GROUND, st) == "know:scout"


def test_the_hard_level_shoots_first_the_enemy_whose_gun_hurts_most_and_normal_the_nearest_to_falling():
    st = ground([fig("gunner", (2, 5)), fig("fighter", (2, 7)), fig("healer", (2, 3))],
                [fig("scout", (14, 3), pv=6), fig("gunner", (14, 7), pv=8)])
    in_round(st, {"a1": 17, "a2": 16, "a3": 16, "b1": 15, "b2": 15}, active="a1")
    st.known[0] += ["scout", "gunner"]
    run(st, [], Act("a1", knew=True))
    d = st.steps.waiting
    obs = Observation(0, GROUND, GROUND.observe(st, 0), st.battlefield, (), st.max_turns)
    for level, target in (("normal", "b1"), ("hard", "b2")):
        assert {VoyageursAI(seed, level).choose(obs, d) for seed in range(6)} == {f"attack:{target}:rifle"}


def air_ask(st, level: str = "normal", events=()) -> str:
    d = AIR.pending(st) if st.steps.waiting is None else st.steps.waiting
    obs = Observation(d.side, AIR, AIR.observe(st, d.side), st.battlefield, tuple(events), st.max_turns)
    key = VoyageursAI(1, level).choose(obs, d)
    assert d.option(key) is not None
    return key


def armed(**kw) -> list[dict]:
    crew = [{"kind": "fighter", "pilot": True}] + [{"kind": "gunner"}] * 4
    return [{"kind": "armed_transport", **kw}] + crew


class Idle:
    """A player whose transport only ever ends its activation."""

    name = "idle"

    def choose(self, observation, decision) -> str:
        return next(o.key for o in decision.options if o.action in ("end", "refuse_truce", "stay", "roll", "roll_off"))


def test_on_an_enemy_with_no_energy_left_normal_closes_in_before_it_fires_and_hard_holds_its_fire_till_close():
    for level, modifier in (("normal", -4), ("hard", 0)):     # one volley left, against a whole hull
        match = Match(Battlefield.open_ground(20, 12), AIR, [Army(0, "A", armed(pe=4)), Army(1, "B", armed(pe=0))],
                      seed=3)
        players = {0: VoyageursAI(1, level), 1: Idle()}
        while match.pending is not None and not any(e.kind == "volley" for e in match.log):
            match.answer(match.ask(players[match.pending.side]))
        first = next(e for e in match.log if e.kind == "volley")
        assert first.data["figure"] == "at" and first.data["modifier"] >= modifier    # 3 cases between, or 1


def test_a_transport_refuses_a_truce_when_ahead_and_takes_it_when_its_fight_is_lost():
    for hull, expected in ((40, "refuse_truce"), (5, "accept_truce")):
        st = aerial(armed(case=3, pv=hull, pe=0), armed(case=5, pv=40 if hull == 5 else 8))
        st.steps, st.battle.round, st.phase = StepStack(), 1, "turn_end"
        st.battle.truce.append(1)
        run(st, [], TruceCheck())
        assert air_ask(st, "hard") == expected


def test_the_duel_ends_in_the_points_when_neither_ship_can_fire_and_a_volley_loses_no_probability():
    s = duel.Ship(11, (3, 6), 14, 40, 4, 5)
    game = duel.Duel((s, s), 15, None, (-1.0, 1.0))
    value = game.value(3, 2, (0, 0))
    assert value[0, 30, 20] == 1 and value[0, 20, 30] == -1 and value[0, 25, 25] == 0
    m = duel.volley(s, s, 1, 4)
    assert np.allclose(m.sum(axis=1), 1.0) and m[0, 0] == 1.0


def test_board_when_the_crew_outnumbers_the_enemy_crew():
    crew = [{"kind": "fighter", "pilot": True}] + [{"kind": "fighter"}] * 4
    for n, boards in ((2, True), (5, False)):
        st = aerial([{"kind": "armed_transport", "case": 3, "speed": 20}] + crew,
                    [{"kind": "light_transport", "case": 4}] + crew[:n])
        assert (ask(AIR, st) == "board:bt") == boards


def test_send_defenders_and_fire_back_after_each_deck_round():
    crew = [{"kind": "fighter", "pilot": True}] + [{"kind": "fighter"}] * 4
    armies = [Army(0, "A", [{"kind": "armed_transport", "case": 3, "speed": 20}] + crew),
              Army(1, "B", [{"kind": "light_transport", "case": 4}] + crew[:3])]
    match = Match(Battlefield.open_ground(20, 12), AIR, armies, seed=4)
    match.answer("roll_off")
    match.answer("board:bt")
    players = {s: VoyageursAI(s) for s in (0, 1)}
    assert match.ask(players[1]).startswith("defend:")
    for _ in range(100):
        if match.pending.kind == "counter":
            break
        match.answer(match.ask(players[match.pending.side]))
    assert match.pending.kind == "counter" and match.ask(players[1]) == "fire:at"
    assert len(match.state.boarding.defenders) == 2


def test_talk_is_left_with_back_and_the_roll_is_made():
    st = ground([fig("fighter", (1, 1))], [fig("scout", (9, 1))])
    assert ask(GROUND, st) == "roll"
    in_round(st, {"a1": 17, "b1": 15}, active="a1")
    run(st, [], Act("a1"))
    answer(st, "talk")
    assert ask(GROUND, st) == "back"


def walled(pv: int | None = None, acted: bool = True):
    """Side 0's gunner, its shot spent (unless ``acted`` is False), beside a short wall that would hide it from
    side 1's gunner."""
    bf = Battlefield.open_ground(30, 12)
    for y in (4, 5, 6):
        bf.blocks_move[y, 8] = bf.blocks_sight[y, 8] = True
    st = ground([fig("gunner", (9, 5), **({"pv": pv} if pv is not None else {}))], [fig("gunner", (24, 5))], bf=bf)
    in_round(st, {"a1": 17, "b1": 15}, active="a1")
    st.known[0].append("gunner")
    run(st, [], Act("a1", acted=acted, knew=True))
    return st


def test_a_badly_wounded_gunner_falls_back_out_of_the_enemy_s_sight_and_a_whole_one_keeps_its_shot():
    st = walled(pv=3)
    hidden = [o.tile for o in st.steps.waiting.options if o.action == "move"
              and not space.line_of_sight(st.battlefield, o.tile, (24, 5))]
    assert hidden                                   # there is somewhere to hide within a move
    key = ask(GROUND, st)
    assert key.startswith("move:")
    assert not space.line_of_sight(st.battlefield, st.steps.waiting.option(key).tile, (24, 5))
    st = walled()
    key = ask(GROUND, st)
    where = st.steps.waiting.option(key).tile if key.startswith("move:") else st.fig("a1").tile
    assert space.line_of_sight(st.battlefield, where, (24, 5)) and space.distance(where, (24, 5)) <= 25


def test_a_whole_hard_gunner_shoots_and_then_steps_out_of_the_enemy_gunner_s_sight():
    st = walled(acted=False)
    d = st.steps.waiting
    obs = Observation(0, GROUND, GROUND.observe(st, 0), st.battlefield, (), st.max_turns)
    assert {VoyageursAI(seed, "hard").choose(obs, d) for seed in range(4)} == {"attack:b1:rifle"}
    st = walled()
    d = st.steps.waiting
    obs = Observation(0, GROUND, GROUND.observe(st, 0), st.battlefield, (), st.max_turns)
    for seed in range(4):
        key = VoyageursAI(seed, "hard").choose(obs, d)
        assert key.startswith("move:")
        assert not space.line_of_sight(st.battlefield, d.option(key).tile, (24, 5))


def test_the_gunner_shoots_the_enemy_its_shot_can_take_out_of_the_fight():
    for hurt in ("b1", "b2"):
        scouts = [fig("scout", (14, 3), **({"pv": 3} if hurt == "b1" else {})),
                  fig("scout", (14, 7), **({"pv": 3} if hurt == "b2" else {}))]
        st = ground([fig("gunner", (2, 5))], scouts)
        in_round(st, {"a1": 17, "b1": 15, "b2": 14}, active="a1")
        st.known[0].append("scout")
        run(st, [], Act("a1", knew=True))
        assert ask(GROUND, st) == f"attack:{hurt}:rifle"


def test_every_level_answers_with_one_of_the_options_offered():
    st = walled(pv=3)
    d = st.steps.waiting
    obs = Observation(0, GROUND, GROUND.observe(st, 0), st.battlefield, (), st.max_turns)
    for level in ("easy", "normal", "hard"):
        assert d.option(VoyageursAI(1, level).choose(obs, d)) is not None


def test_a_normal_transport_doomed_by_the_held_volley_holds_its_fire_rather_than_take_the_enemy_with_it():
    """Both ships lost is a draw by the rules; the short look counts it below a loss (BOTH_LOST_SHORT)."""
    st = aerial(armed(case=3, pv=5), armed(case=5, pv=5))
    assert AIR.pending(st).figure == "at"                     # side A first in turn 1
    play(AIR, st, "fire:bt", [3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1])
    assert st.battle.buffer and st.transports["bt"].pv == 5   # 6 held back: it is doomed, and acts
    d = AIR.pending(st)
    assert "fire:at" in [o.key for o in d.options]
    obs = Observation(1, AIR, AIR.observe(st, 1), st.battlefield, (), st.max_turns)
    assert "fire:at" not in {VoyageursAI(seed, "normal").choose(obs, d) for seed in range(8)}


def test_the_duel_takes_its_first_mover_in_a_tied_turn_from_the_rolled_off_side_a():
    s = duel.Ship(11, (3, 6), 14, 40, 4, 5)
    for side_a in (0, 1):
        game = duel.Duel((s, s), 15, None, (-1.0, 1.0), side_a)
        assert [game.first(t) for t in (1, 2, 3)] == [side_a, 1 - side_a, side_a]
    fast = duel.Ship(11, (3, 6), 17, 40, 4, 5)
    assert duel.Duel((s, fast), 15, None, (-1.0, 1.0), 0).first(1) == 1
