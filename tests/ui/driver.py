"""Drive the real window loop with posted pygame events, as a player's mouse and keyboard would."""
from __future__ import annotations

import time
from pathlib import Path

import pygame

from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.rules import get as get_rules
from game.ui.battle import BattleScene

SHOTS = Path(__file__).resolve().parents[2] / "shots"


def field(width: int = 20, height: int = 14) -> Battlefield:
    """Open ground with a wall and some cover, spawns on the left and right edges."""
    bf = Battlefield.open_ground(width, height)
    bf.spawn = {0: [(1, y) for y in range(1, height - 1)], 1: [(width - 2, y) for y in range(1, height - 1)]}
    bf.blocks_move[1:3, width // 2 - 1:width // 2 + 1] = True
    bf.blocks_sight[1:3, width // 2 - 1:width // 2 + 1] = True
    bf.cover[height - 3, 3:6] = 1
    return bf


def eisdrachen_match(seed: int = 5, width: int = 20, height: int = 14) -> Match:
    rules = get_rules("eisdrachen")
    bf = field(width, height)
    return Match(bf, rules, rules.default_armies(bf), seed)


def steps(app, n: int = 1) -> None:
    for _ in range(n):
        app.step()


def until_results(app, match, seconds: float = 5.0) -> None:
    """Step while a finished battle keeps its last event on screen (a moment of the clock, however fast
    the frames), until the results screen or ``seconds``."""
    from game.ui.scenes import ResultsScene
    start = time.monotonic()
    while match.over and not isinstance(app.scene, ResultsScene) and time.monotonic() - start < seconds:
        app.step()


def move_to(app, pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.step()


def click(app, pos, button: int = 1) -> None:
    """Move there, press and release: one frame for the motion, one for the click."""
    move_to(app, pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.step()


def ready(app) -> None:
    """The next player takes the screen when the window hands it over (hot-seat), as a person would."""
    steps(app, 1)
    scene = app.scene
    if getattr(scene, "handover_to", None) is not None:
        click(app, button_at(app, "I am ready"))
        steps(app, 1)


def press(app, key: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0))
    app.step()


def type_text(app, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.step()


def button_at(app, label: str):
    """The centre of the button drawn last frame whose label starts with ``label``."""
    for b in app.ui.buttons:
        if b.label.startswith(label):
            return b.rect.center
    raise AssertionError(f"no button '{label}' among {[b.label for b in app.ui.buttons]}")


def tile_pos(scene, tile) -> tuple[int, int]:
    return scene.view.tile_centre(tile)


def first_figure_activated(app, match):
    """A hot-seat battle past the initiative roll, its first figure activated by a click."""
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    ready(app)
    click(app, button_at(app, "Roll"))
    ready(app)
    d = match.pending
    fig = next(f for f in match.rules.figures(match.state, d.side) if f.id == d.options[0].figure)
    click(app, tile_pos(scene, fig.tile))
    return scene


def shot(app, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / name
    app.screenshot(path)
    return path


TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}"
     tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">
 <layer id="1" name="ground" width="{w}" height="{h}">
  <data encoding="csv">
{csv}
</data>
 </layer>
</map>
"""


def write_map(path: Path, w: int = 12, h: int = 8) -> Path:
    """A plain Tiled map without art: the loader's defaults put the spawns on the left and right edges."""
    rows = [",".join("0" for _ in range(w)) for _ in range(h)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TMX.format(w=w, h=h, csv=",\n".join(rows)), encoding="utf-8")
    return path


def play_human(app, scene, match) -> None:
    """One human answer through the window: take the screen if it is handed over, activate by clicking,
    act by keys, choose from lists."""
    ready(app)
    d = match.pending
    if d.kind == "activate":
        fig = next(f for f in match.rules.figures(match.state, d.side) if f.id == d.options[0].figure)
        click(app, tile_pos(scene, fig.tile))
    elif d.kind == "action" and scene.end_option(d) is not None:
        press(app, pygame.K_e)
    else:
        press(app, pygame.K_1)
