"""Command line: the window by default, and headless ``sim``, ``replay`` and ``validate-map``.

Bad flags and unreadable files give one line on stderr and exit code 2, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import EscarmoucheError

MODES = ("hotseat", "vs-ai", "ai-vs-ai")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message}\n")


def _nonneg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be 0 or more")
    return value


def _positive(text: str) -> int:
    value = _nonneg(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    from .ai import AI_NAMES
    from .rules import names

    p = _Parser(prog="escarmouche", description="Tactical skirmish on Tiled battlefields.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    play = sub.add_parser("play", help="open the window on a battle")
    play.add_argument("--map", required=True)
    play.add_argument("--rules", required=True, choices=names())
    play.add_argument("--mode", default="hotseat", choices=MODES)
    play.add_argument("--seed", type=_nonneg)
    play.add_argument("--lang", choices=("fr", "en"))
    play.add_argument("--human-side", type=int, choices=(0, 1), default=0)
    play.add_argument("--frames", type=_positive)
    play.add_argument("--screenshot")

    sim = sub.add_parser("sim", help="play AI against AI without a window")
    sim.add_argument("--map", required=True)
    sim.add_argument("--rules", required=True, choices=names())
    sim.add_argument("--seed", type=_nonneg, default=0)
    sim.add_argument("--games", type=_positive, default=1)
    sim.add_argument("--ai", default="tactical", choices=AI_NAMES)
    sim.add_argument("--ai-b", choices=AI_NAMES)
    sim.add_argument("--max-turns", type=_positive)
    sim.add_argument("--save")
    sim.add_argument("--json", action="store_true")
    sim.add_argument("--check-invariants", action="store_true")

    replay = sub.add_parser("replay", help="replay a saved match and print its state digest")
    replay.add_argument("file")
    replay.add_argument("--verify", action="store_true")

    validate = sub.add_parser("validate-map", help="check maps before play")
    validate.add_argument("files", nargs="+")

    bench = sub.add_parser("bench", help="measure speed and memory against references timed in the same run")
    bench.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    bench.add_argument("--repeat", type=_positive, default=3, help="runs per figure (the median is kept)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.command is None:
            return _play({})
        if args.command == "play":
            return _play(vars(args))
        if args.command == "sim":
            return _sim(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "bench":
            from .bench import run as bench
            return bench(args.json, args.repeat)
        return _validate(args)
    except EscarmoucheError as e:
        print(f"escarmouche: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _play(options: dict) -> int:
    from .ui.app import run

    if options.get("map") and not Path(options["map"]).is_file():
        print(f"escarmouche: {options['map']}: no such map file", file=sys.stderr)
        return 2
    return run({k: options.get(k) for k in
                ("map", "rules", "mode", "seed", "lang", "human_side", "frames", "screenshot")})


def _sim(args) -> int:
    from .sim import run_games

    if not Path(args.map).is_file():
        print(f"escarmouche: {args.map}: no such map file", file=sys.stderr)
        return 2
    report = run_games(args.map, args.rules, seed=args.seed, games=args.games, ai_a=args.ai,
                       ai_b=args.ai_b or args.ai, max_turns=args.max_turns or 0, save=args.save,
                       check_invariants=args.check_invariants,
                       progress=None if args.json else print)
    if args.json:
        print(json.dumps(report.summary(), sort_keys=True))
    else:
        for line in report.summary_lines():
            print(line)
    return 1 if report.violations else 0


def _replay(args) -> int:
    from .engine.save import match_from_json, read_save

    data = read_save(args.file)
    match = match_from_json(data, args.file)
    digest = match.digest()
    print(digest)
    if args.verify:
        stored = data.get("digest")
        if stored != digest:
            print(f"escarmouche: {args.file}: digest differs from the saved one ({stored})", file=sys.stderr)
            return 1
        print("verified: the replay reaches the saved state")
    return 0


def _validate(args) -> int:
    from .engine.mapcheck import check_map

    unplayable = False
    for file in args.files:
        problems = check_map(file)
        for p in problems:
            print(p.line() if p.severity == "error" else f"{p.line()} [warning]")
        if any(p.severity == "error" for p in problems):
            unplayable = True
        elif not problems:
            print(f"{file}: ok")
    return 1 if unplayable else 0
