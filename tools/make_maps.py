"""Draw Escarmouche's tile art and write the shipped maps (run from the repository root).

    SDL_VIDEODRIVER=dummy python tools/make_maps.py

Everything is procedural (numpy arrays, pygame only to write PNG files and label the docs
pictures), seeded, so running it twice gives the same files. Outputs:
  assets/tiles/terrain.png        the tileset picture (32×32 tiles)
  maps/terrain.tsx                the tileset, carrying the game properties of every tile
  maps/*.tmx                      ruined_town, forest_village, great_battlefield, sky_deck
  docs/img/*.png                  tileset sheet and map previews for docs/maps.md
"""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

import json

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402  (after the SDL settings)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from game.engine.objectives import KINDS as OBJECTIVE_KINDS  # noqa: E402
from game.engine.tiled import (COVER_VALUES, DOOR_VALUES, KNOWN_HAZARDS, LANDSCAPES,  # noqa: E402
                               TERRAIN_PRESETS)
TS = 32
COLUMNS = 8

# --- the tiles: name -> (game properties, drawing) ------------------------------------------
# Properties are the map contract of docs/maps.md; each tile says exactly what it is.
TILES: list[tuple[str, dict]] = [
    ("grass", {}),
    ("dirt", {}),
    ("road", {}),
    ("floor", {}),
    ("cobbles", {}),
    ("deck", {}),
    ("mud", {"terrain_cost": 1.5}),
    ("shallow_water", {"terrain_cost": 2.0}),
    ("deep_water", {"deep_water": True}),
    ("wall", {"wall": True}),
    ("wood_wall", {"wall": True}),
    ("low_wall", {"blocks_move": True, "cover": "light"}),
    ("hedge", {"blocks_sight": True}),
    ("door_closed", {"door": "closed"}),
    ("door_open", {"door": "open"}),
    ("door_locked", {"door": "locked"}),
    ("rubble", {"cover": "light", "hiding_place": True}),
    ("ruin", {"cover": "heavy"}),
    ("crates", {"cover": "heavy"}),
    ("sandbags", {"cover": "heavy"}),
    ("barbed_wire", {"crawl_only": True}),
    ("crawl_hole", {"crawl_only": True, "blocks_sight": True}),
    ("climbable_wall", {"climbable": True, "blocks_sight": True}),
    ("tree", {"climbable": True, "hiding_place": True, "perch": True}),
    ("bush", {"cover": "light", "hiding_place": True}),
    ("manhole", {"trap_spot": True, "hiding_place": True}),
    ("campfire", {"hazard": "campfire"}),
    ("rail", {"blocks_move": True, "cover": "light"}),
    ("mast", {"climbable": True, "perch": True}),
    ("sky", {"blocks_move": True}),
]
GID = {name: i + 1 for i, (name, _) in enumerate(TILES)}

# --- drawing helpers ----------------------------------------------------------------------

YY, XX = np.mgrid[0:TS, 0:TS].astype(np.float32)


def rng_for(name: str) -> np.random.Generator:
    return np.random.default_rng(sum(ord(c) * (i + 1) for i, c in enumerate(name)))


def noisy(rng, colour, amp=14, blur=True) -> np.ndarray:
    base = np.array(colour, dtype=np.float32)
    n = rng.normal(0, 1, (TS, TS)).astype(np.float32)
    if blur:
        n = (n + np.roll(n, 1, 0) + np.roll(n, 1, 1) + np.roll(n, -1, 0) + np.roll(n, -1, 1)) / 2.2
    return base + n[..., None] * amp


def disc(cx, cy, r) -> np.ndarray:
    return (XX + 0.5 - cx) ** 2 + (YY + 0.5 - cy) ** 2 <= r * r


def rect(x0, y0, x1, y1) -> np.ndarray:
    return (XX >= x0) & (XX < x1) & (YY >= y0) & (YY < y1)


