"""The Tiled loader: the map contract of docs/maps.md, foreign-map conventions, refusals,
and the real maps of ../shared/maps-external when that folder is present."""
from __future__ import annotations

import base64
import gzip
import json
import re
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from game.engine.battlefield import Cover, Door
from game.engine.tiled import load_battlefield, load_map
from game.errors import MapError

def png(path: Path, w: int, h: int) -> None:
    """A real (tiny, grey) PNG file of the given size, written without pygame."""
    raw = b"".join(b"\x00" + b"\x80" * (w * 3) for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def props(**kv) -> str:
    if not kv:
        return ""
    items = "".join(f'<property name="{k}" value="{v}"/>' for k, v in kv.items())
    return f"<properties>{items}</properties>"


def tileset(tiles: dict[int, dict], firstgid: int = 1, count: int = 8, image: str = "tiles.png") -> str:
    body = "".join(f'<tile id="{i}">{props(**p)}</tile>' for i, p in tiles.items())
    return (f'<tileset firstgid="{firstgid}" name="t" tilewidth="32" tileheight="32" tilecount="{count}" '
            f'columns="{count}"><image source="{image}" width="{32 * count}" height="32"/>{body}</tileset>')


def layer(name: str, rows: list[list[int]], layer_props: str = "") -> str:
    w, h = len(rows[0]), len(rows)
    csv = ",".join(str(g) for row in rows for g in row)
    return (f'<layer name="{name}" width="{w}" height="{h}">{layer_props}'
            f'<data encoding="csv">{csv}</data></layer>')


def objects(name: str, *objs: str, group_props: str = "") -> str:
    return f'<objectgroup name="{name}">{group_props}{"".join(objs)}</objectgroup>'


def obj(oid: int, kind: str, x, y, w=32, h=32, name: str = "", shape: str = "", **kv) -> str:
    return (f'<object id="{oid}" name="{name}" type="{kind}" x="{x}" y="{y}" width="{w}" height="{h}">'
            f'{props(**kv)}{shape}</object>')


def write_map(tmp_path: Path, body: str, w: int = 6, h: int = 4, map_props: str = "",
              orientation: str = "orthogonal", name: str = "m.tmx", extra: str = "") -> Path:
    png(tmp_path / "tiles.png", 256, 32)
    text = (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="{orientation}" '
            f'renderorder="right-down" width="{w}" height="{h}" tilewidth="32" tileheight="32" '
            f'infinite="0" {extra}>{map_props}{body}</map>')
    path = tmp_path / name
    path.write_text(text)
    return path


def ground(w=6, h=4, gid=1):
    return [[gid] * w for _ in range(h)]


def one_tile_map(tmp_path, **tile_props):
    """A 6×4 map of plain ground with tile 2 (carrying ``tile_props``) at (2, 1)."""
    rows = ground()
    rows[1][2] = 2
    return load_map(write_map(tmp_path, tileset({1: tile_props}) + layer("ground", rows)))


# --- tile properties --------------------------------------------------------------------

@pytest.mark.parametrize("prop, array", [
    ("blocks_move", "blocks_move"), ("blocks_sight", "blocks_sight"), ("deep_water", "deep_water"),
    ("crawl_only", "crawl_gap"), ("climbable", "climbable"), ("hiding_place", "hiding"),
    ("perch", "perch"), ("trap_spot", "trap_spot"),
])
def test_boolean_tile_property_marks_only_its_tiles(tmp_path, prop, array):
    bf = one_tile_map(tmp_path, **{prop: "true"}).battlefield
    assert getattr(bf, array)[1, 2]
    assert getattr(bf, array).sum() == 1


def test_wall_property_blocks_movement_and_sight(tmp_path):
    bf = one_tile_map(tmp_path, wall="true").battlefield
    assert bf.blocks_move[1, 2] and bf.blocks_sight[1, 2]
    assert not bf.blocks_move[0, 0]


@pytest.mark.parametrize("value, level", [("light", Cover.LIGHT), ("heavy", Cover.HEAVY), ("none", 0)])
def test_cover_property_sets_cover_level(tmp_path, value, level):
    assert one_tile_map(tmp_path, cover=value).battlefield.cover[1, 2] == level


@pytest.mark.parametrize("value, state", [("open", Door.OPEN), ("closed", Door.CLOSED),
                                          ("locked", Door.LOCKED)])
def test_door_property_sets_door_state(tmp_path, value, state):
    bf = one_tile_map(tmp_path, door=value).battlefield
    assert bf.door[1, 2] == state
    assert bf.door_shut((2, 1)) == (state >= Door.CLOSED)


def test_terrain_cost_exit_and_hazard_properties(tmp_path):
    rows = ground()
    rows[1][2], rows[2][5], rows[3][3] = 2, 3, 4
    lm = load_map(write_map(tmp_path, tileset({1: {"terrain_cost": 2}, 2: {"exit": 1},
                                                3: {"hazard": "blaze"}}) + layer("g", rows)))
    bf = lm.battlefield
    assert bf.terrain_cost[1, 2] == 2.0 and bf.terrain_cost[0, 0] == 1.0
    assert bf.exit_side[2, 5] == 1 and bf.exit_side[0, 0] == -1
    code = int(bf.hazard[3, 3])
    assert bf.properties["hazard_ids"][code] == "blaze"
    assert bf.hazard.sum() == code


def test_exit_tiles_off_the_map_edge_are_ignored_with_a_warning(tmp_path):
    body = tileset({}) + layer("g", ground()) + objects("o", obj(1, "exit", 0, 32, 96, 32, side=1))
    lm = load_map(write_map(tmp_path, body))
    assert lm.battlefield.exit_side[1].tolist() == [1, -1, -1, -1, -1, -1]
    assert any("not on the map edge" in w for w in lm.warnings)


def test_unknown_hazard_id_gets_its_own_code(tmp_path):
    bf = one_tile_map(tmp_path, hazard="lava").battlefield
    code = int(bf.hazard[1, 2])
    assert code > 4 and bf.properties["hazard_ids"][code] == "lava"


@pytest.mark.parametrize("preset, checks", [
    ("wall", {"blocks_move": True, "blocks_sight": True}),
    ("low_wall", {"blocks_move": True, "cover": 1}),
    ("hedge", {"blocks_sight": True, "blocks_move": False}),
    ("tree", {"climbable": True, "hiding": True, "perch": True}),
    ("barbed_wire", {"crawl_gap": True}),
    ("sandbags", {"cover": 2}),
])
def test_terrain_preset_gives_the_usual_combination(tmp_path, preset, checks):
    bf = one_tile_map(tmp_path, terrain=preset).battlefield
    for array, value in checks.items():
        assert getattr(bf, array)[1, 2] == value, array


def test_property_values_are_not_case_sensitive(tmp_path):
    bf = one_tile_map(tmp_path, terrain="Low_Wall", hazard="Gas", door="LOCKED").battlefield
    assert bf.blocks_move[1, 2] and bf.cover[1, 2] == 1 and bf.door[1, 2] == Door.LOCKED
    assert bf.properties["hazard_ids"][int(bf.hazard[1, 2])] == "gas"


def test_unknown_property_value_is_ignored_with_a_warning_that_suggests_a_fix(tmp_path):
    lm = one_tile_map(tmp_path, cover="haevy")
    assert lm.battlefield.cover[1, 2] == 0
    assert any("cover 'haevy'" in w for w in lm.warnings)
    assert any("heavy" in i.fix for i in lm.issues)


# --- layer properties and layer order ---------------------------------------------------

def test_layer_property_applies_to_every_non_empty_tile_of_the_layer(tmp_path):
    top = [[0] * 6 for _ in range(4)]
    top[0][0] = top[3][5] = 1
    bf = load_battlefield(write_map(tmp_path, tileset({}) + layer("ground", ground())
                                    + layer("ruins", top, props(cover="heavy"))))
    assert bf.cover[0, 0] == 2 and bf.cover[3, 5] == 2
    assert bf.cover.sum() == 4


def test_upper_layer_that_says_false_overrides_a_lower_one(tmp_path):
    bridge = [[0] * 6 for _ in range(4)]
    bridge[1][1] = 3
    bf = load_battlefield(write_map(tmp_path, tileset({1: {"deep_water": "true"},
                                                       2: {"deep_water": "false"}})
                                    + layer("water", ground(gid=2)) + layer("bridge", bridge)))
    assert not bf.deep_water[1, 1]
    assert bf.deep_water[0, 0]


def test_group_layer_properties_pass_to_their_children(tmp_path):
    rows = [[0] * 6 for _ in range(4)]
    rows[2][2] = 1
    body = tileset({}) + f'<group name="g">{props(wall="true")}{layer("inner", rows)}</group>'
    bf = load_battlefield(write_map(tmp_path, body))
    assert bf.blocks_move[2, 2] and bf.blocks_sight[2, 2] and bf.blocks_move.sum() == 1


# --- objects ----------------------------------------------------------------------------

def test_spawn_objects_give_each_side_its_tiles(tmp_path):
    body = tileset({}) + layer("g", ground()) + objects(
        "deploy", obj(1, "spawn", 0, 0, 64, 128, side=0), obj(2, "spawn", 160, 32, 32, 64, side=1))
    bf = load_battlefield(write_map(tmp_path, body))
    assert sorted(bf.spawn[0]) == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]
    assert sorted(bf.spawn[1]) == [(5, 1), (5, 2)]
    assert [o.kind for o in bf.objects] == ["spawn", "spawn"]


