"""results.csv streamed from a store or a graph.json is byte for byte the one written from the graph
in memory, and writing it holds memory that does not grow with the results."""

from __future__ import annotations

import tracemalloc

import networkx as nx
import pytest

from kg.analyse.leaderboard import write_results_csv
from kg.export.files import write_node_link
from kg.graphstore import GraphStore, sorted_graph
from kg.node_link import NodeLinkFile
from kg.resolve import CanonicalEntity
from kg.types import Mention, Paper, PaperRecord, ResolvedEntity, Result, Source


def _hand_made() -> nx.MultiDiGraph:
    """Results that test the joins and the order: two results of a paper whose ids and offsets
    disagree (``:10`` sorts before ``:2``), paper ids whose order differs from their results'
    (``p1`` < ``p1-a``, but ``result:p1-a`` < ``result:p1:``), a paper not in the graph, a result
    without a paper or a start, an edge to a node that is not there, the Metric entity over the
    metric text, a formula-like value, non-ASCII ids and text."""
    graph = nx.MultiDiGraph()
    abstract = "Zorb reaches 91.2% on CIFAR-10. It is 2x faster than Quux, with =SUM(1) cost."
    graph.add_node("entity:zorb", label="Method", name="Zorb")
    graph.add_node("entity:c10", label="Dataset", name="CIFAR-10")
    graph.add_node("entity:acc", label="Metric", name="accuracy")
    graph.add_node("entity:ünï", label="Model", name="Ünï-Net")
    for pid, title in (("p1", "First"), ("p1-a", None), ("paper:é", "Été")):
        graph.add_node(pid, label="Paper", title=title, name=f"name of {pid}", year=2024, venue="ICML",
                       abstract=abstract, authors=["A. Author"])

    def result(rid, paper, value, start, **fields):
        attrs = {"label": "Result", "name": value, "value": value, "metric": "acc", "start": start,
                 "end": None if start is None else start + len(value), "sentence_start": 0,
                 "sentence_end": 32, **fields}
        if paper is not None:
            attrs["paper"] = paper
        graph.add_node(rid, **attrs)

    result("result:p1:2", "p1", "91.2%", 13, number=91.2, unit="%", direction="higher")
    result("result:p1:10", "p1", "2x", 39, delta="2x", sentence_start=33, sentence_end=79)
    result("result:p1:3", "p1", "=SUM(1)", 13)  # a tie on start: kept in id order
    result("result:p1-a:0", "p1-a", "-3 points", None, delta="-3 points")
    result("result:missing:0", "paper:missing", "5%", 4)
    result("result:nopaper:0", None, "7%", 1)
    result("result:paper:é:0", "paper:é", "88%", 2, setting="zero-shot")
    graph.add_edge("result:p1:2", "entity:zorb", key="RESULT_OF")
    graph.add_edge("result:p1:2", "entity:c10", key="RESULT_ON")
    graph.add_edge("result:p1:2", "entity:acc", key="RESULT_MEASURED_BY")
    graph.add_edge("result:p1:10", "entity:ünï", key="RESULT_OF")
    graph.add_edge("result:p1:10", "entity:zorb", key="RESULT_AGAINST")
    graph.add_edge("result:p1-a:0", "entity:gone", key="RESULT_OF")  # makes a node without attributes
    graph.add_edge("result:paper:é:0", "entity:c10", key="RESULT_ON")
    graph.add_edge("result:paper:é:0", "entity:c10", key="MENTIONS")  # not a result edge
    graph.add_edge("p1", "result:p1:2", key="REPORTS")
    return graph


@pytest.mark.parametrize("stream", ["sorted networkx", "graph.json"])
def test_results_csv_streamed_from_a_hand_made_graph_is_byte_identical(tmp_path, stream):
    graph = _hand_made()
    write_results_csv(graph, tmp_path / "memory.csv")
    if stream == "graph.json":
        write_node_link(graph, tmp_path / "graph.json")
        with NodeLinkFile(tmp_path / "graph.json") as source:
            write_results_csv(source, tmp_path / "streamed.csv")
    else:
        write_results_csv(sorted_graph(graph), tmp_path / "streamed.csv")
    expected = (tmp_path / "memory.csv").read_bytes()
    assert expected.count(b"\n") == 8 and b"'=SUM(1)" in expected and b"\xc3\x89t\xc3\xa9" in expected
    assert (tmp_path / "streamed.csv").read_bytes() == expected
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no scratch left


def test_results_csv_of_a_graph_without_results_is_the_header(tmp_path):
    graph = nx.MultiDiGraph()
    graph.add_node("p1", label="Paper", title="T")
    write_results_csv(graph, tmp_path / "memory.csv")
    write_results_csv(sorted_graph(graph), tmp_path / "streamed.csv")
    assert (tmp_path / "streamed.csv").read_bytes() == (tmp_path / "memory.csv").read_bytes()
    assert (tmp_path / "streamed.csv").read_text(encoding="utf-8").count("\n") == 1


def _store(path, papers: int) -> GraphStore:
    """A store of ``papers`` papers with one result each (as the scale benchmark's)."""
    store = GraphStore(path)
    entities = {}
    for i in range(papers):
        abstract = f"Net{i} reaches {50 + i % 50}.5% accuracy on Set{i % 7}. " * 8
        net, data = f"entity:net{i}", f"entity:set{i % 7}"
        entities[net] = CanonicalEntity(net, f"Net{i}", "Method", [], None)
        entities[data] = CanonicalEntity(data, f"Set{i % 7}", "Dataset", [], None)
        at = abstract.index("Set")
        record = PaperRecord(
            Paper(f"paper:{i:06d}", abstract, Source("in.jsonl", i), title=f"Paper {i}", year=2024, venue="ICML"),
            [ResolvedEntity(net, f"Net{i}", "Method", True, [Mention(f"Net{i}", 0, len(f"Net{i}"))]),
             ResolvedEntity(data, f"Set{i % 7}", "Dataset", False, [Mention(f"Set{i % 7}", at, at + 4)])],
            [], [Result("accuracy", "50.5%", 10, 15, subject=net, dataset=data, number=50.5, unit="%",
                        sentence_start=0, sentence_end=at + 5)], [])
        store.add(record)
    store.finish(entities)
    return store


def _traced_peak(write) -> int:
    tracemalloc.start()
    try:
        write()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_writing_results_csv_from_a_store_holds_memory_flat_in_the_results(tmp_path):
    peaks = {}
    for papers in (1_000, 10_000):
        with _store(tmp_path / f"store-{papers}.sqlite", papers) as store:
            path = tmp_path / f"results-{papers}.csv"
            peaks[papers] = _traced_peak(lambda: write_results_csv(store, path))  # noqa: B023 - called at once
            assert path.read_text(encoding="utf-8").count("\n") == papers + 1
            if papers == 1_000:
                memory = tmp_path / "memory.csv"
                write_results_csv(store.to_networkx(), memory)
                assert path.read_bytes() == memory.read_bytes()
    # ten times the results: well under a megabyte more (the graph in memory took 5.7 kB a result)
    assert peaks[10_000] - peaks[1_000] < 2**20, peaks
