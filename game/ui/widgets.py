"""Immediate-mode widgets: each frame a scene draws its buttons, and clicks go to what was drawn last.

Redrawing the widget list every frame keeps the layout right after a resize or a change of
language without any bookkeeping, and a click can never reach a widget that is no longer shown.
"""
from __future__ import annotations

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
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return printable(text)
    except AttributeError:              # bytes or None, as pygame takes them
        pass
    return text


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
        self.scale = scale
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text_cache: dict[tuple, pygame.Surface] = {}
        self.buttons: list[Button] = []
        self.inputs: list[tuple[pygame.Rect, TextInput]] = []
        self.mouse = (-1, -1)

    def set_scale(self, scale: float) -> None:
        self.scale = scale
        self._fonts.clear()
        self._text_cache.clear()

    def s(self, n: float) -> int:
        return max(1, int(round(n * self.scale)))

    def font(self, size: int) -> pygame.font.Font:
        px = self.s(size)
        if px not in self._fonts:
            self._fonts[px] = Font(None, px)
        return self._fonts[px]

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
        if max_width is not None:
            text = self.clip(text, size, max_width)
        surf = self.render(text, size, colour)
        rect = surf.get_rect(**{anchor: pos})
        surface.blit(surf, rect)
        return rect

    def clip(self, text: str, size: int, width: int) -> str:
        font = self.font(size)
        if font.size(text)[0] <= width:
            return text
        while text and font.size(text + "…")[0] > width:
            text = text[:-1]
        return text + "…"

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        font, lines, line = self.font(size), [], ""
        for word in text.split():
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
        """Follow the pointer from events (the same under a real or a dummy video driver)."""
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.mouse = event.pos

    def begin_frame(self) -> None:
        self.buttons = []
        self.inputs = []

    def button(self, surface: pygame.Surface, rect, label: str, on_click=None, *, tooltip: str = "",
               enabled: bool = True, selected: bool = False, icon: pygame.Surface | None = None,
               hotkey: str = "", size: int = 20, stacked: bool = False) -> Button:
        """A button; ``stacked`` puts the icon above a smaller label, so a narrow button still says what it does."""
        rect = pygame.Rect(rect)
        hover = rect.collidepoint(self.mouse) and enabled
        colour = ACCENT if selected else (PANEL_LIGHT if hover else PANEL)
        pygame.draw.rect(surface, colour, rect, border_radius=self.s(5))
        pygame.draw.rect(surface, (90, 95, 108), rect, 1, border_radius=self.s(5))
        fg = (20, 20, 20) if selected else (TEXT if enabled else MUTED)
        x = rect.x + self.s(6)
        if stacked and icon is not None:
            surface.blit(icon, icon.get_rect(midtop=(rect.centerx, rect.y + self.s(4))))
            if label:
                self.text(surface, label, (rect.centerx, rect.bottom - self.s(4)), 15, fg, "midbottom",
                          max_width=rect.w - self.s(6))
        else:
            if icon is not None:
                ir = icon.get_rect(midleft=(x, rect.centery))
                surface.blit(icon, ir)
                x = ir.right + self.s(4)
            if label:
                width = rect.right - x - self.s(4)
                if icon is None:
                    self.text(surface, label, rect.center, size, fg, "center", max_width=rect.w - self.s(8))
                else:
                    self.text(surface, label, (x, rect.centery), size, fg, "midleft", max_width=width)
        if hotkey:
            self.text(surface, hotkey, (rect.right - self.s(3), rect.top + self.s(2)), 14, MUTED, "topright")
        b = Button(rect, label, on_click, tooltip, enabled, selected, icon, hotkey)
        self.buttons.append(b)
        return b

    def input(self, surface: pygame.Surface, rect, field: TextInput, placeholder: str = "") -> None:
        rect = pygame.Rect(rect)
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
        self.inputs.append((rect, field))

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
        b = self.hovered()
        if b is None or not b.tooltip:
            return
        lines = []
        for para in b.tooltip.split("\n"):
            lines.extend(self.wrap(para, 18, self.s(320)) or [""])
        h = self.s(18) * len(lines) + self.s(10)
        w = max(self.font(18).size(line)[0] for line in lines) + self.s(14)
        x = min(self.mouse[0] + self.s(14), surface.get_width() - w - 2)
        y = self.mouse[1] - h - self.s(8)
        if y < 0:
            y = self.mouse[1] + self.s(22)
        rect = pygame.Rect(x, y, w, h)
        pygame.draw.rect(surface, (12, 12, 16), rect, border_radius=self.s(4))
        pygame.draw.rect(surface, ACCENT, rect, 1, border_radius=self.s(4))
        for i, line in enumerate(lines):
            self.text(surface, line, (x + self.s(7), y + self.s(5) + i * self.s(18)), 18)
