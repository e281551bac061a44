"""Tiled maps -> Battlefield: the map contract of docs/maps.md.

pytmx is the parser, but it chokes on much of what real Tiled maps contain (infinite maps,
zstd, the XML tile encoding, JSON maps and tilesets, fractional offsets, list and class
properties, templates, tilesets without image sizes). So the file is first *normalised*
with ElementTree into one self-contained finite TMX tree that pytmx reads without fail:
external tilesets inlined, data re-encoded as CSV, groups flattened, paths made absolute.
Every problem either becomes a warning (the map still plays) or a ``MapError`` naming the
file and the place; no other exception leaves ``load_map``.
"""
from __future__ import annotations

import base64
import difflib
import gzip
import json
import math
import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn
from xml.etree import ElementTree as ET

import numpy as np
import pytmx

from ..errors import MapError
from .areas import largest_area
from .battlefield import Battlefield, MapObject, Tile

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
MAX_TILES = 2048 * 2048          # a map larger than this is refused rather than filling memory
DEFAULT_SPAWN_TILES = 16


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


@dataclass
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
                while True:
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


def _decode_data(text: str | None, encoding: str | None, compression: str | None,
                 tiles: list[ET.Element]) -> list[int]:
    """Raw gids (flip bits kept) from any TMX data encoding."""
    if encoding is None:
        return [int(t.get("gid", "0")) for t in tiles]
    text = (text or "").strip()
    if encoding == "csv":
        return [int(v) for v in text.replace("\n", "").split(",") if v.strip()]
    if encoding != "base64":
        raise ValueError(f"unknown data encoding '{encoding}'")
    raw = base64.b64decode(text)
    if compression == "zlib":
        raw = zlib.decompress(raw)
    elif compression == "gzip":
        raw = gzip.decompress(raw)
    elif compression == "zstd":
        import zstandard
        raw = zstandard.ZstdDecompressor().decompressobj().decompress(raw)
    elif compression:
        raise ValueError(f"unknown compression '{compression}'")
    if len(raw) % 4:
        raise ValueError("layer data length is not a multiple of 4 bytes")
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def _bool(value) -> bool | None:
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off", ""):
        return False
    return None


