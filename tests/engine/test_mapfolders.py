"""Maps folders: the shipped maps and the player's own folder, listed with name, size and scale."""
from __future__ import annotations

import json
import os
from pathlib import Path

from game.engine.mapfolders import (find_map, list_maps, map_dirs, map_names, read_entry, shipped_maps_dir,
                                   user_maps_dir)


def test_user_maps_folder_follows_escarmouche_home(tmp_path, monkeypatch):
    monkeypatch.setenv("ESCARMOUCHE_HOME", str(tmp_path))
    assert user_maps_dir() == tmp_path / "data" / "maps"
    assert not user_maps_dir().exists()
    dirs = map_dirs(create_user_dir=True)
    assert dirs[-1] == tmp_path / "data" / "maps" and dirs[-1].is_dir()
    assert dirs[0].name == "maps" and (dirs[0] / "ruined_town.tmx").is_file()


def test_list_maps_gives_shipped_maps_then_user_maps(tmp_path, monkeypatch):
    monkeypatch.setenv("ESCARMOUCHE_HOME", str(tmp_path))
    user = tmp_path / "data" / "maps"
    user.mkdir(parents=True)
    (user / "mine.tmx").write_text('<map orientation="orthogonal" width="30" height="20" tilewidth="32" '
                                   'tileheight="32"><properties><property name="cm_per_tile" type="float" '
                                   'value="5"/></properties></map>')
    (user / "notes.json").write_text(json.dumps({"hello": 1}))
    (user / "broken.tmx").write_text("<map")
    entries = list_maps()
    shipped = [e for e in entries if e.shipped]
    mine = [e for e in entries if not e.shipped]
    assert {e.path.name for e in shipped} >= {"ruined_town.tmx", "forest_village.tmx",
                                              "great_battlefield.tmx", "sky_deck.tmx"}
    assert entries.index(shipped[-1]) < entries.index(mine[0])
    assert [(e.path.name, e.name, e.size, e.cm_per_tile) for e in mine if not e.error] == \
        [("mine.tmx", "mine", (30, 20), 5.0)]
    (broken,) = [e for e in mine if e.error]
    assert broken.path.name == "broken.tmx"
    assert Path(os.fspath(mine[0])) == mine[0].path


def test_shipped_entry_reads_its_titles_size_and_scale():
    town = read_entry(Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx")
    assert (town.name, town.size, town.cm_per_tile) == ("Ruined town", (24, 24), 2.5)
    assert (town.title("en"), town.title("fr"), town.title("de")) == ("Ruined town", "Ville en ruines", "Ruined town")


def test_an_older_map_s_name_is_its_title_in_every_language(tmp_path):
    path = tmp_path / "old.tmx"
    path.write_text('<map width="3" height="2"><properties><property name="name" value="Vieux pont"/>'
                    '</properties></map>', encoding="utf-8")
    old = read_entry(path)
    assert (old.title("en"), old.title("fr")) == ("Vieux pont", "Vieux pont")


def test_json_map_entry(tmp_path):
    path = tmp_path / "m.tmj"
    path.write_text(json.dumps({"type": "map", "width": 8, "height": 6, "properties": [
        {"name": "name", "type": "string", "value": "Désert"}]}))
    assert read_entry(path).name == "Désert" and read_entry(path).size == (8, 6)


def test_map_names_are_the_file_names_of_a_folders_maps_without_suffix(tmp_path):
    for name in ("b.tmx", "a.tmj", "c.json", "terrain.tsx", "notes.txt"):
        (tmp_path / name).write_text("x")
    (tmp_path / "folder.tmx").mkdir()
    assert map_names(tmp_path) == ["a", "b", "c"]
    assert map_names(tmp_path / "missing") == []
    assert set(map_names(shipped_maps_dir())) >= {"ruined_town", "forest_village", "great_battlefield", "sky_deck"}


def test_find_map_takes_a_path_or_the_name_of_a_map_in_a_maps_folder_from_any_working_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ESCARMOUCHE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    town = shipped_maps_dir() / "ruined_town.tmx"
    assert find_map("ruined_town") == town
    assert find_map("ruined_town.tmx") == town
    user = tmp_path / "home" / "data" / "maps"
    user.mkdir(parents=True)
    (user / "meadow.tmj").write_text("{}")
    (user / "ruined_town.tmx").write_text("<map/>")
    assert find_map("meadow") == user / "meadow.tmj"
    assert find_map("ruined_town") == town                 # a shipped map first
    (tmp_path / "ruined_town").write_text("<map/>")
    assert find_map("ruined_town") == Path("ruined_town")  # a file the path names wins over a name
    assert find_map("maps/ruined_town.tmx") is None        # a path names that file only
    assert find_map("nowhere") is None
    assert find_map("") is None
    assert find_map("bad\0name") is None
