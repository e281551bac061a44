"""The Passe d'armes AI: it answers every decision kind from its observation, dodges or absorbs by expected
wounds, spends Exploits as rules/passe_d_armes.md 5.20 says, uses foresight, and plays whole battles."""
from __future__ import annotations

import random
from collections import Counter

from game.ai import make_player
from game.engine.dice import ScriptedDice
from game.engine.match import Match, Observation
from game.engine.save import new_match
from game.rules.passe_d_armes.ai import PasseAI
from game.rules.passe_d_armes.effects import Game
from game.rules.passe_d_armes.flow import Act, Attack, EndPasse, StartPasse
from game.rules.passe_d_armes.odds import attack_odds
from game.rules.passe_d_armes.rolls import Monitor
from game.rules.passe_d_armes.state import weapon

from tests.rules.passe_d_armes_helpers import RULES, Driver, field, fighter, state_of


def ask(state, side=None, seed=1, level="hard"):
    """The AI's answer to the decision ``state`` waits for, from that side's observation, at the level that
    plays its scores as they are (normal hesitates between close ones)."""
    d = state.steps.waiting
    obs = Observation(d.side, RULES, RULES.observe(state, d.side), state.battlefield, (), state.max_turns)
    return PasseAI(seed, level).choose(obs, d)


def test_the_ai_is_the_modules_tactical_player():
    assert isinstance(make_player("tactical", "passe_d_armes", 3), PasseAI)


def defence_case(attacker: str, defender: str, tiles) -> tuple:
    """The defender's AI answer to ``attacker``'s attack, and the mean wounds of each defence."""
    st = state_of(fighter(attacker, 0, tiles[0]), fighter(defender, 1, tiles[1]))
    Driver(st, []).run(Attack(attacker, defender))
    att, tgt = st.figure(attacker), st.figure(defender)
    w = weapon(att.in_hand)
    means = {d: attack_odds(att.net(w["skill"], attack=True), w["index"], d, tgt.net(skill, defence=True),
                            tgt.defence).mean
             for d, skill in (("dodge", "reflexe"), ("absorb", "resister"))}
    return ask(st), means


def test_a_quick_fencer_dodges_a_rifle_and_a_tough_brawler_absorbs_a_sword_cane_by_expected_wounds():
    answer, means = defence_case("shooter", "fencer", ((1, 1), (9, 1)))
    assert means["dodge"] < means["absorb"] and answer == "dodge"
    answer, means = defence_case("fencer", "brawler", ((4, 4), (5, 4)))
    assert means["absorb"] < means["dodge"] and answer == "absorb"


def test_an_attack_exploit_forces_the_worse_defence_when_the_scores_differ_by_two():
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("shooter", 1, (5, 4)))      # Réflexe 6, Résister 3
    d = Driver(st, [1], ["dodge"]).run(Attack("brawler", "shooter"))
    assert d.waiting.kind == "exploit" and ask(st) == "force:absorb"
    st = state_of(fighter("brawler", 0, (4, 4)), fighter("guard", 1, (5, 4)))        # 5 and 5
    d = Driver(st, [1], ["dodge"]).run(Attack("brawler", "guard"))
    assert ask(st) == "keep"


def test_after_the_defence_roll_it_rerolls_a_winning_defender_or_else_ignores_protection():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("brawler", 1, (5, 4)))
    Driver(st, [1, 1], ["dodge", "keep"]).run(Attack("fencer", "brawler"))        # 7 against 4 - (1+1) = 2
    attack = st.steps.steps[-1]
    assert attack.d_margin < attack.a_margin and ask(st) == "ignore_protection"
    st = state_of(fighter("shooter", 0, (4, 4), in_hand="knife"), fighter("fencer", 1, (5, 4)))
    Driver(st, [1, 1], ["dodge", "keep"]).run(Attack("shooter", "fencer"))           # P9: the fencer would win
    assert ask(st) == "reroll"
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("shooter", 1, (5, 4)))
    Driver(st, [1, 9], ["absorb", "keep"]).run(Attack("fencer", "shooter"))          # no protection to ignore
    assert ask(st) == "unused"


def test_it_ripostes_on_the_attacker_when_it_can():
    st = state_of(fighter("shooter", 0, (1, 1)), fighter("guard", 1, (9, 1)))
    d = Driver(st, [6, 1], ["dodge"]).run(Attack("shooter", "guard"))
    assert d.waiting.kind == "riposte" and ask(st) == "attack:shooter"


def test_it_accepts_a_truce_only_when_outnumbered():
    def truce(ours, theirs):
        figs = [fighter("guard", 0, (2, 2 + i), fid=f"a{i}") for i in range(theirs)] + \
               [fighter("guard", 1, (9, 2 + i), fid=f"b{i}") for i in range(ours)]
        st = state_of(*figs)
        st.truce_offer = 0
        Driver(st, []).run(EndPasse())
        return ask(st)
    assert truce(1, 2) == "accept_truce"
    assert truce(2, 2) == "refuse_truce"


