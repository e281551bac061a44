"""The long fuzzing run: the CI fuzz tests of maps, tilesets, saves, output paths and settings,
each with many more cases, and the bounds of docs/reliability.md measured.

    nice python tools/fuzz_long.py --cases 10000
    nice python tools/fuzz_long.py --bounds

Runs tests/engine/test_tiled_fuzz.py, tests/engine/test_save_fuzz.py, the harness of issue 12
(tests/engine/test_bounds_fuzz.py, every case in a child under resource limits, with files up to
10 MB and bombs up to 2 GB) and the settings fuzz of tests/ui/test_app_start.py in this process
with ``ESCARMOUCHE_FUZZ_CASES`` set, with fresh random seeds, and prints one JSON object: per
kind of input, cases tried and outcomes, the slowest case, and for the harness the most CPU and
memory one case took; the failing tests (must be none) and the wall time.

``--bounds`` instead loads the worst input of each kind the harness knows, each as large as the
bounds allow (10 MB files, a 2048×2048 map, 2 GB bombs, every limit of the loader reached), each
in a child under generous limits, and prints its CPU time and memory against the promise (2 s,
512 MB), with the CPU time of loading the largest shipped map as the in-run reference. These are
the figures of docs/reliability.md. Exit code 1 when any test failed or any bound was broken.
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
           "tests.engine.test_save_fuzz": "tests/engine/test_save_fuzz.py",
           "tests.engine.test_bounds_fuzz": "tests/engine/test_bounds_fuzz.py",
           "tests.ui.test_app_start":
               "tests/ui/test_app_start.py::test_settings_files_of_any_shape_fall_back_field_by_field"}
PROMISE = {"cpu_s": 2.0, "peak_mb": 512.0}


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
    p.add_argument("--bounds", action="store_true", help="measure the worst inputs against the promise instead")
    args = p.parse_args(argv)
    if args.bounds:
        return bounds()
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
    pytest_args = ["-q", "-p", "no:cacheprovider", "-m", "long or not long", *MODULES.values()]
    pytest_args += ["-k", args.k] if args.k else []
    code = pytest.main(pytest_args, plugins=[failures])
    wall = time.perf_counter() - t0
    kinds: dict[str, dict] = {}
    unforeseen: dict[str, int] = {}
    for name in MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        for key, count in getattr(module, "STATS", {}).items():
            kind, _, what = key.rpartition(": ")
            kinds.setdefault(kind, {})[what] = count
        for kind, seconds in getattr(module, "SLOWEST", {}).items():
            kinds.setdefault(kind, {})["slowest_s"] = round(seconds, 3)
        for key, count in list(getattr(module, "NET", {}).items()) + list(getattr(module, "GENERIC", {}).items()):
            unforeseen[key] = unforeseen.get(key, 0) + count
    harness = sys.modules.get("tests.engine.test_bounds_fuzz")
    if harness is not None:
        for key, count in harness.OUTCOMES.items():
            kind, _, what = key.rpartition(": ")
            kinds.setdefault(kind, {})[what] = count
        for kind, worst in harness.WORST.items():
            kinds.setdefault(kind, {}).update({f"most_{k}": round(v, 3) for k, v in worst.items()})
    result = {"cases_per_test": args.cases, "external_maps": os.environ.get("ESCARMOUCHE_EXTERNAL_MAPS", ""),
              "pytest_exit_code": int(code), "failed_tests": failures.failed,
              "kinds": kinds, "refusals_by_a_last_resort_net": dict(sorted(unforeseen.items(),
                                                                          key=lambda kv: -kv[1])[:40]),
              "wall_s": round(wall, 1)}
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 0 if code == 0 and not failures.failed else 1


def bounds() -> int:
    """The worst inputs, each in a child process: CPU and memory against the promise."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    import shutil
    import tempfile

    from game.engine import tiled
    from game.engine.files import MAX_INPUT_BYTES
    from tests.engine import hostile
    from tests.engine.test_bounds import load_and_validate, load_save
    from tests.limits import run_limited

    def load(path: Path) -> str:
        try:
            loaded = tiled.load_map(path)
        except tiled.MapError as err:
            return str(err)
        return f"loaded {loaded.battlefield.width}×{loaded.battlefield.height}"

    rows, broken = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        def measure(name: str, make, run=load):
            nonlocal broken
            shutil.rmtree(folder / "case", ignore_errors=True)
            (folder / "case").mkdir()
            path = make(folder / "case")
            outcome = run_limited(run, path, cpu_s=60, memory_mb=4096, wall_s=300)
            value = outcome.value or ""
            checked = run_limited(load_and_validate, path, cpu_s=60, memory_mb=4096, wall_s=300) \
                if run is load else outcome
            within = outcome.ok and outcome.cpu_s <= PROMISE["cpu_s"] and outcome.peak_mb <= PROMISE["peak_mb"]
            broken += not within
            rows.append({"case": name, "bytes": path.stat().st_size,
                         "outcome": outcome.stopped or outcome.error or value[:160],
                         "cpu_s": round(outcome.cpu_s, 3), "peak_mb": round(outcome.peak_mb, 1),
                         "with_validator_cpu_s": round(checked.cpu_s, 3),
                         "with_validator_peak_mb": round(checked.peak_mb, 1),
                         "cpu_vs_reference": round(outcome.cpu_s / reference, 2), "within_promise": within})
            print(json.dumps(rows[-1], ensure_ascii=False), file=sys.stderr, flush=True)

        largest = max((ROOT / "maps").glob("*.tmx"), key=lambda p: p.stat().st_size)
        reference = max(1e-3, run_limited(load, largest, cpu_s=60).cpu_s)
        mb = MAX_INPUT_BYTES - 1024
        sides = {"big_rectangles": 1024, "spawn_rectangles": 512, "distinct_gids": 512, "polygon_points": 1024}
        for what in hostile.MANY:
            measure(f"{what}, 10 MB", lambda f, w=what: hostile.many_within(f, w, 10**7, sides.get(w, 64),
                                                                          sides.get(w, 64), mb))
        at_limit = [("objects", tiled.MAX_OBJECTS, 64), ("big_rectangles", 8, 1024), ("spawn_rectangles", 1, 512),
                    ("layers", tiled.MAX_LAYERS, 64), ("layers", tiled.MAX_LAYER_CELLS // (1024 * 1024), 1024),
                    ("tiles", tiled.MAX_TILE_ENTRIES, 64), ("unknown_properties", tiled.MAX_PROPERTIES - 10, 64),
                    ("tileset_references", tiled.MAX_TILESETS, 64), ("template_references", tiled.MAX_OBJECTS, 64),
                    ("polygon_points", tiled.MAX_POINTS - 10, 64), ("xml_tiles", 512 * 512, 512),
                    ("distinct_gids", 1, 128), ("nested_groups", tiled.MAX_GROUP_DEPTH, 64)]
        for what, count, side in at_limit:
            measure(f"{what} ×{count:,} on {side}×{side}", lambda f, w=what, c=count, s=side:
                    hostile.many_within(f, w, c, s, s, mb))
        for w, h in ((600, 600), (1024, 1024), (2048, 2048)):
            measure(f"empty map {w}×{h}", lambda f, w=w, h=h: hostile.empty_map(f, w, h))
        for compression in ("zlib", "gzip", "zstd"):
            measure(f"{compression} layer inflating to 2 GB", lambda f, c=compression: hostile.bomb_map(f, c, 2 << 30))
        measure("zstd frame declaring 2 GB", lambda f: hostile.bomb_map(f, "zstd", 2 << 30, sized_frame=True))
        measure("polyline to 1e300", lambda f: hostile.shape_map(f, [(0, 0), (1e300, 0)], False))
        far = 2.0 ** 31
        measure("polygon of 2³¹ px on 2048×2048", lambda f: hostile.shape_map(
            f, [(-far, -far), (far, -far), (far, far), (-far, far)], True, w=2048, h=2048))

        def big_save(f: Path) -> Path:
            from game.engine.save import new_match, to_json
            for name in ("sky_deck.tmx", "terrain.tsx"):
                shutil.copy(ROOT / "maps" / name, f / name)
            doc = to_json(new_match(f / "sky_deck.tmx", "eisdrachen", seed=3))
            doc["padding"] = ["x" * 60] * (mb // 64)
            (f / "big.json").write_text(json.dumps(doc)[:mb])
            return f / "big.json"
        measure("save, 10 MB of junk", big_save, load_save)
        measure("save, 10 MB, deep nesting", lambda f: hostile.write(f, "deep.json", "[" * (mb // 2) + "]" * (mb // 2)),
                load_save)
    print(json.dumps({"promise": PROMISE, "reference": {"case": f"load {largest.name}",
                                                        "cpu_s": round(reference, 3)},
                      "cases": rows, "within_promise": len(rows) - broken, "broken": broken}, indent=1,
                     ensure_ascii=False))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
