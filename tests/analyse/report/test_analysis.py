"""The map's analysis: one typed result holding all the report shows, and no files."""

from __future__ import annotations

from kg.analyse.report.analysis import MapResult, analyse_map


def test_analysis_holds_what_the_report_shows(field_graph):
    result = analyse_map(field_graph, title="Vision")
    assert isinstance(result, MapResult) and result.outputs == {}
    assert result.title == "Vision" and result.field_name == "Vision"
    assert result.per_year == {2019: 10, 2020: 10, 2021: 10} and result.min_papers == 1
    assert result.entity_counts == {"Method": 1, "Dataset": 2, "Model": 1, "Task": 1, "Metric": 0}
    assert set(result.year_shares) >= {"transformer", "ImageNet"}
    assert result.year_shares["ImageNet"] == {2019: 0.5, 2020: 0.5, 2021: 0.5}
    assert set(result.venue_leaders) == {"NeurIPS", "ICML"}
    assert result.results == [] and result.boards == []


def test_analysis_without_a_title_names_the_field_from_the_data(field_graph):
    result = analyse_map(field_graph)
    assert result.field_name == "ICML 2019–2021 and NeurIPS 2019–2021"
    assert result.title == "Research map: " + result.field_name


def test_analysis_keeps_only_linked_entities_in_the_pair_networks(tiny_graph):
    result = analyse_map(tiny_graph)
    for pair in result.pair_networks.values():
        assert all(pair.degree(n) for n in pair)
        assert all("community" in data for _, data in pair.nodes(data=True))


def test_analysis_of_one_year_and_one_venue_leaves_trends_out(tiny_graph):
    one_year = analyse_map(tiny_graph.subgraph(["paper:1", "paper:2", "entity:a", "entity:x"]).copy())
    assert one_year.per_year == {2020: 2} and one_year.year_shares == {} and one_year.venue_leaders == {}
