"""Fuzzed maps and tilesets: the loader either builds a battlefield or raises MapError, in one
line naming the file; nothing else may escape, whatever the designer's file holds.

Mutations: byte flips, truncations, inserted bytes, wrong text encodings, attribute and element
deletions and value changes, tile data re-encoded (CSV, base64, zlib, gzip, zstd, unknown ones)
with wrong counts and bad gids, broken tileset references and huge sizes. Inputs are the shipped
maps with their tileset and small maps generated here. ``ESCARMOUCHE_FUZZ_CASES`` sets the cases
per test (``tools/fuzz_long.py`` runs 10,000); ``STATS`` counts what happened, for that report.
"""
from __future__ import annotations

import base64
import copy
import gzip
import json
import os
import shutil
import time
import zlib
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.mapcheck import check_map
from game.engine.tiled import load_map
from game.errors import MapError

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "maps").glob("*.tmx"))
TILESET = ROOT / "maps" / "terrain.tsx"
# real maps by others (the shared test data, never copied into the repository): the long run sets it
EXTERNAL = Path(os.environ.get("ESCARMOUCHE_EXTERNAL_MAPS",
                               Path(__file__).resolve().parents[2] / ".." / "shared" / "maps-external"))
CASES = int(os.environ.get("ESCARMOUCHE_FUZZ_CASES", "0"))
LONG = CASES > 0
STATS: Counter = Counter()
NET: Counter = Counter()
SLOWEST: dict[str, float] = {}
# the loader's last-resort net turns any unforeseen exception into "cannot be read (Type: ...)":
# allowed by the contract, but each one is a case the loader did not foresee, so it is counted
NET_MARK = "cannot be read ("


def fuzz_settings(ci_cases: int):
    return settings(max_examples=CASES or ci_cases, deadline=None, database=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


WEIRD_VALUES = ["", " ", "0", "-1", "1", "2", "1.5", "-0.5", "nan", "inf", "-inf", "1e309", "abc", "été",
                "0x10", "2147483647", "2147483648", "-2147483649", "4294967295", "99999999999999999999",
                "100000", "3000", "true", "false", "csv", "base64", "zlib", "isometric", "hexagonal",
                "terrain.tsx", "missing.tsx", "../", "/", ".", "{}", "[]", "1,2,3"]
ATTRIBUTES = ["width", "height", "tilewidth", "tileheight", "firstgid", "source", "encoding", "compression",
              "orientation", "infinite", "id", "gid", "x", "y", "name", "type", "class", "value", "columns",
              "tilecount", "spacing", "margin", "offsetx", "offsety", "opacity", "visible", "template"]
SOURCES = ["missing.tsx", "terrain.tsx", "sub/missing.tsx", "", ".", "..", "/", "/nonexistent/x.tsx",
           "fuzz.tmx", "notes.txt", "empty.tsx", "other.json", "terrain.tsx?x", "a" * 300 + ".tsx"]
HUGE = [0, -1, -100, 2049, 4096, 100_000, 2**31, 2**32 + 1, 10**12, 10**30]


def record(kind: str, outcome: str, seconds: float) -> None:
    STATS[f"{kind}: {outcome}"] += 1
    STATS[f"{kind}: cases"] += 1
    SLOWEST[kind] = max(SLOWEST.get(kind, 0.0), seconds)


def check_loads_or_refuses(kind: str, path: Path, names: set[str]) -> str:
    """The contract itself, for the loader and the validator behind ``escarmouche validate-map``;
    returns "loaded", "refused" or "refused by the last-resort net"."""
    t0 = time.perf_counter()
    try:
        loaded = load_map(path)
    except MapError as err:
        text = str(err)
        assert "\n" not in text, text
        assert "MemoryError" not in text, f"the loader ran out of memory: {text}"
        assert any(n in err.place for n in names), f"the place '{err.place}' names none of {names}"
        problems = check_map(path)          # the validator reports the same refusal as one line
        assert any(pr.severity == "error" for pr in problems) and all("\n" not in pr.line() for pr in problems)
        outcome = "refused by the last-resort net" if NET_MARK in text else "refused"
        if outcome != "refused":
            NET[f"{kind}: {err.message[:200]}"] += 1
        record(kind, outcome, time.perf_counter() - t0)
        return outcome
    bf = loaded.battlefield
    assert bf.width > 0 and bf.height > 0
    assert bf.blocks_move.shape == (bf.height, bf.width)
    assert all(isinstance(w, str) and "\n" not in w for w in loaded.warnings)
    for problem in check_map(path):         # the validator reads whatever the loader accepted
        assert "\n" not in problem.line()
    record(kind, "loaded", time.perf_counter() - t0)
    return "loaded"


# --- mutations ----------------------------------------------------------------------------------

def mutate_bytes(data, raw: bytes) -> bytes:
    op = data.draw(st.sampled_from(["flip", "truncate", "insert", "delete", "utf16", "latin1", "nul"]))
    if not raw:
        return raw
    at = data.draw(st.integers(0, len(raw) - 1))
    if op == "flip":
        return raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255))]) + raw[at + 1:]
    if op == "truncate":
        return raw[:at]
    if op == "insert":
        return raw[:at] + data.draw(st.binary(min_size=1, max_size=16)) + raw[at:]
    if op == "delete":
        return raw[:at] + raw[at + data.draw(st.integers(1, 64)):]
    if op == "utf16":                      # declared UTF-8, written in another encoding
        return raw.decode("utf-8", "replace").encode("utf-16")
    if op == "latin1":
        return raw.decode("utf-8", "replace").replace(">", ">é", 3).encode("latin-1", "replace")
    return raw[:at] + b"\x00" + raw[at:]


