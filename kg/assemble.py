"""Assemble resolved paper records into one ``networkx.MultiDiGraph``.

The graph's shape (labels, edge types, attributes) is declared in :mod:`kg.schema` and
documented in ``docs/graph-schema.md``; every exporter reads that one shape. Assembly is
incremental (``add`` one record at a time) and order-independent: attributes
that collect over papers are sorted by ``finish``.

Examples
--------
>>> from kg.types import Paper, PaperRecord, ResolvedEntity, Mention, Source
>>> paper = Paper("paper:1", "We use MNIST.", Source("a.txt", 0), venue="ICLR", year=2025)
>>> mnist = ResolvedEntity("entity:mnist", "MNIST", "Dataset", False, [Mention("MNIST", 7, 12)])
>>> g = GraphAssembler()
>>> g.add(PaperRecord(paper, [mnist], [], [], []))
>>> graph = g.finish({})
>>> sorted(graph.nodes["entity:mnist"].items())[:3]
[('aliases', []), ('catalogue_id', None), ('generic', False)]
>>> list(graph.edges("paper:1", keys=True))
[('paper:1', 'venue:iclr', 'PUBLISHED_IN'), ('paper:1', 'entity:mnist', 'MENTIONS')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from kg.ids import code_id, venue_id
from kg.resolve import CanonicalEntity
from kg.schema import ENTITY_LABELS, RESULT_EDGES, RESULT_FIELDS, relation_type
from kg.types import PaperRecord, in_abstract

__all__ = ["GraphAssembler", "assemble_graph", "entity_attributes", "paper_elements", "relation_attributes",
           "ENTITY_LABELS", "RESULT_EDGES", "untitled_name"]


def untitled_name(paper_id: str) -> str:
    """The display name of a paper without a title: its id, marked as untitled, never a cut
    piece of its abstract posing as a title.

    >>> untitled_name("paper:3f2a9c0d11e2b4a7")
    'paper:3f2a9c0d11e2b4a7 (no title)'
    """
    return f"{paper_id} (no title)"


def paper_elements(record: PaperRecord) -> tuple[list[tuple[str, dict]], list[tuple[str, str, str, dict]]]:
    """The nodes and edges one paper brings by itself: the paper, its venue, code and results,
    and its edges to the entities it mentions or proposes. Relations and entity attributes
    need every paper: the assemblers (:class:`GraphAssembler`, :class:`kg.graphstore.GraphStore`)
    add them."""
    paper = record.paper
    nodes = [(paper.id, {
        "label": "Paper", "name": paper.title or untitled_name(paper.id), "title": paper.title,
        "abstract": paper.abstract, "year": paper.year, "venue": paper.venue, "doi": paper.doi,
        "arxiv_id": paper.arxiv_id, "url": paper.url, "authors": list(paper.authors),
        "source_path": paper.source.path, "source_index": paper.source.index, "source_id": paper.record_id,
    })]
    edges = []
    if paper.venue:
        vid = venue_id(paper.venue)
        nodes.append((vid, {"label": "Venue", "name": paper.venue}))
        edges.append((paper.id, vid, "PUBLISHED_IN", {"type": "PUBLISHED_IN", "year": paper.year}))
    for entity in record.entities:
        spans = [{"start": m.start, "end": m.end} for m in in_abstract(entity.mentions)]
        kind = "PROPOSES" if entity.proposed else "MENTIONS"
        edges.append((paper.id, entity.id, kind, {"type": kind, "mentions": spans, "count": len(spans)}))
    for url in record.code_urls:
        cid = code_id(url)
        nodes.append((cid, {"label": "CodeRepository", "name": url, "url": url}))
        edges.append((paper.id, cid, "HAS_CODE", {"type": "HAS_CODE"}))
    for n, result in enumerate(record.results):
        rid = f"result:{paper.id}:{n}"
        nodes.append((rid, {
            "label": "Result", "name": f"{result.value} {result.metric}" if result.metric else result.value,
            "value": result.value, "metric": result.metric, "number": result.number, "unit": result.unit,
            "delta": result.delta, "direction": result.direction, "setting": result.setting,
            "paper": paper.id, "start": result.start, "end": result.end,
            "sentence_start": result.sentence_start, "sentence_end": result.sentence_end,
        }))
        edges.append((paper.id, rid, "REPORTS", {"type": "REPORTS"}))
        for kind, attribute in RESULT_FIELDS.items():  # each only where the text states it
            target = getattr(result, attribute)
            if target is not None:
                edges.append((rid, target, kind, {"type": kind}))
    return nodes, edges


def entity_attributes(entity: CanonicalEntity, papers: int, mentions: int, proposed_by: list[str]) -> dict:
    """An entity node's attributes once every paper is in: the resolver's name, type and
    catalogue id, and what the papers say of it."""
    return {
        "label": entity.type, "name": entity.name, "aliases": list(entity.aliases),
        "catalogue_id": entity.catalogue_id, "generic": entity.generic, "paper_count": papers,
        "mention_count": mentions, "proposed_by": proposed_by,
    }


def relation_attributes(kind: str, evidence: list[dict]) -> dict:
    """A relation edge's attributes: ``support`` counts the papers among its ``evidence``."""
    return {"type": kind, "support": len({e["paper"] for e in evidence}), "evidence": evidence}