def test_rectangle_covers_the_tiles_it_overlaps_and_a_point_the_tile_it_is_in(tmp_path):
    point = '<object id="2" type="objective" name="flag" x="100" y="40"><point/></object>'
    body = tileset({}) + layer("g", ground()) + objects(
        "o", obj(1, "objective", 16, 16, 40, 16, name="zone"), point)
    bf = load_battlefield(write_map(tmp_path, body))
    zone, flag = bf.objects
    assert sorted(zone.tiles) == [(0, 0), (1, 0)]
    assert flag.tiles == ((3, 1),) and flag.name == "flag"


def test_polygon_covers_the_tiles_whose_centre_is_inside(tmp_path):
    shape = '<polygon points="0,0 96,0 0,96"/>'
    body = tileset({}) + layer("g", ground()) + objects(
        "o", f'<object id="1" type="cover" x="0" y="0">{props(cover="heavy")}{shape}</object>')
    bf = load_battlefield(write_map(tmp_path, body))
    assert {(x, y) for y, x in zip(*np.nonzero(bf.cover))} == {(0, 0), (1, 0), (0, 1)}


@pytest.mark.parametrize("kind", ["objective", "trap", "emplacement", "item", "interactive",
                                  "boarding_zone", "crew_zone"])
def test_listed_object_kinds_keep_name_tiles_and_properties(tmp_path, kind):
    body = tileset({}) + layer("g", ground()) + objects(
        "o", obj(1, kind, 64, 64, name="thing", weapon="mg42", state="working"))
    bf = load_battlefield(write_map(tmp_path, body))
    (o,) = bf.objects_of(kind)
    assert o.name == "thing" and o.tiles == ((2, 2),)
    assert o.properties["weapon"] == "mg42" and o.properties["state"] == "working"