def gid_text(gids: list[int], encoding: str, compression: str) -> str:
    if encoding == "csv":
        return ",".join(str(g) for g in gids)
    raw = b"".join((g % 2**32).to_bytes(4, "little") for g in gids)
    raw = {"zlib": zlib.compress, "gzip": gzip.compress, "zstd": zstandard.ZstdCompressor().compress,
           "": lambda b: b}.get(compression, lambda b: b)(raw)
    return base64.b64encode(raw).decode()


def mutate_data(data, el: ET.Element) -> None:
    """Tile data: re-encoded, wrong counts, bad gids."""
    w = data.draw(st.integers(0, 40))
    gids = data.draw(st.lists(st.one_of(st.integers(0, 40), st.sampled_from([-1, 2**29, 2**31, 2**32 - 1])),
                              min_size=0, max_size=w * w + 3))
    encoding = data.draw(st.sampled_from(["csv", "base64", "base64", "bogus", None]))
    compression = data.draw(st.sampled_from(["", "", "zlib", "gzip", "zstd", "lzma", "bogus"]))
    for child in list(el):
        el.remove(child)
    el.attrib.pop("compression", None)
    if encoding is None:
        el.attrib.pop("encoding", None)
        el.text = None
        for g in gids:
            ET.SubElement(el, "tile", gid=str(g))
        return
    el.set("encoding", encoding)
    if compression:
        el.set("compression", compression)
    garbage = data.draw(st.booleans()) and data.draw(st.booleans())
    el.text = data.draw(st.text(max_size=40)) if garbage else gid_text(gids, encoding, compression)


def mutate_tree(data, root: ET.Element) -> None:
    parents = {child: parent for parent in root.iter() for child in parent}
    elements = list(root.iter())
    el = elements[data.draw(st.integers(0, len(elements) - 1))]
    op = data.draw(st.sampled_from(["del_attr", "set_attr", "set_attr", "del_elem", "dup_elem", "text", "move",
                                    "data", "data", "source", "huge", "add_child"]))
    if op == "del_attr" and el.attrib:
        del el.attrib[data.draw(st.sampled_from(sorted(el.attrib)))]
    elif op == "set_attr":
        key = data.draw(st.sampled_from(sorted(el.attrib) + ATTRIBUTES))
        value = data.draw(st.one_of(st.sampled_from(WEIRD_VALUES), st.text(max_size=12)))
        el.set(key, value)
    elif op == "del_elem" and el in parents:
        parents[el].remove(el)
    elif op == "dup_elem" and el in parents:
        parents[el].append(copy.deepcopy(el))
    elif op == "text":
        el.text = data.draw(st.one_of(st.sampled_from(WEIRD_VALUES), st.text(max_size=30)))
    elif op == "move" and el in parents:
        target = elements[data.draw(st.integers(0, len(elements) - 1))]
        if el is not target and el not in target.iter() and target is not parents[el]:
            parents[el].remove(el)
            target.append(el)
    elif op == "data":
        found = root.findall(".//data") or root.findall(".//image")
        if found:
            mutate_data(data, found[data.draw(st.integers(0, len(found) - 1))])
    elif op == "source":
        found = [e for e in root.iter() if e.tag in ("tileset", "image", "object")]
        if found:
            target = found[data.draw(st.integers(0, len(found) - 1))]
            target.set("template" if target.tag == "object" else "source", data.draw(st.sampled_from(SOURCES)))
    elif op == "huge":
        target = data.draw(st.sampled_from([e for e in root.iter() if e.tag in ("map", "layer", "tileset", "chunk",
                                                                                 "image", "object")] or [root]))
        key = data.draw(st.sampled_from(["width", "height", "tilewidth", "tileheight", "tilecount", "columns"]))
        target.set(key, str(data.draw(st.sampled_from(HUGE))))
    elif op == "add_child":
        tag = data.draw(st.sampled_from(["layer", "objectgroup", "group", "tileset", "data", "chunk", "object",
                                         "properties", "property", "image", "tile", "polygon", "ellipse"]))
        child = ET.SubElement(el, tag)
        for key in data.draw(st.lists(st.sampled_from(ATTRIBUTES), max_size=4)):
            child.set(key, data.draw(st.sampled_from(WEIRD_VALUES)))


