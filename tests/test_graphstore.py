"""The graph assembled on disk is the graph assembled in memory, attribute order included."""

import pytest

from kg.assemble import assemble_graph
from kg.export.files import write_graphml, write_node_link
from kg.export.rdf import write_ntriples, write_turtle
from kg.graphstore import GraphStore, sorted_graph
from kg.resolve import CanonicalEntity, Resolver
from kg.types import Mention, Paper, PaperRecord, Relation, ResolvedEntity, Source


@pytest.fixture(scope="module")
def example_records(examples_dir):
    from kg.extract.runner import extract_all
    from kg.ingest import read_papers

    extractions = list(extract_all(read_papers([examples_dir])))
    resolver = Resolver()
    for extraction in extractions:
        resolver.add(extraction)
    return [resolver.resolve(e) for e in extractions], resolver.entities


def _store(tmp_path, records, entities):
    store = GraphStore(tmp_path / "graph.sqlite")
    for record in records:
        store.add(record)
    store.finish(entities)
    return store


def _items(pairs):
    """Nodes or edges with attributes as item lists, so that attribute order counts."""
    return [(*head, list(attrs.items())) for *head, attrs in pairs]


def test_graphstore_equals_the_networkx_assembly(tmp_path, example_records):
    records, entities = example_records
    graph = assemble_graph(records, entities)
    with _store(tmp_path, records, entities) as store:
        assert _items(store.nodes()) == _items(sorted_graph(graph).nodes())
        assert _items(store.edges()) == _items(sorted_graph(graph).edges())
        assert (store.number_of_nodes(), store.number_of_edges()) == (graph.number_of_nodes(), graph.number_of_edges())
        degrees = store.degrees({"entity:llm", "entity:rag"})
        assert degrees == {"entity:llm": graph.degree("entity:llm"), "entity:rag": graph.degree("entity:rag")}
        assert degrees["entity:llm"] > 10


@pytest.mark.parametrize("write", [write_node_link, write_graphml, write_turtle, write_ntriples])
def test_graphstore_files_equal_the_networkx_files(tmp_path, example_records, write):
    records, entities = example_records
    write(assemble_graph(records, entities), tmp_path / "from-networkx")
    with _store(tmp_path, records, entities) as store:
        write(store, tmp_path / "from-store")
    assert (tmp_path / "from-store").read_bytes() == (tmp_path / "from-networkx").read_bytes()


def test_graphstore_keeps_the_last_venue_spelling_and_sorts_evidence(tmp_path):
    """As networkx does: a node added again takes the later attributes; evidence of one
    relation from many papers sorted by paper, then start (papers added in shuffled order)."""
    def record(n, venue):
        pid = f"p:{(n * 37) % 300:03d}"
        entities = [ResolvedEntity("entity:a", "A", "Method", n % 2 == 0, [Mention("A", 0, 1)]),
                    ResolvedEntity("entity:b", "B", "Dataset", False, [Mention("B", 2, 3), Mention("B", 4, 5)])]
        relation = Relation("entity:a", "evaluated_on", "entity:b", n % 4, 9)
        return PaperRecord(Paper(pid, "A B B.", Source("f", n), venue=venue, year=2025), entities, [relation], [], [])

    records = [record(n, "ICLR" if n < 299 else "iclr") for n in range(300)]
    entities = {"entity:a": CanonicalEntity("entity:a", "A", "Method", [], None),
                "entity:b": CanonicalEntity("entity:b", "B", "Dataset", ["Bee"], "pwc:dataset:b")}
    graph = assemble_graph(records, entities)
    with _store(tmp_path, records, entities) as store:
        nodes, edges = dict(store.nodes()), {e[:3]: e[3] for e in store.edges()}
    assert nodes["venue:iclr"]["name"] == "iclr" == graph.nodes["venue:iclr"]["name"]
    evidence = edges["entity:a", "entity:b", "EVALUATED_ON"]["evidence"]
    assert evidence == graph.edges["entity:a", "entity:b", "EVALUATED_ON"]["evidence"]
    assert [e["paper"] for e in evidence] == sorted(r.paper.id for r in records)
    assert nodes["entity:b"]["mention_count"] == 600 and nodes["entity:a"]["paper_count"] == 300
    assert len(nodes["entity:a"]["proposed_by"]) == 150


def test_graphstore_holds_ids_with_lone_surrogates(tmp_path):
    paper = Paper("doi:10.1/x\ud800", "A.", Source("f", 0))
    entity = ResolvedEntity("entity:a", "A", "Method", False, [Mention("A", 0, 1)])
    with GraphStore(tmp_path / "graph.sqlite") as store:
        store.add(PaperRecord(paper, [entity], [], [], []))
        store.finish({"entity:a": CanonicalEntity("entity:a", "A", "Method", [], None)})
        assert [n for n, _ in store.nodes()] == ["doi:10.1/x\ud800", "entity:a"]
