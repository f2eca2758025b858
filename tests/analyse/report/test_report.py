import json

import networkx as nx
from click.testing import CliRunner

from kg.analyse import research_map
from kg.cli.map import map_command

XSS = "<script>alert(1)</script>"


def test_research_map_writes_report_and_exports(field_graph, tmp_path):
    field_graph.nodes["entity:transformer"]["name"] = XSS
    result = research_map(field_graph, tmp_path, title="Test <map>", overview=False)
    assert result.papers == 30 and result.bursts and result.communities
    for name in ("report.html", "report.md", "graph.gexf", "cooccurrence.gexf", "top_entities.csv",
                 "vosviewer/entities_map.txt", "vosviewer/entities_network.txt", "bursts.csv",
                 "figures/trends.svg", "figures/term-map.svg", "figures/term-map.png", "termmap.html"):
        assert (tmp_path / name).is_file(), name
    page = (tmp_path / "report.html").read_text()
    assert XSS not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page  # no scripts at all; figures are data: images
    assert "Test &lt;map&gt;" in page
    markdown = (tmp_path / "report.md").read_text()
    assert XSS not in markdown and "## Trends" in markdown and "](figures/trends.svg)" in markdown
    nx.read_gexf(tmp_path / "graph.gexf")


def test_research_map_without_outdir_only_analyses(tiny_graph):
    result = research_map(tiny_graph, None)
    assert result.outputs == {} and result.top["Method"][0]["name"] == "A"


def test_cli_map(field_graph, tmp_path):
    from kg.export.files import write_node_link

    write_node_link(field_graph, tmp_path / "graph.json")
    out = tmp_path / "report"
    run = CliRunner().invoke(map_command, [str(tmp_path), "-o", str(out), "--no-overview", "-q"])
    assert run.exit_code == 0, run.output
    assert (out / "report.html").is_file()
    assert json.loads((tmp_path / "graph.json").read_text())["nodes"]


def test_cli_map_missing_graph(tmp_path):
    run = CliRunner().invoke(map_command, [str(tmp_path)])
    assert run.exit_code == 1


def test_research_map_of_an_empty_graph(tmp_path):
    result = research_map(nx.MultiDiGraph(), tmp_path)
    assert result.papers == 0 and result.communities == []
    assert "No entities in this graph." in (tmp_path / "report.md").read_text()
    assert list((tmp_path / "vosviewer").iterdir()) == []  # VOSviewer cannot open a map of 0 items
    assert "vosviewer/" not in (tmp_path / "report.md").read_text()


def test_map_tables_neutralise_cells_a_spreadsheet_would_run(graph_factory, tmp_path):
    import csv

    formula = '=HYPERLINK("http://evil.example", "x")'
    graph = graph_factory([{"id": f"paper:{i}", "abstract": f"We use {formula} and MNIST.", "year": 2024,
                            "entities": [(formula, "Method"), ("MNIST", "Dataset")]} for i in range(3)])
    research_map(graph, tmp_path, overview=False)
    with open(tmp_path / "top_entities.csv", newline="", encoding="utf-8") as handle:
        cells = {cell for row in csv.reader(handle) for cell in row}
    assert "'" + formula in cells and formula not in cells


def test_a_given_title_names_the_report_the_figures_and_the_term_map(field_graph, tmp_path):
    from svg_text import text_boxes

    research_map(field_graph, tmp_path, title="Vision 2019–21")
    assert (tmp_path / "report.md").read_text().startswith("# Vision 2019–21\n")
    texts = [b.text for b in text_boxes((tmp_path / "figures" / "term-map.svg").read_text())[0]]
    assert any(t.startswith("Vision 2019–21: ") for t in texts)
    assert "<title>Vision 2019–21</title>" in (tmp_path / "termmap.html").read_text()


def test_without_a_title_the_data_names_the_field(field_graph, tmp_path):
    result = research_map(field_graph, tmp_path)
    assert result.title == "Research map: ICML 2019–2021 and NeurIPS 2019–2021"
    assert "<title>ICML 2019–2021 and NeurIPS 2019–2021</title>" in (tmp_path / "termmap.html").read_text()


def test_generic_entities_are_left_out_unless_asked(field_graph):
    field_graph.nodes["entity:image-classification"]["generic"] = True
    assert "entity:image-classification" not in research_map(field_graph, None).network
    assert "entity:image-classification" in research_map(field_graph, None, include_generic=True).network
