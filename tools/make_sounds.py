"""Synthesise the game's sound effects and menu ambience into assets/sounds/*.wav with numpy.

Every sound is made here from noise, tones and envelopes with a fixed seed, so running the script again
writes the same files (the project's own work: no outside recordings). Usage: ``python tools/make_sounds.py``.
"""
from __future__ import annotations

import sys
import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "assets" / "sounds"


def seconds(n: float) -> np.ndarray:
    return np.arange(int(RATE * n)) / RATE


def envelope(t: np.ndarray, attack: float, decay: float) -> np.ndarray:
    """A fast rise and an exponential fall: the shape of a hit."""
    return np.minimum(1.0, t / max(attack, 1e-4)) * np.exp(-t / decay)


def lowpass(x: np.ndarray, k: float) -> np.ndarray:
    """A one-pole low-pass filter (k near 0: darker)."""
    y = np.empty_like(x)
    acc = 0.0
    for i, v in enumerate(x):
        acc += k * (v - acc)
        y[i] = acc
    return y


def step(rng) -> np.ndarray:
    t = seconds(0.09)
    return lowpass(rng.uniform(-1, 1, t.size), 0.12) * envelope(t, 0.004, 0.025) * 2.2


def shot(rng) -> np.ndarray:
    t = seconds(0.45)
    crack = rng.uniform(-1, 1, t.size) * envelope(t, 0.001, 0.03)
    boom = lowpass(rng.uniform(-1, 1, t.size), 0.08) * envelope(t, 0.002, 0.12) * 2.5
    return crack * 0.8 + boom


def blast(rng) -> np.ndarray:
    t = seconds(1.3)
    rumble = lowpass(rng.uniform(-1, 1, t.size), 0.03) * envelope(t, 0.005, 0.45) * 5
    thump = np.sin(2 * np.pi * (60 - 25 * t) * t) * envelope(t, 0.003, 0.25)
    return rumble + thump


def melee(rng) -> np.ndarray:
    t = seconds(0.35)
    ring = sum(np.sin(2 * np.pi * f * t) * a for f, a in ((1250, 0.5), (1870, 0.3), (2730, 0.2)))
    clang = ring * envelope(t, 0.001, 0.09)
    swish = lowpass(rng.uniform(-1, 1, t.size), 0.3) * envelope(t, 0.02, 0.05) * 0.6
    return clang + swish


def dice(rng) -> np.ndarray:
    t = seconds(0.5)
    out = np.zeros(t.size)
    for k in range(6):         # a few clicks as the dice tumble and settle
        at = int(RATE * (0.03 + 0.07 * k + rng.uniform(0, 0.02)))
        click = rng.uniform(-1, 1, 260) * np.exp(-np.arange(260) / 40) * (0.9 - 0.1 * k)
        out[at:at + click.size] += click[: max(0, t.size - at)]
    return lowpass(out, 0.5) * 1.6


def wound(rng) -> np.ndarray:
    t = seconds(0.3)
    thud = lowpass(rng.uniform(-1, 1, t.size), 0.05) * envelope(t, 0.003, 0.06) * 3
    tone = np.sin(2 * np.pi * (220 - 120 * t) * t) * envelope(t, 0.005, 0.08) * 0.5
    return thud + tone


def death(rng) -> np.ndarray:
    t = seconds(0.9)
    fall = lowpass(rng.uniform(-1, 1, t.size), 0.04) * envelope(t, 0.01, 0.3) * 2.5
    tone = np.sin(2 * np.pi * (180 - 110 * t) * t) * envelope(t, 0.01, 0.35) * 0.6
    return fall + tone


def chime(notes: list[float], length: float, rng) -> np.ndarray:
    t = seconds(length)
    out = np.zeros(t.size)
    gap = length / (len(notes) + 1)
    for k, f in enumerate(notes):
        at = int(RATE * gap * k)
        tt = t[: t.size - at]
        out[at:] += (np.sin(2 * np.pi * f * tt) + 0.3 * np.sin(4 * np.pi * f * tt)) * envelope(tt, 0.01, 0.35)
    return out * 0.5


def handover(rng) -> np.ndarray:
    return chime([523.25, 659.25], 0.8, rng)


def end(rng) -> np.ndarray:
    return chime([392.0, 523.25, 659.25, 783.99], 1.8, rng)


def throw(rng) -> np.ndarray:
    t = seconds(0.4)
    swish = lowpass(rng.uniform(-1, 1, t.size), 0.25) * np.sin(np.pi * t / 0.4) ** 2
    return swish * 0.6


def puff(rng) -> np.ndarray:
    t = seconds(0.5)
    return lowpass(rng.uniform(-1, 1, t.size), 0.1) * envelope(t, 0.05, 0.15) * 1.5


def ambience(rng) -> np.ndarray:
    """Eight quiet seconds of wind and a low drone that loop without a seam (the end fades into the start)."""
    length = 8.0
    t = seconds(length)
    wind = lowpass(rng.uniform(-1, 1, t.size), 0.015) * (0.6 + 0.4 * np.sin(2 * np.pi * t / length) ** 2) * 6
    drone = sum(np.sin(2 * np.pi * f * t) * a for f, a in ((55.0, 0.25), (82.5, 0.15), (110.0, 0.08)))
    loop = wind + drone * (0.7 + 0.3 * np.sin(2 * np.pi * t * 2 / length))
    fade = int(RATE * 0.5)
    loop[:fade] = loop[:fade] * np.linspace(0, 1, fade) + loop[-fade:] * np.linspace(1, 0, fade)
    return loop[:-fade] * 0.35


SOUNDS = {"step": step, "shot": shot, "blast": blast, "melee": melee, "dice": dice, "wound": wound,
          "death": death, "handover": handover, "end": end, "throw": throw, "puff": puff, "ambience": ambience}


def render(name: str) -> bytes:
    """One sound as 16-bit mono PCM, normalised to a common loudness (the ambience stays quiet)."""
    rng = np.random.default_rng(sorted(SOUNDS).index(name) + 13)
    x = SOUNDS[name](rng)
    peak = float(np.max(np.abs(x))) or 1.0
    x = x / peak * (0.35 if name == "ambience" else 0.8)
    return (x * 32767).astype("<i2").tobytes()


def write(name: str, folder: Path = OUT) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(render(name))
    return path


def main(argv: list[str]) -> int:
    for name in SOUNDS:
        write(name)
    print(f"{len(SOUNDS)} sounds written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
