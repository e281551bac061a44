"""Check that a built wheel carries every file the repository ships: each file git tracks under
``game/``, and under ``maps/`` and ``assets/`` (which the wheel holds as ``game/maps`` and
``game/assets``). A file that a package-data pattern forgot would otherwise be missing only from
installed games, never from a checkout.

    python .ci/check_wheel.py dist/escarmouche-*.whl

Prints the wheel's contents by folder; exit code 1, naming each missing file, when one is missing.
"""
from __future__ import annotations

import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"maps/": "game/maps/", "assets/": "game/assets/", "game/": "game/"}
NOT_SHIPPED = {"maps/escarmouche.tiled-project"}    # Tiled's editor project: designers open it from a checkout


def expected() -> set[str]:
    tracked = subprocess.run(["git", "ls-files", *MAPPED], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    out = set()
    for name in tracked:
        if name in NOT_SHIPPED:
            continue
        prefix = next(p for p in MAPPED if name.startswith(p))
        out.add(MAPPED[prefix] + name[len(prefix):])
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: python .ci/check_wheel.py WHEEL", file=sys.stderr)
        return 2
    with zipfile.ZipFile(argv[0]) as wheel:
        names = set(wheel.namelist())
    for folder, count in sorted(Counter(n.rpartition("/")[0] for n in names).items()):
        print(f"{count:4d}  {folder}/")
    missing = sorted(expected() - names)
    for name in missing:
        print(f"{argv[0]}: missing {name}", file=sys.stderr)
    print(f"{len(names)} files in the wheel, {len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
