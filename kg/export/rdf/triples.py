"""The triples of the RDF export: what each node and edge of the graph gives, in one fixed order.

One sorted stream of plain tuples (IRIs as ``str``, literals as :class:`_Lit`) feeds every
writer and :func:`~kg.export.rdf.to_rdf`, so they all export the same triples.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import networkx as nx

from kg import schema
from kg.export.rdf.iris import (
    _BOOLEAN, _DC, _DCTERMS, _DECIMAL, _DERIVED, _GYEAR, _INTEGER, _LABEL, _OWL, _PROV_ENTITY, _QUALIFIED, _RDF,
    _SCHEMA, _SKOS, _STATEMENT, _TYPE, CLASSES, EDGE_PROPERTIES, _check_base, _path, _statement_path, _url_iri,
)
from kg.graphstore import SortedGraph, sorted_graph
from kg.namespace import KGO


#: Attributes of the graph the export leaves out, by node label or edge type, each with why.
UNEXPORTED: dict[str, dict[str, str]] = {
    "Paper": {"venue": "the kgo:publishedIn link to the venue says it",
              "source_path": "an input file path is not part of the data",
              "source_index": "an input file position is not part of the data",
              "source_id": "an input record's own key; the paper's IRI, DOI, arXiv id and URL identify it"},
    **{label: {"proposed_by": "the kgo:proposes links say it"} for label in schema.ENTITY_LABELS},
    "PUBLISHED_IN": {"year": "the paper's dcterms:date says it"},
    **{kind: {"mentions": "mention offsets stay in the node-link JSON",
              "count": "per-paper counts stay in the node-link JSON"} for kind in schema.MENTION_EDGES},
}
_ENTITY_LABELS = frozenset(schema.ENTITY_LABELS)
_RELATIONS = frozenset(schema.RELATION_TYPES)


class _Lit(NamedTuple):
    """A literal: its lexical form and datatype IRI (``None``: a plain ``xsd:string``)."""

    text: str
    datatype: str | None = None


# An object is an IRI (str) or a literal; subjects and predicates are IRIs.
_Triple = tuple[str, str, "str | _Lit"]


_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(value: Any) -> str | None:
    """A non-empty string, with lone surrogates (unencodable) replaced by U+FFFD."""
    if not isinstance(value, str) or not value:
        return None
    if _SURROGATE.search(value):
        value = value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


def _int(value: Any) -> _Lit | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return _Lit(str(value), _INTEGER)


def _decimal(value: Any) -> _Lit | None:
    """A finite number as an ``xsd:decimal`` (plain digits: ``93.4``, ``5.0``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value in (
            float("inf"), float("-inf")):
        return None
    text = f"{float(value):.10f}".rstrip("0")
    return _Lit(text + "0" if text.endswith(".") else text, _DECIMAL)


def _year(value: Any) -> _Lit | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return _Lit(f"{'-' if value < 0 else ''}{abs(value):04d}", _GYEAR)


def _evidence(ev: str, paper: str, start: Any, end: Any) -> Iterator[_Triple]:
    """The triples of one ``kgo:Evidence`` node (the link to it is the caller's)."""
    yield ev, _TYPE, str(KGO.Evidence)
    yield ev, _PROV_ENTITY, paper
    if (lit := _int(start)) is not None:
        yield ev, str(KGO.evidenceStart), lit
    if (lit := _int(end)) is not None:
        yield ev, str(KGO.evidenceEnd), lit


def _plain(value: Any) -> _Lit | None:
    """A non-empty string as a plain literal."""
    text = _text(value)
    return None if text is None else _Lit(text)


#: A result's attributes, in export order: the property and the literal each becomes.
_RESULT_VALUES = (
    ("value", KGO.value, _plain), ("metric", KGO.metricName, _plain), ("number", KGO.numericValue, _decimal),
    ("unit", KGO.unit, _plain), ("delta", KGO.delta, _plain), ("direction", KGO.direction, _plain),
    ("setting", KGO.setting, _plain),
)


def _paper_link(data: dict[str, Any], node_id: str, key: str, prefix: str) -> str | None:
    """The paper's DOI or arXiv id: its attribute ``key``, else its id after ``prefix``."""
    return _text(data.get(key)) or (node_id[len(prefix):] if node_id.startswith(prefix) else None)


def _paper_triples(node_id: str, data: dict[str, Any], s: str) -> Iterator[_Triple]:
    """A paper's identifier, title, abstract, authors (once each), year and links."""
    yield s, _DCTERMS + "identifier", _Lit(_text(node_id) or node_id)
    for key in ("title", "abstract"):
        if (text := _text(data.get(key))) is not None:
            yield s, _DCTERMS + key, _Lit(text)
    seen: set[str] = set()
    for author in data.get("authors") or ():
        if (author := _text(author)) is not None and author not in seen:
            seen.add(author)
            yield s, _DC + "creator", _Lit(author)
    if (year := _year(data.get("year"))) is not None:
        yield s, _DCTERMS + "date", year
    if doi := _paper_link(data, node_id, "doi", "doi:"):
        yield s, _OWL + "sameAs", _url_iri("https://doi.org/" + doi)
    if arxiv := _paper_link(data, node_id, "arxiv_id", "arxiv:"):
        yield s, _OWL + "sameAs", _url_iri("https://arxiv.org/abs/" + arxiv)
    if (url := _text(data.get("url"))) is not None:
        yield s, _SCHEMA + "url", _url_iri(url)


def _entity_triples(data: dict[str, Any], s: str, name: str | None) -> Iterator[_Triple]:
    """An entity's aliases other than its name, catalogue id, generic flag and counts."""
    for alias in sorted({a for a in map(_text, data.get("aliases") or ()) if a}):
        if alias != name:
            yield s, _SKOS + "altLabel", _Lit(alias)
    if (catalogue := _text(data.get("catalogue_id"))) is not None:
        yield s, str(KGO.catalogueId), _Lit(catalogue)
        if catalogue.startswith("pwc:"):
            yield s, _DCTERMS + "identifier", _Lit(catalogue)
    if data.get("generic"):
        yield s, str(KGO.generic), _Lit("true", _BOOLEAN)
    for key, prop in (("paper_count", KGO.paperCount), ("mention_count", KGO.mentionCount)):
        if (count := _int(data.get(key))) is not None:
            yield s, str(prop), count


def _result_triples(data: dict[str, Any], s: str, base: str, later: list[_Triple]) -> Iterator[_Triple]:
    """A result's values, then its paper and evidence (the evidence's triples to ``later``)."""
    for key, prop, literal in _RESULT_VALUES:
        if (lit := literal(data.get(key))) is not None:
            yield s, str(prop), lit
    if (paper_id := data.get("paper")) is None:
        return
    paper = base + _path(str(paper_id))
    start, end = data.get("start"), data.get("end")
    ev = f"{s}/evidence/{start}-{end}"
    yield s, _DERIVED, paper
    yield s, _QUALIFIED, ev
    later.extend(_evidence(ev, paper, start, end))
    for key, prop in (("sentence_start", KGO.sentenceStart), ("sentence_end", KGO.sentenceEnd)):
        if (lit := _int(data.get(key))) is not None:
            later.append((ev, str(prop), lit))


def _node_triples(
    node_id: str, data: dict[str, Any], s: str, base: str, later: list[_Triple]
) -> Iterator[_Triple]:
    """Triples about node ``s``; triples about other subjects (evidence) go to ``later``."""
    label = data.get("label")
    if label not in CLASSES:
        raise ValueError(f"node {node_id!r}: unknown label {label!r}")
    yield s, _TYPE, CLASSES[label]
    name = _text(data.get("name"))
    if name is not None:
        yield s, _LABEL, _Lit(name)
    if label == "Paper":
        yield from _paper_triples(node_id, data, s)
    elif label in _ENTITY_LABELS:
        yield from _entity_triples(data, s, name)
    elif label == "CodeRepository":
        url = _text(data.get("url")) or node_id.removeprefix("code:")
        yield s, _SCHEMA + "codeRepository", _url_iri(url)
    elif label == "Result":
        yield from _result_triples(data, s, base, later)


def _statement_triples(
    u: str, v: str, edge_type: str, data: dict[str, Any], base: str
) -> Iterator[_Triple]:
    """The ``rdf:Statement`` reifying a relation edge, then its evidence nodes."""
    st = base + _statement_path(u, edge_type, v)
    yield st, _TYPE, _STATEMENT
    yield st, _RDF + "subject", base + _path(u)
    yield st, _RDF + "predicate", EDGE_PROPERTIES[edge_type]
    yield st, _RDF + "object", base + _path(v)
    evidence = sorted(
        {
            (str(e["paper"]), e.get("start"), e.get("end"))
            for e in data.get("evidence") or ()
            if e.get("paper") is not None
        },
        key=lambda e: (e[0], str(e[1]), str(e[2])),
    )
    papers = sorted({paper for paper, _, _ in evidence})
    support = data.get("support")
    if support is None:
        support = len(papers)
    yield st, str(KGO.support), _int(support) or _Lit(str(support), _INTEGER)
    for paper in papers:
        yield st, _DERIVED, base + _path(paper)
    nodes = [
        (f"{st}/evidence/{_path(p)}/{start}-{end}", p, start, end) for p, start, end in evidence
    ]
    for ev, *_ in nodes:
        yield st, _QUALIFIED, ev
    for ev, paper, start, end in nodes:
        yield from _evidence(ev, base + _path(paper), start, end)


def _triples(graph: nx.MultiDiGraph | SortedGraph, base: str) -> Iterator[_Triple]:
    """Every triple of the export, in a fixed order, each subject's triples together.

    Nodes come sorted by id, each followed by its out-edges sorted by ``(target,
    key)``, then by the evidence and statements those created. ``graph`` is a
    networkx graph or a :class:`~kg.graphstore.GraphStore` (read as it streams).
    """
    base = _check_base(base)
    for node_id, attrs, edges in sorted_graph(graph).adjacency():
        u = str(node_id)
        s = base + _path(u)
        later: list[_Triple] = []
        yield from _node_triples(u, attrs, s, base, later)
        for _, target, key, data in edges:
            v, edge_type = str(target), str(data.get("type", key))
            if edge_type not in EDGE_PROPERTIES:
                raise ValueError(f"edge {u!r} -> {v!r}: unknown type {edge_type!r}")
            yield s, EDGE_PROPERTIES[edge_type], base + _path(v)
            if edge_type in _RELATIONS:
                later.extend(_statement_triples(u, v, edge_type, data, base))
        yield from later


def _unique(triples: Iterator[_Triple]) -> Iterator[_Triple]:
    """Drop a triple equal to the one before (the graph may state a fact twice)."""
    last: _Triple | None = None
    for triple in triples:
        if triple != last:
            last = triple
            yield triple
