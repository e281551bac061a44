"""Action icons: game-icons.net pictures rasterised by tools/make_icons.py, with a drawn fallback."""
from __future__ import annotations

import pygame

from ..resources import assets_dir

ICON_DIR = assets_dir() / "icons"

# action name (any module) -> icon file stem; unknown actions get a lettered disc
ACTION_ICONS = {
    "activate": "person", "move": "walk", "walk": "walk", "run": "run", "sprint": "run",
    "crawl": "crawl", "climb": "climb", "jump": "jump", "shoot": "shoot", "fire": "shoot",
    "sniper": "sniper", "aimed_shot": "sniper", "melee": "melee", "strike": "melee", "charge": "charge",
    "grenade": "grenade", "throw": "grenade", "trap_spot": "trap", "trap_open": "trap",
    "trap_token": "trap", "trap_real": "trap", "hide": "hide", "unhide": "unhide", "dig_in": "dig_in",
    "alarm": "alarm", "pray": "pray", "heal": "heal", "first_aid": "heal", "use_fire": "emplacement",
    "pickup": "pickup", "repair": "repair", "sabotage": "sabotage", "end": "end", "pass": "end",
    "riposte": "riposte", "no_riposte": "hold", "hold": "hold", "flee": "flee", "bid": "bid",
    "reload": "reload", "rally": "rally", "reaction": "reaction", "ambush": "ambush", "overwatch": "ambush",
    "keep_die": "dice", "dice": "dice", "roll": "roll", "moveshoot": "shoot", "movestrike": "melee",
    "burst": "emplacement", "cover": "hide", "prone": "crawl", "stand": "person", "catch_breath": "end",
    "change_weapon": "reload", "unjam": "repair", "jam": "repair", "drop": "pickup",
}

_cache: dict[tuple[str, int], pygame.Surface] = {}


def _fallback(action: str, size: int) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.circle(surf, (200, 200, 190), (size // 2, size // 2), size // 2 - 1, 2)
    font = pygame.font.Font(None, int(size * 0.7))
    letter = font.render((action[:1] or "?").upper(), True, (230, 230, 225))
    surf.blit(letter, letter.get_rect(center=(size // 2, size // 2 + 1)))
    return surf


def icon(action: str, size: int) -> pygame.Surface:
    key = (action, size)
    if key not in _cache:
        path = ICON_DIR / f"{ACTION_ICONS.get(action, action)}.png"
        try:
            pic = pygame.image.load(str(path)).convert_alpha()
            _cache[key] = pygame.transform.smoothscale(pic, (size, size))
        except (pygame.error, FileNotFoundError, OSError):
            _cache[key] = _fallback(action, size)
    return _cache[key]
