"""The page in a real browser: Debian's headless Chromium driven by playwright (no browser download).

Skipped only when /usr/bin/chromium is absent (``scripts/install-system-deps.sh`` installs it);
the fixtures are in ``conftest.py``.
"""

from __future__ import annotations

import io
import random
import time
from pathlib import Path

import networkx as nx
import pytest

XSS = "<script>alert(1)</script>"


def _graph():
    from kg.ids import name_key
    from kg.schema import edge_attributes, node_attributes

    papers = [
        ("paper:xss", XSS, "We propose </script><b>Foo</b> and evaluate it on CIFAR-10 and MNIST. It works."),
        ("paper:emoji", "Rockets", "\U0001F680 Fast training. We train ResNet on CIFAR-10 with \U0001D431 tricks."),
        ("paper:third", "Third", "A transformer beats ResNet on ImageNet for image classification."),
        ("paper:fourth", "Fourth", "BERT and a transformer on GLUE for question answering."),
    ]
    entities = {
        "</script><b>Foo</b>": "Method", "CIFAR-10": "Dataset", "MNIST": "Dataset", "ResNet": "Model",
        "transformer": "Method", "ImageNet": "Dataset", "image classification": "Task", "BERT": "Model",
        "GLUE": "Dataset", "question answering": "Task",
    }
    graph = nx.MultiDiGraph()
    graph.add_node("venue:iclr", **node_attributes("Venue", "ICLR"))
    for pid, title, abstract in papers:
        graph.add_node(pid, **node_attributes("Paper", title, title=title, abstract=abstract, year=2025,
                                              venue="ICLR", url="javascript:alert(2)", authors=["A. Author"]))
        graph.add_edge(pid, "venue:iclr", key="PUBLISHED_IN", **edge_attributes("PUBLISHED_IN", year=2025))
        for name, label in entities.items():
            if name not in abstract:
                continue
            eid = "entity:" + name_key(name)
            if eid not in graph:
                graph.add_node(eid, **node_attributes(label, name, aliases=[], generic=False, paper_count=0,
                                                      mention_count=0, proposed_by=[]))
            graph.nodes[eid]["paper_count"] += 1
            start = abstract.index(name)
            kind = "PROPOSES" if "propose " + name in abstract else "MENTIONS"
            graph.add_edge(pid, eid, key=kind, **edge_attributes(kind, mentions=[{"start": start, "end": start + len(name)}]))
    evidence = papers[2][2]
    graph.add_edge("entity:transformer", "entity:imagenet", key="EVALUATED_ON", **edge_attributes(
        "EVALUATED_ON", support=1, evidence=[{"paper": "paper:third", "start": 0, "end": len(evidence)}]))
    return graph


@pytest.fixture(scope="module")
def small_page(tmp_path_factory) -> tuple[Path, nx.MultiDiGraph]:
    from kg.viz import write_html

    graph = _graph()
    path = tmp_path_factory.mktemp("viz") / "graph.html"
    write_html(graph, path, title="Browser test")
    return path, graph


