"""The AI's level, chosen in New battle with the mouse (both languages) and on the command line."""
from __future__ import annotations

import pytest

from game.cli import build_parser, main
from game.ui.battle import BattleScene
from game.ui.i18n import set_language
from game.ui.scenes import MenuScene, SetupScene

from .driver import button_at, click, shot, steps, write_map


def open_setup(app, home):
    write_map(home / "data" / "maps" / "meadow.tmx", 14, 9)
    app.push(MenuScene(app))
    steps(app, 1)
    click(app, button_at(app, "New battle" if app.settings.language == "en" else "Nouvelle bataille"))
    setup = app.scene
    assert isinstance(setup, SetupScene)
    setup.map_path = next(p for p in setup.maps if p.endswith("meadow.tmx"))
    setup.rules = "eisdrachen"
    steps(app, 2)
    return setup


def test_the_level_chosen_in_new_battle_is_the_level_the_computer_plays(app, home):
    setup = open_setup(app, home)
    assert setup.mode == "vs-ai" and setup.ai_level == "normal"
    click(app, button_at(app, "AI: Normal"))          # the one button turns through the levels
    steps(app, 1)
    assert setup.ai_level == "hard"
    steps(app, 1)
    path = shot(app, "setup_ai_level.png")
    assert path.stat().st_size > 0
    click(app, button_at(app, "Start"))
    battle = app.scene
    assert isinstance(battle, BattleScene)
    (ai,) = battle.ai_players.values()
    assert ai.name == "tactical:hard" and ai.level.name == "hard"


def test_hot_seat_offers_no_level_and_ai_versus_ai_does(app, home):
    open_setup(app, home)
    click(app, button_at(app, "Hot-seat"))
    steps(app, 1)
    assert not any(b.label.startswith("AI: ") for b in app.ui.buttons)
    click(app, button_at(app, "AI vs AI"))
    steps(app, 1)
    click(app, button_at(app, "AI: Normal"))
    steps(app, 1)
    click(app, button_at(app, "AI: Hard"))
    steps(app, 1)
    click(app, button_at(app, "Start"))
    battle = app.scene
    assert {p.name for p in battle.ai_players.values()} == {"tactical:easy"}


def test_the_level_buttons_speak_french(app, home):
    app.settings.language = "fr"
    set_language("fr")
    try:
        setup = open_setup(app, home)
        click(app, button_at(app, "IA : Normal"))
        steps(app, 1)
        assert setup.ai_level == "hard"
        assert any(b.label == "IA : Difficile" for b in app.ui.buttons)
    finally:
        set_language("en")


def test_play_takes_an_ai_level_and_refuses_an_unknown_one_in_one_line(capsys):
    args = build_parser().parse_args(["play", "--map", "ruined_town", "--ai-level", "hard"])
    assert args.ai_level == "hard"
    with pytest.raises(SystemExit) as stop:
        main(["play", "--map", "ruined_town", "--ai-level", "brutal"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--ai-level" in err[0] and "brutal" in err[0]
