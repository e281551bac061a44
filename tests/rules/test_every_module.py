"""What every registered rule module owes the platform, checked by playing it: every die shows in a
``dice`` event, and its AI answers from what its side may know only."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from game.ai import make_player
from game.ai.random_player import RandomPlayer
from game.engine.match import Observation
from game.engine.save import new_match
from game.errors import EscarmoucheError
from game.rules import names

MAPS = sorted((Path(__file__).resolve().parents[2] / "maps").glob("*.tmx"), key=lambda p: p.stat().st_size)


def first_playable_match(rules_id: str, seed: int):
    """The module on the smallest shipped map it accepts (an aerial battle wants a deck map)."""
    for path in MAPS:
        try:
            return new_match(path, rules_id, seed)
        except EscarmoucheError:
            continue
    pytest.fail(f"{rules_id} accepts none of the shipped maps")


@pytest.mark.parametrize("rules_id", names())
def test_every_die_rolled_appears_in_a_dice_event(rules_id):
    for seed in range(3):
        match = first_playable_match(rules_id, seed)
        players = {s: RandomPlayer(seed * 2 + s) for s in match.rules.sides}
        for _ in range(400):
            if match.over:
                break
            events = match.answer(match.ask(players[match.pending.side]))
            rolled = Counter(v for roll in match.last_rolls for v in roll.values)
            shown = Counter(v for e in events if e.kind == "dice" for v in e.data["faces"])
            assert rolled == shown, f"{rules_id} seed {seed} answer {len(match.answers)}: rolled {rolled}, shown {shown}"


@pytest.mark.parametrize("rules_id", names())
def test_the_ai_answers_the_same_whatever_the_other_side_hides(rules_id):
    """Its answer is a function of its observation: drawing the other side's secrets afresh changes nothing."""
    rng = random.Random(7)
    checked = 0
    for seed in range(12):          # three games at least, more where random play ends a battle early
        if seed >= 3 and checked > 10:
            break
        match = first_playable_match(rules_id, seed)
        players = {s: RandomPlayer(seed * 2 + s) for s in match.rules.sides}
        for _ in range(300):
            if match.over:
                break
            d = match.pending
            if rng.random() < 0.2:
                rules = match.rules
                seen = match.observe(d.side)
                disguised = rules.disguise(match.state, d.side, random.Random(rng.random()))
                other = Observation(d.side, rules, rules.observe(disguised, d.side), match.battlefield, seen.events,
                                    match.max_turns)
                ai_seed = rng.randrange(10 ** 6)
                a = make_player("tactical", rules.id, ai_seed).choose(seen, d)
                b = make_player("tactical", rules.id, ai_seed).choose(other, d)
                assert a == b, f"{rules_id} seed {seed} answer {len(match.answers)}: {a} != {b}"
                checked += 1
            match.answer(match.ask(players[d.side]))
    assert checked > 10


@pytest.mark.parametrize("rules_id", names())
def test_both_default_armies_are_the_same_force_so_neither_side_starts_stronger(rules_id):
    """New battle and sim start from these: figure for figure the same kinds and kit, names apart."""
    match = first_playable_match(rules_id, 0)
    armies = match.rules.default_armies(match.battlefield)
    kit = [[{k: v for k, v in f.items() if k != "name"} for f in a.figures] for a in armies]
    assert [a.side for a in armies] == [0, 1]
    assert kit[0] == kit[1] and kit[0]
