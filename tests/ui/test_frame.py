"""The kept frame's covers: what was drawn over a live area is laid back in as few blits as it takes, and
an area copied as a blit would lay it."""
from __future__ import annotations

import numpy as np
import pygame
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from game.ui.frame import _rectangles, copy_area


@given(arrays(bool, st.tuples(st.integers(1, 12), st.integers(1, 12))))
def test_the_rectangles_cover_each_changed_square_once_and_nothing_else(squares):
    covered = np.zeros(squares.shape, dtype=int)
    for i0, j0, i1, j1 in _rectangles(squares):
        assert i0 < i1 and j0 < j1
        covered[i0:i1, j0:j1] += 1
    assert (covered == squares).all()


def test_a_solid_box_is_one_rectangle():
    squares = np.zeros((10, 8), dtype=bool)
    squares[2:7, 3:8] = True
    assert _rectangles(squares) == [(2, 3, 7, 8)]


@given(st.integers(-40, 90), st.integers(-40, 70), st.integers(0, 120), st.integers(0, 90),
       st.integers(-60, 60), st.integers(-60, 60))
def test_copying_an_area_lays_the_pixels_a_blit_lays(x, y, w, h, ax, ay):
    pygame.display.init()
    rng = np.random.default_rng(7)
    picture = pygame.Surface((100, 80), depth=32)
    pygame.surfarray.blit_array(picture, rng.integers(0, 1 << 24, (100, 80), dtype=np.uint32))
    copied, blitted = pygame.Surface((90, 70), depth=32), pygame.Surface((90, 70), depth=32)
    copied.fill((9, 9, 9))
    blitted.fill((9, 9, 9))
    rect = pygame.Rect(x, y, w, h)
    copy_area(copied, picture, rect, (ax, ay))
    blitted.set_clip(rect)
    blitted.blit(picture, (ax, ay))
    assert (pygame.surfarray.array2d(copied) == pygame.surfarray.array2d(blitted)).all()
