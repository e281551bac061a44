"""The tactical Eisdrachen AI: a legal answer to every decision kind, and the choices of the framework's
expected values (free kills, no friendly fire, falling back, grenades), from its side's observation only."""
from __future__ import annotations

import random

from game.ai import make_player
from game.rules.eisdrachen import actions as act
from game.rules.eisdrachen.ai import EisdrachenAI
from game.rules.eisdrachen.combat import weapon
from game.engine import space
from game.engine.battlefield import Battlefield
from game.engine.decision import Decision, Option
from game.engine.match import Match, Observation
from game.engine.tokens import Token
from game.rules.eisdrachen import Eisdrachen
from tests.rules.eisdrachen_helpers import RULES, answer, bless_in_hiding, build, unit


def seen_by(state, side):
    """What the AI is given: its side's observation, never the state itself."""
    return Observation(side, RULES, RULES.observe(state, side), state.battlefield, (), state.max_turns)


def legal(state, level="hard"):
    """The AI's answer at the level that plays its scores as they are (normal hesitates between close ones)."""
    decision = RULES.pending(state)
    key = EisdrachenAI(1, level).choose(seen_by(state, decision.side), decision)
    assert decision.option(key) is not None
    return decision.kind, key


def test_ai_answers_every_decision_kind_with_a_legal_key():
    seen = {}
    bf = Battlefield.open_ground(24, 24)
    s = RULES.new_state(bf, RULES.default_armies(bf), 12)
    kind, key = legal(s)
    seen[kind] = key
    answer(s, key, [6, 1])
    seen.update([legal(s)])
    s = build(unit("a", 0, (0, 0), grenades=1), unit("t", 1, (10, 0)), unit("u", 1, (13, 4)))
    seen.update([legal(s)])
    s = build(unit("a", 0, (0, 0), blade=None), unit("t", 1, (2, 1)))
    answer(s, "melee:t")
    seen.update([legal(s)])
    s = build(unit("s", 0, (0, 0)), unit("v", 1, (1, 0), "Vétéran", blade=None))
    answer(s, "melee:v", [1, 1, 6, 6, 6, 6])
    assert legal(s) == ("riposte", "riposte")
    seen["riposte"] = "riposte"
    s = build(unit("e", 1, (10, 6), loadout="rifleman"), unit("c", 0, (0, 6), loadout="rifleman"), turn=3)
    s.figure("c").add_status("alerted", [3])
    answer(s, "shoot:c", [1, 1, 6, 6, 6, 6])
    assert legal(s) == ("alarm_riposte", "shoot")
    seen["alarm_riposte"] = "shoot"
    s = build(unit("l", 0, (10, 10), trap_kits=1), unit("o", 1, (20, 10)))
    answer(s, "trap_open")
    for _ in range(3):
        kind, key = legal(s)
        seen[kind] = key
        answer(s, key)
    kind, key = legal(s)
    seen[kind] = key
    answer(s, key)
    kind, key = legal(s)
    seen[kind] = key
    assert {"initiative", "activate", "action", "melee_contact", "riposte", "alarm_riposte", "trap_token",
            "trap_real", "flee"} <= set(seen)


def test_ai_shoots_the_target_it_hurts_most():
    s = build(unit("a", 0, (0, 0), "Vétéran", loadout="assault"), unit("tough", 1, (6, 0), "Assassin"),
              unit("soft", 1, (0, 6), "Bleu", pv=3))
    assert legal(s) == ("action", "shoot:soft")


def test_ai_throws_grenades_at_clusters_not_at_friends():
    s = build(unit("g", 0, (0, 0), "Assassin", loadout="medic", grenades=2), unit("x", 1, (8, 0)),
              unit("y", 1, (8, 1)), unit("z", 1, (9, 1)))
    kind, key = legal(s)
    assert key.startswith("grenade:")
    s = build(unit("g", 0, (0, 0), "Assassin", loadout="medic", grenades=2), unit("x", 1, (8, 0)),
              unit("y", 1, (8, 1)), unit("z", 1, (9, 1)), unit("f1", 0, (8, 2)), unit("f2", 0, (9, 0)))
    assert not legal(s)[1].startswith("grenade:")


def test_ai_takes_a_free_kill_over_a_healthier_target():
    """A Soldat at 1 PV dies to almost any hit; an Assassin at full PV dodges half the shots: the kill first."""
    s = build(unit("a", 0, (0, 0), "Vétéran", loadout="assault"), unit("tough", 1, (6, 0), "Assassin"),
              unit("weak", 1, (0, 10), pv=1))
    assert legal(s) == ("action", "shoot:weak")


