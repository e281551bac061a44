"""Tokens tell sides apart by shape as well as colour, and a figure's trade and states by pictures."""
from __future__ import annotations

from game.engine.protocol import FigureView, Gauge, Marker
from game.ui.app import start_battle
from game.ui.sprites import Sprites

from .driver import move_to, ready, steps, tile_pos


def test_sides_differ_by_outline_not_colour_alone(app):
    sprites = Sprites()
    disc, square = sprites.token("person", 0, 20), sprites.token("person", 1, 20)
    corner = (7, 7)         # inside a square's corner, outside a disc
    assert disc.get_at(corner).a == 0 and square.get_at(corner).a > 0


def test_a_figure_that_has_acted_is_greyed_but_keeps_its_side_colour(app):
    sprites = Sprites()
    fresh, spent = sprites.token("person", 0, 20, False), sprites.token("person", 0, 20, True)
    spot = (12, 23)
    blue = fresh.get_at(spot).b - fresh.get_at(spot).r
    assert 0 < spent.get_at(spot).b - spent.get_at(spot).r <= blue / 2


def test_hovering_a_state_badge_names_it_with_its_picture(app):
    scene = start_battle(app, "maps/ruined_town.tmx", "eisdrachen", "hotseat", 3)
    app.push(scene)
    steps(app, 3)
    ready(app)
    f = next(f for f in scene.figs if f.tile is not None)
    marked = FigureView(f.id, f.side, f.tile, f.name, (Gauge("pv", 2, 5),), (Marker("wounded"), Marker("dug_in")),
                        kind=f.kind)
    scene.figs = [marked if g.id == f.id else g for g in scene.figs]
    scene._cache_key = (scene.version, scene.viewer)        # keep the doctored view for this frame
    move_to(app, tile_pos(scene, f.tile))
    spots = [(spot, m.key) for spot, fig, m in scene.badge_spots if fig.id == f.id]
    assert [k for _, k in spots] == ["wounded", "dug_in"]
    move_to(app, spots[0][0].center)
    assert scene.hover_tile is not None
