import networkx as nx

from kg.analyse import centrality, cooccurrence_network, detect_communities


def _two_cliques(order):
    g = nx.Graph()
    edges = [("a", "b", 3), ("b", "c", 3), ("a", "c", 3), ("x", "y", 3), ("y", "z", 3), ("x", "z", 3), ("c", "x", 1)]
    for a, b, w in (edges if order else edges[::-1]):
        g.add_edge(a, b, weight=w)
    counts = {"a": 5, "b": 2, "c": 1, "x": 1, "y": 4, "z": 1}
    for n in (sorted(g) if order else sorted(g, reverse=True)):
        g.nodes[n].update(name=n.upper(), label="Method", paper_count=counts[n])
    return g


def test_communities_are_found_and_labelled_by_most_studied_members():
    communities = detect_communities(_two_cliques(True))
    assert [sorted(c.members) for c in communities] == [["a", "b", "c"], ["x", "y", "z"]]
    assert communities[0].label == "A · B · C"
    assert communities[1].label.startswith("Y · ")


def test_communities_do_not_depend_on_insertion_order():
    first = detect_communities(_two_cliques(True))
    second = detect_communities(_two_cliques(False))
    assert [(c.members, c.label) for c in first] == [(c.members, c.label) for c in second]


def test_communities_are_deterministic_on_a_real_shape(field_graph):
    runs = []
    for _ in range(2):
        network = cooccurrence_network(field_graph)
        runs.append([c.members for c in detect_communities(network, seed=7)])
    assert runs[0] == runs[1]


def test_centrality_finds_the_bridge():
    scores = centrality(_two_cliques(True))
    best = max(scores, key=lambda n: scores[n]["betweenness"])
    assert best in ("c", "x")
    assert scores["a"]["degree"] == 2 and scores["a"]["strength"] == 6


def test_community_names_prefer_members_that_meet_inside_it_and_skip_generic_terms():
    g = nx.Graph()
    for group in ("abcd", "efg"):
        for i, u in enumerate(group):
            for v in group[i + 1:]:
                g.add_edge(u, v, weight=5)
    g.add_weighted_edges_from([("h", "a", 5), ("h", "b", 5), ("h", "e", 1), ("h", "f", 1), ("h", "g", 1)])
    for n in g:
        g.nodes[n].update(name=n.upper(), label="Method", paper_count=100 if n == "h" else 3)
    first = detect_communities(g)[0]
    assert first.members[0] == "h"  # the most studied member ...
    assert first.label == "A · B · C"  # ... meets the least inside: a, b (20), c, d (15), h (10)
    g.nodes["a"]["generic"] = True
    assert detect_communities(g)[0].label == "B · C · D"
