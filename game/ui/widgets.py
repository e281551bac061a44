"""Immediate-mode widgets: each frame a scene draws its buttons, and clicks go to what was drawn last.

Redrawing the widget list every frame keeps the layout right after a resize or a change of
language without any bookkeeping, and a click can never reach a widget that is no longer shown.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import pygame

from ..errors import printable

BG = (24, 26, 30)
PANEL = (38, 41, 48)
PANEL_LIGHT = (56, 60, 70)
TEXT = (230, 230, 225)
MUTED = (150, 152, 160)
ACCENT = (240, 190, 70)
BAD = (230, 90, 80)
GOOD = (110, 200, 120)
SIDE_COLOURS = ((70, 130, 230), (220, 70, 60), (90, 190, 90), (200, 170, 60))
MIN_LOGICAL = (800, 480)     # every screen is laid out for at least this many interface pixels


def side_colour(side: int) -> tuple[int, int, int]:
    return SIDE_COLOURS[side % len(SIDE_COLOURS)]


class Font(pygame.font.Font):
    """A font that measures and draws any text: one a font cannot encode (a lone surrogate from an
    undecodable file name, say) is drawn as ``printable`` writes it, instead of raising each frame."""

    def size(self, text):
        return super().size(_drawable(text))

    def render(self, text, *args, **kwargs):
        return super().render(_drawable(text), *args, **kwargs)


def _drawable(text):
    """Text the font can take: a str with a lone surrogate escaped; bytes or None as pygame takes them."""
    if isinstance(text, str) and not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return printable(text)
    return text


def _arrow(size: int, direction: int) -> pygame.Surface:
    """A small triangle pointing up (-1) or down (1), for scroll buttons."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    top, bottom = (0, size - 1) if direction < 0 else (size - 1, 0)
    pygame.draw.polygon(surf, TEXT, [(size // 2, top), (0, bottom), (size - 1, bottom)])
    return surf


@dataclass
class Button:
    rect: pygame.Rect
    label: str
    on_click: Callable[[], None] | None
    tooltip: str = ""
    enabled: bool = True
    selected: bool = False
    icon: pygame.Surface | None = None
    hotkey: str = ""
    drawn: bool = True      # False: a hot spot over something drawn otherwise (a log line)


@dataclass
class Drawn:
    """One thing a frame put on screen, as the layout checks see it: a text, a button or a box
    (a panel, a picture) with its rectangle, its layer, and for a text whether it lost words to fit
    (``clipped``) and the rectangle it had to stay inside (``within``)."""

    kind: str
    rect: pygame.Rect
    layer: str
    text: str = ""
    clipped: bool = False
    within: pygame.Rect | None = None
    owner: int = -1         # the index of the button whose label this text is


class Scroll:
    """Where a list taller than its area starts: the first row shown, moved by the wheel over the
    area and by its arrow buttons; the scene keeps one per list."""

    def __init__(self):
        self.first = 0
        self.count = 0
        self.room = 0

    def by(self, rows: int) -> None:
        self.first = max(0, min(self.first + rows, max(0, self.count - self.room)))


class TextInput:
    """A one-line text field; it takes the keyboard while focused."""

    def __init__(self, text: str = "", allowed: str | None = None, max_len: int = 300):
        self.text = text
        self.focused = False
        self.allowed = allowed
        self.max_len = max_len

    def key(self, event: pygame.event.Event) -> bool:
        """Consume one key or text event; True when it was for this field."""
        if not self.focused:
            return False
        if event.type == pygame.TEXTINPUT:
            chars = [c for c in event.text if self.allowed is None or c in self.allowed]
            self.text = (self.text + "".join(chars))[: self.max_len]
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB):
                self.focused = False
                return True
            return event.key not in (pygame.K_LCTRL, pygame.K_RCTRL)
        return False


class UI:
    """Fonts at the chosen scale plus the widgets drawn this frame."""

    def __init__(self, scale: float = 1.0):
        self.chosen = scale
        self.scale = scale
        self.window = (0, 0)
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text_cache: dict[tuple, pygame.Surface] = {}
        self.buttons: list[Button] = []
        self.inputs: list[tuple[pygame.Rect, TextInput]] = []
        self.drawn: list[Drawn] = []
        self.scrolls: list[tuple[pygame.Rect, Scroll]] = []
        self.current_layer = "screen"
        self._owner = -1
        self.mouse = (-1, -1)
        self.pointing = False       # the pointer moved since the last click or key: tooltips may show
        self.glossary: Callable[[str], list[str]] | None = None     # the definitions a tooltip text calls for
        self.frame = 0          # frames begun, so a kept picture can tell it is on the screen from the last one
        self.overlaid: list[pygame.Rect] = []   # what the window drew over the scene in the last frame

    def set_scale(self, scale: float) -> None:
        self.chosen = scale
        self._apply(self.fitted(self.window))

    def fit(self, window: tuple[int, int]) -> None:
        """Follow the window's size: the chosen interface size, less where the window cannot hold
        ``MIN_LOGICAL`` interface pixels at it (a 200 % interface in a 1024×600 window)."""
        if tuple(window) != self.window:
            self.window = tuple(window)
            self._apply(self.fitted(self.window))

    def fitted(self, window: tuple[int, int]) -> float:
        if not window[0] or not window[1]:
            return self.chosen
        room = min(window[0] / MIN_LOGICAL[0], window[1] / MIN_LOGICAL[1])
        return min(self.chosen, max(0.5, int(room * 100) / 100))

    def _apply(self, scale: float) -> None:
        if scale != self.scale:
            self.scale = scale
            self._fonts.clear()
            self._text_cache.clear()

    @contextmanager
    def layer(self, name: str):
        """Draw into a named layer: the layout checks compare things within one layer only, and the
        "map" layer (labels over figures and tiles, which may crowd) not at all."""
        before, self.current_layer = self.current_layer, name
        try:
            yield
        finally:
            self.current_layer = before

    def occupy(self, rect, kind: str = "box") -> pygame.Rect:
        """Say that a panel or picture fills ``rect`` this frame, for the layout checks and ``place``."""
        rect = pygame.Rect(rect)
        self.drawn.append(Drawn(kind, rect, self.current_layer))
        return rect

    def free(self, rect: pygame.Rect, avoid=()) -> bool:
        """Nothing of the current layer drawn so far, nor any of ``avoid``, lies under ``rect``."""
        return not any(d.layer == self.current_layer and d.owner < 0 and rect.colliderect(d.rect)
                       for d in self.drawn) and not any(rect.colliderect(a) for a in avoid)

    def place(self, size: tuple[int, int], candidates, area: pygame.Rect, avoid=()) -> pygame.Rect:
        """The first of ``candidates`` (top-left corners) where a box of ``size`` stays inside ``area``
        and covers nothing of its layer drawn so far, nor any of ``avoid`` (what it must not hide on
        the map); else the one that covers least."""
        taken = [d.rect for d in self.drawn if d.layer == self.current_layer and d.owner < 0] + list(avoid)
        best, best_cover = None, None
        for x, y in candidates:
            r = pygame.Rect(int(x), int(y), *size).clamp(area)
            cover = sum(r.clip(t).w * r.clip(t).h for t in taken)
            if cover == 0:
                return r
            if best_cover is None or cover < best_cover:
                best, best_cover = r, cover
        return best if best is not None else pygame.Rect(area.topleft, size)

    def s(self, n: float) -> int:
        return max(1, int(round(n * self.scale)))

    def font(self, size: int) -> pygame.font.Font:
        px = self.s(size)
        if px not in self._fonts:
            self._fonts[px] = Font(None, px)
        return self._fonts[px]

    def line(self, size: int) -> int:
        """The height of one line of text of ``size``: what a rendered line takes, capital accents
        and descenders included."""
        font = self.font(size)
        return max(font.get_linesize(), font.size("ÉÂÇgjy")[1])

    def render(self, text: str, size: int = 20, colour=TEXT) -> pygame.Surface:
        key = (text, size, colour)
        surf = self._text_cache.get(key)
        if surf is None:
            if len(self._text_cache) > 2000:
                self._text_cache.clear()
            surf = self.font(size).render(text, True, colour)
            self._text_cache[key] = surf
        return surf

    def text(self, surface: pygame.Surface, text: str, pos, size: int = 20, colour=TEXT,
             anchor: str = "topleft", max_width: int | None = None) -> pygame.Rect:
        full = text
        if max_width is not None:
            text = self.clip(text, size, max_width)
        surf = self.render(text, size, colour)
        rect = surf.get_rect(**{anchor: pos})
        surface.blit(surf, rect)
        if text.strip():
            self.drawn.append(Drawn("text", rect.copy(), self.current_layer, full, text != full,
                                    surface.get_clip(), self._owner))
        return rect

    def clip(self, text: str, size: int, width: int) -> str:
        font = self.font(size)
        if font.size(text)[0] <= width:
            return text
        while text and font.size(text + "…")[0] > width:
            text = text[:-1]
        return text + "…"

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        """Lines of ``text`` within ``width``; a word longer than a line (a file path) is cut after a
        "/" or where it must."""
        font, lines, line = self.font(size), [], ""
        words = []
        for word in text.split():
            while len(word) > 1 and font.size(word[:width + 1])[0] > width:    # no letter is under a pixel wide
                fits, cut = 1, min(len(word), width + 1)      # the longest head within the line, halving
                while cut - fits > 1:
                    mid = (fits + cut) // 2
                    fits, cut = (mid, cut) if font.size(word[:mid])[0] <= width else (fits, mid)
                cut = fits
                slash = word.rfind("/", 0, cut)
                cut = slash + 1 if slash > 0 else cut
                words.append(word[:cut])
                word = word[cut:]
            words.append(word)
        for word in words:
            trial = f"{line} {word}".strip()
            if font.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
        return lines

    # --- per-frame widgets ----------------------------------------------------

    def track(self, event: pygame.event.Event) -> None:
        """Follow the pointer from events (the same under a real or a dummy video driver). A click or a
        key puts tooltips away until the pointer moves again: what it pointed at may have changed."""
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.mouse = event.pos
        if event.type == pygame.MOUSEMOTION:
            self.pointing = True
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN, pygame.MOUSEWHEEL):
            self.pointing = False

    def begin_frame(self) -> None:
        self.frame += 1
        self.buttons = []
        self.inputs = []
        self.drawn = []
        self.scrolls = []
        self.current_layer = "screen"

    def button(self, surface: pygame.Surface, rect, label: str, on_click=None, *, tooltip: str = "",
               enabled: bool = True, selected: bool = False, icon: pygame.Surface | None = None,
               hotkey: str = "", size: int = 20, stacked: bool = False) -> Button:
        """A button; ``stacked`` puts the icon above a smaller label, so a narrow button still says what it does."""
        rect = pygame.Rect(rect)
        self.drawn.append(Drawn("button", rect.copy(), self.current_layer, label))
        self._owner = len(self.drawn) - 1
        hover = rect.collidepoint(self.mouse) and enabled
        colour = ACCENT if selected else (PANEL_LIGHT if hover else PANEL)
        pygame.draw.rect(surface, colour, rect, border_radius=self.s(5))
        pygame.draw.rect(surface, (90, 95, 108), rect, 1, border_radius=self.s(5))
        fg = (20, 20, 20) if selected else (TEXT if enabled else MUTED)
        x = rect.x + self.s(6)
        if stacked and icon is not None:
            lines = self.wrap(label, 15, rect.w - self.s(6))     # a long name takes two short lines
            if len(lines) > 2:
                lines = [lines[0], " ".join(lines[1:])]
            room = rect.h - self.s(9) - len(lines) * self.s(14) - self.s(3)
            if icon.get_height() > room > 0:        # a smaller icon over two lines
                icon = pygame.transform.smoothscale(icon, (room, room))
            spot = icon.get_rect(midtop=(rect.centerx, rect.y + self.s(4)))
            surface.blit(icon, spot)
            self.drawn.append(Drawn("icon", spot, self.current_layer, owner=self._owner))
            for k, line in enumerate(reversed(lines)):
                self.text(surface, line, (rect.centerx, rect.bottom - self.s(3) - k * self.s(14)), 15, fg,
                          "midbottom", max_width=rect.w - self.s(6))
        elif icon is not None and not label:
            surface.blit(icon, icon.get_rect(center=rect.center))
        else:
            if icon is not None:
                ir = icon.get_rect(midleft=(x, rect.centery))
                surface.blit(icon, ir)
                self.drawn.append(Drawn("icon", ir, self.current_layer, owner=self._owner))
                x = ir.right + self.s(4)
            if label:
                width = rect.right - x - self.s(4)
                if icon is None:
                    self.text(surface, label, rect.center, size, fg, "center", max_width=rect.w - self.s(8))
                else:
                    self.text(surface, label, (x, rect.centery), size, fg, "midleft", max_width=width)
        if hotkey:
            self.text(surface, hotkey, (rect.right - self.s(3), rect.top + self.s(2)), 14, MUTED, "topright")
        self._owner = -1
        b = Button(rect, label, on_click, tooltip, enabled, selected, icon, hotkey)
        self.buttons.append(b)
        return b

    def flow(self, surface: pygame.Surface | None, x: int, y: int, width: int, items, size: int = 18,
             height: int = 34) -> int:
        """Buttons as wide as their labels, left to right and onto a new line where the next would pass
        ``width``; ``items`` are (label, on_click, selected, tooltip). The y under the last line
        (``surface`` None: only measure it)."""
        gap, left = self.s(6), x
        for label, on_click, selected, tooltip in items:
            bw = min(width, self.font(size).size(label)[0] + self.s(20))
            if x > left and x + bw > left + width:
                x, y = left, y + self.s(height) + gap
            if surface is not None:
                self.button(surface, (x, y, bw, self.s(height)), label, on_click, selected=selected,
                            tooltip=tooltip, size=size)
            x += bw + gap
        return y + self.s(height)

    def hotspot(self, rect, on_click=None, tooltip: str = "") -> Button:
        """A clickable place with a tooltip over something drawn otherwise (a line of the log)."""
        b = Button(pygame.Rect(rect), "", on_click, tooltip, drawn=False)
        self.buttons.append(b)
        return b

    def input(self, surface: pygame.Surface, rect, field: TextInput, placeholder: str = "") -> None:
        rect = pygame.Rect(rect)
        self.drawn.append(Drawn("button", rect.copy(), self.current_layer, field.text))
        self._owner = len(self.drawn) - 1
        pygame.draw.rect(surface, (16, 17, 20), rect, border_radius=self.s(4))
        pygame.draw.rect(surface, ACCENT if field.focused else (90, 95, 108), rect, 1, border_radius=self.s(4))
        shown = field.text + ("|" if field.focused else "")
        if shown:
            shown = shown[-200:]
            font = self.font(18)
            while shown and font.size(shown)[0] > rect.w - self.s(10):
                shown = shown[1:]
            self.text(surface, shown, (rect.x + self.s(5), rect.centery), 18, TEXT, "midleft")
        elif placeholder:
            self.text(surface, placeholder, (rect.x + self.s(5), rect.centery), 18, MUTED, "midleft",
                      max_width=rect.w - self.s(10))
        self._owner = -1
        self.inputs.append((rect, field))

    def rows(self, surface: pygame.Surface, area, heights: list[int], scroll: Scroll) -> tuple[list[tuple[int, int]], int]:
        """Lay rows of these heights down ``area`` from the scroll's first row: the (index, top) of
        each row that fits whole, and the width left for them. When some do not fit, arrow buttons
        down the right edge move the list, and so does the wheel over it."""
        area = pygame.Rect(area)
        gap = self.s(4)
        if sum(heights) + gap * max(0, len(heights) - 1) <= area.h:
            scroll.first, scroll.count, scroll.room = 0, len(heights), len(heights)
            shown, y = [], area.y
            for i, h in enumerate(heights):
                shown.append((i, y))
                y += h + gap
            return shown, area.w
        arrows = self.s(26)
        scroll.count = len(heights)
        room, total = 0, 0     # how many rows fit from the end: the furthest the list may go
        for h in reversed(heights):
            if total + h > area.h:
                break
            total += h + gap
            room += 1
        scroll.room = max(1, room)
        scroll.first = max(0, min(scroll.first, len(heights) - scroll.room))
        shown, y = [], area.y
        for i in range(scroll.first, len(heights)):
            if y + heights[i] > area.bottom:
                break
            shown.append((i, y))
            y += heights[i] + gap
        x = area.right - arrows
        self.button(surface, (x, area.y, arrows, arrows), "", lambda: scroll.by(-1), icon=_arrow(self.s(12), -1),
                    enabled=scroll.first > 0)
        self.button(surface, (x, area.bottom - arrows, arrows, arrows), "", lambda: scroll.by(1),
                    icon=_arrow(self.s(12), 1), enabled=bool(shown) and shown[-1][0] < len(heights) - 1)
        self.scrolls.append((area, scroll))
        return shown, area.w - arrows - self.s(6)

    def wheel(self, pos, dy: int) -> bool:
        """Scroll the list under the pointer; True when there was one."""
        for area, scroll in reversed(self.scrolls):
            if area.collidepoint(pos):
                scroll.by(-dy)
                return True
        return False

    def click(self, pos) -> bool:
        """Dispatch a left click to the widgets drawn last frame; True when one took it."""
        for rect, field in self.inputs:
            field.focused = rect.collidepoint(pos)
        if any(f.focused for _, f in self.inputs):
            return True
        for b in reversed(self.buttons):
            if b.rect.collidepoint(pos):
                if b.enabled and b.on_click is not None:
                    b.on_click()
                return True
        return False

    def focused_input(self) -> TextInput | None:
        for _, field in self.inputs:
            if field.focused:
                return field
        return None

    def hovered(self) -> Button | None:
        for b in reversed(self.buttons):
            if b.rect.collidepoint(self.mouse):
                return b
        return None

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        """The tooltip of the button under a pointer that moved there, and under it the glossary's
        words for the rules terms it uses; kept inside the window, above or below the pointer."""
        b = self.hovered()
        if b is None or not b.tooltip or not self.pointing:
            return
        width = min(self.s(340), surface.get_width() - self.s(20))
        lines: list[tuple[str, tuple]] = []
        for para in b.tooltip.split("\n"):
            lines.extend((line, TEXT) for line in self.wrap(para, 18, width) or [""])
        for entry in (self.glossary(b.tooltip) if self.glossary is not None else []):
            lines.extend((line, MUTED) for line in self.wrap(entry, 16, width))
        step = self.s(18)
        h = step * len(lines) + self.s(10)
        w = max(self.font(18).size(line)[0] for line, _ in lines) + self.s(14)
        x = max(2, min(self.mouse[0] + self.s(14), surface.get_width() - w - 2))
        y = self.mouse[1] - h - self.s(8)
        if y < 0:
            y = min(self.mouse[1] + self.s(22), surface.get_height() - h - 2)
        rect = pygame.Rect(x, max(2, y), w, h)
        with self.layer("tooltip"):
            pygame.draw.rect(surface, (12, 12, 16), rect, border_radius=self.s(4))
            pygame.draw.rect(surface, ACCENT, rect, 1, border_radius=self.s(4))
            self.occupy(rect)
            for i, (line, colour) in enumerate(lines):
                self.text(surface, line, (rect.x + self.s(7), rect.y + self.s(5) + i * step),
                          16 if colour == MUTED else 18, colour)