def test_a_wounded_figure_under_fire_falls_back_out_of_the_enemy_lines_of_fire():
    """At 1 PV in the open before two rifles, with no shot of its own, it walks behind the wall; a whole
    rifleman on the same tile trades shots instead."""
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_move[12:21, 12] = bf.blocks_sight[12:21, 12] = True
    rifles = (unit("r1", 1, (25, 10), loadout="rifleman"), unit("r2", 1, (25, 14), loadout="rifleman"))
    s = build(unit("w", 0, (11, 9), loadout="medic", pv=1), *rifles, bf=bf)
    sight = act.sight_for(bf)

    def exposed(tile):
        return any(space.within(r, tile, 18) and sight(r, tile) for r in ((25, 10), (25, 14)))
    assert exposed((11, 9))
    chosen = RULES.pending(s).option(legal(s)[1])
    assert chosen.action in ("move", "jump") and not exposed(chosen.tile)
    whole = build(unit("w", 0, (11, 9), loadout="rifleman"), *rifles, bf=bf)
    assert legal(whole)[1].startswith("shoot:")


def test_the_score_sends_forward_at_the_last_turn_a_figure_that_keeps_out_of_sight_before_even_when_behind():
    """A whole medic with no shot at two rifles: at the first turn it keeps behind the wall; at the last turn
    it goes for them (Tactician.posture). Behind on points (two friends badly hurt), hard still holds back in
    the first half of the battle (EisdrachenAI._posture) and goes at the last turn."""
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_move[12:21, 12] = bf.blocks_sight[12:21, 12] = True
    rifles = (unit("r1", 1, (25, 10), loadout="rifleman"), unit("r2", 1, (25, 14), loadout="rifleman"))
    hurt = [unit(f"h{i}", 0, (i, 29), loadout="rifleman", pv=1) for i in range(2)]
    sight = act.sight_for(bf)

    def went(turn, *friends):
        s = build(unit("w", 0, (11, 9), loadout="medic"), *rifles, *friends, bf=bf, turn=turn)
        kind, key = legal(s)
        assert key.startswith("move:")
        tile = RULES.pending(s).option(key).tile
        return space.distance(tile, (25, 12)), any(sight(r, tile) for r in ((25, 10), (25, 14)))

    (first, seen_first), (last, seen_last) = went(1), went(12)
    assert not seen_first and seen_last and last < first
    assert not went(1, *hurt)[1] and went(12, *hurt)[1]


def test_ai_heals_a_hurt_ally_when_no_enemy_is_in_reach():
    s = build(unit("m", 0, (0, 0), loadout="medic"), unit("a", 0, (1, 0), pv=2), unit("o", 1, (29, 29)),
              size=40)
    assert legal(s) == ("action", "heal:a")


def test_ai_fights_an_adjacent_enemy_it_outclasses_in_melee():
    s = build(unit("v", 0, (0, 0), "Assassin", loadout="medic"), unit("b", 1, (1, 0), "Bleu", pv=2, blade=None,
                                                                  loadout="medic"))
    s.figure("v").weapon = "pistol"
    s.figure("v").add_status("emp", [1])
    assert legal(s) == ("action", "melee:b")


def test_ai_moves_toward_the_enemy_when_it_cannot_shoot():
    s = build(unit("p", 0, (0, 0), loadout="medic"), unit("o", 1, (20, 0), loadout="medic"))
    kind, key = legal(s)
    assert key.startswith("move:")
    x, y = map(int, key[5:].split(","))
    assert abs(20 - x) + abs(y) < 20


def test_ai_sounds_the_alarm_only_for_friends_not_yet_alerted():
    s = build(unit("s", 0, (0, 0)), unit("f", 0, (3, 0), loadout="rifleman"), unit("o", 1, (29, 29)), size=40)
    scores = EisdrachenAI(1).score_action(seen_by(s, 0), RULES.pending(s))
    assert scores["alarm"] > scores["end"]
    answer(s, "alarm")
    scores = EisdrachenAI(1).score_action(seen_by(s, 0), RULES.pending(s))
    assert scores["alarm"] < scores["end"]


