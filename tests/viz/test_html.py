import json
import re

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli.viz import viz
from kg.viz import force_layout, graph_payload, render_html
from kg.viz.html import safe_json

XSS = "<script>alert(1)</script>"


@pytest.fixture
def xss_graph(graph_factory):
    return graph_factory([
        {"id": "paper:1", "title": XSS, "abstract": "We propose </script><b>Foo</b> on MNIST.", "venue": "X&Y",
         "entities": [("</script><b>Foo</b>", "Method", True), ("MNIST", "Dataset")]},
        {"id": "paper:2", "title": "Second", "abstract": "Bar on MNIST.", "entities": [("Bar", "Method"), ("MNIST", "Dataset")]},
    ])


def test_safe_json_cannot_close_a_script_and_round_trips():
    data = {"t": "</script><!-- & \u2028", "n": [1, None]}
    text = safe_json(data)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == data


def test_page_escapes_every_string_from_the_data(xss_graph):
    page = render_html(graph_payload(xss_graph, title=XSS))
    assert XSS not in page
    assert "</script><b>" not in page
    assert page.count("<script") == 5  # the JSON data, graphology, sigma, the label layer, the viewer
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in page
    data = re.search(r'<script id="kg-data" type="application/json">(.*?)</script>', page, re.DOTALL).group(1)
    payload = json.loads(data)
    assert {n["name"] for n in payload["nodes"]} >= {XSS, "</script><b>Foo</b>"}


def test_page_is_self_contained(xss_graph):
    page = render_html(graph_payload(xss_graph))
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", page)
    assert "connect-src 'none'" in page and "default-src 'none'" in page
    assert "sourceMappingURL" not in page


def test_payload_links_carry_evidence_spans(xss_graph):
    payload = graph_payload(xss_graph)
    index = {n["id"]: i for i, n in enumerate(payload["nodes"])}
    proposes = [link for link in payload["links"] if link[2] == "PROPOSES"]
    assert proposes == [[index["paper:1"], index["entity:script-b-foo-b"], "PROPOSES", [[index["paper:1"], 11, 30]]]]
    abstract = payload["nodes"][index["paper:1"]]["details"]["abstract"]
    assert abstract[11:30] == "</script><b>Foo</b>"
    mnist = payload["nodes"][index["entity:mnist"]]
    assert mnist["papers"] == 2 and mnist["type"] == "Dataset"


def test_layout_is_deterministic_exact_and_mesh():
    small = nx.barabasi_albert_graph(60, 2, seed=3)
    assert force_layout(small, seed=5) == force_layout(small, seed=5)
    big = nx.barabasi_albert_graph(700, 1, seed=3)  # above exact_limit: particle-mesh repulsion
    first = force_layout(big, seed=5, iterations=40)
    assert first == force_layout(big, seed=5, iterations=40)
    coords = [c for xy in first.values() for c in xy]
    assert max(abs(c) for c in coords) == pytest.approx(1.0)
    assert len({(round(x, 4), round(y, 4)) for x, y in first.values()}) > 650  # not collapsed


def test_cli_viz_writes_page_and_images(xss_graph, tmp_path):
    from kg.export.files import write_node_link

    write_node_link(xss_graph, tmp_path / "graph.json")
    run = CliRunner().invoke(viz, [str(tmp_path), "--title", "Tiny"])
    assert run.exit_code == 0, run.output
    for name in ("graph.html", "overview.png", "overview.svg"):
        assert (tmp_path / name).stat().st_size > 1000
    assert (tmp_path / "overview.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "overview.svg").read_text()
    run = CliRunner().invoke(viz, [str(tmp_path), "-o", str(tmp_path / "x.html"), "--no-image", "-q"])
    assert run.exit_code == 0 and run.output == ""


def test_cli_viz_missing_graph(tmp_path):
    assert CliRunner().invoke(viz, [str(tmp_path)]).exit_code == 1


def test_empty_graph_gives_a_page_and_an_image(tmp_path):
    from kg.viz import write_html
    from kg.viz.static import write_overview

    write_html(nx.MultiDiGraph(), tmp_path / "graph.html")
    assert '"nodes":[]' in (tmp_path / "graph.html").read_text()
    assert write_overview(nx.MultiDiGraph(), [tmp_path / "o.png"])[0].stat().st_size > 0


def test_weighted_layout_pulls_strong_pairs_closer():
    graph = nx.Graph()
    graph.add_edge("a", "b", weight=20)
    graph.add_edge("b", "c", weight=1)
    graph.add_edge("c", "d", weight=1)
    graph.add_edge("d", "a", weight=1)
    plain = force_layout(graph, seed=2)
    weighted = force_layout(graph, seed=2, weight="weight")

    def distance(pos, u, v):
        return ((pos[u][0] - pos[v][0]) ** 2 + (pos[u][1] - pos[v][1]) ** 2) ** 0.5

    assert distance(weighted, "a", "b") < 0.5 * distance(plain, "a", "b")
    assert weighted == force_layout(graph, seed=2, weight="weight")


def test_cli_viz_titles_from_the_data_and_draws_the_term_map_when_large(field_graph, tmp_path, monkeypatch):
    from svg_text import text_boxes

    from kg.export.files import write_node_link

    write_node_link(field_graph, tmp_path / "graph.json")
    run = CliRunner().invoke(viz, [str(tmp_path), "--image", str(tmp_path / "small.svg"), "-q"])
    assert run.exit_code == 0, run.output
    texts = [b.text for b in text_boxes((tmp_path / "small.svg").read_text())[0]]
    assert "ICML 2019–2021 and NeurIPS 2019–2021" in texts and "Paper (30)" in texts  # every node, by type
    assert "<title>ICML 2019–2021 and NeurIPS 2019–2021</title>" in (tmp_path / "graph.html").read_text()

    monkeypatch.setattr("kg.viz.static.OVERVIEW_NODE_LIMIT", 10)
    run = CliRunner().invoke(viz, [str(tmp_path), "--image", str(tmp_path / "large.svg"), "-q"])
    assert run.exit_code == 0, run.output
    texts = [b.text for b in text_boxes((tmp_path / "large.svg").read_text())[0]]
    assert "ICML 2019–2021 and NeurIPS 2019–2021: term map" in texts
    assert "communities (entities)" in texts and not any(t.startswith("Paper (") for t in texts)
