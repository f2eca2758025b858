"""Shared fixtures: the example abstracts, the extraction pipeline (loaded once), and
hand-made graphs in the shape of :mod:`kg.schema`, small enough to check by hand."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from kg.ids import name_key
from kg.schema import edge_attributes, node_attributes

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "iclr2025"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture(scope="session")
def stalling_config(tmp_path_factory):
    """The default pipeline plus a component standing in for a pathological record:
    it sleeps 30 s on a text containing STALL and raises RecursionError on DEEP."""
    import time

    from spacy.language import Language

    from kg.extract.pipeline import DEFAULT_CONFIG

    @Language.component("kg_test_stall")
    def stall(doc):
        if "STALL" in doc.text:
            time.sleep(30)
        if "DEEP" in doc.text:
            raise RecursionError("maximum recursion depth exceeded")
        return doc

    text = DEFAULT_CONFIG.read_text("utf-8").replace('"kg_results"]', '"kg_results","kg_test_stall"]')
    text += '\n[components.kg_test_stall]\nfactory = "kg_test_stall"\n'
    path = tmp_path_factory.mktemp("config") / "stall.cfg"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def nlp():
    from kg.extract import load_pipeline

    return load_pipeline()



def make_graph(papers: list[dict]) -> nx.MultiDiGraph:
    """``papers``: dicts with ``id``, ``abstract``, optional ``title``/``year``/``venue``, and
    ``entities``: ``[(name, type)]`` or ``[(name, type, proposed)]``; names must occur in the abstract."""
    graph = nx.MultiDiGraph()
    for paper in papers:
        pid = paper["id"]
        graph.add_node(pid, **node_attributes(
            "Paper", paper.get("title") or paper["abstract"][:60], title=paper.get("title"),
            abstract=paper["abstract"], year=paper.get("year"), venue=paper.get("venue"), authors=[],
            source_path="test", source_index=0,
        ))
        if paper.get("venue"):
            venue = "venue:" + name_key(paper["venue"])
            graph.add_node(venue, **node_attributes("Venue", paper["venue"]))
            graph.add_edge(pid, venue, key="PUBLISHED_IN", **edge_attributes("PUBLISHED_IN", year=paper.get("year")))
        for entity in paper["entities"]:
            name, label, proposed = (*entity, False) if len(entity) == 2 else entity
            eid = "entity:" + name_key(name)
            if eid not in graph:
                graph.add_node(eid, **node_attributes(label, name, aliases=[], generic=False, paper_count=0,
                                                      mention_count=0, proposed_by=[]))
            data = graph.nodes[eid]
            data["paper_count"] += 1
            data["mention_count"] += 1
            start = paper["abstract"].index(name)
            span = [{"start": start, "end": start + len(name)}]
            kind = "PROPOSES" if proposed else "MENTIONS"
            if proposed:
                data["proposed_by"] = sorted(data["proposed_by"] + [pid])
            graph.add_edge(pid, eid, key=kind, **edge_attributes(kind, mentions=span))
    return graph


@pytest.fixture
def graph_factory():
    return make_graph


@pytest.fixture
def tiny_graph() -> nx.MultiDiGraph:
    """P1 {A, X}, P2 {A, X, Y}, P3 {B, Y}: methods A, B; datasets X, Y."""
    return make_graph([
        {"id": "paper:1", "abstract": "A on X.", "year": 2020, "entities": [("A", "Method"), ("X", "Dataset")]},
        {"id": "paper:2", "abstract": "A on X and Y.", "year": 2020,
         "entities": [("A", "Method"), ("X", "Dataset"), ("Y", "Dataset")]},
        {"id": "paper:3", "abstract": "B on Y.", "year": 2021, "entities": [("B", "Method"), ("Y", "Dataset")]},
    ])


@pytest.fixture
def field_graph() -> nx.MultiDiGraph:
    """Thirty papers over 2019-2021 at two venues; 'transformer' bursts in 2021, 'ImageNet' is steady."""
    papers = []
    for i in range(30):
        year = 2019 + i // 10
        entities = [("ImageNet", "Dataset")] if i % 2 == 0 else [("CIFAR-10", "Dataset")]
        text = "We study ImageNet." if i % 2 == 0 else "We study CIFAR-10."
        if year == 2021 and i % 10 < 8 or i in (3, 14):
            entities.append(("transformer", "Method"))
            text += " A transformer."
        else:
            entities.append(("ResNet", "Model"))
            text += " A ResNet."
        entities.append(("image classification", "Task"))
        text += " For image classification."
        papers.append({"id": f"paper:{i:02d}", "abstract": text, "year": year,
                       "venue": "NeurIPS" if i % 3 else "ICML", "title": f"Paper {i}", "entities": entities})
    return make_graph(papers)


SMALL_LIST = """NeurIPS 2024 Papers

We propose Zorbnet, a novel framework for node classification. Experiments on MNIST and CIFAR-10 show that Zorbnet outperforms GPT-4o by 12.97% in accuracy. Code: https://github.com/x/zorbnet.

We introduce Quorbit, a benchmark for link prediction. Models such as GPT-4o and Zorbnet are evaluated on Quorbit and MNIST.
"""


@pytest.fixture(scope="session")
def small_build(tmp_path_factory):
    """``(build directory, graph)`` of two abstracts built once: what the export and query
    commands read."""
    from kg.build import build

    source = tmp_path_factory.mktemp("in") / "list.txt"
    source.write_text(SMALL_LIST, encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    report = build([source], out, cache=False)
    return out, report.graph


@pytest.fixture(scope="session")
def build_dir(request, tmp_path_factory) -> Path:
    """The example abstracts built once (kept in pytest's cache between runs when it has one)."""
    import sparql_helpers

    cache = getattr(request.config, "cache", None)
    root = cache.mkdir("kg-sparql-example") if cache else tmp_path_factory.mktemp("example")
    return sparql_helpers.example_build(Path(root))


@pytest.fixture(scope="session")
def icml2024_build(request, tmp_path_factory) -> Path:
    """``kg build`` of the 2,602 ICML 2024 abstracts of shared/data, once (kept in pytest's
    cache, keyed by the corpus and the kg sources); skipped only when the data is absent."""
    import sparql_helpers

    if sparql_helpers.ICML2024 is None:
        pytest.skip("shared/data/openreview/icml2024.jsonl is not present")
    cache = getattr(request.config, "cache", None)
    root = cache.mkdir("kg-icml2024") if cache else tmp_path_factory.mktemp("icml2024")
    return sparql_helpers.icml2024_build(Path(root))


@pytest.fixture(scope="session")
def store(build_dir):
    from kg.query import sparql

    return sparql.load_store(build_dir, cache=False)


# ------------------------------------------------------------------ a real Neo4j


@pytest.fixture(scope="session")
def neo4j_server():
    """A real Neo4j 5 Community server for the whole session (see tests/neo4j_server).

    Started from its Maven Central jars; no skip: a machine that cannot run it fails
    here with the reason (no java, no mvn, Maven could not resolve the jars, ...).
    """
    from neo4j_server import Neo4jServer

    with Neo4jServer() as server:
        yield server


@pytest.fixture(scope="session")
def neo4j_session_driver(neo4j_server):
    return neo4j_server.driver()


@pytest.fixture
def neo4j_driver(neo4j_session_driver):
    """The session's Neo4j driver, on an emptied database (constraints stay)."""
    neo4j_session_driver.execute_query("MATCH (n) DETACH DELETE n")
    return neo4j_session_driver
