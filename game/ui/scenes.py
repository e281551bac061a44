"""The screens around the battle: main menu, new battle, load, settings, results."""
from __future__ import annotations

import copy
import random
import time
from pathlib import Path

import pygame

from ..ai import AI_LEVELS
from ..engine.files import is_regular
from ..engine.protocol import Army
from ..engine.save import load_match, read_save
from ..errors import EscarmoucheError, printable
from ..rules import get as get_rules
from ..rules import names as rule_names
from .combatlog import in_words
from .hud import fmt_number, term
from .i18n import LANGUAGES, key_label, language, name_words, tr, use_rules
from .maplist import entry_for, list_maps, list_saves
from .maprender import load_map_picture, thumbnail
from .settings import AI_SPEEDS, ANIMATIONS, DEFAULT_KEYS, UI_SCALES, VOLUMES, autosave_path
from .widgets import ACCENT, BAD, BG, MUTED, PANEL, TEXT, Scroll, TextInput, side_colour

MODES = ("hotseat", "vs-ai", "ai-vs-ai")
FIXED_KEYS = ("id", "name", "tile", "x", "y")
LABEL_KEYS = ("archetype", "profile", "rank", "type", "kind", "role", "id")
THUMB = (150, 96)


def figure_label(fig: dict) -> str:
    """A figure of an army being built, by its name, else its kind (archetype, rank, role…)."""
    if fig.get("name"):
        return name_words(str(fig["name"]))
    for k in LABEL_KEYS:
        if fig.get(k):
            value = str(fig[k])
            return tr(f"kind.{value}", tr(f"term.{value}", value))
    return "?"


