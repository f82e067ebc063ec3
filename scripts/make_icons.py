"""Draws the app's PNG icons from the shapes of static/icon.svg (run once; the PNGs are
committed): ``python scripts/make_icons.py``.

The SVG is a green rounded square with a red heart. Phones want PNGs for the home screen:
192 and 512 px ("any": the rounded square as drawn), a 512 px "maskable" one (the square
fills the whole image and the heart stays inside the middle 80 %, the safe zone every mask
keeps) and a 180 px apple-touch-icon (a full square: iOS rounds the corners itself).
"""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

GREEN, RED = "#1f5f3f", "#e0353d"
OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
SUPER = 4  # drawn this much larger, then scaled down: smooth edges


def heart(steps: int = 48) -> list[tuple[float, float]]:
    """The heart of icon.svg (``M16 27 5.5 16.5A6 6 0 0 1 16 8.5a6 6 0 0 1 10.5 8Z``) as a
    polygon in its 32-unit box. Each arc's ends are 13.2 apart, more than twice its radius,
    so (as SVG does) the radius grows to half that: two half circles."""
    points = [(16.0, 27.0), (5.5, 16.5)]
    for (x0, y0), (x1, y1) in (((5.5, 16.5), (16.0, 8.5)), ((16.0, 8.5), (26.5, 16.5))):
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, math.dist((x0, y0), (x1, y1)) / 2
        start = math.atan2(y0 - cy, x0 - cx)
        for i in range(1, steps + 1):  # sweep flag 1: increasing angle (y grows downwards)
            a = start + math.pi * i / steps
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def draw(size: int, *, full: bool, scale: float = 1.0) -> Image.Image:
    """The icon at ``size`` px: the rounded square (``full``: the whole square) and the
    heart at ``scale`` of its size in the SVG, centred where the SVG has it."""
    big = size * SUPER
    unit = big / 32
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if full:
        pen.rectangle((0, 0, big, big), fill=GREEN)
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=6 * unit, fill=GREEN)
    pen.polygon([((16 + (x - 16) * scale) * unit, (17.5 + (y - 17.5) * scale) * unit)
                 for x, y in heart()], fill=RED)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(192, full=False).save(OUT / "icon-192.png", optimize=True)
    draw(512, full=False).save(OUT / "icon-512.png", optimize=True)
    draw(512, full=True, scale=0.72).save(OUT / "icon-maskable-512.png", optimize=True)
    draw(180, full=True, scale=0.9).save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
