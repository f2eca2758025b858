"""Static figures: no label overlaps another, nothing outside the canvas, titles from the data.

Boxes are measured from the written SVG with fontTools (``svg_text``), not with
the matplotlib renderer that placed them.
"""

import io
import random

import networkx as nx
import pytest
from svg_text import outside, overlapping, text_boxes

from kg.analyse import read_graph
from kg.viz.static import draw_overview, draw_term_map, field_title, save_figure


def _svg(fig, tmp_path, name="figure.svg") -> str:
    [path] = save_figure(fig, [tmp_path / name])
    return path.read_text()


def test_the_measure_sees_an_overlap_and_a_cut_label():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 150 100">'
           '<text style="font-size: 10px; text-anchor: start" x="10" y="20">large language model</text>'
           '<text style="font-size: 10px; text-anchor: start" x="60" y="24">vision-language model</text>'
           '<text style="font-size: 10px" transform="translate(120 90) rotate(-50)">far away label</text></svg>')
    boxes, width, height = text_boxes(svg)
    assert overlapping(boxes) == [("large language model", "vision-language model")]
    assert outside(boxes, width, height) == ["vision-language model", "far away label"]


def _crowded_network(n=400, seed=3):
    """Many entities in a small space with long names: labels would collide everywhere."""
    rng = random.Random(seed)
    network = nx.Graph()
    names = ["large language model", "vision-language model", "theoretical understanding", "diffusion model",
             "reinforcement learning", "graph neural network", "in-context learning", "federated learning"]
    for i in range(n):
        network.add_node(i, name=f"{names[i % len(names)]} {i}", label="Method", paper_count=rng.randint(2, 400),
                         community=1 + i % 12)
    for i in range(n):
        network.add_edge(i, rng.randrange(n), weight=rng.randint(1, 6))
    positions = {i: (rng.gauss(0, 0.3), rng.gauss(0, 0.3)) for i in range(n)}
    positions[0] = (1.0, 1.0)  # a big node in the corner: its label must stay inside the canvas
    network.nodes[0]["paper_count"] = 500
    return network, positions


def test_term_map_labels_do_not_overlap_and_stay_inside(tmp_path):
    from kg.analyse.communities import Community

    network, positions = _crowded_network()
    communities = [Community(c, [n for n in network if network.nodes[n]["community"] == c],
                             f"community number {c} with a rather long name that gets cut") for c in range(1, 13)]
    svg = _svg(draw_term_map(network, positions, communities, title="A crowded field", labels=120), tmp_path)
    boxes, width, height = text_boxes(svg)
    names = [b.text for b in boxes if b.text.split()[-1].isdigit()]
    assert len(names) >= 25, "labels should be placed, not all dropped"
    assert overlapping(boxes) == []
    assert outside(boxes, width, height) == []
    assert "A crowded field" in [b.text for b in boxes]
    assert any("community number 1 " in b.text for b in boxes)  # the legend is drawn ...
    assert "large language model 0" in names  # ... and the corner label found room inside


def test_overview_of_the_example_build(build_dir, tmp_path):
    graph = read_graph(build_dir)
    svg = _svg(draw_overview(graph, title=field_title(graph)), tmp_path)
    boxes, width, height = text_boxes(svg)
    texts = [b.text for b in boxes]
    assert texts[-1] != "" and "ICLR 2025" in texts
    assert any(t.startswith("CodeRepository (") for t in texts)  # the legend, whole
    assert overlapping(boxes) == [] and outside(boxes, width, height) == []
    assert sum(1 for t in texts if "(" not in t) >= 15  # entity names


def test_png_and_svg_of_one_figure(tmp_path):
    network, positions = _crowded_network(60)
    png, svg = save_figure(draw_term_map(network, positions), [tmp_path / "m.png", tmp_path / "m.svg"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "<svg" in svg.read_text()
    from PIL import Image

    assert Image.open(io.BytesIO(png.read_bytes())).size[0] > 1000


@pytest.mark.parametrize("papers, title", [
    ([("ICLR", 2025)] * 3, "ICLR 2025"),
    ([("NeurIPS", 2023), ("ICML", 2024)], "NeurIPS 2023 and ICML 2024"),
    ([("NeurIPS", 2021), ("NeurIPS", 2023), ("ICML", 2022)], "NeurIPS 2021, 2023 and ICML 2022"),
    ([(None, 2020), (None, 2021)], "2 papers, 2020–2021"),
    ([(f"V{i}", 2020 + i) for i in range(6)], "6 venues, 2020–2025"),
    ([("ICLR", 2025), (None, None)], "ICLR 2025 and other papers"),
])
def test_field_title_names_venues_and_years(papers, title):
    graph = nx.MultiDiGraph()
    for i, (venue, year) in enumerate(papers):
        graph.add_node(i, label="Paper", venue=venue, year=year)
    assert field_title(graph) == title
