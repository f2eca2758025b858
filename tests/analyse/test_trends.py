from kg.analyse import bursts, papers_by_venue, papers_by_year
from kg.analyse.trends import top_by_venue


def test_papers_per_year_and_venue(field_graph):
    assert papers_by_year(field_graph) == {2019: 10, 2020: 10, 2021: 10}
    assert papers_by_venue(field_graph) == {"NeurIPS": 20, "ICML": 10}
    assert top_by_venue(field_graph, 1)["ICML"][0] == ("entity:image-classification", 10)


def test_burst_found_in_the_year_an_entity_takes_off(field_graph):
    found = bursts(field_graph)
    assert [(b.name, b.start, b.end, b.papers) for b in found] == [("transformer", 2021, 2021, 8)]
    assert found[0].z > 3.5  # (0.8 - 0.1) / sqrt(1/3 * 2/3 * (1/10 + 1/20)) = 3.83


def test_no_bursts_within_one_year(tiny_graph):
    for node in tiny_graph:
        if tiny_graph.nodes[node].get("label") == "Paper":
            tiny_graph.nodes[node]["year"] = 2025
    assert bursts(tiny_graph) == []