def mutated(data, raw: bytes) -> bytes:
    """One to three structural mutations, then, sometimes, damage to the bytes."""
    try:
        root = ET.fromstring(raw)
    except ET.ParseError:
        return mutate_bytes(data, raw)
    if data.draw(st.integers(0, 3)) > 0:
        for _ in range(data.draw(st.integers(1, 3))):
            mutate_tree(data, root)
        raw = ET.tostring(root, encoding="utf-8")
    if data.draw(st.integers(0, 3)) == 0:
        raw = mutate_bytes(data, raw)
    return raw


# --- the places -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """Copies of the shipped maps beside their tileset, plus decoys a broken reference may hit."""
    d = tmp_path_factory.mktemp("tiled_fuzz")
    for m in SHIPPED:
        shutil.copy(m, d / m.name)
    shutil.copy(TILESET, d / TILESET.name)
    (d / "notes.txt").write_text("not a tileset\n")
    (d / "empty.tsx").write_bytes(b"")
    (d / "other.json").write_text('{"type": "tileset", "tilewidth": "x"}')
    (d / "sub").mkdir()
    return d


def fresh(workdir: Path, name: str, raw: bytes) -> Path:
    path = workdir / name
    path.write_bytes(raw)
    return path


@pytest.mark.parametrize("source", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_map_loads_from_the_fuzz_folder(workdir, source):
    assert check_loads_or_refuses("shipped map, unchanged", workdir / source.name, {source.name}) == "loaded"


@pytest.mark.long
@fuzz_settings(200)
@given(data=st.data())
def test_mutated_shipped_maps_load_or_raise_map_error_naming_the_file(workdir, data):
    source = data.draw(st.sampled_from(SHIPPED))
    path = fresh(workdir, "fuzz.tmx", mutated(data, source.read_bytes()))
    check_loads_or_refuses("shipped TMX maps", path, {"fuzz.tmx", "terrain.tsx", "empty.tsx", "other.json",
                                                     "notes.txt", "missing.tsx"} | {m.name for m in SHIPPED})


@pytest.mark.long
@fuzz_settings(200)
@given(data=st.data())
def test_mutated_tilesets_load_or_raise_map_error_naming_the_file(workdir, data):
    """The shipped tileset, damaged, under the smallest shipped map (the tileset is the subject)."""
    sub = workdir / "tsx"
    sub.mkdir(exist_ok=True)
    fresh(sub, "terrain.tsx", mutated(data, TILESET.read_bytes()))
    source = min(SHIPPED, key=lambda p: p.stat().st_size)
    path = fresh(sub, source.name, source.read_bytes())
    check_loads_or_refuses("TSX tilesets", path, {source.name, "terrain.tsx"})


# --- small generated maps -----------------------------------------------------------------------

FEATURES = [{}, {"wall": "true"}, {"cover": "light"}, {"cover": "heavy"}, {"door": "closed"},
            {"terrain": "bush"}, {"deep_water": "true"}, {"crawl_only": "true"}, {"terrain_cost": "2"},
            {"collides": "true"}, {"climbable": "true"}, {"hazard": "gas"}]


@st.composite
def small_maps(draw) -> dict[str, bytes]:
    """A valid map of 1 to 10 tiles a side: tile layers in every encoding, an inline or external
    tileset whose tiles carry game properties, and sometimes spawn and objective objects."""
    w, h = draw(st.integers(1, 10)), draw(st.integers(1, 10))
    n_tiles = draw(st.integers(1, len(FEATURES)))
    files: dict[str, bytes] = {}
    root = ET.Element("map", version="1.10", orientation="orthogonal", renderorder="right-down",
                      width=str(w), height=str(h), tilewidth="16", tileheight="16", infinite="0")
    ts = ET.Element("tileset", name="gen", tilewidth="16", tileheight="16", tilecount=str(n_tiles),
                    columns=str(n_tiles))
    ET.SubElement(ts, "image", source="gen.png", width=str(16 * n_tiles), height="16")
    for i in range(n_tiles):
        if FEATURES[i]:
            props = ET.SubElement(ET.SubElement(ts, "tile", id=str(i)), "properties")
            for k, v in FEATURES[i].items():
                ET.SubElement(props, "property", name=k, value=v)
    if draw(st.booleans()):
        files["gen.tsx"] = ET.tostring(ts, encoding="utf-8")
        ET.SubElement(root, "tileset", firstgid="1", source="gen.tsx")
    else:
        ts.set("firstgid", "1")
        root.append(ts)
    for n in range(draw(st.integers(1, 3))):
        lay = ET.SubElement(root, "layer", id=str(n + 1), name=draw(st.sampled_from(["ground", "walls", "décor"])),
                            width=str(w), height=str(h))
        gids = draw(st.lists(st.integers(0, n_tiles), min_size=w * h, max_size=w * h))
        encoding = draw(st.sampled_from(["csv", "base64", None]))
        compression = draw(st.sampled_from(["", "zlib", "gzip", "zstd"])) if encoding == "base64" else ""
        data = ET.SubElement(lay, "data")
        if encoding is None:
            for g in gids:
                ET.SubElement(data, "tile", gid=str(g))
        else:
            data.set("encoding", encoding)
            if compression:
                data.set("compression", compression)
            data.text = gid_text(gids, encoding, compression)
    if draw(st.booleans()):
        group = ET.SubElement(root, "objectgroup", id="9", name="objects")
        for i, (kind, props) in enumerate(draw(st.lists(st.sampled_from(
                [("spawn", {"side": "0"}), ("spawn", {"side": "1"}), ("objective", {}), ("trap", {"owner": "1"}),
                 ("area", {"cover": "light"})]), max_size=4))):
            x, y = draw(st.integers(0, w * 16)), draw(st.integers(0, h * 16))
            obj = ET.SubElement(group, "object", id=str(i + 1), type=kind, x=str(x), y=str(y),
                                width=str(draw(st.integers(1, 48))), height=str(draw(st.integers(1, 48))))
            if props:
                p = ET.SubElement(obj, "properties")
                for k, v in props.items():
                    ET.SubElement(p, "property", name=k, value=v)
    files["gen.tmx"] = ET.tostring(root, encoding="utf-8")
    return files


def write_files(folder: Path, files: dict[str, bytes], main: str = "gen.tmx") -> Path:
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for name, raw in files.items():
        (folder / name).write_bytes(raw)
    return folder / main


@pytest.mark.long
@fuzz_settings(150)
@given(files=small_maps())
def test_generated_valid_maps_load_with_their_size(workdir, files):
    path = write_files(workdir / "gen", files)
    assert check_loads_or_refuses("generated maps, valid", path, {"gen.tmx"}) == "loaded"
    root = ET.fromstring(files["gen.tmx"])
    bf = load_map(path).battlefield
    assert (bf.width, bf.height) == (int(root.get("width")), int(root.get("height")))


@pytest.mark.long
@fuzz_settings(300)
@given(files=small_maps(), data=st.data())
def test_mutated_generated_maps_load_or_raise_map_error_naming_the_file(workdir, files, data):
    target = data.draw(st.sampled_from(sorted(files)))
    files = dict(files, **{target: mutated(data, files[target])})
    path = write_files(workdir / "gen", files)
    check_loads_or_refuses("generated TMX maps and TSX tilesets", path,
                           {"gen.tmx", "gen.tsx", "terrain.tsx", "empty.tsx", "other.json", "notes.txt",
                            "missing.tsx"})


# --- Tiled JSON maps -----------------------------------------------------------------------------

@st.composite
def small_json_maps(draw) -> dict:
    """A valid Tiled JSON map: CSV or base64 (zlib, gzip, zstd) layers, an embedded tileset with game
    properties, sometimes objects."""
    w, h = draw(st.integers(1, 10)), draw(st.integers(1, 10))
    n_tiles = draw(st.integers(1, len(FEATURES)))
    layers = []
    for n in range(draw(st.integers(1, 3))):
        gids = draw(st.lists(st.integers(0, n_tiles), min_size=w * h, max_size=w * h))
        lay = {"type": "tilelayer", "id": n + 1, "name": f"layer {n}", "width": w, "height": h, "x": 0, "y": 0,
               "opacity": 1, "visible": True}
        compression = draw(st.sampled_from([None, "", "zlib", "gzip", "zstd"]))
        if compression is None:
            lay["data"] = gids
        else:
            lay.update(encoding="base64", data=gid_text(gids, "base64", compression))
            if compression:
                lay["compression"] = compression
        layers.append(lay)
    if draw(st.booleans()):
        layers.append({"type": "objectgroup", "id": 9, "name": "objects", "objects": [
            {"id": i + 1, "type": kind, "x": draw(st.integers(0, 16 * w)), "y": draw(st.integers(0, 16 * h)),
             "width": 16, "height": 16, "properties": [{"name": "side", "type": "int", "value": i % 2}]}
            for i, kind in enumerate(draw(st.lists(st.sampled_from(["spawn", "objective", "trap"]), max_size=3)))]})
    tiles = [{"id": i, "properties": [{"name": k, "type": "string", "value": v} for k, v in FEATURES[i].items()]}
             for i in range(n_tiles) if FEATURES[i]]
    return {"type": "map", "version": "1.10", "orientation": "orthogonal", "renderorder": "right-down",
            "width": w, "height": h, "tilewidth": 16, "tileheight": 16, "infinite": False, "layers": layers,
            "tilesets": [{"firstgid": 1, "name": "gen", "tilewidth": 16, "tileheight": 16, "tilecount": n_tiles,
                          "columns": n_tiles, "image": "gen.png", "imagewidth": 16 * n_tiles, "imageheight": 16,
                          "tiles": tiles}]}


JSON_ODD = [None, True, False, 0, -1, 1.5, "", "x", [], {}, [1, "a", None], {"a": []}, 10**12, -(10**12), 2**40,
            "nan", "isometric", "base64", "zstd", "bogus", "gen.tsx", "missing.tsx"]


def json_places(doc, prefix=()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += json_places(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += json_places(v, prefix + (i,))
    return out


def mutate_json(data, doc) -> None:
    place = data.draw(st.sampled_from(json_places(doc)[1:] or [()]))
    if not place:
        return
    parent = doc
    for k in place[:-1]:
        parent = parent[k]
    op = data.draw(st.sampled_from(["delete", "retype", "retype", "grow"]))
    if op == "delete":
        del parent[place[-1]]
    elif op == "retype":
        parent[place[-1]] = data.draw(st.one_of(st.sampled_from(JSON_ODD), st.integers(), st.text(max_size=8)))
    elif isinstance(parent[place[-1]], list):
        parent[place[-1]].extend(data.draw(st.lists(st.sampled_from(JSON_ODD), min_size=1, max_size=5)))
    else:
        parent[place[-1]] = [parent[place[-1]]] * data.draw(st.integers(2, 4))


@pytest.mark.long
@fuzz_settings(150)
@given(doc=small_json_maps())
def test_generated_json_maps_load_with_their_size(workdir, doc):
    path = write_files(workdir / "gen", {"gen.tmj": json.dumps(doc).encode()}, "gen.tmj")
    assert check_loads_or_refuses("generated JSON maps, valid", path, {"gen.tmj"}) == "loaded"
    assert (load_map(path).battlefield.width, load_map(path).battlefield.height) == (doc["width"], doc["height"])


@pytest.mark.long
@fuzz_settings(300)
@given(doc=small_json_maps(), data=st.data())
def test_mutated_json_maps_load_or_raise_map_error_naming_the_file(workdir, doc, data):
    for _ in range(data.draw(st.integers(1, 3))):
        mutate_json(data, doc)
    raw = json.dumps(doc).encode()
    if data.draw(st.integers(0, 4)) == 0:
        raw = mutate_bytes(data, raw)
    path = write_files(workdir / "gen", {"gen.tmj": raw}, "gen.tmj")
    check_loads_or_refuses("generated JSON maps", path, {"gen.tmj", "gen.tsx", "missing.tsx"})


# --- real maps made by others (the long run only: the shared test data is not in the repository) ---

def external_maps() -> list[Path]:
    if not EXTERNAL.is_dir():
        return []
    return sorted(p.relative_to(EXTERNAL) for p in EXTERNAL.rglob("*") if p.suffix in (".tmx", ".tmj")
                  or p.suffix == ".json" and _is_json_map(p))


def _is_json_map(path: Path) -> bool:
    try:
        doc = json.loads(path.read_bytes())
    except ValueError:
        return False
    return isinstance(doc, dict) and doc.get("type") == "map"


@pytest.fixture(scope="module")
def external(tmp_path_factory) -> Path:
    if not EXTERNAL.is_dir():
        pytest.skip("needs ../shared/maps-external beside the repository (or ESCARMOUCHE_EXTERNAL_MAPS): real "
                    "Tiled maps made by others, shared test data that is never copied into the repository")
    copy = tmp_path_factory.mktemp("external") / "maps"
    shutil.copytree(EXTERNAL, copy)
    return copy


@pytest.mark.long
@fuzz_settings(100)
@given(data=st.data())
def test_mutated_real_maps_by_others_load_or_raise_map_error_naming_the_file(external, data):
    maps = external_maps()
    source = external / data.draw(st.sampled_from(maps))
    raw = source.read_bytes()
    if source.suffix == ".tmx":
        raw = mutated(data, raw)
    else:
        doc = json.loads(raw)
        for _ in range(data.draw(st.integers(1, 3))):
            mutate_json(data, doc)
        raw = json.dumps(doc).encode()
    path = source.with_name("fuzz_" + source.name)
    path.write_bytes(raw)
    try:
        names = {p.name for p in external.rglob("*")}
        check_loads_or_refuses("real maps by others", path, names)
    finally:
        path.unlink()


def test_an_entity_expansion_bomb_is_refused_by_name(tmp_path):
    """The 'billion laughs' file must not fill memory: expat refuses it, the loader names the file."""
    entities = '<!ENTITY a0 "hahahahahahahahahahaha">' + "".join(
        f'<!ENTITY a{i} "{("&a" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    path = tmp_path / "bomb.tmx"
    path.write_text(f'<?xml version="1.0"?><!DOCTYPE map [{entities}]>'
                    '<map orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8">'
                    '<properties><property name="name" value="&a9;"/></properties></map>')
    with pytest.raises(MapError) as err:
        load_map(path)
    assert "bomb.tmx" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("element", ['<tileset firstgid="1" source="{name}"/>',
                                     '<objectgroup name="o"><object id="1" template="{name}" x="0" y="0"/>'
                                     '</objectgroup>'])
def test_a_reference_too_long_for_the_file_system_is_a_missing_file_not_a_crash(tmp_path, element):
    """Found by the fuzzer: a file name over the system's limit made ``is_file`` raise."""
    path = tmp_path / "long.tmx"
    path.write_text('<map orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8">'
                    + element.format(name="a" * 300 + ".tsx") + "</map>")
    try:
        loaded = load_map(path)
    except MapError as err:
        assert NET_MARK not in str(err) and "not found" in str(err), str(err)
    else:
        assert any("not found" in w for w in loaded.warnings), loaded.warnings


@pytest.mark.parametrize("width,height", [(10**9, 128), (256, 10**9), (10**14, 10**14)])
def test_a_tileset_image_declaring_a_huge_size_is_refused_at_once(tmp_path, width, height):
    """Found by the long fuzzing run: pytmx cuts a tileset image into every tile it could hold, so an
    image declared 10⁹ pixels wide took all the machine's memory before anything was refused."""
    (tmp_path / "huge.tsx").write_bytes(TILESET.read_bytes().replace(
        b'width="256" height="128"', f'width="{width}" height="{height}"'.encode(), 1))
    map_path = tmp_path / "huge.tmx"
    map_path.write_bytes(min(SHIPPED, key=lambda p: p.stat().st_size).read_bytes()
                         .replace(b'source="terrain.tsx"', b'source="huge.tsx"'))
    t0 = time.perf_counter()
    with pytest.raises(MapError) as err:
        load_map(map_path)
    assert "huge.tmx" in str(err.value) and "more than" in str(err.value) and "MemoryError" not in str(err.value)
    assert time.perf_counter() - t0 < 5
