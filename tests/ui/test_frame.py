"""The kept frame's covers: what was drawn over a live area is laid back in as few blits as it takes."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from game.ui.frame import _rectangles


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
