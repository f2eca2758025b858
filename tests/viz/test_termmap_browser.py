"""The term map in Debian's headless Chromium: on the 38-example build (always) and on the real
field, NeurIPS 2023 + ICML 2024 (when ``shared/data/openreview`` is present).

Label boxes are read from the page (``getBoundingClientRect`` of every label shown),
so an overlap the browser draws is an overlap the test sees.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from field_helpers import field_build, field_data

from kg.analyse import read_graph, research_map
from kg.analyse.termmap import term_network
from kg.ids import name_key
from kg.viz.static import field_title
from kg.viz.termmap import term_map_payload, write_term_map

LABELS = """() => Array.from(document.querySelectorAll('#map .kg-label')).filter(e => e.checkVisibility())
  .map(e => { const r = e.getBoundingClientRect(); return [e.textContent, r.left, r.top, r.right, r.bottom]; })"""
RECT = "(selector) => { const r = document.querySelector(selector).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
MAP_READY = "window.kgMap && window.kgMap.state.ready"
SETTLE = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def overlaps(boxes) -> list[tuple[str, str]]:
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


def zoom(page, ratio: float, x: float = 0.5, y: float = 0.5) -> list:
    page.evaluate(f"kgMap.renderer.getCamera().setState({{ratio: {ratio}, x: {x}, y: {y}}})")
    page.evaluate(SETTLE)
    return page.evaluate(LABELS)


def check_labels(page) -> list:
    """The labels shown now: no two overlap, none leaves the map or sits under the legend."""
    boxes = page.evaluate(LABELS)
    assert overlaps(boxes) == []
    left, top, right, bottom = page.evaluate(RECT, "#map")
    assert all(left <= b[1] and b[3] <= right and top <= b[2] and b[4] <= bottom for b in boxes)
    legend = page.evaluate(RECT, "#legend")
    assert overlaps([["legend", *legend]] + boxes) == [] or not boxes
    assert [b for b in boxes if b[1] < legend[2] and legend[0] < b[3] and b[2] < legend[3] and legend[1] < b[4]] == []
    return boxes


def legend_inside(page) -> bool:
    left, top, right, bottom = page.evaluate(RECT, "#legend")
    width, height = page.evaluate("[window.innerWidth, window.innerHeight]")
    return 0 <= left and 0 <= top and right <= width and bottom <= height and right > left


def click_entity(page, entity_id: str) -> None:
    """A real mouse click on the entity's node, where sigma drew it."""
    x, y = page.evaluate("""(id) => { const r = kgMap.renderer, d = r.getNodeDisplayData(id),
        p = r.framedGraphToViewport(d), box = document.getElementById('map').getBoundingClientRect();
        return [box.left + p.x, box.top + p.y]; }""", entity_id)
    page.mouse.click(x, y)


