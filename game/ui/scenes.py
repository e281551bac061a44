"""The screens around the battle: main menu, new battle, load, settings, results."""
from __future__ import annotations

import copy
import random
import time
from pathlib import Path

import pygame

from ..ai import AI_LEVELS
from ..engine.protocol import Army
from ..engine.save import load_match, read_save
from ..errors import EscarmoucheError
from ..rules import get as get_rules
from ..rules import names as rule_names
from .combatlog import in_words
from .hud import fmt_number, term
from .i18n import LANGUAGES, has, key_label, language, tr, use_rules
from .maplist import entry_for, list_maps, list_saves
from .maprender import load_map_picture, thumbnail
from .settings import AI_SPEEDS, ANIMATIONS, DEFAULT_KEYS, UI_SCALES, VOLUMES, autosave_path
from .widgets import ACCENT, BAD, BG, MUTED, PANEL, TEXT, TextInput, side_colour

MODES = ("hotseat", "vs-ai", "ai-vs-ai")
FIXED_KEYS = ("id", "name", "tile", "x", "y")
LABEL_KEYS = ("name", "archetype", "profile", "rank", "type", "kind", "role", "id")
THUMB = (150, 96)


def figure_label(fig: dict) -> str:
    for k in LABEL_KEYS:
        if fig.get(k):
            value = str(fig[k])
            return tr(f"term.{value}", value)
    return "?"


def _title(app, surface, text: str) -> None:
    app.ui.text(surface, text, (app.ui.s(40), app.ui.s(28)), 44, ACCENT)


class StillScene:
    """A screen that changes only on input: nothing to advance between frames."""

    def update(self, dt: float) -> None:
        return None