def test_area_objects_mark_walls_cover_doors_exits_and_features(tmp_path):
    body = tileset({}) + layer("g", ground()) + objects(
        "areas",
        obj(1, "wall", 0, 0), obj(2, "cover", 32, 0, level="heavy"), obj(3, "door", 64, 0, state="locked"),
        obj(4, "exit", 160, 96, side=0), obj(5, "area", 96, 0, deep_water="true"),
        obj(6, "door", 128, 0))
    bf = load_battlefield(write_map(tmp_path, body))
    assert bf.blocks_move[0, 0] and bf.blocks_sight[0, 0]
    assert bf.cover[0, 1] == Cover.HEAVY
    assert bf.door[0, 2] == Door.LOCKED and bf.door[0, 4] == Door.CLOSED
    assert bf.exit_side[3, 5] == 0
    assert bf.deep_water[0, 3]


def test_object_class_named_after_a_terrain_preset_applies_it(tmp_path):
    body = tileset({}) + layer("g", ground()) + objects("o", obj(1, "rough", 0, 0, 64, 32))
    bf = load_battlefield(write_map(tmp_path, body))
    assert bf.terrain_cost[0, :2].tolist() == [1.5, 1.5] and bf.terrain_cost.sum() == 24 + 1.0


def test_object_type_may_be_given_as_tiled_class(tmp_path):
    body = tileset({}) + layer("g", ground()) + objects(
        "o", '<object id="1" class="spawn" x="0" y="0" width="32" height="32">'
             + props(side=1) + "</object>")
    assert load_battlefield(write_map(tmp_path, body)).spawn[1] == [(0, 0)]


# --- foreign conventions ----------------------------------------------------------------

@pytest.mark.parametrize("prop", ["collides", "collision", "solid", "blocked"])
def test_common_collision_tile_properties_block_movement(tmp_path, prop):
    bf = one_tile_map(tmp_path, **{prop: "true"}).battlefield
    assert bf.blocks_move[1, 2] and bf.blocks_move.sum() == 1


def test_tile_collision_shape_blocks_movement(tmp_path):
    ts = tileset({}).replace("</tileset>", '<tile id="1"><objectgroup><object id="1" x="0" y="0" '
                                           'width="32" height="16"/></objectgroup></tile></tileset>')
    rows = ground()
    rows[3][4] = 2
    bf = load_battlefield(write_map(tmp_path, ts + layer("g", rows)))
    assert bf.blocks_move[3, 4] and bf.blocks_move.sum() == 1


@pytest.mark.parametrize("name, sight", [("Walls", True), ("Collision", False), ("obstacles", False),
                                         ("solid stuff", False)])
def test_layer_named_like_collision_blocks_its_tiles(tmp_path, name, sight):
    top = [[0] * 6 for _ in range(4)]
    top[2][3] = 1
    bf = load_battlefield(write_map(tmp_path, tileset({}) + layer("g", ground()) + layer(name, top)))
    assert bf.blocks_move[2, 3] and bf.blocks_move.sum() == 1
    assert bool(bf.blocks_sight[2, 3]) == sight


def test_object_layer_named_collision_blocks_the_tiles_of_its_shapes(tmp_path):
    body = tileset({}) + layer("g", ground()) + objects("collisions", obj(1, "", 64, 32, 64, 32))
    bf = load_battlefield(write_map(tmp_path, body))
    assert {(x, y) for y, x in zip(*np.nonzero(bf.blocks_move))} == {(2, 1), (3, 1)}


