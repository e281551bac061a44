"""The validator: load errors become one error, and maps that load get warnings with places."""
from __future__ import annotations

from game.engine.mapcheck import check_map

from .test_tiled import layer, objects, obj, props, tileset, write_map

WALL = {"wall": "true"}


def spawns(w=6, h=4):
    return objects("deploy", obj(90, "spawn", 0, 0, 64, h * 32, side=0),
                   obj(91, "spawn", (w - 2) * 32, 0, 64, h * 32, side=1))


def open_map(tmp_path, rows, tiles=None, extra="", **kw):
    w, h = len(rows[0]), len(rows)
    return write_map(tmp_path, tileset(tiles or {1: WALL}) + layer("g", rows) + extra, w=w, h=h, **kw)


def test_a_clean_map_has_no_problem(tmp_path):
    assert check_map(open_map(tmp_path, [[1] * 6 for _ in range(4)], extra=spawns())) == []


def test_load_error_is_one_error_naming_file_and_place(tmp_path):
    path = write_map(tmp_path, tileset({}) + layer("g", [[1] * 6] * 4), orientation="isometric")
    (p,) = check_map(path)
    assert p.severity == "error" and p.file == "m.tmx" and "isometric" in p.message and p.fix
    assert p.place == "map" and p.line().startswith("m.tmx: map: orientation 'isometric'")


def test_malformed_map_error_has_the_line(tmp_path):
    path = tmp_path / "bad.tmx"
    path.write_text("<map>\n<layer>\n</map>")
    (p,) = check_map(path)
    assert p.severity == "error" and p.file == "bad.tmx" and p.place == "line 3"


def test_missing_tileset_error_names_the_file(tmp_path):
    path = write_map(tmp_path, '<tileset firstgid="1" source="lost.tsx"/>' + layer("g", [[1] * 6] * 4))
    (p,) = check_map(path)
    assert p.severity == "error" and "lost.tsx" in p.message


def test_spawn_zone_with_no_passable_tile_is_an_error(tmp_path):
    rows = [[1] * 6 for _ in range(4)]
    for y in range(4):
        rows[y][0] = rows[y][1] = 2
    problems = check_map(open_map(tmp_path, rows, extra=spawns()))
    assert [(p.place, p.severity) for p in problems if "stood on" in p.message] == [("spawn side 0", "error")]


def test_side_that_cannot_reach_the_other_is_warned(tmp_path):
    rows = [[1] * 6 for _ in range(4)]
    for y in range(4):
        rows[y][3] = 2
    problems = check_map(open_map(tmp_path, rows, extra=spawns()))
    assert any(p.severity == "warning" and "no path on foot" in p.message for p in problems)


def test_a_diagonal_wall_separates_the_sides_because_corners_cannot_be_cut(tmp_path):
    rows = [[1] * 8 for _ in range(6)]
    for y in range(6):
        rows[y][y + 1] = 2                   # a staircase of walls touching only at their corners
    problems = check_map(open_map(tmp_path, rows, extra=objects(
        "deploy", obj(90, "spawn", 0, 128, 32, 64, side=0), obj(91, "spawn", 224, 0, 32, 64, side=1))))
    assert any("no path on foot" in p.message for p in problems)


def test_a_door_in_the_wall_keeps_the_sides_connected_and_is_not_warned(tmp_path):
    rows = [[1] * 6 for _ in range(4)]
    for y in range(4):
        rows[y][3] = 2
    rows[2][3] = 3
    problems = check_map(open_map(tmp_path, rows, tiles={1: WALL, 2: {"door": "closed"}}, extra=spawns()))
    assert problems == []


def test_door_not_between_walls_is_warned_with_its_tile(tmp_path):
    rows = [[1] * 6 for _ in range(4)]
    rows[1][2] = 3
    problems = check_map(open_map(tmp_path, rows, tiles={1: WALL, 2: {"door": "open"}}, extra=spawns()))
    assert [p.place for p in problems if "door" in p.message] == ["tile (2, 1)"]


def test_unknown_value_and_misspelt_property_are_warned_with_a_fix(tmp_path):
    rows = [[1] * 6 for _ in range(4)]
    rows[0][2], rows[0][3] = 2, 3
    problems = check_map(open_map(tmp_path, rows, tiles={1: {"cover": "mid"}, 2: {"hidding_place": "true"}},
                                  extra=spawns()))
    messages = {p.message: p.fix for p in problems}
    assert any("cover 'mid'" in m and "light" in f for m, f in messages.items())
    assert any("hidding_place" in m and "hiding_place" in f for m, f in messages.items())


def test_perch_that_is_not_climbable_and_exit_off_the_edge_are_warned(tmp_path):
    rows = [[1] * 6 for _ in range(4)]
    rows[1][1], rows[2][2] = 2, 3
    problems = check_map(open_map(tmp_path, rows, tiles={1: {"perch": "true"}, 2: {"exit": 0}},
                                  extra=spawns()))
    places = {(p.place, p.message.split(" ")[0]) for p in problems}
    assert ("tile (1, 1)", "perch") in places
    assert any(p.place == "tile (2, 2)" and "not on the map edge" in p.message for p in problems)


def test_errors_come_before_warnings(tmp_path):
    rows = [[1] * 6 for _ in range(4)]
    rows[1][2] = 3
    for y in range(4):
        rows[y][5] = rows[y][4] = 2
    problems = check_map(open_map(tmp_path, rows, tiles={1: WALL, 2: {"door": "open"}}, extra=spawns()))
    assert [p.severity for p in problems] == sorted((p.severity for p in problems), key=lambda s: s != "error")
    assert problems[0].severity == "error" and problems[-1].severity == "warning"


def test_map_property_typo_is_warned(tmp_path):
    path = open_map(tmp_path, [[1] * 6 for _ in range(4)], extra=spawns(), map_props=props(cm_per_tiles=3))
    assert any(p.place == "map properties" and "cm_per_tile" in p.fix for p in check_map(path))
