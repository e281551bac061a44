"""Rasterise the game-icons.net icons the window uses (actions, figure classes, states) into assets/icons/*.png
(run once, kept for credits).

The icons come from the npm package ``@iconify-json/game-icons`` (CC BY 3.0, authors listed in
assets/CREDITS.md). Usage: ``python tools/make_icons.py [path/to/icons.json]``; without a path the
package is fetched with ``npm pack`` into a temporary folder. SVG is rendered by pygame (SDL_image).
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
import pygame  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "assets" / "icons"
SIZE = 64
COLOUR = "#ece8dc"

# our file stem -> game-icons name (the stems are what game/ui/icons.py ACTION_ICONS refers to)
ICONS = {
    "person": "person", "walk": "walk", "run": "run", "crawl": "snake", "climb": "mountain-climbing",
    "jump": "jump-across", "shoot": "pistol-gun", "sniper": "crosshair", "melee": "crossed-swords",
    "charge": "charging-bull", "grenade": "grenade", "trap": "wolf-trap", "hide": "hidden",
    "unhide": "semi-closed-eye", "dig_in": "trench-spade", "alarm": "siren", "pray": "prayer",
    "heal": "medical-pack", "emplacement": "machine-gun", "pickup": "hand", "repair": "spanner",
    "sabotage": "time-bomb", "end": "hourglass", "riposte": "shield-reflect", "hold": "shield",
    "flee": "exit-door", "bid": "two-coins", "reload": "reload-gun-barrel", "rally": "flying-flag",
    "reaction": "lightning-frequency", "ambush": "cloak-dagger", "dice": "rolling-dices", "roll": "rolling-dices",
}

# Figure art: the pictures a module's art.json names for its figure kinds (a class by its weapon or
# trade) and for its state markers; drawn inside a figure's token or on a small badge beside it.
FIGURE_ART = {
    # modern soldiers (Eisdrachen, KOLAPS)
    "rifleman": "lee-enfield", "assault": "ak47", "medic": "hospital-cross",
    "brawler": "brass-knuckles", "trooper": "brodie-helmet", "veteran": "sergeant", "recruit": "private",
    "avatar": "captain-hat-profile",
    # fantasy warbands and Empire humans (Mordgrave), duellists (Passe d'armes)
    "crossbow": "crossbow", "bow": "bow-arrow", "blunderbuss": "blunderbuss", "javelin": "thrown-spear",
    "shuriken": "flying-shuriken", "dagger": "plain-dagger", "axe": "battle-axe", "sword": "broadsword",
    "machete": "machete", "spear": "pikeman", "halberd": "halberd", "whip": "whip", "staff": "wizard-staff",
    "hammer": "warhammer", "club": "spiked-bat", "flail": "flail", "fist": "fist", "fencer": "fencer",
    "guard": "guards", "musket": "musket",
    # travellers and their transports (Voyageurs)
    "scout": "hiking", "healer": "healing", "balloon": "air-balloon", "airship": "zeppelin",
    # states
    "done": "empty-hourglass", "wound": "bleeding-wound", "alerted": "surprised", "dodge": "dodging",
    "emp": "electric", "lucky": "clover", "vengeance": "angry-eyes", "reroll": "clockwise-rotation",
    "critical": "internal-injury", "bleeding": "heart-drop", "huddled": "shield-echoes",
    "ko": "knocked-out-stars", "mutinous": "revolt", "pinned": "pin", "prone": "half-body-crawling",
    "routing": "sprint", "chief": "crown", "champion": "knight-banner", "concentrating": "meditation",
    "difficulty": "weight-crush", "horrible": "sword-wound", "modes": "sword-clash", "exploit": "upgrade",
    "initiative": "sands-of-time", "feint": "backstab", "held": "manacles", "holding": "grab",
    "out": "broken-heart", "aboard": "ship-wheel", "speed": "speedometer", "observing": "binoculars",
    "pilot": "plane-pilot", "unconscious": "sleepy", "grave": "tombstone",
}


def fetch_icons_json() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", "@iconify-json/game-icons", "--silent"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        tgz = next(Path(tmp).glob("*.tgz"))
        with tarfile.open(tgz) as tar:
            return json.load(tar.extractfile("package/icons.json"))


def svg_for(data: dict, name: str) -> str:
    aliases = data.get("aliases", {})
    while name not in data["icons"] and name in aliases:
        name = aliases[name]["parent"]
    body = data["icons"][name]["body"].replace("currentColor", COLOUR)
    w, h = data.get("width", 512), data.get("height", 512)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
            f'viewBox="0 0 {w} {h}">{body}</svg>')


def main(argv: list[str]) -> int:
    data = json.loads(Path(argv[0]).read_text()) if argv else fetch_icons_json()
    pygame.init()
    OUT.mkdir(parents=True, exist_ok=True)
    missing = []
    pictures = {**ICONS, **FIGURE_ART}
    for stem, name in pictures.items():
        if name not in data["icons"] and name not in data.get("aliases", {}):
            missing.append(name)
            continue
        pic = pygame.image.load(io.BytesIO(svg_for(data, name).encode()), "icon.svg")
        pygame.image.save(pic, str(OUT / f"{stem}.png"))
    print(f"{len(pictures) - len(missing)} icons written to {OUT}" + (f"; missing: {missing}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
