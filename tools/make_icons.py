"""Rasterise the game-icons.net icons the window uses into assets/icons/*.png (run once, kept for credits).

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
    for stem, name in ICONS.items():
        if name not in data["icons"] and name not in data.get("aliases", {}):
            missing.append(name)
            continue
        pic = pygame.image.load(io.BytesIO(svg_for(data, name).encode()), "icon.svg")
        pygame.image.save(pic, str(OUT / f"{stem}.png"))
    print(f"{len(ICONS) - len(missing)} icons written to {OUT}" + (f"; missing: {missing}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
