"""Save with Ctrl+S, quit, load from the menu and go on; a bad save is refused with a message."""
from __future__ import annotations

import pygame

from game.ui.app import App, start_battle
from game.ui.battle import BattleScene
from game.ui.scenes import LoadScene, MenuScene
from game.ui.settings import Settings, saves_dir

from .driver import button_at, click, play_human, press, shot, steps, type_text, write_map


def test_save_quit_load_and_continue(app, home, tmp_path):
    tmx = write_map(tmp_path / "maps" / "field.tmx", 12, 8)
    app.push(MenuScene(app))
    scene = start_battle(app, tmx, "eisdrachen", "hotseat", 21)
    app.push(scene)
    steps(app, 2)
    match = scene.match
    for _ in range(6):
        play_human(app, scene, match)
    answers = list(match.answers)
    digest = match.digest()
    assert len(answers) >= 4
    press(app, pygame.K_EQUALS)             # zoomed in when saved: the loaded battle opens zoomed in
    zoom = scene.view.zoom
    press(app, pygame.K_s, pygame.KMOD_LCTRL)
    saves = list(saves_dir().glob("*.json"))
    assert [p.name for p in saves if p.name != "autosave.json"], saves
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step()
    assert not app.running
    pygame.quit()

    again = App({"fps": 0}, Settings(language="en", ai_speed="instant", animations="off"))
    again.push(MenuScene(again))
    steps(again, 1)
    click(again, button_at(again, "Load"))
    assert isinstance(again.scene, LoadScene)
    steps(again, 1)
    kept = next(str(p) for p in saves if p.name != "autosave.json")
    row = next(b for b in again.ui.buttons if b.tooltip == kept)     # the file in the tooltip
    assert row.label == "field — Eisdrachen"        # the row says which map and rules, not the file name
    click(again, row.rect.center)
    assert isinstance(again.scene, BattleScene)
    loaded = again.scene.match
    assert loaded.answers == answers and loaded.digest() == digest
    steps(again, 2)
    assert again.scene.view.zoom == zoom
    shot(again, "loaded_battle.png")
    play_human(again, again.scene, loaded)
    assert len(loaded.answers) == len(answers) + 1


def test_a_bad_save_shows_a_message_and_the_game_goes_on(app, home):
    saves_dir().mkdir(parents=True, exist_ok=True)
    (saves_dir() / "broken.json").write_text("{ not json", encoding="utf-8")
    app.push(MenuScene(app))
    app.push(LoadScene(app))
    steps(app, 1)
    click(app, button_at(app, "broken"))
    assert isinstance(app.scene, LoadScene)
    assert "cannot be loaded" in app.message and "broken.json" in app.message
    shot(app, "bad_save.png")
    click(app, button_at(app, "Back"))
    assert isinstance(app.scene, MenuScene)


def test_load_by_path_names_a_missing_file(app, home, tmp_path):
    app.push(MenuScene(app))
    app.push(LoadScene(app))
    steps(app, 1)
    field = next(rect for rect, f in app.ui.inputs)
    click(app, field.center)
    type_text(app, str(tmp_path / "nowhere.json"))
    click(app, button_at(app, "Open"))
    assert "no such file" in app.message
