"""Pre-rendered map pictures: the tiles of a Tiled map, or the battlefield's terrain as colours.

The base picture is rendered once per map. Overlays (terrain, reach) are pictures of one pixel
per tile, scaled to the view only when the map view composes its picture (mapview.py), so an
overlay costs a few kilobytes whatever the map's size.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame

from ..engine.battlefield import Battlefield

FALLBACK_TILE = 32
MAX_BASE_PIXELS = 24_000_000

TERRAIN_COLOURS = (  # (feature test, colour) in painting order: later wins
    (lambda bf: np.ones((bf.height, bf.width), bool), (92, 110, 72)),
    (lambda bf: bf.terrain_cost > 1.0, (120, 112, 70)),
    (lambda bf: bf.hiding, (60, 100, 60)),
    (lambda bf: bf.cover == 1, (140, 125, 85)),
    (lambda bf: bf.cover >= 2, (125, 105, 80)),
    (lambda bf: bf.deep_water, (50, 90, 160)),
    (lambda bf: bf.crawl_gap, (90, 80, 70)),
    (lambda bf: bf.climbable, (130, 120, 120)),
    (lambda bf: bf.blocks_move, (70, 66, 64)),
    (lambda bf: bf.blocks_sight & ~bf.blocks_move, (50, 70, 45)),
    (lambda bf: bf.door > 0, (150, 100, 50)),
    (lambda bf: bf.hazard > 0, (170, 70, 40)),
)

OVERLAY_COLOURS = (  # translucent terrain overlay drawn over the tile art
    (lambda bf: bf.cover == 1, (240, 220, 80, 70)),
    (lambda bf: bf.cover >= 2, (240, 150, 40, 90)),
    (lambda bf: bf.deep_water, (40, 110, 240, 90)),
    (lambda bf: bf.blocks_move, (20, 20, 20, 120)),
    (lambda bf: bf.blocks_sight & ~bf.blocks_move, (20, 80, 20, 90)),
    (lambda bf: bf.door > 0, (200, 120, 40, 120)),
    (lambda bf: bf.hiding, (40, 200, 90, 60)),
    (lambda bf: bf.trap_spot, (200, 40, 200, 80)),
    (lambda bf: bf.hazard > 0, (230, 60, 30, 100)),
)


def tile_size(loaded) -> tuple[int, int]:
    if loaded is None:
        return FALLBACK_TILE, FALLBACK_TILE
    return int(loaded.tile_width) or FALLBACK_TILE, int(loaded.tile_height) or FALLBACK_TILE


def base_tile_size(bf: Battlefield, loaded) -> tuple[int, int]:
    """The tile size of the cached picture, shrunk when a huge map would not fit in memory."""
    tw, th = tile_size(loaded)
    while bf.width * tw * bf.height * th > MAX_BASE_PIXELS and tw > 4:
        tw, th = max(4, tw // 2), max(4, th // 2)
    return tw, th


def _colour_grid(bf: Battlefield, table, alpha: bool) -> pygame.Surface:
    channels = 4 if alpha else 3
    grid = np.zeros((bf.height, bf.width, channels), np.uint8)
    for test, colour in table:
        grid[test(bf)] = colour[:channels]
    surf = pygame.Surface((bf.width, bf.height), pygame.SRCALPHA if alpha else 0)
    pygame.surfarray.blit_array(surf, grid[:, :, :3].transpose(1, 0, 2).copy())
    if alpha:
        pixels = pygame.surfarray.pixels_alpha(surf)
        pixels[...] = grid[:, :, 3].T
        del pixels
    return surf


def terrain_surface(bf: Battlefield, tw: int, th: int) -> pygame.Surface:
    """The battlefield painted by feature, with a faint grid."""
    surf = pygame.transform.scale(_colour_grid(bf, TERRAIN_COLOURS, False), (bf.width * tw, bf.height * th))
    draw_grid(surf, bf, tw, th, (0, 0, 0, 40))
    return surf


class TileOverlay:
    """Translucent colours per tile, with tile outlines or grid lines, drawn at the view's resolution."""

    def __init__(self, picture: pygame.Surface, outline=None, grid=None):
        self.picture = picture          # SRCALPHA, one pixel per tile
        self.outline = outline          # RGBA around every coloured tile, or None
        self.grid = grid                # RGBA grid lines over the whole overlay, or None
        self.key = id(self)

    @classmethod
    def of_tiles(cls, grid: tuple[int, int], tiles, fill, outline) -> "TileOverlay":
        picture = pygame.Surface(grid, pygame.SRCALPHA)
        for x, y in tiles:
            picture.set_at((x, y), fill)
        return cls(picture, outline=outline)

    def draw(self, target: pygame.Surface, view, offset: tuple[int, int]) -> None:
        """The visible tiles scaled to the view; lines are drawn on that picture as they were on the
        old full-size layer (grid blended in, outlines replacing), then it is blended onto ``target``."""
        shown = view.visible_tiles()
        if shown is None:
            return
        x0, y0, x1, y1 = shown
        sx, sy = view.to_screen(x0, y0)
        ex, ey = view.to_screen(x1, y1)
        window = self.picture.subsurface((x0, y0, x1 - x0, y1 - y0))
        layer = pygame.transform.scale(window, (max(1, ex - sx), max(1, ey - sy)))
        if view.cell >= 8:
            fade = min(1.0, view.cell / FALLBACK_TILE)      # one-pixel lines fade on small tiles, as when scaled
            if self.grid is not None:
                lines = pygame.Surface(layer.get_size(), pygame.SRCALPHA)
                colour = (*self.grid[:3], int(self.grid[3] * fade))
                for x in range(x0, x1):
                    px = view.to_screen(x, 0)[0] - sx
                    pygame.draw.line(lines, colour, (px, 0), (px, ey - sy))
                for y in range(y0, y1):
                    py = view.to_screen(0, y)[1] - sy
                    pygame.draw.line(lines, colour, (0, py), (ex - sx, py))
                layer.blit(lines, (0, 0))
            if self.outline is not None:
                colour = (*self.outline[:3], int(self.outline[3] * fade))
                xs, ys = np.nonzero(pygame.surfarray.array_alpha(window))
                for x, y in zip((xs + x0).tolist(), (ys + y0).tolist()):
                    pygame.draw.rect(layer, colour, view.tile_rect((x, y)).move(-sx, -sy), 1)
        target.blit(layer, (sx + offset[0], sy + offset[1]))


