"""Passe d'armes as a match: the opening, the defender's decision, secret declarations under foresight and
what each side may know of them, chained ripostes, truce, surrender, withdrawal, the time limit, odds,
armies, the results summary and the invariants."""
from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from game.ai import make_player
from game.engine.dice import ScriptedDice
from game.engine.match import Match
from game.engine.protocol import Army
from game.engine.save import load_match, new_match, save_match
from game.errors import RulesError
from game.rules.passe_d_armes.effects import Game
from game.rules.passe_d_armes.flow import Act, Attack, Declare, EndPasse, StartPasse
from game.rules.passe_d_armes.rolls import Monitor
from game.sim import run_games

from .passe_d_armes_helpers import RULES, Driver, field, fighter, state_of

ROOT = Path(__file__).resolve().parents[2]
FOREST = ROOT / "maps" / "forest_village.tmx"


def small_match(seed: int = 1) -> Match:
    bf = field(14, 10)
    bf.spawn = {0: [(1, y) for y in range(2, 8)], 1: [(12, y) for y in range(2, 8)]}
    return Match(bf, RULES, RULES.default_armies(bf), seed)


def play_until(match: Match, kind: str, players=None, limit: int = 3000):
    players = players or {s: make_player("tactical", "passe_d_armes", s + 1) for s in (0, 1)}
    for _ in range(limit):
        d = match.pending
        if d is None or d.kind == kind:
            return d
        match.answer(match.ask(players[d.side]))
    raise AssertionError(f"no {kind} decision")


# --- the opening and the defender's decision ----------------------------------------------------

def test_the_battle_opens_with_one_initiative_question_and_no_die_rolled():
    match = small_match()
    d = match.pending
    assert d.kind == "initiative" and [o.key for o in d.options] == ["roll"]
    assert match.dice.count == 0
    events = match.answer("roll")
    rolled = [e for e in events if e.kind == "dice"]
    assert len(rolled) == 8 and all(e.data["purpose"] == "initiative" for e in rolled)
    assert match.state.turn == 1


def test_the_defender_chooses_to_dodge_or_absorb_out_of_the_attackers_sight():
    match = small_match(3)
    d = play_until(match, "defence")
    attack = match.state.steps.steps[-1]
    assert isinstance(attack, Attack)
    defender, attacker = match.state.figure(attack.target), match.state.figure(attack.attacker)
    assert d.side == defender.side != attacker.side
    assert d.secret and {o.key for o in d.options} == {"dodge", "absorb"}
    events = match.answer("absorb")
    assert [e.data for e in events if e.kind == "defence"] == [{"figure": defender.id, "defence": "absorb"}]
    assert any(e.kind == "dice" and e.data["purpose"] == "absorb" for e in events)


def test_the_odds_of_an_attack_show_both_defences_and_those_of_each_defence_its_wounds():
    match = small_match(3)
    d = play_until(match, "defence")
    attack = match.state.steps.steps[-1]
    for o in d.options:
        odds = RULES.odds(match.observe(d.side).state, o)
        assert sum(odds.outcomes.values()) == 1
        assert odds.title == o.key
    st = match.state
    att = st.figure(attack.attacker)
    from game.engine.decision import Option
    preview = RULES.odds(st, Option(f"attack:{attack.target}", "attack", att.id, target=attack.target,
                                    value=att.in_hand))
    assert set(preview.outcomes) == {"wins:dodge", "wins:absorb"}
    for defence in ("dodge", "absorb"):
        assert sum(preview.details[defence].values()) == 1
        assert preview.details[f"{defence}_mean"] == sum(
            int(k.split(":")[1]) * p for k, p in preview.details[defence].items())


def test_attack_odds_match_the_spec_table_for_a_pistol_against_an_unprotected_dodger():
    from game.engine.decision import Option
    st = state_of(fighter("guard", 0, (1, 1), skills={"lutte": 2, "escrime": 2, "tir": 3, "reflexe": 2,
                                                       "resister": 2}, protection="none"),
                  fighter("shooter", 1, (8, 1), skills={"lutte": 0, "escrime": 1, "tir": 4, "reflexe": 1,
                                                         "resister": 3}))
    guard = st.figure("guard")
    assert guard.net("tir") == 6
    odds = RULES.odds(st, Option("attack:shooter", "attack", "guard", target="shooter", value="pistol"))
    assert odds.details["dodge_mean"] == Fraction(83, 25)
    assert odds.details["dodge"]["wounds:0"] == Fraction(9, 25)
    assert odds.details["absorb_mean"] == Fraction(183, 50)
    assert "wounds:0" not in odds.details["absorb"]