def test_map_without_spawns_deploys_sides_on_left_and_right_reachable_ground(tmp_path):
    rows = [[1] * 12 for _ in range(6)]
    for y in range(6):
        rows[y][0] = 2                       # a wall column on the far left
    bf = load_battlefield(write_map(tmp_path, tileset({1: {"wall": "true"}}) + layer("g", rows),
                                    w=12, h=6))
    assert len(bf.spawn[0]) >= 10 and len(bf.spawn[1]) >= 10
    assert all(x <= 3 for x, _ in bf.spawn[0]) and all(x >= 9 for x, _ in bf.spawn[1])
    assert all(bf.can_stand(t) for t in bf.spawn[0] + bf.spawn[1])
    assert not set(bf.spawn[0]) & set(bf.spawn[1])


def test_default_spawns_on_a_tiny_map_are_split_evenly(tmp_path):
    bf = load_battlefield(write_map(tmp_path, tileset({}) + layer("g", ground(3, 3)), w=3, h=3))
    assert len(bf.spawn[0]) == len(bf.spawn[1]) == 4
    assert not set(bf.spawn[0]) & set(bf.spawn[1])


def test_default_spawns_on_a_tall_map_gather_round_the_middle_row(tmp_path):
    bf = load_battlefield(write_map(tmp_path, tileset({}) + layer("g", ground(40, 40)), w=40, h=40))
    assert sorted(bf.spawn[0]) == [(0, y) for y in range(12, 28)]
    assert sorted(bf.spawn[1]) == [(39, y) for y in range(12, 28)]


def test_default_spawns_avoid_a_cut_off_pocket(tmp_path):
    rows = [[1] * 12 for _ in range(6)]
    for y in range(6):
        rows[y][2] = 2                       # wall column isolating x=0..1
    bf = load_battlefield(write_map(tmp_path, tileset({1: {"wall": "true"}}) + layer("g", rows),
                                    w=12, h=6))
    assert all(x >= 3 for x, _ in bf.spawn[0])


# --- map properties ---------------------------------------------------------------------

def test_map_properties_scale_and_landscape(tmp_path):
    lm = load_map(write_map(tmp_path, tileset({}) + layer("g", ground()),
                            map_props=props(cm_per_tile=5, landscape="Hostile", name="Ruines")))
    assert lm.battlefield.cm_per_tile == 5.0
    assert lm.battlefield.properties["landscape"] == "hostile"
    assert lm.battlefield.name == "Ruines"
    assert lm.properties["cm_per_tile"] == "5"


def test_bad_scale_keeps_the_default_with_a_warning(tmp_path):
    lm = load_map(write_map(tmp_path, tileset({}) + layer("g", ground()), map_props=props(cm_per_tile=-1)))
    assert lm.battlefield.cm_per_tile == 2.5
    assert any("cm_per_tile" in w for w in lm.warnings)


# --- render data ------------------------------------------------------------------------

def test_render_layers_and_tile_pictures(tmp_path):
    flipped = (1 << 31) | 2
    rows = ground()
    rows[0][1] = flipped
    lm = load_map(write_map(tmp_path, tileset({}) + layer("g", rows)))
    (lay,) = lm.layers
    assert lay.gids.shape == (4, 6) and lay.gids.dtype == np.uint32
    plain, flip = lm.tiles[int(lay.gids[0, 0])], lm.tiles[int(lay.gids[0, 1])]
    assert plain.image == str((tmp_path / "tiles.png").resolve()) and plain.rect == (0, 0, 32, 32)
    assert flip.rect == (32, 0, 32, 32) and flip.flip_x and not plain.flip_x
    assert lm.tile_width == 32 and lm.tile_height == 32


def test_missing_tileset_image_loads_with_placeholders_and_a_warning(tmp_path):
    path = write_map(tmp_path, tileset({}, image="gone.png") + layer("g", ground()))
    lm = load_map(path)
    assert all(t.image == "" for t in lm.tiles.values())
    assert any("gone.png" in w and "not found" in w for w in lm.warnings)


def test_tileset_image_without_size_is_measured_from_the_file(tmp_path):
    body = ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32"><image source="tiles.png"/>'
            '</tileset>') + layer("g", [[8, 1]])
    lm = load_map(write_map(tmp_path, body, w=2, h=1))
    assert lm.tiles[int(lm.layers[0].gids[0, 0])].rect == (224, 0, 32, 32)


