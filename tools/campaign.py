"""The strength and balance campaigns of docs/ai.md: many `sim` cells, spread over the machine's cores,
each cell's games played in chunks so that a long cell uses every core, the results kept one JSON line a
cell so that a stopped campaign picks up where it stopped.

Usage:

    python tools/campaign.py --out ai.jsonl --games 200 --jobs 2 \\
        --rules eisdrachen kolaps --maps ruined_town forest_village \\
        --pairs tactical:random tactical:greedy tactical:hard:tactical tactical:tactical
    python tools/campaign.py --out ai.jsonl --table        # the tables of docs/ai.md from what ran
    python tools/campaign.py --out ai.jsonl --standing     # the rows of docs/ai.md's standing table

A pair is ``A:B`` (two players, swapping sides every game) or a single name (the same AI on both
sides); ``tactical:hard:tactical`` is tactical:hard against tactical. A chunk of ``--chunk`` games
uses its own seed (the campaign's ``--seed`` plus the chunk's number), so cells are reproducible and
a chunk can run on any core. Times are CPU seconds of the processes that played. A row records the
seeds of its chunks, so that a cell can be played further on other seeds (``--seed 11`` after a
200-game ``--seed 1``) into the same file; ``--standing`` sums the rows of a cell and refuses two
that share a seed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from game.ai import AI_LEVELS
from game.engine.mapfolders import shipped_maps_dir
from game.sim import Report, run_games, wilson

GROUND_MAPS = ["ruined_town", "forest_village", "great_battlefield"]


def split_pair(pair: str) -> tuple[str, str]:
    """'tactical:hard:tactical' -> ('tactical:hard', 'tactical'); 'greedy' -> ('greedy', 'greedy')."""
    parts = pair.split(":")
    names, i = [], 0
    while i < len(parts):
        if parts[i] == "tactical" and i + 1 < len(parts) and parts[i + 1] in AI_LEVELS:
            names.append(f"tactical:{parts[i + 1]}")
            i += 2
        else:
            names.append(parts[i])
            i += 1
    if len(names) == 1:
        return names[0], names[0]
    if len(names) != 2:
        raise SystemExit(f"campaign: the pair '{pair}' is not 'A:B' or one player's name")
    return names[0], names[1]


def play_chunk(rules: str, map_name: str, a: str, b: str, seed: int, games: int) -> tuple[list, dict, float]:
    t = time.process_time()
    report = run_games(shipped_maps_dir() / f"{map_name}.tmx", rules, seed=seed, games=games, ai_a=a, ai_b=b)
    return report.games, report.decision_ms, time.process_time() - t


def run(args) -> int:
    out = Path(args.out)
    done = {(r["rules"], r["map"], r["a"], r["b"], r.get("seeds", [None])[0]) for r in read(out)}
    cells = [(rules, m, *split_pair(p)) for rules in args.rules
             for m in (args.maps if rules != "voyageurs_aerial" else ["sky_deck"]) for p in args.pairs]
    cells = [c for c in cells if (*c, args.seed) not in done]
    chunks = -(-args.games // args.chunk)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = {pool.submit(play_chunk, *cell, args.seed + k, min(args.chunk, args.games - k * args.chunk)): cell
                for cell in cells for k in range(chunks)}
        parts: dict[tuple, list] = {cell: [] for cell in cells}
        for job in as_completed(jobs):
            cell = jobs[job]
            parts[cell].append(job.result())
            if len(parts[cell]) == chunks:
                write(out, cell, parts.pop(cell), seeds=[args.seed, args.seed + chunks - 1])
    return 0


def write(out: Path, cell: tuple, parts: list, seeds: list[int]) -> None:
    rules, map_name, a, b = cell
    report = Report()
    cpu = 0.0
    for games, decision_ms, seconds in parts:
        report.games += games
        for name, ms in decision_ms.items():
            report.decision_ms.setdefault(name, []).extend(ms)
        cpu += seconds
    summary = report.summary()
    summary.pop("digests")
    row = {"rules": rules, "map": map_name, "a": a, "b": b, "seeds": seeds, "cpu_s": round(cpu, 1), **summary}
    with out.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    print(f"{rules} {map_name} {a} vs {b}: {summary['games']} games, {cpu:.0f} s CPU", flush=True)


def read(out: Path) -> list[dict]:
    if not out.exists():
        return []
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]


def pct(share) -> str:
    return f"{100 * share:.0f}"


def table(out: Path) -> int:
    rows = read(out)
    print("| module | map | player | versus | games | wins % (95 % CI) | draws | turn limit | mean turns | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r["a"] == r["b"]:
            continue
        n, k = r["games"], r["wins"].get(r["a"], 0)
        lo, hi = r["wins_ci95"]["player"][r["a"]]
        print(f"| {r['rules']} | {r['map']} | {r['a']} | {r['b']} | {n} | {pct(k / n)} ({pct(lo)}–{pct(hi)}) | "
              f"{pct(r['draw_rate'])} % | {pct(r['turn_limit_rate'])} % | {r['turns_mean']:.1f} | {r['cpu_s']:.0f} |")
    print()
    print("| module | map | AI | games | side 0 wins | side 1 wins | draws | side 0 share of decisive (95 % CI) | "
          "turn limit | head count | mean turns | decision ms median / max | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r["a"] != r["b"]:
            continue
        share = r["side0_share_of_decisive"]
        lo, hi = r["side0_share_ci95"]
        t = r["decision_ms"].get(r["a"], {})
        print(f"| {r['rules']} | {r['map']} | {r['a']} | {r['games']} | {r['wins_by_side']['0']} | "
              f"{r['wins_by_side']['1']} | {pct(r['draw_rate'])} % | "
              f"{pct(share) if share is not None else '–'} % ({pct(lo)}–{pct(hi)}) | {pct(r['turn_limit_rate'])} % | "
              f"{pct(r.get('head_count_rate', 0))} % | {r['turns_mean']:.1f} | {t.get('median', 0):.1f} / {t.get('max', 0):.0f} | {r['cpu_s']:.0f} |")
    return 0


def level(name: str) -> str:
    """A player as docs/ai.md's standing table names it: the tactical AI by its level."""
    return {"tactical": "normal"}.get(name, name.removeprefix("tactical:"))