# --- declarations and foresight (5.1 b) ---------------------------------------------------------

def foresight_state():
    """The fencer (side 0) rolls an initiative Exploit; the three others declare."""
    st = state_of(fighter("fencer", 0, (3, 3)), fighter("shooter", 0, (3, 6)),
                  fighter("brawler", 1, (9, 3)), fighter("guard", 1, (9, 6)), turn=0)
    st.turn = 0
    return st


def test_without_an_exploit_the_others_declare_in_secret_and_the_exploit_side_learns_them_all():
    st = foresight_state()
    d = Driver(st, [1, 5, 5, 6], ["roll"]).run(StartPasse())
    assert st.order[0] == ["fencer"] and st.phase == "declarations"
    declare = d.waiting
    assert declare.kind == "declare" and declare.secret and declare.side == 0 and declare.figure == "shooter"
    game = Game(st, d.dice)
    for fid in ("shooter", "brawler", "guard"):
        assert st.steps.waiting.figure == fid
        st.steps.resume(st.steps.waiting.option("end"), game, lambda g: False)
    assert set(st.declarations) == {"shooter", "brawler", "guard"}
    declared = [e for e in game.events if e.kind == "declared"]
    assert [(e.data["figure"], e.visible_to) for e in declared] == [("shooter", 0), ("brawler", 1), ("guard", 1)]
    foresight = [e for e in game.events if e.kind == "foresight"]
    assert sorted((e.data["figure"], e.visible_to) for e in foresight) == [("brawler", 0), ("guard", 0)]
    assert st.foresight == [0]
    assert set(RULES.observe(st, 0).declarations) == {"shooter", "brawler", "guard"}
    assert set(RULES.observe(st, 1).declarations) == {"brawler", "guard"}
    assert st.steps.waiting.kind == "action" and st.steps.waiting.figure == "fencer"


def test_a_declaration_part_made_is_hidden_from_the_other_side_and_drawn_afresh_by_disguise():
    st = foresight_state()
    Driver(st, [1, 5, 5, 6], ["roll"]).run(StartPasse())
    game = Game(st, ScriptedDice([]))
    move = next(o for o in st.steps.waiting.options if o.action == "move")
    st.steps.resume(move, game, lambda g: False)              # the shooter's move declared, its action not yet
    def shooters(state):
        return next(s for s in state.steps.steps if isinstance(s, Declare) and s.figure == "shooter")

    assert shooters(st).plan == [move.key]
    assert shooters(RULES.observe(st, 1)).plan == [] and shooters(RULES.observe(st, 1)).at is None
    assert shooters(RULES.observe(st, 0)).plan == [move.key]
    st.steps.resume(st.steps.waiting.option("end"), game, lambda g: False)
    assert st.declarations["shooter"] == [move.key, "end"]
    before = (RULES.figures(st, 1), RULES.panels(st, 1), RULES.pending(st))
    rng = random.Random(4)
    for _ in range(10):
        other = RULES.disguise(st, 1, rng)
        assert set(other.declarations) == {"shooter"}
        assert (RULES.figures(other, 1), RULES.panels(other, 1), RULES.pending(other)) == before
    assert any(RULES.disguise(st, 1, random.Random(k)).declarations["shooter"] != st.declarations["shooter"]
               for k in range(10))
    assert RULES.disguise(st, 0, rng).declarations == st.declarations


def test_the_exploit_sides_panel_shows_the_enemy_declarations_the_others_only_their_own():
    st = foresight_state()
    Driver(st, [1, 5, 5, 6], ["roll"]).run(StartPasse())
    game = Game(st, ScriptedDice([]))
    for _ in range(3):
        st.steps.resume(st.steps.waiting.option("end"), game, lambda g: False)
    shown = {side: [w.get("figure") for p in RULES.panels(st, side) if p.id == "intentions" for w in p.lines]
             for side in (0, 1)}
    assert sorted(shown[0]) == ["brawler", "guard", "shooter"]
    assert sorted(shown[1]) == ["brawler", "guard"]


def test_a_declaration_no_longer_legal_is_made_again_at_that_moment():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("guard", 1, (8, 4)), fighter("brawler", 1, (10, 4)))
    st.declarations["fencer"] = ["move:9,4", "attack:brawler"]
    st.figure("guard").tile = (9, 4)                       # someone took the declared tile
    d = Driver(st, []).run(Act("fencer"))
    assert d.waiting.kind == "action" and d.waiting.figure == "fencer"
    assert "declaration_void" in d.kinds() and "fencer" not in st.declarations


# --- ripostes (5.8) -----------------------------------------------------------------------------

