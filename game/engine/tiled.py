"""Tiled maps -> Battlefield: the map contract of docs/maps.md.

pytmx is the parser, but it chokes on much of what real Tiled maps contain (infinite maps,
zstd, the XML tile encoding, JSON maps and tilesets, fractional offsets, list and class
properties, templates, tilesets without image sizes). So the file is first *normalised*
with ElementTree into one self-contained finite TMX tree that pytmx reads without fail:
external tilesets inlined, data re-encoded as CSV, groups flattened, paths made absolute.
Every problem either becomes a warning (the map still plays) or a ``MapError`` naming the
file and the place; no other exception leaves ``load_map``.

Loading is bounded by the limits below (docs/maps.md lists them for designers): the files read,
the elements parsed, the tiles decoded (compressed data is inflated in a stream that stops at
the layer's own size) and the tiles objects cover, so the work is bounded by the map's size and
never by a value written in it. A map refers to its files by relative paths only, and only to
regular files; a message quotes names and positions, never the content of a file the loader
did not expect.
"""
from __future__ import annotations

import base64
import bisect
import copy
import difflib
import json
import math
import os
import struct
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn
from xml.etree import ElementTree as ET

import numpy as np
import pytmx

from ..errors import MapError, printable
from .areas import largest_area
from .battlefield import Battlefield, MapObject, Tile
from .files import MAX_INPUT_BYTES, FileRefused, is_regular, read_bounded, regular_size

GID_MASK = 0x1FFFFFFF           # Tiled gid without its flip bits

# --- the contract: property names and values (documented once, in docs/maps.md) ------------

BOOL_FEATURES = {          # property -> Battlefield array
    "blocks_move": "blocks_move",
    "blocks_sight": "blocks_sight",
    "deep_water": "deep_water",
    "crawl_only": "crawl_gap",
    "climbable": "climbable",
    "hiding_place": "hiding",
    "perch": "perch",
    "trap_spot": "trap_spot",
}
COVER_VALUES = {"none": 0, "light": 1, "heavy": 2}
DOOR_VALUES = {"none": 0, "open": 1, "closed": 2, "locked": 3}
SIDE_VALUES = {"0": 0, "1": 1}
LANDSCAPES = ("settled", "wild", "hostile", "remote")
KNOWN_HAZARDS = ("campfire", "blaze", "gas", "drop")    # passe_d_armes.md 3.5; code = index + 1

# terrain presets: one property gives the usual combination (conventions.md section 7)
TERRAIN_PRESETS: dict[str, dict] = {
    "open": {},
    "wall": {"blocks_move": True, "blocks_sight": True},
    "low_wall": {"blocks_move": True, "cover": "light"},
    "hedge": {"blocks_sight": True},
    "ruin": {"cover": "heavy"},
    "rubble": {"cover": "light", "hiding_place": True},
    "sandbags": {"cover": "heavy"},
    "crates": {"cover": "heavy"},
    "bush": {"cover": "light", "hiding_place": True},
    "tree": {"climbable": True, "hiding_place": True, "perch": True},
    "climbable_wall": {"climbable": True, "blocks_sight": True},
    "deep_water": {"deep_water": True},
    "shallow_water": {"terrain_cost": 2.0},
    "rough": {"terrain_cost": 1.5},
    "barbed_wire": {"crawl_only": True},
    "crawl_gap": {"crawl_only": True},
}

FEATURE_PROPERTIES = (set(BOOL_FEATURES) | {"wall", "cover", "door", "terrain", "terrain_cost",
                                           "exit", "hazard"})
COLLISION_PROPERTIES = ("collides", "collision", "solid", "blocked")
MAP_PROPERTIES = ("cm_per_tile", "landscape", "name", "title")
OBJECT_PROPERTIES = ("side", "level", "state", "weapon", "item", "owner", "decoy", "effect", "test",
                     "range", "A", "F")
KNOWN_NAMES = sorted(FEATURE_PROPERTIES | set(COLLISION_PROPERTIES) | set(MAP_PROPERTIES)
                     | set(OBJECT_PROPERTIES))
COLLISION_NAME_WORDS = ("wall", "collision", "collide", "solid", "block", "obstacle")

# object types (Tiled "class", formerly "type")
OBJECT_KINDS = ("spawn", "objective", "trap", "emplacement", "item", "interactive",
                "boarding_zone", "crew_zone", "door", "wall", "cover", "exit", "area")
LISTED_KINDS = ("spawn", "objective", "trap", "emplacement", "item", "interactive",
                "boarding_zone", "crew_zone")

DEFAULT_CM_PER_TILE = 2.5
DEFAULT_SPAWN_TILES = 16

# --- the limits (docs/maps.md, "Limits"); real maps stay far below every one of them -----------
MAX_TILES = 2048 * 2048          # tiles of the map (width × height)
MAX_LAYER_CELLS = 4 * MAX_TILES  # tiles of all tile layers and chunks together
MAX_GIDS = 16_384                # different tiles (each flip apart) the tile layers use
MAX_ELEMENTS = 300_000           # XML elements of one file (JSON: records and lists)
MAX_LAYERS = 1_000
MAX_GROUP_DEPTH = 64             # group layers within group layers
MAX_TILESETS = 256
MAX_TILE_ENTRIES = 10_000        # <tile> entries (properties, shapes, images) of all tilesets
MAX_IMAGE_TILES = 65_536         # tiles one tileset image is cut into
MAX_ALL_IMAGE_TILES = 262_144    # the same, for all tilesets together
MAX_OBJECTS = 10_000
MAX_PROPERTIES = 50_000
MAX_POINTS = 20_000              # polygon and polyline points of all objects
MAX_HAZARDS = 256                # different hazard names (four are known; the rest get a warning)
MAX_TILE_PX = 4_096              # tile width or height, in pixels
MAX_IMAGE_PX = 1 << 20           # image width or height declared by a tileset, in pixels
MAX_PICTURE_PIXELS = 1 << 26     # pixels of one picture the window would load (8192 × 8192)
MAX_COORDINATE = 2.0 ** 31      # object coordinates and sizes, in pixels either way
MAX_COVER_WORK = 1 << 23         # tiles looked at to find what all objects cover
MAX_LISTED_TILES = 1 << 18       # tiles of spawn zones, objectives and other listed objects together
NAME_CHECKS = 2_000              # distinct names and values looked at for typos (the rest are not)


@dataclass
class TileImage:
    """One tile's picture: an image file and the rectangle inside it; ``image == ""`` when the
    file is missing, so the UI draws a placeholder."""

    image: str
    rect: tuple[int, int, int, int]
    flip_x: bool = False
    flip_y: bool = False
    flip_diag: bool = False


@dataclass
class RenderLayer:
    name: str
    gids: np.ndarray
    visible: bool = True
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)


@dataclass
class Sprite:
    """A tile object (a picture placed freely on an object layer), drawn above the tile layers.
    x, y is its top-left corner in map pixels; rotation in degrees around its bottom-left."""

    gid: int
    x: float
    y: float
    width: float
    height: float
    rotation: float = 0.0
    layer: str = ""


@dataclass
class ImageLayer:
    """A Tiled image layer: one picture (``image == ""`` when missing) drawn at its offset."""

    name: str
    image: str
    offset: tuple[float, float] = (0.0, 0.0)
    opacity: float = 1.0
    visible: bool = True


@dataclass(frozen=True)
class MapIssue:
    """A structured warning: where, what, and how to fix it (the validator prints these)."""

    place: str
    message: str
    fix: str = ""


@dataclass
class LoadedMap:
    path: Path
    battlefield: Battlefield
    tile_width: int
    tile_height: int
    layers: list[RenderLayer]
    tiles: dict[int, TileImage]
    warnings: list[str]
    properties: dict
    issues: list[MapIssue] = field(default_factory=list)
    sprites: list[Sprite] = field(default_factory=list)
    image_layers: list[ImageLayer] = field(default_factory=list)


def load_battlefield(path) -> Battlefield:
    return load_map(path).battlefield


def load_map(path: str | Path) -> LoadedMap:
    """Load a Tiled map (TMX or JSON); raise MapError for anything that cannot be played."""
    path = Path(path)
    try:
        return _Loader(path).load()
    except MapError:
        raise
    except RecursionError:
        raise MapError(path.name, "the map nests too deeply to be read") from None
    except Exception as exc:   # the promise: never a traceback, always the place
        raise MapError(path.name, f"cannot be read ({type(exc).__name__}: {exc})") from None


# --- small readers ---------------------------------------------------------------------

def image_size(path: str) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF, BMP or JPEG header, without decoding the picture."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            if head.startswith(b"\x89PNG\r\n\x1a\n"):
                return struct.unpack(">II", head[16:24])
            if head[:6] in (b"GIF87a", b"GIF89a"):
                return struct.unpack("<HH", head[6:10])
            if head.startswith(b"BM"):
                w, h = struct.unpack("<ii", head[18:26])
                return w, abs(h)
            if head.startswith(b"\xff\xd8"):
                f.seek(2)
                for _ in range(4096):          # segments before the frame header; a real JPEG has few
                    marker = f.read(2)
                    if len(marker) < 2 or marker[0] != 0xFF:
                        return None
                    length = struct.unpack(">H", f.read(2))[0]
                    if length < 2:
                        return None
                    if 0xC0 <= marker[1] <= 0xCF and marker[1] not in (0xC4, 0xC8, 0xCC):
                        h, w = struct.unpack(">xHH", f.read(5))
                        return w, h
                    f.seek(length - 2, 1)
    except (OSError, struct.error):
        return None
    return None


GID_LIMIT = 2**32


def _decode_data(text: str | None, encoding: str | None, compression: str | None,
                 tiles: list[ET.Element], expected: int) -> np.ndarray:
    """Exactly ``expected`` raw gids (flip bits kept) from any TMX data encoding, as uint32; a
    ValueError saying what is wrong otherwise. Compressed data is inflated only up to the size
    the layer declares, so a small layer that inflates to gigabytes is refused at once."""
    if encoding is None:
        if len(tiles) != expected:
            raise ValueError(f"has {len(tiles)} tiles, expected {expected}")
        return _gid_array([_whole(t.get("gid", "0")) for t in tiles])
    text = (text or "").strip()
    if encoding == "csv":
        return _csv_gids(text, expected)
    if encoding != "base64":
        raise ValueError(f"unknown data encoding '{printable(encoding, 40)}'")
    raw = base64.b64decode(text)
    size = 4 * expected
    if compression:
        raw = _inflate(raw, compression, size)
    if len(raw) != size:
        raise ValueError(f"has {len(raw) // 4} tiles, expected {expected}" if len(raw) % 4 == 0
                         else "layer data length is not a multiple of 4 bytes")
    return np.frombuffer(raw, dtype="<u4").astype(np.uint32)


