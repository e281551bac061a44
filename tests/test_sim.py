"""Soak and determinism for every registered rule module: invariants hold after every answer, every
game ends within its turn limit, and every game saved and replayed reaches the same state digest.

The long soak (1,000 games per module) is ``tools/soak.py``; this is its short run for CI, with
the same checks, plus tests that those checks do catch what they look for.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from game.ai import make_player
from game.engine.battlefield import Battlefield, Door
from game.engine.match import Match
from game.engine.save import load_match, match_from_json, new_match, save_match, to_json
from game.engine.tiled import load_battlefield
from game.rules import get as get_rules
from game.rules import names as rule_names
from game.engine.protocol import FigureView, Marker
from game.sim import engine_invariants, run_games

from .engine.toy_rules import ToyRules

ROOT = Path(__file__).resolve().parents[1]
SMALL_MAP = ROOT / "maps" / "ruined_town.tmx"
SOAK_GAMES = 10


def _soak_tool():
    spec = importlib.util.spec_from_file_location("soak_tool", ROOT / "tools" / "soak.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


soak_tool = _soak_tool()


@pytest.mark.long
@pytest.mark.parametrize("rules", rule_names())
def test_short_soak_keeps_every_invariant_and_every_replay_in_sync(rules):
    result = soak_tool.soak(str(SMALL_MAP), rules, SOAK_GAMES, seed=7, ai_a="tactical", ai_b="random",
                            max_turns=0)
    assert result["games"] == SOAK_GAMES
    assert result["crashes"] == 0, result["examples"]
    assert result["invariant_violations"] == 0, result["examples"]
    assert result["replays_out_of_sync"] == 0, result["examples"]
    assert result["finished"] == SOAK_GAMES, result["examples"]
    assert result["answers"] > SOAK_GAMES * 5      # real play, not games that end at once (a random
    # player often forfeits or flees an aerial Voyageurs battle within two turns: 9.4 answers a game)


@pytest.mark.parametrize("rules", rule_names())
def test_sim_check_invariants_finds_none_and_repeats_exactly(rules):
    """The command line's path (run_games with check_invariants): same seed, same games."""
    first = run_games(SMALL_MAP, rules, seed=3, games=2, ai_a="random", ai_b="tactical", check_invariants=True)
    second = run_games(SMALL_MAP, rules, seed=3, games=2, ai_a="random", ai_b="tactical")
    assert first.violations == []
    assert [g.digest for g in first.games] == [g.digest for g in second.games]
    limit = get_rules(rules).default_max_turns
    assert all(g.reason != "unfinished" and g.turns <= limit for g in first.games)


def _played(rules: str, seed: int, first: str, second: str) -> tuple[Match, list[str]]:
    """A finished game and the state digest after each of its answers."""
    match = new_match(SMALL_MAP, rules, seed)
    players = {0: make_player(first, rules, seed * 2 + 1), 1: make_player(second, rules, seed * 2 + 2)}
    digests = []
    while match.pending is not None:
        match.answer(match.ask(players[match.pending.side]))
        digests.append(match.digest())
    return match, digests


@pytest.mark.long
@pytest.mark.parametrize("rules", rule_names())
def test_saved_games_replay_to_the_same_digest_after_every_answer(rules, tmp_path):
    for seed, pair in ((101, ("tactical", "random")), (102, ("random", "tactical"))):
        match, digests = _played(rules, seed, *pair)
        assert match.outcome is not None
        path = tmp_path / f"{rules}-{seed}.json"
        save_match(match, path)
        assert load_match(path).digest() == match_from_json(to_json(match)).digest() == digests[-1]
        replay = Match(load_battlefield(SMALL_MAP), get_rules(rules), match.armies, seed, match.max_turns)
        for i, key in enumerate(match.answers):
            replay.answer(key)
            assert replay.digest() == digests[i], f"seed {seed}: out of sync at answer {i + 1} ({key})"


# --- the checks catch what they look for --------------------------------------------------------

class LeakyToy(ToyRules):
    """Toy rules whose east figure is hidden yet shown to the west, with a secret marker."""

    secret_markers = ("hidden", "embuscade")

    def figures(self, state, viewer):
        return [FigureView(f.id, f.side, f.tile, f.id,
                           markers=(Marker("hidden"), Marker("embuscade")) if f.side == 1 else ())
                for f in state.figures.values()]


def _toy_match(rules) -> Match:
    bf = Battlefield.open_ground(6, 3)
    return Match(bf, rules, rules.default_armies(bf), seed=1)


