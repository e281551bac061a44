"""A fuzz harness for each class of issue 12, every case in a child process under CPU, memory and
wall-time limits (tests/limits.py), so that a hang or a bomb fails the case, not the suite:

- unbounded work: maps repeating one element, maps of any allowed size, shapes reaching far away;
- decompression bombs: layers and chunks inflating far beyond their size, in every compression;
- size guards: zero, negative, fractional and absurd sizes on the map, its tilesets and images;
- confinement: references to absolute paths and to files of the wrong kind, FIFOs and devices;
- saves: a real save with huge numbers, deep nesting, odd map paths and lone surrogates put in;
- output paths: writes into folders, FIFOs, missing folders and names too long;
- settings files with any field missing or of any type (in tests/ui/test_app_start.py).

``ESCARMOUCHE_FUZZ_CASES`` sets the cases per class (``tools/fuzz_long.py`` runs many more, and
larger: up to 10 MB files and 2 GB bombs); ``OUTCOMES`` keeps, per class, the cases tried, the
outcomes and the most CPU and memory one case took, for docs/reliability.md.
"""
from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.files import write_atomic
from game.engine.save import new_match, to_json
from game.errors import OutputError

from ..limits import run_limited
from . import hostile
from .test_bounds import CPU_S, MEMORY_MB, NET_MARKS, load_and_validate, load_save

pytestmark = pytest.mark.long
ROOT = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("ESCARMOUCHE_FUZZ_CASES", "0"))
LONG = CASES > 0
LARGE = LONG                         # the long run also makes files up to the 10 MB bound
OUTCOMES: Counter = Counter()
WORST: dict[str, dict[str, float]] = {}


