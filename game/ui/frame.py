"""A composed screen kept between frames, with the few pictures that move on their own drawn live.

Composing the battle screen takes dozens of blits and text renders, yet most frames show exactly
what the last one showed. A LiveFrame keeps the composed screen, the widgets it registered, and
for each live sprite (the pulsing ring of the active figure) the picture beneath it and the
pixels drawn over it afterwards, so the sprite is redrawn in its place in the stacking order:
over the map, under the boxes and panels drawn after it.
"""
from __future__ import annotations

from typing import Callable

import pygame

Draw = Callable[[pygame.Surface], object]


class LiveFrame:
    """``picture`` None: a frame already on the screen and not kept (something moves; the next
    frame is drawn afresh)."""

    def __init__(self, picture: pygame.Surface | None, buttons: list, below: pygame.Surface | None = None,
                 sprites: list[tuple[pygame.Rect, Draw]] = ()):
        self.picture = picture
        self.buttons = buttons
        self.below = below
        self.sprites = [(rect, draw, _drawn_over(picture, below, rect)) for rect, draw in sprites if rect.w and rect.h]

    def show(self, surface: pygame.Surface, ui) -> None:
        """Put the frame on ``surface``, redraw its live sprites and register its widgets again."""
        ui.buttons[:] = self.buttons
        if self.picture is None:
            return
        surface.blit(self.picture, (0, 0))
        clip = surface.get_clip()
        for rect, draw, cover in self.sprites:
            surface.blit(self.below, rect, rect)
            surface.set_clip(rect)
            draw(surface)
            surface.blit(cover, rect)
        surface.set_clip(clip)


def _drawn_over(picture: pygame.Surface, below: pygame.Surface, rect: pygame.Rect) -> pygame.Surface:
    """The pixels of ``picture`` in ``rect`` that differ from ``below``, opaque; the others transparent."""
    top = picture.subsurface(rect)
    changed = (pygame.surfarray.array3d(top) != pygame.surfarray.array3d(below.subsurface(rect))).any(axis=2)
    cover = top.convert_alpha()
    alpha = pygame.surfarray.pixels_alpha(cover)
    alpha[...] = changed * 255
    del alpha
    return cover