def test_ai_walks_around_face_down_tokens_rather_than_through_them():
    s = build(unit("p", 0, (0, 5), loadout="medic"), unit("o", 1, (25, 5), loadout="medic"), size=30)
    s.tokens.append(Token("t", (4, 5), 1, False))
    kind, key = legal(s)
    x, y = map(int, key[5:].split(","))
    assert key.startswith("move:") and x > 0
    path = RULES.pending(s).option(key).path
    assert all(space.distance(t, (4, 5)) > 2 for t in path)


def test_ai_medic_goes_to_a_wounded_friend_out_of_the_fight():
    s = build(unit("m", 0, (0, 0), loadout="medic"), unit("w", 0, (4, 0), pv=1), unit("o", 1, (35, 35)), size=40)
    kind, key = legal(s)
    assert key.startswith("move:") and space.adjacent(RULES.pending(s).option(key).tile, (4, 0))


def blessed_unseen():
    """Side 0's Bleu 'ghost' prayed in hiding for a dodge reroll, then came out; side 1's Vétéran chooses
    between it (4 PV left) and a Bleu at full health."""
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 5] = True
    s = build(unit("ghost", 0, (5, 5), "Bleu"), unit("plain", 0, (5, 9), "Bleu"),
              unit("v", 1, (11, 7), "Vétéran", loadout="assault"), bf=bf, turn=2)
    s.figure("ghost").pv = 4
    bless_in_hiding(s, "ghost", 3, "v")
    return s


def test_the_ai_answers_the_same_whatever_the_enemy_hides():
    s = blessed_unseen()
    decision = RULES.pending(s)
    seen = EisdrachenAI(7).choose(seen_by(s, 1), decision)
    truth = EisdrachenAI(7).choose(Observation(1, RULES, s, s.battlefield, (), s.max_turns), decision)
    assert seen == "shoot:ghost" and truth != seen          # the reroll, were it known, would change its mind
    for k in range(12):
        other = RULES.disguise(s, 1, random.Random(k))
        assert EisdrachenAI(7).choose(seen_by(other, 1), decision) == seen


def test_the_ai_answers_the_same_whatever_the_enemy_hides_in_a_played_battle():
    rules = Eisdrachen()
    rng = random.Random(5)
    bf = Battlefield.open_ground(24, 24)
    bf.spawn = {0: [(0, y) for y in range(24)], 1: [(23, y) for y in range(24)]}
    bf.hiding[0:24:3, 2:22:4] = True
    match = Match(bf, rules, rules.default_armies(bf), 3, max_turns=4)
    players = {0: make_player("tactical", "eisdrachen", 1), 1: make_player("random", "eisdrachen", 2)}
    asked = 0
    while match.pending is not None:
        d = match.pending
        if d.side == 0:
            expected = EisdrachenAI(9).choose(seen_by(match.state, 0), d)
            for _ in range(2):
                other = rules.disguise(match.state, 0, rng)
                assert EisdrachenAI(9).choose(seen_by(other, 0), d) == expected
            asked += 1
        match.answer(match.ask(players[d.side]))
    assert asked > 20


def test_hard_always_shoots_the_slightly_wounded_enemy_where_normal_hesitates_but_never_on_a_clear_choice():
    """One wound on a Soldat makes a shot at it worth a third of a PV more (focus fire): within normal's
    margin (a quarter of SCALE, half a PV), beyond hard's; a Soldat at 2 PV is a clear choice for both."""
    def picks(level, pv):
        s = build(unit("a", 0, (0, 0), loadout="rifleman"), unit("hurt", 1, (0, 6), pv=pv), unit("whole", 1, (8, 0)))
        return {EisdrachenAI(seed, level).choose(seen_by(s, 0), RULES.pending(s)) for seed in range(30)}
    assert picks("hard", 4) == {"shoot:hurt"}
    assert picks("normal", 4) == {"shoot:hurt", "shoot:whole"}
    assert picks("normal", 2) == picks("hard", 2) == {"shoot:hurt"}


