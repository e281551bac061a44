"""The command line of an installed game, from any working folder: --version, shipped maps by name,
and a help text for every flag that names the shipped maps."""
from __future__ import annotations

import argparse
import json
from importlib.metadata import version

import pygame
import pytest

import game
from game.cli import build_parser, main
from game.engine.mapfolders import map_names, shipped_maps_dir

SHIPPED = ["forest_village", "great_battlefield", "ruined_town", "sky_deck"]


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A working folder with no maps in it, and a private user folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ESCARMOUCHE_HOME", str(tmp_path / "home"))
    return tmp_path


def test_version_prints_the_installed_package_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"escarmouche {game.__version__}"
    assert version("escarmouche") == game.__version__


def _subcommands(parser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def test_every_flag_of_every_command_has_a_help_text():
    parser = build_parser()
    commands = _subcommands(parser)
    assert set(commands) == {"play", "sim", "replay", "validate-map", "bench"}
    for name, sub in [("escarmouche", parser), *commands.items()]:
        for action in sub._actions:
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                assert action.help and len(action.help) > 10, f"{name} {action.option_strings or action.dest}"


@pytest.mark.parametrize("command", ["play", "sim"])
def test_help_of_a_command_taking_a_map_names_every_shipped_map(command, capsys):
    assert set(map_names(shipped_maps_dir())) >= set(SHIPPED)
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in map_names(shipped_maps_dir()):
        assert name in text
    assert "maps folder" in text


def test_sim_finds_a_shipped_map_by_name_from_any_folder(elsewhere, capsys):
    code = main(["sim", "--map", "ruined_town", "--rules", "eisdrachen", "--ai", "random", "--max-turns", "1",
                 "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1


def test_an_unknown_map_is_one_line_naming_the_shipped_maps_with_exit_code_2(elsewhere, capsys):
    for argv in (["sim", "--map", "ruined_tow", "--rules", "kolaps"],
                 ["play", "--map", "maps/ruined_town.tmx", "--rules", "kolaps"]):
        assert main(argv) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err.count("\n") == 1
        assert out.err.startswith(f"escarmouche: {argv[2]}: no such map file")
        assert all(name in out.err for name in SHIPPED)


def test_play_opens_a_shipped_map_by_name_from_any_folder(elsewhere, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    try:
        code = main(["play", "--map", "ruined_town.tmx", "--rules", "eisdrachen", "--mode", "ai-vs-ai",
                     "--lang", "en", "--frames", "3", "--screenshot", "shot.png"])
    finally:
        pygame.quit()
    assert code == 0
    picture = pygame.image.load(str(elsewhere / "shot.png"))
    assert picture.get_size() == (1280, 720)
    middle = pygame.surfarray.array3d(picture)[300:600, 200:500].reshape(-1, 3)
    assert len({tuple(c) for c in middle[::7]}) > 50          # the map's tiles are drawn, not a blank screen
