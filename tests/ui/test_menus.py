"""Main menu, New battle (maps with thumbnails, rules, mode, armies, seed) and Settings persistence."""
from __future__ import annotations

import json

import pygame
import pytest

from game.ui.battle import BattleScene
from game.ui.i18n import name_words
from game.ui.scenes import MenuScene, SettingsScene, SetupScene
from game.ui.app import App
from game.ui.settings import Settings, settings_path, system_language

from .driver import button_at, click, press, shot, steps, type_text, write_map


def test_new_battle_from_the_menu_with_an_edited_army_and_seed(app, home):
    write_map(home / "data" / "maps" / "meadow.tmx", 14, 9)
    app.push(MenuScene(app))
    steps(app, 1)
    shot(app, "menu.png")
    click(app, button_at(app, "New battle"))
    setup = app.scene
    assert isinstance(setup, SetupScene)
    meadow = next(p for p in setup.maps if p.endswith("meadow.tmx"))
    for _ in range(len(setup.maps) + 2):
        app.step()
    assert isinstance(setup.thumbs[meadow], pygame.Surface)
    click(app, button_at(app, "Hot-seat"))
    assert setup.mode == "hotseat"
    before = [len(a.figures) for a in setup.armies]
    remove = [b for b in app.ui.buttons if b.label == "×"]
    click(app, remove[0].rect.center)
    steps(app, 1)
    for _ in range(2):      # the red army's "+ Add a figure" opens the recruits; one click takes one on
        add = [b for b in app.ui.buttons if b.label == "+ Add a figure"]
        click(app, add[-1].rect.center)
        assert setup.recruiting == 1
        click(app, next(b for b in app.ui.buttons if b.label.startswith("+ ") and b.label != "+ Add a figure").rect.center)
        assert setup.recruiting is None
    assert [len(a.figures) for a in setup.armies] == [before[0] - 1, before[1] + 2]
    rank_before = setup.armies[0].figures[0]["rank"]
    first = next(b for b in app.ui.buttons if b.tooltip.endswith("Click to change its choices"))
    click(app, first.rect.center)           # the figure's sheet: a button per choice the rules allow
    assert setup.sheet == (0, 0)
    shot(app, "setup_sheet.png")
    rank_button = next(b for b in app.ui.buttons if b.label == setup.value_label(setup.armies[0].figures[0], "rank"))
    click(app, rank_button.rect.center)
    changed = setup.armies[0].figures[0]["rank"]
    assert changed != rank_before and changed in setup.choices["rank"]
    click(app, button_at(app, "Done"))
    assert setup.sheet is None
    seed_field = next(f for r, f in app.ui.inputs if f is setup.seed_input)
    click(app, next(r for r, f in app.ui.inputs if f is seed_field).center)
    for _ in range(10):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "4242")
    steps(app, 1)
    shot(app, "setup.png")
    click(app, button_at(app, "Start"))
    battle = app.scene
    assert isinstance(battle, BattleScene)
    assert battle.match.seed == 4242
    assert [len(a.figures) for a in battle.match.armies] == [before[0] - 1, before[1] + 2]
    assert battle.match.armies[0].figures[0]["rank"] == changed
    assert len(battle.rules.figures(battle.match.state, None)) == sum(before) + 1


def test_settings_change_language_speed_scale_and_a_key_and_persist(app, home):
    app.push(MenuScene(app))
    steps(app, 1)
    click(app, button_at(app, "Settings"))
    assert isinstance(app.scene, SettingsScene)
    click(app, button_at(app, "Français"))
    assert app.settings.language == "fr"
    click(app, button_at(app, "Lente"))
    click(app, button_at(app, "125 %"))
    end_button = next(b for b in app.ui.buttons if b.label == "E")
    click(app, end_button.rect.center)
    press(app, pygame.K_f)
    steps(app, 1)
    assert any(b.label == "F" for b in app.ui.buttons)
    shot(app, "settings_fr.png")
    for _ in range(6):          # the list's down arrow brings the rest of the keys into view
        if any(b.label == "Échap" for b in app.ui.buttons):
            break
        down = max((b for b in app.ui.buttons if b.label == "" and b.enabled), key=lambda b: b.rect.y)
        click(app, down.rect.center)
    assert any(b.label == "Échap" for b in app.ui.buttons)
    saved = json.loads(settings_path().read_text())
    assert saved["language"] == "fr" and saved["ai_speed"] == "slow" and saved["ui_scale"] == 1.25
    assert saved["keys"]["end"] == "f"
    again = Settings.load()
    assert (again.language, again.ai_speed, again.ui_scale, again.keys["end"]) == ("fr", "slow", 1.25, "f")