def drawn_pixels(page) -> tuple[int, int]:
    import io

    import numpy as np
    from PIL import Image

    image = Image.open(io.BytesIO(page.locator("#map").screenshot())).convert("RGB")
    pixels = np.asarray(image, dtype=int).reshape(-1, 3)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    background = colours[counts.argmax()]
    drawn = pixels[np.abs(pixels - background).sum(axis=1) > 30]
    return len(drawn), len({tuple(c) for c in (drawn // 32).tolist()})


# ---- the 38 examples: always ------------------------------------------------------------------

@pytest.fixture(scope="module")
def example_map(build_dir, tmp_path_factory) -> tuple[Path, dict]:
    result = research_map(read_graph(build_dir), tmp_path_factory.mktemp("map"), overview=False)
    page = result.outputs["termmap.html"]
    data = page.read_text()
    payload = json.loads(data[data.index('type="application/json">') + 24:data.index("</script>")])
    return page, payload


def test_term_map_renders_offline(open_page, example_map):
    path, payload = example_map
    page = open_page(path, ready=MAP_READY)
    assert page.evaluate("kgMap.graph.order") == len(payload["entities"])
    assert page.evaluate("kgMap.state.error") is None
    drawn, colours = drawn_pixels(page)
    assert drawn > 2000 and colours >= 5, "the map should be drawn in several community colours"
    assert len(check_labels(page)) >= 10
    assert page.requests == [] and page.problems == [] and page.dialogs == []


def test_labels_never_overlap_at_any_zoom(open_page, example_map):
    page = open_page(example_map[0], ready=MAP_READY)
    for ratio, x, y in ((1, 0.5, 0.5), (0.5, 0.5, 0.5), (0.2, 0.45, 0.55), (0.08, 0.5, 0.5), (2.5, 0.5, 0.5)):
        zoom(page, ratio, x, y)
        check_labels(page)
    assert page.problems == []


def test_a_click_shows_the_papers_and_the_sentences_that_mention_it(open_page, example_map):
    path, payload = example_map
    page = open_page(path, ready=MAP_READY)
    top = max((e for e in payload["entities"] if not e.get("g")), key=lambda e: e["p"])  # generic ones start hidden
    click_entity(page, top["id"])
    page.wait_for_selector("#panel:not([hidden])")
    assert page.evaluate("kgMap.state.selected") == top["id"]
    assert page.locator("#panel h2.name").text_content() == top["n"]
    assert page.locator("#panel .item.paper").count() == min(top["p"], 25)
    keys = {name_key(top["n"]), *(name_key(a) for a in top.get("al", []))}  # "LLMs" is "LLM"
    marks = page.locator("#panel .item.paper mark").all_text_contents()
    assert marks and all(name_key(m) in keys for m in marks), marks
    text = page.locator("#panel").inner_text()
    assert "\\" not in text and "$" not in text and "**" not in text  # clean text, no LaTeX or Markdown
    page.evaluate(SETTLE)
    check_labels(page)
    assert legend_inside(page)


def test_legend_stays_inside_the_viewport(open_page, example_map):
    page = open_page(example_map[0], ready=MAP_READY)
    assert legend_inside(page)
    for width, height in ((900, 560), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SETTLE)
        assert legend_inside(page)
        page.evaluate("kgMap.select(kgMap.data.entities[0].id)")
        page.evaluate(SETTLE)
        assert legend_inside(page)
        page.evaluate("kgMap.closePanel()")


def test_density_view_draws_and_keeps_labels_apart(open_page, example_map):
    page = open_page(example_map[0], ready=MAP_READY)
    page.click("input[name=view][value=density]")
    page.evaluate(SETTLE)
    assert page.evaluate("kgMap.state.view") == "density"
    blank = page.evaluate("""() => { const c = document.getElementById('density'),
        d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 40) n++; return n; }""")
    assert blank > 5000, "the density layer should be painted"
    check_labels(page)
    assert "Density" in page.locator("#legend").text_content()


def test_search_filters_and_a_single_year_offer_no_overlays(open_page, example_map):
    path, payload = example_map
    page = open_page(path, ready=MAP_READY)
    page.fill("#search", "diffusion")
    page.press("#search", "Enter")
    assert "diffusion" in page.evaluate("kgMap.data.entities.find(e => e.id === kgMap.state.selected).n").lower()
    total = page.evaluate("kgMap.state.visibleCount")
    assert total == len(payload["entities"])
    page.evaluate("kgMap.closePanel()")
    page.locator("#min-papers").fill("2")
    assert page.evaluate("kgMap.state.visibleCount") == sum(1 for e in payload["entities"] if e["p"] >= 2) < total
    page.locator("#min-papers").fill("1")
    methods = sum(1 for e in payload["entities"] if e["t"] == "Method")
    page.locator("#types li", has_text="Method").click()
    assert page.evaluate("kgMap.state.visibleCount") == total - methods
    # the examples are one venue, one year: no overlay would say anything
    assert page.locator("#colour-by option").all_text_contents() == ["community"]


def test_generic_entities_can_be_left_out(open_page, field_graph, tmp_path):
    field_graph.nodes["entity:image-classification"]["generic"] = True
    network, communities, positions = term_network(field_graph, min_papers=1)
    path = write_term_map(tmp_path / "map.html", term_map_payload(field_graph, network, positions, communities))
    page = open_page(path, ready=MAP_READY)
    assert page.evaluate("kgMap.state.visibleCount") == len(network) - 1
    assert "(1)" in page.locator("#generic-row").inner_text()
    page.click("#hide-generic")
    assert page.evaluate("kgMap.state.visibleCount") == len(network)
    assert page.problems == []


# ---- the real field: NeurIPS 2023 + ICML 2024 ---------------------------------------------------

@pytest.fixture(scope="module")
def field_map(request, tmp_path_factory) -> tuple[Path, dict]:
    if field_data() is None:
        pytest.skip("shared/data/openreview (NeurIPS 2023, ICML 2024) is not present")
    cache = getattr(request.config, "cache", None)
    root = cache.mkdir("kg-field-openreview") if cache else tmp_path_factory.mktemp("field")
    graph = read_graph(field_build(Path(root)))
    network, communities, positions = term_network(graph)
    payload = term_map_payload(graph, network, positions, communities, title=field_title(graph), min_papers=2)
    return write_term_map(tmp_path_factory.mktemp("field-map") / "termmap.html", payload), payload


def test_field_map_loads_offline_and_stays_smooth(open_page, field_map):
    path, payload = field_map
    assert len(payload["entities"]) > 1500 and payload["meta"]["graph_papers"] > 5000
    started = time.perf_counter()
    page = open_page(path, ready=MAP_READY, timeout=120_000)
    load = time.perf_counter() - started
    frame = page.evaluate("""() => { const r = kgMap.renderer, c = r.getCamera(), t = performance.now();
        for (let i = 1; i <= 10; i++) { c.setState({ratio: 1 - i / 20}); r.render(); }
        return (performance.now() - t) / 10; }""")
    print(f"field term map: {len(payload['entities'])} entities, load {load:.1f} s, {frame:.0f} ms per zoom frame")
    assert load < 30 and frame < 500  # generous: software WebGL on a shared machine; docs/maps.md has the figures
    assert page.requests == [] and page.problems == []


def test_field_map_names_more_entities_as_one_zooms_in_and_never_overlaps(open_page, field_map):
    page = open_page(field_map[0], ready=MAP_READY, timeout=120_000)
    counts = []
    for ratio in (1, 0.5, 0.25, 0.1):
        zoom(page, ratio)
        counts.append(len(check_labels(page)))
    seen = set()
    for ratio in (1, 0.5, 0.25, 0.1):
        seen |= {b[0] for b in zoom(page, ratio)}
    assert counts[0] >= 30 and len(seen) > counts[0] * 1.5, counts
    assert legend_inside(page)


def test_field_map_click_and_overlays(open_page, field_map):
    path, payload = field_map
    page = open_page(path, ready=MAP_READY, timeout=120_000)
    top = max((e for e in payload["entities"] if not e.get("g")), key=lambda e: e["p"])  # generic ones start hidden
    click_entity(page, top["id"])
    page.wait_for_selector("#panel:not([hidden])")
    assert page.locator("#panel h2.name").text_content() == top["n"]
    assert page.locator("#panel .item.paper").count() == 25 and "Show 25 more" in page.locator("#panel").inner_text()
    assert page.locator("#panel .bars").count() == 2  # papers per year, per venue
    check_labels(page)
    page.evaluate("kgMap.closePanel()")
    assert page.locator("#colour-by option").all_text_contents() == [
        "community", "average year", *(f"share at {v}" for v in payload["meta"]["venues"])]
    # an entity of 2023 papers only and one of 2024 papers only take the two ends of the year scale
    only = {year: next(e for e in payload["entities"] if e["p"] >= 3 and e["yr"][k] == e["p"])
            for k, year in enumerate(payload["meta"]["years"])}
    page.select_option("#colour-by", "year")
    first, last = (page.evaluate("(id) => kgMap.colourOf(id)", only[y]["id"]) for y in sorted(only))
    assert (first, last) == ("#440154", "#fde725")
    assert "Average year" in page.locator("#legend").text_content() and legend_inside(page)
    check_labels(page)
    page.select_option("#colour-by", "venue:0")
    assert "Share of its papers at " + payload["meta"]["venues"][0] in page.locator("#legend").text_content()
    assert page.problems == []


def test_the_page_and_the_figure_share_one_orientation(open_page, example_map):
    path, payload = example_map
    page = open_page(path, ready=MAP_READY)
    top, bottom = max(payload["entities"], key=lambda e: e["y"]), min(payload["entities"], key=lambda e: e["y"])
    right, left = max(payload["entities"], key=lambda e: e["x"]), min(payload["entities"], key=lambda e: e["x"])
    where = "(id) => { const r = kgMap.renderer; return r.framedGraphToViewport(r.getNodeDisplayData(id)); }"
    assert page.evaluate(where, top["id"])["y"] < page.evaluate(where, bottom["id"])["y"]  # larger y drawn higher
    assert page.evaluate(where, right["id"])["x"] > page.evaluate(where, left["id"])["x"]