class GraphAssembler:
    def __init__(self) -> None:
        self.graph = nx.MultiDiGraph()
        self._papers_of: dict[str, set[str]] = {}
        self._mentions_of: dict[str, int] = {}
        self._proposed_by: dict[str, set[str]] = {}
        self._seen_as: dict[str, tuple[str, str, str | None]] = {}
        self._stated_again: set[tuple[str, str, str]] = set()  # relations whose evidence finish() sorts

    def add(self, record: PaperRecord) -> None:
        g, paper = self.graph, record.paper
        nodes, edges = paper_elements(record)
        for node, attrs in nodes:
            g.add_node(node, **attrs)
        for entity in record.entities:
            g.add_node(entity.id)
            self._seen_as.setdefault(entity.id, (entity.type, entity.name, entity.catalogue_id))
            self._papers_of.setdefault(entity.id, set()).add(paper.id)
            self._mentions_of[entity.id] = self._mentions_of.get(entity.id, 0) + len(in_abstract(entity.mentions))
            if entity.proposed:
                self._proposed_by.setdefault(entity.id, set()).add(paper.id)
        for u, v, key, attrs in edges:
            g.add_edge(u, v, key=key, **attrs)
        for rel in record.relations:
            kind = relation_type(rel.predicate)
            evidence = {"paper": paper.id, "start": rel.start, "end": rel.end}
            if g.has_edge(rel.subject, rel.object, key=kind):
                g.edges[rel.subject, rel.object, kind]["evidence"].append(evidence)
                self._stated_again.add((rel.subject, rel.object, kind))
            else:
                g.add_edge(rel.subject, rel.object, key=kind, **relation_attributes(kind, [evidence]))

    def finish(self, entities: Mapping[str, CanonicalEntity]) -> nx.MultiDiGraph:
        """Set entity attributes from the resolver's canonical entities and return the graph.

        Evidence of a relation stated by many papers is sorted here, once: sorting it on
        every ``add`` cost the square of the papers stating it (19 s for 8,000 papers).
        """
        for u, v, kind in self._stated_again:
            data = self.graph.edges[u, v, kind]
            data["evidence"].sort(key=_evidence_order)
            data["support"] = len({e["paper"] for e in data["evidence"]})
        self._stated_again.clear()
        for eid, papers in self._papers_of.items():
            info = entities.get(eid)
            if info is None:  # not resolved: as the first paper named it
                kind, name, catalogue_id = self._seen_as[eid]
                info = CanonicalEntity(eid, name, kind, [], catalogue_id)
            self.graph.add_node(eid, **entity_attributes(info, len(papers), self._mentions_of[eid],
                                                         sorted(self._proposed_by.get(eid, ()))))
        return self.graph


def _evidence_order(evidence: dict) -> tuple[str, int]:
    return (evidence["paper"], evidence["start"])


def assemble_graph(
    records: Iterable[PaperRecord], entities: Mapping[str, CanonicalEntity]
) -> nx.MultiDiGraph:
    """Build the graph of ``records`` in one call."""
    assembler = GraphAssembler()
    for record in records:
        assembler.add(record)
    return assembler.finish(entities)
