"""Figures start on their side's spawn zone, or on their own half, and armies are cut to fit tiny maps."""
import pytest

from game.engine.battlefield import Battlefield
from game.engine.deploy import deploy, start_tiles
from game.errors import RulesError


def specs(n):
    return [{"id": f"f{i}"} for i in range(n)]


def test_figures_start_in_their_spawn_zone_first():
    bf = Battlefield.open_ground(10, 10)
    bf.spawn = {0: [(0, y) for y in range(10)], 1: [(9, y) for y in range(10)]}
    placed = deploy(bf, {0: specs(3), 1: specs(3)})
    assert all(t[0] == 0 for _, t in placed[0]) and all(t[0] == 9 for _, t in placed[1])


def test_a_side_without_a_zone_starts_on_its_own_half():
    bf = Battlefield.open_ground(8, 4)
    assert all(x < 4 for x, _ in start_tiles(bf, 0)) and all(x >= 4 for x, _ in start_tiles(bf, 1))


def test_walls_and_water_are_never_start_tiles():
    bf = Battlefield.open_ground(4, 2)
    bf.blocks_move[:, 0] = True
    bf.deep_water[0, 1] = True
    assert start_tiles(bf, 0) == [(1, 1)]


def test_an_army_larger_than_the_map_is_cut_to_fit_first_figures_first():
    bf = Battlefield.open_ground(4, 1)
    placed = deploy(bf, {0: specs(5), 1: specs(5)})
    assert [s["id"] for s, _ in placed[0]] == ["f0", "f1"] and len(placed[1]) == 2
    assert len({t for side in placed.values() for _, t in side}) == 4


def test_a_map_with_no_room_for_a_side_is_refused_clearly():
    with pytest.raises(RulesError, match="too small to play on"):
        deploy(Battlefield.open_ground(1, 1), {0: specs(1), 1: specs(1)})


def test_a_figure_with_its_own_tile_keeps_it():
    bf = Battlefield.open_ground(6, 6)
    placed = deploy(bf, {0: [{"id": "a", "tile": [3, 3]}], 1: specs(1)})
    assert placed[0][0][1] == (3, 3)


def test_two_figures_given_the_same_tile_are_refused():
    with pytest.raises(RulesError, match="cannot stand on tile"):
        deploy(Battlefield.open_ground(6, 6), {0: [{"tile": [1, 1]}], 1: [{"tile": [1, 1]}]})


def test_a_map_file_too_small_to_play_on_is_named_in_the_refusal(tmp_path):
    from game.engine.save import new_match

    tmx = tmp_path / "tiny.tmx"
    tmx.write_text('<?xml version="1.0"?><map version="1.10" orientation="orthogonal" width="1" height="1" '
                   'tilewidth="32" tileheight="32"><layer id="1" name="g" width="1" height="1">'
                   '<data encoding="csv">0</data></layer></map>', encoding="utf-8")
    with pytest.raises(RulesError, match=r"tiny\.tmx: no tile where side 1 may stand"):
        new_match(tmx, "eisdrachen", 1)


def old_start_tiles(bf, side, taken=()):
    """start_tiles as it was, tile by tile in Python: the oracle of the numpy version."""
    taken = set(taken)
    zone = [tuple(t) for t in bf.spawn.get(side, [])]
    anchor_tiles = zone or [(0 if side == 0 else bf.width - 1, bf.height // 2)]
    anchor = (sum(t[0] for t in anchor_tiles) / len(anchor_tiles), sum(t[1] for t in anchor_tiles) / len(anchor_tiles))

    def u(x):                       # x counted from the side's own edge: side 1 mirrors side 0
        return x if side == 0 else bf.width - 1 - x

    def spread(tiles):
        ordered = sorted(tiles, key=lambda t: ((u(t[0]) - u(anchor[0])) ** 2 + (t[1] - anchor[1]) ** 2, u(t[0]), t[1]))
        return [t for t in ordered if u(t[0]) % 2 == 0 and t[1] % 2 == 0] + \
               [t for t in ordered if not (u(t[0]) % 2 == 0 and t[1] % 2 == 0)]
    half = bf.width / 2
    own = [(x, y) for y in range(bf.height) for x in range(bf.width) if (x < half if side == 0 else x >= half)]
    usable = [t for t in zone if bf.can_stand(t) and t not in taken]
    spare = [t for t in own if bf.can_stand(t) and t not in taken and t not in usable]
    return spread(usable) + spread(spare)


def test_on_a_mirrored_map_each_side_starts_on_the_mirror_image_of_the_other():
    bf = Battlefield.open_ground(9, 7)
    bf.spawn[0] = [(x, y) for x in (0, 1, 2) for y in range(1, 6)]
    bf.spawn[1] = [(8 - x, y) for x, y in bf.spawn[0]]
    bf.blocks_move[3, 1] = bf.blocks_move[3, 7] = True
    placed = deploy(bf, {side: [{"name": str(i)} for i in range(6)] for side in (0, 1)})
    assert [(8 - x, y) for _, (x, y) in placed[0]] == [tile for _, tile in placed[1]]


@pytest.mark.parametrize("seed", range(12))
def test_start_tiles_equal_the_tile_by_tile_reference(seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    w, h = (int(v) for v in rng.integers(2, 30, 2))
    bf = Battlefield.open_ground(w, h)
    bf.blocks_move[:] = rng.random((h, w)) < 0.2
    bf.deep_water[:] = rng.random((h, w)) < 0.05
    for side in (0, 1):
        bf.spawn[side] = [(int(rng.integers(-1, w + 1)), int(rng.integers(0, h))) for _ in range(rng.integers(0, 12))]
    taken = {(int(rng.integers(0, w)), int(rng.integers(0, h))) for _ in range(5)}
    for side in (0, 1):
        assert start_tiles(bf, side, taken) == old_start_tiles(bf, side, taken)
