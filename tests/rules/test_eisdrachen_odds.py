"""Exact odds of rules/eisdrachen.md 6.3, and the odds against 100,000 rolls of the real resolution."""
from __future__ import annotations

import math
from fractions import Fraction as Fr

from game.engine.dice import Dice, ScriptedDice, binomial
from game.rules.eisdrachen import actions as act
from game.rules.eisdrachen.combat import dodge_on, grenade_hit, strike, weapon
from game.rules.eisdrachen.odds import attack_loss, p_dodge, p_wound

from .eisdrachen_helpers import RULES, build, unit


def option(state, key):
    return RULES.pending(state).option(key)


def dist_of(outcomes, prefix="pv_lost"):
    return {int(k.split(":")[1]): p for k, p in outcomes.items() if k.startswith(prefix + ":")}


def test_single_die_dodge_and_wound_chances():
    assert [p_dodge(dodge_on(i), False) for i in (1, 2, 3, 4)] == [Fr(1, 6), Fr(1, 6), Fr(1, 3), Fr(1, 2)]
    assert p_dodge(5, False) == Fr(1, 3)
    assert [p_wound(i, False) for i in (1, 2, 3, 4)] == [Fr(1, 2), Fr(1, 2), Fr(2, 3), Fr(5, 6)]
    assert [p_dodge(dodge_on(i), True) for i in (1, 3, 4)] == [Fr(11, 36), Fr(5, 9), Fr(3, 4)]
    assert [p_wound(i, True) for i in (2, 3, 4)] == [Fr(3, 4), Fr(8, 9), Fr(35, 36)]


def test_bleu_dodging_one_of_three_attacks():
    dodges = binomial(3, p_dodge(dodge_on(1), False))
    assert dodges[1] == Fr(25, 72)
    assert 1 - dodges[0] == Fr(91, 216)


def test_jump_trap_and_prayer_chances():
    s = build(unit("j", 0, (0, 0)), unit("o", 1, (20, 20)))
    assert RULES.odds(s, option(s, "jump:5,0")).outcomes["short"] == Fr(1, 6)
    pray = RULES.odds(s, option(s, "pray")).outcomes
    assert pray == {f"result:{k}": Fr(1, 5) for k in range(1, 6)}
    kinds = []
    for face in range(1, 7):
        events: list = []
        f = s.figure("j")
        f.pv, f.statuses = 5, {}
        act.spring_trap(s, f, act.Token("t", (0, 0), 1, True), ScriptedDice([face]), events)
        kinds.append(next(e for e in events if e.kind == "trap").data["kind"])
    assert {k: Fr(kinds.count(k), 6) for k in kinds} == {"incendiary": Fr(1, 3), "emp": Fr(1, 3),
                                                        "wolf_trap": Fr(1, 3)}


def test_one_attack_of_force_one_removes_one_pv_table():
    table = {1: [Fr(5, 12), Fr(5, 12), Fr(1, 3), Fr(1, 4)],
             2: [Fr(5, 12), Fr(5, 12), Fr(1, 3), Fr(1, 4)],
             3: [Fr(5, 9), Fr(5, 9), Fr(4, 9), Fr(1, 3)],
             4: [Fr(25, 36), Fr(25, 36), Fr(5, 9), Fr(5, 12)]}
    for attacker, row in table.items():
        got = [attack_loss(1, 1, dodge_on(t), False, attacker, False).get(1, Fr(0)) for t in (1, 2, 3, 4)]
        assert got == row


SEED_EXAMPLE = {0: Fr(343, 19683), 1: Fr(490, 6561), 2: Fr(1190, 6561), 3: Fr(5200, 19683),
                4: Fr(1700, 6561), 5: Fr(1000, 6561), 6: Fr(1000, 19683)}


def test_seed_example_pv_loss_distribution_from_the_shoot_option():
    s = build(unit("v", 0, (0, 0), "Vétéran", loadout="assault"), unit("b", 1, (5, 0), "Bleu"))
    odds = RULES.odds(s, option(s, "shoot:b"))
    assert dist_of(odds.outcomes) == SEED_EXAMPLE
    assert odds.details["expected"] == Fr(10, 3)
    assert sum(p for k, p in SEED_EXAMPLE.items() if k >= 3) == Fr(14300, 19683)
    assert odds.details["kill"] == Fr(4000, 19683)
    s.figure("b").dug_in = True
    odds = RULES.odds(s, option(s, "shoot:b"))
    assert dist_of(odds.outcomes) == {0: Fr(49, 729), 1: Fr(140, 729), 2: Fr(80, 243), 3: Fr(200, 729),
                                      4: Fr(100, 729)}
    assert odds.details["expected"] == Fr(20, 9)