def terrain_overlay(bf: Battlefield) -> TileOverlay:
    """The translucent terrain overlay (T in battle) drawn over the tile art, with a faint grid."""
    return TileOverlay(_colour_grid(bf, OVERLAY_COLOURS, True), grid=(0, 0, 0, 60))


def draw_grid(surf: pygame.Surface, bf: Battlefield, tw: int, th: int, colour) -> None:
    if tw < 8:
        return
    grid = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    for x in range(0, bf.width * tw, tw):
        pygame.draw.line(grid, colour, (x, 0), (x, bf.height * th))
    for y in range(0, bf.height * th, th):
        pygame.draw.line(grid, colour, (0, y), (bf.width * tw, y))
    surf.blit(grid, (0, 0))


def placeholder(w: int, h: int) -> pygame.Surface:
    """A missing tile picture: a magenta checker nobody can mistake for art."""
    surf = pygame.Surface((w, h))
    surf.fill((255, 0, 255))
    half_w, half_h = max(1, w // 2), max(1, h // 2)
    surf.fill((40, 0, 40), (0, 0, half_w, half_h))
    surf.fill((40, 0, 40), (half_w, half_h, w - half_w, h - half_h))
    return surf


class TilePictures:
    """Tile images cut from their sheets once, flipped as Tiled asks."""

    def __init__(self, loaded, scale: tuple[float, float] = (1.0, 1.0)):
        self.loaded = loaded
        self.scale = scale
        self._sheets: dict[str, pygame.Surface | None] = {}
        self._tiles: dict[int, pygame.Surface] = {}

    def _sheet(self, path: str) -> pygame.Surface | None:
        if path not in self._sheets:
            try:
                self._sheets[path] = pygame.image.load(path).convert_alpha() if path else None
            except (pygame.error, FileNotFoundError, OSError):
                self._sheets[path] = None
        return self._sheets[path]

    def get(self, gid: int) -> pygame.Surface:
        surf = self._tiles.get(gid)
        if surf is not None:
            return surf
        info = self.loaded.tiles.get(gid)
        tw, th = tile_size(self.loaded)
        if info is None:
            surf = placeholder(tw, th)
        else:
            x, y, w, h = info.rect
            sheet = self._sheet(info.image)
            if sheet is None or not sheet.get_rect().contains(pygame.Rect(x, y, w, h)) or w <= 0 or h <= 0:
                surf = placeholder(w or tw, h or th)
            else:
                surf = sheet.subsurface((x, y, w, h)).copy()
                if getattr(info, "flip_diag", False):
                    surf = pygame.transform.flip(pygame.transform.rotate(surf, -90), True, False)
                if getattr(info, "flip_x", False) or getattr(info, "flip_y", False):
                    surf = pygame.transform.flip(surf, bool(getattr(info, "flip_x", False)),
                                                 bool(getattr(info, "flip_y", False)))
        if self.scale != (1.0, 1.0):
            w, h = surf.get_size()
            surf = pygame.transform.smoothscale(surf, (max(1, round(w * self.scale[0])),
                                                       max(1, round(h * self.scale[1]))))
        self._tiles[gid] = surf
        return surf


def tiles_surface(loaded, tw: int, th: int) -> pygame.Surface:
    """The Tiled layers drawn in order, at ``tw``×``th`` per tile (tiles taller than a cell stand on it)."""
    bf = loaded.battlefield
    mtw, mth = tile_size(loaded)
    sx, sy = tw / mtw, th / mth
    native = pygame.Surface((bf.width * tw, bf.height * th))
    native.fill((30, 32, 36))
    pictures = TilePictures(loaded, (sx, sy))
    for layer in loaded.layers:
        if not layer.visible or layer.opacity <= 0:
            continue
        target = native
        if layer.opacity < 1:
            target = pygame.Surface(native.get_size(), pygame.SRCALPHA)
        ox, oy = int(round((layer.offset or (0, 0))[0] * sx)), int(round((layer.offset or (0, 0))[1] * sy))
        gids = np.asarray(layer.gids)
        ys, xs = np.nonzero(gids)
        values = gids[ys, xs].tolist()
        pics = {g: pictures.get(g) for g in set(values)}
        lift = {g: pic.get_height() - th - oy for g, pic in pics.items()}     # a tall tile stands on its cell
        target.fblits([(pics[g], (x * tw + ox, y * th - lift[g]))             # in row order, as Tiled draws
                       for y, x, g in zip(ys.tolist(), xs.tolist(), values)])
        if target is not native:
            target.set_alpha(int(layer.opacity * 255))
            native.blit(target, (0, 0))
    return native


def render_base(bf: Battlefield, loaded) -> pygame.Surface:
    tw, th = base_tile_size(bf, loaded)
    if not has_art(loaded):
        return terrain_surface(bf, tw, th)
    return tiles_surface(loaded, tw, th)


def has_art(loaded) -> bool:
    """A map with at least one visible painted tile; otherwise its terrain colours are the picture."""
    return loaded is not None and any(l.visible and np.any(l.gids) for l in loaded.layers)


def load_map_picture(path: str | Path):
    """(LoadedMap or None, battlefield) for a map file; the loader's MapError passes through."""
    try:
        from ..engine.tiled import load_map
    except ImportError:
        load_map = None
    if load_map is not None:
        loaded = load_map(path)
        return loaded, loaded.battlefield
    from ..engine.tiled import load_battlefield  # raises ImportError until the loader lands
    return None, load_battlefield(path)


def thumbnail(path: str | Path, size: tuple[int, int]) -> pygame.Surface:
    """A small picture of a map, its aspect ratio kept, for the New-battle list."""
    loaded, bf = load_map_picture(path)
    k = min(size[0] / bf.width, size[1] / bf.height)
    cell = max(1, int(k))
    if has_art(loaded):
        big = tiles_surface(loaded, max(2, cell * 2), max(2, cell * 2))
    else:
        big = terrain_surface(bf, cell, cell)
    w, h = big.get_size()
    k = min(size[0] / w, size[1] / h)
    return pygame.transform.smoothscale(big, (max(1, int(w * k)), max(1, int(h * k))))