def summable(rows: list[dict]) -> bool:
    """Rows of one cell add up when each knows its seeds and no two share one."""
    spans = sorted(tuple(r["seeds"]) for r in rows if "seeds" in r)
    return len(rows) == 1 or (len(spans) == len(rows) and all(x[1] < y[0] for x, y in zip(spans, spans[1:])))


def rate_pct(rows: list[dict], rate: str) -> str:
    """A rate of a cell's summed rows, in per cent, from each row's exact count."""
    return f"{100 * sum(round(r[rate] * r['games']) for r in rows) / sum(r['games'] for r in rows):.1f}"


def standing(out: Path) -> int:
    """docs/ai.md's standing table, one row a cell: the rows of a cell played on other seeds are summed
    (exact counts, the interval computed from the sums)."""
    cells: dict[tuple, list[dict]] = {}
    for r in read(out):
        cells.setdefault((r["rules"], r["map"], r["a"], r["b"]), []).append(r)
    print("| module | map | cell | games | result (95 % CI) | draws | turn limit | head count | mean turns |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (rules, map_name, a, b), rows in sorted(cells.items()):
        if not summable(rows):
            print(f"campaign: {rules} {map_name} {a} vs {b} has rows whose seeds are unknown or shared: "
                  "they cannot be summed", file=sys.stderr)
            return 2
        n = sum(r["games"] for r in rows)
        if a == b:
            k, decisive = sum(r["wins_by_side"]["0"] for r in rows), n - sum(r["draws"] for r in rows)
            cell = f"side 0's share, {level(a)} vs {level(b)}"
        else:
            k, decisive = sum(r["wins"].get(a, 0) for r in rows), n
            cell = f"{level(a)} vs {level(b)}"
        lo, hi = wilson(k, decisive)
        turns = sum(r["turns_mean"] * r["games"] for r in rows) / n
        result = f"{100 * k / decisive:.1f}" if decisive else "–"
        print(f"| {rules} | {map_name} | {cell} | {n} | {result} ({100 * lo:.1f}–{100 * hi:.1f}) | "
              f"{rate_pct(rows, 'draw_rate')} % | {rate_pct(rows, 'turn_limit_rate')} % | {rate_pct(rows, 'head_count_rate')} % | "
              f"{turns:.1f} |")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="the JSON-lines file of results, appended to")
    ap.add_argument("--table", action="store_true", help="print the tables of what --out holds and stop")
    ap.add_argument("--standing", action="store_true",
                    help="print docs/ai.md's standing table of what --out holds (a cell's rows summed) and stop")
    ap.add_argument("--rules", nargs="+", default=["eisdrachen", "kolaps", "mordgrave", "passe_d_armes",
                                                   "voyageurs", "voyageurs_aerial"])
    ap.add_argument("--maps", nargs="+", default=GROUND_MAPS)
    ap.add_argument("--pairs", nargs="+", default=["tactical:random", "tactical:greedy", "tactical:hard:tactical",
                                                   "tactical"])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--chunk", type=int, default=20, help="games per chunk (even, so that sides stay swapped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    if args.table:
        return table(Path(args.out))
    if args.standing:
        return standing(Path(args.out))
    if args.chunk % 2:
        ap.error("--chunk must be even, so that the two players play each side as often")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
