"""Command line: the window by default, and headless ``sim``, ``replay`` and ``validate-map``.

Bad flags and unreadable files give one line on stderr and exit code 2, never a traceback.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys

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


MAX_SEED = 10**12      # sim's game seeds (seed × 1,000,003 + game) stay within a save's ±2⁶³


def _seed(text: str) -> int:
    value = _nonneg(text)
    if value > MAX_SEED:
        raise argparse.ArgumentTypeError(f"'{text[:40]}' is too large: a seed is at most {MAX_SEED}")
    return value


def _positive(text: str) -> int:
    value = _nonneg(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _map_help() -> str:
    """What --map accepts, naming the shipped maps and the player's maps folder."""
    from .engine.mapfolders import map_names, shipped_maps_dir, user_maps_dir

    shipped = ", ".join(map_names(shipped_maps_dir())) or "none found"
    return (f"a Tiled map file (.tmx, .tmj, .json), or the name of a shipped map ({shipped}) or of a map "
            f"in your maps folder ({user_maps_dir()})")


def build_parser(name_maps: bool = True) -> argparse.ArgumentParser:
    """The parser; ``name_maps`` lists the maps folders for the help of --map (a run that prints no
    such help skips that look at the disk and its imports)."""
    from . import __version__
    from .ai import AI_LEVELS, AI_NAMES
    from .ui import ANIMATIONS
    from .rules import names

    p = _Parser(prog="escarmouche", description="Tactical skirmish on Tiled battlefields. "
                "Without a command, opens the main menu.")
    p.add_argument("--version", action="version", version=f"escarmouche {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    map_help = _map_help() if name_maps else "a Tiled map file, or the name of a shipped map or of one of yours"
    rules_help = f"the rule system ({', '.join(names())})"
    ai_help = f"({', '.join(AI_NAMES)})"

    play = sub.add_parser("play", help="open the window on a battle",
                          description="Open the window straight on a battle, or on New battle with a map "
                                      "picked when no rule system is given.")
    play.add_argument("--map", required=True, help=map_help)
    play.add_argument("--rules", choices=names(), metavar="RULES",
                      help=f"{rules_help}; without it, New battle opens on the map to choose rules and armies")
    play.add_argument("--mode", choices=MODES,
                      help="hotseat: two people at one screen; vs-ai: you against the computer; "
                           "ai-vs-ai: the computer plays both sides (default: hotseat)")
    play.add_argument("--seed", type=_seed, metavar="N",
                      help="seed of the match's dice, to play the same battle again (default: random)")
    play.add_argument("--lang", choices=("fr", "en"), help="language of the window (default: your setting)")
    play.add_argument("--human-side", type=int, choices=(0, 1), default=0,
                      help="with --mode vs-ai, the side you play (default: 0)")
    play.add_argument("--ai-level", choices=AI_LEVELS,
                      help="how well the computer plays in vs-ai and ai-vs-ai: easy, normal or hard; the levels "
                           "differ in judgement, never in what they see (default: normal)")
    play.add_argument("--frames", type=_positive, metavar="N",
                      help="close the window after N frames (for scripts and checks)")
    play.add_argument("--screenshot", metavar="FILE", help="save the last frame as a PNG picture")
    play.add_argument("--freeze", choices=(*ANIMATIONS, "miss"), metavar="ANIMATION",
                      help="stop in the middle of the first animation of that kind, within --frames "
                           f"({', '.join(ANIMATIONS)}, or miss: a shot that misses), to take its --screenshot")

    sim = sub.add_parser("sim", help="play AI against AI without a window",
                         description="Play AI against AI without a window and print what happened.")
    sim.add_argument("--map", required=True, help=map_help)
    sim.add_argument("--rules", required=True, choices=names(), metavar="RULES", help=rules_help)
    sim.add_argument("--seed", type=_seed, default=0, metavar="N",
                     help="seed of the dice; the same seed plays the same games (default: 0)")
    sim.add_argument("--games", type=_positive, default=1, metavar="K", help="games to play (default: 1)")
    sim.add_argument("--ai", default="tactical", choices=AI_NAMES, metavar="NAME",
                     help=f"the AI that plays both sides, or side 0 of the first game with --ai-b {ai_help}; "
                          "tactical:easy and tactical:hard set the tactical AI's level (default: tactical, normal)")
    sim.add_argument("--ai-b", choices=AI_NAMES, metavar="NAME",
                     help=f"a second AI {ai_help}: the two swap sides every game")
    sim.add_argument("--max-turns", type=_positive, metavar="T",
                     help="end each game after T turns (default: the rule system's limit)")
    sim.add_argument("--save", metavar="FILE", help="save the last game to FILE, to replay it")
    sim.add_argument("--json", action="store_true", help="print one JSON summary instead of text lines")
    sim.add_argument("--check-invariants", action="store_true",
                     help="check the rules' invariants after every answer; exit 1 if one breaks")

    replay = sub.add_parser("replay", help="replay a saved match and print its state digest",
                            description="Replay a saved match from its answers and print its state digest.")
    replay.add_argument("file", metavar="FILE", help="a save written by the game or by sim --save")
    replay.add_argument("--verify", action="store_true",
                        help="compare with the digest stored in the save; exit 1 if they differ")

    validate = sub.add_parser("validate-map", help="check maps before play",
                              description="Check maps before play: every problem as file: place: message.")
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="Tiled maps to check; exit 1 if one cannot be played")

    bench = sub.add_parser("bench", help="measure speed and memory against references timed in the same run",
                           description="Every speed and memory figure of docs/performance.md, as medians, "
                                       "each against a reference timed in the same run.")
    bench.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    bench.add_argument("--repeat", type=_positive, default=3, metavar="N",
                       help="runs per figure, of which the median is kept (default: 3)")
    return p