def _inflate(raw: bytes, compression: str, size: int) -> bytes:
    """At most ``size`` bytes inflated from ``raw``; ValueError when the data would inflate to more,
    is cut short or is damaged."""
    too_big = f"inflates to more than the {size // 4} tiles the layer holds"
    if compression in ("zlib", "gzip"):
        inflater = zlib.decompressobj(15 if compression == "zlib" else 31)
        try:
            out = inflater.decompress(raw, size + 1)
        except zlib.error as exc:
            raise ValueError(f"{compression} data is damaged ({exc})") from None
        if len(out) > size:
            raise ValueError(too_big)
        if not inflater.eof:
            raise ValueError(f"{compression} data is cut short")
        return out
    if compression == "zstd":
        import zstandard

        try:
            with zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True) as reader:
                out = reader.read(size + 1)
        except zstandard.ZstdError as exc:
            raise ValueError(f"zstd data is damaged ({str(exc) or 'unreadable frame'})") from None
        if len(out) > size:
            raise ValueError(too_big)
        return out
    raise ValueError(f"unknown compression '{printable(compression, 40)}'")


def _csv_gids(text: str, expected: int) -> np.ndarray:
    """CSV tile data: numpy's own parser first (fast); the exact reason from a slow reading when
    it fails."""
    if text.count(",") + 1 not in (expected, expected + 1):       # the count, before any parsing
        raise ValueError(f"has {text.count(',') + 1 if text else 0} tiles, expected {expected}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            values = np.fromstring(text, dtype=np.int64, sep=",") if text else np.zeros(0, np.int64)
        except (ValueError, DeprecationWarning):
            values = None
    if values is None or len(values) != expected:
        parts = text.split(",")
        if parts and not parts[-1].strip():
            parts.pop()                 # a trailing comma, as some writers leave
        if len(parts) != expected:
            raise ValueError(f"has {len(parts)} tiles, expected {expected}")
        return _gid_array([_whole(v) for v in parts])
    return _gid_array(values)


def _gid_array(values) -> np.ndarray:
    """Tile numbers as uint32; ValueError naming the first one that is not a whole number in range."""
    try:
        array = np.array(values, dtype=np.int64)
        bad = np.nonzero((array < 0) | (array >= GID_LIMIT))[0]
        first = int(bad[0]) if len(bad) else None
    except (TypeError, OverflowError):
        first = next(i for i, v in enumerate(values) if not isinstance(v, int) or not 0 <= v < GID_LIMIT)
    if first is not None:
        raise ValueError(f"tile {first} is not a tile number (a whole number from 0 to {GID_LIMIT - 1})")
    return array.astype(np.uint32)


def _whole(text) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def _int(text, default: int | None = 0) -> int | None:
    """A whole number written as text (a float is cut to its whole part); ``default`` for anything
    that is not a finite number."""
    try:
        return int(text)
    except (TypeError, ValueError):
        pass
    try:
        value = float(text)
    except (TypeError, ValueError):
        return default
    return int(value) if math.isfinite(value) else default


def _bool(value) -> bool | None:
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off", ""):
        return False
    return None


def _num(text, default=0.0) -> float:
    """A finite number written as text, or ``default``."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return default
    return value if math.isfinite(value) else default


# --- JSON -> TMX elements -----------------------------------------------------------------

def _json_kind(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return {dict: "a record", list: "a list", str: "a text", type(None): "null"}.get(type(value), "a value")


class _JsonReader:
    """JSON map or tileset -> TMX elements, checking the type of every field it reads so that a
    wrong one is refused naming the file and the field path (``layers[2].data``)."""

    def __init__(self, file: str):
        self.file = file

    def wrong(self, where: str, what: str, value) -> NoReturn:
        raise MapError(self.file, f"{where}: should be {what}, not {_json_kind(value)}")

    def record(self, value, where: str) -> dict:
        if not isinstance(value, dict):
            self.wrong(where, "a record", value)
        return value

    def records(self, value, where: str) -> list[tuple[str, dict]]:
        """A list of records (missing or null: none), each with its own path."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.wrong(where, "a list of records", value)
        return [(f"{where}[{i}]", self.record(v, f"{where}[{i}]")) for i, v in enumerate(value)]

    def text(self, data: dict, key: str, where: str, default: str | None = None) -> str | None:
        value = data.get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            self.wrong(f"{where}.{key}" if where else key, "a text", value)
        return value

    def number(self, value, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.wrong(where, "a number", value)
        return value

    def set(self, elem: ET.Element, data: dict, where: str, *keys: str) -> None:
        """Copy plain fields (numbers, texts, true/false) to attributes."""
        for k in keys:
            v = data.get(k)
            if v is None:
                continue
            if isinstance(v, (dict, list)):
                self.wrong(f"{where}.{k}" if where else k, "a number or a text", v)
            elem.set(k, ("1" if v else "0") if isinstance(v, bool) else str(v))

    def properties(self, parent: ET.Element, props, where: str) -> None:
        if not props:
            return
        where = f"{where}.properties" if where else "properties"
        node = ET.SubElement(parent, "properties")
        if isinstance(props, dict):            # very old JSON: {"name": value}
            props = [{"name": k, "type": "string", "value": v} for k, v in props.items()]
        for at, p in self.records(props, where):
            name = p.get("name", "")
            if isinstance(name, (dict, list)):
                self.wrong(f"{at}.name", "a text", name)
            self.property(node, name, self.text(p, "type", at, "string"), p.get("value"))

    def property(self, node: ET.Element, name: str, ptype: str, value) -> None:
        if isinstance(value, dict):           # class value: flattened to name.member
            for member, v in value.items():
                self.property(node, f"{name}.{member}", "string", v)
            return
        if isinstance(value, list):
            value = ",".join(str(v.get("value", "")) if isinstance(v, dict) else str(v) for v in value)
            ptype = "string"
        if isinstance(value, bool):
            value = "true" if value else "false"
        ET.SubElement(node, "property", name=str(name),
                      type=ptype if ptype in ("string", "int", "float", "bool", "color", "file")
                      else "string", value="" if value is None else str(value))

    def image(self, parent: ET.Element, data: dict, where: str) -> None:
        source = self.text(data, "image", where)
        if source:
            image = ET.SubElement(parent, "image", source=source)
            sizes = ET.Element("image")
            self.set(sizes, data, where, "imagewidth", "imageheight")
            for k, j in (("width", "imagewidth"), ("height", "imageheight")):
                if j in sizes.attrib:
                    image.set(k, sizes.get(j))

    def tileset(self, data: dict, where: str = "") -> ET.Element:
        ts = ET.Element("tileset")
        self.set(ts, data, where, "firstgid", "source", "name", "tilewidth", "tileheight", "spacing",
                 "margin", "tilecount", "columns")
        self.image(ts, data, where)
        self.properties(ts, data.get("properties"), where)
        tiles_at = f"{where}.tiles" if where else "tiles"
        tiles = data.get("tiles") or []
        if isinstance(tiles, dict):          # old JSON: {"id": {...}}
            listed = []
            for n, (k, v) in enumerate(tiles.items()):
                if not k.strip().lstrip("-").isdigit():
                    raise MapError(self.file, f"{tiles_at}: key {n + 1} of {len(tiles)} should be a tile "
                                              "number")
                listed.append(dict(self.record(v, f"{tiles_at}.{k}"), id=int(k)))
            tiles = listed
        for at, t in self.records(tiles, tiles_at):
            tile = ET.Element("tile")
            self.set(tile, t, at, "id")
            tile.set("id", tile.get("id", "0"))
            ts.append(tile)
            kind = t.get("class") or t.get("type")
            if kind:
                if isinstance(kind, (dict, list)):
                    self.wrong(f"{at}.{'class' if t.get('class') else 'type'}", "a text", kind)
                tile.set("type", str(kind))
            self.properties(tile, t.get("properties"), at)
            self.image(tile, t, at)
            if t.get("objectgroup"):
                group = self.record(t["objectgroup"], f"{at}.objectgroup")
                tile.append(self.layer(dict(group, type="objectgroup"), f"{at}.objectgroup"))
        return ts

    def object(self, o: dict, where: str) -> ET.Element:
        obj = ET.Element("object")
        self.set(obj, o, where, "id", "name", "x", "y", "width", "height", "rotation", "gid", "template")
        kind = o.get("class") or o.get("type")
        if kind:
            if isinstance(kind, (dict, list)):
                self.wrong(f"{where}.{'class' if o.get('class') else 'type'}", "a text", kind)
            obj.set("type", str(kind))
        if "visible" in o:
            obj.set("visible", "1" if o["visible"] else "0")
        self.properties(obj, o.get("properties"), where)
        if o.get("ellipse"):
            ET.SubElement(obj, "ellipse")
        if o.get("point"):
            ET.SubElement(obj, "point")
        for shape in ("polygon", "polyline"):
            if o.get(shape):
                at = f"{where}.{shape}"
                points = [f"{self.number(p.get('x'), f'{pat}.x')},{self.number(p.get('y'), f'{pat}.y')}"
                          for pat, p in self.records(o[shape], at)]
                ET.SubElement(obj, shape, points=" ".join(points))
        return obj

    def layer(self, lay: dict, where: str) -> ET.Element:
        kind = self.text(lay, "type", where, "tilelayer")
        tag = {"tilelayer": "layer", "objectgroup": "objectgroup", "imagelayer": "imagelayer",
               "group": "group"}.get(kind, "layer")
        el = ET.Element(tag)
        self.set(el, lay, where, "id", "name", "width", "height", "opacity", "offsetx", "offsety")
        if "visible" in lay:
            el.set("visible", "1" if lay["visible"] else "0")
        self.properties(el, lay.get("properties"), where)
        if tag == "layer":
            data = ET.SubElement(el, "data", encoding="base64")
            enc = self.text(lay, "encoding", where, "csv")
            comp = self.text(lay, "compression", where)
            if lay.get("chunks"):
                for at, ch in self.records(lay["chunks"], f"{where}.chunks"):
                    c = ET.SubElement(data, "chunk")
                    for k in ("x", "y", "width", "height"):
                        c.set(k, str(self.number(ch.get(k), f"{at}.{k}")))
                    c.text = self.gid_text(ch.get("data"), enc, f"{at}.data")
            else:
                data.text = self.gid_text(lay.get("data"), enc, f"{where}.data")
            if comp and enc == "base64":
                data.set("compression", comp)
        elif tag == "objectgroup":
            for at, o in self.records(lay.get("objects"), f"{where}.objects"):
                el.append(self.object(o, at))
        elif tag == "imagelayer":
            source = self.text(lay, "image", where)
            if source:
                ET.SubElement(el, "image", source=source)
        else:
            for at, sub in self.records(lay.get("layers"), f"{where}.layers"):
                el.append(self.layer(sub, at))
        return el

    def gid_text(self, data, encoding: str, where: str) -> str:
        """The layer's tile numbers as base64 text: kept when the layer is base64, made from the
        list of numbers otherwise (whole numbers from 0 to 2³²−1; a fraction is cut)."""
        if encoding == "base64":
            if data is not None and not isinstance(data, str):
                self.wrong(where, "a base64 text (the layer's encoding is base64)", data)
            return data or ""
        if isinstance(data, str):
            self.wrong(where, "a list of numbers (the layer has no base64 encoding)", data)
        if data is not None and not isinstance(data, list):
            self.wrong(where, "a list of numbers or a base64 text", data)
        data = data or []
        kinds = set(map(type, data))
        if kinds - {int, float}:
            i = next(i for i, g in enumerate(data) if type(g) not in (int, float))
            self.wrong(f"{where}[{i}]", "a tile number", data[i])
        try:
            values = np.array(data, dtype=np.float64 if float in kinds else np.int64)
            with np.errstate(invalid="ignore"):
                bad = np.nonzero(~((values >= 0) & (values < GID_LIMIT)))[0]
            first = int(bad[0]) if len(bad) else None
        except OverflowError:          # a whole number beyond any float
            first = next(i for i, g in enumerate(data) if not 0 <= g < GID_LIMIT)
        if first is not None:
            raise MapError(self.file, f"{where}[{first}]: should be a tile number from 0 to {GID_LIMIT - 1}, "
                                      f"not {printable(data[first], 40)}")
        return base64.b64encode(values.astype("<u4").tobytes()).decode("ascii")

    def map(self, data: dict) -> ET.Element:
        root = ET.Element("map")
        self.set(root, data, "", "version", "tiledversion", "orientation", "renderorder", "width", "height",
                 "tilewidth", "tileheight", "infinite", "staggeraxis", "staggerindex", "hexsidelength")
        root.set("infinite", "1" if data.get("infinite") else "0")
        self.properties(root, data.get("properties"), "")
        for at, ts in self.records(data.get("tilesets"), "tilesets"):
            self.number(ts.get("firstgid"), f"{at}.firstgid")    # the gids of every layer hang on it
            root.append(self.tileset(ts, at))
        for at, lay in self.records(data.get("layers"), "layers"):
            root.append(self.layer(lay, at))
        return root


# --- the loader ---------------------------------------------------------------------------

class _Loader:
    def __init__(self, path: Path):
        self.path = path
        self.file = path.name
        self.issues: list[MapIssue] = []
        self.collision_gids: set[int] = set()   # Tiled gids whose tile has collision shapes
        self.subrects: dict[int, tuple[int, int, int, int]] = {}  # Tiled gid -> its part of an image
        self.tileset_sources: dict[str, int] = {}  # absolute tileset path -> firstgid
        self.tilesets: list[ET.Element] = []
        self.firstgids: list[int] = []
        self.tile_entries: dict[int, dict[int, ET.Element]] = {}   # id(tileset) -> its <tile>s by id
        self.exists_cache: dict[str, bool] = {}
        self.pictures: dict[str, str] = {}          # image path -> why the window would not load it
        self.references: dict[tuple, tuple[Path | None, str]] = {}  # (folder, reference, kind) -> refer()
        self.templates: dict[str, ET.Element | str] = {}   # template path -> its tree, or why it is unusable
        self.bytes_read = 0
        self.tile_entry_count = 0
        self.image_tiles = 0
        self.cells = 0                  # layer tiles decoded
        self.cover_work = 0             # tiles looked at for objects
        self.listed_tiles = 0
        self.matches: dict[tuple, str | None] = {}      # (word, choices, cutoff) -> closest choice
        self.issue_set: set[MapIssue] = set()

    def warn(self, place: str, message: str, fix: str = "") -> None:
        issue = MapIssue(place, message, fix)
        if issue not in self.issue_set:
            self.issue_set.add(issue)
            self.issues.append(issue)

    def exists(self, path: str) -> bool:
        """A regular file (never opened: a FIFO or a device is no image)."""
        if path not in self.exists_cache:
            self.exists_cache[path] = bool(path) and is_regular(path)
        return self.exists_cache[path]

    def picture_problem(self, path: str) -> str:
        """Why the window would not load this picture (too many pixels for memory, or a size its
        header does not tell), or ""; only the header is read."""
        if path not in self.pictures:
            size = image_size(path)
            if size is None or min(size) < 0:
                self.pictures[path] = "is not a PNG, GIF, BMP or JPEG picture whose size can be read"
            elif size[0] * size[1] > MAX_PICTURE_PIXELS:
                self.pictures[path] = (f"is {size[0]}×{size[1]} px, more than the {MAX_PICTURE_PIXELS:,} pixels a "
                                       "picture may have")
            else:
                self.pictures[path] = ""
        return self.pictures[path]

    def refer(self, base: Path, source: str, what: str) -> tuple[Path | None, str]:
        """Where a reference of the map leads, and why it cannot be followed ("" when it can). A
        map refers to its files by relative paths only (docs/maps.md)."""
        key = (str(base), source, what)
        if key not in self.references:
            self.references[key] = self.follow(base, source, what)
        return self.references[key]

    def follow(self, base: Path, source: str, what: str) -> tuple[Path | None, str]:
        shown = printable(source, 120)
        if os.path.isabs(source) or source.startswith(("~", "\\")) or (len(source) > 1 and source[1] == ":"):
            return None, (f"{what} '{shown}' is an absolute path; a map refers to its files by relative paths "
                          "only, so the map can move with them")
        try:
            return (base / source).resolve(), ""
        except (OSError, ValueError, RuntimeError):
            return None, f"{what} '{shown}' is not a file name the system can use"

    def read_tree(self, path: Path, what: str, shown: str) -> ET.Element:
        """The map or a file it refers to, as TMX elements (JSON converted). Only a regular file
        is read, and the map with all its files at most MAX_INPUT_BYTES together; ``shown`` is
        the name messages use (the reference as the map writes it)."""
        label = f"{what} '{printable(shown, 120)}'"
        try:
            size = regular_size(path, MAX_INPUT_BYTES)
            if self.bytes_read + size > MAX_INPUT_BYTES:
                raise FileRefused(f"would bring the map and its files over {MAX_INPUT_BYTES // 2**20} MB in all")
            text = read_bounded(path, MAX_INPUT_BYTES - self.bytes_read)
        except FileRefused as e:
            where = f" (looked for {printable(path, 200)})" if e.reason == "not found" else ""
            raise MapError(self.file, f"{label} {e.reason}{where}") from None
        self.bytes_read += len(text)
        name = printable(path.name, 120)
        if path.suffix.lower() in (".json", ".tmj", ".tsj") or text.lstrip()[:1] in (b"{", b"["):
            if text.count(b"{") + text.count(b"[") > MAX_ELEMENTS:
                raise MapError(name, f"holds more than {MAX_ELEMENTS:,} records and lists")
            try:
                data = json.loads(text)
            except (ValueError, UnicodeDecodeError) as exc:
                line = getattr(exc, "lineno", "?")
                raise MapError(f"{name}, line {line}", f"malformed JSON: {getattr(exc, 'msg', None) or exc}") from None
            wanted = "map" if what == "map" else "tileset"
            if not isinstance(data, dict) or data.get("type", wanted) != wanted or (
                    "type" not in data and not isinstance(data.get("tilewidth"), (int, float))):
                raise MapError(name, f"not a Tiled JSON {wanted}")
            reader = _JsonReader(name)
            return reader.map(data) if what == "map" else reader.tileset(data)
        if text.count(b"<") > 2 * MAX_ELEMENTS:
            raise MapError(name, f"holds more than {MAX_ELEMENTS:,} XML elements")
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            line, col = exc.position
            raise MapError(f"{name}, line {line}",
                           f"malformed XML (column {col}): {str(exc).split(':')[0]}") from None
        if sum(1 for _ in root.iter()) > MAX_ELEMENTS:
            raise MapError(name, f"holds more than {MAX_ELEMENTS:,} XML elements")
        return root

    def load(self) -> LoadedMap:
        root = self.read_tree(self.path, "map", self.path.name)
        if root.tag != "map":
            raise MapError(self.file, "not a Tiled map (its first element is not <map>)")
        orientation = root.get("orientation", "orthogonal")
        if orientation != "orthogonal":
            raise MapError(self.file, f"orientation '{printable(orientation, 40)}' is not supported: "
                                      "Escarmouche plays orthogonal maps only")
        self.tile_w = _int(root.get("tilewidth"), 0)
        self.tile_h = _int(root.get("tileheight"), 0)
        if self.tile_w <= 0 or self.tile_h <= 0:
            raise MapError(self.file, "the map has no tile size (tilewidth/tileheight)")
        if max(self.tile_w, self.tile_h) > MAX_TILE_PX:
            raise MapError(self.file, f"its tiles are {self.tile_w}×{self.tile_h} px; at most {MAX_TILE_PX} px a "
                                      "side are supported")
        root.set("tilewidth", str(self.tile_w))
        root.set("tileheight", str(self.tile_h))
        self.count_elements(root)
        self.normalise(root)
        return self.build(root)

    def count_elements(self, root: ET.Element) -> None:
        """Refuse a map holding more of one kind of element than the limits allow, before any work."""
        counts: dict[str, int] = {}
        points = 0
        for el in root.iter():
            counts[el.tag] = counts.get(el.tag, 0) + 1
            if el.tag in ("polygon", "polyline"):
                points += (el.get("points") or "").count(" ") + 1
        for tags, limit, what in ((("tileset",), MAX_TILESETS, "tilesets"),
                                  (("layer", "objectgroup", "imagelayer", "group"), MAX_LAYERS, "layers"),
                                  (("object",), MAX_OBJECTS, "objects"),
                                  (("property",), MAX_PROPERTIES, "properties")):
            if sum(counts.get(t, 0) for t in tags) > limit:
                raise MapError(self.file, f"the map has more than {limit:,} {what}")
        if points > MAX_POINTS:
            raise MapError(self.file, f"its polygons and polylines have more than {MAX_POINTS:,} points in all")

    # --- normalisation ------------------------------------------------------------------
    def normalise(self, root: ET.Element) -> None:
        base = self.path.parent
        for ts in root.findall("tileset"):
            self.inline_tileset(root, ts, base)
        self.sort_tilesets(root)
        layers = self.flatten(list(root), 0.0, 0.0, 1.0, True, {}, 0)
        for child in list(root):
            if child.tag != "tileset" and child.tag != "properties":
                root.remove(child)
        self.make_finite(root, [lay for lay in layers if lay.tag == "layer"])
        for lay in layers:
            if lay.tag == "objectgroup":
                for obj in lay.findall("object"):
                    self.resolve_template(root, obj, base, lay.get("name", ""))
            elif lay.tag == "imagelayer":
                self.fix_image_layer(lay, base)
            root.append(lay)
        if sum(1 for _ in root.iter("property")) > MAX_PROPERTIES:     # templates add theirs
            raise MapError(self.file, f"the map and its templates have more than {MAX_PROPERTIES:,} properties")
        for props in root.iter("properties"):
            self.clean_properties(props)
        for obj in root.iter("object"):
            self.fill_tile_object_size(obj)
        root.set("infinite", "0")

    def sort_tilesets(self, root: ET.Element) -> None:
        self.tilesets = sorted(root.findall("tileset"), key=lambda t: int(t.get("firstgid")))
        self.firstgids = [int(t.get("firstgid")) for t in self.tilesets]
        self.tile_entries = {id(ts): {_int(t.get("id"), -1): t for t in ts.findall("tile")} for ts in self.tilesets}

    def inline_tileset(self, root: ET.Element, ts: ET.Element, base: Path) -> None:
        firstgid = _whole(ts.get("firstgid", "1"))
        source = ts.get("source")
        if firstgid is None or not 1 <= firstgid < GID_LIMIT:
            raise MapError(self.file, f"tileset '{printable(source or ts.get('name', ''), 120)}': firstgid "
                                      f"'{printable(ts.get('firstgid'), 40)}' should be a whole number from 1")
        ts_base = base
        if source:
            ts_path, refused = self.refer(base, source, "tileset")
            if refused:
                raise MapError(self.file, refused)
            loaded = self.read_tree(ts_path, "tileset", source)
            if loaded.tag != "tileset":
                raise MapError(self.file, f"tileset '{printable(source, 120)}' is not a Tiled tileset")
            ts_base = ts_path.parent
            self.tileset_sources[str(ts_path)] = firstgid
            ts.clear()
            ts.attrib.update(loaded.attrib)
            ts.extend(list(loaded))
        ts.set("firstgid", str(firstgid))
        name = ts.get("name") or (Path(source).stem if source else "tileset")
        place = f"tileset '{printable(name, 120)}'"
        tw, th = (self.tile_size(ts, key, default, place) for key, default in
                  (("tilewidth", self.tile_w), ("tileheight", self.tile_h)))
        for key in ("spacing", "margin", "tilecount", "columns"):
            if ts.get(key) is not None:
                value = _int(ts.get(key), 0)
                if not 0 <= value <= MAX_IMAGE_PX:
                    self.warn(place, f"{key} '{printable(ts.get(key), 40)}' is not a size from 0 to {MAX_IMAGE_PX}; "
                                     "0 used", "set it in Tiled's tileset properties")
                    value = 0
                ts.set(key, str(value))
        image = ts.find("image")
        if image is not None:
            self.fix_image(image, ts_base, place, ts)
            self.count_image_tiles(ts, image, tw, th, place)
        tiles = ts.findall("tile")
        self.tile_entry_count += len(tiles)
        if self.tile_entry_count > MAX_TILE_ENTRIES:
            raise MapError(self.file, f"its tilesets describe more than {MAX_TILE_ENTRIES:,} tiles "
                                      "(properties, shapes or images of their own)")
        for tile in tiles:
            tile_id = _int(tile.get("id"), -1)
            if not 0 <= tile_id < GID_LIMIT - firstgid:
                raise MapError(self.file, f"{place}: tile id '{printable(tile.get('id'), 40)}' should be a "
                                          "whole number from 0")
            tile.set("id", str(tile_id))
            for group in tile.findall("objectgroup"):
                if group.find("object") is not None:
                    self.collision_gids.add(firstgid + tile_id)
                tile.remove(group)
            kind = tile.get("class") or tile.get("type")
            if tile.get("width") and tile.get("height"):     # Tiled 1.9 sub-rectangle of an image
                self.subrects[firstgid + tile_id] = tuple(
                    min(MAX_IMAGE_PX, max(0, _int(tile.get(k), 0))) for k in ("x", "y", "width", "height"))
            for key in list(tile.attrib):      # legacy attributes (terrain corners…) are not properties
                if key != "id":
                    del tile.attrib[key]
            if kind:
                tile.set("type", kind)
            timage = tile.find("image")
            if timage is not None:
                self.fix_image(timage, ts_base, f"{place}: tile {tile_id}", None)
        for extra in ("wangsets", "terraintypes", "transformations", "grid"):
            for node in ts.findall(extra):
                ts.remove(node)

    def tile_size(self, ts: ET.Element, key: str, default: int, place: str) -> int:
        """A tileset's tile width or height: 1 to MAX_TILE_PX, else the map's (with a warning)."""
        value = _int(ts.get(key), default) if ts.get(key) is not None else default
        if not 1 <= value <= MAX_TILE_PX:
            self.warn(place, f"{key} '{printable(ts.get(key), 40)}' is not a size from 1 to {MAX_TILE_PX} px; "
                             f"the map's {default} px used", "set the tile size in Tiled's tileset properties")
            value = default
        ts.set(key, str(value))
        return value

    def count_image_tiles(self, ts: ET.Element, image: ET.Element, tw: int, th: int, place: str) -> None:
        """The tiles pytmx will cut the tileset image into, counted as it counts them, refused above
        the limits before it starts."""
        w, h = int(image.get("width")), int(image.get("height"))
        sp, mg = int(ts.get("spacing", "0")), int(ts.get("margin", "0"))
        count = len(range(mg, h + mg - th + 1, th + sp)) * len(range(mg, w + mg - tw + 1, tw + sp))
        self.image_tiles += count
        if count > MAX_IMAGE_TILES:
            raise MapError(self.file, f"{place}: its image of {w}×{h} px holds more than {MAX_IMAGE_TILES:,} tiles")
        if self.image_tiles > MAX_ALL_IMAGE_TILES:
            raise MapError(self.file, f"its tileset images hold more than {MAX_ALL_IMAGE_TILES:,} tiles in all")

    def fix_image(self, image: ET.Element, base: Path, place: str, ts: ET.Element | None) -> None:
        """Absolute source; width/height filled from the file header or the tile grid, each from 0
        to MAX_IMAGE_PX (anything else is read as unknown)."""
        src = image.get("source")
        full = ""
        if not src:
            self.warn(place, "image has no file (embedded image data is not supported); "
                             "tiles drawn as placeholders", "save the image as a PNG file")
        else:
            path, refused = self.refer(base, src, "image")
            if refused:
                self.warn(place, f"{refused}; tiles drawn as placeholders", "give the image's path relative to "
                                                                           "the map in Tiled")
            else:
                full = str(path)
                if not self.exists(full):
                    self.warn(place, f"image '{printable(src, 120)}' not found; tiles drawn as placeholders",
                              f"put the image at {printable(full, 200)} or fix the path in Tiled")
                elif self.picture_problem(full):
                    self.warn(place, f"image '{printable(src, 120)}' {self.picture_problem(full)}; tiles drawn as "
                                     "placeholders", "save the image as a PNG of at most 8192 × 8192 px")
                    full = ""
        image.set("source", full)
        declared = [_int(image.get(k), None) for k in ("width", "height")]
        for key, value in zip(("width", "height"), declared):
            if image.get(key) and (value is None or not 0 <= value <= MAX_IMAGE_PX):
                raise MapError(self.file, f"{place}: its image {key} '{printable(image.get(key), 40)}' is not a "
                                          f"size from 0 to {MAX_IMAGE_PX:,} px (more than any image can be)")
        if image.get("width") and image.get("height") and all(declared):
            image.set("width", str(declared[0]))
            image.set("height", str(declared[1]))
            return
        size = image_size(full) if full and self.exists(full) else None
        if size is not None and not all(0 <= v <= MAX_IMAGE_PX for v in size):
            size = None
        if size is None and ts is not None:
            cols, count = _int(ts.get("columns"), 0), _int(ts.get("tilecount"), 0)
            if cols and count:
                tw, th = int(ts.get("tilewidth")), int(ts.get("tileheight"))
                sp, mg = int(_num(ts.get("spacing"))), int(_num(ts.get("margin")))
                rows = math.ceil(count / cols)
                size = (2 * mg + cols * tw + (cols - 1) * sp, 2 * mg + rows * th + (rows - 1) * sp)
                if not all(0 <= v <= MAX_IMAGE_PX for v in size):
                    size = None
        if size is None:
            size = (0, 0)
        image.set("width", str(size[0]))
        image.set("height", str(size[1]))

    def flatten(self, children, ox, oy, opacity, visible, inherited, depth: int) -> list[ET.Element]:
        """Group layers dissolved into their children, passing on offset, opacity, visibility
        and properties, so draw order and layer properties survive."""
        if depth > MAX_GROUP_DEPTH:
            raise MapError(self.file, f"its group layers nest more than {MAX_GROUP_DEPTH} deep")
        out = []
        for child in children:
            if child.tag not in ("layer", "objectgroup", "imagelayer", "group"):
                continue
            cx = ox + _num(child.get("offsetx"))
            cy = oy + _num(child.get("offsety"))
            c_opacity = opacity * _num(child.get("opacity"), 1.0)
            c_visible = visible and _bool(child.get("visible", "1")) is not False
            props = dict(inherited)
            node = child.find("properties")
            if node is not None:
                for p in node.findall("property"):
                    props[p.get("name")] = p
            if child.tag == "group":
                out.extend(self.flatten(list(child), cx, cy, c_opacity, c_visible, props, depth + 1))
                continue
            child.set("offsetx", str(round(cx)))
            child.set("offsety", str(round(cy)))
            child.set("opacity", f"{c_opacity:g}")
            child.set("visible", "1" if c_visible else "0")
            for key in ("parallaxx", "parallaxy", "tintcolor", "x", "y"):
                child.attrib.pop(key, None)
            if inherited:
                node = child.find("properties")
                if node is None:
                    node = ET.SubElement(child, "properties")
                own = {p.get("name") for p in node.findall("property")}
                for name, p in inherited.items():
                    if name not in own:
                        node.append(p)
            out.append(child)
        return out

    def make_finite(self, root: ET.Element, layers: list[ET.Element]) -> None:
        """Decode every tile layer (chunks included) into its distinct raw gids and each tile's index
        among them (``self.grids``, each found once, in time linear in the layer's size); pytmx
        is given only each layer's distinct gids, in the order they first appear, so it numbers
        them as it would have numbered the whole layer, without reading every tile again."""
        w, h = _int(root.get("width"), 0), _int(root.get("height"), 0)
        self.check_size(w, h)
        decoded = []
        bounds = None
        infinite = root.get("infinite") in ("1", "true")
        for lay in layers:
            name = printable(lay.get("name", ""), 120)
            data = lay.find("data")
            chunks = [] if data is None else data.findall("chunk")
            try:
                if chunks:
                    parts = []
                    for ch in chunks:
                        cx, cy, cw, chh = (_whole(ch.get(k)) for k in ("x", "y", "width", "height"))
                        if None in (cx, cy, cw, chh) or cw < 0 or chh < 0 or max(abs(cx), abs(cy)) >= GID_LIMIT:
                            raise ValueError("a chunk's x, y, width and height should be whole numbers")
                        self.spend_cells(cw * chh, name)
                        gids = _decode_data(ch.text, data.get("encoding"), data.get("compression"),
                                            ch.findall("tile"), cw * chh)
                        parts.append((cx, cy, cw, chh, gids))
                        box = (cx, cy, cx + cw, cy + chh)
                        bounds = box if bounds is None else (
                            min(bounds[0], box[0]), min(bounds[1], box[1]),
                            max(bounds[2], box[2]), max(bounds[3], box[3]))
                    decoded.append((lay, parts))
                elif infinite or data is None:      # an infinite map's layer without chunks is empty
                    decoded.append((lay, None))
                else:
                    self.spend_cells(w * h, name)
                    gids = _decode_data(data.text, data.get("encoding"), data.get("compression"),
                                        data.findall("tile"), w * h)
                    decoded.append((lay, gids))
            except MapError:
                raise
            except Exception as exc:
                raise MapError(f"{self.file}: layer '{name}'",
                               f"tile data cannot be decoded ({printable(exc, 200) or type(exc).__name__})") from None
        origin = (0, 0)
        if bounds is not None and infinite:
            origin = (bounds[0], bounds[1])
            w, h = bounds[2] - bounds[0], bounds[3] - bounds[1]
            root.set("width", str(w))
            root.set("height", str(h))
            self.shift = (-origin[0] * self.tile_w, -origin[1] * self.tile_h)
        else:
            self.shift = (0, 0)
        self.check_size(w, h)
        self.grids: list[tuple[np.ndarray, np.ndarray]] = []     # per layer: its distinct raw gids, sorted,
        # and each tile's index among them (uint16: at most MAX_GIDS + 1 of them), found once here
        distinct: set[int] = set()
        for lay, content in decoded:
            if isinstance(content, list):
                grid = np.zeros((h, w), dtype=np.uint32)
                for cx, cy, cw, chh, gids in content:
                    arr = gids.reshape(chh, cw)
                    x0, y0 = cx - origin[0], cy - origin[1]
                    xs, ys = max(0, x0), max(0, y0)
                    xe, ye = min(w, x0 + cw), min(h, y0 + chh)
                    if xe > xs and ye > ys:
                        grid[ys:ye, xs:xe] = arr[ys - y0:ye - y0, xs - x0:xe - x0]
            elif content is None:
                grid = np.zeros((h, w), dtype=np.uint32)
            else:
                grid = content.reshape(h, w)
            values = np.unique(grid)
            distinct.update(values.tolist())
            if len(distinct) > MAX_GIDS + 1:
                raise MapError(self.file, f"its tile layers use more than {MAX_GIDS:,} different tiles")
            if len(values) == 1:
                inverse, in_order = np.zeros(grid.shape, dtype=np.uint16), values
            else:
                inverse = np.searchsorted(values, grid).astype(np.uint16)
                first = np.full(len(values), grid.size, dtype=np.int64)
                np.minimum.at(first, inverse.reshape(-1), np.arange(grid.size))
                in_order = values[np.argsort(first)]
            self.grids.append((values, inverse))
            data = lay.find("data")
            if data is not None:
                lay.remove(data)
            data = ET.SubElement(lay, "data", encoding="csv")
            data.text = ",".join(map(str, in_order.tolist()))
            lay.set("width", str(len(in_order)))
            lay.set("height", "1")

    def check_size(self, w: int, h: int) -> None:
        if w < 0 or h < 0 or w * h > MAX_TILES:
            raise MapError(self.file, f"the map is {w}×{h} tiles; at most {MAX_TILES:,} tiles are supported")

    def spend_cells(self, n: int, layer: str) -> None:
        """Count tiles about to be decoded against the map's budget, before decoding them."""
        place = f"{self.file}: layer '{layer}'"
        if n > MAX_TILES:
            raise MapError(place, f"a chunk of more than {MAX_TILES:,} tiles")
        self.cells += n
        if self.cells > MAX_LAYER_CELLS:
            raise MapError(place, f"the tile layers hold more than {MAX_LAYER_CELLS:,} tiles in all")

    def resolve_template(self, root: ET.Element, obj: ET.Element, base: Path, layer: str) -> None:
        """Fill an object from its .tx template (the instance's own attributes win); objects of
        an infinite map also move with the map's new origin."""
        if self.shift != (0, 0):
            obj.set("x", str(_num(obj.get("x")) + self.shift[0]))
            obj.set("y", str(_num(obj.get("y")) + self.shift[1]))
        src = obj.attrib.pop("template", None)
        if not src:
            return
        place = f"layer '{layer}': object {obj.get('id', '?')}"
        tpath, tree = self.template(base, src)
        if isinstance(tree, str):
            self.warn(place, f"{tree}; the object keeps only its own data",
                      "give the template's path relative to the map in Tiled" if "absolute" in tree
                      else f"put the template at {printable(tpath, 200)}" if "not found" in tree
                      else "point the object at a template saved by Tiled")
            return
        tobj = tree.find("object")
        own_gid = obj.get("gid")
        for key, value in tobj.attrib.items():
            if key not in obj.attrib and key != "id":
                obj.set(key, value)
        if tobj.get("gid") and not own_gid:
            obj.set("gid", str(self.template_gid(root, tree, tpath, _whole(tobj.get("gid")), place)))
        tprops = tobj.find("properties")
        if tprops is not None:
            props = obj.find("properties")
            if props is None:
                props = ET.SubElement(obj, "properties")
            own = {p.get("name") for p in props.findall("property")}
            for p in tprops.findall("property"):
                if p.get("name") not in own:
                    props.append(copy.deepcopy(p))
        if not any(obj.find(t) is not None for t in ("ellipse", "point", "polygon", "polyline", "text")):
            for t in ("ellipse", "point", "polygon", "polyline", "text"):
                node = tobj.find(t)
                if node is not None:
                    obj.append(copy.deepcopy(node))

    def template(self, base: Path, src: str) -> tuple[Path | None, ET.Element | str]:
        """A template's path and tree (each file read once), or why it cannot be used: a template
        is an XML file whose first element is <template> and holds an <object>; nothing of a file
        that is not one is quoted."""
        tpath, refused = self.refer(base, src, "template")
        if refused:
            return None, refused
        key = str(tpath)
        if key not in self.templates:
            shown = printable(src, 120)
            if not self.exists(key):
                try:
                    regular_size(tpath)
                    self.templates[key] = f"template '{shown}' not found"
                except FileRefused as e:
                    self.templates[key] = f"template '{shown}' {e.reason}"
            else:
                tree = self.read_tree(tpath, "template", src)
                if tree.tag != "template" or tree.find("object") is None:
                    self.templates[key] = f"template '{shown}' is not a Tiled template"
                else:
                    self.templates[key] = tree
        return tpath, self.templates[key]

    def template_gid(self, root: ET.Element, tree: ET.Element, tpath: Path, gid: int | None, place: str) -> int:
        """A template's gid counts in the template's own tileset list: map it into the map's."""
        if gid is None or not 0 < gid < GID_LIMIT:
            self.warn(place, "its template's tile number is not a whole number from 1; no tile drawn")
            return 0
        flags = gid & ~GID_MASK
        ref = tree.find("tileset")
        if ref is None or not ref.get("source"):
            return gid
        ts_path, refused = self.refer(tpath.parent, ref.get("source"), "tileset")
        if refused:
            raise MapError(self.file, f"template '{printable(tpath.name, 120)}': {refused}")
        local = (gid & GID_MASK) - (_whole(ref.get("firstgid", "1")) or 1)
        key = str(ts_path)
        if key not in self.tileset_sources:
            if len(self.tilesets) >= MAX_TILESETS:
                raise MapError(self.file, f"the map and its templates use more than {MAX_TILESETS} tilesets")
            last = max((int(t.get("firstgid")) + _tile_count(t) for t in root.findall("tileset")),
                       default=1)
            ts = ET.Element("tileset", firstgid=str(last), source=os.path.relpath(ts_path, self.path.parent))
            self.inline_tileset(root, ts, self.path.parent)
            root.insert(0, ts)
            self.sort_tilesets(root)
        return max(0, self.tileset_sources[key] + local) | flags

    def fix_image_layer(self, lay: ET.Element, base: Path) -> None:
        image = lay.find("image")
        if image is None or not image.get("source"):
            if image is not None:
                lay.remove(image)
            ET.SubElement(lay, "image")
            return
        place = f"image layer '{lay.get('name', '')}'"
        path, refused = self.refer(base, image.get("source"), "image")
        if refused:
            self.warn(place, refused, "give the image's path relative to the map in Tiled")
            image.set("source", "")
            return
        full = str(path)
        if not self.exists(full):
            self.warn(place, f"image '{printable(image.get('source'), 120)}' not found", "fix the path in Tiled")
        elif self.picture_problem(full):
            self.warn(place, f"image '{printable(image.get('source'), 120)}' {self.picture_problem(full)}; not drawn",
                      "save the image as a PNG of at most 8192 × 8192 px")
            full = ""
        image.set("source", full)

    def fill_tile_object_size(self, obj: ET.Element) -> None:
        if not obj.get("gid") or (obj.get("width") and obj.get("height")):
            return
        gid = _int(obj.get("gid"), 0) & GID_MASK
        ts = self.tileset_of(gid)
        if ts is None:
            return
        w, h = ts.get("tilewidth"), ts.get("tileheight")
        tile = self.tile_entries.get(id(ts), {}).get(gid - int(ts.get("firstgid")))
        if tile is not None:
            img = tile.find("image")
            if img is not None and img.get("width"):
                w, h = img.get("width"), img.get("height")
        obj.set("width", obj.get("width") or w)
        obj.set("height", obj.get("height") or h)

    def tileset_of(self, gid: int) -> ET.Element | None:
        """The tileset whose firstgid is the largest at or below ``gid``."""
        i = bisect.bisect_right(self.firstgids, gid)
        return self.tilesets[i - 1] if i else None

    def clean_properties(self, props: ET.Element) -> None:
        """Make every property one pytmx can cast: list/class flattened, bad numbers as text."""
        for p in list(props.findall("property")):
            name, ptype = p.get("name"), p.get("type", "string")
            if not name:
                props.remove(p)
                continue
            if ptype == "class" or p.find("properties") is not None:
                props.remove(p)
                inner = p.find("properties")
                if inner is not None:
                    self.clean_properties(inner)
                    for q in inner.findall("property"):
                        props.append(ET.Element("property", name=f"{name}.{q.get('name')}",
                                                type=q.get("type", "string"), value=q.get("value", "")))
                continue
            if ptype == "list":
                values = [i.get("value", i.text or "") for i in p.iter("item")]
                for child in list(p):
                    p.remove(child)
                p.set("type", "string")
                p.set("value", ",".join(values))
                continue
            value = p.get("value")
            if value is None:
                value = p.text or ""
                p.set("value", value)
            p.attrib.pop("propertytype", None)
            ok = {"int": lambda v: int(v), "object": lambda v: int(v), "float": lambda v: float(v),
                  "bool": lambda v: pytmx.convert_to_bool(v)}.get(ptype)
            if ptype not in ("string", "int", "float", "bool", "color", "file", "object"):
                p.set("type", "string")
            elif ok is not None:
                try:
                    ok(value)
                except (TypeError, ValueError):
                    p.set("type", "string")

    # --- building the battlefield ---------------------------------------------------------
    def build(self, root: ET.Element) -> LoadedMap:
        tm = pytmx.TiledMap(allow_duplicate_names=True)
        tm.filename = str(self.path)
        try:
            tm.parse_xml(root)
        except Exception as exc:
            raise MapError(self.file, f"pytmx cannot read the map ({type(exc).__name__}: {exc})") from None
        width, height = int(tm.width), int(tm.height)
        if width <= 0 or height <= 0:
            raise MapError(self.file, f"the map has no tiles ({width}×{height})")
        bf = Battlefield(width=width, height=height)
        bf.properties["hazard_ids"] = {i + 1: h for i, h in enumerate(KNOWN_HAZARDS)}
        self.gid_info = {gid: (tiled, flags) for (tiled, flags), (gid, _) in
                         ((k, v) for k, v in tm.imagemap.items() if k[0])}
        max_gid = max(tm.maxgid, 1)
        props_by_gid = {}
        for gid in range(1, max_gid):
            tiled = self.gid_info.get(gid, (0, None))[0]
            p = dict(tm.tile_properties.get(gid, {}))
            if tiled in self.collision_gids:
                p["__collision_shape__"] = True
            props_by_gid[gid] = p
        layers, tiles, present = [], {}, []
        tile_layers = [layer for layer in tm.layers if isinstance(layer, pytmx.TiledTileLayer)]
        for layer, (values, inverse) in zip(tile_layers, self.grids):
            lut = np.array([tm.register_gid_check_flags(int(v)) for v in values], dtype=np.uint32)
            gids = lut[inverse]                                       # pytmx's number for each raw gid
            present.append(np.unique(lut))
            layers.append(RenderLayer(layer.name or "", gids, bool(layer.visible),
                                      float(layer.opacity),
                                      (float(layer.offsetx), float(layer.offsety))))
        self.grids = []
        self.apply_tile_layers(bf, tile_layers, layers, present, props_by_gid, max(tm.maxgid, 1))
        for gid in range(1, max_gid):
            tiles[gid] = self.tile_image(tm, gid)
        self.check_gids(layers, present)
        sprites, image_layers = [], []
        for layer in tm.layers:
            offset = (float(getattr(layer, "offsetx", 0) or 0), float(getattr(layer, "offsety", 0) or 0))
            if isinstance(layer, pytmx.TiledObjectGroup):
                self.apply_objects(bf, layer)
                if layer.visible:
                    sprites += [Sprite(int(o.gid), float(o.x) + offset[0], float(o.y) + offset[1],
                                       float(o.width), float(o.height), float(o.rotation or 0), layer.name or "")
                                for o in layer if o.gid and o.visible]
            elif isinstance(layer, pytmx.TiledImageLayer):
                source = layer.source or ""
                image_layers.append(ImageLayer(layer.name or "", source if source and self.exists(source) else "",
                                               offset, float(layer.opacity), bool(pytmx.convert_to_bool(layer.visible))))
        properties = {k: v for k, v in tm.properties.items()}
        self.apply_map_properties(bf, properties)
        self.default_spawns(bf)
        return LoadedMap(self.path, bf, self.tile_w, self.tile_h, layers, tiles,
                         [f"{self.file}: {i.place}: {i.message}" for i in self.issues],
                         properties, self.issues, sprites, image_layers)

    def tile_image(self, tm, gid: int) -> TileImage:
        tiled, flags = self.gid_info.get(gid, (0, None))
        entry = tm.images[gid] if gid < len(tm.images) else None
        fx = bool(flags and flags.flipped_horizontally)
        fy = bool(flags and flags.flipped_vertically)
        fd = bool(flags and flags.flipped_diagonally)
        if not entry:
            return TileImage("", (0, 0, self.tile_w, self.tile_h), fx, fy, fd)
        filename, rect, _ = entry
        if tiled in self.subrects:
            rect = self.subrects[tiled]
        elif rect is None:
            p = tm.tile_properties.get(gid, {})
            rect = (0, 0, int(_num(p.get("width"), self.tile_w)), int(_num(p.get("height"), self.tile_h)))
        image = filename if filename and self.exists(filename) else ""
        return TileImage(image, tuple(int(v) for v in rect), fx, fy, fd)

    def check_gids(self, layers: list[RenderLayer], present: list[np.ndarray]) -> None:
        for lay, used in zip(layers, present):
            bad = sorted({self.gid_info.get(int(g), (0,))[0] for g in used if g} - {0})
            bad = [g for g in bad if self.tileset_of(g) is None
                   or g >= int(self.tileset_of(g).get("firstgid")) + _tile_count(self.tileset_of(g))]
            if bad:
                self.warn(f"layer '{lay.name}'", f"tile ids {bad[:5]} belong to no tileset; "
                                                 "drawn as placeholders", "repaint those tiles in Tiled")

    def feature_values(self, props: dict, place: str) -> dict:
        """Game features named by a property dict (tile, layer or object): {feature: value}."""
        self.check_names(props, place)
        out: dict = {}
        preset = props.get("terrain")
        kind = str(props.get("type") or props.get("class") or "").strip().lower()
        if preset is None and kind in TERRAIN_PRESETS:
            preset = kind
        if preset is not None:
            if str(preset).strip().lower() in TERRAIN_PRESETS:
                out.update(TERRAIN_PRESETS[str(preset).strip().lower()])
            else:
                self.unknown(place, "terrain", preset, TERRAIN_PRESETS)
        if "wall" in props:
            b = _bool(props["wall"])
            if b is None:
                self.unknown(place, "wall", props["wall"], ("true", "false"))
            else:
                out["blocks_move"] = out["blocks_sight"] = b
        for name in BOOL_FEATURES:
            if name in props:
                b = _bool(props[name])
                if b is None:
                    self.unknown(place, name, props[name], ("true", "false"))
                else:
                    out[name] = b
        for name, values in (("cover", COVER_VALUES), ("door", DOOR_VALUES)):
            if name in props:
                v = str(props[name]).strip().lower()
                if v in values:
                    out[name] = v
                else:
                    self.unknown(place, name, props[name], values)
        if "terrain_cost" in props:
            cost = _num(props["terrain_cost"], -1)
            if cost >= 1:
                out["terrain_cost"] = cost
            else:
                self.warn(place, f"terrain_cost '{props['terrain_cost']}' is not a number ≥ 1; ignored",
                          "use 1 for normal ground, 2 for ground that costs double")
        if "exit" in props:
            v = str(props["exit"]).strip()
            if v in SIDE_VALUES:
                out["exit"] = SIDE_VALUES[v]
            else:
                self.unknown(place, "exit", v, SIDE_VALUES)
        if "hazard" in props:
            v = str(props["hazard"]).strip().lower()
            if v:
                out["hazard"] = v
        if any(_bool(props.get(k)) for k in COLLISION_PROPERTIES) or props.get("__collision_shape__"):
            out.setdefault("blocks_move", True)
        return out

    def check_names(self, props: dict, place: str) -> None:
        """A property name one typo away from a known one (``hidding_place``) is worth a warning."""
        for key in props:
            if isinstance(key, str) and key not in KNOWN_NAMES:
                guess = self.close_match(key.lower(), KNOWN_NAMES, 0.85)
                if guess and guess != key.lower():
                    self.warn(place, f"property '{printable(key, 60)}' is not one the game reads; ignored",
                              f"did you mean '{guess}'?")

    def close_match(self, word: str, choices, cutoff: float) -> str | None:
        """The known word closest to ``word`` (difflib), once per word; only NAME_CHECKS different
        words of a map are looked at, since each costs tens of microseconds."""
        key = (word, tuple(choices), cutoff)
        if key not in self.matches:
            if len(self.matches) >= NAME_CHECKS:
                return None
            guess = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
            self.matches[key] = guess[0] if guess else None
        return self.matches[key]

    def unknown(self, place: str, name: str, value, allowed) -> None:
        allowed = list(allowed)
        guess = self.close_match(str(value).lower(), allowed, 0.6)
        hint = f"did you mean '{guess}'? " if guess else ""
        self.warn(place, f"{name} '{printable(value, 60)}' is not a known value; ignored",
                  f"{hint}use one of: {', '.join(allowed)}")

    def hazard_code(self, bf: Battlefield, hazard: str) -> int:
        codes = bf.properties["hazard_ids"]
        for code, name in codes.items():
            if name == hazard:
                return code
        if len(codes) >= MAX_HAZARDS:
            raise MapError(self.file, f"its tiles and objects name more than {MAX_HAZARDS} different hazards")
        code = max(codes) + 1
        codes[code] = hazard
        return code

    def apply(self, bf: Battlefield, where: np.ndarray, features: dict) -> None:
        """Write features on the tiles ``where`` says (a boolean mask of the map, or the flat
        indexes of tiles, row by row): what a later layer says wins."""
        for name, value in features.items():
            if name == "exit":
                self.apply_exit(bf, where, value)
                continue
            value = (COVER_VALUES[value] if name == "cover" else DOOR_VALUES[value] if name == "door"
                     else self.hazard_code(bf, value) if name == "hazard" else value)
            _tiles_of(self.feature_array(bf, name), where)[where] = value

    def apply_exit(self, bf: Battlefield, where, side: int) -> None:
        """Exit tiles lie on the map edge (conventions.md 7); inner ones are ignored, with a
        warning, which also keeps other games' warp objects named "exit" harmless. ``where`` is as
        in ``apply``."""
        ys, xs = np.nonzero(where) if where.dtype == bool else np.divmod(where, bf.width)
        edge = (ys == 0) | (ys == bf.height - 1) | (xs == 0) | (xs == bf.width - 1)
        inner = ~edge
        if inner.any():
            first = int(np.argmax(inner))
            self.warn(f"tile ({int(xs[first])}, {int(ys[first])})",
                      f"{int(inner.sum())} exit tile(s) not on the map edge are ignored",
                      "exits belong on the outer row or column of the map")
        bf.exit_side[ys[edge], xs[edge]] = side

    def apply_tile_layers(self, bf, tile_layers, layers: list[RenderLayer], present: list[np.ndarray],
                          props_by_gid: dict, max_gid: int) -> None:
        """Layer properties, then tile properties, then the foreign layer-name convention, layer by
        layer. Each tile's features are read once and written through lookup tables, so the work
        is the layers' size, however many different tiles they use."""
        features: dict[int, dict] = {}
        aware = np.zeros(max_gid + 1, dtype=bool)
        for used in present:
            for gid in used.tolist():
                if gid and gid not in features and props_by_gid.get(gid):
                    tiled = self.gid_info.get(gid, (gid,))[0]
                    features[gid] = self.feature_values(props_by_gid[gid], f"tile {tiled - self.firstgid_of(tiled)} "
                                                                           f"of {self.tileset_name(tiled)}")
                    aware[gid] = any(k in props_by_gid[gid] for k in FEATURE_PROPERTIES)
        tables = self.feature_tables(bf, features, max_gid)
        for layer, render, used in zip(tile_layers, layers, present):
            name = layer.name or ""
            gids = render.gids
            non_empty = gids != 0
            layer_features = self.feature_values(layer.properties, f"layer '{name}'")
            if layer_features:
                self.apply(bf, non_empty, layer_features)
            for feature, (has, value) in tables.items():
                if not has[used].any():
                    continue
                where = has[gids]
                if feature == "exit":
                    for side in SIDE_VALUES.values():
                        self.apply_exit(bf, where & (value[gids] == side), side)
                else:
                    self.feature_array(bf, feature)[where] = value[gids][where]
            lowered = name.lower()
            if not (layer_features or aware[used].any()) and any(w in lowered for w in COLLISION_NAME_WORDS):
                bf.blocks_move[non_empty] = True
                if "wall" in lowered:
                    bf.blocks_sight[non_empty] = True

    def feature_tables(self, bf: Battlefield, features: dict[int, dict], max_gid: int) -> dict:
        """{feature: (has, value)}: for each pytmx gid, whether its tile says something about the
        feature and what, in the Battlefield array's own terms."""
        tables: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for gid, found in features.items():
            for feature, v in found.items():
                if feature not in tables:
                    dtype = np.int16 if feature == "exit" else self.feature_array(bf, feature).dtype
                    tables[feature] = (np.zeros(max_gid + 1, dtype=bool), np.zeros(max_gid + 1, dtype=dtype))
                has, value = tables[feature]
                has[gid] = True
                value[gid] = (COVER_VALUES[v] if feature == "cover" else DOOR_VALUES[v] if feature == "door"
                              else self.hazard_code(bf, v) if feature == "hazard" else v)
        return tables

    @staticmethod
    def feature_array(bf: Battlefield, feature: str) -> np.ndarray:
        return getattr(bf, BOOL_FEATURES.get(feature, feature))

    def firstgid_of(self, tiled: int) -> int:
        ts = self.tileset_of(tiled)
        return int(ts.get("firstgid")) if ts is not None else 0

    def tileset_name(self, tiled: int) -> str:
        ts = self.tileset_of(tiled)
        return f"tileset '{ts.get('name', '')}'" if ts is not None else "no tileset"

    def spend_cover(self, n: int) -> None:
        """Count tiles about to be looked at for an object against the map's budget, before looking."""
        self.cover_work += n
        if self.cover_work > MAX_COVER_WORK:
            raise MapError(self.file, f"its objects cover more than {MAX_COVER_WORK:,} tiles in all (counting "
                                      "each polygon edge over each row it spans); use fewer or smaller objects")

    def object_cells(self, bf: Battlefield, obj, offset) -> np.ndarray | None:
        """The flat indexes (row × width + column) of the tiles an object covers: rectangles the tiles they overlap,
        points the tile they are in, polygons the tiles whose centre is inside, polylines the tiles
        they pass over; row by row, except polylines, in the order they pass. None for an object
        with a coordinate that is not a number within ±MAX_COORDINATE."""
        tw, th = self.tile_w, self.tile_h
        ox, oy = offset
        rot = _num(getattr(obj, "rotation", 0) or 0, math.nan)
        w, h = _num(obj.width or 0, math.nan), _num(obj.height or 0, math.nan)
        x, y = _num(obj.x, math.nan) + ox, _num(obj.y, math.nan) + oy
        if not all(abs(v) <= MAX_COORDINATE for v in (x, y)) or not math.isfinite(rot):
            return None
        if hasattr(obj, "points"):
            pts = obj.apply_transformations() if rot else obj.points
            pts = np.array([(p[0], p[1]) for p in pts], dtype=np.float64).reshape(-1, 2) + (ox, oy)
            if not (np.abs(pts) <= MAX_COORDINATE).all():
                return None
            if obj.closed and len(pts) >= 3:
                cells = _polygon_cells(pts, tw, th, bf.width, bf.height, self.spend_cover)
                if len(cells):
                    return cells
            return _polyline_cells(pts, tw, th, bf.width, bf.height, self.spend_cover)
        if not (abs(w) <= MAX_COORDINATE and abs(h) <= MAX_COORDINATE):
            return None
        if w == 0 and h == 0:
            tx, ty = math.floor(x / tw), math.floor(y / th)
            return np.array([ty * bf.width + tx] if bf.inside((tx, ty)) else [], dtype=np.int64)
        if rot:
            c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
            if getattr(obj, "gid", 0):       # tile objects rotate around their bottom-left
                by = y + h
                corners = [(x + dx * c - (dy - h) * s, by + dx * s + (dy - h) * c)
                           for dx, dy in ((0, 0), (w, 0), (w, h), (0, h))]
            else:
                corners = [(x + dx * c - dy * s, y + dx * s + dy * c)
                           for dx, dy in ((0, 0), (w, 0), (w, h), (0, h))]
            pts = np.array(corners, dtype=np.float64)
            cells = _polygon_cells(pts, tw, th, bf.width, bf.height, self.spend_cover)
            return cells if len(cells) else _polyline_cells(pts, tw, th, bf.width, bf.height, self.spend_cover)
        x0, y0 = math.floor(x / tw), math.floor(y / th)
        x1 = max(x0, math.ceil((x + w) / tw) - 1)
        y1 = max(y0, math.ceil((y + h) / th) - 1)
        cols = np.arange(max(0, x0), min(bf.width, x1 + 1))
        rows = np.arange(max(0, y0), min(bf.height, y1 + 1))
        self.spend_cover(len(cols) * len(rows))
        return (rows[:, None] * bf.width + cols[None, :]).reshape(-1)

    def listed(self, bf: Battlefield, cells: np.ndarray) -> tuple[Tile, ...]:
        """An object's tiles as the rules read them, counted against the map's budget."""
        self.listed_tiles += len(cells)
        if self.listed_tiles > MAX_LISTED_TILES:
            raise MapError(self.file, f"its spawn zones, objectives and other listed objects cover more than "
                                      f"{MAX_LISTED_TILES:,} tiles in all")
        ys, xs = np.divmod(cells, bf.width)
        return tuple(zip(xs.tolist(), ys.tolist()))

    def apply_objects(self, bf: Battlefield, group) -> None:
        lname = group.name or ""
        offset = (_num(getattr(group, "offsetx", 0) or 0), _num(getattr(group, "offsety", 0) or 0))
        group_features = self.feature_values(group.properties, f"layer '{lname}'")
        lowered = lname.lower()
        named_blocker = any(w in lowered for w in COLLISION_NAME_WORDS)
        spawn_sets: dict[int, set[Tile]] = {side: set(tiles) for side, tiles in bf.spawn.items()}
        for obj in group:
            kind = str(getattr(obj, "type", None) or obj.properties.get("class") or
                       getattr(obj, "class", "") or "").strip().lower()
            place = f"layer '{lname}': object {obj.id}" + (f" '{obj.name}'" if obj.name else "")
            cells = self.object_cells(bf, obj, offset)
            props = {k: v for k, v in obj.properties.items()}
            if kind and kind not in OBJECT_KINDS and kind not in TERRAIN_PRESETS:
                guess = self.close_match(kind, OBJECT_KINDS, 0.75)
                if guess:
                    self.warn(place, f"object type '{printable(kind, 60)}' is unknown; ignored",
                              f"did you mean '{guess}'?")
            if cells is None:
                self.warn(place, f"a coordinate or size of the object is not a number within ±{MAX_COORDINATE:,.0f} "
                                 "px; ignored", "move or resize it in Tiled")
                continue
            if not len(cells):
                if kind in OBJECT_KINDS:
                    self.warn(place, f"{kind} object lies outside the map; ignored",
                              "move it onto the map in Tiled")
                continue
            where = cells
            own_props = dict(props)
            if kind in TERRAIN_PRESETS:
                own_props.setdefault("terrain", kind)
            own = self.feature_values(own_props, place) if kind not in ("door", "cover", "exit") else {}
            if group_features:
                self.apply(bf, where, group_features)
            if kind == "wall":
                self.apply(bf, where, {"blocks_move": True, "blocks_sight": True})
            elif kind == "cover":
                level = str(props.get("cover", props.get("level", "light"))).lower()
                if level in COVER_VALUES:
                    self.apply(bf, where, {"cover": level})
                else:
                    self.unknown(place, "cover", level, COVER_VALUES)
            elif kind == "door":
                state = str(props.get("door", props.get("state", "closed"))).lower()
                if state in DOOR_VALUES:
                    self.apply(bf, where, {"door": state})
                else:
                    self.unknown(place, "door", state, DOOR_VALUES)
            elif kind == "exit":
                side = str(props.get("side", props.get("exit", "0"))).strip()
                if side in SIDE_VALUES:
                    self.apply(bf, where, {"exit": SIDE_VALUES[side]})
                else:
                    self.unknown(place, "side", side, SIDE_VALUES)
            if own:
                self.apply(bf, where, own)
            tiles = self.listed(bf, cells) if kind in LISTED_KINDS else ()
            if kind == "spawn":
                side = str(props.get("side", "0")).strip()
                if side not in SIDE_VALUES:
                    self.unknown(place, "side", side, SIDE_VALUES)
                else:
                    zone = bf.spawn.setdefault(SIDE_VALUES[side], [])
                    seen = spawn_sets.setdefault(SIDE_VALUES[side], set())
                    for t in tiles:
                        if t not in seen:
                            seen.add(t)
                            zone.append(t)
            if kind in LISTED_KINDS:
                bf.objects.append(MapObject(kind, str(obj.name or ""), tiles, props))
            if named_blocker and kind not in OBJECT_KINDS and not own and not group_features:
                self.apply(bf, where, {"blocks_move": True, "blocks_sight": True} if "wall" in lowered
                           else {"blocks_move": True})

    def apply_map_properties(self, bf: Battlefield, props: dict) -> None:
        bf.name = str(props.get("name") or self.path.stem)
        self.check_names(props, "map properties")
        if "cm_per_tile" in props:
            cm = _num(props["cm_per_tile"], -1)
            if cm > 0:
                bf.cm_per_tile = cm
            else:
                self.warn("map properties", f"cm_per_tile '{props['cm_per_tile']}' is not a positive "
                                            f"number; {DEFAULT_CM_PER_TILE} used",
                          "set cm_per_tile to the size of one tile on the table, in cm (e.g. 2.5)")
        if "landscape" in props:
            value = str(props["landscape"]).strip().lower()
            if value not in LANDSCAPES:
                self.unknown("map properties", "landscape", value, LANDSCAPES)
            else:
                props["landscape"] = value
        bf.properties.update({k: v for k, v in props.items() if k not in bf.properties})

    def default_spawns(self, bf: Battlefield) -> None:
        """Sides without spawn objects deploy on the leftmost (side 0) / rightmost (side 1)
        columns of the largest connected stretch of standable ground, nearest its middle row;
        as many tiles each (16 at most, half the ground at most)."""
        missing = [s for s in (0, 1) if not bf.spawn.get(s)]
        if not missing:
            return
        component = largest_area(bf.stand_mask(), corner_blockers(bf))
        count = int(component.sum())
        if not count:
            self.warn("map", "no tile can be stood on, so no spawn zone could be placed",
                      "mark open ground, or add spawn objects")
            for s in missing:
                bf.spawn[s] = []
            return
        per_side = min(DEFAULT_SPAWN_TILES, max(1, count // 2))
        columns = np.nonzero(component.any(axis=0))[0].tolist()
        order = {0: columns, 1: columns[::-1]}
        middle = _median_row(component)
        taken: set[Tile] = set(bf.spawn.get(0, [])) | set(bf.spawn.get(1, []))
        for side in missing:
            chosen: list[Tile] = []
            for x in order[side]:
                column = ((x, y) for y in np.nonzero(component[:, x])[0].tolist())
                free = sorted((t for t in column if t not in taken), key=lambda t: (abs(t[1] - middle), t[1]))
                chosen.extend(free[:per_side - len(chosen)])
                if len(chosen) >= per_side:
                    break
            bf.spawn[side] = chosen
            taken.update(chosen)
            if len(chosen) < 2:
                self.warn("map", f"side {side} has only {len(chosen)} tile(s) to deploy on",
                          "add a spawn object with a larger area")


def _median_row(mask: np.ndarray) -> float:
    """The median of the rows of a mask's tiles, as np.median of their row numbers, from the count
    of tiles per row (never a list of every tile)."""
    below = np.cumsum(mask.sum(axis=1))
    count = int(below[-1])
    lower, upper = np.searchsorted(below, [(count - 1) // 2, count // 2], side="right")
    return (int(lower) + int(upper)) / 2


def _tiles_of(array: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The Battlefield array as ``where`` indexes it: itself for a mask, flat for tile indexes."""
    return array if where.dtype == bool else array.reshape(-1)


def _tile_count(ts: ET.Element) -> int:
    """How many tile ids a tileset spans: tilecount, else its image grid, else its <tile> ids."""
    count = int(_num(ts.get("tilecount"), 0))
    image = ts.find("image")
    if image is not None and not count:
        tw, th = int(ts.get("tilewidth")), int(ts.get("tileheight"))
        sp, mg = int(_num(ts.get("spacing"))), int(_num(ts.get("margin")))
        cols = (int(_num(image.get("width"))) - 2 * mg + sp) // (tw + sp)
        rows = (int(_num(image.get("height"))) - 2 * mg + sp) // (th + sp)
        count = max(0, cols) * max(0, rows)
    return max([count] + [int(_num(t.get("id"))) + 1 for t in ts.findall("tile")])


def _polygon_cells(pts: np.ndarray, tw: int, th: int, width: int, height: int, spend) -> np.ndarray:
    """Flat indexes of the tiles whose centre lies inside the polygon (even-odd rule), row by
    row: each edge is met only on the rows it spans, so the work is the edges' rows plus the tiles
    found, never the polygon's bounding box times its points; edges are taken a few at a time, so
    memory stays small however many rows they span."""
    ax, ay = pts[:, 0], pts[:, 1]
    bx, by = np.roll(ax, 1), np.roll(ay, 1)           # edge i joins point i-1 to point i
    lo = np.clip(np.ceil(np.minimum(ay, by) / th - 0.5) - 1, 0, height).astype(np.int64)
    hi = np.clip(np.ceil(np.maximum(ay, by) / th - 0.5) + 1, 0, height).astype(np.int64)
    spans = np.maximum(0, hi - lo)
    spend(int(spans.sum()))
    rows, xcs = [], []
    ends = np.cumsum(spans)
    for first, last in _batches(ends, 1 << 20):
        n = spans[first:last]
        edge = np.repeat(np.arange(first, last), n)
        row = np.repeat(lo[first:last], n) + np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        yc = (row + 0.5) * th
        ya, yb = ay[edge], by[edge]
        crossing = (ya > yc) != (yb > yc)              # the test of the classic point-in-polygon loop
        edge, row, yc, ya, yb = edge[crossing], row[crossing], yc[crossing], ya[crossing], yb[crossing]
        xa, xb = ax[edge], bx[edge]
        rows.append(row)
        xcs.append((xb - xa) * (yc - ya) / (yb - ya) + xa)
    row, xc = np.concatenate(rows), np.concatenate(xcs)
    order = np.lexsort((xc, row))
    row, xc = row[order], xc[order]
    start, stop = row[0::2], row[1::2]
    if len(start) != len(stop) or (start != stop).any():
        return np.zeros(0, np.int64)
    first = np.clip(np.ceil(np.clip(xc[0::2] / tw, -1.0, width + 1.0) - 0.5), 0, width).astype(np.int64)
    last = np.clip(np.ceil(np.clip(xc[1::2] / tw, -1.0, width + 1.0) - 0.5), 0, width).astype(np.int64)
    count = np.maximum(0, last - first)
    spend(int(count.sum()))
    starts = np.repeat(start * width + first - (np.cumsum(count) - count), count)   # already row by row
    return starts + np.arange(int(count.sum()))


def _batches(ends: np.ndarray, size: int):
    """(first, last) ranges of items whose running total ``ends`` grows by about ``size`` each."""
    first = 0
    while first < len(ends):
        base = ends[first - 1] if first else 0
        last = max(first + 1, int(np.searchsorted(ends, base + size, side="right")))
        yield first, last
        first = last


def _polyline_cells(pts: np.ndarray, tw: int, th: int, width: int, height: int, spend) -> np.ndarray:
    """Flat indexes of the tiles a polyline passes over, in the order it passes: each segment,
    first cut to the map (so a point at 1e300 costs no more than the map's width), sampled every
    quarter of a tile."""
    a, b = pts[:-1], pts[1:]
    if len(pts) == 1:
        a, b = pts, pts
    t0, t1 = _clip(a, b, (-tw, -th, (width + 1) * tw, (height + 1) * th))
    keep = t0 <= t1
    a, b, t0, t1 = a[keep], b[keep], t0[keep, None], t1[keep, None]
    start = np.where(t0 == 0, a, a * (1 - t0) + b * t0)
    end = np.where(t1 == 1, b, a * (1 - t1) + b * t1)
    d = end - start
    steps = np.maximum(1, (np.hypot(d[:, 0], d[:, 1]) / (min(tw, th) / 4)).astype(np.int64))
    spend(int((steps + 1).sum()))
    found = []
    for first, last in _batches(np.cumsum(steps + 1), 1 << 20):
        n = steps[first:last] + 1
        seg = np.repeat(np.arange(first, last), n)
        i = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        px = start[seg, 0] + d[seg, 0] * i / steps[seg]
        py = start[seg, 1] + d[seg, 1] * i / steps[seg]
        cols, rows = np.floor(px / tw).astype(np.int64), np.floor(py / th).astype(np.int64)
        inside = (cols >= 0) & (cols < width) & (rows >= 0) & (rows < height)
        found.append(rows[inside] * width + cols[inside])
    cells = np.concatenate(found) if found else np.zeros(0, np.int64)
    _, first_seen = np.unique(cells, return_index=True)
    return cells[np.sort(first_seen)]


def _clip(a: np.ndarray, b: np.ndarray, box) -> tuple[np.ndarray, np.ndarray]:
    """Liang–Barsky: the parameters t0 ≤ t1 of the part of each segment a→b inside the box (t0 > t1
    when none is)."""
    x0, y0, x1, y1 = box
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    dx, dy = bx - ax, by - ay
    t0, t1 = np.zeros(len(ax)), np.ones(len(ax))
    with np.errstate(all="ignore"):
        for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
            r = q / p
            t0 = np.where(p < 0, np.maximum(t0, r), t0)
            t1 = np.where(p > 0, np.minimum(t1, r), t1)
            t1 = np.where((p == 0) & (q < 0), -1.0, t1)
    return t0, t1


def walkable(bf: Battlefield) -> np.ndarray:
    """Tiles a figure can cross on foot in some system: open doors, closed (not locked)
    doors and crawl gaps included; walls, climbable tiles, deep water and locked doors not."""
    return ~(bf.blocks_move | bf.climbable | bf.deep_water | (bf.door >= 3))


def corner_blockers(bf: Battlefield, shut_from: int = 2) -> np.ndarray:
    """Tiles whose corners a diagonal step may not cut (conventions.md 3.2): walls, climbable
    tiles and doors at or above ``shut_from`` (2: closed, 3: locked only)."""
    return bf.blocks_move | bf.climbable | (bf.door >= shut_from)
