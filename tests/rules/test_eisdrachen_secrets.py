"""What Eisdrachen keeps from a side (issue 10): a hidden figure, what it does in hiding, which enemy
token is real. Neither the events a side is shown, nor its view, nor its observation (its AI's and its
odds' state) may tell it more than it has seen."""
from __future__ import annotations

import json
import random

from game.engine.battlefield import Battlefield, Door, MapObject
from game.engine.match import Match
from game.engine.tokens import Token

from .eisdrachen_helpers import RULES, activate, answer, bless_in_hiding, build, end_turn, unit


def told(events, side):
    """Everything in the events ``side`` is shown, as one text to search."""
    return json.dumps([e.to_json() for e in events if e.seen_by(side)])


def markers(state, viewer, fid):
    return {m.key for v in RULES.figures(state, viewer) if v.id == fid for m in v.markers}


def shot_odds_seen_by(state, side, key):
    """The odds ``side`` is shown for one of its options: computed on its observation."""
    return RULES.odds(RULES.observe(state, side), RULES.pending(state).option(key))


# --- the alarm ---------------------------------------------------------------------------

def alarm_setup():
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[4, 4] = True
    s = build(unit("ghost", 0, (4, 4), loadout="rifleman"), unit("s", 0, (0, 0)), unit("c", 0, (0, 6)),
              unit("e", 1, (20, 20), loadout="rifleman"), bf=bf, turn=2)
    answer(s, "hide")
    activate(s, "s")
    return s


def test_an_alarm_names_to_the_enemy_only_the_friends_it_can_see():
    s = alarm_setup()
    events = answer(s, "alarm")
    alarm = next(e for e in events if e.kind == "alarm")
    assert alarm.visible_to is None and alarm.data["alerted"] == ["c"]
    assert "ghost" not in told(events, 1)
    assert "ghost" in told(events, 0)            # its own side hears it was alerted
    assert s.figure("ghost").has("alerted", 3) and s.figure("c").has("alerted", 3)


def test_an_alert_gained_in_hiding_is_told_to_the_enemy_as_the_figure_leaves_its_hiding_place():
    """The enemy heard the alarm and now sees the tile the figure hid on: the alert is no secret from here,
    and its alarm riposte, asked when the figure is shot at, shows nothing the enemy was not told."""
    s = alarm_setup()
    answer(s, "alarm")
    s.turn = 3
    activate(s, "ghost")
    assert "ghost" not in {f.id for f in RULES.observe(s, 1).figures}
    events = answer(s, "unhide")
    shown = [e for e in events if e.kind == "status" and e.data["status"] == "alerted"]
    assert len(shown) == 1 and shown[0].visible_to is None and shown[0].data["turns"] == [3]
    assert "alerted" in markers(s, 0, "ghost") and "alerted" in markers(s, 1, "ghost")
    assert RULES.observe(s, 1).figure("ghost").has("alerted", 3)
    s.figure("e").tile = (14, 4)
    activate(s, "e")
    answer(s, "shoot:ghost", [1, 1, 6, 6, 6, 6])
    assert RULES.pending(s).kind == "alarm_riposte" and RULES.pending(s).side == 0


def test_leaving_a_hiding_place_tells_no_alert_the_figure_did_not_hear():
    s = alarm_setup()
    s.figure("s").tile = (20, 0)                 # too far from the hiding place for the ghost to hear it
    answer(s, "alarm")
    s.turn = 3
    activate(s, "ghost")
    events = answer(s, "unhide")
    assert not s.figure("ghost").has("alerted", 3)
    assert [e.data["status"] for e in events if e.kind == "status"] == ["hidden"]


# --- a prayer in hiding --------------------------------------------------------------------

def prayer_setup():
    """A Bleu prays in hiding for a dodge reroll next turn, then leaves its hiding place."""
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 5] = True
    s = build(unit("ghost", 0, (5, 5), "Bleu"), unit("e", 1, (12, 5), "Vétéran", loadout="assault"),
              bf=bf, turn=2)
    events = bless_in_hiding(s, "ghost", 3, "e")
    assert s.figure("ghost").has("dodge_reroll", 3) and "ghost" not in told(events, 1)
    return s


def test_a_prayer_said_in_hiding_shows_neither_in_the_enemys_view_nor_in_its_odds():
    s = prayer_setup()
    assert "dodge_reroll" in markers(s, 0, "ghost") and "dodge_reroll" not in markers(s, 1, "ghost")
    seen = shot_odds_seen_by(s, 1, "shoot:ghost")
    truth = RULES.odds(s, RULES.pending(s).option("shoot:ghost"))
    s.figure("ghost").statuses.pop("dodge_reroll")
    unblessed = RULES.odds(s, RULES.pending(s).option("shoot:ghost"))
    assert seen.outcomes == unblessed.outcomes and seen.outcomes != truth.outcomes