def test_a_riposte_can_itself_be_riposted():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("guard", 1, (5, 4), in_hand="club"))
    answers = ["dodge", "attack:fencer", "dodge", "attack:guard", "dodge", "no_riposte"]
    d = Driver(st, [5, 1, 5, 1, 5, 1], answers).run(Attack("fencer", "guard"))
    assert [x.kind for x in d.decisions] == ["defence", "riposte", "defence", "riposte", "defence", "riposte"]
    assert [x.side for x in d.decisions if x.kind == "riposte"] == [1, 0, 1]
    assert [e.data["riposte"] for e in d.of("assault")] == [False, True, True]
    assert "riposte_declined" in d.kinds()


def test_a_riposte_needs_reach():
    st = state_of(fighter("shooter", 0, (1, 1)), fighter("fencer", 1, (9, 1)))
    d = Driver(st, [6, 1], ["dodge"]).run(Attack("shooter", "fencer"))
    assert d.waiting is None and "riposte_out_of_reach" in d.kinds()


# --- the end of the battle (5.19) ----------------------------------------------------------------

def test_a_truce_proposed_in_a_passe_is_put_to_the_other_side_at_its_end():
    st = state_of(fighter("fencer", 0, (2, 2)), fighter("guard", 1, (10, 2)))
    st.turn = 1
    d = Driver(st, [], ["truce", "end"]).run(Act("fencer"), EndPasse())
    assert st.truce_offer == 0
    truce = d.waiting
    assert truce.kind == "truce" and truce.side == 1
    st.steps.resume(truce.option("accept_truce"), Game(st, d.dice), lambda g: False)
    assert st.over and st.winner is None and st.reason == "truce"


def test_surrender_at_the_start_of_an_activation_gives_the_other_side_the_battle():
    st = state_of(fighter("fencer", 0, (2, 2)), fighter("guard", 1, (10, 2)))
    Driver(st, [], ["surrender"]).run(Act("fencer"))
    assert st.over and st.winner == 1 and st.reason == "surrender" and not st.steps.steps


def test_ending_a_move_on_ones_own_exit_tile_withdraws():
    bf = field()
    bf.exit_side[2, 0] = 0
    st = state_of(fighter("fencer", 0, (2, 2)), fighter("shooter", 0, (2, 5)), fighter("guard", 1, (10, 2)), bf=bf)
    d = Driver(st, []).run(Act("fencer"))
    withdraw = next(o for o in d.waiting.options if o.action == "withdraw")
    assert withdraw.tile == (0, 2)
    st.steps.resume(withdraw, Game(st, d.dice), lambda g: False)
    fencer = st.figure("fencer")
    assert fencer.withdrawn and fencer.tile is None and not fencer.active
    view = next(f for f in RULES.figures(st, 0) if f.id == "fencer")
    assert view.tile is None and view.alive and view.marked("withdrawn")
    assert not st.over


def test_the_side_with_no_combatant_in_the_fight_loses():
    st = state_of(fighter("fencer", 0, (4, 4)), fighter("guard", 1, (5, 4), monitor=Monitor(T=9)))
    Driver(st, [1, 9], ["dodge", "keep", "unused"]).run(Attack("fencer", "guard"))
    assert st.figure("guard").monitor.status == "out"
    assert st.over and st.winner == 0 and st.reason == "defeat"


def test_after_the_last_passe_points_decide_boxes_marked_and_combatants_out():
    """Project default (engine/objectives.py): boxes marked on the enemy, a whole monitor for one out."""
    match = Match(field(14, 10), RULES, RULES.default_armies(field(14, 10)), 5, max_turns=2)
    while match.pending is not None:
        d = match.pending
        match.answer("end" if d.option("end") else d.options[0].key)
    st = match.state
    assert st.turn == 2 and st.reason == "points" and st.winner is None
    st = state_of(fighter("fencer", 0, (2, 2)), fighter("shooter", 0, (2, 4)), fighter("guard", 1, (10, 2)),
                  fighter("brawler", 1, (10, 4), monitor=Monitor(S=10)))
    st.turn = st.max_turns
    Driver(st, []).run(EndPasse())
    assert st.over and st.reason == "points" and st.winner == 0
    assert [w.as_dict()["points"] for w in RULES.outcome(st).details if w.key == "result.points"] == [10, 0]