class MenuScene(StillScene):
    def __init__(self, app):
        self.app = app


    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.running = False

    def draw(self, surface: pygame.Surface) -> None:
        ui, app = self.app.ui, self.app
        surface.fill(BG)
        w, h = surface.get_size()
        ui.text(surface, "Escarmouche", (w // 2, h // 4), 84, ACCENT, "center")
        ui.text(surface, tr("menu.subtitle"), (w // 2, h // 4 + ui.s(56)), 24, MUTED, "center")
        bw, bh = ui.s(300), ui.s(50)
        entries = [(tr("menu.new"), lambda: app.push(SetupScene(app))),
                   (tr("menu.load"), lambda: app.push(LoadScene(app))),
                   (tr("menu.settings"), lambda: app.push(SettingsScene(app))),
                   (tr("menu.quit"), lambda: setattr(app, "running", False))]
        y = h // 2 - ui.s(20)
        for label, cb in entries:
            ui.button(surface, (w // 2 - bw // 2, y, bw, bh), label, cb, size=28)
            y += bh + ui.s(12)


def _title_of(rules_id: str) -> str:
    """A rule system's name in the player's language, from its own words; its id when it cannot load."""
    try:
        return get_rules(rules_id).name(language())
    except (EscarmoucheError, ImportError, OSError, ValueError):
        return rules_id


class SetupScene:
    """New battle: map (with thumbnails), rule system, mode, human side, armies, seed."""

    def __init__(self, app):
        self.app = app
        self.entries = {str(e.path): e for e in list_maps()}
        self.maps = list(self.entries)
        self.map_path: str | None = self.maps[0] if self.maps else None
        self.path_input = TextInput()
        self.rules_list = rule_names()
        self.rules_titles = {name: _title_of(name) for name in self.rules_list}
        self.rules = self.rules_list[0] if self.rules_list else None
        self.mode = "vs-ai"
        self.human_side = 0
        self.ai_level = "normal"
        self.seed_input = TextInput(str(random.randrange(1, 10**6)), allowed="0123456789", max_len=9)
        self.thumbs: dict[str, pygame.Surface | str] = {}
        self.armies: list[Army] | None = None
        self.armies_key = None
        self.archetypes: list[dict] = []
        self.choices: dict[str, list] = {}
        self.module = None
        self.error = ""
        self.map_scroll = 0

    def update(self, dt: float) -> None:
        for path in self.maps:
            if path not in self.thumbs:
                try:
                    self.thumbs[path] = thumbnail(path, THUMB)
                except (EscarmoucheError, ImportError, pygame.error, OSError) as e:
                    self.thumbs[path] = str(e)
                break
        key = (self.map_path, self.rules)
        if key != self.armies_key:
            self.armies_key = key
            self._load_armies()

    def _load_armies(self) -> None:
        self.armies, self.archetypes, self.choices, self.error, self.module = None, [], {}, "", None
        if not self.map_path or not self.rules:
            return
        try:
            _, bf = load_map_picture(self.map_path)
            module = get_rules(self.rules)
            self.armies = [Army(a.side, a.name, copy.deepcopy(a.figures)) for a in module.default_armies(bf)]
            recruits = module.recruits(bf)
        except ImportError:
            self.error = tr("setup.no_loader")
            return
        except EscarmoucheError as e:
            self.error = str(e)
            return
        except (KeyError, ValueError, TypeError, IndexError) as e:
            self.error = f"{self.rules}: {tr('setup.no_armies')} ({e.__class__.__name__}: {e})"
            return
        self.module = module
        use_rules(module)
        seen = []
        for army in self.armies:
            for fig in army.figures:
                core = {k: v for k, v in fig.items() if k not in FIXED_KEYS}
                if core not in [s[0] for s in seen]:
                    seen.append((core, fig))
        self.archetypes = recruits if recruits is not None else [fig for _, fig in seen]
        values: dict[str, list] = {}
        for army in self.armies:
            for fig in army.figures:
                for k, v in fig.items():
                    if k not in FIXED_KEYS and isinstance(v, (str, int)) and v not in values.setdefault(k, []):
                        values[k].append(v)
        self.choices = {k: v for k, v in values.items() if len(v) > 1}

    def figure_choices(self, fig: dict) -> dict[str, list]:
        """The fields of a figure a player may change, with the values each may take."""
        own = self.module.figure_choices(fig) if self.module is not None else None
        return own if own is not None else {k: v for k, v in self.choices.items() if k in fig}

    def problems(self, army: Army) -> list[str]:
        """Why the module refuses this army, in its words (empty: it may play)."""
        if self.module is None:
            return []
        return [tr(w.key, w.key, **{k: term(v) if isinstance(v, str) else v for k, v in w.params})
                for w in self.module.army_problems(army)]

    def cycle(self, side: int, index: int, key: str) -> None:
        """Step one figure's rank, loadout, weapon… through the values the module allows it."""
        fig = self.armies[side].figures[index]
        options = self.figure_choices(fig)[key]
        fig[key] = options[(options.index(fig[key]) + 1) % len(options)] if fig.get(key) in options else options[0]

    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
        elif event.type == pygame.MOUSEWHEEL:
            self.map_scroll = max(0, min(max(0, len(self.maps) - 1), self.map_scroll - event.y))

    def map_facts(self, path: str) -> str:
        """Size in tiles and scale, as the map's header gives them."""
        e = self.entries.get(path)
        if e is None:
            return ""
        return tr("setup.map_facts", w=e.size[0], h=e.size[1], cm=fmt_number(e.cm_per_tile))

    def map_error(self, path: str) -> str:
        """Why a map cannot be played, on one line: its header cannot be read, or loading it failed."""
        e = self.entries.get(path)
        thumb = self.thumbs.get(path)
        text = e.error if e is not None and e.error else thumb if isinstance(thumb, str) else ""
        return " ".join(text.split())

    def player_note(self, side: int) -> str:
        """Who plays this army when it is not two people: " (vous)" or " (IA)"."""
        if self.mode == "vs-ai":
            return tr("setup.played_by_you" if side == self.human_side else "setup.played_by_ai")
        return tr("setup.played_by_ai") if self.mode == "ai-vs-ai" else ""

    def pick_map(self, path: str) -> None:
        self.map_path = path

    def use_path(self) -> None:
        path = self.path_input.text.strip()
        if not path:
            return
        p = Path(path).expanduser()
        if not p.is_file():
            self.app.show_error(tr("setup.no_such_map", path=path))
            return
        if str(p) not in self.maps:
            self.maps.append(str(p))
            self.entries[str(p)] = entry_for(p)
        self.map_path = str(p)

    def add_figure(self, side: int, archetype: dict) -> None:
        fig = copy.deepcopy(archetype)
        army = self.armies[side]
        if "id" in fig:
            used = {str(f.get("id")) for a in self.armies for f in a.figures}
            n = len(army.figures) + 1
            while f"s{side}n{n}" in used:
                n += 1
            fig["id"] = f"s{side}n{n}"
        army.figures.append(fig)

    def remove_figure(self, side: int, index: int) -> None:
        figures = self.armies[side].figures
        if len(figures) > 1:
            figures.pop(index)

    def start(self) -> None:
        from .app import start_battle

        if not self.map_path or not self.rules:
            self.app.show_error(tr("setup.choose_map"))
            return
        wrong = [f"{tr(f'side.{a.side}')}: {p}" for a in self.armies or [] for p in self.problems(a)]
        if wrong:
            self.app.show_error(tr("setup.army_refused", why="; ".join(wrong)))
            return
        seed = int(self.seed_input.text) if self.seed_input.text.isdigit() else None
        try:
            scene = start_battle(self.app, self.map_path, self.rules, self.mode, seed, self.human_side,
                                 self.armies, self.ai_level)
        except EscarmoucheError as e:
            self.app.show_error(str(e))
            return
        self.app.replace(scene)

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        surface.fill(BG)
        w, h = surface.get_size()
        _title(self.app, surface, tr("setup.title"))
        top = ui.s(90)
        col = (w - ui.s(80)) // 3
        # maps
        x = ui.s(30)
        ui.text(surface, tr("setup.map"), (x, top), 24, ACCENT)
        y = top + ui.s(30)
        row = ui.s(THUMB[1] // 2 + 12)
        room = max(1, (h - y - ui.s(170)) // row)
        self.map_scroll = min(self.map_scroll, max(0, len(self.maps) - room))
        for path in self.maps[self.map_scroll:self.map_scroll + room]:
            thumb = self.thumbs.get(path)
            rect = pygame.Rect(x, y, col, row - ui.s(6))
            ui.button(surface, rect, "", lambda p=path: self.pick_map(p), selected=(path == self.map_path),
                      tooltip=thumb if isinstance(thumb, str) else path)
            if isinstance(thumb, pygame.Surface):
                small = pygame.transform.smoothscale(
                    thumb, (max(1, thumb.get_width() * (rect.h - 8) // max(1, thumb.get_height())), rect.h - 8))
                surface.blit(small, (rect.x + 4, rect.y + 4))
                tx = rect.x + small.get_width() + ui.s(10)
            else:
                tx = rect.x + ui.s(10)
            colour = (20, 20, 20) if path == self.map_path else TEXT
            entry = self.entries.get(path)
            ui.text(surface, entry.name if entry else Path(path).stem, (tx, rect.centery - ui.s(2)), 20, colour,
                    "bottomleft", max_width=rect.right - tx - 4)
            error = self.map_error(path)
            ui.text(surface, error or self.map_facts(path), (tx, rect.centery + ui.s(2)), 16,
                    BAD if error else (colour if path == self.map_path else MUTED), "topleft",
                    max_width=rect.right - tx - 4)
            y += row
        if not self.maps:
            ui.text(surface, tr("setup.no_maps"), (x, y), 18, MUTED)
        y = h - ui.s(160)
        ui.input(surface, (x, y, col - ui.s(90), ui.s(32)), self.path_input, tr("setup.path_hint"))
        ui.button(surface, (x + col - ui.s(84), y, ui.s(84), ui.s(32)), tr("setup.use_path"), self.use_path,
                  size=18)
        # rules, mode, side, seed
        x = ui.s(40) + col
        y = top
        ui.text(surface, tr("setup.rules"), (x, y), 24, ACCENT)
        y += ui.s(30)
        for name in self.rules_list:
            ui.button(surface, (x, y, col, ui.s(34)), self.rules_titles.get(name, name),
                      lambda n=name: setattr(self, "rules", n), selected=(name == self.rules))
            y += ui.s(38)
        y += ui.s(8)
        ui.text(surface, tr("setup.mode"), (x, y), 24, ACCENT)
        y += ui.s(30)
        bw = (col - ui.s(12)) // 3
        for i, mode in enumerate(MODES):
            ui.button(surface, (x + i * (bw + ui.s(6)), y, bw, ui.s(34)), tr(f"mode.{mode}"),
                      lambda m=mode: setattr(self, "mode", m), selected=(mode == self.mode), size=18)
        y += ui.s(46)
        if self.mode != "hotseat":
            ui.text(surface, tr("setup.ai_level"), (x, y), 22, ACCENT)
            y += ui.s(28)
            for i, level in enumerate(AI_LEVELS):
                ui.button(surface, (x + i * (bw + ui.s(6)), y, bw, ui.s(34)), tr(f"level.{level}"),
                          lambda v=level: setattr(self, "ai_level", v), selected=(level == self.ai_level), size=18,
                          tooltip=tr(f"level.{level}.tip"))
            y += ui.s(46)
        if self.mode == "vs-ai":
            ui.text(surface, tr("setup.human_side"), (x, y), 22, ACCENT)
            y += ui.s(28)
            for i in (0, 1):
                ui.button(surface, (x + i * (bw + ui.s(6)), y, bw, ui.s(34)), tr(f"side.{i}"),
                          lambda s=i: setattr(self, "human_side", s), selected=(i == self.human_side), size=18)
            y += ui.s(46)
        ui.text(surface, tr("setup.seed"), (x, y), 22, ACCENT)
        y += ui.s(28)
        ui.input(surface, (x, y, col - ui.s(110), ui.s(32)), self.seed_input)
        ui.button(surface, (x + col - ui.s(104), y, ui.s(104), ui.s(32)), tr("setup.random_seed"),
                  lambda: setattr(self.seed_input, "text", str(random.randrange(1, 10**6))), size=18)
        # armies
        x = ui.s(50) + 2 * col
        y = top
        ui.text(surface, tr("setup.armies"), (x, y), 24, ACCENT)
        y += ui.s(30)
        if self.error:
            for line in ui.wrap(self.error, 18, col)[:8]:
                ui.text(surface, line, (x, y), 18, (230, 120, 110))
                y += ui.s(20)
        for army in self.armies or []:
            ui.text(surface, f"{tr(f'side.{army.side}')} — {army.name}{self.player_note(army.side)}", (x, y), 20,
                    side_colour(army.side), max_width=col)
            y += ui.s(24)
            for problem in self.problems(army):
                for line in ui.wrap(problem, 16, col)[:2]:
                    ui.text(surface, line, (x + ui.s(8), y), 16, BAD)
                    y += ui.s(18)
            for i, fig in enumerate(army.figures):
                if y > h - ui.s(150):
                    break
                keys = list(self.figure_choices(fig))
                cw = ui.s(86)
                name_w = col - ui.s(36) - len(keys) * (cw + ui.s(4))
                ui.text(surface, figure_label(fig), (x + ui.s(8), y + ui.s(3)), 18, TEXT, max_width=name_w - ui.s(8))
                for j, key in enumerate(keys):
                    value = fig.get(key)        # a field the figure may have but has not yet (a second weapon)
                    ui.button(surface, (x + name_w + j * (cw + ui.s(4)), y, cw, ui.s(22)),
                              term(str(value)) if value is not None else "-",
                              lambda s=army.side, k=i, c=key: self.cycle(s, k, c),
                              size=15, tooltip=tr("setup.cycle", what=tr(f"term.{key}", key)))
                ui.button(surface, (x + col - ui.s(30), y, ui.s(26), ui.s(22)), "×",
                          lambda s=army.side, k=i: self.remove_figure(s, k), tooltip=tr("setup.remove"),
                          enabled=len(army.figures) > 1)
                y += ui.s(24)
            ax = x
            for arch in self.archetypes[:6]:
                label = "+ " + figure_label(arch)
                bw2 = ui.font(16).size(label)[0] + ui.s(12)
                if ax + bw2 > x + col:
                    ax = x
                    y += ui.s(26)
                ui.button(surface, (ax, y, bw2, ui.s(22)), label, lambda s=army.side, a=arch: self.add_figure(s, a),
                          size=16, tooltip=tr("setup.add"))
                ax += bw2 + ui.s(4)
            y += ui.s(34)
        # bottom
        bw, bh = ui.s(200), ui.s(46)
        ui.button(surface, (ui.s(30), h - bh - ui.s(30), bw, bh), tr("button.back"), self.app.pop)
        ui.button(surface, (w - bw - ui.s(30), h - bh - ui.s(30), bw, bh), tr("setup.start"), self.start,
                  enabled=bool(self.map_path and self.rules and self.armies), selected=True, size=24)


class LoadScene(StillScene):
    """Saved battles from the user's folder, or any file by path; a bad save says why."""

    def __init__(self, app):
        self.app = app
        self.saves = [str(p) for p in list_saves()]
        self.summaries = {path: self.summary(path) for path in self.saves}
        self.path_input = TextInput()
        self.mode = "hotseat"
        self.human_side = 0
        self.scroll = 0


    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(max(0, len(self.saves) - 1), self.scroll - event.y))

    @staticmethod
    def summary(path: str) -> str:
        """What a save holds, read from its header without replaying it; a damaged one says so."""
        try:
            data = read_save(path)
            rules = str(data["rules"]["id"])
            where = Path(str(data["map"]["path"])).stem
            return tr("load.summary", rules=tr(f"rules.{rules}", rules), map=where, turn=data.get("turn", "?"),
                      answers=len(data.get("answers", [])))
        except (EscarmoucheError, KeyError, TypeError, AttributeError):
            return tr("load.damaged")

    def load(self, path: str) -> None:
        from .battle import BattleScene

        try:
            match = load_match(path)
        except EscarmoucheError as e:
            self.app.show_error(tr("load.failed", error=str(e)))
            return
        try:
            loaded, _ = load_map_picture(match.map_path)
        except (EscarmoucheError, ImportError):
            loaded = None
        self.app.replace(BattleScene(self.app, match, self.mode, self.human_side, loaded, save_path=path))

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        surface.fill(BG)
        w, h = surface.get_size()
        _title(self.app, surface, tr("load.title"))
        x, y = ui.s(40), ui.s(100)
        lw = w // 2
        room = max(1, (h - y - ui.s(220)) // ui.s(40))
        if not self.saves:
            ui.text(surface, tr("load.none"), (x, y), 20, MUTED)
        for path in self.saves[self.scroll:self.scroll + room]:
            p = Path(path)
            try:
                stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(p.stat().st_mtime))
            except OSError:
                stamp = ""
            name = tr("load.autosave") if Path(path) == autosave_path() else p.stem
            ui.button(surface, (x, y, lw, ui.s(36)), f"{name} — {self.summaries.get(path, '')} — {stamp}",
                      lambda q=path: self.load(q), tooltip=path, size=18)
            y += ui.s(40)
        y = h - ui.s(200)
        ui.text(surface, tr("load.path"), (x, y), 20, ACCENT)
        ui.input(surface, (x, y + ui.s(26), lw - ui.s(110), ui.s(32)), self.path_input, tr("load.path_hint"))
        ui.button(surface, (x + lw - ui.s(104), y + ui.s(26), ui.s(104), ui.s(32)), tr("load.open"),
                  lambda: self.load(self.path_input.text.strip()) if self.path_input.text.strip() else None)
        mx = x + lw + ui.s(40)
        ui.text(surface, tr("setup.mode"), (mx, ui.s(100)), 22, ACCENT)
        for i, mode in enumerate(MODES):
            ui.button(surface, (mx, ui.s(130) + i * ui.s(40), ui.s(220), ui.s(34)), tr(f"mode.{mode}"),
                      lambda m=mode: setattr(self, "mode", m), selected=(mode == self.mode))
        if self.mode == "vs-ai":
            ui.text(surface, tr("setup.human_side"), (mx, ui.s(260)), 22, ACCENT)
            for i in (0, 1):
                ui.button(surface, (mx + i * ui.s(112), ui.s(290), ui.s(106), ui.s(34)), tr(f"side.{i}"),
                          lambda s=i: setattr(self, "human_side", s), selected=(i == self.human_side))
        bw, bh = ui.s(200), ui.s(46)
        ui.button(surface, (ui.s(30), h - bh - ui.s(30), bw, bh), tr("button.back"), self.app.pop)


class SettingsScene(StillScene):
    """Language, AI speed, UI scale and key bindings; every change is saved at once."""

    def __init__(self, app):
        self.app = app
        self.rebinding: str | None = None


    def set(self, name: str, value) -> None:
        setattr(self.app.settings, name, value)
        self.app.apply_settings()

    def handle(self, event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        if self.rebinding is not None:
            if event.key != pygame.K_ESCAPE:
                self.app.settings.keys[self.rebinding] = pygame.key.name(event.key)
                self.app.apply_settings()
            self.rebinding = None
        elif event.key == pygame.K_ESCAPE:
            self.app.pop()

    def reset_keys(self) -> None:
        self.app.settings.keys = dict(DEFAULT_KEYS)
        self.app.apply_settings()

    def draw(self, surface: pygame.Surface) -> None:
        ui, st = self.app.ui, self.app.settings
        surface.fill(BG)
        w, h = surface.get_size()
        _title(self.app, surface, tr("settings.title"))
        x, y = ui.s(40), ui.s(100)
        bw = ui.s(130)
        rows = [("settings.language", "language", LANGUAGES, lambda v: tr(f"language.{v}")),
                ("settings.ai_speed", "ai_speed", tuple(AI_SPEEDS), lambda v: tr(f"speed.{v}")),
                ("settings.ui_scale", "ui_scale", UI_SCALES, lambda v: f"{int(v * 100)} %"),
                ("settings.animations", "animations", ANIMATIONS, lambda v: tr(f"animations.{v}")),
                ("settings.volume", "volume", VOLUMES, lambda v: f"{v} %"),
                ("settings.sound", "muted", (False, True), lambda v: tr("settings.muted" if v else "settings.on")),
                ("settings.camera", "camera_follow", (True, False), lambda v: tr("settings.on" if v else "settings.off"))]
        for title, name, values, label in rows:
            ui.text(surface, tr(title), (x, y + ui.s(8)), 22, ACCENT)
            for i, v in enumerate(values):
                ui.button(surface, (x + ui.s(200) + i * (bw + ui.s(6)), y, bw, ui.s(34)), label(v),
                          lambda n=name, v=v: self.set(n, v), selected=(getattr(st, name) == v), size=18)
            y += ui.s(42)
        y += ui.s(10)
        ui.text(surface, tr("settings.keys"), (x, y), 22, ACCENT)
        y += ui.s(32)
        col_w = min(ui.s(420), (w - x * 2 - ui.s(30)) // 2)
        for i, action in enumerate(DEFAULT_KEYS):
            cx = x + (i % 2) * (col_w + ui.s(30))
            cy = y + (i // 2) * ui.s(38)
            ui.text(surface, tr(f"key.{action}"), (cx, cy + ui.s(8)), 20, TEXT, max_width=col_w - ui.s(128))
            label = "…" if self.rebinding == action else key_label(st.keys.get(action, ""))
            ui.button(surface, (cx + col_w - ui.s(120), cy, ui.s(120), ui.s(32)), label,
                      lambda a=action: setattr(self, "rebinding", a), selected=(self.rebinding == action), size=18,
                      tooltip=tr("settings.rebind"))
        bw2, bh = ui.s(200), ui.s(46)
        ui.button(surface, (ui.s(30), h - bh - ui.s(30), bw2, bh), tr("button.back"), self.app.pop)
        ui.button(surface, (ui.s(250), h - bh - ui.s(30), bw2, bh), tr("settings.reset_keys"), self.reset_keys)


class ResultsScene(StillScene):
    def __init__(self, app, match, viewer, names: dict[str, str]):
        use_rules(match.rules)
        self.app = app
        self.match = match
        self.outcome = match.outcome
        self.figures = match.rules.figures(match.state, None)
        self.names = names


    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN):
            self.to_menu()

    def to_menu(self) -> None:
        self.app.replace(MenuScene(self.app))

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        surface.fill(BG)
        w, h = surface.get_size()
        o = self.outcome
        if o is None or o.winner is None:
            title, colour = tr("results.draw"), ACCENT
        else:
            title, colour = tr("results.winner", side=tr(f"side.{o.winner}")), side_colour(o.winner)
        ui.text(surface, title, (w // 2, ui.s(120)), 56, colour, "center")
        if o is not None and o.reason:
            ui.text(surface, tr(f"reason.{o.reason}", o.reason), (w // 2, ui.s(180)), 24, TEXT, "center")
        rules = self.match.rules
        ui.text(surface, tr("results.turns", n=rules.turn(self.match.state)), (w // 2, ui.s(215)), 22, MUTED,
                "center")
        y = ui.s(270)
        for side in rules.sides:
            mine = [f for f in self.figures if f.side == side]
            alive = [f for f in mine if f.alive and f.health[0] > 0]
            hp = sum(max(0, f.health[0]) for f in alive)
            ui.text(surface, tr("results.side_line", side=tr(f"side.{side}"), alive=len(alive), total=len(mine), hp=hp),
                    (w // 2, y), 24, side_colour(side), "center")
            y += ui.s(34)
        for line in (o.details if o is not None else ()):       # the module's own summary (recovery…)
            params = {k: in_words(k, v, self.names) for k, v in line.params}
            ui.text(surface, tr(line.key, line.key, **params), (w // 2, y), 20, TEXT, "center", max_width=w - ui.s(60))
            y += ui.s(26)
        bw, bh = ui.s(240), ui.s(48)
        pygame.draw.rect(surface, PANEL, (0, h - ui.s(100), w, ui.s(100)))
        ui.button(surface, (w // 2 - bw - ui.s(10), h - ui.s(74), bw, bh), tr("results.menu"), self.to_menu)
        ui.button(surface, (w // 2 + ui.s(10), h - ui.s(74), bw, bh), tr("menu.new"),
                  lambda: self.app.replace(SetupScene(self.app)))
