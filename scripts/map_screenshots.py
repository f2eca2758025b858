"""Screenshots of ``kg map`` for docs/maps.md: the term map in a real browser and the report's figures.

Runs ``kg map`` on a build into a temporary directory, opens ``termmap.html`` in
Debian's headless Chromium (playwright) at 1440 x 900 and saves: the map as it
opens, zoomed in (more names), the density view, the average-year overlay and an
entity's panel (papers and evidence sentences); then copies the static figures.
PNGs are reduced to 256 colours to keep the repository light.

Usage::

    kg build ../shared/data/openreview/*.jsonl -o /tmp/field
    python scripts/map_screenshots.py /tmp/field --out docs/maps [--entity Mamba]
"""

from __future__ import annotations

import argparse
import csv
import shutil
import tempfile
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
FRAME = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def shrink(path: Path) -> None:
    """Re-save a PNG with a 256-colour palette: a quarter of the size; octree keeps the few flat colours exact."""
    from PIL import Image

    image = Image.open(path).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(path, optimize=True)


def pick_entity(report: Path, wanted: str | None) -> str | None:
    """The entity whose panel to show: ``wanted``, else the strongest rising entity in at most 30 papers."""
    if wanted:
        return wanted
    rising = report / "rising.csv"
    if rising.is_file():
        with open(rising, encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if int(row["papers_before"]) + int(row["papers_latest"]) <= 30:
                    return row["name"]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", type=Path, help="a kg build directory")
    parser.add_argument("--out", type=Path, default=Path("docs/maps"), help="where the pictures go")
    parser.add_argument("--entity", default=None, help="the entity whose panel to show (default: a rising one)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from kg.analyse import read_graph, research_map

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "map"
        research_map(read_graph(args.build), report)
        for name in ("term-map.png", "rising-falling.svg", "trends.svg", "cooccurrence-method-task.svg", "top-entities.svg"):
            if (report / "figures" / name).is_file():
                shutil.copy(report / "figures" / name, args.out / f"figure-{name}")
        if (args.out / "figure-term-map.png").is_file():
            shrink(args.out / "figure-term-map.png")
        entity = pick_entity(report, args.entity)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto((report / "termmap.html").resolve().as_uri())
            page.wait_for_function("window.kgMap && kgMap.state.ready", timeout=180_000)

            def shot(name: str) -> None:
                page.evaluate(FRAME)
                page.wait_for_timeout(400)
                page.screenshot(path=args.out / name)
                shrink(args.out / name)

            shot("term-map.png")
            page.evaluate("kgMap.renderer.getCamera().setState({x: 0.5, y: 0.5, ratio: 0.35})")
            shot("term-map-zoomed.png")
            page.evaluate("kgMap.renderer.getCamera().setState({x: 0.5, y: 0.5, ratio: 1}); kgMap.setView('density')")
            shot("term-map-density.png")
            page.evaluate("kgMap.setView('network'); kgMap.setColourBy('year')")
            shot("term-map-year.png")
            page.evaluate("kgMap.setColourBy('community')")
            if entity:
                page.fill("#search", entity)
                page.press("#search", "Enter")
                page.wait_for_timeout(600)  # the camera moves to it
                shot("term-map-entity.png")
            browser.close()
    for path in sorted(args.out.iterdir()):
        print(path)


if __name__ == "__main__":
    main()
