"""The page in a real browser: Debian's headless Chromium driven by playwright (no browser download).

Skipped only when /usr/bin/chromium is absent (``scripts/install-system-deps.sh`` installs it).
"""

from __future__ import annotations

import io
import random
import time
from pathlib import Path

import networkx as nx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": 1280, "height": 800},
        )
        yield context
        context.close()


@pytest.fixture
def open_page(browser):
    """Open a file in a new tab; the tab records console errors, page errors and dialogs."""
    pages = []

    def opener(path: Path, timeout: float = 30_000):
        page = browser.new_page()
        page.problems, page.dialogs = [], []
        page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
        page.on("pageerror", lambda e: page.problems.append(str(e)))
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.goto(path.resolve().as_uri())
        page.wait_for_function("window.kgViewer && window.kgViewer.state.ready", timeout=timeout)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        page.close()


def _graph():
    from kg.ids import name_key

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
    graph.add_node("venue:iclr", label="Venue", name="ICLR")
    for pid, title, abstract in papers:
        graph.add_node(pid, label="Paper", name=title, title=title, abstract=abstract, year=2025, venue="ICLR",
                       doi=None, arxiv_id=None, url="javascript:alert(2)", authors=["A. Author"])
        graph.add_edge(pid, "venue:iclr", key="PUBLISHED_IN", type="PUBLISHED_IN", year=2025)
        for name, label in entities.items():
            if name not in abstract:
                continue
            eid = "entity:" + name_key(name)
            if eid not in graph:
                graph.add_node(eid, label=label, name=name, aliases=[], catalogue_id=None, paper_count=0,
                               mention_count=0, proposed_by=[])
            graph.nodes[eid]["paper_count"] += 1
            start = abstract.index(name)
            kind = "PROPOSES" if "propose " + name in abstract else "MENTIONS"
            graph.add_edge(pid, eid, key=kind, type=kind, mentions=[{"start": start, "end": start + len(name)}])
    evidence = papers[2][2]
    graph.add_edge("entity:transformer", "entity:imagenet", key="EVALUATED_ON", type="EVALUATED_ON", support=1,
                   evidence=[{"paper": "paper:third", "start": 0, "end": len(evidence)}])
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
    assert page.locator("#panel b").count() == 0 and page.locator("body script").count() == 4
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
