"""Makes the pictures of docs/img/ that show the game (docs/looks.md, *Screenshots*): each one an
AI-against-AI battle played by the play command, frozen in the middle of the first animation of its kind,
in English, with the AI instant and the animations fast. Run it after a change to how the battle looks.

    python tools/make_screenshots.py            # every picture
    python tools/make_screenshots.py anim_dice  # only those named
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

from game.ui.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
MODULES = ["eisdrachen", "kolaps", "mordgrave", "passe_d_armes", "voyageurs"]

# picture: (rules, map, seed, what to freeze on or None, frames)
PICTURES = {
    "anim_walk": ("eisdrachen", "ruined_town", 5, "walk", 20000),
    "anim_shot": ("eisdrachen", "ruined_town", 3, "shot", 20000),
    "anim_wound": ("eisdrachen", "ruined_town", 3, "wound", 20000),
    "anim_dice": ("eisdrachen", "ruined_town", 3, "dice", 20000),
    "anim_miss": ("eisdrachen", "ruined_town", 1, "miss", 20000),
    "anim_death": ("eisdrachen", "ruined_town", 2, "death", 20000),
    "anim_throw": ("eisdrachen", "ruined_town", 2, "throw", 20000),
    "anim_blast": ("eisdrachen", "ruined_town", 2, "blast", 20000),
    "anim_puff": ("eisdrachen", "forest_village", 11, "puff", 20000),
    "anim_trap": ("eisdrachen", "forest_village", 11, "trap", 20000),
    "anim_lunge": ("passe_d_armes", "ruined_town", 1, "lunge", 20000),
    **{f"figures_{m}": (m, "ruined_town", 4, "walk", 20000) for m in MODULES},
    "figures_voyageurs_aerial": ("voyageurs_aerial", "sky_deck", 4, None, 120),
}


def make(name: str, home: Path) -> int:
    rules, map_name, seed, freeze, frames = PICTURES[name]
    out, shot = ROOT / "docs" / "img" / f"{name}.png", home / f"{name}.png"
    command = [sys.executable, "-m", "game", "play", "--map", map_name, "--rules", rules, "--mode", "ai-vs-ai",
               "--seed", str(seed), "--lang", "en", "--frames", str(frames), "--screenshot", str(shot)]
    if freeze:
        command += ["--freeze", freeze]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "ESCARMOUCHE_HOME": str(home)}
    done = subprocess.run(command, env=env, cwd=ROOT)
    if done.returncode == 0:
        shutil.move(shot, out)      # the picture replaces the old one (play itself would keep a .bak)
    print(f"{name}: {'written' if done.returncode == 0 else f'failed ({done.returncode})'} {out.relative_to(ROOT)}")
    return done.returncode


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in PICTURES]
    if unknown:
        print(f"make_screenshots: no picture named {', '.join(unknown)}; known: {', '.join(PICTURES)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "config").mkdir()
        (home / "config" / "settings.json").write_text(
            json.dumps(asdict(Settings(language="en", ai_speed="instant", animations="fast"))))
        return max(make(n, home) for n in names or PICTURES)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
