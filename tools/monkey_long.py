"""The long window monkey: tests/ui/test_monkey_every_screen.py with 20,000 random events per screen.

    nice python tools/monkey_long.py --events 20000

Every screen (main menu, new battle, load with good, damaged and odd saves, settings, the battle in
hot-seat, versus AI and AI versus AI, the hand-over, the results) for every registered rule
module, under the dummy video driver. Prints one JSON object: events and frames per screen and
module, the failing tests (must be none) and the wall time; the figures of docs/reliability.md.
Exit code 1 when any test failed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE = "tests.ui.test_monkey_every_screen"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=20_000, help="random events per screen and module")
    p.add_argument("-k", default="", help="pytest -k expression to run only some of the screens")
    args = p.parse_args(argv)
    os.environ["ESCARMOUCHE_MONKEY_EVENTS"] = str(args.events)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    import pytest

    sys.path.insert(0, str(ROOT / "tools"))
    from fuzz_long import Failures

    failures = Failures()
    t0 = time.perf_counter()
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-m", "long or not long",
                        "tests/ui/test_monkey_every_screen.py"] + (["-k", args.k] if args.k else []),
                       plugins=[failures])
    screens: dict[str, dict] = {}
    module = sys.modules.get(MODULE)
    for key, count in (module.STATS.items() if module else []):
        screen, _, what = key.rpartition(": ")
        screens.setdefault(screen, {})[what] = count
    result = {"events_per_screen": args.events, "pytest_exit_code": int(code), "failed_tests": failures.failed,
              "screens": screens, "events": sum(s.get("events", 0) for s in screens.values()),
              "wall_s": round(time.perf_counter() - t0, 1)}
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 0 if code == 0 and not failures.failed else 1


if __name__ == "__main__":
    sys.exit(main())
