"""The dice tray: the dice of the rolls just made, the score they needed, and which of them succeeded.

A ``dice`` event carries its faces and, when a score is needed, ``needed``: a threshold (5 means 5 or
more) or a range of faces ("1-3"). A face is a success when it meets it; an event that carries a
``total`` (a die plus modifiers) is judged by that total instead, and its faces are not marked.
"""
from __future__ import annotations

import pygame

from .combatlog import each_side_faces
from .i18n import language, tr
from .widgets import GOOD, MUTED, TEXT

PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
        6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}
TUMBLE = 0.35       # the dice tumble this long before they settle on their faces
MOST_DICE = 12      # a bigger handful shows its first twelve and counts the rest
SHADE = (10, 11, 16, 225)


def meets(face: int, needed) -> bool | None:
    """Whether a face meets what is needed (None: nothing is needed, or the rule is unknown)."""
    if isinstance(needed, bool):
        return None
    if isinstance(needed, int):
        return face >= needed
    if isinstance(needed, str):
        low, sep, high = needed.partition("-")
        try:
            return int(low) <= face <= int(high) if sep else face >= int(low.rstrip("+"))
        except ValueError:
            return None
    return None


def needed_words(data: dict) -> str:
    needed = data.get("needed")
    if needed is None or isinstance(needed, bool):
        return ""
    if isinstance(needed, int):
        return tr("tray.needed", n=needed)
    return tr("tray.needed_faces", n=needed)


class Tray:
    """The tray's layout kept while its rolls stay the same, and its picture while its dice lie still:
    wrapping its words anew each frame would cost more than the rest of a frame while clips play."""

    def __init__(self):
        self._key = None
        self._rows: list = []
        self._box = pygame.Rect(0, 0, 0, 0)
        self._size = 0
        self._shade: pygame.Surface | None = None
        self._still: pygame.Surface | None = None

    def draw(self, surface: pygame.Surface, ui, rolls, clock: float, area: pygame.Rect, names: dict[str, str]) -> None:
        """The latest rolls, one row each (the dice, then what they were for and what they needed), newest
        at the bottom, in a box at the bottom centre of ``area``."""
        if not rolls:
            return
        key = (tuple(map(id, rolls)), tuple(area), ui.scale, language())
        if key != self._key:
            self._rows, self._box, self._size = _layout(ui, rolls, area, names)
            self._shade = pygame.Surface(self._box.size, pygame.SRCALPHA)
            self._shade.fill(SHADE)
            self._key, self._still = key, None
        if any(clock - c.start < TUMBLE for c in rolls):
            surface.blit(self._shade, self._box)
            _paint(surface, ui, self._rows, self._box, self._size, clock)
            return
        if self._still is None:
            self._still = self._shade.copy()
            _paint(self._still, ui, self._rows, self._box.move(-self._box.x, -self._box.y), self._size, clock)
        surface.blit(self._still, self._box)


