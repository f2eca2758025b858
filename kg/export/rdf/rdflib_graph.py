"""The RDF export as an rdflib :class:`~rdflib.Graph`, for code that wants to query or
transform it in memory (the writers do not build one)."""

from __future__ import annotations

import networkx as nx
from rdflib import Graph, Literal, URIRef

from kg.export.rdf.iris import _INSTANCE_PREFIXES, PREFIXES, _check_base
from kg.export.rdf.triples import _Lit, _triples
from kg.namespace import KG_BASE


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
