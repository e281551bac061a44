"""Connected areas of a battlefield (the validator, default spawn zones), linear in the map's area.

Areas are joined by king moves between tiles of a mask, a diagonal being refused when either
tile beside it blocks corners (conventions.md 3.2). scipy labels the orthogonal areas in C; the
diagonal steps allowed between two of them are found with numpy slices, and the small graph of
areas they make is joined by scipy's connected components. Labels are numbered by each area's
first tile in row-major order, as the flood fill they replace numbered them.
"""
from __future__ import annotations

import numpy as np

ORTHOGONAL = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)


def connected_labels(mask: np.ndarray, corners: np.ndarray | None = None) -> np.ndarray:
    """Area labels, 0 outside ``mask``, for king moves that do not cut a corner of ``corners``."""
    from scipy import ndimage
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    mask = np.asarray(mask, dtype=bool)
    labels, count = ndimage.label(mask, structure=ORTHOGONAL)
    labels = labels.astype(np.int32, copy=False)
    if count < 2:
        return labels
    if corners is None:
        corners = np.zeros_like(mask)
    links = []
    # from (x, y) down-right to (x + 1, y + 1), then down-left to (x - 1, y + 1)
    for here, there, side_a, side_b in (
            ((slice(None, -1), slice(None, -1)), (slice(1, None), slice(1, None)),
             (slice(None, -1), slice(1, None)), (slice(1, None), slice(None, -1))),
            ((slice(None, -1), slice(1, None)), (slice(1, None), slice(None, -1)),
             (slice(None, -1), slice(None, -1)), (slice(1, None), slice(1, None)))):
        a, b = labels[here], labels[there]
        step = (a > 0) & (b > 0) & (a != b) & ~corners[side_a] & ~corners[side_b]
        links.append((a[step], b[step]))
    first = np.concatenate([a for a, _ in links])
    second = np.concatenate([b for _, b in links])
    if len(first) == 0:
        return labels
    graph = coo_matrix((np.ones(len(first), dtype=np.int8), (first, second)), shape=(count + 1, count + 1))
    _, group = connected_components(graph, directed=False)
    # orthogonal labels follow first tiles in row-major order, so a joined area is first seen at its
    # smallest one: number the joined areas in the order of their smallest orthogonal label
    smallest = np.full(group.max() + 1, count + 1, dtype=np.int64)
    np.minimum.at(smallest, group[1:], np.arange(1, count + 1))
    rank = np.zeros_like(smallest)
    rank[np.argsort(smallest, kind="stable")] = np.arange(len(smallest))
    renumber = np.zeros(count + 1, dtype=np.int32)
    renumber[1:] = rank[group[1:]] + 1
    return renumber[labels]


def largest_area(mask: np.ndarray, corners: np.ndarray | None = None) -> np.ndarray:
    """The tiles of the largest area (the first one in row-major order among equals)."""
    labels = connected_labels(mask, corners)
    if labels.max() == 0:
        return np.zeros_like(mask, dtype=bool)
    counts = np.bincount(labels.ravel())
    counts[0] = 0
    return labels == int(np.argmax(counts))
