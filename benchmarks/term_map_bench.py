"""Benchmark the term map of ``kg map`` in a real browser: load and interaction times.

It writes the term map of a built graph (the same page ``kg map`` writes, timing
that too), opens it in Debian's headless Chromium (``/usr/bin/chromium``, driven
by playwright; software WebGL, as on a server without a GPU) and measures, over
``--runs`` fresh tabs:

- load: from navigation to the page being ready (data parsed, graph built, first
  render with labels placed) and to the first frame painted after it;
- zoom and pan: milliseconds per frame (camera moved, ``render()`` called, labels
  placed), averaged over 20 frames; and the frames per second the browser paints
  while the camera zooms in over one second (its own animation);
- label placement alone (milliseconds per frame, from the label layer);
- click: a real mouse click on the most studied entity until its panel (papers and
  evidence sentences) is in the page, measured in the page;
- search (one query over every name and alias), the minimum-papers filter, the
  year overlay and the density view: each until the next frame is painted.

Usage::

    kg build ../shared/data/openreview/*.jsonl -o /tmp/field     # once, about 1.5 minutes
    python benchmarks/term_map_bench.py /tmp/field [--runs 5] [--json term-map-bench.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
FRAME = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def write_page(build: Path, out: Path) -> dict:
    """The term map of ``build`` as ``kg map`` makes it; the seconds each step took."""
    from kg.analyse import read_graph
    from kg.analyse.report import without_generic
    from kg.analyse.termmap import term_network
    from kg.viz.static import field_title
    from kg.viz.termmap import term_map_payload, write_term_map

    started = time.perf_counter()
    graph = without_generic(read_graph(build))
    read = time.perf_counter()
    network, communities, positions = term_network(graph)
    placed = time.perf_counter()
    payload = term_map_payload(graph, network, positions, communities, title=field_title(graph),
                               min_papers=2 if len(graph) > 200 else 1)
    write_term_map(out, payload)
    done = time.perf_counter()
    return {
        "papers": payload["meta"]["graph_papers"], "entities": len(payload["entities"]),
        "links": len(payload["links"]), "page_mb": out.stat().st_size / 1e6,
        "read_s": read - started, "network_layout_s": placed - read, "page_s": done - placed,
    }


def measure(page_path: Path, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        version = browser.version
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            started = time.perf_counter()
            page.goto(page_path.resolve().as_uri())
            page.wait_for_function("window.kgMap && kgMap.state.ready", timeout=180_000)
            page.evaluate(FRAME)
            wall = time.perf_counter() - started
            timings = page.evaluate("kgMap.state.timings")
            row = {"load_wall_s": wall, "ready_ms": timings["readyAt"], "first_frame_ms": timings["firstFrameAt"],
                   "parse_ms": timings["parse"], "labels_shown": page.evaluate("kgMap.labelBoxes().length")}
            row["zoom_frame_ms"] = page.evaluate("""() => { const r = kgMap.renderer, c = r.getCamera(), t = performance.now();
                for (let i = 1; i <= 20; i++) { c.setState({ratio: 1 - i / 25}); r.render(); }
                return (performance.now() - t) / 20; }""")
            row["pan_frame_ms"] = page.evaluate("""() => { const r = kgMap.renderer, c = r.getCamera(), t = performance.now();
                for (let i = 1; i <= 20; i++) { c.setState({x: 0.5 + i / 100}); r.render(); }
                return (performance.now() - t) / 20; }""")
            row["labels_ms"] = page.evaluate("""() => { const l = kgMap.labels; let s = 0;
                for (let i = 0; i < 20; i++) { l.update(); s += l.lastMs; } return s / 20; }""")
            page.evaluate("kgMap.renderer.getCamera().setState({x: 0.5, y: 0.5, ratio: 1})")
            page.evaluate(FRAME)
            # frames the browser actually paints while the camera zooms in over one second
            row["zoom_animation_fps"] = page.evaluate("""() => new Promise(done => {
                const c = kgMap.renderer.getCamera(), t0 = performance.now(); let frames = 0;
                function tick() { frames++; if (performance.now() - t0 < 1000) requestAnimationFrame(tick);
                  else done(frames * 1000 / (performance.now() - t0)); }
                c.animate({ratio: 0.3}, {duration: 1000}); requestAnimationFrame(tick); })""")
            page.evaluate("kgMap.renderer.getCamera().setState({x: 0.5, y: 0.5, ratio: 1})")
            page.evaluate(FRAME)
            top = page.evaluate("kgMap.data.entities.reduce((a, b) => b.p > a.p ? b : a).id")
            x, y = page.evaluate("""(id) => { const r = kgMap.renderer, p = r.framedGraphToViewport(r.getNodeDisplayData(id)),
                b = document.getElementById('map').getBoundingClientRect(); return [b.left + p.x, b.top + p.y]; }""", top)
            page.evaluate("""() => { window.__clicked = null; const panel = document.getElementById('panel');
                document.getElementById('map').addEventListener('mousedown', () => { window.__down = performance.now(); }, {once: true});
                new MutationObserver((m, o) => { if (!panel.hidden) { window.__clicked = performance.now(); o.disconnect(); } })
                  .observe(panel, {attributes: true}); }""")
            page.mouse.click(x, y)
            page.wait_for_function("window.__clicked !== null && kgMap.state.selected !== null")
            page.evaluate(FRAME)
            row["click_to_panel_ms"] = page.evaluate("window.__clicked - window.__down")
            row["papers_in_panel"] = page.locator("#panel .item.paper").count()
            page.evaluate("kgMap.closePanel()")
            for name, action in (("search_ms", "kgMap.search('learning', 12)"), ("min_papers_filter_ms", "kgMap.setMinPapers(5)"),
                                 ("year_overlay_ms", "kgMap.setColourBy('year')"), ("density_view_ms", "kgMap.setView('density')")):
                row[name] = page.evaluate(f"""() => new Promise(done => {{ const t = performance.now(); {action};
                    requestAnimationFrame(() => done(performance.now() - t)); }})""")
            row["errors"] = errors
            rows.append(row)
            page.close()
        browser.close()
    summary = {key: statistics.median(r[key] for r in rows) for key in rows[0] if key != "errors"}
    summary["errors"] = sorted({e for r in rows for e in r["errors"]})
    summary["chromium"] = version
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", type=Path, help="a kg build directory (or graph.json)")
    parser.add_argument("--runs", type=int, default=5, help="fresh tabs to measure (medians are reported)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures as JSON here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "termmap.html"
        built = write_page(args.build, page)
        measured = measure(page, args.runs)
    load = os.getloadavg()
    result = {**built, **measured, "runs": args.runs, "cpus": os.cpu_count(), "load_average": [round(v, 2) for v in load],
              "python": platform.python_version(),
              "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                       check=False, cwd=Path(__file__).parent).stdout.strip()}
    print(f"{result['papers']:,} papers -> {result['entities']:,} entities, {result['links']:,} links, "
          f"page {result['page_mb']:.1f} MB (network + layout {result['network_layout_s']:.1f} s, page {result['page_s']:.1f} s)")
    print(f"Chromium {result['chromium']}, {result['cpus']} cores, load average {result['load_average']}, "
          f"medians of {args.runs} tabs:")
    for key in ("load_wall_s", "ready_ms", "first_frame_ms", "parse_ms", "zoom_frame_ms", "pan_frame_ms",
                "zoom_animation_fps", "labels_ms",
                "labels_shown", "click_to_panel_ms", "papers_in_panel", "search_ms", "min_papers_filter_ms",
                "year_overlay_ms", "density_view_ms"):
        print(f"  {key:22} {result[key]:10.1f}")
    if result["errors"]:
        print("page errors:", result["errors"], file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
