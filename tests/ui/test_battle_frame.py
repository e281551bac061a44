"""The battle screen is composed once and kept while nothing changes; what it shows is what a full redraw shows."""
from __future__ import annotations

import numpy as np
import pygame

from game.ui.anim import Clip
from game.ui.battle import BattleScene

from .driver import button_at, click, eisdrachen_match, move_to, press, ready, shot, steps, tile_pos


def acting_scene(app):
    """A hot-seat battle at the point where a figure has been picked and its actions are offered."""
    match = eisdrachen_match(seed=5, width=14, height=10)
    scene = BattleScene(app, match, "hotseat", 0)
    app.push(scene)
    steps(app, 2)
    ready(app)
    click(app, button_at(app, "Roll"))
    side = match.pending.side
    shooter = next(f for f in match.rules.figures(match.state, side) if f.alive and f.name == "Fusilier")
    click(app, tile_pos(scene, shooter.tile))
    assert match.pending.kind == "action" and match.pending.figure == shooter.id
    return scene, shooter


def pixels(app) -> np.ndarray:
    return pygame.surfarray.array3d(app.screen).astype(int)


def counting(scene) -> list:
    composed = []
    compose = scene.compose

    def counted(surface, keep=True):
        composed.append(1)
        return compose(surface, keep)
    scene.compose = counted
    return composed


def test_an_idle_screen_is_composed_once_while_the_active_ring_goes_on_breathing(app):
    scene, shooter = acting_scene(app)
    composed = counting(scene)
    scene.pulse = lambda: 0.0
    steps(app, 3)
    small = pixels(app)
    scene.pulse = lambda: 1.0
    steps(app, 20)
    big = pixels(app)
    assert len(composed) <= 1
    changed = np.argwhere((small != big).any(axis=2))
    assert len(changed), "the ring of the active figure did not move"
    cx, cy = tile_pos(scene, shooter.tile)
    reach = scene.view.cell
    assert (abs(changed[:, 0] - cx) <= reach).all() and (abs(changed[:, 1] - cy) <= reach).all()


def test_the_kept_screen_is_the_screen_a_full_redraw_gives(app):
    scene, shooter = acting_scene(app)
    scene.pulse = lambda: 0.6
    steps(app, 5)
    kept = pixels(app)
    scene._frame_key = None         # force the next frame to be composed afresh
    steps(app, 1)
    assert (pixels(app) == kept).all()


def test_keys_and_the_mouse_recompose_the_screen(app):
    scene, shooter = acting_scene(app)
    composed = counting(scene)
    steps(app, 3)
    before, count = pixels(app), len(composed)
    press(app, pygame.K_t)
    assert scene.show_terrain and len(composed) > count
    shot(app, "battle_frame_terrain.png")
    assert (pixels(app) != before).any(axis=2).sum() > 1000     # the terrain overlay is on the map
    count = len(composed)
    target = (shooter.tile[0], shooter.tile[1] + 1)
    move_to(app, tile_pos(scene, target))
    assert scene.hover_tile == target and len(composed) > count


def test_a_box_drawn_over_the_active_figure_stays_over_its_ring(app):
    """The hover box overlapping the active figure hides its ring as a full redraw in the old order
    would, up to the box's own translucency."""
    scene, shooter = acting_scene(app)
    x, y = shooter.tile
    # the box opens away from the middle of the map, below the pointer: hover the tile diagonally above
    # the figure on the side of the middle, and the box comes down over the figure
    left = tile_pos(scene, shooter.tile)[0] > scene.map_rect.centerx
    near = (x + 1, y - 1) if left else (x - 1, y - 1)
    assert any(o.path and tuple(o.tile) == near for o in scene.match.pending.options)
    scene.pulse = lambda: 1.0
    move_to(app, tile_pos(scene, near))
    steps(app, 2)
    kept = pixels(app)
    shot(app, "battle_frame_box_over_ring.png")
    (_, _, covers), = scene._frame.sprites
    assert any(pygame.surfarray.array_alpha(cover).any() for _, cover in covers), "the box does not reach the active figure"
    # the same screen drawn the old way: every figure in its place in the list, the ring included
    draw_figures = scene.draw_figures

    def all_in_order(surface, decision, moving=frozenset()):
        for f, selectable, _ in draw_figures(surface, decision, moving):
            scene.draw_figure(surface, f, selectable, pulse=1.0)
        return []
    scene.draw_figures = all_in_order
    scene._frame_key = None
    steps(app, 1)
    full = pixels(app)
    diff = np.abs(full - kept).max(axis=2)
    cx, cy = tile_pos(scene, shooter.tile)
    far = (np.abs(np.arange(diff.shape[0])[:, None] - cx) > scene.view.cell) | \
        (np.abs(np.arange(diff.shape[1])[None, :] - cy) > scene.view.cell)
    assert not diff[far].any()
    assert diff.max() <= 60


def walking_scene(app):
    """The acting figure walking one tile, on a clock the test sets by hand."""
    scene, walker = acting_scene(app)
    scene.pulse = lambda: 0.6
    timeline = scene.timeline
    timeline.update = lambda dt, fast=False: []
    x, y = walker.tile
    start = timeline.clock
    timeline.clips.append(Clip("walk", start, 10.0, walker.id, {"path": [(x, y), (x, y + 1)]}))
    return scene, walker, start


