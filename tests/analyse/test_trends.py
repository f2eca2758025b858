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


def test_rising_and_falling_compare_the_latest_year_with_the_earlier_ones(field_graph):
    from kg.analyse.trends import rising_and_falling

    trend = rising_and_falling(field_graph, min_papers=3)
    assert (trend.latest, trend.earlier) == (2021, [2019, 2020])
    assert [(s.name, s.papers_in, s.papers_out) for s in trend.rising] == [("transformer", 8, 2)]
    assert [(s.name, s.papers_in, s.papers_out) for s in trend.falling] == [("ResNet", 2, 18)]
    assert round(trend.rising[0].z, 2) == 3.83 and round(trend.falling[0].z, 2) == -3.83
    assert trend.tested == 5  # every entity of the field has at least 3 papers


def test_rising_and_falling_needs_two_years(tiny_graph):
    from kg.analyse.trends import rising_and_falling

    for node in tiny_graph:
        if tiny_graph.nodes[node].get("label") == "Paper":
            tiny_graph.nodes[node]["year"] = 2025
    assert rising_and_falling(tiny_graph) is None


def _two_venues(graph_factory, extra_in_b=0):
    papers = []
    for i in range(40):
        venue, year = ("A", 2023) if i < 20 else ("B", 2024)
        entities = [("ImageNet", "Dataset")]
        text = "ImageNet."
        if venue == "B" and i < 20 + 12 or venue == "A" and i < 1:
            entities.append(("Mamba", "Model"))
            text += " Mamba."
        papers.append({"id": f"paper:{i:02d}", "abstract": text, "year": year, "venue": venue, "entities": entities})
    return graph_factory(papers)


def test_venue_emphasis_and_the_confound_are_reported(graph_factory):
    from kg.analyse.trends import venue_emphasis, venue_year_confounded

    graph = _two_venues(graph_factory)
    found, tested = venue_emphasis(graph)
    assert tested == 2
    assert [(s.name, s.papers_in, s.total_in, s.papers_out) for s in found["B"]] == [("Mamba", 12, 20, 1)]
    assert found["A"] == []  # ImageNet is in every paper of both venues
    assert venue_year_confounded(graph) == {"A": 2023, "B": 2024}


def test_venue_and_year_not_confounded_when_a_venue_spans_years(field_graph):
    from kg.analyse.trends import venue_year_confounded

    assert venue_year_confounded(field_graph) is None


def test_new_entities_are_those_no_earlier_paper_mentions(graph_factory):
    from kg.analyse.trends import new_entities

    graph = _two_venues(graph_factory)
    [fresh] = new_entities(graph)
    assert (fresh.year, fresh.count, fresh.leading) == (2024, 0, [])  # Mamba is in one 2023 paper
    graph.remove_edge("paper:00", "entity:mamba", key="MENTIONS")
    [fresh] = new_entities(graph)
    assert (fresh.year, fresh.count, fresh.leading, fresh.recurring) == (2024, 1, [("entity:mamba", 12)], 1)


def test_chance_passes_is_the_normal_tail():
    from kg.analyse.trends import chance_passes

    assert round(chance_passes(1000, 3.0), 2) == 1.35


def test_runs_group_consecutive_scored_years():
    from kg.analyse.trends import _runs

    years = [2019, 2020, 2022, 2023, 2024]
    assert _runs(years, {2019: 3.1, 2020: 4.0, 2023: 3.5, 2024: 3.2}) == [[2019, 2020], [2023, 2024]]
    assert _runs(years, {2020: 3.0, 2022: 3.0}) == [[2020, 2022]]
    assert _runs(years, {}) == []
