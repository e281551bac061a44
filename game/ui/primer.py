"""How to play: a rule system's primer (goal, turn, hitting, what kills), its glossary and the controls.

Opened from New battle for the chosen system, and from the battle with F1 or Help, over the battle
(which waits underneath). The words are the module's own: ``primer.goal``, ``primer.turn``,
``primer.hit``, ``primer.kills`` and its ``glossary.*`` entries.
"""
from __future__ import annotations

import pygame

from . import glossary
from .i18n import key_label, language, tr, use_rules
from .widgets import ACCENT, BG, MUTED, TEXT, Scroll

PARTS = ("goal", "turn", "hit", "kills")
HELP_LINES = ("click", "cancel", "pan", "actions", "keep", "view")
TABS = ("rules", "glossary", "controls")


class PrimerScene:
    """One module's primer and glossary (and, from a battle, the controls) in tabs that scroll."""

    def __init__(self, app, rules, tab: str = "rules", focus: str | None = None, controls: bool = False):
        self.app = app
        self.rules = rules
        use_rules(rules)
        self.tabs = TABS if controls else TABS[:2]
        self.tab = tab if tab in self.tabs else self.tabs[0]
        self.focus = focus
        self.scrolls = {t: Scroll() for t in TABS}
        self._focused = False

    def update(self, dt: float) -> None:
        return None

    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_F1, pygame.K_RETURN):
            self.app.pop()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_PAGEUP,
                                                           pygame.K_PAGEDOWN):
            step = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -8, pygame.K_PAGEDOWN: 8}[event.key]
            self.scrolls[self.tab].by(step)

    def show(self, tab: str) -> None:
        self.tab = tab

    def lines(self, width: int) -> list[tuple[str, int, tuple, str]]:
        """The tab's text as (line, size, colour, glossary id) rows, wrapped to ``width``."""
        ui = self.app.ui
        out: list[tuple[str, int, tuple, str]] = []

        def para(text: str, size: int = 18, colour=TEXT, ident: str = "") -> None:
            for piece in text.split("\n"):
                out.extend((line, size, colour, ident) for line in ui.wrap(piece, size, width) or [""])

        if self.tab == "rules":
            for part in PARTS:
                para(tr(f"primer.heading.{part}"), 22, ACCENT)
                para(tr(f"primer.{part}"))
                out.append(("", 8, TEXT, ""))
        elif self.tab == "glossary":
            for entry in glossary.entries():
                para(entry.headword, 20, ACCENT, entry.id)
                para(entry.meaning, 18, TEXT, entry.id)
                out.append(("", 6, TEXT, entry.id))
            if not out:
                para(tr("primer.no_glossary"), 18, MUTED)
        else:
            keys = {k: key_label(v) for k, v in self.app.settings.keys.items()}
            for k in HELP_LINES:
                para(tr(f"help.{k}", **keys))
                out.append(("", 6, TEXT, ""))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.app.ui
        surface.fill(BG)
        w, h = surface.get_size()
        x = ui.s(40)
        top = ui.text(surface, tr("primer.title", rules=self.rules.name(language())), (x, ui.s(20)), 40, ACCENT,
                      max_width=w - 2 * x).bottom + ui.s(10)
        y = ui.flow(surface, x, top, w - 2 * x,
                    [(tr(f"primer.tab.{t}"), lambda t=t: self.show(t), t == self.tab, "") for t in self.tabs],
                    size=18, height=32) + ui.s(12)
        bh = ui.s(44)
        area = pygame.Rect(x, y, min(w - 2 * x, ui.s(900)), h - bh - ui.s(40) - y)
        lines = self.lines(area.w - ui.s(34))
        heights = [ui.line(size) if text else ui.s(size) for text, size, _, _ in lines]
        scroll = self.scrolls[self.tab]
        if self.tab == "glossary" and self.focus and not self._focused:
            first = next((i for i, row in enumerate(lines) if row[3] == self.focus), 0)
            scroll.first, self._focused = first, True
        shown, _ = ui.rows(surface, area, heights, scroll)
        for i, top_y in shown:
            text, size, colour, ident = lines[i]
            if text:
                shade = ACCENT if ident and ident == self.focus and colour == TEXT else colour
                ui.text(surface, text, (area.x, top_y), size, shade)
        ui.button(surface, (ui.s(30), h - bh - ui.s(20), ui.s(200), bh), tr("button.back"), self.app.pop)

