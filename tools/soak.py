"""Soak run: many AI-against-AI games with invariant checks after every answer, each game saved,
reloaded by replaying its answers, and its final state digest compared with the live one.

    nice python tools/soak.py --rules eisdrachen --games 1000 --map maps/ruined_town.tmx

Prints one JSON object: games, finished within the turn limit, invariant violations, replays
out of sync, crashes and wall time (the figures of docs/reliability.md). Exit code 1 when any
of violations, out-of-sync replays, crashes or unfinished games is not zero.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.ai import AI_NAMES, make_player  # noqa: E402
from game.engine.save import load_match, new_match, save_match  # noqa: E402
from game.sim import MAX_ANSWERS, engine_invariants  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def play_checked(match, players) -> list[str]:
    """Play to the end, checking every invariant after every answer; return the violations."""
    violations = []
    for _ in range(MAX_ANSWERS):
        decision = match.pending
        if decision is None:
            return violations
        match.answer(match.ask(players[decision.side]))
        found = engine_invariants(match) + match.rules.check_invariants(match.state)
        violations += [f"seed {match.seed} answer {len(match.answers)}: {v}" for v in found]
    violations.append(f"seed {match.seed}: no end after {MAX_ANSWERS} answers")
    return violations


def soak(map_path: str, rules: str, games: int, seed: int, ai_a: str, ai_b: str, max_turns: int,
         progress=None) -> dict:
    """Play, check, save, replay; count what went wrong and keep the first examples of each."""
    counts = {"games": 0, "finished": 0, "answers": 0, "invariant_violations": 0, "replays_out_of_sync": 0,
              "crashes": 0}
    examples: dict[str, list[str]] = {"invariant_violations": [], "replays_out_of_sync": [], "crashes": [],
                                      "unfinished": []}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        save_path = Path(tmp) / "soak.json"
        for g in range(games):
            game_seed = seed * 1_000_003 + g
            first, second = (ai_a, ai_b) if g % 2 == 0 else (ai_b, ai_a)
            violations: list[str] = []
            counts["games"] += 1
            try:
                match = new_match(map_path, rules, game_seed, max_turns=max_turns)
                players = {0: make_player(first, match.rules.id, game_seed * 2 + 1),
                           1: make_player(second, match.rules.id, game_seed * 2 + 2)}
                violations = play_checked(match, players)
                counts["answers"] += len(match.answers)
                if match.outcome is not None and match.rules.turn(match.state) <= match.max_turns:
                    counts["finished"] += 1
                else:
                    examples["unfinished"].append(f"seed {game_seed}: turn {match.rules.turn(match.state)}")
                save_match(match, save_path)
                replayed = load_match(save_path)
                if replayed.digest() != match.digest() or replayed.answers != match.answers:
                    counts["replays_out_of_sync"] += 1
                    examples["replays_out_of_sync"].append(f"seed {game_seed} ({first} vs {second})")
            except Exception as exc:     # a soak counts crashes instead of stopping at the first
                counts["crashes"] += 1
                where = traceback.extract_tb(exc.__traceback__)[-1]
                examples["crashes"].append(f"seed {game_seed} ({first} vs {second}): {type(exc).__name__}: "
                                           f"{exc} at {Path(where.filename).name}:{where.lineno}")
            counts["invariant_violations"] += len(violations)
            examples["invariant_violations"].extend(violations[:3])
            if progress and (g + 1) % 50 == 0:
                progress(f"{rules}: {g + 1}/{games} games, {time.perf_counter() - t0:.0f} s, "
                         f"violations {counts['invariant_violations']}, out of sync "
                         f"{counts['replays_out_of_sync']}, crashes {counts['crashes']}")
    return {"rules": rules, "map": str(map_path), "ai": [ai_a, ai_b], "seed": seed,
            "max_turns": max_turns or "module default", **counts,
            "unfinished": counts["games"] - counts["finished"] - counts["crashes"],
            "wall_s": round(time.perf_counter() - t0, 1),
            "examples": {k: v[:5] for k, v in examples.items() if v}}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", required=True)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--map", default=str(ROOT / "maps" / "ruined_town.tmx"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ai", default="tactical", choices=AI_NAMES)
    p.add_argument("--ai-b", default="random", choices=AI_NAMES)
    p.add_argument("--max-turns", type=int, default=0)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    progress = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    result = soak(args.map, args.rules, args.games, args.seed, args.ai, args.ai_b, args.max_turns, progress)
    print(json.dumps(result, indent=1))
    bad = result["invariant_violations"] + result["replays_out_of_sync"] + result["crashes"] + result["unfinished"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
