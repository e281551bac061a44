"""Every screen of the game, in the states a player meets, for the layout and language checks.

``Screens(app, matches, home)`` builds each screen once per language and shows it again at each window
size and interface size, as a person resizing the window would see it: ``names()`` lists them and
``show(name)`` puts one on the app, ready for the next frame to draw.
"""
from __future__ import annotations

from pathlib import Path

import pygame

from game.ai import make_player
from game.engine.save import new_match, save_match
from game.rules import names as rule_names
from game.ui.battle import BattleScene
from game.ui.i18n import language, tr, use_rules
from game.ui.primer import PrimerScene
from game.ui.scenes import LoadScene, MenuScene, ResultsScene, SettingsScene, SetupScene
from game.ui.settings import saves_dir

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "ruined_town.tmx"
BATTLE_STATES = ("aim", "tooltip", "chooser", "saved", "log", "handover")


def played(rules: str, seed: int, max_turns: int = 3, until=None):
    """A battle between random players, stopped where ``until(match)`` holds or at its end."""
    match = new_match(MAP, rules, seed, max_turns=max_turns)
    players = {s: make_player("random", rules, seed * 7 + s) for s in match.rules.sides}
    while match.pending is not None and not (until is not None and until(match)):
        match.answer(match.ask(players[match.pending.side]))
    return match


def aims(match) -> bool:
    """The decision is an action with a target to point at and odds to show for it."""
    d = match.pending
    return d is not None and d.kind == "action" and any(
        o.target is not None and match.rules.odds(match.state, o) is not None for o in d.options)


def battle_matches() -> dict[str, tuple]:
    """Per module: a battle paused on an aimed attack (or the furthest a few seeds get), and one over."""
    out = {}
    for rules in rule_names():
        mid = None
        for seed in range(1, 12):
            mid = played(rules, seed, 6, aims)
            if mid.pending is not None:
                break
        out[rules] = (mid, played(rules, 1, 2))
    return out


def point(app, pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0)))
    app.step()


class Screens:
    """The screens of one language, built on first use and kept for every size."""

    def __init__(self, app, matches: dict[str, tuple], home: Path):
        self.app = app
        self.matches = matches
        self.home = home
        self.built: dict[tuple[str, str], object] = {}
        self.thumbs: dict[str, pygame.Surface | str] = {}

    def names(self) -> list[str]:
        out = ["menu", "load", "settings"]
        for rules in self.matches:
            out += [f"setup-{rules}", f"setup-{rules}-sheet", f"setup-{rules}-recruits", f"primer-{rules}",
                    f"glossary-{rules}", f"controls-{rules}", f"results-{rules}"]
            out += [f"battle-{rules}-{state}" for state in BATTLE_STATES]
        return out

    def scene(self, key: str, make):
        """The scene for ``key`` in the current language, built once."""
        full = (language(), key)
        if full not in self.built:
            self.built[full] = make()
        return self.built[full]

    def show(self, name: str) -> None:
        app = self.app
        kind, _, rest = name.partition("-")
        rules, _, state = rest.partition("-")
        if rules:       # the words of that module, as the screen that shows it would have set them
            use_rules(self.matches[rules][0].rules)
        if kind == "menu":
            app.scenes = [self.scene("menu", lambda: MenuScene(app))]
        elif kind == "load":
            app.scenes = [self.scene("load", self._load)]
        elif kind == "settings":
            app.scenes = [self.scene("settings", lambda: SettingsScene(app))]
        elif kind == "setup":
            setup = self.scene(f"setup-{rules}", lambda: self._setup(rules))
            setup.sheet = (0, 0) if state == "sheet" else None
            setup.recruiting = 1 if state == "recruits" else None
            app.scenes = [setup]
        elif kind in ("primer", "glossary", "controls"):
            tab = {"primer": "rules"}.get(kind, kind)
            mid = self.matches[rules][0]
            app.scenes = [self.scene(name, lambda: PrimerScene(app, mid.rules, tab=tab, controls=True))]
        elif kind == "results":
            over = self.matches[rules][1]
            app.scenes = [self.scene(name, lambda: ResultsScene(app, over, None, {}))]
        else:
            self._battle_state(rules, state)
            return
        app.step()

    def _setup(self, rules: str) -> SetupScene:
        s = SetupScene(self.app)
        s.thumbs = self.thumbs          # the maps' pictures, drawn once for every language
        s.rules = rules
        for _ in range(len(s.maps) + 1):
            s.update(0)
        return s

    def _load(self) -> LoadScene:
        folder = saves_dir()
        folder.mkdir(parents=True, exist_ok=True)
        for rules, (mid, _) in self.matches.items():
            save_match(mid, folder / f"{rules}-ruined_town-{mid.seed}.json")
        save_match(next(iter(self.matches.values()))[0], folder / "autosave.json")
        return LoadScene(self.app)

    def _battle_state(self, rules: str, state: str) -> None:
        app = self.app
        mid = self.matches[rules][0]
        scene = self.scene(f"battle-{rules}", lambda: BattleScene(app, mid, "hotseat"))
        app.scenes = [scene]
        scene.handover_to = None
        scene.chooser = None
        scene.status = ""
        scene.hover_tile = None
        if scene.viewer != (mid.pending.side if mid.pending else None):
            scene.viewer = mid.pending.side if mid.pending else None
            scene._cache_key = None
        app.step()
        if state == "handover":
            scene.handover_to = 1 - (mid.pending.side if mid.pending else 0)
        elif state == "chooser":
            scene.chooser, scene.chooser_page = list(mid.pending.options), 0
        elif state == "saved":
            scene.say(tr("status.saved", path=str(saves_dir() / f"{rules}-ruined_town-123456.json")))
        elif state == "aim":
            self._aim(scene)
            return
        elif state == "tooltip":
            bar = [b for b in app.ui.buttons if b.rect.top >= scene.bar_rect.top and b.tooltip]
            if bar:
                point(app, bar[0].rect.center)
                return
        elif state == "log":
            spots = [b for b in app.ui.buttons if not b.drawn and scene.log_rect.collidepoint(b.rect.center)]
            if spots:
                point(app, spots[-1].rect.center)
                return
        app.step()

    def _aim(self, scene) -> None:
        """Select the attack group and point at its target: the odds box shows, with the target's lines."""
        d = scene.match.pending
        o = next((o for o in d.options if o.target is not None and scene.points_at(d, o) is not None
                  and scene.odds(o) is not None), None)
        if o is None:
            self.app.step()
            return
        scene.group = o.action
        tile = scene.points_at(d, o)
        scene.view.centre = (tile[0] + 0.5, tile[1] + 0.5)
        scene.view.pan_pixels(0, 0)
        point(self.app, scene.view.tile_centre(tile))
