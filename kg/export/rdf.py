"""RDF export of the kg graph: an rdflib graph, or streamed Turtle, N-Triples, JSON-LD.

The input is the ``networkx.MultiDiGraph`` described in ``docs/graph-schema.md``;
the vocabulary is ``ontology/kg.ttl`` (``kgo:``), and ``ontology/shapes.ttl``
holds SHACL shapes every export satisfies. ``ontology/README.md`` has the full
model with an example.

:func:`to_rdf` builds an :class:`rdflib.Graph`. The writers do not: one sorted
stream of triples feeds :func:`iter_ntriples`, :func:`iter_turtle` and
:func:`iter_jsonld` (and the ``write_*`` functions that wrap them), so memory
stays flat and a 600k-triple export takes seconds; rdflib's own Turtle
serialiser took minutes on the same graph. Tests parse every writer's output
with rdflib, oxigraph and rapper and compare it with :func:`to_rdf`.

IRIs
----
Every node id maps to one IRI under ``base`` (default :data:`kg.namespace.KG_BASE`),
the same in every run:

============================  ==========================================
node id                       IRI
============================  ==========================================
``entity:cifar-10``           ``<base>entity/cifar-10``
``paper:3f2a9c0d11e2b4a7``    ``<base>paper/3f2a9c0d11e2b4a7``
``doi:10.1000/xyz``           ``<base>paper/doi/10.1000%2Fxyz``
``arxiv:2401.01234``          ``<base>paper/arxiv/2401.01234``
``venue:iclr``                ``<base>venue/iclr``
``code:github.com/a/b``       ``<base>code/github.com/a/b``
``result:doi:10.1000/xyz:0``  ``<base>result/doi/10.1000%2Fxyz/0``
anything else                 ``<base>node/<whole id, one segment>``
============================  ==========================================

A segment keeps what an IRI path segment may hold (RFC 3987 ``ipchar``:
letters, digits, ``-._~!$&'()*+,;=:@`` and non-ASCII letters) and
percent-encodes the rest as UTF-8, ``/`` included, so a DOI stays one segment;
code paths keep their ``/``.

Provenance
----------
Each entity-entity relation edge (``EVALUATED_ON``, ``COMPARED_WITH``, ``USES``,
``EXTENDS``, ``APPLIED_TO``, ``MEASURED_BY``) becomes the direct triple, for
plain queries, plus one ``rdf:Statement`` that reifies it, for provenance::

    entity:resnet kgo:evaluatedOn entity:cifar-10 .
    <base>statement/entity/resnet/evaluatedOn/entity/cifar-10>
        a rdf:Statement ;
        rdf:subject entity:resnet ; rdf:predicate kgo:evaluatedOn ;
        rdf:object entity:cifar-10 ;
        kgo:support 2 ;
        prov:wasDerivedFrom paper:a, paper:b ;
        prov:qualifiedDerivation <.../evidence/paper/a/10-52>, ... .
    <.../evidence/paper/a/10-52> a kgo:Evidence ;     # a prov:Derivation
        prov:entity paper:a ; kgo:evidenceStart 10 ; kgo:evidenceEnd 52 .

The statement IRI is ``<base>statement/<subject path>/<predicate>/<object path>``
and each evidence IRI appends ``/evidence/<paper path>/<start>-<end>``, so both are
derived from ids alone. Evidence uses the PROV-O qualification pattern: the
unqualified ``prov:wasDerivedFrom <paper>`` answers "which papers state this", the
``prov:Derivation`` (our ``kgo:Evidence``) adds where in the abstract. A result
is its own provenance subject: ``prov:wasDerivedFrom`` its paper, with one
``kgo:Evidence`` at ``<result IRI>/evidence/<start>-<end>``. Standard reification
was chosen over RDF-star / named graphs because every RDF 1.1 tool reads it.
``PROPOSES`` and ``MENTIONS`` are exported as direct triples only: their mention
offsets and per-paper counts stay in the node-link JSON export.

Other choices: instances carry only ``kgo:`` types (the ontology holds the
alignments to FaBiO, schema.org, DCAT, PROV-O, ML-Schema, LPWC); author names
are ``dc:creator`` literals (``dcterms:creator`` has range ``dcterms:Agent``,
which a literal cannot be); strings are plain ``xsd:string`` literals without a
language tag, counts and offsets ``xsd:integer``, years ``xsd:gYear``. Input
file paths (``source_path``) are not exported.

Order: nodes sorted by id; after each node its out-edges sorted by ``(target,
key)``, then the evidence and statements those created. Every subject's triples
are contiguous (one Turtle block, one JSON-LD node object), there are no blank
nodes, and so repeated exports of the same graph are byte-identical whatever the
insertion order or hash seed.

Examples
--------
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("venue:iclr", label="Venue", name="ICLR")
>>> lines = list(iter_ntriples(g, "https://example.org/"))
>>> print(lines[1], end="")
<https://example.org/venue/iclr> <http://www.w3.org/2000/01/rdf-schema#label> "ICLR" .
>>> node_iri("doi:10.1000/XYZ(1)", "https://example.org/")
'https://example.org/paper/doi/10.1000%2FXYZ(1)'
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any, NamedTuple, Union

import networkx as nx
from rdflib import Graph, Literal, URIRef

from kg import schema
from kg.graphstore import SortedGraph, sorted_graph
from kg.namespace import KG_BASE, KGO, KGO_IRI

__all__ = [
    "CLASSES",
    "EDGE_PROPERTIES",
    "PREFIXES",
    "UNEXPORTED",
    "node_iri",
    "statement_iri",
    "to_rdf",
    "iter_ntriples",
    "iter_turtle",
    "iter_jsonld",
    "turtle_body",
    "turtle_prefixes",
    "write_turtle",
    "write_turtle_parts",
    "write_ntriples",
    "write_jsonld",
]

_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_RDFS = "http://www.w3.org/2000/01/rdf-schema#"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_OWL = "http://www.w3.org/2002/07/owl#"
_SKOS = "http://www.w3.org/2004/02/skos/core#"
_DCTERMS = "http://purl.org/dc/terms/"
_DC = "http://purl.org/dc/elements/1.1/"
_SCHEMA = "http://schema.org/"
_PROV = "http://www.w3.org/ns/prov#"

PREFIXES: dict[str, str] = {
    "kgo": KGO_IRI,
    "rdf": _RDF,
    "rdfs": _RDFS,
    "xsd": _XSD,
    "owl": _OWL,
    "skos": _SKOS,
    "dcterms": _DCTERMS,
    "dc": _DC,
    "schema": _SCHEMA,
    "prov": _PROV,
}
"""Vocabulary prefixes bound in Turtle and used as the JSON-LD context."""

_INSTANCE_PREFIXES = ("paper", "entity", "venue", "code", "result")

_TYPE = _RDF + "type"
_LABEL = _RDFS + "label"
_STATEMENT = _RDF + "Statement"
_INTEGER = _XSD + "integer"
_GYEAR = _XSD + "gYear"
_BOOLEAN = _XSD + "boolean"
_DECIMAL = _XSD + "decimal"
_DERIVED = _PROV + "wasDerivedFrom"
_QUALIFIED = _PROV + "qualifiedDerivation"
_PROV_ENTITY = _PROV + "entity"

def _property_name(edge_type: str) -> str:
    """The ontology's name of an edge type: ``RESULT_MEASURED_BY`` -> ``resultMeasuredBy``."""
    first, *rest = edge_type.lower().split("_")
    return first + "".join(word.capitalize() for word in rest)