def test_the_results_give_each_combatants_recovery():
    st = state_of(fighter("fencer", 0, (4, 4), monitor=Monitor(T=5, S=10)),
                  fighter("guard", 1, (5, 4), monitor=Monitor(T=10, S=0, overflow=3, dead=True)))
    st.over, st.winner, st.reason = True, 0, "defeat"
    out = RULES.outcome(st)
    fencer, guard = out.details
    assert fencer.key == "summary.figure" and fencer.get("state") == "ko"
    assert (fencer.get("shock"), fencer.get("minutes"), fencer.get("minutes_cared")) == (5, 3, 2)
    assert (fencer.get("trauma"), fencer.get("days"), fencer.get("days_cared")) == (5, 3, 2)
    assert guard.key == "summary.dead"


# --- the monitor in the window's terms ----------------------------------------------------------

def test_the_vital_monitor_is_a_gauge_of_boxes_with_ticks_and_crosses():
    st = state_of(fighter("guard", 0, (4, 4), monitor=Monitor(T=3, S=6)))
    view = RULES.figures(st, 1)[0]
    g = view.gauges[0]
    assert (g.id, g.style, g.value, g.max) == ("monitor", "boxes", 4, 10)
    assert g.boxes == ("trauma",) * 3 + ("shock",) * 3 + ("",) * 4
    out = RULES.figures(state_of(fighter("guard", 0, (4, 4), monitor=Monitor(T=10, overflow=1))), 0)[0]
    assert out.marked("out") and out.gauges[1].id == "death" and (out.gauges[1].value, out.gauges[1].max) == (2, 3)


# --- armies ----------------------------------------------------------------------------------------

def test_the_default_armies_are_the_four_roster_roles_each():
    armies = RULES.default_armies(field())
    assert [[f["role"] for f in a.figures] for a in armies] == [["fencer", "brawler", "shooter", "guard"]] * 2
    assert armies[0].figures[1]["weapon"] == "bat" and armies[0].figures[1]["protection"] == "medium"


def test_an_army_with_an_unknown_weapon_is_refused_in_words_and_a_match_with_it_names_the_figure():
    army = Army(0, "x", [{"role": "fencer", "weapon": "halberd", "protection": "light"}])
    assert [w.key for w in RULES.army_problems(army)] == ["problem.unknown"]
    with pytest.raises(RulesError) as e:
        Match(field(), RULES, [army, RULES.default_armies(field())[1]], 1)
    assert "figure 1 of side 0" in str(e.value) and "halberd" in str(e.value)


def test_a_chosen_weapon_goes_in_hand_and_the_roles_others_are_carried():
    f = RULES._build(0, 0, {"role": "guard", "weapon": "rifle"})
    assert f.in_hand == "rifle" and f.weapons == ["rifle", "club"]
    f = RULES._build(0, 0, {"role": "brawler"})
    assert f.in_hand == "bat" and f.weapons == ["bat"]


# --- invariants, determinism, replays ------------------------------------------------------------------

def test_the_invariants_catch_a_hold_between_figures_apart():
    st = state_of(fighter("brawler", 0, (2, 2)), fighter("shooter", 1, (9, 2), held_by="brawler"))
    assert any("held by brawler" in v for v in RULES.check_invariants(st))
    assert RULES.check_invariants(state_of(fighter("brawler", 0, (2, 2)))) == []


def test_sim_on_the_forest_village_repeats_exactly_with_no_violation():
    a = run_games(FOREST, "passe_d_armes", seed=1, games=2, check_invariants=True)
    b = run_games(FOREST, "passe_d_armes", seed=1, games=2)
    assert a.violations == []
    assert [g.digest for g in a.games] == [g.digest for g in b.games]
    assert all(g.reason in ("defeat", "mutual", "points", "truce", "surrender") for g in a.games)


def test_a_saved_game_replays_to_the_same_digest(tmp_path):
    match = new_match(FOREST, "passe_d_armes", 11, max_turns=4)
    players = {s: make_player("tactical", "passe_d_armes", s + 1) for s in (0, 1)}
    while match.pending is not None:
        match.answer(match.ask(players[match.pending.side]))
    path = tmp_path / "passe.json"
    save_match(match, path)
    assert load_match(path).digest() == match.digest()


def test_the_end_of_the_battle_drops_every_step_still_to_come():
    """However it ends (here a surrender while a simultaneous group waits to act), nothing runs after."""
    from game.rules.passe_d_armes.effects import Game, finish
    from game.rules.passe_d_armes.flow import EndPasse, Group

    st = state_of(fighter("fencer", 0, (2, 2)), fighter("guard", 1, (10, 2)))
    st.steps.push(Group(["fencer", "guard"], 0), EndPasse())
    finish(Game(st, ScriptedDice([])), 0, "surrender")
    assert st.over and st.steps.steps == [] and RULES.check_invariants(st) == []