def test_fractional_offsets_list_and_class_properties_are_accepted(tmp_path):
    listprop = ('<properties><property name="tags" type="list"><item type="string" value="a"/>'
                '<item type="string" value="b"/></property><property name="info" type="class" '
                'propertytype="Info"><properties><property name="x" type="int" value="3"/></properties>'
                '</property></properties>')
    tagged = '<object id="1" type="item" x="0" y="0" width="32" height="32">' + listprop + "</object>"
    body = tileset({}) + layer("g", ground()).replace('<layer ', '<layer offsetx="32.6667" ') + \
        f'<objectgroup name="o" offsetx="1.5">{tagged}</objectgroup>'
    lm = load_map(write_map(tmp_path, body))
    assert lm.layers[0].offset == (33.0, 0.0)
    (item,) = lm.battlefield.objects
    assert item.properties["tags"] == "a,b" and item.properties["info.x"] == 3


# --- encodings, JSON, infinite maps, templates ------------------------------------------

def encoded(gids: list[int], how: str) -> str:
    raw = struct.pack(f"<{len(gids)}I", *gids)
    if how == "csv":
        return f'<data encoding="csv">{",".join(map(str, gids))}</data>'
    if how == "xml":
        return "<data>" + "".join(f'<tile gid="{g}"/>' for g in gids) + "</data>"
    if how == "base64":
        return f'<data encoding="base64">{base64.b64encode(raw).decode()}</data>'
    if how == "zlib":
        return f'<data encoding="base64" compression="zlib">{base64.b64encode(zlib.compress(raw)).decode()}</data>'
    if how == "gzip":
        return f'<data encoding="base64" compression="gzip">{base64.b64encode(gzip.compress(raw)).decode()}</data>'
    import zstandard
    data = base64.b64encode(zstandard.ZstdCompressor().compress(raw)).decode()
    return f'<data encoding="base64" compression="zstd">{data}</data>'


@pytest.mark.parametrize("how", ["csv", "xml", "base64", "zlib", "gzip", "zstd"])
def test_every_layer_encoding_gives_the_same_battlefield(tmp_path, how):
    gids = [1, 2, 1, 1, 2, 2] * 4
    body = tileset({1: {"wall": "true"}}) + f'<layer name="g" width="6" height="4">{encoded(gids, how)}</layer>'
    bf = load_battlefield(write_map(tmp_path, body))
    assert bf.blocks_move.ravel().tolist() == [g == 2 for g in gids]


def test_infinite_map_becomes_the_bounding_box_of_its_chunks(tmp_path):
    chunk_a = '<chunk x="-16" y="0" width="16" height="16">' + ",".join(["1"] * 256) + "</chunk>"
    chunk_b = '<chunk x="0" y="0" width="16" height="16">' + ",".join(["2"] * 256) + "</chunk>"
    body = tileset({1: {"wall": "true"}}) + \
        f'<layer name="g" width="10" height="10"><data encoding="csv">{chunk_a}{chunk_b}</data></layer>' + \
        '<layer name="empty" width="10" height="10"><data encoding="csv"/></layer>' + \
        objects("o", obj(1, "spawn", -512, 0, side=0), obj(2, "spawn", 480, 480, side=1))
    path = write_map(tmp_path, body, w=10, h=10).read_text().replace('infinite="0"', 'infinite="1"')
    (tmp_path / "inf.tmx").write_text(path)
    bf = load_battlefield(tmp_path / "inf.tmx")
    assert (bf.width, bf.height) == (32, 16)
    assert bf.blocks_move[:, 16:].all() and not bf.blocks_move[:, :16].any()
    assert bf.spawn[0] == [(0, 0)] and bf.spawn[1] == [(31, 15)]


def test_json_map_with_json_tileset_loads_like_tmx(tmp_path):
    png(tmp_path / "tiles.png", 64, 32)
    (tmp_path / "ts.json").write_text(json.dumps({
        "name": "t", "tilewidth": 32, "tileheight": 32, "tilecount": 2, "columns": 2, "image": "tiles.png",
        "imagewidth": 64, "imageheight": 32,
        "tiles": [{"id": 1, "properties": [{"name": "cover", "type": "string", "value": "heavy"}]}]}))
    (tmp_path / "m.json").write_text(json.dumps({
        "type": "map", "orientation": "orthogonal", "width": 3, "height": 1, "tilewidth": 32,
        "tileheight": 32, "infinite": False,
        "properties": [{"name": "cm_per_tile", "type": "float", "value": 3.0}],
        "tilesets": [{"firstgid": 1, "source": "ts.json"}],
        "layers": [{"type": "tilelayer", "name": "g", "width": 3, "height": 1, "data": [1, 2, 1]},
                   {"type": "objectgroup", "name": "o", "objects": [
                       {"id": 1, "type": "spawn", "x": 0, "y": 0, "width": 32, "height": 32,
                        "properties": [{"name": "side", "type": "int", "value": 0}]}]}]}))
    bf = load_battlefield(tmp_path / "m.json")
    assert bf.cover.tolist() == [[0, 2, 0]] and bf.cm_per_tile == 3.0 and bf.spawn[0] == [(0, 0)]


