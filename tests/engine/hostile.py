"""Hostile inputs, by the classes of issue 12: files a hostile map author or a careless player could
hand the game. Each builder writes its files into a folder and returns the file to load; the
fuzz tests (``test_bounds_fuzz.py``) draw the builders' parameters, ``test_bounds.py`` pins the
cases the issue names, and ``tools/fuzz_long.py`` runs both with many more cases.

``SECRET`` marks the content of files the loader has no business quoting: it must never appear
in a message or a warning.
"""
from __future__ import annotations

import base64
import json
import os
import zlib
from functools import lru_cache
from pathlib import Path

import zstandard

SECRET = "s3cr3t"
TS = ('<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="4" columns="2">'
      '<image source="t.png" width="32" height="32"/></tileset>')
CHUNK = 1 << 20


def tmx(w, h, body: str = "", tilesets: str = TS, tw=16, th=16, extra: str = "") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?><map version="1.10" orientation="orthogonal" '
            f'renderorder="right-down" width="{w}" height="{h}" tilewidth="{tw}" tileheight="{th}" '
            f'infinite="0"{extra}>{tilesets}{body}</map>')


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def csv_layer(w: int, h: int, gid: int = 1, name: str = "ground") -> str:
    return (f'<layer name="{name}" width="{w}" height="{h}"><data encoding="csv">'
            + ",".join([str(gid)] * (w * h)) + "</data></layer>")


# --- compressed zeros: a layer that inflates far beyond its declared size --------------------------