def test_engine_invariants_report_a_figure_on_a_wall_or_in_a_shut_door():
    match = _toy_match(ToyRules())
    assert engine_invariants(match) == []
    match.battlefield.blocks_move[0, 0] = True
    match.battlefield.door[0, 5] = Door.LOCKED
    found = engine_invariants(match)
    assert any("w stands on a wall" in v for v in found) and any("e stands in a shut door" in v for v in found)


def test_engine_invariants_report_hidden_figures_and_secret_markers_in_the_enemy_view():
    found = engine_invariants(_toy_match(LeakyToy()))
    assert "side 0 sees hidden enemy e" in found
    assert any("secret markers" in v and "embuscade" in v for v in found)


def test_engine_invariants_report_two_figures_on_one_tile_and_a_game_past_its_limit():
    match = _toy_match(ToyRules())
    match.state.figures["e"].tile = match.state.figures["w"].tile
    match.state.turn = match.max_turns + 1
    found = engine_invariants(match)
    assert any("share tile" in v for v in found) and any("past the limit" in v for v in found)


# --- the summary of a campaign ----------------------------------------------------------------------

def test_wilson_intervals_hold_the_share_and_narrow_with_more_games():
    from game.sim import wilson

    lo, hi = wilson(8, 10)
    assert lo < 0.8 < hi and hi <= 1.0
    assert wilson(80, 100)[1] - wilson(80, 100)[0] < hi - lo
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == [0.0, 1.0]


def test_the_summary_gives_rates_and_intervals_per_player_and_per_side():
    from game.engine.objectives import TURN_LIMIT
    from game.sim import GameResult, Report

    r = Report()
    r.games = [GameResult(1, ("tactical", "greedy"), 0, "elimination", 3, 10, "a"),
               GameResult(2, ("greedy", "tactical"), 1, TURN_LIMIT, 12, 10, "b"),
               GameResult(3, ("tactical", "greedy"), None, TURN_LIMIT, 12, 10, "c"),
               GameResult(4, ("greedy", "tactical"), 0, "elimination", 4, 10, "d")]
    s = r.summary()
    assert s["wins"] == {"tactical": 2, "greedy": 1} and s["wins_by_side"] == {"0": 2, "1": 1}
    assert s["draw_rate"] == 0.25 and s["turn_limit_rate"] == 0.5 and s["turns_mean"] == 7.75
    assert s["side0_share_of_decisive"] == round(2 / 3, 4)
    lo, hi = s["wins_ci95"]["player"]["tactical"]
    assert lo < 0.5 < hi
    assert set(s["wins_ci95"]["side"]) == {"0", "1"}
    assert any("95% CI" in line for line in r.summary_lines())


def test_a_turn_limit_win_counts_as_head_count_only_when_the_figures_taken_alone_decide_it():
    from game.engine.objectives import TURN_LIMIT, Score
    from game.engine.protocol import Outcome
    from game.sim import GameResult, Report, head_count

    def at_limit(taken, held):
        s = Score(taken, held)
        return Outcome(s.winner, TURN_LIMIT, s.lines())

    assert head_count(at_limit((10, 4), (0, 5))) is True           # won on figures; the zone changed nothing
    assert head_count(at_limit((4, 5), (5, 0))) is False           # the objective turned the result round
    assert head_count(at_limit((5, 5), (5, 0))) is False           # level on figures, won on the objective
    assert head_count(at_limit((5, 5), (0, 0))) is False           # a draw is not decided
    assert head_count(Outcome(0, "elimination")) is False
    assert head_count(Outcome(0, TURN_LIMIT)) is None              # the results keep the points untold
    r = Report()
    r.games = [GameResult(1, ("tactical", "tactical"), 0, TURN_LIMIT, 10, 9, "a", True),
               GameResult(2, ("tactical", "tactical"), 1, TURN_LIMIT, 10, 9, "b", False),
               GameResult(3, ("tactical", "tactical"), 1, TURN_LIMIT, 10, 9, "c", None),
               GameResult(4, ("tactical", "tactical"), 0, "elimination", 3, 9, "d", False)]
    s = r.summary()
    assert s["turn_limit_rate"] == 0.75 and s["head_count_rate"] == 0.25 and s["head_count_untold"] == 1


def test_sim_plays_a_level_against_another_and_names_both():
    report = run_games(SMALL_MAP, "eisdrachen", seed=1, games=2, ai_a="tactical:hard", ai_b="tactical", max_turns=2)
    assert {g.players for g in report.games} == {("tactical:hard", "tactical"), ("tactical", "tactical:hard")}
    assert set(report.summary()["decision_ms"]) == {"tactical", "tactical:hard"}