def fuzz(ci_cases: int):
    return settings(max_examples=CASES or ci_cases, deadline=None, database=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def record(kind: str, outcome, result: str) -> None:
    OUTCOMES[f"{kind}: cases"] += 1
    OUTCOMES[f"{kind}: {result}"] += 1
    worst = WORST.setdefault(kind, {"cpu_s": 0.0, "peak_mb": 0.0})
    worst["cpu_s"] = max(worst["cpu_s"], outcome.cpu_s)
    worst["peak_mb"] = max(worst["peak_mb"], outcome.peak_mb)


def fresh(tmp_path_factory, name: str) -> Path:
    folder = tmp_path_factory.getbasetemp() / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def check_map(kind: str, path: Path, names: set[str]) -> None:
    """The contract for a map under limits: loaded, or refused in one line naming a file, with no
    unforeseen error and no secret quoted; both by the loader and by the validator."""
    outcome = run_limited(load_and_validate, path, cpu_s=CPU_S, memory_mb=MEMORY_MB)
    assert outcome.ok, f"{kind}: {path.name}: {outcome}"
    result = outcome.value
    lines = result["lines"] + result.get("warnings", []) + [result.get("refused", "")]
    for line in lines:
        assert "\n" not in line and hostile.SECRET not in line, line
    if "refused" in result:
        assert any(n in result["place"] for n in names), result["refused"]
        assert not any(mark in result["refused"] for mark in NET_MARKS), result["refused"]
    record(kind, outcome, "refused" if "refused" in result else "loaded")


# --- unbounded work --------------------------------------------------------------------------------

def counts(large: int):
    """Counts spread over orders of magnitude, up to what fits in the bound."""
    return st.integers(0, 6 if LARGE else 5).flatmap(
        lambda e: st.integers(10 ** e // 10 + 1, 10 ** e * (1 if e < 6 else large)))


@fuzz(40)
@given(what=st.sampled_from(hostile.MANY), count=counts(2),
       side=st.sampled_from([1, 8, 64, 256, 512] if LARGE else [1, 8, 64, 128]))
def test_maps_repeating_an_element_any_number_of_times_stay_within_bounds(tmp_path_factory, what, count, side):
    folder = fresh(tmp_path_factory, "many")
    path = hostile.many_within(folder, what, count, side, side, (10 if LARGE else 2) * 1024 * 1024)
    check_map("unbounded work: repeated elements", path, {path.name})


@fuzz(25)
@given(w=st.integers(1, 2048), h=st.integers(1, 2048))
def test_empty_maps_of_any_allowed_size_load_within_bounds(tmp_path_factory, w, h):
    if not LARGE and w * h > 300 * 300:
        w, h = max(1, w // 8), max(1, h // 8)     # CI: small maps (the flood fill is issue 11's)
    check_map("unbounded work: empty maps", hostile.empty_map(fresh(tmp_path_factory, "empty"), w, h), {"empty.tmx"})


FAR = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(-3e9, 3e9), st.integers(-2**40, 2**40))


@fuzz(60)
@given(points=st.lists(st.tuples(FAR, FAR), min_size=1, max_size=12), closed=st.booleans(),
       rotation=st.one_of(st.just(0.0), st.floats(-720, 720)), side=st.sampled_from([4, 64, 512] if LARGE else [4, 64]))
def test_shapes_reaching_anywhere_cost_no_more_than_the_map(tmp_path_factory, points, closed, rotation, side):
    path = hostile.shape_map(fresh(tmp_path_factory, "shape"), [(float(x), float(y)) for x, y in points], closed,
                             w=side, h=side, rotation=rotation)
    check_map("unbounded work: far shapes", path, {"shape.tmx"})


# --- decompression bombs -----------------------------------------------------------------------------

@fuzz(25)
@given(compression=st.sampled_from(["zlib", "gzip", "zstd"]), chunked=st.booleans(), sized=st.booleans(),
       inflated=st.sampled_from([4 * 64 * 64 + 4, 1 << 20, 16 << 20, 64 << 20] + ([1 << 30, 2 << 30] if LARGE else [])),
       side=st.sampled_from([8, 64]))
def test_layers_inflating_beyond_their_size_are_refused_before_filling_memory(tmp_path_factory, compression, chunked,
                                                                             sized, inflated, side):
    path = hostile.bomb_map(fresh(tmp_path_factory, "bomb"), compression, inflated, side, side, chunked, sized)
    check_map("decompression bombs", path, {"bomb.tmx"})


# --- size guards --------------------------------------------------------------------------------------

SIZE = st.one_of(st.sampled_from(["0", "-1", "-16", "1", "16", "16.5", "-1e9", "1e9", "1e309", "nan", "inf", "-inf",
                                  "2147483648", "4294967297", "", "x", "0x10", "1_0"]),
                 st.integers(-2**33, 2**33).map(str))
PLACES = [(e, a) for e, attrs in hostile.SIZE_ATTRIBUTES.items() for a in attrs]


@fuzz(80)
@given(values=st.dictionaries(st.sampled_from(PLACES), SIZE, min_size=1, max_size=5), external=st.booleans())
def test_sizes_of_any_value_never_bypass_a_guard(tmp_path_factory, values, external):
    path = hostile.sized_map(fresh(tmp_path_factory, "sized"), values, external)
    check_map("size guards", path, {"sized.tmx", "t.tsx"})


# --- confinement ----------------------------------------------------------------------------------------

TARGETS = ["json_keys", "json_tileset", "template", "xml_root", "text", "fifo", "device"]


@fuzz(40)
@given(reference=st.sampled_from(hostile.REFERENCES), target=st.sampled_from(TARGETS),
       how=st.sampled_from(["absolute", "relative", "double slash", "home", "drive"]))
def test_references_anywhere_quote_nothing_of_what_they_find(tmp_path_factory, reference, target, how):
    folder = fresh(tmp_path_factory, "confinement")
    outside = hostile.secret_files(folder / "outside")
    maps = folder / "maps"
    maps.mkdir()
    found = outside[target]
    text = {"absolute": str(found), "relative": f"../outside/{found.name}", "double slash": "/" + str(found),
            "home": f"~/{found.name}", "drive": f"C:/{found.name}"}[how]
    if how == "relative" and target in ("json_tileset", "template"):
        return                        # a tileset or template of the right kind: the designer's own content
    path = hostile.referring_map(maps, reference, text)
    check_map("confinement", path, {"ref.tmx", found.name})


# --- saves ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def good_save(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("fuzz_save")
    for name in ("sky_deck.tmx", "terrain.tsx"):
        shutil.copy(ROOT / "maps" / name, folder / name)
    return to_json(new_match(folder / "sky_deck.tmx", "eisdrachen", seed=3))


ODD = st.one_of(st.integers(-10**30, 10**30), st.sampled_from([2**63, -2**63 - 1, 10**4000]),
                st.sampled_from(["\ud800", "a\udcffb", "\x00", "", "/dev/zero", "/", "..", "m" * 10_000]),
                st.floats(allow_nan=True, allow_infinity=True),
                st.recursive(st.none(), lambda c: st.lists(c, max_size=2), max_leaves=3))


def places(doc, prefix=()):
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += places(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:3]):
            out += places(v, prefix + (i,))
    return out


@fuzz(60)
@given(data=st.data())
def test_saves_with_odd_values_anywhere_are_refused_in_one_line(tmp_path_factory, good_save, data):
    doc = json.loads(json.dumps(good_save))
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(places(doc)[1:]))
        parent = doc
        for k in where[:-1]:
            parent = parent[k]
        parent[where[-1]] = data.draw(ODD)
    depth = data.draw(st.sampled_from([0, 0, 40, 2000, 100_000]))
    text = json.dumps(doc)
    if depth:
        text = text.replace('"answers": [', '"answers": [' + "[" * depth + "]" * depth + ", ", 1)
    path = fresh(tmp_path_factory, "save") / "odd.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    outcome = run_limited(load_save, path, cpu_s=CPU_S, memory_mb=MEMORY_MB)
    assert outcome.ok, outcome
    if outcome.value != "loaded":
        assert str(path) in outcome.value and "\n" not in outcome.value, outcome.value
        outcome.value.encode("utf-8")
    record("saves", outcome, "loaded" if outcome.value == "loaded" else "refused")


# --- output paths -----------------------------------------------------------------------------------------

def write_and_report(path: str) -> str:
    try:
        write_atomic(path, "{}")
    except OutputError as e:
        return str(e)
    return "written"


@fuzz(40)
@given(kind=st.sampled_from(["folder", "fifo", "missing folders", "long name", "under a file", "link to a fifo",
                             "empty", "nul", "plain", "backup is a folder"]))
def test_writes_anywhere_are_atomic_one_line_and_leave_nothing(tmp_path_factory, kind):
    folder = fresh(tmp_path_factory, "out")
    target = {"folder": folder / "d.json", "fifo": folder / "p.json", "missing folders": folder / "a" / "b" / "s.json",
              "long name": folder / ("n" * 10_000), "under a file": folder / "f.json" / "s.json",
              "link to a fifo": folder / "l.json", "empty": "", "nul": str(folder / "a\x00b"),
              "plain": folder / "s.json", "backup is a folder": folder / "b.json"}[kind]
    (folder / "d.json").mkdir()
    os.mkfifo(folder / "p.json")
    (folder / "f.json").write_text("{}")
    (folder / "l.json").symlink_to(folder / "p.json")
    (folder / "b.json").write_text("old")
    (folder / "b.json.bak").mkdir()
    outcome = run_limited(write_and_report, str(target), cpu_s=CPU_S, memory_mb=MEMORY_MB, wall_s=10)
    assert outcome.ok, outcome
    assert outcome.value == "written" or ("\n" not in outcome.value and len(outcome.value) < 700), outcome.value
    assert (folder / "p.json").is_fifo() and (folder / "d.json").is_dir() and (folder / "b.json.bak").is_dir()
    assert not [p for p in folder.rglob("*") if p.name.endswith(".tmp")]
    record("output paths", outcome, "written" if outcome.value == "written" else "refused")
