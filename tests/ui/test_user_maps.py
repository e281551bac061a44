"""A designer's own maps: a map of the user maps folder that changed on disk since New battle was
last open is read afresh (its name, size, picture and armies) the next time New battle opens."""
from __future__ import annotations

import pygame

from game.ui.scenes import MenuScene, SetupScene

from .driver import button_at, click, press, shot, write_map


def _open_new_battle(app) -> SetupScene:
    click(app, button_at(app, "New battle"))
    setup = app.scene
    assert isinstance(setup, SetupScene)
    for _ in range(len(setup.maps) + 2):        # one thumbnail a frame
        app.step()
    return setup


def _map_row(app, path: str):
    """The centre of the map list's row for ``path`` (its tooltip is the file)."""
    return next(b.rect.center for b in app.ui.buttons if b.tooltip == path)


def test_a_user_map_changed_on_disk_is_read_afresh_when_new_battle_opens(app, home):
    path = write_map(home / "data" / "maps" / "meadow.tmx", 14, 9)
    app.push(MenuScene(app))
    app.step()
    setup = _open_new_battle(app)
    key = next(p for p in setup.maps if p.endswith("meadow.tmx"))
    click(app, _map_row(app, key))
    assert setup.map_path == key
    assert (setup.entries[key].name, setup.entries[key].size) == ("meadow", (14, 9))
    old_thumb = setup.thumbs[key].get_size()
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene)

    write_map(path, 30, 6)                      # the designer saves a wider, flatter map with a title
    path.write_text(path.read_text().replace(
        '<layer id="1"', '<properties><property name="name" value="Long meadow"/></properties>\n <layer id="1"'))
    setup = _open_new_battle(app)
    entry = setup.entries[key]
    assert (entry.name, entry.size, entry.error) == ("Long meadow", (30, 6), "")
    assert setup.thumbs[key].get_size() != old_thumb
    w, h = setup.thumbs[key].get_size()
    assert w > 3 * h                            # the picture is of the new 30 × 6 map
    click(app, _map_row(app, key))
    app.step()
    assert setup.map_path == key and setup.armies
    shot(app, "setup_user_map_changed.png")
    click(app, button_at(app, "Start"))
    assert app.scene.match.battlefield.width == 30 and app.scene.match.battlefield.height == 6


def test_play_with_a_map_and_no_rules_opens_new_battle_on_that_map(home, tmp_path, monkeypatch):
    """Tiled's *Play this map* command: ``escarmouche play --map %mapfile``."""
    from game.cli import main
    from game.ui.app import App

    path = write_map(tmp_path / "work in progress" / "bridge.tmx", 16, 10)
    seen = []
    monkeypatch.setattr(App, "screenshot", lambda self, target: seen.append(self.scene))
    code = main(["play", "--map", str(path), "--mode", "hotseat", "--seed", "31", "--lang", "en",
                 "--frames", "3", "--screenshot", str(tmp_path / "shot.png")])
    assert code == 0
    (setup,) = seen
    assert isinstance(setup, SetupScene)
    assert setup.map_path == str(path) and setup.entries[str(path)].size == (16, 10)
    assert setup.mode == "hotseat" and setup.seed_input.text == "31" and setup.armies