@lru_cache(maxsize=None)
def zeros(compression: str, size: int, sized_frame: bool = False) -> bytes:
    """``size`` zero bytes compressed; built a megabyte at a time, so a 2 GB bomb costs a few seconds
    to make and never sits in memory inflated. ``sized_frame``: a zstd frame that declares its size."""
    if compression == "zstd":
        cctx = zstandard.ZstdCompressor(level=19)
        if sized_frame:
            return cctx.compress(bytes(size)) if size <= 64 * CHUNK else _zstd_stream(cctx, size, size)
        return _zstd_stream(cctx, size, None)
    comp = zlib.compressobj(9, zlib.DEFLATED, 31 if compression == "gzip" else 15)
    block = bytes(CHUNK)
    out = [comp.compress(block) for _ in range(size // CHUNK)]
    out.append(comp.compress(bytes(size % CHUNK)))
    out.append(comp.flush())
    return b"".join(out)


def _zstd_stream(cctx, size: int, declared: int | None) -> bytes:
    import io

    sink = io.BytesIO()
    with cctx.stream_writer(sink, size=declared if declared is not None else -1, closefd=False) as writer:
        block = bytes(CHUNK)
        for _ in range(size // CHUNK):
            writer.write(block)
        writer.write(bytes(size % CHUNK))
    return sink.getvalue()


def bomb_map(folder: Path, compression: str, inflated: int, w: int = 64, h: int = 64, chunked: bool = False,
             sized_frame: bool = False) -> Path:
    """A map whose one layer (or one chunk of an infinite map) inflates to ``inflated`` bytes."""
    data = base64.b64encode(zeros(compression, inflated, sized_frame)).decode()
    if chunked:
        body = (f'<layer name="bomb" width="{w}" height="{h}"><data encoding="base64" compression="{compression}">'
                f'<chunk x="0" y="0" width="{w}" height="{h}">{data}</chunk></data></layer>')
        return write(folder, "bomb.tmx", tmx(w, h, body).replace('infinite="0"', 'infinite="1"'))
    body = (f'<layer name="bomb" width="{w}" height="{h}"><data encoding="base64" '
            f'compression="{compression}">{data}</data></layer>')
    return write(folder, "bomb.tmx", tmx(w, h, body))


# --- unbounded work ----------------------------------------------------------------------------

def empty_map(folder: Path, w: int, h: int) -> Path:
    """A map of w×h empty tiles in about a hundred bytes of compressed data."""
    data = base64.b64encode(zeros("zlib", 4 * w * h)).decode()
    body = (f'<layer name="ground" width="{w}" height="{h}"><data encoding="base64" compression="zlib">'
            f'{data}</data></layer>')
    return write(folder, "empty.tmx", tmx(w, h, body))


def shape_map(folder: Path, points: list[tuple[float, float]], closed: bool, kind: str = "wall",
              w: int = 8, h: int = 8, rotation: float = 0.0) -> Path:
    pts = " ".join(f"{x!r},{y!r}" for x, y in points)
    shape = "polygon" if closed else "polyline"
    body = (f'<objectgroup name="o"><object id="1" type="{kind}" x="0" y="0" rotation="{rotation!r}">'
            f'<{shape} points="{pts}"/></object></objectgroup>')
    return write(folder, "shape.tmx", tmx(w, h, csv_layer(w, h) + body))


def many(folder: Path, what: str, count: int, w: int = 64, h: int = 64) -> Path:
    """A map that repeats one element ``count`` times: objects, big rectangles, layers, tileset
    entries, properties with unknown names, references to one tileset, polygon points, or
    tile elements (the XML encoding)."""
    ground = csv_layer(w, h)
    if what == "objects":
        body = ground + '<objectgroup name="o">' + "".join(
            f'<object id="{i}" type="cover" x="16" y="16" width="32" height="32"/>' for i in range(count)) \
            + "</objectgroup>"
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "big_rectangles":
        body = ground + '<objectgroup name="o">' + "".join(
            f'<object id="{i}" type="cover" x="-1e9" y="-1e9" width="2e9" height="2e9"/>' for i in range(count)) \
            + "</objectgroup>"
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "spawn_rectangles":
        body = ground + '<objectgroup name="o">' + "".join(
            f'<object id="{i}" type="spawn" x="0" y="0" width="{16 * w}" height="{16 * h}"><properties>'
            f'<property name="side" value="{i % 2}"/></properties></object>' for i in range(count)) + "</objectgroup>"
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "layers":
        return write(folder, "many.tmx", tmx(w, h, "".join(csv_layer(w, h, name=f"l{i}") for i in range(count))))
    if what == "tiles":
        ts = ('<tileset firstgid="1" name="t" tilewidth="16" tileheight="16">' + "".join(
            f'<tile id="{i}"><properties><property name="cover" value="light"/></properties></tile>'
            for i in range(count)) + "</tileset>")
        return write(folder, "many.tmx", tmx(w, h, ground, ts))
    if what == "unknown_properties":
        props = "".join(f'<property name="cov{i}" value="x{i}"/>' for i in range(count))
        return write(folder, "many.tmx", tmx(w, h, f"<properties>{props}</properties>" + ground))
    if what == "tileset_references":
        write(folder, "t.tsx", TS.replace(' firstgid="1"', ""))
        refs = "".join(f'<tileset firstgid="{1 + 4 * i}" source="t.tsx"/>' for i in range(count))
        return write(folder, "many.tmx", tmx(w, h, ground, refs))
    if what == "template_references":
        write(folder, "t.tx", '<template><object type="cover" width="32" height="32"/></template>')
        body = ground + '<objectgroup name="o">' + "".join(
            f'<object id="{i}" template="t.tx" x="16" y="16"/>' for i in range(count)) + "</objectgroup>"
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "polygon_points":
        pts = " ".join(f"{(i * 7919) % (16 * w)},{(i * 104729) % (16 * h)}" for i in range(count))
        body = ground + (f'<objectgroup name="o"><object id="1" type="cover" x="0" y="0"><polygon points="{pts}"/>'
                         "</object></objectgroup>")
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "xml_tiles":
        body = f'<layer name="g" width="{w}" height="{h}"><data>' + '<tile gid="1"/>' * count + "</data></layer>"
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "distinct_gids":
        data = ",".join(str(1 + (i * 2654435761) % 2**28) for i in range(w * h))
        body = f'<layer name="g" width="{w}" height="{h}"><data encoding="csv">{data}</data></layer>'
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "nested_groups":
        body = "<group name='g'>" * count + ground + "</group>" * count
        return write(folder, "many.tmx", tmx(w, h, body))
    if what == "json_objects":
        doc = json_map(w, h)
        doc["layers"].append({"type": "objectgroup", "name": "o", "objects": [{}] * count})
        return write(folder, "many.tmj", json.dumps(doc, separators=(",", ":")))
    raise ValueError(what)


def many_within(folder: Path, what: str, count: int, w: int, h: int, limit: int) -> Path:
    """``many`` with the count cut so that the file stays within ``limit`` bytes (the size is
    measured on two small counts first, so a huge count is never built)."""
    one, two = (many(folder, what, n, w, h).stat().st_size for n in (1, 2))
    if one > limit:
        return many(folder, what, 1, w, h)
    count = max(1, min(count, (limit - one) // max(1, two - one) + 1))
    path = many(folder, what, count, w, h)
    while path.stat().st_size > limit and count > 1:       # the first repeats may cost more than the rest
        count = max(1, int(count * limit / path.stat().st_size * 0.999))
        path = many(folder, what, count, w, h)
    return path


MANY = ("objects", "big_rectangles", "spawn_rectangles", "layers", "tiles", "unknown_properties",
        "tileset_references", "template_references", "polygon_points", "xml_tiles", "distinct_gids",
        "nested_groups", "json_objects")


def json_map(w: int, h: int) -> dict:
    return {"type": "map", "orientation": "orthogonal", "width": w, "height": h, "tilewidth": 16, "tileheight": 16,
            "infinite": False, "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16,
                                             "tilecount": 4, "columns": 2, "image": "t.png", "imagewidth": 32,
                                             "imageheight": 32}],
            "layers": [{"type": "tilelayer", "name": "ground", "width": w, "height": h, "data": [1] * (w * h)}]}


# --- guards: sizes that are zero, negative or absurd ---------------------------------------------

SIZE_ATTRIBUTES = {
    "map": ("tilewidth", "tileheight", "width", "height"),
    "tileset": ("tilewidth", "tileheight", "spacing", "margin", "tilecount", "columns"),
    "image": ("width", "height"),
}


def sized_map(folder: Path, values: dict[tuple[str, str], str], external: bool = False) -> Path:
    """A small map whose map, tileset and image attributes take ``values`` ({(element, attribute): text})."""
    attrs = {"map": {"width": "8", "height": "8", "tilewidth": "16", "tileheight": "16"},
             "tileset": {"tilewidth": "16", "tileheight": "16", "tilecount": "4", "columns": "2"},
             "image": {"width": "32", "height": "32"}}
    for (element, attribute), value in values.items():
        attrs[element][attribute] = value
    image = "<image source=\"t.png\" " + " ".join(f'{k}="{v}"' for k, v in attrs["image"].items()) + "/>"
    ts_attrs = " ".join(f'{k}="{v}"' for k, v in attrs["tileset"].items())
    tileset = f'<tileset name="t" {ts_attrs}>{image}</tileset>'
    if external:
        write(folder, "t.tsx", tileset)
        tileset_ref = '<tileset firstgid="1" source="t.tsx"/>'
    else:
        tileset_ref = tileset.replace("<tileset ", '<tileset firstgid="1" ', 1)
    m = attrs["map"]
    body = csv_layer(8, 8)
    text = (f'<map orientation="orthogonal" width="{m["width"]}" height="{m["height"]}" tilewidth="{m["tilewidth"]}" '
            f'tileheight="{m["tileheight"]}">{tileset_ref}{body}</map>')
    return write(folder, "sized.tmx", text)


# --- confinement: references to files outside the map's reach -------------------------------------

def secret_files(outside: Path) -> dict[str, Path]:
    """Files a reference should never get quoted: a JSON tileset-like file whose keys are secret,
    a template whose property names and values are secret, an XML file whose root is secret, a
    plain text file, a FIFO and a link to a device."""
    outside.mkdir(parents=True, exist_ok=True)
    made = {
        "json_keys": write(outside, "keys.json", json.dumps({f"{SECRET}_key": 1, "type": "x",
                                                             "tiles": {f"{SECRET}_tile": {}}})),
        "json_tileset": write(outside, "tileset.json", json.dumps(
            {"type": "tileset", "name": f"{SECRET}_name", "tilewidth": 16, "tileheight": 16,
             "tiles": {f"{SECRET}_tile": {}}})),
        "template": write(outside, "secret.tx", '<template><object type="area"><properties>'
                                               f'<property name="{SECRET}_cover" value="{SECRET}_value"/>'
                                               f'<property name="cover" value="{SECRET}_level"/>'
                                               "</properties></object></template>"),
        "xml_root": write(outside, "root.xml", f"<{SECRET}_root><object type='{SECRET}'/></{SECRET}_root>"),
        "text": write(outside, "notes.txt", f"{SECRET} line one\n{SECRET} line two\n"),
    }
    fifo = outside / "pipe.tsx"
    if not fifo.exists():
        os.mkfifo(fifo)
    made["fifo"] = fifo
    link = outside / "zero.tsx"
    if not link.is_symlink():
        link.symlink_to("/dev/zero")
    made["device"] = link
    return made


REFERENCES = ("tileset", "template", "image", "image_layer", "tile_image")


def referring_map(folder: Path, reference: str, target: str) -> Path:
    """A map that refers to ``target`` (a path, absolute or relative) as its tileset, a template,
    its tileset image, an image layer or one tile's image."""
    ground = csv_layer(8, 8)
    if reference == "tileset":
        return write(folder, "ref.tmx", tmx(8, 8, ground, f'<tileset firstgid="1" source="{target}"/>'))
    if reference == "template":
        body = ground + f'<objectgroup name="o"><object id="1" template="{target}" x="16" y="16"/></objectgroup>'
        return write(folder, "ref.tmx", tmx(8, 8, body))
    if reference == "image":
        return write(folder, "ref.tmx", tmx(8, 8, ground, TS.replace('source="t.png" width="32" height="32"',
                                                                  f'source="{target}"')))
    if reference == "image_layer":
        layer = f'<imagelayer name="sky"><image source="{target}"/></imagelayer>'
        return write(folder, "ref.tmx", tmx(8, 8, ground + layer))
    if reference == "tile_image":
        ts = (f'<tileset firstgid="1" name="c" tilewidth="16" tileheight="16" tilecount="1" columns="0">'
              f'<tile id="0"><image source="{target}"/></tile></tileset>')
        return write(folder, "ref.tmx", tmx(8, 8, ground, ts))
    raise ValueError(reference)


# --- saves ---------------------------------------------------------------------------------------

def odd_saves(good: dict, outside: Path) -> dict[str, str]:
    """Texts of saves that must each be refused in one line: huge numbers, deep nesting, odd map
    paths (a folder, empty, a 10,000-character name, /dev/zero, a FIFO), lone surrogates."""
    text = json.dumps(good)
    fifo = outside / "map.fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    out = {
        "huge seed": text.replace(f'"seed": {good["seed"]}', '"seed": 1' + "0" * 5000),
        "huge side": text.replace('"side": 0', '"side": ' + "9" * 4000, 1),
        "huge turn limit": text.replace(f'"max_turns": {good["max_turns"]}', '"max_turns": ' + "9" * 4299),
        "deep nesting": text.replace('"answers": [', '"answers": [' + "[" * 100_000 + "]" * 100_000 + ", ", 1),
        "deep nesting in an army": text.replace('"figures": [', '"figures": [' + '{"a": ' * 500 + "1" + "}" * 500
                                                + ", ", 1),
    }
    for name, path in (("map path is a folder", str(outside)), ("map path is empty", ""),
                       ("map path is 10,000 characters", "m" * 10_000 + ".tmx"), ("map path is /dev/zero", "/dev/zero"),
                       ("map path is a FIFO", str(fifo))):
        out[name] = json.dumps(dict(good, map=dict(good["map"], path=path)))
    out["lone surrogate in the map path"] = text.replace(json.dumps(good["map"]["path"]),
                                                         json.dumps(good["map"]["path"] + "\ud800"))
    out["lone surrogate in an army name"] = json.dumps(dict(good, armies=[dict(a, name=a["name"] + "\udcff")
                                                                         for a in good["armies"]]))
    out["lone surrogate in the rules"] = json.dumps(dict(good, rules=dict(good["rules"], id="\ud83d")))
    out["lone surrogate in a key"] = text.replace('"seed"', '"\\ud800": 1, "seed"', 1)
    return out