def test_a_blessing_gained_unseen_shows_once_the_enemy_sees_it_at_work():
    s = prayer_setup()
    events = answer(s, "shoot:ghost", [2, 2, 2, 6, 6, 6])
    assert any(e.kind == "dice" and e.data.get("reroll") and e.visible_to is None for e in events)
    assert "dodge_reroll" in markers(s, 1, "ghost")
    assert RULES.observe(s, 1).figure("ghost").has("dodge_reroll", 3)


def test_an_unseen_blessing_ends_with_its_turn():
    s = prayer_setup()
    end_turn(s)
    assert s.figure("ghost").statuses == {} and s.figure("ghost").unseen == {}


# --- what a side observes ------------------------------------------------------------------------

def test_a_side_observes_no_hidden_enemy_and_cannot_read_an_enemy_token():
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 5] = True
    s = build(unit("ghost", 0, (5, 5)), unit("e", 1, (20, 20)), bf=bf)
    answer(s, "hide")
    s.tokens += [Token("t1", (10, 10), 0, False), Token("t2", (12, 10), 1, False)]
    enemy = RULES.observe(s, 1)
    assert [f.id for f in enemy.figures] == ["e"]
    assert [(t.id, t.real) for t in enemy.tokens] == [("t1", True), ("t2", False)]
    own = RULES.observe(s, 0)
    assert {f.id for f in own.figures} == {"ghost", "e"} and own.figure("ghost").hidden
    assert [(t.id, t.real) for t in own.tokens] == [("t1", False), ("t2", True)]


def rich_field():
    """Hiding places, trap spots, a door and an emplacement: room for every secret."""
    bf = Battlefield.open_ground(24, 24)
    bf.spawn = {0: [(0, y) for y in range(24)], 1: [(23, y) for y in range(24)]}
    bf.blocks_move[8:14, 11] = bf.blocks_sight[8:14, 11] = True
    bf.hiding[0:8, 0:4] = bf.hiding[16:24, 20:24] = bf.hiding[10:14, 5:8] = True
    bf.trap_spot[[3, 10, 20], [4, 12, 19]] = True
    bf.door[11, 15] = Door.CLOSED
    bf.objects += [MapObject("emplacement", "", ((12, 4),), {"weapon": "machine_gun"}),
                   MapObject("trap", "", ((12, 12), (12, 16)), {"owner": -1})]
    return bf


def shown_to(state, side):
    """All a side is shown of a state: figures, tokens, objects, its observation, its pending options and
    the odds of those that roll dice (of a few grenade aims: they are many and alike)."""
    d = RULES.pending(state)
    options = list(d.options) if d is not None and d.side == side else []
    rolled = [o for o in options if o.action != "grenade"] + [o for o in options if o.action == "grenade"][:3]
    observed = RULES.observe(state, side)
    return (RULES.figures(state, side), RULES.tokens(state, side), RULES.objects(state, side), observed, options,
            [RULES.odds(observed, o) for o in rolled])


class Secretive:
    """A random player that hides, prays in hiding and sounds the alarm whenever it may."""

    name = "secretive"

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, observation, decision):
        by_action = {o.action: o.key for o in decision.options}
        for action, chance in (("hide", 0.8), ("pray", 0.6 if "unhide" in by_action else 0.1), ("alarm", 0.4),
                               ("unhide", 0.4), ("trap_open", 0.3)):
            if action in by_action and self.rng.random() < chance:
                return by_action[action]
        return self.rng.choice(decision.options).key


def test_a_side_is_shown_the_same_whatever_it_may_not_know_of_the_other():
    """Battles full of secrets; at every answer each side's hidden state is drawn afresh."""
    rng = random.Random(20261201)
    redrawn = set()
    for seed in range(4):
        bf = rich_field()
        match = Match(bf, RULES, RULES.default_armies(bf), seed, max_turns=6)
        players = {s: Secretive(seed * 11 + s) for s in (0, 1)}
        while match.pending is not None:
            for side in (0, 1):
                before = shown_to(match.state, side)
                for _ in range(2):
                    other = RULES.disguise(match.state, side, rng)
                    assert shown_to(other, side) == before
                    redrawn |= secret_kinds(match.state, other)
            d = match.pending
            match.answer(match.ask(players[d.side]))
    assert redrawn == {"tokens", "pv", "statuses"}


def secret_kinds(state, other) -> set:
    """Which kinds of secret a disguise drew differently."""
    kinds = set()
    if [t.real for t in state.tokens] != [t.real for t in other.tokens]:
        kinds.add("tokens")
    for f, g in zip(state.figures, other.figures):
        if f.pv != g.pv:
            kinds.add("pv")
        if f.statuses != g.statuses:
            kinds.add("statuses")
    return kinds