def test_template_objects_take_type_and_properties_from_the_template(tmp_path):
    (tmp_path / "spawn.tx").write_text('<?xml version="1.0"?><template><object type="spawn" width="64" '
                                       'height="32">' + props(side=1) + "</object></template>")
    body = tileset({}) + layer("g", ground()) + objects(
        "o", '<object id="1" template="spawn.tx" x="64" y="64"/>')
    assert sorted(load_battlefield(write_map(tmp_path, body)).spawn[1]) == [(2, 2), (3, 2)]


def test_external_tsx_tileset_properties_reach_the_battlefield(tmp_path):
    (tmp_path / "ext.tsx").write_text('<?xml version="1.0"?>' + tileset({0: {"climbable": "true"}})
                                      .replace(' firstgid="1"', ""))
    body = '<tileset firstgid="1" source="ext.tsx"/>' + layer("g", ground())
    assert load_battlefield(write_map(tmp_path, body)).climbable.all()


# --- refusals ----------------------------------------------------------------------------

@pytest.mark.parametrize("orientation", ["isometric", "staggered", "hexagonal"])
def test_non_orthogonal_map_is_refused_naming_the_orientation(tmp_path, orientation):
    path = write_map(tmp_path, tileset({}) + layer("g", ground()), orientation=orientation)
    with pytest.raises(MapError, match=f"orientation '{orientation}' is not supported"):
        load_map(path)


def test_missing_tileset_is_refused_naming_the_file(tmp_path):
    path = write_map(tmp_path, '<tileset firstgid="1" source="nowhere.tsx"/>' + layer("g", ground()))
    with pytest.raises(MapError, match="nowhere.tsx") as err:
        load_map(path)
    assert str(err.value).startswith("m.tmx: ")


def test_malformed_xml_is_refused_naming_file_and_line(tmp_path):
    path = tmp_path / "bad.tmx"
    path.write_text('<?xml version="1.0"?>\n<map orientation="orthogonal">\n<layer name="a">\n</map>\n')
    with pytest.raises(MapError, match=r"bad\.tmx, line 4: malformed XML"):
        load_map(path)


@pytest.mark.parametrize("content", [b"", b"\x00\x01garbage", b"<tileset/>", b"{\"layers\": 3}",
                                     b'<map orientation="orthogonal" width="2" height="2"/>'])
def test_garbage_files_raise_map_error_only(tmp_path, content):
    path = tmp_path / "x.tmx"
    path.write_bytes(content)
    with pytest.raises(MapError):
        load_map(path)


def test_truncated_compressed_data_names_the_layer(tmp_path):
    raw = zlib.compress(struct.pack("<24I", *([1] * 24)))[:-6]
    body = tileset({}) + ('<layer name="broken" width="6" height="4"><data encoding="base64" '
                          f'compression="zlib">{base64.b64encode(raw).decode()}</data></layer>')
    with pytest.raises(MapError, match="layer 'broken'"):
        load_map(write_map(tmp_path, body))


def test_missing_file_is_a_map_error(tmp_path):
    with pytest.raises(MapError, match="not found"):
        load_map(tmp_path / "nope.tmx")


# --- the external corpus ---------------------------------------------------------------

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "maps-external"


def corpus_rows():
    manifest = SHARED / "MANIFEST.md"
    if not manifest.is_file():
        return []
    rows = []
    for line in manifest.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 12 and re.fullmatch(r"\d+", cells[1]) and cells[4] in (
                "ortho", "json", "neg-orient", "broken-ref"):
            rows.append(pytest.param(cells[2].strip("`"), cells[4], cells[11], id=cells[2].strip("`")))
    return rows


needs_corpus = pytest.mark.skipif(
    not (SHARED / "MANIFEST.md").is_file(),
    reason="needs ../shared/maps-external beside the repository: real Tiled maps made by others, shared "
           "test data that is never copied into the repository (CI has it)")


@needs_corpus
def test_manifest_lists_every_role():
    roles = [p.values[1] for p in corpus_rows()]
    assert roles.count("neg-orient") >= 1 and roles.count("broken-ref") >= 1 and roles.count("ortho") >= 50


@needs_corpus
@pytest.mark.parametrize("rel, role, tilesets", corpus_rows())
def test_external_map(rel, role, tilesets):
    path = SHARED / rel
    if role in ("ortho", "json"):
        lm = load_map(path)
        bf = lm.battlefield
        assert bf.width > 0 and bf.height > 0
        assert bf.spawn.get(0), "side 0 has somewhere to deploy"
        if bf.width * bf.height > 1:
            assert bf.spawn.get(1), "side 1 has somewhere to deploy"
        for lay in lm.layers:
            assert lay.gids.shape == (bf.height, bf.width)
            assert all(int(g) in lm.tiles for g in np.unique(lay.gids) if g)
    elif role == "neg-orient":
        with pytest.raises(MapError, match="orientation '.*' is not supported"):
            load_map(path)
    else:
        missing = re.search(r"MISSING (\S+)", tilesets)
        if missing:                          # a missing tileset cannot be played: refused
            with pytest.raises(MapError, match=re.escape(missing.group(1))):
                load_map(path)
        else:                                # a missing picture: placeholders and a warning naming it
            lm = load_map(path)
            assert any("not found" in w and ".png" in w for w in lm.warnings)
            assert any(t.image == "" for t in lm.tiles.values())


