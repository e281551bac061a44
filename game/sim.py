"""Headless AI-against-AI games: results, timings (the CPU time of each decision, so that other work on the
machine does not count) and, on request, invariant checks after every answer."""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .ai import make_player
from .engine.match import Match
from .engine.objectives import TURN_LIMIT
from .engine.protocol import Outcome
from .engine.save import MAX_ANSWERS, new_match, save_match
from .errors import RulesError



@dataclass
class GameResult:
    seed: int
    players: tuple[str, str]
    winner_side: int | None
    reason: str
    turns: int
    answers: int
    digest: str
    head_count: bool | None = None      # at the turn limit: won on the figures taken alone (None: untold)


def wilson(k: int, n: int, z: float = 1.959964) -> list[float]:
    """The Wilson score interval (95 % by default) of a share of ``k`` in ``n``, as [low, high]."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


@dataclass
class Report:
    games: list[GameResult] = field(default_factory=list)
    decision_ms: dict[str, list[float]] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        """Wins per player and per side with their Wilson intervals (shares of all games), side 0's share
        of the decisive games, the draw and turn-limit rates, turns, decision times."""
        n = len(self.games)
        wins: dict[str, int] = {name: 0 for g in self.games for name in g.players}
        by_side = {"0": 0, "1": 0}
        draws = sum(1 for g in self.games if g.winner_side is None)
        for g in self.games:
            if g.winner_side is not None:
                wins[g.players[g.winner_side]] += 1
                by_side[str(g.winner_side)] += 1
        decisive = n - draws
        return {
            "games": n,
            "wins": wins,
            "wins_by_side": by_side,
            "wins_ci95": {"player": {name: wilson(k, n) for name, k in sorted(wins.items())},
                          "side": {side: wilson(k, n) for side, k in by_side.items()}},
            "side0_share_of_decisive": round(by_side["0"] / decisive, 4) if decisive else None,
            "side0_share_ci95": wilson(by_side["0"], decisive),
            "draws": draws,
            "draw_rate": round(draws / n, 4) if n else 0,
            "turn_limit_rate": round(sum(1 for g in self.games if g.reason == TURN_LIMIT) / n, 4) if n else 0,
            "head_count_rate": round(sum(1 for g in self.games if g.head_count) / n, 4) if n else 0,
            "head_count_untold": sum(1 for g in self.games if g.reason == TURN_LIMIT and g.head_count is None),
            "turns_mean": round(statistics.fmean(g.turns for g in self.games), 3) if self.games else 0,
            "decision_ms": {name: {"median": round(statistics.median(ms), 3), "max": round(max(ms), 3)}
                            for name, ms in sorted(self.decision_ms.items()) if ms},
            "invariant_violations": len(self.violations),
            "digests": [g.digest[:16] for g in self.games],
        }

    def summary_lines(self) -> list[str]:
        s = self.summary()
        ci = " ".join(f"{name} {lo:.0%}-{hi:.0%}" for name, (lo, hi) in s["wins_ci95"]["player"].items())
        lines = [f"{s['games']} games: wins {s['wins']}, by side {s['wins_by_side']}, draws {s['draws']}, "
                 f"mean turns {s['turns_mean']}",
                 f"wins 95% CI {ci}; draws {s['draw_rate']:.0%}; decided at the turn limit {s['turn_limit_rate']:.0%}, "
                 f"by the figures taken alone {s['head_count_rate']:.0%}"]
        for name, t in s["decision_ms"].items():
            lines.append(f"decision time {name}: median {t['median']} ms, max {t['max']} ms")
        if self.violations:
            lines.append(f"{len(self.violations)} invariant violations; first: {self.violations[0]}")
        return lines


def head_count(outcome: Outcome | None) -> bool | None:
    """Whether a battle decided at the turn limit went to the side that had taken more of the enemy's
    figures, so that the objectives made no difference to who won (issue 15: "decided by the turn limit's
    head count alone"). False for another ending or a draw; None when the results keep the points untold."""
    if outcome is None or outcome.reason != TURN_LIMIT or outcome.winner is None:
        return False
    taken = {w.get("side"): w.get("taken") for w in outcome.details if w.key == "result.points"}
    if set(taken) != {0, 1}:
        return None
    return taken[outcome.winner] > taken[1 - outcome.winner]


def engine_invariants(match: Match) -> list[str]:
    """Checks every rule module must satisfy, whatever its rules: where figures stand, what each side sees."""
    bf, rules, out = match.battlefield, match.rules, []
    views = [f for f in rules.figures(match.state, None) if f.alive]
    seen: dict = {}
    for f in views:
        bad = [g.id for g in f.gauges if g.value is not None and g.max is not None and not 0 <= g.value <= g.max]
        if bad:
            out.append(f"{f.id} gauges {bad} out of bounds")
        if f.tile is None:
            continue
        if not bf.inside(f.tile):
            out.append(f"{f.id} stands outside the map at {f.tile}")
            continue
        if f.tile in seen:
            out.append(f"{f.id} and {seen[f.tile]} share tile {f.tile}")
        seen[f.tile] = f.id
        x, y = f.tile
        if bf.blocks_move[y, x] and not bf.perch[y, x]:
            out.append(f"{f.id} stands on a wall at {f.tile}")
        if bf.door_shut(f.tile):
            out.append(f"{f.id} stands in a shut door at {f.tile}")
    hidden = {f.id for f in views if f.marked("hidden")}
    for side in rules.sides:
        view = rules.figures(match.state, side)
        own = {f.id for f in views if f.side == side}
        shown = {f.id for f in view if f.side == side}
        if own - shown:
            out.append(f"side {side} cannot see its own figures {sorted(own - shown)}")
        for f in view:
            if f.side == side:
                continue
            if f.id in hidden:
                out.append(f"side {side} sees hidden enemy {f.id}")
            leaked = [m.key for m in f.markers if m.key in rules.secret_markers]
            if leaked:
                out.append(f"side {side} sees the secret markers {leaked} of {f.id}")
        for t in match.rules.tokens(match.state, side):
            if t.owner != side and t.kind != "unknown":
                out.append(f"side {side} sees the nature of enemy token {t.id}")
    for e in match.log[-50:]:
        if e.visible_to is not None and e.visible_to not in match.rules.sides:
            out.append(f"event {e.kind} visible to unknown side {e.visible_to}")
    turn = match.rules.turn(match.state)
    if turn > match.max_turns:
        out.append(f"turn {turn} is past the limit of {match.max_turns}")
    return out


def play_game(match: Match, players: dict, report: Report, check_invariants: bool) -> None:
    names = {side: p.name for side, p in players.items()}
    for _ in range(MAX_ANSWERS):
        decision = match.pending
        if decision is None:
            return
        player = players[decision.side]
        t0 = time.process_time()
        key = player.choose(match.observe(decision.side), decision)
        report.decision_ms.setdefault(names[decision.side], []).append((time.process_time() - t0) * 1000)
        match.answer(key, undoable=False)
        if check_invariants:
            found = engine_invariants(match) + match.rules.check_invariants(match.state)
            report.violations.extend(f"seed {match.seed} answer {len(match.answers)}: {v}" for v in found)
    raise RulesError(f"seed {match.seed}", f"the game did not end after {MAX_ANSWERS} answers")


def run_games(map_path: str | Path, rules: str, seed: int = 0, games: int = 1, ai_a: str = "tactical",
              ai_b: str = "tactical", max_turns: int = 0, save: str | None = None,
              check_invariants: bool = False, progress: Callable[[str], None] | None = None) -> Report:
    """Play ``games`` games; when the two AIs differ they swap sides every game."""
    report = Report()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        match = new_match(map_path, rules, game_seed, max_turns=max_turns)
        first, second = (ai_a, ai_b) if g % 2 == 0 or ai_a == ai_b else (ai_b, ai_a)
        players = {0: make_player(first, match.rules.id, game_seed * 2 + 1),
                   1: make_player(second, match.rules.id, game_seed * 2 + 2)}
        play_game(match, players, report, check_invariants)
        outcome = match.outcome
        result = GameResult(game_seed, (first, second), outcome.winner if outcome else None,
                            outcome.reason if outcome else "unfinished", match.rules.turn(match.state),
                            len(match.answers), match.digest(), head_count(outcome))
        report.games.append(result)
        if save:                        # before the progress line, which a closed pipe may stop
            save_match(match, save)
        if progress:
            who = "draw" if result.winner_side is None else \
                f"side {result.winner_side} ({result.players[result.winner_side]}) wins"
            progress(f"game {g + 1}: seed {game_seed}, {first} vs {second}: {who} after {result.turns} turns "
                     f"({result.reason})")
    return report
