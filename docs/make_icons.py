"""Draw the app's icons (scorekeeper/static/icons/): a Rummikub tile on the app's teal (the
--accent of static/app.css).

Run once by hand (`python docs/make_icons.py`) when the icon changes; the PNGs and the SVG are
committed. Only the standard library: shapes as signed distances, anti-aliased by coverage,
written as PNG with zlib and struct. The tile and its 7 sit inside the middle 80 %, so the
icon also works where a phone crops it to a circle ("maskable").
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "static" / "icons"

BRAND = (0x0D, 0x5C, 0x75)
TILE = (0xFF, 0xFA, 0xF0)
RED = (0xC4, 0x2A, 0x2A)

# Shapes in a 0..1 square, drawn in this order: (signed distance, colour).
Shape = tuple[Callable[[float, float], float], tuple[int, int, int]]


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> Callable:
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - r, (y1 - y0) / 2 - r

    def distance(x: float, y: float) -> float:
        dx, dy = abs(x - cx) - hx, abs(y - cy) - hy
        outside = math.hypot(max(dx, 0.0), max(dy, 0.0))
        return outside + min(max(dx, dy), 0.0) - r

    return distance


def stroke(points: list[tuple[float, float]], width: float) -> Callable:
    segments = list(zip(points, points[1:], strict=False))

    def distance(x: float, y: float) -> float:
        best = math.inf
        for (ax, ay), (bx, by) in segments:
            vx, vy = bx - ax, by - ay
            t = max(0.0, min(1.0, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)))
            best = min(best, math.hypot(x - ax - t * vx, y - ay - t * vy))
        return best - width / 2

    return distance


SEVEN = [(0.37, 0.32), (0.63, 0.32), (0.45, 0.68)]
SHAPES: list[Shape] = [
    (rounded_rect(0.0, 0.0, 1.0, 1.0, 0.0), BRAND),
    (rounded_rect(0.27, 0.17, 0.73, 0.83, 0.06), TILE),
    (stroke(SEVEN, 0.085), RED),
]

SVG = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect width="100" height="100" fill="#0d5c75"/>
  <rect x="27" y="17" width="46" height="66" rx="6" fill="#fffaf0"/>
  <path d="M{SEVEN[0][0] * 100:g} {SEVEN[0][1] * 100:g}H{SEVEN[1][0] * 100:g}\
L{SEVEN[2][0] * 100:g} {SEVEN[2][1] * 100:g}" fill="none" stroke="#c42a2a" stroke-width="8.5"
    stroke-linecap="round" stroke-linejoin="round"/>
</svg>
"""


def render(size: int) -> bytes:
    """The icon as RGB rows, each pixel's colour blended by how much of it a shape covers."""
    rows = bytearray()
    pixel = 1.0 / size
    for j in range(size):
        rows.append(0)  # PNG filter: none
        y = (j + 0.5) * pixel
        for i in range(size):
            x = (i + 0.5) * pixel
            colour = (0.0, 0.0, 0.0)
            for distance, paint in SHAPES:
                cover = max(0.0, min(1.0, 0.5 - distance(x, y) / pixel))
                if cover:
                    colour = tuple(c + (p - c) * cover for c, p in zip(colour, paint, strict=True))
            rows.extend(round(c) for c in colour)
    return bytes(rows)


def png(size: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(render(size), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (ICONS / f"icon-{size}.png").write_bytes(png(size))
    (ICONS / "icon.svg").write_text(SVG, encoding="utf-8")


if __name__ == "__main__":
    main()
