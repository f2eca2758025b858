import networkx as nx

from kg.analyse import cooccurrence_network, detect_communities
from kg.export.vosviewer import VOS_COLUMNS, read_vosviewer, write_vosviewer


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