def _title(app, surface, text: str) -> int:
    """A screen's title at its top left; the y under it."""
    return app.ui.text(surface, text, (app.ui.s(40), app.ui.s(20)), 44, ACCENT).bottom


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
        self.map_scroll = Scroll()
        self.rules_scroll = Scroll()
        self._rules_shown = None
        self.army_scrolls = (Scroll(), Scroll())
        self.sheet: tuple[int, int] | None = None      # (side, index) of the figure whose sheet is open
        self.recruiting: int | None = None              # the side whose list of recruits is open
        self.recruit_scroll = Scroll()

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
        figures = self.armies[side].figures
        if index >= len(figures):           # a button of the last frame, its figure removed since
            return
        fig = figures[index]
        options = self.figure_choices(fig).get(key)
        if not options:
            return
        fig[key] = options[(options.index(fig[key]) + 1) % len(options)] if fig.get(key) in options else options[0]

    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.sheet is not None or self.recruiting is not None:
                self.close_popup()
            else:
                self.app.pop()

    def close_popup(self) -> None:
        self.sheet, self.recruiting = None, None

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
        self.recruiting = None

    def remove_figure(self, side: int, index: int) -> None:
        figures = self.armies[side].figures
        if 1 < len(figures) and index < len(figures):
            figures.pop(index)
            self.sheet = None

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
        top = _title(self.app, surface, tr("setup.title")) + ui.s(12)
        bh = ui.s(44)
        bottom = h - bh - ui.s(20)
        gap = ui.s(24)
        col = (w - 2 * ui.s(30) - 2 * gap) // 3
        xs = [ui.s(30) + k * (col + gap) for k in range(3)]
        self.draw_maps(surface, pygame.Rect(xs[0], top, col, bottom - ui.s(14) - top))
        self.draw_options(surface, pygame.Rect(xs[1], top, col, bottom - ui.s(14) - top))
        self.draw_armies(surface, pygame.Rect(xs[2], top, col, bottom - ui.s(14) - top))
        ui.button(surface, (ui.s(30), bottom, ui.s(180), bh), tr("button.back"), self.app.pop)
        start_w = max(ui.s(180), ui.font(24).size(tr("setup.start"))[0] + ui.s(30))
        ui.button(surface, (w - start_w - ui.s(30), bottom, start_w, bh), tr("setup.start"), self.start,
                  enabled=bool(self.map_path and self.rules and self.armies), selected=True, size=24)
        self.draw_seed(surface, pygame.Rect(ui.s(30) + ui.s(180) + gap, bottom, w - start_w - ui.s(240) - 2 * gap, bh))
        if self.sheet is not None and self.armies:
            self.draw_sheet(surface)
        elif self.recruiting is not None and self.armies:
            self.draw_recruits(surface)

    def draw_maps(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The maps, each with its picture, its title, and its size and scale or why it cannot be played."""
        ui = self.app.ui
        y = ui.text(surface, tr("setup.map"), area.topleft, 24, ACCENT).bottom + ui.s(8)
        field_h = ui.s(32)
        lang = language()
        rows = []
        for path in self.maps:
            entry = self.entries.get(path)
            error = self.map_error(path)
            thumb = self.thumbs.get(path)
            room = area.w - ui.s(52) - (ui.s(THUMB[0] // 2) if isinstance(thumb, pygame.Surface) else 0)
            title = ui.wrap(entry.title(lang) if entry else Path(path).stem, 20, room)
            facts = ui.wrap(error or self.map_facts(path), 16, room)[:3]
            rows.append((path, thumb, title, facts, bool(error),
                         max(ui.s(THUMB[1] // 2), ui.s(20) * len(title) + ui.s(17) * len(facts)) + ui.s(10)))
        if not self.maps:
            for line in ui.wrap(tr("setup.no_maps"), 18, area.w):
                y = ui.text(surface, line, (area.x, y), 18, MUTED).bottom
        list_area = pygame.Rect(area.x, y, area.w, area.bottom - field_h - ui.s(10) - y)
        shown, width = ui.rows(surface, list_area, [r[-1] for r in rows], self.map_scroll)
        for i, top in shown:
            path, thumb, title, facts, bad, row_h = rows[i]
            rect = pygame.Rect(area.x, top, width, row_h)
            chosen = path == self.map_path
            ui.button(surface, rect, "", lambda p=path: self.pick_map(p), selected=chosen,
                      tooltip=thumb if isinstance(thumb, str) else path)
            tx = rect.x + ui.s(8)
            if isinstance(thumb, pygame.Surface):
                th = min(rect.h - ui.s(10), ui.s(THUMB[1] // 2))
                small = pygame.transform.smoothscale(
                    thumb, (max(1, min(ui.s(THUMB[0] // 2), thumb.get_width() * th // max(1, thumb.get_height()))), th))
                surface.blit(small, (rect.x + ui.s(5), rect.y + ui.s(5)))
                tx = rect.x + small.get_width() + ui.s(12)
            colour = (20, 20, 20) if chosen else TEXT
            ty = rect.y + ui.s(5)
            for line in title:
                ty = ui.text(surface, line, (tx, ty), 20, colour, max_width=rect.right - tx - ui.s(4)).bottom
            for line in facts:
                ty = ui.text(surface, line, (tx, ty), 16, BAD if bad else (colour if chosen else MUTED),
                             max_width=rect.right - tx - ui.s(4)).bottom
        use = tr("setup.use_path")
        uw = ui.font(18).size(use)[0] + ui.s(20)
        ui.input(surface, (area.x, area.bottom - field_h, area.w - uw - ui.s(6), field_h), self.path_input,
                 tr("setup.path_hint"))
        ui.button(surface, (area.right - uw, area.bottom - field_h, uw, field_h), use, self.use_path, size=18)

    def draw_options(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Rule system (with its primer beside the title; the list scrolls when the column is short),
        then mode (with the AI's level beside it) and, against the AI, the player's side at the column's foot."""
        ui = self.app.ui
        header = ui.text(surface, tr("setup.rules"), area.topleft, 24, ACCENT)
        y = header.bottom + ui.s(8)
        if self.rules:
            label = tr("setup.primer")
            pw = ui.font(16).size(label)[0] + ui.s(20)
            spot = (header.right + ui.s(12), header.centery - ui.s(14)) if header.right + ui.s(12) + pw <= area.right \
                else (area.x, y)
            ui.button(surface, (*spot, pw, ui.s(28)), label, self.open_primer, size=16, tooltip=tr("setup.primer_tip"))
            if spot[1] == y:
                y += ui.s(36)
        modes = [(tr(f"mode.{m}"), lambda m=m: setattr(self, "mode", m), m == self.mode, "") for m in MODES]
        if self.mode != "hotseat":      # one button that turns through the levels: the column stays short
            modes.append((tr("setup.ai_level", level=tr(f"level.{self.ai_level}")), self.next_level, False,
                          tr(f"level.{self.ai_level}.tip")))
        sides = [(tr(f"side.{i}"), lambda s=i: setattr(self, "human_side", s), i == self.human_side, "")
                 for i in (0, 1)]
        head = ui.line(24) + ui.s(8)
        foot = head + ui.flow(None, 0, 0, area.w, modes) + ui.s(10)
        if self.mode == "vs-ai":
            foot += ui.line(22) + ui.s(6) + ui.flow(None, 0, 0, area.w, sides, height=30) + ui.s(4)
        row = ui.s(32)
        if self.rules in self.rules_list and self.rules != self._rules_shown:     # the chosen one in view
            self._rules_shown = self.rules
            self.rules_scroll.first = self.rules_list.index(self.rules)
        shown, width = ui.rows(surface, (area.x, y, area.w, area.bottom - foot - ui.s(10) - y),
                               [row] * len(self.rules_list), self.rules_scroll)
        for i, top in shown:
            name = self.rules_list[i]
            ui.button(surface, (area.x, top, width, row), self.rules_titles.get(name, name),
                      lambda n=name: setattr(self, "rules", n), selected=name == self.rules, size=18)
        y = area.bottom - foot
        y = ui.text(surface, tr("setup.mode"), (area.x, y), 24, ACCENT).bottom + ui.s(8)
        y = ui.flow(surface, area.x, y, area.w, modes) + ui.s(10)
        if self.mode == "vs-ai":
            y = ui.text(surface, tr("setup.human_side"), (area.x, y), 22, ACCENT).bottom + ui.s(6)
            ui.flow(surface, area.x, y, area.w, sides, height=30)

    def next_level(self) -> None:
        self.ai_level = AI_LEVELS[(AI_LEVELS.index(self.ai_level) + 1) % len(AI_LEVELS)]

    def open_primer(self) -> None:
        from .primer import PrimerScene

        self.app.push(PrimerScene(self.app, get_rules(self.rules)))

    def draw_seed(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The seed, between Back and Start: the same seed and choices play the same battle."""
        ui = self.app.ui
        label = ui.text(surface, tr("setup.seed"), (area.x, area.centery), 22, ACCENT, "midleft")
        again = tr("setup.random_seed")
        rw = ui.font(18).size(again)[0] + ui.s(20)
        field_w = min(ui.s(130), area.right - label.right - ui.s(20) - rw)
        field = pygame.Rect(label.right + ui.s(10), area.centery - ui.s(16), field_w, ui.s(32))
        ui.input(surface, field, self.seed_input)
        ui.button(surface, (field.right + ui.s(6), field.y, rw, field.h), again,
                  lambda: setattr(self.seed_input, "text", str(random.randrange(1, 10**6))), size=18)

    def draw_armies(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Each army in its half of the column: who plays it, what the rules refuse, its figures (a
        click opens a figure's sheet), and a button to add one."""
        ui = self.app.ui
        y = ui.text(surface, tr("setup.armies"), area.topleft, 24, ACCENT).bottom + ui.s(8)
        if self.error:
            for line in ui.wrap(self.error, 18, area.w)[:8]:
                y = ui.text(surface, line, (area.x, y), 18, BAD).bottom
        armies = self.armies or []
        half = (area.bottom - y) // max(1, len(armies))
        for k, army in enumerate(armies):
            self.draw_army(surface, army, pygame.Rect(area.x, y + k * half, area.w, half - ui.s(8)))

    def draw_army(self, surface: pygame.Surface, army: Army, area: pygame.Rect) -> None:
        ui = self.app.ui
        y = area.y
        head = f"{tr(f'side.{army.side}')} — {name_words(army.name)}{self.player_note(army.side)}"
        for line in ui.wrap(head, 20, area.w)[:2]:
            y = ui.text(surface, line, (area.x, y), 20, side_colour(army.side), max_width=area.w).bottom
        for problem in self.problems(army):
            for line in ui.wrap(problem, 16, area.w)[:2]:
                y = ui.text(surface, line, (area.x + ui.s(8), y), 16, BAD, max_width=area.w - ui.s(8)).bottom
        add_h = ui.s(28)
        rows = pygame.Rect(area.x, y + ui.s(4), area.w, area.bottom - add_h - ui.s(8) - y)
        row_h = ui.s(26)
        shown, width = ui.rows(surface, rows, [row_h] * len(army.figures), self.army_scrolls[army.side])
        for i, top in shown:
            fig = army.figures[i]
            name = figure_label(fig)
            summary = self.figure_summary(fig)
            wide = ui.font(17).size(f"{name} · {summary}")[0] + ui.s(16) <= width - ui.s(34)
            ui.button(surface, (rows.x, top, width - ui.s(34), row_h), f"{name} · {summary}" if wide else name,
                      lambda s=army.side, k=i: setattr(self, "sheet", (s, k)), size=17,
                      selected=self.sheet == (army.side, i), tooltip=f"{summary}\n{tr('setup.edit')}")
            ui.button(surface, (rows.x + width - ui.s(28), top, ui.s(28), row_h), "×",
                      lambda s=army.side, k=i: self.remove_figure(s, k), tooltip=tr("setup.remove"),
                      enabled=len(army.figures) > 1)
        if self.archetypes:
            label = tr("setup.add_figure")
            ui.button(surface, (area.x, area.bottom - add_h, ui.font(16).size(label)[0] + ui.s(20), add_h), label,
                      lambda s=army.side: setattr(self, "recruiting", s), size=16, tooltip=tr("setup.add"))

    def figure_summary(self, fig: dict) -> str:
        """The figure's choices in words: "Veteran · Assault"."""
        return " · ".join(self.value_label(fig, key) for key in self.figure_choices(fig))

    def value_label(self, fig: dict, key: str) -> str:
        if key not in fig:      # a field the figure may have but has not yet (a second weapon)
            return "-"
        value = fig[key]
        if isinstance(value, (list, tuple)):        # several of a kind (two javelins)
            return ", ".join(term(str(v)) for v in value) or "-"
        if isinstance(value, bool):
            return tr(f"value.{key}.{'yes' if value else 'no'}", tr(f"log.{'yes' if value else 'no'}"))
        return term(str(value))

    def popup(self, surface: pygame.Surface, w: int, h: int) -> pygame.Rect:
        """A box in the middle over a darkened screen; a click beside it closes it."""
        ui = self.app.ui
        sw, sh = surface.get_size()
        shade = pygame.Surface((sw, sh), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        ui.hotspot(surface.get_rect(), self.close_popup)
        box = pygame.Rect(0, 0, min(w, sw - ui.s(40)), min(h, sh - ui.s(40)))
        box.center = (sw // 2, sh // 2)
        pygame.draw.rect(surface, (20, 22, 28), box, border_radius=ui.s(8))
        pygame.draw.rect(surface, ACCENT, box, 1, border_radius=ui.s(8))
        ui.occupy(box)
        ui.hotspot(box)         # a click inside the box but on no button keeps it open
        return box

    def draw_sheet(self, surface: pygame.Surface) -> None:
        """One figure's choices, each a button that steps it to the next value the rules allow."""
        ui = self.app.ui
        side, index = self.sheet
        if index >= len(self.armies[side].figures):
            self.sheet = None
            return
        fig = self.armies[side].figures[index]
        keys = list(self.figure_choices(fig))
        row = ui.s(36)
        with ui.layer("popup"):
            box = self.popup(surface, ui.s(520), ui.s(70) + row * max(1, len(keys)) + ui.s(56))
            x = box.x + ui.s(16)
            y = ui.text(surface, figure_label(fig), (x, box.y + ui.s(12)), 26, side_colour(side),
                        max_width=box.w - ui.s(32)).bottom + ui.s(10)
            label_w = min(box.w // 2, max([ui.font(18).size(term(k))[0] for k in keys] or [0]) + ui.s(16))
            shown, width = ui.rows(surface, (x, y, box.w - ui.s(32), box.bottom - ui.s(56) - y),
                                   [row - ui.s(4)] * len(keys), self.sheet_scroll(fig))
            for i, top in shown:
                key = keys[i]
                ui.text(surface, term(key), (x, top + (row - ui.s(4)) // 2), 18, MUTED, "midleft",
                        max_width=label_w - ui.s(8))
                ui.button(surface, (x + label_w, top, width - label_w, row - ui.s(4)), self.value_label(fig, key),
                          lambda c=key: self.cycle(side, index, c), size=17,
                          tooltip=tr("setup.cycle", what=term(key)))
            done = tr("setup.done")
            dw = ui.font(20).size(done)[0] + ui.s(40)
            ui.button(surface, (box.right - dw - ui.s(16), box.bottom - ui.s(46), dw, ui.s(36)), done,
                      self.close_popup, selected=True)

    def sheet_scroll(self, fig: dict) -> Scroll:
        if getattr(self, "_sheet_for", None) is not fig:
            self._sheet_for, self._sheet_scroll = fig, Scroll()
        return self._sheet_scroll

    def draw_recruits(self, surface: pygame.Surface) -> None:
        """The figures the rules let this army take on, one button each."""
        ui = self.app.ui
        side = self.recruiting
        row = ui.s(32)
        with ui.layer("popup"):
            box = self.popup(surface, ui.s(460), ui.s(70) + (row + ui.s(4)) * len(self.archetypes) + ui.s(56))
            x = box.x + ui.s(16)
            title = f"{tr('setup.add_figure')} — {tr(f'side.{side}')}"
            y = ui.text(surface, title, (x, box.y + ui.s(12)), 24, side_colour(side),
                        max_width=box.w - ui.s(32)).bottom + ui.s(10)
            shown, width = ui.rows(surface, (x, y, box.w - ui.s(32), box.bottom - ui.s(56) - y),
                                   [row] * len(self.archetypes), self.recruit_scroll)
            for i, top in shown:
                arch = self.archetypes[i]
                label = "+ " + figure_label(arch)
                ui.button(surface, (x, top, width, row), label, lambda a=arch: self.add_figure(side, a), size=17,
                          tooltip=self.figure_summary(arch))
            back = tr("button.back")
            bw = ui.font(20).size(back)[0] + ui.s(40)
            ui.button(surface, (box.right - bw - ui.s(16), box.bottom - ui.s(46), bw, ui.s(36)), back,
                      self.close_popup)


class LoadScene(StillScene):
    """Saved battles from the user's folder (by map title and rule system), or any file by path; a bad
    save says why."""

    def __init__(self, app):
        self.app = app
        self.saves = [str(p) for p in list_saves()]
        self.summaries = {path: self.summary(path) for path in self.saves}
        self.path_input = TextInput()
        self.mode = "hotseat"
        self.human_side = 0
        self.scroll = Scroll()

    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    @staticmethod
    def summary(path: str) -> tuple[str, str]:
        """What a save holds, read from its header without replaying it: (map and rule system, turn and
        answers); a damaged one says so."""
        try:
            data = read_save(path)
            rules = printable(data["rules"]["id"], 40)
            where = Path(str(data["map"]["path"]))
            entry = entry_for(where) if is_regular(where) else None
            title = entry.title(language()) if entry is not None and not entry.error else where.stem
            turn, answers = data.get("turn"), data.get("answers")
            return (tr("load.summary", rules=_title_of(rules), map=printable(title, 60)),
                    tr("load.progress", turn=turn if isinstance(turn, int) and abs(turn) < 10**6 else "?",
                       answers=len(answers) if isinstance(answers, list) else "?"))
        except (EscarmoucheError, KeyError, TypeError, AttributeError, ValueError, OSError):
            return f"{printable(Path(path).name, 60)} — {tr('load.damaged')}", ""

    def load(self, path: str) -> None:
        from .battle import BattleScene

        try:
            match = load_match(path)
            window = read_save(path).get("window")
        except EscarmoucheError as e:
            self.app.show_error(tr("load.failed", error=str(e)))
            return
        try:
            loaded, _ = load_map_picture(match.map_path)
        except (EscarmoucheError, ImportError):
            loaded = None
        zoom = window.get("zoom") if isinstance(window, dict) else None
        self.app.replace(BattleScene(self.app, match, self.mode, self.human_side, loaded, save_path=path,
                                     zoom=zoom if isinstance(zoom, (int, float)) else None))

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        surface.fill(BG)
        w, h = surface.get_size()
        top = _title(self.app, surface, tr("load.title")) + ui.s(16)
        x = ui.s(40)
        side_w = max(ui.s(220), max(ui.font(20).size(tr(f"mode.{m}"))[0] for m in MODES) + ui.s(30))
        lw = w - 2 * x - side_w - ui.s(40)
        bh = ui.s(44)
        field_top = h - bh - ui.s(40) - ui.s(96)
        if not self.saves:
            ui.text(surface, tr("load.none"), (x, top), 20, MUTED)
        row_h = ui.s(50)
        shown, width = ui.rows(surface, (x, top, lw, field_top - ui.s(16) - top), [row_h] * len(self.saves),
                               self.scroll)
        for i, y in shown:
            path = self.saves[i]
            p = Path(path)
            try:
                stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(p.stat().st_mtime))
            except OSError:
                stamp = ""
            what, progress = self.summaries.get(path, ("", ""))
            note = " · ".join(t for t in (progress, stamp, tr("load.autosave") if p == autosave_path() else "") if t)
            row = ui.button(surface, (x, y, width, row_h), "", lambda q=path: self.load(q),
                            tooltip=printable(path, 200))
            row.label = what        # drawn below on two lines
            ui.text(surface, what, (x + ui.s(10), y + ui.s(5)), 20, TEXT, max_width=width - ui.s(20))
            ui.text(surface, note, (x + ui.s(10), y + row_h - ui.s(5)), 16, MUTED, "bottomleft",
                    max_width=width - ui.s(20))
        ui.text(surface, tr("load.path"), (x, field_top), 20, ACCENT)
        open_label = tr("load.open")
        ow = ui.font(20).size(open_label)[0] + ui.s(30)
        ui.input(surface, (x, field_top + ui.s(28), lw - ow - ui.s(6), ui.s(32)), self.path_input, tr("load.path_hint"))
        ui.button(surface, (x + lw - ow, field_top + ui.s(28), ow, ui.s(32)), open_label,
                  lambda: self.load(self.path_input.text.strip()) if self.path_input.text.strip() else None)
        mx = x + lw + ui.s(40)
        y = ui.text(surface, tr("setup.mode"), (mx, top), 22, ACCENT).bottom + ui.s(8)
        for mode in MODES:
            ui.button(surface, (mx, y, side_w, ui.s(34)), tr(f"mode.{mode}"),
                      lambda m=mode: setattr(self, "mode", m), selected=(mode == self.mode))
            y += ui.s(40)
        if self.mode == "vs-ai":
            y = ui.text(surface, tr("setup.human_side"), (mx, y + ui.s(10)), 22, ACCENT).bottom + ui.s(8)
            for i in (0, 1):
                ui.button(surface, (mx, y, side_w, ui.s(34)), tr(f"side.{i}"),
                          lambda s=i: setattr(self, "human_side", s), selected=(i == self.human_side))
                y += ui.s(40)
        ui.button(surface, (ui.s(30), h - bh - ui.s(20), ui.s(200), bh), tr("button.back"), self.app.pop)


class SettingsScene(StillScene):
    """Language, AI speed, interface size, animations, sound, camera and key bindings; every change is
    saved at once."""

    def __init__(self, app):
        self.app = app
        self.rebinding: str | None = None
        self.scroll = Scroll()

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
        """The choices, then the key bindings, in one list that scrolls when the window is short;
        Back stays below it."""
        ui = self.app.ui
        surface.fill(BG)
        w, h = surface.get_size()
        y = _title(self.app, surface, tr("settings.title")) + ui.s(12)
        x = ui.s(40)
        choices = [("settings.language", "language", LANGUAGES, lambda v: tr(f"language.{v}")),
                   ("settings.ai_speed", "ai_speed", tuple(AI_SPEEDS), lambda v: tr(f"speed.{v}")),
                   ("settings.ui_scale", "ui_scale", UI_SCALES, lambda v: f"{int(v * 100)} %"),
                   ("settings.animations", "animations", ANIMATIONS, lambda v: tr(f"animations.{v}")),
                   ("settings.volume", "volume", VOLUMES, lambda v: f"{v} %"),
                   ("settings.sound", "muted", (False, True), lambda v: tr("settings.muted" if v else "settings.on")),
                   ("settings.camera", "camera_follow", (True, False),
                    lambda v: tr("settings.on" if v else "settings.off"))]
        label_w = max(ui.font(22).size(tr(title))[0] for title, *_ in choices) + ui.s(20)
        most = max(len(values) for _, _, values, _ in choices)
        key_w = ui.s(110)
        widest = max(ui.font(20).size(tr(f"key.{a}"))[0] for a in DEFAULT_KEYS) + key_w + ui.s(16)
        cols = max(1, min(3, (w - 2 * x + ui.s(30)) // (widest + ui.s(30))))
        actions = list(DEFAULT_KEYS)
        key_lines = [actions[i:i + cols] for i in range(0, len(actions), cols)]
        rows = [(ui.s(36), lambda top, room, c=c: self.draw_choice(surface, c, x, top, room, label_w, most))
                for c in choices]
        if ui.scale < ui.chosen:        # the window is too small for the chosen size: say what it shows
            rows.append((ui.line(16), lambda top, room: ui.text(
                surface, tr("settings.scale_limited", shown=f"{round(ui.scale * 100)} %"), (x + label_w, top), 16,
                MUTED, max_width=room - label_w)))
        rows.append((ui.s(44), lambda top, room: self.draw_keys_title(surface, x, top, room)))
        rows += [(ui.s(34), lambda top, room, line=line: self.draw_key_line(surface, line, x, top, room, cols, key_w))
                 for line in key_lines]
        bh = ui.s(44)
        bottom = h - bh - ui.s(24)
        shown, room = ui.rows(surface, (x, y, w - 2 * x, bottom - ui.s(10) - y), [r[0] for r in rows], self.scroll)
        for i, top in shown:
            rows[i][1](top, room)
        ui.button(surface, (ui.s(30), h - bh - ui.s(20), ui.s(200), bh), tr("button.back"), self.app.pop)

    def draw_choice(self, surface, choice, x: int, top: int, room: int, label_w: int, most: int) -> None:
        """One setting: its name, then a button for each value, the chosen one lit."""
        ui, st = self.app.ui, self.app.settings
        title, name, values, label = choice
        bw = min(ui.s(130), (room - label_w) // most - ui.s(6))
        ui.text(surface, tr(title), (x, top + ui.s(17)), 22, ACCENT, "midleft", max_width=label_w - ui.s(8))
        for i, v in enumerate(values):
            ui.button(surface, (x + label_w + i * (bw + ui.s(6)), top, bw, ui.s(34)), label(v),
                      lambda n=name, v=v: self.set(n, v), selected=(getattr(st, name) == v), size=18)

    def draw_keys_title(self, surface, x: int, top: int, room: int) -> None:
        ui = self.app.ui
        ui.text(surface, tr("settings.keys"), (x, top + ui.s(22)), 22, ACCENT, "midleft")
        reset = tr("settings.reset_keys")
        rw = ui.font(18).size(reset)[0] + ui.s(24)
        ui.button(surface, (x + room - rw, top + ui.s(6), rw, ui.s(32)), reset, self.reset_keys, size=18)

    def draw_key_line(self, surface, line, x: int, top: int, room: int, cols: int, key_w: int) -> None:
        """A row of key bindings, ``cols`` to a row: the action's name and its key, a click to change it."""
        ui, st = self.app.ui, self.app.settings
        col_w = (room - (cols - 1) * ui.s(30)) // cols
        for k, action in enumerate(line):
            cx = x + k * (col_w + ui.s(30))
            ui.text(surface, tr(f"key.{action}"), (cx, top + ui.s(16)), 20, TEXT, "midleft",
                    max_width=col_w - key_w - ui.s(8))
            label = "…" if self.rebinding == action else key_label(st.keys.get(action, ""))
            ui.button(surface, (cx + col_w - key_w, top, key_w, ui.s(32)), label,
                      lambda a=action: setattr(self, "rebinding", a), selected=(self.rebinding == action),
                      size=18, tooltip=tr("settings.rebind"))


class ResultsScene(StillScene):
    def __init__(self, app, match, viewer, names: dict[str, str]):
        use_rules(match.rules)
        self.app = app
        self.match = match
        self.outcome = match.outcome
        self.figures = match.rules.figures(match.state, None)
        self.names = names
        self.scroll = Scroll()

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
        y = ui.text(surface, title, (w // 2, ui.s(24)), 56, colour, "midtop").bottom + ui.s(10)
        rules = self.match.rules
        lines: list[tuple[str, int, tuple]] = []
        if o is not None and o.reason:
            lines += [(t, 24, TEXT) for t in ui.wrap(tr(f"reason.{o.reason}", o.reason), 24, w - ui.s(80))]
        lines.append((tr("results.turns", n=rules.turn(self.match.state)), 22, MUTED))
        lines.append(("", 8, TEXT))
        for side in rules.sides:
            mine = [f for f in self.figures if f.side == side]
            alive = [f for f in mine if f.alive and f.health[0] > 0]
            hp = sum(max(0, f.health[0]) for f in alive)
            text = tr("results.side_line", side=tr(f"side.{side}"), alive=len(alive), total=len(mine), hp=hp)
            lines += [(t, 24, side_colour(side)) for t in ui.wrap(text, 24, w - ui.s(80))]
        for line in (o.details if o is not None else ()):       # the module's own summary (recovery…)
            params = {k: in_words(k, v, self.names) for k, v in line.params}
            lines += [(t, 20, TEXT) for t in ui.wrap(tr(line.key, line.key, **params), 20, w - ui.s(100))]
        band = ui.s(90)
        shown, width = ui.rows(surface, (ui.s(30), y, w - ui.s(60), h - band - ui.s(10) - y),
                               [ui.line(size) if text else ui.s(size) for text, size, _ in lines], self.scroll)
        for i, top in shown:
            text, size, shade = lines[i]
            if text:
                ui.text(surface, text, (ui.s(30) + width // 2, top), size, shade, "midtop")
        bw, bh = ui.s(240), ui.s(48)
        pygame.draw.rect(surface, PANEL, (0, h - band, w, band))
        ui.button(surface, (w // 2 - bw - ui.s(10), h - band + (band - bh) // 2, bw, bh), tr("results.menu"),
                  self.to_menu)
        ui.button(surface, (w // 2 + ui.s(10), h - band + (band - bh) // 2, bw, bh), tr("menu.new"),
                  lambda: self.app.replace(SetupScene(self.app)))
