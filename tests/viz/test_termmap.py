import json
import re

import pytest

from kg.analyse.termmap import term_network
from kg.viz.termmap import render_term_map, term_map_payload

XSS = "<script>alert(1)</script>"


@pytest.fixture
def payload(field_graph):
    field_graph.nodes["entity:resnet"]["generic"] = True
    field_graph.nodes["entity:resnet"]["aliases"] = ["ResNets"]
    network, communities, positions = term_network(field_graph, min_papers=1)
    return term_map_payload(field_graph, network, positions, communities, title="Field", min_papers=1)


def test_payload_draws_entities_only(payload, field_graph):
    assert {e["t"] for e in payload["entities"]} <= {"Method", "Dataset", "Model", "Metric", "Task"}
    assert sorted(e["n"] for e in payload["entities"]) == [
        "CIFAR-10", "ImageNet", "ResNet", "image classification", "transformer"]
    assert payload["meta"]["papers"] == 30 and payload["meta"]["graph_papers"] == 30


def test_every_mention_points_at_the_entity_name_in_the_shown_abstract(payload):
    for entity in payload["entities"]:
        assert len(entity["m"]) == entity["p"]
        for paper, start, end, _ in entity["m"]:
            assert payload["papers"][paper]["a"][start:end] == entity["n"]


def test_years_and_venues_add_up_and_generic_is_flagged(payload):
    meta = payload["meta"]
    assert meta["years"] == [2019, 2020, 2021] and meta["venues"] == ["NeurIPS", "ICML"]
    assert meta["venue_share"] == pytest.approx([20 / 30, 10 / 30])
    by_name = {e["n"]: e for e in payload["entities"]}
    assert by_name["transformer"]["yr"] == [1, 1, 8]
    for entity in payload["entities"]:
        assert sum(entity["yr"]) == sum(entity["vn"]) == entity["p"]
    assert by_name["ResNet"].get("g") == 1 and by_name["ResNet"]["al"] == ["ResNets"]
    assert "g" not in by_name["ImageNet"]


def test_links_are_shared_by_two_papers_and_related_entities_are_listed(payload):
    index = {e["n"]: i for i, e in enumerate(payload["entities"])}
    assert payload["links"] and all(weight >= 2 for _, _, weight in payload["links"])
    related = {payload["entities"][i]["n"]: w for i, w in payload["entities"][index["transformer"]]["r"]}
    assert related["image classification"] == 10


def test_community_colours_and_positions_are_in_the_payload(payload):
    assert payload["communities"] and all(re.fullmatch(r"#[0-9a-f]{6}", c["color"]) for c in payload["communities"])
    assert max(max(abs(e["x"]), abs(e["y"])) for e in payload["entities"]) == pytest.approx(1.0)


def test_page_is_self_contained_and_escapes_the_data(field_graph):
    field_graph.nodes["entity:transformer"]["name"] = XSS
    field_graph.nodes["paper:00"]["title"] = "</script><b>x</b>"
    network, communities, positions = term_network(field_graph, min_papers=1)
    page = render_term_map(term_map_payload(field_graph, network, positions, communities, title=XSS))
    assert XSS not in page and "</script><b>" not in page
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", page)
    assert "connect-src 'none'" in page and "default-src 'none'" in page
    assert page.count("<script") == 5  # the data, graphology, sigma, the label layer, the map
    data = re.search(r'<script id="kg-data" type="application/json">(.*?)</script>', page, re.DOTALL).group(1)
    assert XSS in {e["n"] for e in json.loads(data)["entities"]}