def test_an_exploit_combatant_strikes_the_declarer_about_to_hit_it_first():
    st = state_of(fighter("fencer", 0, (5, 5)), fighter("brawler", 1, (6, 5), fid="b1"),
                  fighter("brawler", 1, (4, 5), fid="b2"))
    st.initiative = {"fencer": [5, True], "b1": [1, False], "b2": [1, False]}
    st.foresight = [0]
    st.declarations = {"b1": ["end"], "b2": ["attack:fencer", "end"]}
    Driver(st, []).run(Act("fencer"))
    assert st.steps.waiting.option(ask(st)).target == "b2"
    st.declarations = {"b1": ["attack:fencer", "end"], "b2": ["end"]}
    assert st.steps.waiting.option(ask(st)).target == "b1"


def test_it_closes_in_when_no_enemy_is_in_reach_and_never_withdraws():
    bf = field(30, 8)
    bf.exit_side[:, 0] = 0
    st = state_of(fighter("fencer", 0, (2, 3)), fighter("guard", 1, (27, 3)), bf=bf)
    Driver(st, []).run(Act("fencer"))
    choice = st.steps.waiting.option(ask(st))
    assert choice.action in ("sprint", "move")
    game = Game(st, ScriptedDice([]))
    for _ in range(3):
        d = st.steps.waiting
        if d is None or d.figure != "fencer":
            break
        o = d.option(ask(st))
        assert o.action != "withdraw"
        st.steps.resume(o, game, lambda g: False)
    assert st.figure("fencer").tile[0] > 6


def test_it_answers_every_decision_kind_whatever_the_other_side_hides():
    asked = Counter()
    rng = random.Random(3)
    for seed in (1, 2):
        match = new_match("maps/forest_village.tmx", "passe_d_armes", seed, max_turns=8)
        players = {s: make_player("tactical", "passe_d_armes", seed * 2 + s) for s in (0, 1)}
        while match.pending is not None:
            d = match.pending
            key = match.ask(players[d.side])
            assert d.option(key) is not None
            asked[d.kind] += 1
            if rng.random() < 0.15:
                disguised = RULES.disguise(match.state, d.side, random.Random(rng.random()))
                seen = match.observe(d.side)
                other = Observation(d.side, RULES, RULES.observe(disguised, d.side), match.battlefield, seen.events,
                                    match.max_turns)
                fresh = random.randrange(1000)
                assert PasseAI(fresh).choose(seen, d) == PasseAI(fresh).choose(other, d)
            match.answer(key)
        assert match.outcome is not None
    assert {"initiative", "action", "declare", "defence"} <= set(asked)


def test_a_battle_between_ais_ends_by_defeat_within_the_passes():
    match = new_match("maps/forest_village.tmx", "passe_d_armes", 4)
    players = {s: make_player("tactical", "passe_d_armes", s + 9) for s in (0, 1)}
    while match.pending is not None:
        match.answer(match.ask(players[match.pending.side]))
    assert match.outcome.reason in ("defeat", "mutual", "points")
    assert match.state.turn <= RULES.default_max_turns
    assert not any(k.startswith(("surrender", "truce")) for k in match.answers)


def test_the_same_seed_gives_the_same_answers():
    def answers(seed):
        match = Match(field(14, 10), RULES, RULES.default_armies(field(14, 10)), seed, max_turns=4)
        players = {s: make_player("tactical", "passe_d_armes", 5 + s) for s in (0, 1)}
        while match.pending is not None:
            match.answer(match.ask(players[match.pending.side]))
        return match.answers
    assert answers(2) == answers(2)


def test_a_start_passe_with_no_active_enemy_leaves_nothing_to_answer():
    st = state_of(fighter("fencer", 0, (2, 2)), fighter("guard", 1, (9, 2), monitor=Monitor(S=10)), turn=0)
    st.turn = 1
    Driver(st, [5]).run(StartPasse())
    assert st.order == [["fencer"]]


def test_it_strikes_the_enemy_one_trauma_from_out_rather_than_a_fresh_one():
    """Wounds no more than those already taken mark the box above the highest (rules/passe_d_armes.md 5.10):
    on a monitor at 9 any trauma puts it out of the fight."""
    for hurt in ("guard", "brawler"):
        st = state_of(fighter("fencer", 0, (5, 5)),
                      fighter("guard", 1, (6, 5), monitor=Monitor(T=9) if hurt == "guard" else Monitor()),
                      fighter("brawler", 1, (5, 6), monitor=Monitor(T=9) if hurt == "brawler" else Monitor()))
        Driver(st, []).run(Act("fencer"))
        assert st.steps.waiting.option(ask(st)).target == hurt
