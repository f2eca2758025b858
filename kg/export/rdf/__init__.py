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

from kg.export.rdf.iris import CLASSES, EDGE_PROPERTIES, PREFIXES, node_iri, statement_iri
from kg.export.rdf.rdflib_graph import to_rdf
from kg.export.rdf.serialise import (
    iter_jsonld, iter_ntriples, iter_turtle, turtle_body, turtle_prefixes, write_jsonld, write_ntriples,
    write_turtle, write_turtle_parts,
)
from kg.export.rdf.triples import UNEXPORTED

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