def _layout(ui, rolls, area: pygame.Rect, names: dict[str, str]) -> tuple[list, pygame.Rect, int]:
    """The rows, the box and the dice's size: a handful too wide for ``area`` beside its words is drawn
    with smaller dice, down to a floor, so the words keep their room."""
    rows = []
    for clip in rolls:
        d = clip.data
        faces = [int(v) for v in d.get("faces", ())]
        who = d.get("who")
        purpose = str(d.get("purpose", ""))
        purpose_words = tr(f"purpose.{purpose}", purpose.replace("_", " "))
        if who is None:         # a roll-off: each side one die, side 0's first
            title = tr("tray.each_side", purpose=purpose_words)
            note = " · ".join(each_side_faces(faces))
        else:
            who_words = names.get(who, "") if isinstance(who, str) else tr(f"side.{who}", "")
            title = " · ".join(p for p in (purpose_words, who_words) if p)
            note = needed_words(d)
        total = d.get("total")
        if isinstance(total, int) and note:
            note = tr("tray.total", total=total) + " · " + note
        if isinstance(d.get("successes"), int):
            note = (note + " · " if note else "") + tr("tray.successes", n=d["successes"])
        rows.append((clip, faces, title, note, total))
    text_w = max(max(ui.font(16).size(r[2])[0], ui.font(14).size(r[3])[0]) for r in rows)
    room = area.w - ui.s(20) - text_w - ui.s(24)        # for the dice, beside the words
    full = _dice_w(rows, ui.s(24), ui)
    size = ui.s(24) if full <= room else max(ui.s(14), ui.s(24) * room // full)
    width = min(area.w - ui.s(20), _dice_w(rows, size, ui) + text_w + ui.s(24))
    box = pygame.Rect(0, 0, width, (size + ui.s(10)) * len(rows) + ui.s(6))
    box.midbottom = (area.centerx, area.bottom - ui.s(28))
    return rows, box, size


def _dice_w(rows: list, size: int, ui) -> int:
    """The width the rows' dice take: the longest handful, and room to count what is not drawn."""
    most = max(min(len(r[1]), MOST_DICE) for r in rows)
    return most * (size + ui.s(4)) + (ui.s(30) if any(len(r[1]) > MOST_DICE for r in rows) else 0)


def _paint(surface: pygame.Surface, ui, rows: list, box: pygame.Rect, size: int, clock: float) -> None:
    """The tray's frame, dice and words in ``box`` (its shade already laid)."""
    gap, row_h = ui.s(4), size + ui.s(10)
    dice_w = _dice_w(rows, size, ui)
    pygame.draw.rect(surface, (120, 110, 80), box, 1, border_radius=ui.s(5))
    y = box.y + ui.s(8)
    text_x = box.x + ui.s(10) + dice_w + ui.s(6)
    for clip, faces, title, note, total in rows:
        tumbling = clock - clip.start < TUMBLE
        x = box.x + ui.s(10)
        sides = int(clip.data.get("sides", 6) or 6)
        judged = not isinstance(total, int)
        for k, face in enumerate(faces[:MOST_DICE]):
            shown = ((face * 7 + k * 3 + int(clock * 20)) % sides) + 1 if tumbling else face
            ok = None if tumbling or not judged else meets(face, clip.data.get("needed"))
            draw_die(surface, pygame.Rect(x, y, size, size), shown, sides, ok, ui)
            x += size + gap
        if len(faces) > MOST_DICE:
            ui.text(surface, f"+{len(faces) - MOST_DICE}", (x, y + size // 2), 16, MUTED, "midleft")
        room = box.right - text_x - ui.s(6)
        ui.text(surface, title, (text_x, y - ui.s(3)), 16, TEXT, max_width=room)
        if note and not tumbling:
            ui.text(surface, note, (text_x, y + size // 2 + ui.s(1)), 14, MUTED, max_width=room)
        y += row_h


_dice: dict[tuple, pygame.Surface] = {}     # each die face drawn once, by (face, sides, judged, size, scale)


def draw_die(surface: pygame.Surface, rect: pygame.Rect, face: int, sides: int, ok: bool | None, ui) -> None:
    """One die: pips for a six-sided one, its number otherwise; a success lit green, a failure dimmed."""
    key = (face, sides, ok, rect.size, ui.scale)
    picture = _dice.get(key)
    if picture is None:         # a tumbling tray shows new faces every frame: each face is drawn once
        if len(_dice) > 2000:
            _dice.clear()
        picture = _dice[key] = pygame.Surface(rect.size, pygame.SRCALPHA)
        _paint_die(picture, picture.get_rect(), face, sides, ok, ui)
    surface.blit(picture, rect)


def _paint_die(surface: pygame.Surface, rect: pygame.Rect, face: int, sides: int, ok: bool | None, ui) -> None:
    body = (235, 232, 220) if ok is None else ((200, 240, 200) if ok else (120, 118, 112))
    pygame.draw.rect(surface, body, rect, border_radius=max(2, rect.w // 6))
    edge = GOOD if ok else ((70, 70, 70) if ok is None else (60, 60, 60))
    pygame.draw.rect(surface, edge, rect, 3 if ok else 1, border_radius=max(2, rect.w // 6))
    ink = (25, 25, 25) if ok is not False else (55, 55, 55)
    if sides == 6 and face in PIPS:
        step = rect.w * 0.26
        for dx, dy in PIPS[face]:
            pygame.draw.circle(surface, ink, (int(rect.centerx + dx * step), int(rect.centery + dy * step)),
                               max(2, rect.w // 10))
    else:
        number = ui.font(16).render(str(face), True, ink)
        surface.blit(number, number.get_rect(center=rect.center))
