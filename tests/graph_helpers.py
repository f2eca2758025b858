"""Building hand-made kg graphs for tests, the way ``kg.assemble`` stores them (nodes and
edges get every key of :mod:`kg.schema` through ``node_attributes`` / ``edge_attributes``).

>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> add_relation(g, "entity:a", "USES", "entity:b", {"paper": "paper:2", "start": 0, "end": 3})
>>> add_relation(g, "entity:a", "USES", "entity:b", {"paper": "paper:1", "start": 4, "end": 9})
>>> g.edges["entity:a", "entity:b", "USES"]["support"]
2
"""

from __future__ import annotations

import networkx as nx

from kg.assemble import relation_attributes


def add_relation(g: nx.MultiDiGraph, subject: str, kind: str, obj: str, evidence: dict) -> None:
    """Add an entity-entity relation, or add ``evidence`` to it (sorted by paper and
    offset; ``support`` = papers giving evidence), as docs/graph-schema.md describes."""
    before = g.edges[subject, obj, kind]["evidence"] if g.has_edge(subject, obj, key=kind) else []
    merged = sorted([*before, evidence], key=lambda e: (e["paper"], e["start"]))
    g.add_edge(subject, obj, key=kind, **relation_attributes(kind, merged))


def full_graph() -> nx.MultiDiGraph:
    """A small graph built the way ``kg build`` builds it (:class:`kg.assemble.GraphAssembler`
    from resolved records), holding every label and edge type of :mod:`kg.schema`, with a
    value of its own in every key: what the schema tests export and compare."""
    from kg.assemble import assemble_graph
    from kg.resolve import CanonicalEntity
    from kg.schema import ENTITY_LABELS, PREDICATES
    from kg.types import Mention, Paper, PaperRecord, Relation, ResolvedEntity, Result, Source

    abstract = "We propose Zorb, a method; we test it on MNIST for parsing, by accuracy, against BERT."
    names = {"Method": "Zorb", "Dataset": "MNIST", "Task": "parsing", "Metric": "accuracy", "Model": "BERT"}
    ids = {label: f"entity:{names[label].lower()}" for label in ENTITY_LABELS}
    entities = [
        ResolvedEntity(ids[label], names[label], label, label == "Method",
                       [Mention(names[label], abstract.index(names[label]), abstract.index(names[label]) + len(names[label]))],
                       f"pwc:{label.lower()}:{names[label].lower()}", generic=label == "Task")
        for label in ENTITY_LABELS
    ]
    relations = [Relation(ids["Method"], predicate, ids["Dataset"], 3 + n, 40 + n) for n, predicate in enumerate(PREDICATES)]
    result = Result("accuracy", "93.4%", 10, 15, subject=ids["Method"], dataset=ids["Dataset"], baseline=ids["Model"],
                    task=ids["Task"], metric_entity=ids["Metric"], number=93.4, unit="%", delta="+2.8%",
                    direction="higher", setting="zero-shot", sentence_start=0, sentence_end=len(abstract))
    paper = Paper("paper:1", abstract, Source("in.jsonl", 0, 1), title="Zorb", authors=("Ada Lovelace",), year=2025,
                  venue="ICLR", url="https://example.org/zorb", doi="10.1000/zorb", arxiv_id="2501.00001",
                  record_id="openreview:Zorb1")
    record = PaperRecord(paper, entities, relations, [result], ["https://github.com/a/zorb"])
    canonical = {e.id: CanonicalEntity(e.id, e.name, e.type, [e.name + " net"], e.catalogue_id, e.generic)
                 for e in entities}
    return assemble_graph([record], canonical)
