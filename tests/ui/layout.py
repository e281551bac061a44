"""What a frame drew, checked as a reader would: no text cut short or cut off, nothing on top of
something else of the same layer, nothing outside the window (by the rectangles the widgets report)."""
from __future__ import annotations

import pygame

from game.ui.widgets import Drawn


def _name(d: Drawn) -> str:
    return f"{d.kind} {d.text[:40]!r} {tuple(d.rect)} [{d.layer}]"


def _contains(outer: Drawn, inner: Drawn) -> bool:
    """A panel, button or box may hold texts and smaller boxes; a text or an icon holds nothing."""
    return outer.kind not in ("text", "icon") and outer.rect.contains(inner.rect)


def layout_problems(app) -> list[str]:
    """Everything wrong with the frame ``app`` drew last, one line each."""
    window = app.screen.get_rect()
    drawn = app.ui.drawn
    out = []
    for d in drawn:
        seen = d.rect.clip(d.within) if d.within is not None else d.rect      # what a clip area lets show
        if seen.w and seen.h and not window.contains(seen):
            out.append(f"outside the window {tuple(window.size)}: {_name(d)}")
        if d.kind == "text" and d.layer != "map":
            if d.clipped:
                out.append(f"text cut short to fit: {_name(d)}")
            elif d.within is not None and not d.within.contains(d.rect):
                out.append(f"text cut off by its area {tuple(d.within)}: {_name(d)}")
    shown = sorted((i for i, d in enumerate(drawn) if d.layer != "map"), key=lambda i: drawn[i].rect.x)
    for n, i in enumerate(shown):
        a = drawn[i]
        for j in shown[n + 1:]:
            b = drawn[j]
            if b.rect.x >= a.rect.right:
                break
            if a.layer != b.layer or not a.rect.colliderect(b.rect):
                continue
            if a.owner == j or b.owner == i or _contains(a, b) or _contains(b, a):
                continue
            out.append(f"overlap: {_name(a)} and {_name(b)}")
    return out


def frame_problems(app) -> list[str]:
    """Draw one frame without input and check it."""
    app.draw()
    return layout_problems(app)


def resize(app, size: tuple[int, int]) -> None:
    """The window at ``size``, as a person dragging its corner would make it."""
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
    app.step()
