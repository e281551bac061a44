"""The maps the game ships: they load, deploy both sides, pass the validator (and Tiled's own
command line when it is installed) and contain what their descriptions promise."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from game.engine.battlefield import Cover, Door
from game.engine.mapcheck import check_map
from game.engine.tiled import COVER_VALUES, DOOR_VALUES, LANDSCAPES, TERRAIN_PRESETS, load_map

MAPS = Path(__file__).resolve().parents[2] / "maps"
SHIPPED = ["ruined_town", "forest_village", "great_battlefield", "sky_deck"]


@pytest.fixture(scope="module")
def loaded():
    return {name: load_map(MAPS / f"{name}.tmx") for name in SHIPPED}


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_map_loads_without_warning_and_deploys_both_sides(loaded, name):
    lm = loaded[name]
    assert lm.warnings == []
    bf = lm.battlefield
    for side in (0, 1):
        assert len(bf.spawn[side]) >= 10
        assert all(bf.can_stand(t) for t in bf.spawn[side])
    assert not set(bf.spawn[0]) & set(bf.spawn[1])
    assert all(t.image and Path(t.image).is_file() for t in lm.tiles.values())


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_map_passes_the_validator_without_any_problem(name):
    assert [p.line() for p in check_map(MAPS / f"{name}.tmx")] == []


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.skipif(shutil.which("tiled") is None and not os.environ.get("CI"),
                    reason="Tiled is not installed (apt-get install tiled); CI installs it and never skips")
def test_tiled_command_line_exports_the_shipped_map(tmp_path, name):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run(["tiled", "--export-map", "json", str(MAPS / f"{name}.tmx"), str(tmp_path / "o.json")],
                         env=env, capture_output=True, timeout=30)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    data = json.loads((tmp_path / "o.json").read_text())
    assert [lay["name"] for lay in data["layers"]] == ["ground", "features", "objects"]


FEATURES = ["blocks_move", "blocks_sight", "cover", "deep_water", "terrain_cost", "crawl_gap", "climbable",
            "hiding", "perch", "trap_spot", "door", "exit_side", "hazard"]


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.skipif(shutil.which("tiled") is None and not os.environ.get("CI"),
                    reason="Tiled is not installed (apt-get install tiled); CI installs it and never skips")
def test_tiled_json_export_loads_to_the_same_battlefield(tmp_path, loaded, name):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = tmp_path / f"{name}.json"
    subprocess.run(["tiled", "--export-map", "json", str(MAPS / f"{name}.tmx"), str(out)],
                   env=env, capture_output=True, timeout=30, check=True)
    a, b = loaded[name].battlefield, load_map(out).battlefield
    for feature in FEATURES:
        assert np.array_equal(getattr(a, feature), getattr(b, feature)), feature
    assert a.spawn == b.spawn
    assert [(o.kind, o.name, o.tiles, o.properties) for o in a.objects] == \
        [(o.kind, o.name, o.tiles, o.properties) for o in b.objects]


def test_ruined_town_has_every_feature_of_issue_2(loaded):
    lm = loaded["ruined_town"]
    bf = lm.battlefield
    assert 20 <= bf.width <= 28 and 20 <= bf.height <= 28
    walls = bf.blocks_move & bf.blocks_sight
    assert walls.sum() >= 20
    assert (bf.cover == Cover.LIGHT).any() and (bf.cover == Cover.HEAVY).any()
    assert bf.deep_water.any() and bf.crawl_gap.any() and bf.climbable.any() and bf.hiding.any()
    assert bf.perch.any() and bf.trap_spot.any()
    assert {int(d) for d in np.unique(bf.door)} == {Door.NONE, Door.OPEN, Door.CLOSED, Door.LOCKED}
    kinds = {o.kind for o in bf.objects}
    assert {"emplacement", "item", "objective", "trap", "spawn"} <= kinds
    (emp,) = bf.objects_of("emplacement")                # one machine gun, on the axis: both sides reach it
    assert emp.properties["weapon"] == "machine_gun" and emp.properties["state"] == "working"
    assert bf.properties["landscape"] == "hostile" and bf.cm_per_tile == 2.5


def test_forest_village_is_a_48_square_woodland_with_exits_and_a_hazard(loaded):
    bf = loaded["forest_village"].battlefield
    assert (bf.width, bf.height) == (48, 48)
    assert (bf.climbable & bf.perch & bf.hiding).sum() >= 100          # the woods
    assert (bf.door >= Door.CLOSED).any() and bf.deep_water.any()
    assert (bf.terrain_cost > 1).any()                                 # the stream
    campfire = int(bf.hazard.max())
    assert bf.properties["hazard_ids"][campfire] == "campfire"
    assert set(np.nonzero(bf.exit_side == 0)[1]) == {0}
    assert set(np.nonzero(bf.exit_side == 1)[1]) == {47}


MIRRORED = ["ruined_town", "forest_village"]


def mirrored(bf, tiles):
    return sorted((bf.width - 1 - x, y) for x, y in tiles)


@pytest.mark.parametrize("name", MIRRORED)
def test_shipped_map_is_mirror_fair_so_neither_side_deploys_better_placed(loaded, name):
    """Every feature of the east half mirrors the west half; each side's spawn zone is the mirror image of
    the other's; a control zone is its own mirror image and an exit mirrors the other side's exit."""
    bf = loaded[name].battlefield
    for feature in FEATURES:
        grid = getattr(bf, feature)
        flipped = np.fliplr(grid)
        if feature == "exit_side":
            flipped = np.where(flipped >= 0, 1 - flipped, flipped)
        assert np.array_equal(grid, flipped), feature
    assert mirrored(bf, bf.spawn[0]) == sorted(bf.spawn[1])
    objectives = bf.objects_of("objective")
    for o in objectives:
        image = mirrored(bf, o.tiles)
        if o.properties.get("kind", "control") == "control":
            assert image == sorted(o.tiles), o.name
        else:
            side = int(o.properties["side"])
            assert any(sorted(p.tiles) == image and int(p.properties["side"]) == 1 - side for p in objectives), o.name
    for kind in ("trap", "item"):
        for o in bf.objects_of(kind):
            assert any(sorted(p.tiles) == mirrored(bf, o.tiles) for p in bf.objects_of(kind)), o.name


def test_great_battlefields_spawns_mirror_each_other_about_its_central_bridge(loaded):
    """Its country is not mirrored, but each army deploys on the mirror image of the other's zone, as far
    from the central bridge, which is its own mirror image (a tile nearer it won side 0 nine KOLAPS
    battles in ten)."""
    bf = loaded["great_battlefield"].battlefield
    assert mirrored(bf, bf.spawn[0]) == sorted(bf.spawn[1])
    bridge = next(o for o in bf.objects_of("objective") if o.name == "Central bridge")
    assert mirrored(bf, bridge.tiles) == sorted(bridge.tiles)


def test_great_battlefield_is_at_least_128_square_and_loads_in_well_under_a_second():
    start = time.perf_counter()
    lm = load_map(MAPS / "great_battlefield.tmx")
    elapsed = time.perf_counter() - start
    bf = lm.battlefield
    assert bf.width >= 128 and bf.height >= 128
    assert elapsed < 1.0
    assert bf.deep_water.any() and (bf.cover == Cover.HEAVY).any() and bf.crawl_gap.any()
    assert len(bf.objects_of("objective")) == 3


def test_sky_deck_has_boarding_and_crew_zones_where_the_sides_deploy(loaded):
    bf = loaded["sky_deck"].battlefield
    (boarding,) = bf.objects_of("boarding_zone")
    (crew,) = bf.objects_of("crew_zone")
    assert sorted(boarding.tiles) == sorted(bf.spawn[0])
    assert sorted(crew.tiles) == sorted(bf.spawn[1])
    assert bf.blocks_move[0].all() and bf.blocks_move[-1].all()        # open sky around the hull
    assert (bf.climbable & bf.perch).sum() == 2                        # two masts


def test_tileset_gives_each_tile_its_documented_properties():
    labels = {}
    for tile in ET.parse(MAPS / "terrain.tsx").getroot().iter("tile"):
        props = {p.get("name"): p.get("value") for p in tile.iter("property")}
        labels[props.pop("label")] = props
    assert labels["wall"] == {"wall": "true"}
    assert labels["low_wall"] == {"blocks_move": "true", "cover": "light"}
    assert labels["barbed_wire"] == {"crawl_only": "true"}
    assert labels["grass"] == {}
    assert labels["tree"] == {"climbable": "true", "hiding_place": "true", "perch": "true"}


def test_tiled_project_offers_the_loaders_values_as_enums():
    project = json.loads((MAPS / "escarmouche.tiled-project").read_text())
    types = {t["name"]: t for t in project["propertyTypes"]}
    assert types["Cover"]["values"] == list(COVER_VALUES)
    assert types["Door"]["values"] == list(DOOR_VALUES)
    assert types["Terrain"]["values"] == list(TERRAIN_PRESETS)
    assert types["Landscape"]["values"] == list(LANDSCAPES)
    assert {"spawn", "objective", "trap", "emplacement", "item", "boarding_zone", "crew_zone"} <= set(types)
    assert all(t["type"] in ("enum", "class") for t in types.values())
    assert len({t["id"] for t in types.values()}) == len(types)


def test_tiled_project_commands_validate_and_play_the_open_map(capsys):
    from game.cli import build_parser, main

    project = json.loads((MAPS / "escarmouche.tiled-project").read_text())
    commands = {c["name"]: c for c in project["commands"]}
    assert {n: (c["command"], c["arguments"]) for n, c in commands.items()} == {
        "Validate": ("escarmouche", "validate-map %mapfile"), "Play this map": ("escarmouche", "play --map %mapfile")}
    assert all(c["enabled"] and c["saveBeforeExecute"] and c["showOutput"] for c in commands.values())
    town = str(MAPS / "ruined_town.tmx")                 # Tiled puts the open map's path for %mapfile
    play = build_parser().parse_args(commands["Play this map"]["arguments"].replace("%mapfile", town).split())
    assert (play.command, play.map, play.rules) == ("play", town, None)
    assert main(commands["Validate"]["arguments"].replace("%mapfile", town).split()) == 0
    assert capsys.readouterr().out == f"{town}: ok\n"