def test_the_gun_about_to_fire_is_shot_before_a_harmless_figure_with_the_same_odds():
    """A Soldat machine gunner in range of our rifleman and a Bleu medic whose pistol reaches nobody dodge
    alike (on 6) and have the same 3 PV: the kill of the gunner saves its volleys to come, so both levels
    shoot it; and of two gunners, the one still to activate this turn before the one that has fired."""
    def chosen(level, seed, *enemies, fired=()):
        s = build(unit("a", 0, (0, 0), loadout="rifleman"), *enemies)
        for e in fired:
            s.figure(e).activated = True
        return EisdrachenAI(seed, level).choose(seen_by(s, 0), RULES.pending(s))
    gunner = unit("g", 1, (0, 10), loadout="gunner", pv=3)
    medic = unit("m", 1, (10, 0), "Bleu", loadout="medic", pv=3)
    other = unit("o", 1, (10, 0), loadout="gunner", pv=3)
    for level in ("normal", "hard"):
        assert {chosen(level, seed, gunner, medic) for seed in range(20)} == {"shoot:g"}
        assert {chosen(level, seed, gunner, other, fired=["o"]) for seed in range(20)} == {"shoot:g"}
        assert {chosen(level, seed, gunner, other, fired=["g"]) for seed in range(20)} == {"shoot:o"}


def test_hard_aims_its_first_sniper_shot_where_the_second_can_kill_the_gun_that_matters():
    """A sniper's shot (one attack of force 4, no dodge) cannot kill a figure at 5 PV: taken alone, every
    whole enemy is the same first target and normal draws among them. Hard counts what the first shot
    gives the second: the gunner, worth most dead, is the one it opens."""
    def picks(level):
        s = build(unit("s", 0, (0, 0), "Assassin", loadout="sniper"), unit("g", 1, (0, 12), loadout="gunner"),
                  unit("r", 1, (12, 0), loadout="rifleman"), unit("m", 1, (9, 9), "Bleu", loadout="medic"))
        return {EisdrachenAI(seed, level).choose(seen_by(s, 0), RULES.pending(s)) for seed in range(30)}
    assert picks("hard") == {"sniper:g"}
    assert len(picks("normal")) > 1


def test_hard_stops_short_of_the_tiles_an_enemy_gun_reaches_after_one_move():
    """A medic 27 pas from a machine gun (range 20, speed 5): no step of its move brings it into the gun's
    reach now, but within 25 pas the gunner can step up and fire. Hard closes in to the edge of that
    reach and no further; 31 pas away, it takes its whole move."""
    def distance(gun_x):
        s = build(unit("p", 0, (0, 10), "Bleu", loadout="medic"), unit("g", 1, (gun_x, 10), loadout="gunner"))
        decision = RULES.pending(s)
        return space.distance(decision.option(EisdrachenAI(1, "hard").choose(seen_by(s, 0), decision)).tile,
                              (gun_x, 10))
    assert 25 < distance(27) < 27
    assert distance(31) == 26


def test_the_shot_odds_the_ai_keeps_across_decisions_are_those_of_the_rules_at_every_decision():
    """The AI keeps each pair's shot odds for the turn (figures that only moved or acted keep theirs): in a
    played battle, where figures are wounded, dig in, pray and die, every kept distribution is at each
    decision the one the rules give afresh, for every shooter and target and both kinds of shot."""
    rules = Eisdrachen()
    bf = Battlefield.open_ground(24, 24)
    bf.spawn = {0: [(0, y) for y in range(24)], 1: [(23, y) for y in range(24)]}
    match = Match(bf, rules, rules.default_armies(bf), 11, max_turns=5)
    ai = EisdrachenAI(3, "hard")
    players = {0: ai, 1: make_player("tactical", "eisdrachen", 4)}
    checked = 0
    while match.pending is not None:
        d = match.pending
        if d.side == 0:
            seen = seen_by(match.state, 0)
            state = seen.state
            for shooter in state.figures:
                for target in state.figures:
                    if shooter is target or not (shooter.alive and target.alive):
                        continue
                    gun = weapon(shooter.weapon)
                    for sniper in (False, True):
                        odds = rules.shot_odds(state, shooter, target, gun, sniper)
                        dist, kill = ai._shot_loss(seen, shooter, target, gun, sniper)
                        assert dist == {int(k.split(":")[1]): float(p) for k, p in odds.outcomes.items()}
                        assert kill == float(odds.details["kill"])
                        checked += 1
        match.answer(match.ask(players[d.side]))
    assert checked > 1000


