import networkx as nx

from kg.analyse import cooccurrence_network, detect_communities
from kg.export.gexf import write_gexf


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


def test_kg_analyse_keeps_the_names_of_the_writers_that_moved_to_kg_export():
    import kg.analyse
    from kg.export import gexf, vosviewer

    assert kg.analyse.write_gexf is write_gexf and kg.analyse.to_gexf_graph is gexf.to_gexf_graph
    assert kg.analyse.write_vosviewer is vosviewer.write_vosviewer
    assert kg.analyse.read_vosviewer is vosviewer.read_vosviewer