def test_a_walking_figure_moves_over_the_kept_screen_without_composing_it_again(app):
    scene, walker, start = walking_scene(app)
    scene.timeline.clock = start + 1.0
    steps(app, 2)
    composed = counting(scene)
    early = pixels(app)
    scene.timeline.clock = start + 9.0
    steps(app, 5)
    late = pixels(app)
    assert not composed
    changed = np.argwhere((early != late).any(axis=2))
    assert len(changed), "the walker did not move"
    cx, cy = tile_pos(scene, walker.tile)
    cell = scene.view.cell
    assert (abs(changed[:, 0] - cx) <= cell).all() and (-cell <= changed[:, 1] - cy).all() \
        and (changed[:, 1] - cy <= 2 * cell).all()


def test_a_walking_figure_over_the_kept_screen_is_what_a_full_redraw_shows(app):
    scene, walker, start = walking_scene(app)
    scene.timeline.clock = start + 5.0
    steps(app, 3)
    kept = pixels(app)
    shot(app, "battle_frame_walking.png")
    scene.frame_key = lambda surface: None      # every frame composed afresh, the old way
    steps(app, 1)
    assert (pixels(app) == kept).all()


def gliding_scene(app):
    """A hot-seat battle on a map larger than the view, the camera on its way to the far corner and
    held there mid-way (the glide is frozen so that two frames can be compared)."""
    match = eisdrachen_match(seed=5, width=90, height=70)
    scene = BattleScene(app, match, "hotseat", 0)
    app.push(scene)
    steps(app, 2)
    ready(app)
    scene.view.centre = (20.0, 15.0)
    scene.view.pan_pixels(0, 0)
    steps(app, 2)
    scene.camera_goal = (70.0, 55.0)
    return scene


def test_while_the_camera_glides_the_map_moves_and_the_rest_of_the_screen_is_kept(app):
    scene = gliding_scene(app)
    steps(app, 1)
    composed = counting(scene)
    before = pixels(app)
    start = scene.view.centre
    steps(app, 6)
    after = pixels(app)
    assert scene.view.centre != start, "the camera did not move"
    assert not composed, "the screen was composed again while the camera glided"
    changed = (before != after).any(axis=2)
    inside = np.zeros_like(changed)
    m = scene.map_rect
    inside[m.left:m.right, m.top:m.bottom] = True
    assert changed[inside].sum() > 1000, "the map did not move"
    assert not changed[~inside].any(), "something round the map changed while only the camera moved"


def test_a_gliding_frame_is_what_a_full_redraw_shows(app):
    scene = gliding_scene(app)
    steps(app, 3)
    scene.play_clips = lambda dt: None      # the camera stays where it is, still on its way
    steps(app, 2)
    kept = pixels(app)
    shot(app, "battle_frame_gliding.png")
    scene.frame_key = lambda surface: None
    steps(app, 1)
    assert (pixels(app) == kept).all()


def test_a_figure_drawn_from_its_kept_picture_is_what_drawing_it_piece_by_piece_gives(app):
    scene, shooter = acting_scene(app)
    scene.pulse = lambda: 0.5       # the active figure's ring, drawn live, the same in both pictures
    steps(app, 2)

    def screen() -> np.ndarray:
        app.ui.begin_frame()
        scene.compose(app.screen, keep=False)
        return pixels(app)
    kept = screen()
    assert scene._token_pictures, "no figure was drawn from a kept picture"

    def piece_by_piece(surface, f, selectable=False, pulse=None):
        if f.alive and pulse is None and scene.timeline.dying(f.id) is None:
            cx, cy = scene.view.to_screen(*scene.drawn_at(f))
            return scene.draw_token(surface, f, cx, cy, max(3, int(scene.view.cell * 0.44)), selectable, None)
        return draw_figure(surface, f, selectable, pulse)
    draw_figure = scene.draw_figure
    scene.draw_figure = piece_by_piece
    direct = screen()
    assert np.abs(kept - direct).max() <= 2     # the rounding of the two pictures' colours and opacity


def test_a_glide_come_to_rest_keeps_its_frame_and_shows_what_a_full_redraw_shows(app):
    scene = gliding_scene(app)
    steps(app, 1)
    composed = counting(scene)
    for _ in range(600):
        if scene.camera_goal is None:
            break
        steps(app, 1)
    assert scene.camera_goal is None, "the camera never came to rest"
    steps(app, 3)
    assert not composed, "the screen was composed again when the camera came to rest"
    kept = pixels(app)
    scene.frame_key = lambda surface: None
    steps(app, 1)
    assert (pixels(app) == kept).all()


def test_what_the_window_drew_over_a_kept_screen_is_laid_back_the_next_frame(app):
    scene, shooter = acting_scene(app)
    scene.pulse = lambda: 0.6
    steps(app, 3)
    clean = pixels(app)
    composed = counting(scene)
    app.show_error("A problem said over the battle")
    steps(app, 2)
    assert (pixels(app) != clean).any(), "the message was not drawn"
    app.message = ""
    steps(app, 2)
    assert not composed, "the battle screen was composed again for a message of the window's"
    assert (pixels(app) == clean).all()
