"""Checks of a real build without a gold: resolution errors visible from the catalogues."""

import networkx as nx

from kg.analyse.load import read_graph
from kg.evaluate.graph import graph_checks, summary_counts


def test_the_example_build_passes_every_check(build_dir):
    report = graph_checks(read_graph(build_dir))
    assert report["entities"] > 100
    assert summary_counts(report) == {
        "alias_of_other_entry": 0, "generic_with_catalogue_id": 0,
        "type_differs_from_catalogue": 0, "id_not_from_name": 0,
    }
    assert all(report["top"][kind] for kind in ("Method", "Dataset", "Model", "Metric", "Task"))


def test_each_problem_is_reported():
    g = nx.MultiDiGraph()
    g.add_node("entity:cv-dataset", label="Dataset", name="ImageNet", aliases=["CV dataset"],
               catalogue_id="pwc:dataset:imagenet", paper_count=2)
    g.add_node("entity:large-language-model", label="Method", name="large language model",
               aliases=["GPT-4", "LLM"], catalogue_id="model:llama-2", generic=True, paper_count=9)
    g.add_node("entity:adversarial-attack", label="Method", name="adversarial attack", aliases=[],
               catalogue_id="pwc:task:adversarial-attack", paper_count=3)
    report = graph_checks(g)
    assert [p["id"] for p in report["id_not_from_name"]] == ["entity:cv-dataset"]
    assert [p["alias"] for p in report["alias_of_other_entry"]] == ["GPT-4"]
    assert [p["id"] for p in report["generic_with_catalogue_id"]] == ["entity:large-language-model"]
    assert {p["id"] for p in report["type_differs_from_catalogue"]} == {
        "entity:large-language-model", "entity:adversarial-attack"}
    assert [r["name"] for r in report["top"]["Method"]] == ["adversarial attack"]  # the generic one left out