def _drawn_pixels(page) -> tuple[int, int]:
    import numpy as np
    from PIL import Image

    image = Image.open(io.BytesIO(page.locator("#graph").screenshot())).convert("RGB")
    pixels = np.asarray(image, dtype=int).reshape(-1, 3)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    background = colours[counts.argmax()]
    drawn = pixels[np.abs(pixels - background).sum(axis=1) > 30]
    return len(drawn), len({tuple(c) for c in (drawn // 32).tolist()})


def test_page_draws_every_node(open_page, small_page):
    path, graph = small_page
    page = open_page(path)
    assert page.evaluate("kgViewer.graph.order") == graph.number_of_nodes()
    assert page.evaluate("kgViewer.state.visibleCount") == graph.number_of_nodes()
    assert page.evaluate("kgViewer.state.error") is None
    drawn, colours = _drawn_pixels(page)
    assert drawn > 800, "the graph canvas is (nearly) blank"
    assert colours >= 4, "nodes of different types should be drawn in different colours"
    assert page.problems == [] and page.dialogs == []


def test_search_selects_the_node_and_shows_its_evidence(open_page, small_page):
    page = open_page(small_page[0])
    page.fill("#search", "cifar")
    assert "CIFAR-10" in page.locator("#suggestions").inner_text()
    page.press("#search", "Enter")
    assert page.evaluate("kgViewer.state.selected") == "entity:cifar-10"
    assert page.locator("#panel h2.name").text_content() == "CIFAR-10"
    marks = page.locator("#panel blockquote mark").all_text_contents()
    assert marks == ["CIFAR-10", "CIFAR-10"]  # code-point offsets survive the emoji before them
    quotes = page.locator("#panel blockquote").all_text_contents()
    assert "We train ResNet on CIFAR-10 with \U0001D431 tricks." in quotes
    assert page.problems == []


def test_relation_evidence_sentence_is_shown(open_page, small_page):
    page = open_page(small_page[0])
    assert page.evaluate("kgViewer.select('entity:transformer')")
    text = page.locator("#panel").inner_text()
    assert "evaluated on" in text and "A transformer beats ResNet on ImageNet" in text


def test_xss_title_shows_as_text_and_runs_nothing(open_page, small_page):
    page = open_page(small_page[0])
    page.fill("#search", "alert")
    assert XSS in page.locator("#suggestions").inner_text()
    page.press("#search", "Enter")
    assert page.evaluate("kgViewer.state.selected") == "paper:xss"
    assert page.locator("#panel h2.name").text_content() == XSS
    assert "</script><b>Foo</b>" in page.locator("#panel .chips").inner_text()
    assert page.locator("#panel b").count() == 0 and page.locator("body script").count() == 5
    # a javascript: URL in the data is not made a link
    assert page.locator("#panel a[href^='javascript']").count() == 0
    page.wait_for_timeout(200)
    assert page.dialogs == [] and page.problems == []


def test_type_filter_hides_and_shows_nodes(open_page, small_page):
    path, graph = small_page
    page = open_page(path)
    papers = sum(1 for _, d in graph.nodes(data=True) if d["label"] == "Paper")
    page.locator("#legend li", has_text="Paper").click()
    assert page.evaluate("kgViewer.state.visibleCount") == graph.number_of_nodes() - papers
    page.click("#entities-only")
    assert page.evaluate("kgViewer.state.visibleCount") == 10
    page.click("#show-all")
    assert page.evaluate("kgViewer.state.visibleCount") == graph.number_of_nodes()


def test_ten_thousand_nodes_load_and_render(open_page, tmp_path):
    from kg.viz import write_html

    rng = random.Random(1)
    graph = nx.MultiDiGraph()
    kinds = ["Method", "Dataset", "Model", "Task", "Metric"]
    for i in range(7000):
        graph.add_node(f"entity:e{i}", label=kinds[i % 5], name=f"entity {i}", paper_count=1 + i % 40)
    for p in range(3000):
        graph.add_node(f"paper:{p}", label="Paper", name=f"paper {p}", abstract="text " * 100, year=2025)
        for i in rng.sample(range(7000), 7):
            graph.add_edge(f"paper:{p}", f"entity:e{i}", key="MENTIONS", type="MENTIONS",
                           mentions=[{"start": 0, "end": 4}])
    positions = {n: (rng.uniform(-1, 1), rng.uniform(-1, 1)) for n in graph}
    write_html(graph, tmp_path / "big.html", positions=positions)
    started = time.perf_counter()
    page = open_page(tmp_path / "big.html", timeout=90_000)
    assert time.perf_counter() - started < 60
    assert page.evaluate("kgViewer.graph.order") == 10_000
    frame = page.evaluate("""() => { const r = kgViewer.renderer, c = r.getCamera(), t = performance.now();
        for (let i = 1; i <= 5; i++) { c.setState({ratio: 1 - i / 10}); r.render(); }
        return (performance.now() - t) / 5; }""")
    print(f"10k nodes: {frame:.0f} ms per frame (software WebGL)")
    assert page.evaluate("kgViewer.select('entity:e7')")
    assert page.problems == []


# ---- the example build: clean evidence, results by metric, labels that do not overlap -----------

LABELS = """() => Array.from(document.querySelectorAll('#graph .kg-label')).filter(e => e.checkVisibility())
  .map(e => { const r = e.getBoundingClientRect(); return [e.textContent, r.left, r.top, r.right, r.bottom]; })"""
SETTLE = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _overlaps(boxes):
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


@pytest.fixture(scope="module")
def example_page(build_dir, tmp_path_factory) -> Path:
    from kg.analyse import read_graph
    from kg.viz import write_html

    path = tmp_path_factory.mktemp("example-viz") / "graph.html"
    write_html(read_graph(build_dir), path, title="ICLR 2025")
    return path


def test_example_evidence_is_clean_text(open_page, example_page, build_dir):
    from kg.analyse import read_graph

    graph = read_graph(build_dir)
    raw = [n for n, d in graph.nodes(data=True) if d.get("label") == "Paper" and "\\%" in d["abstract"]]
    assert raw, "the examples have an abstract with LaTeX (98\\%) to show cleanly"
    page = open_page(example_page)
    texts = []
    for paper in raw:
        page.evaluate(f"kgViewer.select({paper!r})")
        texts.append(page.locator("#panel").inner_text())
    assert not any("\\%" in t or "$\\times" in t or "**" in t for t in texts)
    assert any("preserve 98% and 93%" in t for t in texts)
    shown = page.evaluate("kgViewer.data.nodes.filter(n => n.type === 'Paper').map(n => n.details.abstract).join(' ')")
    assert "\\" not in shown and "$" not in shown and "**" not in shown


def test_example_results_are_named_by_metric_and_value(open_page, example_page):
    page = open_page(example_page)
    names = page.evaluate("kgViewer.data.nodes.filter(n => n.type === 'Result').map(n => n.name)")
    assert names and not any(name.endswith(" value") for name in names)
    assert "speedup: 20x" in names and "25% (metric not stated)" in names  # "the best system scores only 25%"
    page.evaluate("kgViewer.select(kgViewer.data.nodes.find(n => n.name === 'speedup: 20x').id)")
    assert "metric: speedup · value: 20x" in page.locator("#panel").inner_text()
    assert page.locator("#panel blockquote mark").first.text_content() == "20×"  # 20$\times$, cleaned


def test_example_labels_do_not_overlap_around_a_focused_node(open_page, example_page):
    page = open_page(example_page)
    boxes = page.evaluate(LABELS)
    assert len(boxes) >= 20 and _overlaps(boxes) == []
    hub = page.evaluate("kgViewer.data.nodes.filter(n => n.type !== 'Venue').sort((a, b) => b.degree - a.degree)[0].id")
    page.evaluate(f"kgViewer.select({hub!r})")
    page.wait_for_timeout(500)  # the camera moves to it
    page.evaluate(SETTLE)
    boxes = page.evaluate(LABELS)
    neighbours = page.evaluate(f"kgViewer.graph.neighbors({hub!r}).length")
    assert neighbours >= 10 and len(boxes) >= 8 and _overlaps(boxes) == []
    on_screen = page.evaluate("kgViewer.labelBoxes().map(b => b.node)")
    assert on_screen[0] == hub and set(on_screen) <= set(page.evaluate(f"kgViewer.graph.neighbors({hub!r})")) | {hub}