# --- pictures beyond tile layers --------------------------------------------------------

def test_tile_objects_become_sprites_and_image_layers_are_listed(tmp_path):
    png(tmp_path / "sky.png", 64, 64)
    tile_object = '<object id="1" gid="3" x="32" y="96" width="32" height="64" rotation="0"/>'
    body = tileset({}) + layer("g", ground()) + objects("decor", tile_object) + \
        '<imagelayer name="sky" offsetx="4" offsety="0"><image source="sky.png"/></imagelayer>' + \
        '<imagelayer name="gone"><image source="nothere.png"/></imagelayer>'
    lm = load_map(write_map(tmp_path, body))
    (sprite,) = lm.sprites
    assert (sprite.x, sprite.y, sprite.width, sprite.height, sprite.layer) == (32.0, 32.0, 32.0, 64.0, "decor")
    assert lm.tiles[sprite.gid].rect == (64, 0, 32, 32)
    sky, gone = lm.image_layers
    assert sky.image == str((tmp_path / "sky.png").resolve()) and sky.offset == (4.0, 0.0)
    assert gone.image == "" and any("nothere.png" in w for w in lm.warnings)


def test_collection_tile_with_a_sub_rectangle_keeps_its_part_of_the_image(tmp_path):
    png(tmp_path / "sheet.png", 100, 100)
    body = ('<tileset firstgid="1" name="c" tilewidth="40" tileheight="40" tilecount="1" columns="0">'
            '<tile id="0" x="10" y="20" width="40" height="30"><image source="sheet.png" width="100" '
            'height="100"/></tile></tileset>') + layer("g", [[1, 0]])
    lm = load_map(write_map(tmp_path, body, w=2, h=1))
    assert lm.tiles[int(lm.layers[0].gids[0, 0])].rect == (10, 20, 40, 30)


def test_absurdly_large_map_is_refused_not_allocated(tmp_path):
    path = write_map(tmp_path, tileset({}), w=100000, h=100000)
    with pytest.raises(MapError, match="at most"):
        load_map(path)


def test_image_size_reads_png_and_jpeg_headers_and_rejects_garbage(tmp_path):
    from game.engine.tiled import image_size
    png(tmp_path / "a.png", 17, 9)
    jpeg = b"\xff\xd8" + b"\xff\xe0\x00\x04ab" + b"\xff\xc0\x00\x0b\x08" + struct.pack(">HH", 12, 34) + b"\x01"
    (tmp_path / "b.jpg").write_bytes(jpeg)
    (tmp_path / "c.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x00")   # zero length segment
    assert image_size(str(tmp_path / "a.png")) == (17, 9)
    assert image_size(str(tmp_path / "b.jpg")) == (34, 12)
    assert image_size(str(tmp_path / "c.jpg")) is None


# --- a property test: any painting, any encoding, the arrays the contract promises -------

PAINT = {1: {}, 2: {"wall": "true"}, 3: {"cover": "heavy", "hiding_place": "true"},
         4: {"deep_water": "true"}, 5: {"door": "closed"}}


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data(),
       st.sampled_from(["csv", "xml", "base64", "zlib", "gzip", "zstd"]))
def test_any_painting_gives_the_arrays_of_its_tiles(tmp_path_factory, w, h, data, how):
    ground_gids = data.draw(st.lists(st.sampled_from([1, 2, 4]), min_size=w * h, max_size=w * h))
    top_gids = data.draw(st.lists(st.sampled_from([0, 3, 5]), min_size=w * h, max_size=w * h))
    tiles = {gid - 1: p for gid, p in PAINT.items() if p}
    body = tileset(tiles) + \
        f'<layer name="ground" width="{w}" height="{h}">{encoded(ground_gids, how)}</layer>' + \
        f'<layer name="top" width="{w}" height="{h}">{encoded(top_gids, how)}</layer>'
    bf = load_battlefield(write_map(tmp_path_factory.mktemp("m"), body, w=w, h=h))
    g = np.array(ground_gids).reshape(h, w)
    t = np.array(top_gids).reshape(h, w)
    assert np.array_equal(bf.blocks_move, g == 2)
    assert np.array_equal(bf.blocks_sight, g == 2)
    assert np.array_equal(bf.deep_water, g == 4)
    assert np.array_equal(bf.cover, np.where(t == 3, 2, 0))
    assert np.array_equal(bf.hiding, t == 3)
    assert np.array_equal(bf.door, np.where(t == 5, int(Door.CLOSED), 0))
    for side in (0, 1):
        assert all(bf.can_stand(tile) for tile in bf.spawn[side])