def main(argv: list[str] | None = None) -> int:
    """The command's exit code. When the reader of the output goes away (``| head -1``), the command
    stops quietly with the code of a program ended by SIGPIPE, as other command-line tools do; its
    writes are atomic, so nothing half-written is left."""
    try:
        try:
            return _command(argv)
        finally:
            sys.stdout.flush()          # a pipe closed early shows here, not at the interpreter's exit
    except BrokenPipeError:
        quiet = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):      # a stream without a file descriptor
                os.dup2(quiet, stream.fileno())
        return 128 + signal.SIGPIPE


def _command(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    help_of_map = bool({"-h", "--help"} & set(argv)) and bool({"play", "sim"} & set(argv))
    args = build_parser(name_maps=help_of_map).parse_args(argv)
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


def _input_problem(path: str) -> str | None:
    """Why a file named on the command line cannot be read at all, or None."""
    from .engine.files import MAX_INPUT_BYTES, FileRefused, regular_size

    try:
        regular_size(path, MAX_INPUT_BYTES)
    except FileRefused as e:
        return "no such map file" if e.reason == "not found" else e.reason
    return None


def _refuse(path: str, reason: str) -> int:
    from .errors import printable

    print(f"escarmouche: {printable(path, 300)}: {reason}", file=sys.stderr)
    return 2


def _map_path(text: str) -> str:
    """The file a --map names (see _map_help); EscarmoucheError saying why when there is none, or
    when it is not a regular file within the loaders' bound."""
    from .engine.mapfolders import find_map

    path = find_map(text)
    if path is None:
        problem = _input_problem(text)
        if problem and problem != "no such map file":
            raise EscarmoucheError(text, problem)
        raise EscarmoucheError(text, f"no such map file or map name; --map takes {_map_help()}")
    if problem := _input_problem(str(path)):
        raise EscarmoucheError(str(path), problem)
    return str(path)


def _play(options: dict) -> int:
    from .engine.files import check_output
    from .ui.app import run

    if options.get("map"):
        options["map"] = _map_path(options["map"])
    if options.get("screenshot") is not None:
        check_output(options["screenshot"])
    return run({k: options.get(k) for k in
                ("map", "rules", "mode", "seed", "lang", "human_side", "ai_level", "frames", "screenshot",
                 "freeze")})


def _sim(args) -> int:
    from .engine.files import check_output
    from .sim import run_games

    if args.save is not None:
        check_output(args.save)
    report = run_games(_map_path(args.map), args.rules, seed=args.seed, games=args.games, ai_a=args.ai,
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
    """Exit 0 when every map plays, 1 when one is unplayable, 2 when one cannot be read at all."""
    from .engine.mapcheck import check_map

    unplayable = unreadable = False
    for file in args.files:
        if problem := _input_problem(file):
            _refuse(file, "no such file" if problem == "no such map file" else problem)
            unreadable = True
            continue
        problems = check_map(file)
        for p in problems:
            print(p.line() if p.severity == "error" else f"{p.line()} [warning]")
        if any(p.severity == "error" for p in problems):
            unplayable = True
        elif not problems:
            print(f"{file}: ok")
    return 2 if unreadable else 1 if unplayable else 0