def _num(text, default=0.0) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


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
            for k, v in tiles.items():
                if not k.strip().lstrip("-").isdigit():
                    raise MapError(self.file, f"{tiles_at}: key '{k}' should be a tile number")
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
            data = ET.SubElement(el, "data")
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
            data.set("encoding", "base64" if enc == "base64" else "csv")
            if comp:
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
        if encoding == "base64":
            if data is not None and not isinstance(data, str):
                self.wrong(where, "a base64 text (the layer's encoding is base64)", data)
            return data or ""
        if isinstance(data, str):
            self.wrong(where, "a list of numbers (the layer has no base64 encoding)", data)
        if data is not None and not isinstance(data, list):
            self.wrong(where, "a list of numbers or a base64 text", data)
        gids = []
        for i, g in enumerate(data or []):
            if isinstance(g, bool) or not isinstance(g, (int, float)) or not math.isfinite(g):
                self.wrong(f"{where}[{i}]", "a tile number", g)
            gids.append(str(int(g)))
        return ",".join(gids)

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
        self.exists_cache: dict[str, bool] = {}

    def warn(self, place: str, message: str, fix: str = "") -> None:
        issue = MapIssue(place, message, fix)
        if issue not in self.issues:
            self.issues.append(issue)

    def exists(self, path: str) -> bool:
        if path not in self.exists_cache:
            self.exists_cache[path] = os.path.isfile(path)
        return self.exists_cache[path]

    def read_tree(self, path: Path, what: str) -> ET.Element:
        """The map or a tileset it refers to, as TMX/TSX elements (JSON converted)."""
        if not os.path.isfile(path):
            raise MapError(self.file, f"{what} '{path.name}' not found (looked for {path})")
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise MapError(self.file, f"{what} '{path.name}' cannot be read: {exc.strerror}")
        if path.suffix.lower() in (".json", ".tmj", ".tsj") or text.lstrip()[:1] in (b"{", b"["):
            try:
                data = json.loads(text)
            except (ValueError, UnicodeDecodeError) as exc:
                line = getattr(exc, "lineno", "?")
                raise MapError(f"{path.name}, line {line}", f"malformed JSON: {exc}") from None
            if not isinstance(data, dict):
                raise MapError(path.name, "not a Tiled JSON file")
            reader = _JsonReader(path.name)
            return reader.map(data) if what == "map" else reader.tileset(data)
        try:
            return ET.fromstring(text)
        except ET.ParseError as exc:
            line, col = exc.position
            raise MapError(f"{path.name}, line {line}",
                           f"malformed XML (column {col}): {str(exc).split(':')[0]}") from None

    def load(self) -> LoadedMap:
        root = self.read_tree(self.path, "map")
        if root.tag != "map":
            raise MapError(self.file, f"not a Tiled map (the file holds a <{root.tag}>)")
        orientation = root.get("orientation", "orthogonal")
        if orientation != "orthogonal":
            raise MapError(self.file, f"orientation '{orientation}' is not supported: "
                                      "Escarmouche plays orthogonal maps only")
        self.tile_w = int(_num(root.get("tilewidth"), 0))
        self.tile_h = int(_num(root.get("tileheight"), 0))
        if self.tile_w <= 0 or self.tile_h <= 0:
            raise MapError(self.file, "the map has no tile size (tilewidth/tileheight)")
        self.normalise(root)
        return self.build(root)

    # --- normalisation ------------------------------------------------------------------
    def normalise(self, root: ET.Element) -> None:
        base = self.path.parent
        for ts in root.findall("tileset"):
            self.inline_tileset(root, ts, base)
        self.tilesets = sorted(root.findall("tileset"), key=lambda t: int(t.get("firstgid", "1")))
        layers = self.flatten(list(root), 0.0, 0.0, 1.0, True, {})
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
        for props in root.iter("properties"):
            self.clean_properties(props)
        for obj in root.iter("object"):
            self.fill_tile_object_size(obj)
        root.set("infinite", "0")

    def inline_tileset(self, root: ET.Element, ts: ET.Element, base: Path) -> None:
        firstgid = ts.get("firstgid", "1")
        source = ts.get("source")
        ts_base = base
        if source:
            ts_path = (base / source).resolve()
            loaded = self.read_tree(ts_path, "tileset")
            if loaded.tag != "tileset":
                raise MapError(self.file, f"tileset '{source}' is not a Tiled tileset")
            ts_base = ts_path.parent
            self.tileset_sources[str(ts_path)] = int(firstgid)
            ts.clear()
            ts.attrib.update(loaded.attrib)
            ts.extend(list(loaded))
            ts.set("firstgid", firstgid)
        name = ts.get("name") or (Path(source).stem if source else "tileset")
        place = f"tileset '{name}'"
        tw = int(_num(ts.get("tilewidth"), self.tile_w)) or self.tile_w
        th = int(_num(ts.get("tileheight"), self.tile_h)) or self.tile_h
        ts.set("tilewidth", str(tw))
        ts.set("tileheight", str(th))
        for key in ("spacing", "margin", "tilecount", "columns"):
            if ts.get(key) is not None:
                ts.set(key, str(int(_num(ts.get(key)))))
        image = ts.find("image")
        if image is not None:
            self.fix_image(image, ts_base, place, ts)
            if (int(image.get("width")) // tw) * (int(image.get("height")) // th) > MAX_TILES:   # pytmx cuts them all
                raise MapError(self.file, f"{place}: its image of {image.get('width')}×{image.get('height')} px "
                                          f"holds more than {MAX_TILES} tiles")
        for tile in ts.findall("tile"):
            for group in tile.findall("objectgroup"):
                if group.find("object") is not None:
                    self.collision_gids.add(int(firstgid) + int(_num(tile.get("id"))))
                tile.remove(group)
            kind = tile.get("class") or tile.get("type")
            if tile.get("width") and tile.get("height"):     # Tiled 1.9 sub-rectangle of an image
                self.subrects[int(firstgid) + int(_num(tile.get("id")))] = tuple(
                    int(_num(tile.get(k))) for k in ("x", "y", "width", "height"))
            for key in list(tile.attrib):      # legacy attributes (terrain corners…) are not properties
                if key != "id":
                    del tile.attrib[key]
            if kind:
                tile.set("type", kind)
            timage = tile.find("image")
            if timage is not None:
                self.fix_image(timage, ts_base, f"{place}: tile {tile.get('id')}", None)
        for extra in ("wangsets", "terraintypes", "transformations", "grid"):
            for node in ts.findall(extra):
                ts.remove(node)

    def fix_image(self, image: ET.Element, base: Path, place: str, ts: ET.Element | None) -> None:
        """Absolute source; width/height filled from the file header or the tile grid."""
        src = image.get("source")
        if not src:
            self.warn(place, "image has no file (embedded image data is not supported); "
                             "tiles drawn as placeholders", "save the image as a PNG file")
            image.set("source", "")
            full = ""
        else:
            full = str((base / src).resolve())
            image.set("source", full)
            if not self.exists(full):
                self.warn(place, f"image '{src}' not found; tiles drawn as placeholders",
                          f"put the image at {full} or fix the path in Tiled")
        if image.get("width") and image.get("height"):
            image.set("width", str(int(_num(image.get("width")))))
            image.set("height", str(int(_num(image.get("height")))))
            return
        size = image_size(full) if full and self.exists(full) else None
        if size is None and ts is not None:
            cols = int(_num(ts.get("columns"), 0))
            count = int(_num(ts.get("tilecount"), 0))
            if cols and count:
                tw, th = int(ts.get("tilewidth")), int(ts.get("tileheight"))
                sp, mg = int(_num(ts.get("spacing"))), int(_num(ts.get("margin")))
                rows = math.ceil(count / cols)
                size = (2 * mg + cols * tw + (cols - 1) * sp, 2 * mg + rows * th + (rows - 1) * sp)
        if size is None:
            size = (0, 0)
        image.set("width", str(size[0]))
        image.set("height", str(size[1]))

    def flatten(self, children, ox, oy, opacity, visible, inherited) -> list[ET.Element]:
        """Group layers dissolved into their children, passing on offset, opacity, visibility
        and properties, so draw order and layer properties survive."""
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
                out.extend(self.flatten(list(child), cx, cy, c_opacity, c_visible, props))
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
        """Decode every tile layer (chunks included) and re-encode it as plain CSV."""
        w, h = int(_num(root.get("width"))), int(_num(root.get("height")))
        if w * h > MAX_TILES:
            raise MapError(self.file, f"the map is {w}×{h} tiles; at most {MAX_TILES} tiles are supported")
        decoded = []
        bounds = None
        infinite = root.get("infinite") in ("1", "true")
        for lay in layers:
            name = lay.get("name", "")
            data = lay.find("data")
            chunks = [] if data is None else data.findall("chunk")
            try:
                if chunks:
                    parts = []
                    for ch in chunks:
                        cx, cy = int(ch.get("x")), int(ch.get("y"))
                        cw, chh = int(ch.get("width")), int(ch.get("height"))
                        gids = _decode_data(ch.text, data.get("encoding"), data.get("compression"),
                                            ch.findall("tile"))
                        if len(gids) != cw * chh:
                            raise ValueError(f"chunk at ({cx}, {cy}) has {len(gids)} tiles, "
                                             f"expected {cw * chh}")
                        parts.append((cx, cy, cw, chh, gids))
                        box = (cx, cy, cx + cw, cy + chh)
                        bounds = box if bounds is None else (
                            min(bounds[0], box[0]), min(bounds[1], box[1]),
                            max(bounds[2], box[2]), max(bounds[3], box[3]))
                    decoded.append((lay, parts))
                elif infinite:                  # an infinite map's layer without chunks is empty
                    decoded.append((lay, []))
                else:
                    gids = [] if data is None else _decode_data(
                        data.text, data.get("encoding"), data.get("compression"),
                        data.findall("tile"))
                    if data is not None and len(gids) != w * h:
                        raise ValueError(f"layer data has {len(gids)} tiles, expected {w}×{h}")
                    decoded.append((lay, gids or [0] * (w * h)))
            except MapError:
                raise
            except Exception as exc:
                raise MapError(f"{self.file}: layer '{name}'",
                               f"tile data cannot be decoded ({exc})") from None
        origin = (0, 0)
        if bounds is not None and infinite:
            origin = (bounds[0], bounds[1])
            w, h = bounds[2] - bounds[0], bounds[3] - bounds[1]
            root.set("width", str(w))
            root.set("height", str(h))
            self.shift = (-origin[0] * self.tile_w, -origin[1] * self.tile_h)
        else:
            self.shift = (0, 0)
        if w * h > MAX_TILES:
            raise MapError(self.file, f"the map is {w}×{h} tiles; at most {MAX_TILES} tiles are supported")
        for lay, content in decoded:
            if content and isinstance(content[0], tuple):
                grid = np.zeros((h, w), dtype=np.uint32)
                for cx, cy, cw, chh, gids in content:
                    arr = np.array(gids, dtype=np.uint32).reshape(chh, cw)
                    x0, y0 = cx - origin[0], cy - origin[1]
                    xs, ys = max(0, x0), max(0, y0)
                    xe, ye = min(w, x0 + cw), min(h, y0 + chh)
                    if xe > xs and ye > ys:
                        grid[ys:ye, xs:xe] = arr[ys - y0:ye - y0, xs - x0:xe - x0]
                flat = grid.ravel().tolist()
            elif not content:
                flat = [0] * (w * h)
            else:
                flat = content
            data = lay.find("data")
            if data is not None:
                lay.remove(data)
            data = ET.SubElement(lay, "data", encoding="csv")
            data.text = ",".join(map(str, flat)) if flat else "0"
            lay.set("width", str(w))
            lay.set("height", str(h))

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
        tpath = (base / src).resolve()
        if not os.path.isfile(tpath):
            self.warn(place, f"template '{src}' not found; the object keeps only its own data",
                      f"put the template at {tpath}")
            return
        try:
            tree = ET.fromstring(tpath.read_bytes())
        except ET.ParseError as exc:
            raise MapError(f"{tpath.name}, line {exc.position[0]}", "malformed XML template") from None
        tobj = tree.find("object")
        if tobj is None:
            return
        own_gid = obj.get("gid")
        for key, value in tobj.attrib.items():
            if key not in obj.attrib and key != "id":
                obj.set(key, value)
        if tobj.get("gid") and not own_gid:
            obj.set("gid", str(self.template_gid(root, tree, tpath, int(tobj.get("gid")))))
        tprops = tobj.find("properties")
        if tprops is not None:
            props = obj.find("properties")
            if props is None:
                props = ET.SubElement(obj, "properties")
            own = {p.get("name") for p in props.findall("property")}
            for p in tprops.findall("property"):
                if p.get("name") not in own:
                    props.append(p)
        if not any(obj.find(t) is not None for t in ("ellipse", "point", "polygon", "polyline", "text")):
            for t in ("ellipse", "point", "polygon", "polyline", "text"):
                node = tobj.find(t)
                if node is not None:
                    obj.append(node)

    def template_gid(self, root: ET.Element, tree: ET.Element, tpath: Path, gid: int) -> int:
        """A template's gid counts in the template's own tileset list: map it into the map's."""
        flags = gid & ~GID_MASK
        ref = tree.find("tileset")
        if ref is None or not ref.get("source"):
            return gid
        ts_path = (tpath.parent / ref.get("source")).resolve()
        local = (gid & GID_MASK) - int(ref.get("firstgid", "1"))
        key = str(ts_path)
        if key not in self.tileset_sources:
            last = max((int(t.get("firstgid")) + _tile_count(t) for t in root.findall("tileset")),
                       default=1)
            ts = ET.Element("tileset", firstgid=str(last), source=os.path.relpath(ts_path, self.path.parent))
            self.inline_tileset(root, ts, self.path.parent)
            root.insert(0, ts)
            self.tilesets = sorted(root.findall("tileset"), key=lambda t: int(t.get("firstgid", "1")))
        return (self.tileset_sources[key] + local) | flags

    def fix_image_layer(self, lay: ET.Element, base: Path) -> None:
        image = lay.find("image")
        if image is None or not image.get("source"):
            if image is not None:
                lay.remove(image)
            ET.SubElement(lay, "image")
            return
        full = str((base / image.get("source")).resolve())
        if not self.exists(full):
            self.warn(f"image layer '{lay.get('name', '')}'", f"image '{image.get('source')}' not found",
                      "fix the path in Tiled")
        image.set("source", full)

    def fill_tile_object_size(self, obj: ET.Element) -> None:
        if not obj.get("gid") or (obj.get("width") and obj.get("height")):
            return
        gid = int(_num(obj.get("gid"))) & GID_MASK
        ts = self.tileset_of(gid)
        if ts is None:
            return
        w, h = ts.get("tilewidth"), ts.get("tileheight")
        for tile in ts.findall("tile"):
            if int(_num(tile.get("id"))) == gid - int(ts.get("firstgid")):
                img = tile.find("image")
                if img is not None and img.get("width"):
                    w, h = img.get("width"), img.get("height")
        obj.set("width", obj.get("width") or w)
        obj.set("height", obj.get("height") or h)

    def tileset_of(self, gid: int) -> ET.Element | None:
        found = None
        for ts in self.tilesets:
            if int(ts.get("firstgid")) <= gid:
                found = ts
        return found

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
        layers, tiles = [], {}
        for layer in tm.layers:
            if isinstance(layer, pytmx.TiledTileLayer):
                gids = np.array(layer.data, dtype=np.uint32).reshape(height, width)
                layers.append(RenderLayer(layer.name or "", gids, bool(layer.visible),
                                          float(layer.opacity),
                                          (float(layer.offsetx), float(layer.offsety))))
                self.apply_tile_layer(bf, layer, gids, props_by_gid)
        for gid in range(1, max_gid):
            tiles[gid] = self.tile_image(tm, gid)
        self.check_gids(layers)
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

    def check_gids(self, layers: list[RenderLayer]) -> None:
        for lay in layers:
            used = np.unique(lay.gids)
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
                guess = difflib.get_close_matches(key.lower(), KNOWN_NAMES, n=1, cutoff=0.85)
                if guess and guess[0] != key.lower():
                    self.warn(place, f"property '{key}' is not one the game reads; ignored",
                              f"did you mean '{guess[0]}'?")

    def unknown(self, place: str, name: str, value, allowed) -> None:
        allowed = list(allowed)
        guess = difflib.get_close_matches(str(value).lower(), allowed, n=1)
        hint = f"did you mean '{guess[0]}'? " if guess else ""
        self.warn(place, f"{name} '{value}' is not a known value; ignored",
                  f"{hint}use one of: {', '.join(allowed)}")

    def hazard_code(self, bf: Battlefield, hazard: str) -> int:
        codes = bf.properties["hazard_ids"]
        for code, name in codes.items():
            if name == hazard:
                return code
        code = max(codes) + 1
        codes[code] = hazard
        return code

    def apply(self, bf: Battlefield, mask: np.ndarray, features: dict) -> None:
        """Write features on the tiles of ``mask``: what a later layer says wins."""
        for name, value in features.items():
            if name in BOOL_FEATURES:
                getattr(bf, BOOL_FEATURES[name])[mask] = value
            elif name == "cover":
                bf.cover[mask] = COVER_VALUES[value]
            elif name == "door":
                bf.door[mask] = DOOR_VALUES[value]
            elif name == "terrain_cost":
                bf.terrain_cost[mask] = value
            elif name == "exit":
                self.apply_exit(bf, mask, value)
            elif name == "hazard":
                bf.hazard[mask] = self.hazard_code(bf, value)

    def apply_exit(self, bf: Battlefield, mask: np.ndarray, side: int) -> None:
        """Exit tiles lie on the map edge (conventions.md 7); inner ones are ignored, with a
        warning, which also keeps other games' warp objects named "exit" harmless."""
        edge = np.zeros_like(mask)
        edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
        inner = mask & ~edge
        if inner.any():
            y, x = (int(v[0]) for v in np.nonzero(inner))
            self.warn(f"tile ({x}, {y})", f"{int(inner.sum())} exit tile(s) not on the map edge are ignored",
                      "exits belong on the outer row or column of the map")
        bf.exit_side[mask & edge] = side

    def apply_tile_layer(self, bf, layer, gids, props_by_gid) -> None:
        """Layer properties, then tile properties, then the foreign layer-name convention."""
        name = layer.name or ""
        place = f"layer '{name}'"
        non_empty = gids != 0
        layer_features = self.feature_values(layer.properties, place)
        game_aware = bool(layer_features)
        per_gid = {}
        for gid in np.unique(gids):
            gid = int(gid)
            if gid and props_by_gid.get(gid):
                tiled = self.gid_info.get(gid, (gid,))[0]
                f = self.feature_values(props_by_gid[gid], f"tile {tiled - self.firstgid_of(tiled)} "
                                                           f"of {self.tileset_name(tiled)}")
                if f:
                    per_gid[gid] = f
                if any(k in props_by_gid[gid] for k in FEATURE_PROPERTIES):
                    game_aware = True
        if layer_features:
            self.apply(bf, non_empty, layer_features)
        for gid, f in per_gid.items():
            self.apply(bf, gids == gid, f)
        lowered = name.lower()
        if not game_aware and any(w in lowered for w in COLLISION_NAME_WORDS):
            bf.blocks_move[non_empty] = True
            if "wall" in lowered:
                bf.blocks_sight[non_empty] = True

    def firstgid_of(self, tiled: int) -> int:
        ts = self.tileset_of(tiled)
        return int(ts.get("firstgid")) if ts is not None else 0

    def tileset_name(self, tiled: int) -> str:
        ts = self.tileset_of(tiled)
        return f"tileset '{ts.get('name', '')}'" if ts is not None else "no tileset"

    def object_tiles(self, bf: Battlefield, obj, offset) -> tuple[Tile, ...]:
        """Tiles an object covers: rectangles the tiles they overlap, points the tile they are in,
        polygons the tiles whose centre is inside, polylines the tiles they pass over."""
        tw, th = self.tile_w, self.tile_h
        ox, oy = offset
        rot = float(getattr(obj, "rotation", 0) or 0)
        w, h = float(obj.width or 0), float(obj.height or 0)
        if hasattr(obj, "points"):
            pts = [(p[0] + ox, p[1] + oy) for p in (obj.apply_transformations() if rot else obj.points)]
            if obj.closed and len(pts) >= 3:
                tiles = self.polygon_tiles(bf, pts)
                if tiles:
                    return tiles
            return self.polyline_tiles(bf, pts)
        x, y = float(obj.x) + ox, float(obj.y) + oy
        if w == 0 and h == 0:
            tx, ty = math.floor(x / tw), math.floor(y / th)
            return ((tx, ty),) if bf.inside((tx, ty)) else ()
        if rot:
            c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
            if getattr(obj, "gid", 0):       # tile objects rotate around their bottom-left
                by = y + h
                corners = [(x + dx * c - (dy - h) * s, by + dx * s + (dy - h) * c)
                           for dx, dy in ((0, 0), (w, 0), (w, h), (0, h))]
            else:
                corners = [(x + dx * c - dy * s, y + dx * s + dy * c)
                           for dx, dy in ((0, 0), (w, 0), (w, h), (0, h))]
            return self.polygon_tiles(bf, corners) or self.polyline_tiles(bf, corners)
        x0, y0 = math.floor(x / tw), math.floor(y / th)
        x1 = max(x0, math.ceil((x + w) / tw) - 1)
        y1 = max(y0, math.ceil((y + h) / th) - 1)
        return tuple((tx, ty) for ty in range(max(0, y0), min(bf.height, y1 + 1))
                     for tx in range(max(0, x0), min(bf.width, x1 + 1)))

    def polygon_tiles(self, bf, pts) -> tuple[Tile, ...]:
        tw, th = self.tile_w, self.tile_h
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        out = []
        for ty in range(max(0, math.floor(min(ys) / th)), min(bf.height, math.ceil(max(ys) / th))):
            for tx in range(max(0, math.floor(min(xs) / tw)), min(bf.width, math.ceil(max(xs) / tw))):
                if _inside_polygon(((tx + 0.5) * tw, (ty + 0.5) * th), pts):
                    out.append((tx, ty))
        return tuple(out)

    def polyline_tiles(self, bf, pts) -> tuple[Tile, ...]:
        tw, th = self.tile_w, self.tile_h
        seen: dict[Tile, None] = {}
        for (ax, ay), (bx, by) in zip(pts, pts[1:] or pts):
            steps = max(1, int(math.hypot(bx - ax, by - ay) / (min(tw, th) / 4)))
            for i in range(steps + 1):
                px, py = ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps
                t = (math.floor(px / tw), math.floor(py / th))
                if bf.inside(t):
                    seen[t] = None
        return tuple(seen)

    def apply_objects(self, bf: Battlefield, group) -> None:
        lname = group.name or ""
        offset = (float(getattr(group, "offsetx", 0) or 0), float(getattr(group, "offsety", 0) or 0))
        group_features = self.feature_values(group.properties, f"layer '{lname}'")
        lowered = lname.lower()
        named_blocker = any(w in lowered for w in COLLISION_NAME_WORDS)
        for obj in group:
            kind = str(getattr(obj, "type", None) or obj.properties.get("class") or
                       getattr(obj, "class", "") or "").strip().lower()
            place = f"layer '{lname}': object {obj.id}" + (f" '{obj.name}'" if obj.name else "")
            tiles = self.object_tiles(bf, obj, offset)
            props = {k: v for k, v in obj.properties.items()}
            if kind and kind not in OBJECT_KINDS and kind not in TERRAIN_PRESETS:
                guess = difflib.get_close_matches(kind, OBJECT_KINDS, n=1, cutoff=0.75)
                if guess:
                    self.warn(place, f"object type '{kind}' is unknown; ignored",
                              f"did you mean '{guess[0]}'?")
            if not tiles:
                if kind in OBJECT_KINDS:
                    self.warn(place, f"{kind} object lies outside the map; ignored",
                              "move it onto the map in Tiled")
                continue
            mask = np.zeros((bf.height, bf.width), dtype=bool)
            for tx, ty in tiles:
                mask[ty, tx] = True
            own_props = dict(props)
            if kind in TERRAIN_PRESETS:
                own_props.setdefault("terrain", kind)
            own = self.feature_values(own_props, place) if kind not in ("door", "cover", "exit") else {}
            if group_features:
                self.apply(bf, mask, group_features)
            if kind == "wall":
                self.apply(bf, mask, {"blocks_move": True, "blocks_sight": True})
            elif kind == "cover":
                level = str(props.get("cover", props.get("level", "light"))).lower()
                if level in COVER_VALUES:
                    self.apply(bf, mask, {"cover": level})
                else:
                    self.unknown(place, "cover", level, COVER_VALUES)
            elif kind == "door":
                state = str(props.get("door", props.get("state", "closed"))).lower()
                if state in DOOR_VALUES:
                    self.apply(bf, mask, {"door": state})
                else:
                    self.unknown(place, "door", state, DOOR_VALUES)
            elif kind == "exit":
                side = str(props.get("side", props.get("exit", "0"))).strip()
                if side in SIDE_VALUES:
                    self.apply(bf, mask, {"exit": SIDE_VALUES[side]})
                else:
                    self.unknown(place, "side", side, SIDE_VALUES)
            if own:
                self.apply(bf, mask, own)
            if kind == "spawn":
                side = str(props.get("side", "0")).strip()
                if side not in SIDE_VALUES:
                    self.unknown(place, "side", side, SIDE_VALUES)
                else:
                    bf.spawn.setdefault(SIDE_VALUES[side], [])
                    bf.spawn[SIDE_VALUES[side]].extend(t for t in tiles if t not in bf.spawn[SIDE_VALUES[side]])
            if kind in LISTED_KINDS:
                bf.objects.append(MapObject(kind, str(obj.name or ""), tiles, props))
            if named_blocker and kind not in OBJECT_KINDS and not own and not group_features:
                bf.blocks_move[mask] = True
                if "wall" in lowered:
                    bf.blocks_sight[mask] = True

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
        middle = float(np.median(np.nonzero(component)[0]))
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


def _inside_polygon(point, pts) -> bool:
    x, y = point
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def walkable(bf: Battlefield) -> np.ndarray:
    """Tiles a figure can cross on foot in some system: open doors, closed (not locked)
    doors and crawl gaps included; walls, climbable tiles, deep water and locked doors not."""
    return ~(bf.blocks_move | bf.climbable | bf.deep_water | (bf.door >= 3))


def corner_blockers(bf: Battlefield, shut_from: int = 2) -> np.ndarray:
    """Tiles whose corners a diagonal step may not cut (conventions.md 3.2): walls, climbable
    tiles and doors at or above ``shut_from`` (2: closed, 3: locked only)."""
    return bf.blocks_move | bf.climbable | (bf.door >= shut_from)