@pytest.mark.parametrize("env, lang, button", [({"LANG": "en_US.UTF-8"}, "en", "New battle"),
                                               ({"LANG": "fr_FR.UTF-8"}, "fr", "Nouvelle bataille"),
                                               ({"LANG": "fr_FR.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en", "New battle"),
                                               ({"LANG": "C.UTF-8"}, "en", "New battle"),
                                               ({"LANG": "fr_CA.UTF-8"}, "fr", "Nouvelle bataille")])
def test_the_first_start_speaks_the_system_s_language_and_a_chosen_one_is_kept(home, monkeypatch, env, lang, button):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert not settings_path().exists() and system_language() == lang
    app = App({"fps": 0})
    app.push(MenuScene(app))
    steps(app, 1)
    assert app.settings.language == lang and button_at(app, button)
    other = "fr" if lang == "en" else "en"
    Settings(language=other).save()
    assert Settings.load().language == other        # once chosen, the system's no longer counts
    pygame.quit()


def test_a_damaged_settings_file_gives_the_defaults(home):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text("{ broken", encoding="utf-8")
    assert Settings.load() == Settings()


def test_no_argument_opens_the_main_menu(home, tmp_path):
    from game.ui.app import run
    png = tmp_path / "menu.png"
    assert run({"frames": 3, "screenshot": str(png), "fps": 0}) == 0
    assert pygame.image.load(str(png)).get_size() == (1280, 720)


def drawn_texts(app) -> list[str]:
    """Every text the next frame draws."""
    seen = []
    draw = app.ui.text
    app.ui.text = lambda surface, text, *a, **k: (seen.append(text), draw(surface, text, *a, **k))[1]
    app.step()
    app.ui.text = draw
    return seen


def test_each_map_of_the_list_shows_its_size_and_scale_or_why_it_cannot_be_played(app, home):
    from game.ui.i18n import set_language

    meadow = write_map(home / "data" / "maps" / "meadow.tmx", 14, 9)
    meadow.write_text(meadow.read_text().replace(
        '<layer id="1"', '<properties><property name="cm_per_tile" type="float" value="5"/></properties>\n <layer id="1"'))
    (home / "data" / "maps" / "broken.tmx").write_text("<map width='3'", encoding="utf-8")
    set_language("fr")
    app.push(SetupScene(app))
    setup = app.scene
    for _ in range(len(setup.maps) + 2):
        app.step()
    texts = drawn_texts(app)
    shot(app, "setup_map_list.png")
    set_language("en")
    assert "14 × 9 cases · 5 cm par case" in texts
    broken = next(p for p in setup.maps if p.endswith("broken.tmx"))
    error = setup.map_error(broken)
    assert error and "\n" not in error and any(error[:30] in t for t in texts)
    shipped = [e for e in setup.entries.values() if e.shipped]
    assert shipped and all(f"{e.size[0]} × {e.size[1]} cases" in " ".join(texts) for e in shipped[:3])


def test_versus_ai_lets_the_player_pick_a_side_and_the_army_panel_says_which_one_is_theirs(app, home):
    app.push(SetupScene(app))
    setup = app.scene
    for _ in range(len(setup.maps) + 2):
        app.step()
    click(app, button_at(app, "Versus AI"))
    click(app, button_at(app, "Red side"))
    assert setup.mode == "vs-ai" and setup.human_side == 1
    texts = drawn_texts(app)
    names = {a.side: name_words(a.name) for a in setup.armies}     # "Ice squad": the army's name in English
    assert f"Red side — {names[1]} (you)" in texts and f"Blue side — {names[0]} (AI)" in texts
    click(app, button_at(app, "Start"))
    battle = app.scene
    assert isinstance(battle, BattleScene) and battle.human_side == 1 and set(battle.ai_players) == {0}
