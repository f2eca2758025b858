"""Text boxes of an SVG figure measured with fontTools, apart from the code that drew it.

matplotlib writes each label as ``<text x y style="font-size; font-family; text-anchor"
transform="rotate(-a x y)">`` or, when turned, ``transform="translate(x y) rotate(-a)"``
(``svg.fonttype = "none"``). A box is the run of glyph
advances of the named font (DejaVu Sans, shipped with matplotlib) from the anchor,
from the font's ascender to its descender, turned by the text's rotation; two boxes
overlap when no axis separates them (separating axis theorem).
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"


@lru_cache(maxsize=4)
def _font(bold: bool):
    import matplotlib
    from fontTools.ttLib import TTFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    font = TTFont(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name)
    cmap = font.getBestCmap()
    advances = font["hmtx"].metrics
    units = font["head"].unitsPerEm
    hhea = font["hhea"]
    return cmap, advances, units, hhea.ascent / units, -hhea.descent / units


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The advance width of ``text`` at ``size`` (user units), glyph by glyph."""
    cmap, advances, units, _, _ = _font(bold)
    missing = advances[".notdef"][0]
    return sum(advances[cmap[ord(c)]][0] if ord(c) in cmap else missing for c in text) * size / units


@dataclass
class TextBox:
    text: str
    corners: list[tuple[float, float]]

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for x, _ in self.corners]
        ys = [y for _, y in self.corners]
        return min(xs), min(ys), max(xs), max(ys)


def _style(element) -> dict[str, str]:
    """The style properties; matplotlib before 3.10 writes size and weight in the ``font``
    shorthand (``font: 700 10px 'DejaVu Sans'``), later ones as ``font-size`` and ``font-weight``."""
    pairs = (part.split(":", 1) for part in (element.get("style") or "").split(";") if ":" in part)
    style = {key.strip(): value.strip() for key, value in pairs}
    for word in style.get("font", "").split():
        if word.endswith("px"):
            style.setdefault("font-size", word)
        elif word in ("bold", "normal") or word.isdigit():
            style.setdefault("font-weight", word)
    return style


def text_boxes(svg: str) -> tuple[list[TextBox], float, float]:
    """Every ``<text>`` of ``svg`` as a box, and the canvas width and height (viewBox)."""
    root = ET.fromstring(svg)
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    boxes = []
    for element in root.iter(f"{SVG}text"):
        text = "".join(element.itertext())
        if not text.strip():
            continue
        if element.find(f"{SVG}tspan") is not None:
            raise ValueError(f"multi-line text is not measured here: {text!r}")
        style = _style(element)
        size = float(style["font-size"].removesuffix("px"))
        bold = style.get("font-weight", "400") in ("bold", "600", "700", "800", "900")
        _, _, _, ascent, descent = _font(bold)
        x, y = float(element.get("x", 0)), float(element.get("y", 0))
        w = text_width(text, size, bold)
        anchor = style.get("text-anchor", "start")
        left = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
        local = [(left, y - ascent * size), (left + w, y - ascent * size), (left + w, y + descent * size),
                 (left, y + descent * size)]
        corners = local
        for kind, args in reversed(re.findall(r"(translate|rotate)\(([^)]*)\)", element.get("transform") or "")):
            values = [float(v) for v in args.replace(",", " ").split()]
            corners = [_apply(kind, values, point) for point in corners]
        boxes.append(TextBox(text, corners))
    return boxes, width, height


def _apply(kind: str, values: list[float], point: tuple[float, float]) -> tuple[float, float]:
    x, y = point
    if kind == "translate":
        return x + values[0], y + (values[1] if len(values) > 1 else 0.0)
    angle = math.radians(values[0])
    cx, cy = (values[1], values[2]) if len(values) == 3 else (0.0, 0.0)
    cos, sin = math.cos(angle), math.sin(angle)
    return cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos


def _separated(a: TextBox, b: TextBox) -> bool:
    for shape in (a.corners, b.corners):
        for i in range(len(shape)):
            (x1, y1), (x2, y2) = shape[i], shape[(i + 1) % len(shape)]
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in a.corners]
            pb = [nx * x + ny * y for x, y in b.corners]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return True
    return False


def overlapping(boxes: list[TextBox]) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes overlap."""
    found = []
    for i, a in enumerate(boxes):
        ax0, ay0, ax1, ay1 = a.bounds
        for b in boxes[i + 1:]:
            bx0, by0, bx1, by1 = b.bounds
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1 and not _separated(a, b):
                found.append((a.text, b.text))
    return found


def outside(boxes: list[TextBox], width: float, height: float) -> list[str]:
    """Texts that reach beyond the canvas."""
    return [box.text for box in boxes
            if box.bounds[0] < 0 or box.bounds[1] < 0 or box.bounds[2] > width or box.bounds[3] > height]