def test_the_kept_shot_odds_change_when_the_target_digs_in_or_either_figure_is_blessed():
    s = build(unit("a", 0, (0, 0), loadout="rifleman"), unit("t", 1, (8, 0), loadout="rifleman"))
    ai = EisdrachenAI(1, "hard")
    gun = weapon("rifle")

    def kept_and_fresh():
        seen = seen_by(s, 0)
        a, t = seen.state.figure("a"), seen.state.figure("t")
        fresh = RULES.shot_odds(seen.state, a, t, gun, False)
        return ai._shot_loss(seen, a, t, gun, False)[0], {int(k.split(":")[1]): float(p)
                                                          for k, p in fresh.outcomes.items()}
    first, _ = kept_and_fresh()
    s.figure("t").dug_in = True
    s.figure("a").tile = (1, 0)
    kept, fresh = kept_and_fresh()
    assert kept == fresh != first
    s.figure("t").add_status("dodge_reroll", [1])
    kept, fresh = kept_and_fresh()
    assert kept == fresh
    s.figure("a").add_status("wound_reroll", [1])
    again, fresh = kept_and_fresh()
    assert again == fresh != kept


def test_hard_behind_in_the_first_half_waits_out_of_reach_of_the_enemy_gun():
    """A rifleman 26 pas from a machine gun (its move and fire reach 25 pas). Level, hard closes in; behind by
    a figure in turn 1 of 12 it stays out of the gun's reach, so that the gunner, ahead, has to come into its
    reach; behind in turn 8 it closes in again, the turn limit near."""
    def distance_after(turn, behind):
        specs = [unit("r", 0, (0, 10), loadout="rifleman"), unit("g", 1, (26, 10), loadout="gunner")]
        if behind:
            specs.append(unit("d", 0, (0, 20)))
        s = build(*specs, turn=turn)
        if behind:
            s.figure("d").alive, s.figure("d").pv = False, 0
        decision = RULES.pending(s)
        tile = decision.option(EisdrachenAI(1, "hard").choose(seen_by(s, 0), decision)).tile
        return space.distance(tile or (0, 10), (26, 10))
    assert distance_after(1, behind=False) <= 25
    assert distance_after(1, behind=True) > 25
    assert distance_after(8, behind=True) <= 25


def test_hard_with_no_shot_activates_the_figure_farthest_from_the_fight_first_keeping_its_guns_for_later():
    """No figure of side 0 has a shot at the enemy rifleman 40 pas away: normal activates first its machine
    gunner, nearest the fight; hard its medic, farthest from it, so that its gunner activates after the
    enemy has moved. A figure with a shot comes first at both levels."""
    def order(level, *extra):
        s = build(unit("g", 0, (0, 10), loadout="gunner"), unit("m", 0, (0, 30), "Bleu", loadout="medic"),
                  unit("o", 1, (40, 10), loadout="rifleman"), *extra, size=60)
        for f in s.figures:
            f.activated = False
        options = tuple(Option(f"activate:{f.id}", "activate", f.id, f.tile) for f in s.living(0))
        scores = EisdrachenAI(1, level).score_activate(seen_by(s, 0), Decision(0, "activate", options))
        return sorted(scores, key=scores.get, reverse=True)
    assert order("normal")[0] == "activate:g"
    assert order("hard")[0] == "activate:m"
    shooter = unit("r", 0, (30, 10), loadout="rifleman")
    assert order("normal", shooter)[0] == order("hard", shooter)[0] == "activate:r"


def test_hard_fears_an_enemy_snipers_sight_more_than_a_machine_guns_for_its_two_undodged_shots():
    """A Soldat can stand where only an enemy sniper sees it or where only a machine gun does. One sniper shot
    (force 4, dodged on 6) takes 2.8 PV and never kills, one volley of the gun 3.8 PV: normal fears the gun's
    tile more. The sniper fires twice an activation and no dodge stops it (4.7), which kills the Soldat
    nearly always: hard fears the sniper's tile more."""
    s = build(unit("me", 0, (0, 10), loadout="rifleman"), unit("s", 1, (20, 0), "Assassin", loadout="sniper"),
              unit("g", 1, (20, 20), loadout="gunner"))
    by_sniper, by_gun = (0, 0), (0, 20)
    assert space.within((20, 0), by_sniper, 24) and not space.within((20, 20), by_sniper, 20)
    assert space.within((20, 20), by_gun, 20) and not space.within((20, 0), by_gun, 24)

    def danger(level):
        ai = EisdrachenAI(1, level)
        seen = seen_by(s, 0)
        threats = ai.threat_map(ai._threats(seen, seen.state.figure("me")), act.sight_for(s.battlefield))
        return threats.danger(by_sniper), threats.danger(by_gun)
    sniper, gun = danger("normal")
    assert sniper < gun
    sniper, gun = danger("hard")
    assert sniper > gun > 3.5 and sniper > 4.5
