"""The greedy baseline: no lookahead; it attacks whenever it can, otherwise it moves toward the nearest
enemy; it knows no module, only the protocol, so it plays every registered one."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.ai import make_player
from game.ai.greedy import GreedyPlayer
from game.engine import space
from game.engine.match import Observation
from game.engine.save import new_match
from game.rules import names as rule_names
from tests.rules.eisdrachen_helpers import RULES, build, unit

SMALL_MAP = Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx"


def answer_of(state, seed=1):
    d = RULES.pending(state)
    key = GreedyPlayer(seed).choose(Observation(d.side, RULES, RULES.observe(state, d.side), state.battlefield, (),
                                                state.max_turns), d)
    return d.option(key)


def test_it_attacks_the_nearest_enemy_whenever_it_can():
    s = build(unit("a", 0, (0, 0), loadout="rifleman"), unit("far", 1, (15, 0)), unit("near", 1, (0, 9)))
    o = answer_of(s)
    assert o.action == "shoot" and o.target == "near"


def test_a_medic_beside_an_enemy_strikes_it_rather_than_heal_it():
    """Healing an enemy is aimed at it but rolls no die: it is no attack."""
    s = build(unit("m", 0, (0, 0), loadout="medic"), unit("e", 1, (1, 0)))
    assert {"heal:e", "melee:e"} <= {o.key for o in RULES.pending(s).options}
    assert answer_of(s).action in ("melee", "shoot")


def test_out_of_reach_it_moves_as_near_the_nearest_enemy_as_it_can():
    s = build(unit("p", 0, (0, 0), loadout="medic"), unit("o", 1, (25, 0), loadout="medic"))
    o = answer_of(s)
    moves = [m for m in RULES.pending(s).options if m.path]
    assert o.path and space.distance(o.path[-1], (25, 0)) == min(space.distance(m.path[-1], (25, 0)) for m in moves)


@pytest.mark.parametrize("rules", rule_names())
def test_it_plays_a_whole_battle_of_every_module_with_legal_answers(rules):
    match = new_match(SMALL_MAP, rules, 4, max_turns=3)
    players = {0: make_player("greedy", rules, 1), 1: make_player("random", rules, 2)}
    while match.pending is not None:
        match.answer(match.ask(players[match.pending.side]))      # an illegal key would raise
    assert match.outcome is not None


def test_it_stays_in_a_battle_when_a_decision_marks_staying_as_its_default():
    """A flight decision is neither an attack nor a move: drawn at random, most of its options flee."""
    from tests.rules.test_voyageurs_aerial import ARMED, LIGHT, crew
    from tests.rules.voyageurs_helpers import AIR, aerial, play

    st = aerial([LIGHT, {"kind": "scout", "AGI": 5, "ESP": 4, "pilot": True}] + crew(4)[1:], [ARMED] + crew(5))
    play(AIR, st, "end")
    play(AIR, st, "end")
    d = AIR.pending(st)
    assert d.kind == "flight" and d.default == "stay" and len(d.options) > 2
    obs = Observation(d.side, AIR, AIR.observe(st, d.side), st.battlefield, (), st.max_turns)
    assert {GreedyPlayer(seed).choose(obs, d) for seed in range(20)} == {"stay"}