def segment(ax, ay, bx, by, width) -> np.ndarray:
    px, py = XX + 0.5, YY + 0.5
    dx, dy = bx - ax, by - ay
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy), 0, 1)
    return (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2 <= (width / 2) ** 2


def paint(img, mask, colour, rng=None, amp=0):
    colour = np.array(colour, dtype=np.float32)
    if rng is not None and amp:
        img[mask] = colour + rng.normal(0, amp, (int(mask.sum()), 1))
    else:
        img[mask] = colour
    return img


def grass(rng):
    img = noisy(rng, (78, 128, 58), 12)
    for _ in range(26):
        x, y = rng.integers(0, TS, 2)
        paint(img, segment(x, y, x + rng.integers(-2, 3), y - 4, 1.2), (58, 104, 42))
    return img


def dirt(rng):
    img = noisy(rng, (128, 98, 66), 12)
    for _ in range(8):
        x, y = rng.integers(2, TS - 2, 2)
        paint(img, disc(x, y, 1.3), (100, 76, 52))
    return img


def road(rng):
    img = noisy(rng, (92, 92, 96), 8, blur=False)
    for _ in range(5):
        x, y = rng.integers(0, TS, 2)
        paint(img, segment(x, y, x + rng.integers(-6, 7), y + rng.integers(-6, 7), 1), (70, 70, 74))
    return img


def planks(rng, colour, vertical=False):
    img = noisy(rng, colour, 7, blur=False)
    for i in range(0, TS, 8):
        line = rect(0, i, TS, i + 1) if not vertical else rect(i, 0, i + 1, TS)
        paint(img, line, np.array(colour) * 0.6)
        off = rng.integers(4, 28)
        joint = rect(off, i, off + 1, i + 8) if not vertical else rect(i, off, i + 8, off + 1)
        paint(img, joint, np.array(colour) * 0.65)
    return img


def cobbles(rng):
    img = noisy(rng, (80, 76, 72), 4)
    for row in range(4):
        for col in range(5):
            cx = col * 8 + (4 if row % 2 else 0)
            paint(img, disc(cx, row * 8 + 4, 3.6), (150, 142, 130), rng, 10)
    return img


def mud(rng):
    img = noisy(rng, (92, 70, 46), 14)
    for _ in range(3):
        x, y = rng.integers(6, 26, 2)
        paint(img, disc(x, y, rng.uniform(3, 5)), (70, 80, 86))
    return img


def water(rng, colour, ripple):
    img = noisy(rng, colour, 6)
    for _ in range(5):
        x, y = rng.integers(2, 26, 2)
        paint(img, segment(x, y, x + 6, y, 1), ripple)
    return img


def bricks(rng, colour, mortar=(170, 164, 150)):
    img = np.zeros((TS, TS, 3), np.float32) + np.array(mortar, np.float32)
    for row in range(4):
        shift = 0 if row % 2 else 8
        for col in range(-1, 3):
            x0 = col * 16 + shift
            paint(img, rect(x0 + 1, row * 8 + 1, x0 + 15, row * 8 + 7), colour, rng, 12)
    return img


def low_wall(rng):
    img = grass(rng)
    paint(img, rect(0, 10, TS, 22), (60, 58, 54))
    for col in range(4):
        paint(img, rect(col * 8 + 1, 11, col * 8 + 7, 21), (150, 146, 136), rng, 10)
    return img


def hedge(rng):
    img = noisy(rng, (34, 82, 34), 16)
    for _ in range(14):
        x, y = rng.integers(0, TS, 2)
        paint(img, disc(x, y, rng.uniform(2, 4)), (48, 104, 44), rng, 8)
    return img


def door(rng, state):
    img = planks(rng, (120, 96, 70))
    paint(img, rect(0, 0, 4, TS) | rect(28, 0, TS, TS), (150, 146, 136))
    if state == "open":
        paint(img, rect(4, 0, 8, TS), (110, 70, 36))
    else:
        paint(img, rect(4, 2, 28, 30), (120, 74, 38), rng, 6)
        for y in (8, 16, 24):
            paint(img, rect(4, y, 28, y + 1), (84, 50, 24))
        paint(img, disc(23, 17, 1.6), (40, 40, 40))
        if state == "locked":
            paint(img, rect(12, 12, 20, 20), (222, 186, 40))
            paint(img, rect(15, 14, 17, 18), (40, 40, 40))
    return img


def rubble(rng):
    img = dirt(rng)
    for _ in range(11):
        x, y = rng.integers(3, 29, 2)
        paint(img, disc(x, y, rng.uniform(1.8, 3.5)), (130, 124, 116), rng, 14)
    return img


def ruin(rng):
    img = rubble(rng)
    paint(img, rect(2, 2, 30, 12) | rect(2, 2, 12, 30), (150, 80, 60), rng, 14)
    paint(img, rect(2, 6, 30, 7) | rect(6, 2, 7, 30), (170, 164, 150))
    return img


def crates(rng):
    img = dirt(rng)
    for x0, y0, s in ((2, 3, 16), (15, 13, 16)):
        box = rect(x0, y0, x0 + s, y0 + s)
        paint(img, box, (168, 122, 64), rng, 6)
        paint(img, box & ~rect(x0 + 2, y0 + 2, x0 + s - 2, y0 + s - 2), (110, 76, 36))
        paint(img, segment(x0 + 2, y0 + 2, x0 + s - 2, y0 + s - 2, 1.6) & box, (110, 76, 36))
    return img


def sandbags(rng):
    img = dirt(rng)
    for row in range(3):
        for col in range(3):
            cx = col * 11 + (5 if row % 2 else 0) + 2
            paint(img, (((XX - cx) / 6) ** 2 + ((YY - row * 10 - 5) / 4.2) ** 2) <= 1, (196, 178, 128), rng, 8)
    return img


def barbed_wire(rng):
    img = dirt(rng)
    for y in (9, 22):
        paint(img, segment(0, y, TS, y + 2, 1.2), (50, 50, 54))
    paint(img, segment(2, 4, 30, 28, 1.2) | segment(2, 28, 30, 4, 1.2), (60, 60, 64))
    for x in (5, 16, 27):
        paint(img, rect(x - 1, 2, x + 1, 30), (92, 64, 40))
    return img


def crawl_hole(rng):
    img = bricks(rng, (150, 80, 60))
    paint(img, (((XX - 16) / 11) ** 2 + ((YY - 32) / 12) ** 2) <= 1, (20, 18, 16))
    return img


def climbable_wall(rng):
    img = bricks(rng, (120, 118, 112))
    for x in (9, 22):
        paint(img, rect(x, 0, x + 2, TS), (214, 180, 60))
    for y in range(3, TS, 7):
        paint(img, rect(9, y, 24, y + 2), (214, 180, 60))
    return img


def tree(rng):
    img = grass(rng)
    paint(img, disc(16, 17, 14), (24, 60, 24))
    paint(img, disc(16, 16, 12.5), (40, 100, 36), rng, 10)
    for _ in range(8):
        x, y = rng.integers(8, 24, 2)
        paint(img, disc(x, y, 3), (60, 128, 50), rng, 8)
    paint(img, disc(16, 16, 2), (92, 62, 30))
    return img


def bush(rng):
    img = grass(rng)
    for x, y, r in ((11, 14, 7), (20, 12, 6), (18, 21, 7)):
        paint(img, disc(x, y, r), (36, 92, 34), rng, 8)
        paint(img, disc(x - 1, y - 1, r - 3), (64, 124, 54), rng, 6)
    return img


def manhole(rng):
    img = road(rng)
    paint(img, disc(16, 16, 11), (46, 44, 44))
    paint(img, disc(16, 16, 9.5), (74, 70, 66))
    for y in range(9, 24, 4):
        paint(img, rect(8, y, 24, y + 1) & disc(16, 16, 9), (46, 44, 44))
    return img


def campfire(rng):
    img = dirt(rng)
    for a in range(10):
        ang = a * math.tau / 10
        paint(img, disc(16 + 10 * math.cos(ang), 16 + 10 * math.sin(ang), 3), (120, 116, 110), rng, 10)
    paint(img, disc(16, 17, 6.5), (230, 110, 20))
    paint(img, disc(16, 15, 3.5), (255, 214, 80))
    return img


def rail(rng):
    img = planks(rng, (176, 140, 96), vertical=True)
    paint(img, rect(0, 12, TS, 20), (96, 58, 30), rng, 6)
    paint(img, rect(0, 13, TS, 15), (140, 92, 50))
    for x in (4, 20):
        paint(img, rect(x, 10, x + 4, 22), (70, 42, 20))
    return img


def mast(rng):
    img = planks(rng, (176, 140, 96), vertical=True)
    paint(img, rect(0, 14, TS, 18), (92, 58, 30))
    paint(img, disc(16, 16, 8), (60, 36, 16))
    paint(img, disc(16, 16, 6), (110, 70, 36), rng, 6)
    return img


def sky(rng):
    img = noisy(rng, (150, 196, 236), 5)
    for _ in range(3):
        x, y = rng.integers(4, 28, 2)
        paint(img, disc(x, y, rng.uniform(3, 6)), (236, 242, 250), rng, 4)
    return img


DRAW = {
    "grass": grass, "dirt": dirt, "road": road,
    "floor": lambda r: planks(r, (150, 112, 74)), "cobbles": cobbles,
    "deck": lambda r: planks(r, (176, 140, 96), vertical=True), "mud": mud,
    "shallow_water": lambda r: water(r, (86, 150, 196), (150, 200, 230)),
    "deep_water": lambda r: water(r, (24, 52, 120), (60, 90, 160)),
    "wall": lambda r: bricks(r, (150, 80, 60)), "wood_wall": lambda r: planks(r, (96, 60, 30)),
    "low_wall": low_wall, "hedge": hedge,
    "door_closed": lambda r: door(r, "closed"), "door_open": lambda r: door(r, "open"),
    "door_locked": lambda r: door(r, "locked"),
    "rubble": rubble, "ruin": ruin, "crates": crates, "sandbags": sandbags,
    "barbed_wire": barbed_wire, "crawl_hole": crawl_hole, "climbable_wall": climbable_wall,
    "tree": tree, "bush": bush, "manhole": manhole, "campfire": campfire, "rail": rail,
    "mast": mast, "sky": sky,
}


def tile_pictures() -> dict[str, np.ndarray]:
    return {name: np.clip(DRAW[name](rng_for(name)), 0, 255).astype(np.uint8) for name, _ in TILES}


def save_png(array: np.ndarray, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(pygame.surfarray.make_surface(np.ascontiguousarray(array.transpose(1, 0, 2))), str(path))


def write_tileset(pics: dict[str, np.ndarray]) -> None:
    rows = math.ceil(len(TILES) / COLUMNS)
    sheet = np.zeros((rows * TS, COLUMNS * TS, 3), np.uint8)
    for i, (name, _) in enumerate(TILES):
        y, x = divmod(i, COLUMNS)
        sheet[y * TS:(y + 1) * TS, x * TS:(x + 1) * TS] = pics[name]
    save_png(sheet, ROOT / "assets/tiles/terrain.png")
    enum_types = {"cover": "Cover", "door": "Door", "hazard": "Hazard"}
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="{TS}" tileheight="{TS}" '
             f'tilecount="{len(TILES)}" columns="{COLUMNS}">',
             f' <image source="../assets/tiles/terrain.png" width="{COLUMNS * TS}" height="{rows * TS}"/>']
    for i, (name, props) in enumerate(TILES):
        lines.append(f' <tile id="{i}">')
        lines.append("  <properties>")
        lines.append(f'   <property name="label" value="{name}"/>')
        for key, value in props.items():
            if isinstance(value, bool):
                lines.append(f'   <property name="{key}" type="bool" value="{"true" if value else "false"}"/>')
            elif isinstance(value, float):
                lines.append(f'   <property name="{key}" type="float" value="{value:g}"/>')
            else:
                ptype = f' propertytype="{enum_types[key]}"' if key in enum_types else ""
                lines.append(f'   <property name="{key}"{ptype} value="{value}"/>')
        lines.append("  </properties>")
        lines.append(" </tile>")
    lines.append("</tileset>")
    (ROOT / "maps/terrain.tsx").write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- maps ---------------------------------------------------------------------------------

class Grid:
    """Two tile layers (ground, features) and a list of objects, drawn by name."""

    def __init__(self, w: int, h: int, ground: str = "grass"):
        self.w, self.h = w, h
        self.ground = np.full((h, w), GID[ground], np.uint32)
        self.features = np.zeros((h, w), np.uint32)
        self.objects: list[dict] = []

    def g(self, name, x0, y0, x1=None, y1=None):
        self.ground[y0:(y1 if y1 is not None else y0) + 1, x0:(x1 if x1 is not None else x0) + 1] = GID[name]

    def f(self, name, x0, y0, x1=None, y1=None):
        value = 0 if name is None else GID[name]
        self.features[y0:(y1 if y1 is not None else y0) + 1, x0:(x1 if x1 is not None else x0) + 1] = value

    def building(self, x0, y0, x1, y1, doors, wall="wall", floor="floor"):
        self.g(floor, x0, y0, x1, y1)
        self.f(wall, x0, y0, x1, y0)
        self.f(wall, x0, y1, x1, y1)
        self.f(wall, x0, y0, x0, y1)
        self.f(wall, x1, y0, x1, y1)
        self.f(None, x0 + 1, y0 + 1, x1 - 1, y1 - 1)
        for x, y, kind in doors:
            self.f(kind, x, y)

    def obj(self, cls, name, x, y, w=1, h=1, **props):
        """An object of Tiled class ``cls`` covering w × h tiles from (x, y), with its custom properties."""
        self.objects.append(dict(kind=cls, name=name, x=x, y=y, w=w, h=h, props=props))

    def mirror(self, names: dict[str, str]) -> None:
        """Make the east half the mirror image of the west half, so that neither side deploys nearer the
        objectives or better covered (issue 15). Each object of the west half gets its mirror image, for the
        other side (``side`` and ``owner`` swapped), named from ``names``; an object across the axis must be
        its own mirror image."""
        half = self.w // 2
        for x in range(half):
            self.ground[:, self.w - 1 - x] = self.ground[:, x]
            self.features[:, self.w - 1 - x] = self.features[:, x]
        for o in list(self.objects):
            if o["x"] + o["w"] <= half:
                props = {k: (1 - v if k in ("side", "owner") and v in (0, 1) else v) for k, v in o["props"].items()}
                if "name_fr" in props:
                    props["name_fr"] = names[props["name_fr"]]
                self.objects.append(dict(o, name=names[o["name"]], x=self.w - o["x"] - o["w"], props=props))
            elif o["x"] + o["w"] != self.w - o["x"]:
                raise ValueError(f"object {o['name']} lies across the axis but is not its own mirror image")


def ruined_town() -> Grid:
    """24×24, modern: THE map of issue 2 (every Eisdrachen terrain feature). The east half is the mirror
    image of the west half (Grid.mirror), so both sides meet on equal terms at the market square."""
    m = Grid(24, 24)
    rng = np.random.default_rng(24)
    m.g("road", 0, 11, 11, 12)
    m.g("road", 11, 0, 11, 10)
    m.g("deep_water", 0, 22, 11, 23)                  # the canal along the southern edge
    m.g("shallow_water", 0, 21, 11, 21)
    m.g("road", 9, 21, 9, 23)                         # a footbridge over it
    m.building(2, 2, 8, 8, [(8, 5, "door_closed"), (5, 8, "door_open"), (4, 2, "door_locked")])
    m.f("crates", 3, 3)
    m.f("climbable_wall", 2, 5)
    # the ruined block: broken walls, rubble, a crawl hole through its last wall
    m.g("dirt", 2, 14, 8, 20)
    m.f("wall", 2, 14, 5, 14)
    m.f("wall", 2, 14, 2, 20)
    m.f("crawl_hole", 2, 17)
    m.f("ruin", 6, 14, 7, 14)
    m.f("ruin", 8, 16, 8, 17)
    m.f("rubble", 4, 16)
    m.f("rubble", 5, 18)
    m.f("rubble", 7, 19)
    m.f("wall", 3, 20, 5, 20)
    # barbed wire across the northern lane, crawl under it or walk round
    m.f("barbed_wire", 9, 1, 9, 9)
    # the sandbagged nest south of the square, its machine gun facing both ways
    m.g("dirt", 10, 14, 11, 17)
    m.f("sandbags", 10, 14, 11, 14)
    m.f("sandbags", 10, 15, 10, 16)
    m.obj("emplacement", "MG nest", 11, 15, 2, 1, weapon="machine_gun", state="working")
    m.obj("item", "medipack", 5, 4, item="medipack")
    m.obj("item", "grenades", 4, 18, item="grenade")
    m.f("bush", 0, 4)
    m.f("bush", 9, 19)
    m.f("bush", 10, 9)
    m.f("bush", 8, 13)                                # hiding places on the way to the square
    m.f("rubble", 9, 10)
    m.f("bush", 5, 13)
    m.f("rubble", 7, 9)
    m.f("tree", 1, 19)
    m.f("tree", 9, 15)
    m.g("mud", 6, 10, 7, 10)
    m.f("manhole", 6, 13)
    m.f("crates", 6, 10)
    m.f("rubble", 10, 4)
    for _ in range(3):
        x, y = int(rng.integers(0, 12)), int(rng.integers(0, 24))
        if m.features[y, x] == 0 and m.ground[y, x] == GID["grass"]:
            m.g("dirt", x, y)
    m.obj("objective", "Market square", 11, 11, 2, 2, kind="control", worth=1, name_fr="Place du marché")
    m.obj("trap", "mine", 10, 12, owner=1, decoy=False)
    m.f(None, 2, 9, 4, 13)                            # each side deploys in front of its houses, 15 pas from
    m.obj("spawn", "Attaquants", 2, 9, 3, 5, side=0)          # the other, so a battle meets in its first turns
    m.mirror({"medipack": "medipack", "grenades": "grenades", "mine": "mine", "Attaquants": "Défenseurs"})
    return m


def scatter(m: Grid, rng, name, count, x0, y0, x1, y1, only_ground=("grass",)):
    allowed = {GID[g] for g in only_ground}
    for _ in range(count):
        x, y = int(rng.integers(x0, x1 + 1)), int(rng.integers(y0, y1 + 1))
        if m.features[y, x] == 0 and m.ground[y, x] in allowed:
            m.f(name, x, y)


def forest(m: Grid, rng, cx, cy, r, density=0.55):
    for y in range(max(0, cy - r), min(m.h, cy + r + 1)):
        for x in range(max(0, cx - r), min(m.w, cx + r + 1)):
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r and m.features[y, x] == 0 \
                    and m.ground[y, x] == GID["grass"] and rng.random() < density:
                m.f("tree" if rng.random() < 0.75 else "bush", x, y)


def stream(m: Grid, rng, x, y0, y1, width=1, wobble=0.35):
    for y in range(y0, y1 + 1):
        m.g("shallow_water", x, y, min(m.w - 1, x + width - 1), y)
        m.f(None, x, y, min(m.w - 1, x + width - 1), y)
        if rng.random() < wobble:
            x = int(np.clip(x + rng.choice((-1, 1)), 1, m.w - width - 1))
    return x


def forest_village() -> Grid:
    """48×48, fantasy: woods around a village on two streams. The east half is the mirror image of the west
    half (Grid.mirror), so both sides are as far from the well and as well covered on the way."""
    m = Grid(48, 48)
    rng = np.random.default_rng(48)
    m.g("dirt", 0, 23, 23, 24)                        # the east-west track
    m.g("dirt", 23, 0, 23, 47)
    for cx, cy, r in ((8, 8, 7), (8, 39, 7), (14, 30, 3)):
        forest(m, rng, cx, cy, r)
    x = 17                                            # a stream, crossed by the track at a ford
    for y in range(48):
        m.g("shallow_water", x, y)
        m.f(None, x, y)
        if rng.random() < 0.25:
            x = int(np.clip(x + rng.choice((-1, 1)), 15, 18))
    m.g("deep_water", 10, 28, 13, 32)                 # the mill pond
    m.f(None, 10, 28, 13, 32)
    m.g("dirt", 14, 23, 19, 24)                       # the ford becomes a track crossing
    m.f(None, 14, 23, 19, 24)
    m.g("cobbles", 19, 17, 23, 30)                    # the village square and lanes
    m.f(None, 19, 17, 23, 30)
    m.building(19, 17, 21, 21, [(21, 19, "door_closed")], wall="wood_wall")
    m.building(19, 26, 21, 30, [(20, 26, "door_locked"), (21, 28, "door_closed")], wall="wood_wall")
    m.f("campfire", 23, 20)
    m.f("crates", 22, 18)
    m.f("hedge", 8, 14, 14, 14)                       # hedged fields
    m.f("hedge", 8, 14, 8, 20)
    m.f("hedge", 9, 35, 15, 35)
    m.f("low_wall", 3, 33, 7, 33)
    scatter(m, rng, "bush", 13, 0, 0, 23, 47)
    m.g("mud", 12, 23, 13, 24)
    m.obj("objective", "The well", 22, 22, 4, 4, kind="control", worth=1, name_fr="Le puits")
    m.obj("objective", "West breakthrough", 0, 18, 1, 12, kind="exit", side=1, worth=1, name_fr="Percée à l'ouest")
    m.f(None, 10, 16, 12, 27)                         # the companies deploy before the stream and the pond,
    m.obj("spawn", "Compagnie du loup", 10, 16, 3, 12, side=0)   # 23 pas apart, so a battle meets by turn 2
    m.obj("exit", "Retraite ouest", 0, 18, 1, 12, side=0)
    m.mirror({"West breakthrough": "East breakthrough", "Percée à l'ouest": "Percée à l'est",
              "Compagnie du loup": "Gardes du village", "Retraite ouest": "Retraite est"})
    return m


def great_battlefield() -> Grid:
    """128×128: rolling country with rivers, woods, villages, hedgerows and trench lines."""
    m = Grid(128, 128)
    rng = np.random.default_rng(128)
    for _ in range(22):
        forest(m, rng, int(rng.integers(10, 118)), int(rng.integers(0, 128)), int(rng.integers(3, 9)), 0.5)
    m.g("road", 0, 62, 127, 63)
    m.g("road", 40, 0, 41, 127)
    m.g("road", 88, 0, 89, 127)
    m.f(None, 0, 62, 127, 63)
    m.f(None, 40, 0, 41, 127)
    m.f(None, 88, 0, 89, 127)
    x = 62
    for y in range(128):                              # the river, with three bridges on the roads
        m.g("deep_water", x, y, x + 2, y)
        m.g("shallow_water", x - 1, y)
        m.g("shallow_water", x + 3, y)
        m.f(None, x - 1, y, x + 3, y)
        if rng.random() < 0.3:
            x = int(np.clip(x + rng.choice((-1, 1)), 50, 76))
        if y in (20, 21, 62, 63, 105, 106):
            m.g("road", x - 1, y, x + 3, y)
    for bx, by in ((30, 50), (100, 70), (20, 100), (104, 20), (70, 95)):
        m.g("cobbles", bx - 2, by - 2, bx + 12, by + 10)
        m.f(None, bx - 2, by - 2, bx + 12, by + 10)
        m.building(bx, by, bx + 4, by + 4, [(bx + 2, by + 4, "door_closed")])
        m.building(bx + 7, by + 1, bx + 10, by + 5, [(bx + 7, by + 3, "door_open")])
        m.f("ruin", bx + 1, by + 7, bx + 3, by + 7)
        m.f("rubble", bx + 6, by + 8)
    for hy in (30, 94):                               # hedgerows with gaps
        for hx in range(8, 120):
            if m.features[hy, hx] == 0 and m.ground[hy, hx] == GID["grass"] and (hx // 9) % 3:
                m.f("hedge", hx, hy)
    for tx in (26, 100):                              # trench lines of sandbags and wire
        for ty in range(36, 92, 1):
            if m.ground[ty, tx] == GID["grass"] and (ty // 6) % 4:
                m.f("sandbags", tx, ty)
                if m.ground[ty, tx - 2 if tx < 64 else tx + 2] == GID["grass"]:
                    m.f("barbed_wire", tx - 2 if tx < 64 else tx + 2, ty)
    m.g("mud", 44, 70, 52, 76)
    m.f(None, 44, 70, 52, 76)
    scatter(m, rng, "bush", 300, 0, 0, 127, 127)
    m.f(None, 46, 54, 49, 73)                         # the armies deploy 16 pas either side of the river,
    m.f(None, 78, 54, 81, 73)                         # so a skirmish meets within its turns (issue 15), each
    m.obj("spawn", "Armée de l'ouest", 46, 54, 4, 20, side=0)     # zone the mirror of the other, as far
    m.obj("spawn", "Armée de l'est", 78, 54, 4, 20, side=1)       # from the central bridge
    m.obj("objective", "Central bridge", 60, 61, 8, 4, kind="control", worth=2, name_fr="Pont central")
    m.obj("objective", "North village", 104, 20, 5, 5, kind="control", worth=1, name_fr="Village nord")
    m.obj("objective", "South village", 20, 100, 5, 5, kind="control", worth=1, name_fr="Village sud")
    m.obj("exit", "Repli ouest", 0, 40, 1, 48, side=0)
    m.obj("exit", "Repli est", 127, 40, 1, 48, side=1)
    return m


def sky_deck() -> Grid:
    """The Voyageurs boarding deck (voyageurs.md 5.16.6): boarding zone and crew zone."""
    m = Grid(32, 14, ground="sky")
    for y in range(2, 12):                            # the hull, pointed at the bow (east)
        half = 5 - abs(y - 6.5)
        x1 = 26 + int(max(0, min(3, half)))
        m.g("deck", 2, y, x1, y)
    deck = m.ground == GID["deck"]
    edge = deck & ~(np.roll(deck, 1, 0) & np.roll(deck, -1, 0) & np.roll(deck, 1, 1) & np.roll(deck, -1, 1))
    m.features[edge] = GID["rail"]
    m.f(None, 9, 2, 19, 2)                            # the boarding gap in the port rail
    m.f("mast", 11, 6)
    m.f("mast", 19, 7)
    m.building(3, 4, 7, 9, [(7, 6, "door_closed")], wall="wood_wall", floor="floor")
    m.f("crates", 14, 9)
    m.f("crates", 15, 9)
    m.f("crates", 22, 4)
    m.f("rubble", 17, 4)
    m.obj("boarding_zone", "Abordage", 9, 2, 11, 2)
    m.obj("crew_zone", "Équipage", 20, 5, 4, 5)
    m.obj("spawn", "Abordeurs", 9, 2, 11, 2, side=0)
    m.obj("spawn", "Défenseurs", 20, 5, 4, 5, side=1)
    return m


def prop_xml(key, value) -> str:
    if isinstance(value, bool):
        return f'<property name="{key}" type="bool" value="{"true" if value else "false"}"/>'
    if isinstance(value, int):
        return f'<property name="{key}" type="int" value="{value}"/>'
    if isinstance(value, float):
        return f'<property name="{key}" type="float" value="{value:g}"/>'
    return f'<property name="{key}" value={quoteattr(str(value))}/>'


def write_map(name: str, m: Grid, props: dict) -> None:
    def csv(arr):
        return ",\n".join(",".join(str(v) for v in row) for row in arr.tolist())
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" '
             f'width="{m.w}" height="{m.h}" tilewidth="{TS}" tileheight="{TS}" infinite="0" '
             f'nextlayerid="4" nextobjectid="{len(m.objects) + 1}">',
             " <properties>"] + [f"  {prop_xml(k, v)}" for k, v in props.items()] + [
             " </properties>",
             ' <tileset firstgid="1" source="terrain.tsx"/>',
             f' <layer id="1" name="ground" width="{m.w}" height="{m.h}">',
             f'  <data encoding="csv">\n{csv(m.ground)}\n</data>', " </layer>",
             f' <layer id="2" name="features" width="{m.w}" height="{m.h}">',
             f'  <data encoding="csv">\n{csv(m.features)}\n</data>', " </layer>",
             ' <objectgroup id="3" name="objects">']
    for i, o in enumerate(m.objects, 1):
        lines.append(f'  <object id="{i}" name={quoteattr(o["name"])} type="{o["kind"]}" x="{o["x"] * TS}" '
                     f'y="{o["y"] * TS}" width="{o["w"] * TS}" height="{o["h"] * TS}">')
        if o["props"]:
            lines.append("   <properties>")
            lines += [f"    {prop_xml(k, v)}" for k, v in o["props"].items()]
            lines.append("   </properties>")
        lines.append("  </object>")
    lines += [" </objectgroup>", "</map>"]
    (ROOT / "maps" / f"{name}.tmx").write_text("\n".join(lines) + "\n", encoding="utf-8")


MAPS = {
    "ruined_town": (ruined_town, {"title": "Ruined town", "title_fr": "Ville en ruines", "cm_per_tile": 2.5,
                                  "landscape": "hostile"}),
    "forest_village": (forest_village, {"title": "Forest village", "title_fr": "Village forestier",
                                        "cm_per_tile": 2.5, "landscape": "settled"}),
    "great_battlefield": (great_battlefield, {"title": "Great battlefield", "title_fr": "Grande bataille",
                                              "cm_per_tile": 2.5, "landscape": "wild"}),
    "sky_deck": (sky_deck, {"title": "Deck of the flying ship", "title_fr": "Pont du navire volant",
                            "cm_per_tile": 2.5, "landscape": "remote"}),
}

OBJECT_COLOURS = {"spawn": None, "objective": (250, 220, 60), "trap": (220, 40, 40),
                  "emplacement": (240, 120, 20), "item": (60, 200, 240), "exit": (200, 60, 220),
                  "boarding_zone": (255, 80, 80), "crew_zone": (80, 120, 255), "interactive": (255, 255, 255)}
SIDE_COLOURS = {0: (230, 60, 60), 1: (60, 110, 240)}


def render(m: Grid, pics: dict[str, np.ndarray], scale: int) -> np.ndarray:
    """A preview: ground, features, then object outlines; ``scale`` px per tile."""
    small = {GID[n]: pics[n][::TS // scale, ::TS // scale] for n in pics}
    out = np.zeros((m.h * scale, m.w * scale, 3), np.uint8)
    for layer in (m.ground, m.features):
        for gid in np.unique(layer):
            if gid == 0:
                continue
            for y, x in zip(*np.nonzero(layer == gid)):
                out[y * scale:(y + 1) * scale, x * scale:(x + 1) * scale] = small[int(gid)]
    t = max(1, scale // 8)
    for o in m.objects:
        colour = SIDE_COLOURS[o["props"]["side"]] if o["kind"] == "spawn" else OBJECT_COLOURS.get(o["kind"])
        if colour is None:
            continue
        x0, y0 = o["x"] * scale, o["y"] * scale
        x1, y1 = x0 + o["w"] * scale, y0 + o["h"] * scale
        out[y0:y0 + t, x0:x1] = out[y1 - t:y1, x0:x1] = colour
        out[y0:y1, x0:x0 + t] = out[y0:y1, x1 - t:x1] = colour
    return out


FEATURE_COLOURS = [  # (array test, colour): later entries are drawn over earlier ones
    (lambda bf: bf.terrain_cost > 1, (150, 120, 80)),
    (lambda bf: bf.cover == 1, (140, 200, 110)),
    (lambda bf: bf.cover == 2, (40, 130, 40)),
    (lambda bf: bf.hiding, (190, 160, 220)),
    (lambda bf: bf.trap_spot, (250, 150, 40)),
    (lambda bf: bf.deep_water, (30, 60, 170)),
    (lambda bf: bf.blocks_move & ~bf.blocks_sight, (120, 120, 120)),
    (lambda bf: bf.blocks_sight & ~bf.blocks_move, (70, 90, 60)),
    (lambda bf: bf.blocks_move & bf.blocks_sight, (30, 30, 30)),
    (lambda bf: bf.crawl_gap, (220, 60, 160)),
    (lambda bf: bf.climbable, (230, 200, 40)),
    (lambda bf: bf.perch, (255, 240, 150)),
    (lambda bf: bf.door == 1, (200, 140, 90)),
    (lambda bf: bf.door >= 2, (130, 70, 20)),
    (lambda bf: bf.door == 3, (240, 30, 30)),
    (lambda bf: bf.hazard > 0, (255, 90, 0)),
]


def render_features(path: Path, scale: int) -> np.ndarray:
    """How the game reads a map: each tile coloured by its strongest feature, spawns outlined."""
    from game.engine.tiled import load_battlefield
    bf = load_battlefield(path)
    img = np.full((bf.height, bf.width, 3), 235, np.uint8)
    for test, colour in FEATURE_COLOURS:
        img[test(bf)] = colour
    for side, colour in SIDE_COLOURS.items():
        for x, y in bf.spawn.get(side, []):
            img[y, x] = (np.array(img[y, x], int) + colour) // 2
    return np.repeat(np.repeat(img, scale, 0), scale, 1)


def feature_legend() -> None:
    pygame.font.init()
    font = pygame.font.Font(None, 18)
    names = ["terrain_cost > 1", "cover light", "cover heavy", "hiding place", "trap spot", "deep water",
             "blocks move only", "blocks sight only", "wall (move + sight)", "crawl-only gap", "climbable",
             "perch", "door open", "door closed", "door locked", "hazard"]
    surf = pygame.Surface((4 * 160, 4 * 22 + 8))
    surf.fill((250, 248, 240))
    for i, ((_, colour), name) in enumerate(zip(FEATURE_COLOURS, names)):
        x, y = 8 + (i // 4) * 160, 6 + (i % 4) * 22
        pygame.draw.rect(surf, colour, (x, y, 16, 16))
        pygame.draw.rect(surf, (0, 0, 0), (x, y, 16, 16), 1)
        surf.blit(font.render(name, True, (20, 20, 20)), (x + 22, y + 2))
    pygame.image.save(surf, str(ROOT / "docs/img/feature_legend.png"))


def tileset_sheet(pics: dict[str, np.ndarray]) -> None:
    """The tileset with each tile's label and properties, for docs/maps.md."""
    pygame.font.init()
    font = pygame.font.Font(None, 18)
    row_h, width = 40, 720
    surf = pygame.Surface((width, row_h * len(TILES) // 2 + 8))
    surf.fill((250, 248, 240))
    for i, (name, props) in enumerate(TILES):
        col, row = divmod(i, math.ceil(len(TILES) / 2))
        x, y = 8 + col * 350, 4 + row * row_h
        surf.blit(pygame.surfarray.make_surface(np.ascontiguousarray(pics[name].transpose(1, 0, 2))), (x, y))
        surf.blit(font.render(f"{GID[name] - 1}: {name}", True, (20, 20, 20)), (x + 38, y + 2))
        text = ", ".join(f"{k}={'true' if v is True else v}" for k, v in props.items()) or "open ground"
        surf.blit(font.render(text, True, (90, 70, 40)), (x + 38, y + 18))
    pygame.image.save(surf, str(ROOT / "docs/img/tileset.png"))


def write_project() -> None:
    """maps/escarmouche.tiled-project: enums so designers pick values from lists, and object
    classes whose members are the properties each object kind reads (defaults = the loader's)."""
    def enum(i, name, values, storage="string"):
        return {"id": i, "name": name, "type": "enum", "storageType": storage, "values": list(values),
                "valuesAsFlags": False}

    def cls(i, name, colour, members):
        return {"id": i, "name": name, "type": "class", "color": colour, "drawFill": True,
                "useAs": ["object"], "members": members}

    def member(name, ptype, value, enum_name=None):
        m = {"name": name, "type": ptype, "value": value}
        if enum_name:
            m["propertyType"] = enum_name
        return m
    side = member("side", "string", "0", "Side")
    types = [
        enum(1, "Cover", COVER_VALUES), enum(2, "Door", DOOR_VALUES), enum(3, "Terrain", TERRAIN_PRESETS),
        enum(4, "Landscape", LANDSCAPES), enum(5, "Hazard", KNOWN_HAZARDS), enum(6, "Side", ("0", "1")),
        enum(7, "ObjectiveKind", OBJECTIVE_KINDS),
        cls(10, "spawn", "#ffe04040", [side]),
        cls(11, "objective", "#fff0d020", [member("kind", "string", "control", "ObjectiveKind"),
                                           member("worth", "int", 1), side, member("name_fr", "string", "")]),
        cls(12, "trap", "#ffd02020", [member("owner", "int", -1), member("decoy", "bool", False)]),
        cls(13, "emplacement", "#fff07010", [member("weapon", "string", "machine_gun"),
                                             member("state", "string", "working")]),
        cls(14, "item", "#ff30c0f0", [member("item", "string", "grenade")]),
        cls(15, "interactive", "#ffffffff", [member("effect", "string", ""), member("test", "string", "")]),
        cls(16, "boarding_zone", "#ffff5050", []),
        cls(17, "crew_zone", "#ff5078ff", []),
        cls(18, "door", "#ff8a5a2a", [member("state", "string", "closed", "Door")]),
        cls(19, "wall", "#ff606060", []),
        cls(20, "cover", "#ff40a040", [member("level", "string", "light", "Cover")]),
        cls(21, "exit", "#ffc040e0", [side]),
        cls(22, "area", "#ff40c0c0", []),
    ]
    def command(name, arguments):
        """A Tiled command that runs the game on the open map; its output goes to Tiled's Console."""
        return {"arguments": arguments, "command": "escarmouche", "enabled": True, "name": name,
                "saveBeforeExecute": True, "shortcut": "", "showOutput": True, "workingDirectory": "%mappath"}
    commands = [command("Validate", "validate-map %mapfile"), command("Play this map", "play --map %mapfile")]
    project = {"automappingRulesFile": "", "commands": commands, "extensionsPath": "extensions",
               "folders": ["."], "propertyTypes": types}
    (ROOT / "maps/escarmouche.tiled-project").write_text(json.dumps(project, indent=4) + "\n", encoding="utf-8")


def main() -> int:
    pygame.init()
    (ROOT / "maps").mkdir(exist_ok=True)
    (ROOT / "docs/img").mkdir(parents=True, exist_ok=True)
    pics = tile_pictures()
    write_tileset(pics)
    write_project()
    tileset_sheet(pics)
    feature_legend()
    for name, (make, props) in MAPS.items():
        m = make()
        write_map(name, m, props)
        scale = 16 if m.w <= 32 else 8 if m.w <= 64 else 4
        save_png(render(m, pics, scale), ROOT / "docs/img" / f"{name}.png")
        if name == "ruined_town":
            save_png(render_features(ROOT / "maps" / f"{name}.tmx", scale), ROOT / "docs/img/ruined_town_features.png")
        print(f"maps/{name}.tmx {m.w}×{m.h}, {len(m.objects)} objects")
    return 0


if __name__ == "__main__":
    sys.exit(main())