GRENADE = {1: {0: Fr(1, 4), 1: Fr(1, 3), 2: Fr(5, 18), 3: Fr(1, 9), 4: Fr(1, 36)},
           3: {0: Fr(121, 729), 1: Fr(176, 729), 2: Fr(80, 243), 3: Fr(128, 729), 4: Fr(64, 729)},
           4: {0: Fr(361, 2916), 1: Fr(95, 729), 2: Fr(175, 486), 3: Fr(125, 729), 4: Fr(625, 2916)}}
GRENADE_MEAN = {1: Fr(4, 3), 3: Fr(16, 9), 4: Fr(20, 9)}


def test_grenade_pv_loss_table_by_thrower_intelligence():
    for rank, i in (("Bleu", 1), ("Soldat", 2), ("Vétéran", 3), ("Assassin", 4)):
        # every bounce from aim (1,0) lands on (2..7,0): a figure on (5,0) is always in the blast
        s = build(unit("g", 0, (0, 0), rank, grenades=1), unit("t", 1, (5, 0), "Assassin"),
                  unit("far", 1, (9, 0)))
        odds = RULES.odds(s, option(s, "grenade:1,0"))
        table = GRENADE[1 if i == 2 else i]
        assert dist_of(odds.details["figures"]["t"]) == table
        assert odds.details["expected"]["t"] == GRENADE_MEAN[1 if i == 2 else i]
        # (9,0) is within 3 pas only of the landings (6,0) and (7,0): two bounces in six
        far = dist_of(odds.details["figures"]["far"])
        assert far == {k: Fr(1, 3) * p + (Fr(2, 3) if k == 0 else 0) for k, p in table.items()}
        assert sum(odds.outcomes.values()) == 1 and len(odds.outcomes) == 6


def test_sniper_against_an_ordinary_shot():
    s = build(unit("v", 0, (0, 0), "Vétéran", loadout="sniper"), unit("t", 1, (22, 0), "Assassin"))
    sniper = RULES.odds(s, option(s, "sniper:t"))
    shoot = RULES.odds(s, option(s, "shoot:t"))
    assert dist_of(sniper.outcomes) == {0: Fr(1, 81), 1: Fr(8, 81), 2: Fr(8, 27), 3: Fr(32, 81), 4: Fr(16, 81)}
    assert dist_of(shoot.outcomes) == {0: Fr(41, 81), 1: Fr(4, 81), 2: Fr(4, 27), 3: Fr(16, 81), 4: Fr(8, 81)}
    assert sniper.details["expected"] == Fr(8, 3) and shoot.details["expected"] == Fr(4, 3)


def test_melee_odds_give_both_strikes():
    s = build(unit("s", 0, (0, 0), "Soldat", loadout="rifleman"), unit("v", 1, (1, 0), "Vétéran", blade=None))
    odds = RULES.odds(s, option(s, "melee:v"))
    assert dist_of(odds.outcomes) == attack_loss(2, 2, 5, False, 2, False)
    # the Vétéran (5 PV) cannot die from at most 4 wounds, so it always ripostes
    assert dist_of(odds.details["attacker_pv_lost"]) == attack_loss(2, 1, 6, False, 3, False)
    s.figure("v").pv = 1
    odds = RULES.odds(s, option(s, "melee:v"))
    survive = attack_loss(2, 2, 5, False, 2, False)[0]
    riposte = attack_loss(2, 1, 6, False, 3, False)
    got = dist_of(odds.details["attacker_pv_lost"])
    assert got[0] == (1 - survive) + survive * riposte[0]
    assert got[2] == survive * riposte[2] and sum(got.values()) == 1