def test_rotated_rectangle_covers_its_rotated_outline(tmp_path):
    # a 3×1 strip turned 90° clockwise about its top-left corner (64, 0) becomes a column at x 32..64
    rotated = '<object id="1" type="cover" x="64" y="0" width="96" height="32" rotation="90">' + \
        props(level="heavy") + "</object>"
    bf = load_battlefield(write_map(tmp_path, tileset({}) + layer("g", ground(6, 4)) + objects("o", rotated)))
    assert {(x, y) for y, x in zip(*np.nonzero(bf.cover))} == {(1, 0), (1, 1), (1, 2)}


def test_missing_template_keeps_the_object_with_a_warning(tmp_path):
    body = tileset({}) + layer("g", ground()) + objects(
        "o", '<object id="7" template="gone.tx" type="objective" x="0" y="0" width="32" height="32"/>')
    lm = load_map(write_map(tmp_path, body))
    assert lm.battlefield.objects_of("objective")[0].tiles == ((0, 0),)
    assert any("gone.tx" in w for w in lm.warnings)


def test_template_tile_object_brings_its_own_tileset(tmp_path):
    png(tmp_path / "other.png", 64, 32)
    (tmp_path / "other.tsx").write_text('<tileset name="o" tilewidth="32" tileheight="32" tilecount="2" '
                                        'columns="2"><image source="other.png" width="64" height="32"/></tileset>')
    (tmp_path / "crate.tx").write_text('<template><tileset firstgid="1" source="other.tsx"/>'
                                       '<object gid="2" width="32" height="32"/></template>')
    body = tileset({}) + layer("g", ground()) + objects("o", '<object id="1" template="crate.tx" x="64" y="64"/>')
    lm = load_map(write_map(tmp_path, body))
    (sprite,) = lm.sprites
    picture = lm.tiles[sprite.gid]
    assert picture.image == str((tmp_path / "other.png").resolve()) and picture.rect == (32, 0, 32, 32)
    assert (sprite.x, sprite.y) == (64.0, 32.0)


JSON_MAP = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 1, "tilewidth": 8, "tileheight": 8,
            "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 8, "tileheight": 8, "tilecount": 1,
                          "columns": 1, "tiles": [{"id": 0, "properties": []}]}],
            "layers": [{"type": "tilelayer", "name": "g", "width": 2, "height": 1, "data": [1, 0]},
                       {"type": "objectgroup", "name": "o", "objects": [
                           {"id": 1, "type": "area", "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}]}]}]}


@pytest.mark.parametrize("field,value,expected", [
    (("layers",), "g", "layers: should be a list of records, not a text"),
    (("layers", 0), "g", "layers[0]: should be a record, not a text"),
    (("layers", 0, "data"), {"a": 1}, "layers[0].data: should be a list of numbers or a base64 text, not a record"),
    (("layers", 0, "data", 1), "x", "layers[0].data[1]: should be a tile number, not a text"),
    (("layers", 0, "type"), 3, "layers[0].type: should be a text, not a number"),
    (("layers", 1, "objects", 0, "polygon", 0, "x"), None, "layers[1].objects[0].polygon[0].x: should be a number"),
    (("layers", 1, "objects", 0, "properties"), ["side"], "layers[1].objects[0].properties[0]: should be a record"),
    (("tilesets", 0, "tiles", 0), 7, "tilesets[0].tiles[0]: should be a record, not a number"),
    (("tilesets", 0, "name"), [1], "tilesets[0].name: should be a number or a text, not a list"),
    (("width",), {}, "width: should be a number or a text, not a record"),
    (("tilesets", 0, "firstgid"), None, "tilesets[0].firstgid: should be a number, not null"),
])
def test_json_map_field_of_the_wrong_type_is_refused_naming_the_field(tmp_path, field, value, expected):
    doc = json.loads(json.dumps(JSON_MAP))
    parent = doc
    for key in field[:-1]:
        parent = parent[key]
    parent[field[-1]] = value
    (tmp_path / "map.json").write_text(json.dumps(doc))
    with pytest.raises(MapError) as err:
        load_map(tmp_path / "map.json")
    assert err.value.place == "map.json" and expected in err.value.message, str(err.value)
    assert "Error" not in err.value.message


def test_json_tileset_field_of_the_wrong_type_names_the_tileset_file(tmp_path):
    (tmp_path / "ts.json").write_text(json.dumps({"name": "t", "tilewidth": 8, "tileheight": 8, "tiles": "none"}))
    doc = dict(JSON_MAP, tilesets=[{"firstgid": 1, "source": "ts.json"}])
    (tmp_path / "map.json").write_text(json.dumps(doc))
    with pytest.raises(MapError, match=r"^ts\.json: tiles: should be a list of records, not a text$"):
        load_map(tmp_path / "map.json")


def test_valid_json_map_of_the_type_tests_still_loads(tmp_path):
    (tmp_path / "map.json").write_text(json.dumps(JSON_MAP))
    assert load_battlefield(tmp_path / "map.json").width == 2
