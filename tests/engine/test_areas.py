"""Connected areas in scipy give exactly the labels of the old pure-Python flood fill, kept here as the oracle."""
import numpy as np
import pytest

from game.engine.areas import connected_labels, largest_area


def flood_fill_labels(mask, corners=None):
    """The flood fill that game/engine/tiled.py used before (the oracle)."""
    h, w = mask.shape
    labels = np.zeros((h, w), dtype=np.int32)
    current = 0
    ys, xs = np.nonzero(mask)
    for sy, sx in zip(ys.tolist(), xs.tolist()):
        if labels[sy, sx]:
            continue
        current += 1
        labels[sy, sx] = current
        stack = [(sx, sy)]
        while stack:
            x, y = stack.pop()
            for dy in (-1, 0, 1):
                ny = y + dy
                if ny < 0 or ny >= h:
                    continue
                for dx in (-1, 0, 1):
                    nx = x + dx
                    if not (0 <= nx < w) or not mask[ny, nx] or labels[ny, nx]:
                        continue
                    if dx and dy and corners is not None and (corners[y, nx] or corners[ny, x]):
                        continue
                    labels[ny, nx] = current
                    stack.append((nx, ny))
    return labels


@pytest.mark.parametrize("seed", range(30))
def test_labels_equal_the_flood_fill_on_random_maps(seed):
    rng = np.random.default_rng(seed)
    h, w = rng.integers(1, 40, 2)
    mask = rng.random((h, w)) < rng.uniform(0.2, 0.8)
    corners = (rng.random((h, w)) < rng.uniform(0, 0.5)) & ~mask | (rng.random((h, w)) < 0.05)
    assert (connected_labels(mask, corners) == flood_fill_labels(mask, corners)).all()
    assert (connected_labels(mask) == flood_fill_labels(mask)).all()


def test_a_diagonal_joins_two_areas_unless_a_corner_blocks_it():
    mask = np.array([[1, 0], [0, 1]], dtype=bool)
    assert connected_labels(mask).tolist() == [[1, 0], [0, 1]]
    wall = np.array([[0, 1], [0, 0]], dtype=bool)
    assert connected_labels(mask, wall).tolist() == [[1, 0], [0, 2]]


def test_areas_joined_by_diagonals_are_numbered_by_their_first_tile():
    mask = np.array([[0, 0, 1, 0, 1],
                     [1, 0, 0, 1, 0],
                     [0, 1, 0, 0, 0]], dtype=bool)
    assert connected_labels(mask).tolist() == [[0, 0, 1, 0, 1], [2, 0, 0, 1, 0], [0, 2, 0, 0, 0]]


def test_the_largest_area_is_the_first_among_equals():
    mask = np.array([[1, 1, 0, 1, 1]], dtype=bool)
    assert largest_area(mask).tolist() == [[True, True, False, False, False]]
    assert not largest_area(np.zeros((3, 3), dtype=bool)).any()


def test_an_empty_map_of_four_million_tiles_is_one_area():
    mask = np.ones((2048, 2048), dtype=bool)
    labels = connected_labels(mask, ~mask)
    assert labels.max() == 1 and labels.min() == 1


def test_a_checkerboard_is_held_together_by_its_diagonals_alone():
    mask = (np.add.outer(np.arange(41), np.arange(37)) % 2).astype(bool)
    assert (connected_labels(mask) == flood_fill_labels(mask)).all() and connected_labels(mask).max() == 1
    corners = np.zeros_like(mask)
    corners[::4, ::3] = True
    corners &= ~mask
    assert (connected_labels(mask, corners) == flood_fill_labels(mask, corners)).all()
