"""The long fuzzing run: the CI fuzz tests of maps, tilesets and saves, each with many more cases.

    nice python tools/fuzz_long.py --cases 10000

Runs tests/engine/test_tiled_fuzz.py and tests/engine/test_save_fuzz.py in this process with
``ESCARMOUCHE_FUZZ_CASES`` set, with fresh random seeds, and prints one JSON object: per kind
of input, cases tried, loaded, refused, refused only by a loader's last-resort net, slowest case;
the failing tests (must be none) and the wall time. These are the figures of docs/reliability.md.
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
MODULES = {"tests.engine.test_tiled_fuzz": "tests/engine/test_tiled_fuzz.py",
           "tests.engine.test_save_fuzz": "tests/engine/test_save_fuzz.py"}


class Failures:
    """A pytest plugin that keeps the failing tests and their first line of error."""

    def __init__(self):
        self.failed: list[str] = []

    def pytest_runtest_logreport(self, report):
        if report.failed:
            text = str(report.longrepr).strip().splitlines()
            self.failed.append(f"{report.nodeid}: {text[-1] if text else ''}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=10_000, help="cases per fuzz test")
    p.add_argument("--external", default=str(ROOT.parent / "shared" / "maps-external"),
                   help="a folder of real Tiled maps made by others, fuzzed too when it exists")
    p.add_argument("-k", default="", help="pytest -k expression to run only some of the fuzz tests")
    args = p.parse_args(argv)
    os.environ["ESCARMOUCHE_FUZZ_CASES"] = str(args.cases)
    if Path(args.external).is_dir():
        os.environ["ESCARMOUCHE_EXTERNAL_MAPS"] = str(Path(args.external).resolve())
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    import pytest

    failures = Failures()
    t0 = time.perf_counter()
    pytest_args = ["-q", "-p", "no:cacheprovider", "-m", "long or not long", *MODULES.values()] + (["-k", args.k] if args.k else [])
    code = pytest.main(pytest_args, plugins=[failures])
    wall = time.perf_counter() - t0
    kinds: dict[str, dict] = {}
    unforeseen: dict[str, int] = {}
    for name in MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        for key, count in module.STATS.items():
            kind, _, what = key.rpartition(": ")
            kinds.setdefault(kind, {})[what] = count
        for kind, seconds in module.SLOWEST.items():
            kinds.setdefault(kind, {})["slowest_s"] = round(seconds, 3)
        for key, count in list(getattr(module, "NET", {}).items()) + list(getattr(module, "GENERIC", {}).items()):
            unforeseen[key] = unforeseen.get(key, 0) + count
    result = {"cases_per_test": args.cases, "external_maps": os.environ.get("ESCARMOUCHE_EXTERNAL_MAPS", ""), "pytest_exit_code": int(code), "failed_tests": failures.failed,
              "kinds": kinds, "refusals_by_a_last_resort_net": dict(sorted(unforeseen.items(),
                                                                          key=lambda kv: -kv[1])[:40]),
              "wall_s": round(wall, 1)}
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 0 if code == 0 and not failures.failed else 1


if __name__ == "__main__":
    sys.exit(main())