def test_riposte_and_contact_options_carry_their_strike_odds():
    s = build(unit("s", 0, (0, 0), "Soldat", loadout="rifleman"), unit("v", 1, (1, 0), "Vétéran", blade=None))
    RULES.apply(s, option(s, "melee:v"), ScriptedDice([5, 1, 3, 4]))
    riposte = RULES.odds(s, option(s, "riposte"))
    assert dist_of(riposte.outcomes) == attack_loss(2, 1, 6, False, 3, False)
    assert riposte.details["kill"] == 0
    s = build(unit("a", 0, (0, 0), blade=None), unit("t", 1, (2, 1)))
    RULES.apply(s, option(s, "melee:t"), ScriptedDice([]))
    contact = RULES.odds(s, option(s, "contact:1,1"))
    assert dist_of(contact.outcomes) == attack_loss(2, 1, 6, False, 2, False)


def test_melee_odds_against_a_bleu_who_strikes_first():
    s = build(unit("v", 0, (0, 0), "Vétéran", blade="sword"), unit("b", 1, (1, 1), "Bleu", blade=None))
    odds = RULES.odds(s, option(s, "melee:b"))
    assert odds.details["target_strikes_first"]
    assert dist_of(odds.details["attacker_pv_lost"]) == attack_loss(2, 1, 5, False, 1, False)
    assert dist_of(odds.outcomes) == attack_loss(3, 2, 6, False, 3, False)


# --- odds against the real resolution -------------------------------------------------------

def within_sampling_error(freq: dict[int, int], n: int, exact: dict[int, Fr], sigmas: float = 4.0) -> None:
    for k in set(freq) | set(exact):
        p = float(exact.get(k, 0))
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(freq.get(k, 0) / n - p) <= sigmas * se + 1e-9, (k, freq.get(k, 0) / n, p)


def test_shoot_odds_match_100000_rolls_of_the_resolution():
    s = build(unit("v", 0, (0, 0), "Vétéran", loadout="assault"), unit("b", 1, (5, 0), "Bleu", pv=100))
    shooter, target = s.figure("v"), s.figure("b")
    exact = dist_of(RULES.odds(s, option(s, "shoot:b")).outcomes)
    dice = Dice(20261130)
    freq: dict[int, int] = {}
    gun = weapon("assault_rifle")
    n = 100_000
    for _ in range(n):
        target.pv = 100
        act.shoot(s, shooter, target, gun, dice, [], False, "4.3")
        lost = 100 - target.pv
        freq[lost] = freq.get(lost, 0) + 1
    within_sampling_error(freq, n, exact)


def test_melee_and_grenade_odds_match_rolls_of_the_resolution():
    s = build(unit("s", 0, (0, 0), "Soldat", loadout="rifleman"), unit("v", 1, (1, 0), "Assassin", blade=None))
    attacker, target = s.figure("s"), s.figure("v")
    s.figure("v").add_status("dodge_reroll", [1])
    exact = dist_of(RULES.odds(s, option(s, "melee:v")).outcomes)
    dice = Dice(7)
    freq: dict[int, int] = {}
    n = 20_000
    for _ in range(n):
        target.pv = 100
        strike(s, attacker, target, dice, [])
        freq[100 - target.pv] = freq.get(100 - target.pv, 0) + 1
    within_sampling_error(freq, n, exact)
    freq = {}
    for _ in range(n):
        target.pv = 100
        grenade_hit(s, attacker, target, dice, [])
        freq[100 - target.pv] = freq.get(100 - target.pv, 0) + 1
    within_sampling_error(freq, n, attack_loss(2, 2, 5, True, 2, False))


def test_grenade_landing_odds_match_rolls_of_the_bounce():
    s = build(unit("g", 0, (0, 0), grenades=1), unit("o", 1, (20, 20)))
    exact = RULES.odds(s, option(s, "grenade:4,2")).outcomes
    dice = Dice(3)
    counts: dict[str, int] = {}
    n = 6000
    for _ in range(n):
        events: list = []
        s.figure("g").grenades = 1
        act.grenade(s, s.figure("g"), (4, 2), dice, events)
        landing = next(e for e in events if e.kind == "thrown").data["lands"]
        key = f"landing:{landing[0]},{landing[1]}"
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == set(exact)
    labels = sorted(exact)
    within_sampling_error({i: counts[k] for i, k in enumerate(labels)}, n, {i: exact[k] for i, k in enumerate(labels)})