#: The ``kgo:`` class of each node label of :mod:`kg.schema` (``Paper`` -> ``kgo:Paper``).
CLASSES: dict[str, str] = {label: KGO_IRI + label for label in schema.NODE_LABELS}
#: The ``kgo:`` property of each edge type (``EVALUATED_ON`` -> ``kgo:evaluatedOn``); the
#: entity-entity relations (:data:`kg.schema.RELATION_TYPES`) are also reified.
EDGE_PROPERTIES: dict[str, str] = {kind: KGO_IRI + _property_name(kind) for kind in schema.EDGE_TYPES}
#: Attributes of the graph the export leaves out, by node label or edge type, each with why.
UNEXPORTED: dict[str, dict[str, str]] = {
    "Paper": {"venue": "the kgo:publishedIn link to the venue says it",
              "source_path": "an input file path is not part of the data",
              "source_index": "an input file position is not part of the data"},
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

# --------------------------------------------------------------------------- IRIs

# RFC 3987 ucschar: the non-ASCII characters an IRI may hold unencoded.
_UCSCHAR = (
    "\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    + "".join(f"{chr(plane << 16)}-{chr((plane << 16) | 0xFFFD)}" for plane in range(1, 14))
    + "\U000e1000-\U000efffd"
)
_SEGMENT_UNSAFE = re.compile(rf"[^A-Za-z0-9\-._~!$&'()*+,;=:@{_UCSCHAR}]")
_URL_UNSAFE = re.compile(rf"[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%{_UCSCHAR}]|%(?![0-9A-Fa-f]{{2}})")
_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:(?://[^/?#]*)?")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_BASE_OK = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\x00-\x20<>\"{}|^`\\\x7f]*[/#]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in match.group(0).encode("utf-8", "surrogatepass"))


def _segment(text: str) -> str:
    """One IRI path segment: ``/``, spaces, ``%``, ``?``, ``#`` ... percent-encoded."""
    if text in (".", ".."):
        return text.replace(".", "%2E")
    return _SEGMENT_UNSAFE.sub(_percent, text)


def _url_iri(url: str) -> str:
    """An external URL as an IRI: scheme added if missing, only invalid characters encoded."""
    url = url.strip()
    if not _SCHEME.match(url):
        url = "https://" + url
    start = _URL_START.match(url)
    authority = start.group(0) if start else ""  # may hold an IPv6 "[...]"
    head, hash_, fragment = url[len(authority) :].partition("#")
    authority = re.sub(r"[^\[\]]+", lambda m: _URL_UNSAFE.sub(_percent, m.group(0)), authority)
    return (
        authority
        + _URL_UNSAFE.sub(_percent, head)
        + hash_
        + _URL_UNSAFE.sub(_percent, fragment.replace("#", "%23"))
    )


def _check_base(base: str) -> str:
    if not _BASE_OK.fullmatch(base):
        raise ValueError(
            "base must be an absolute IRI ending in '/' or '#', without spaces or"
            f' <>"{{}}|^`\\: {base!r}'
        )
    return base


def _path(node_id: str) -> str:
    """The IRI of ``node_id`` relative to the base, e.g. ``entity/cifar-10``."""
    kind, sep, rest = node_id.partition(":")
    if sep and rest:
        if kind in ("entity", "venue", "paper"):
            return f"{kind}/{_segment(rest)}"
        if kind in ("doi", "arxiv"):
            return f"paper/{kind}/{_segment(rest)}"
        if kind == "code":
            return "code/" + "/".join(_segment(part) for part in rest.split("/"))
        if kind == "result":
            paper, sep, n = rest.rpartition(":")
            if (
                sep
                and n.isascii()
                and n.isdigit()
                and paper.partition(":")[0] in ("paper", "doi", "arxiv")
            ):
                return f"result/{_path(paper).removeprefix('paper/')}/{n}"
    return f"node/{_segment(node_id)}"


def node_iri(node_id: str, base: str = KG_BASE) -> str:
    """The IRI of a graph node, e.g. ``entity:cifar-10`` -> ``<base>entity/cifar-10``."""
    return _check_base(base) + _path(str(node_id))


def _statement_path(subject: str, edge_type: str, obj: str) -> str:
    local = _property_name(edge_type)
    return f"statement/{_path(subject)}/{local}/{_path(obj)}"


def statement_iri(subject: str, edge_type: str, obj: str, base: str = KG_BASE) -> str:
    """The IRI of the ``rdf:Statement`` reifying a relation edge ``subject -edge_type-> obj``.

    >>> statement_iri("entity:resnet", "EVALUATED_ON", "entity:cifar-10", "https://example.org/")
    'https://example.org/statement/entity/resnet/evaluatedOn/entity/cifar-10'
    """
    return _check_base(base) + _statement_path(str(subject), edge_type, str(obj))


# ------------------------------------------------------------------------ triples


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


# -------------------------------------------------------------------- N-Triples

# N-Triples STRING_LITERAL_QUOTE: '"', '\' and line breaks must be escaped. We
# also escape every other control character (ECHAR where one exists, else
# UCHAR) and U+0085, U+2028, U+2029, which str.splitlines() treats as breaks.
_ESCAPES = {i: f"\\u{i:04X}" for i in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]}
_ESCAPES.update(
    {
        ord("\b"): "\\b",
        ord("\t"): "\\t",
        ord("\n"): "\\n",
        ord("\f"): "\\f",
        ord("\r"): "\\r",
        ord('"'): '\\"',
        ord("\\"): "\\\\",
    }
)


def _nt(term: str | _Lit) -> str:
    if isinstance(term, _Lit):
        text = term.text.translate(_ESCAPES)
        return f'"{text}"^^<{term.datatype}>' if term.datatype else f'"{text}"'
    return f"<{term}>"


def iter_ntriples(graph: nx.MultiDiGraph, base: str = KG_BASE) -> Iterator[str]:
    """Yield the export as N-Triples lines (each ending in ``\\n``) without building a graph.

    The triples are those of :func:`to_rdf`, in the fixed order of the module docstring.
    """
    for s, p, o in _unique(_triples(graph, base)):
        yield f"<{s}> <{p}> {_nt(o)} .\n"


# ----------------------------------------------------------------------- Turtle

# A conservative subset of Turtle's PN_LOCAL: ASCII, no escapes, no final dot.
_PN_LOCAL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?")
_TURTLE_INTEGER = re.compile(r"[+-]?[0-9]+")


def _namespaces(base: str) -> dict[str, str]:
    """Every prefix the writers use: the vocabularies and one per kind of instance."""
    return {**PREFIXES, **{prefix: f"{base}{prefix}/" for prefix in _INSTANCE_PREFIXES}}


class _Compactor:
    """Writes IRIs as ``prefix:local`` where a bound namespace and a safe local name allow."""

    def __init__(self, namespaces: dict[str, str]) -> None:
        # longest namespace first, so the most specific prefix wins
        self._namespaces = sorted(namespaces.items(), key=lambda item: -len(item[1]))
        self._cache: dict[str, str | None] = {}

    def __call__(self, iri: str) -> str | None:
        if iri in self._cache:
            return self._cache[iri]
        name = None
        for prefix, namespace in self._namespaces:
            if iri.startswith(namespace):
                if _PN_LOCAL.fullmatch(local := iri[len(namespace) :]):
                    name = f"{prefix}:{local}"
                break
        if len(self._cache) < 65536:
            self._cache[iri] = name
        return name


def iter_turtle(graph: nx.MultiDiGraph, base: str = KG_BASE) -> Iterator[str]:
    """Yield the export as Turtle, streamed: one block per subject, readable prefixes.

    The triples are those of :func:`to_rdf`; writing them from the sorted stream
    (rather than through rdflib's serialiser, some 40 times slower on large
    graphs) keeps memory flat and the output byte-identical across runs.
    """
    base = _check_base(base)
    yield from turtle_prefixes(base)
    yield from turtle_body(graph, base)


def turtle_prefixes(base: str = KG_BASE) -> Iterator[str]:
    """The ``@prefix`` lines that start the Turtle export."""
    for prefix, namespace in sorted(_namespaces(_check_base(base)).items()):
        yield f"@prefix {prefix}: <{namespace}> .\n"


def turtle_body(graph: nx.MultiDiGraph | SortedGraph, base: str = KG_BASE) -> Iterator[str]:
    """The Turtle export after its prefixes: one block per subject. The body of a graph is the
    bodies of consecutive ranges of its nodes, one after the other (:mod:`kg.cluster` writes
    them apart), as no subject's triples span two nodes (:func:`_triples`)."""
    base = _check_base(base)
    compact = _Compactor(_namespaces(base))

    def iri(value: str) -> str:
        return compact(value) or f"<{value}>"

    def obj(term: str | _Lit) -> str:
        if not isinstance(term, _Lit):
            return iri(term)
        text = f'"{term.text.translate(_ESCAPES)}"'
        if term.datatype is None:
            return text
        if term.datatype == _INTEGER and _TURTLE_INTEGER.fullmatch(term.text):
            return term.text
        return f"{text}^^{iri(term.datatype)}"

    subject = predicate = None
    for s, p, o in _unique(_triples(graph, base)):
        if s != subject:
            if subject is not None:
                yield " .\n"
            subject, predicate = s, p
            yield f"\n{iri(s)}\n    {'a' if p == _TYPE else iri(p)} {obj(o)}"
        elif p != predicate:
            predicate = p
            yield f" ;\n    {'a' if p == _TYPE else iri(p)} {obj(o)}"
        else:
            yield f",\n        {obj(o)}"
    if subject is not None:
        yield " .\n"


# ---------------------------------------------------------------------- JSON-LD


def iter_jsonld(graph: nx.MultiDiGraph, base: str = KG_BASE) -> Iterator[str]:
    """Yield the export as a JSON-LD document, streamed: one node object per subject.

    The context maps the prefixes of :func:`iter_turtle`; IRIs are compacted
    with them, strings are JSON strings, integers JSON numbers.
    """
    base = _check_base(base)
    namespaces = _namespaces(base)
    compact = _Compactor(namespaces)

    def iri(value: str) -> str:
        return compact(value) or value

    def value(term: str | _Lit) -> Any:
        if not isinstance(term, _Lit):
            return {"@id": iri(term)}
        if term.datatype is None:
            return term.text
        if term.datatype == _INTEGER and _TURTLE_INTEGER.fullmatch(term.text):
            number = int(term.text)
            if abs(number) < 10**21:  # JSON-LD reads larger numbers as xsd:double
                return number
        return {"@value": term.text, "@type": iri(term.datatype)}

    def dump(node: dict[str, Any]) -> str:
        for key, values in node.items():
            if isinstance(values, list) and len(values) == 1:
                node[key] = values[0]
        text = json.dumps(node, ensure_ascii=False, indent=2)
        return "    " + text.replace("\n", "\n    ")

    context = json.dumps(dict(sorted(namespaces.items())), ensure_ascii=False, indent=2)
    yield '{\n  "@context": ' + context.replace("\n", "\n  ") + ',\n  "@graph": ['
    node: dict[str, Any] | None = None
    subject, separator = None, "\n"
    for s, p, o in _unique(_triples(graph, base)):
        if s != subject:
            if node is not None:
                yield separator + dump(node)
                separator = ",\n"
            subject, node = s, {"@id": iri(s)}
        if p == _TYPE and isinstance(o, str):
            node.setdefault("@type", []).append(iri(o))
        else:
            node.setdefault(iri(p), []).append(value(o))
    if node is not None:
        yield separator + dump(node)
    yield "\n  ]\n}\n"


# ----------------------------------------------------------------------- rdflib


def _rdflib_term(term: str | _Lit) -> URIRef | Literal:
    if isinstance(term, _Lit):
        return Literal(term.text, datatype=URIRef(term.datatype) if term.datatype else None)
    return URIRef(term)


def _bind(rdf: Graph, base: str) -> None:
    for prefix, namespace in PREFIXES.items():
        rdf.bind(prefix, namespace, override=True, replace=True)
    for prefix in _INSTANCE_PREFIXES:
        rdf.bind(prefix, f"{base}{prefix}/", override=True, replace=True)


def to_rdf(graph: nx.MultiDiGraph, base: str = KG_BASE) -> Graph:
    """The export as an rdflib :class:`~rdflib.Graph`, with readable prefixes bound.

    Parameters
    ----------
    graph
        The graph of ``docs/graph-schema.md``.
    base
        Instance IRIs start with it; an absolute IRI ending in ``/`` or ``#``.

    Raises
    ------
    ValueError
        For a bad ``base``, or a node label or edge type the schema does not know.
    """
    rdf = Graph(bind_namespaces="core")
    _bind(rdf, _check_base(base))
    cache: dict[str, URIRef] = {}

    def iri(value: str) -> URIRef:
        term = cache.get(value)
        if term is None:
            term = cache[value] = URIRef(value)
        return term

    rdf.addN(
        (iri(s), iri(p), iri(o) if isinstance(o, str) else _rdflib_term(o), rdf)
        for s, p, o in _triples(graph, base)
    )
    return rdf


# ---------------------------------------------------------------------- writers

PathOrFile = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


def _write(chunks: Iterable[str], destination: PathOrFile) -> None:
    """Write text chunks as UTF-8 to a path (atomically), a text file or a binary file."""
    if isinstance(destination, (str, os.PathLike)):
        from kg.builddir import atomic_open

        with atomic_open(destination, "wb") as out:  # a hidden .part, renamed when complete
            for chunk in chunks:
                out.write(chunk.encode("utf-8"))
    elif isinstance(destination, io.TextIOBase):
        destination.writelines(chunks)
    else:
        for chunk in chunks:
            destination.write(chunk.encode("utf-8"))  # type: ignore[arg-type]


def _batched(lines: Iterator[str], size: int = 4096) -> Iterator[str]:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == size:
            yield "".join(batch)
            batch.clear()
    if batch:
        yield "".join(batch)


def write_ntriples(graph: nx.MultiDiGraph, path_or_file: PathOrFile, base: str = KG_BASE) -> None:
    """Stream the export as N-Triples (UTF-8) to a path or an open text or binary file."""
    _write(_batched(iter_ntriples(graph, base)), path_or_file)


def write_turtle(graph: nx.MultiDiGraph, path: PathOrFile, base: str = KG_BASE) -> None:
    """Stream the export as Turtle (UTF-8) to a path or an open text or binary file."""
    _write(_batched(iter_turtle(graph, base)), path)


def write_turtle_parts(bodies: Iterable[str], path: PathOrFile, base: str = KG_BASE) -> None:
    """The Turtle export from the :func:`turtle_body` texts of consecutive ranges of a graph's
    nodes (written apart, :mod:`kg.cluster`): byte for byte what :func:`write_turtle` writes."""
    _write(itertools.chain(turtle_prefixes(base), bodies), path)


def write_jsonld(graph: nx.MultiDiGraph, path: PathOrFile, base: str = KG_BASE) -> None:
    """Stream the export as JSON-LD (UTF-8) to a path or an open text or binary file."""
    _write(_batched(iter_jsonld(graph, base)), path)
