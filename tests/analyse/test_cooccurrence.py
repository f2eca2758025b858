import pytest

from kg.analyse import association_strength, cooccurrence_network, paper_entities, top_links


def test_cooccurrence_counts_papers_sharing_both(tiny_graph):
    network = cooccurrence_network(tiny_graph, ("Method",), ("Dataset",))
    weights = {tuple(sorted((a, b))): d["weight"] for a, b, d in network.edges(data=True)}
    assert weights == {
        ("entity:a", "entity:x"): 2,
        ("entity:a", "entity:y"): 1,
        ("entity:b", "entity:y"): 1,
    }


def test_association_strength_known_answer(tiny_graph):
    # k_A = 3, k_B = 1, k_X = 2, k_Y = 2, m = 4; s_ij = 2m c_ij / (k_i k_j)
    network = cooccurrence_network(tiny_graph, ("Method",), ("Dataset",))
    strength = {tuple(sorted((a, b))): d["association_strength"] for a, b, d in network.edges(data=True)}
    assert strength[("entity:a", "entity:x")] == pytest.approx(8 * 2 / (3 * 2))
    assert strength[("entity:a", "entity:y")] == pytest.approx(8 * 1 / (3 * 2))
    assert strength[("entity:b", "entity:y")] == pytest.approx(8 * 1 / (1 * 2))


def test_association_strength_is_observed_over_expected():
    import networkx as nx

    # two items that only ever meet each other: observed == expected * 2m / (k k) ... == 2m / 1
    g = nx.Graph()
    g.add_edge("a", "b", weight=5)
    association_strength(g)
    assert g["a"]["b"]["association_strength"] == pytest.approx(2 * 5 * 5 / (5 * 5))


def test_unipartite_network_links_same_type_pairs(tiny_graph):
    network = cooccurrence_network(tiny_graph, ("Dataset",))
    assert sorted(network.edges()) == [("entity:x", "entity:y")]
    assert network["entity:x"]["entity:y"]["weight"] == 1


def test_min_papers_drops_rare_entities(tiny_graph):
    network = cooccurrence_network(tiny_graph, ("Method", "Dataset"), min_papers=2)
    assert sorted(network) == ["entity:a", "entity:x", "entity:y"]


def test_paper_entities_marks_proposals(graph_factory):
    graph = graph_factory([{"id": "paper:1", "abstract": "We propose Foo on MNIST.",
                            "entities": [("Foo", "Method", True), ("MNIST", "Dataset")]}])
    assert paper_entities(graph) == {"paper:1": {"entity:foo": True, "entity:mnist": False}}


def test_top_links_ranks_by_association_strength(tiny_graph):
    network = cooccurrence_network(tiny_graph, ("Method",), ("Dataset",))
    ranked = [(r["source_name"], r["target_name"]) for r in top_links(network)]
    assert ranked[0] == ("Y", "B") or ranked[0] == ("B", "Y")
    assert [r["papers"] for r in top_links(network, min_weight=2)] == [2]
