"""A composed screen kept between frames, with the few pictures that move on their own drawn live.

Composing the battle screen takes dozens of blits and text renders, yet most frames show exactly
what the last one showed, and while a figure walks only the figure moves. A LiveFrame keeps the
composed screen without what moves, the widgets it registered, and for each live area (the pulsing
ring of the active figure; the whole map while clips play) the pixels drawn over it afterwards.
Each frame lays the kept screen, draws what moves, and lays those pixels back on top, so what
moves keeps its place in the stacking order: over the map, under the boxes and panels. When the
screen still holds the frame shown just before, only what can have changed since is laid again:
the live areas and what the window drew over the scene (a tooltip, a message).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pygame

Draw = Callable[[pygame.Surface], object]
CELL = 32       # the covers are cut in squares this size, and only the squares drawn over are kept


class LiveFrame:
    """``picture`` None: a frame already on the screen and not kept (the next frame is drawn afresh).
    ``below``: the screen as it was when the live areas were left out, to tell what was drawn over them.
    ``over``: drawn over the kept screen each frame after the live areas, registering its own widgets
    after those the frame kept (while the camera glides, the map and the boxes over it); it must draw
    only inside an area it lays whole each frame, since what it drew last is not laid back."""

    def __init__(self, picture: pygame.Surface | None, ui, below: pygame.Surface | None = None,
                 sprites: list[tuple[pygame.Rect, Draw]] = (), over: Draw | None = None):
        self.picture = picture
        self.widgets = (list(ui.buttons), list(ui.drawn), list(ui.scrolls))     # what it registered and drew
        self.sprites = [(rect, draw, _covers(picture, below, rect)) for rect, draw in sprites if rect.w and rect.h]
        self.over = over
        self._shown: tuple | None = None        # (surface, ui.frame) of the last show

    def show(self, surface: pygame.Surface, ui) -> None:
        """Put the frame on ``surface``, draw its live areas and register its widgets again."""
        ui.buttons[:], ui.drawn[:], ui.scrolls[:] = self.widgets
        if self.picture is None:
            return
        last, self._shown = self._shown, (surface, ui.frame)
        if last is not None and last[0] is surface and last[1] == ui.frame - 1:
            for rect in ui.overlaid:
                copy_area(surface, self.picture, rect)
            for rect, _, _ in self.sprites:
                copy_area(surface, self.picture, rect)
        else:
            copy_area(surface, self.picture, surface.get_rect())
        clip = surface.get_clip()
        with ui.layer("map"):
            for rect, draw, covers in self.sprites:
                surface.set_clip(rect)
                draw(surface)
                surface.set_clip(clip)
                for at, cover in covers:
                    surface.blit(cover, at)
        if self.over is not None:
            self.over(surface)


def copy_area(surface: pygame.Surface, picture: pygame.Surface, rect, at: tuple[int, int] | None = None) -> None:
    """Lay the pixels of ``picture`` at ``at`` (its top-left on ``surface``; by default the two share their
    corner) over ``rect`` of ``surface``, opaque. SDL copies a rectangle narrower than the surface row by
    row, about three times slower than numpy's slicing of the same pixels (docs/performance.md)."""
    ax, ay = at if at is not None else (0, 0)
    rect = pygame.Rect(rect).clip(surface.get_rect()).clip(picture.get_rect().move(ax, ay))
    if not rect.w or not rect.h:
        return
    if surface.get_bytesize() != 4 or picture.get_bytesize() != 4 or surface.get_masks()[:3] != picture.get_masks()[:3]:
        surface.blit(picture, rect, rect.move(-ax, -ay))
        return
    into, src = pygame.surfarray.pixels2d(surface), pygame.surfarray.pixels2d(picture)
    into[rect.left:rect.right, rect.top:rect.bottom] = src[rect.left - ax:rect.right - ax, rect.top - ay:rect.bottom - ay]
    del into, src


def _covers(picture: pygame.Surface, below: pygame.Surface, rect: pygame.Rect) -> list[tuple[tuple[int, int], pygame.Surface]]:
    """The pixels of ``picture`` in ``rect`` that differ from ``below``, opaque (transparent elsewhere),
    as views of one picture: the CELL×CELL squares where any differs, joined in rectangles (a box
    over the map is one blit, not one per square)."""
    rect = rect.clip(picture.get_rect())
    if not rect.w or not rect.h:
        return []
    changed = _differ(picture, below, rect)
    w, h = changed.shape
    padded = np.zeros((-(-w // CELL) * CELL, -(-h // CELL) * CELL), dtype=bool)
    padded[:w, :h] = changed
    squares = padded.reshape(padded.shape[0] // CELL, CELL, padded.shape[1] // CELL, CELL).any(axis=(1, 3))
    if not squares.any():
        return []
    cover = picture.subsurface(rect).convert_alpha()
    alpha = pygame.surfarray.pixels_alpha(cover)
    alpha[...] = changed * np.uint8(255)
    del alpha
    out = []
    for i0, j0, i1, j1 in _rectangles(squares):
        x, y = i0 * CELL, j0 * CELL
        piece = pygame.Rect(x, y, min(i1 * CELL, w) - x, min(j1 * CELL, h) - y)
        out.append(((rect.left + x, rect.top + y), cover.subsurface(piece)))
    return out


def _rectangles(squares: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The true squares of a (columns, rows) grid as rectangles (i0, j0, i1, j1), ends excluded: the runs
    of each row, a run joined to the one above it when they span the same columns."""
    done, open_runs = [], {}
    for j in range(squares.shape[1]):
        column = np.concatenate(([False], squares[:, j], [False]))
        edges = np.flatnonzero(column[1:] != column[:-1])
        runs = {(int(a), int(b)): j for a, b in zip(edges[::2], edges[1::2])}
        for run, top in open_runs.items():
            if run in runs:
                runs[run] = top
            else:
                done.append((run[0], top, run[1], j))
        open_runs = runs
    done += [(a, top, b, squares.shape[1]) for (a, b), top in open_runs.items()]
    return done


def _differ(picture: pygame.Surface, below: pygame.Surface, rect: pygame.Rect) -> np.ndarray:
    """Which pixels of ``rect`` differ between the two pictures, by (x, y)."""
    if picture.get_bytesize() == 4 and below.get_bytesize() == 4:
        top, under = pygame.surfarray.pixels2d(picture), pygame.surfarray.pixels2d(below)
        return top[rect.left:rect.right, rect.top:rect.bottom] != under[rect.left:rect.right, rect.top:rect.bottom]
    top, under = pygame.surfarray.pixels3d(picture), pygame.surfarray.pixels3d(below)
    return (top[rect.left:rect.right, rect.top:rect.bottom] != under[rect.left:rect.right, rect.top:rect.bottom]).any(axis=2)
