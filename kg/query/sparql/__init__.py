"""SPARQL over a built graph with an embedded Oxigraph store (``pyoxigraph``).

A graph built by ``kg build`` is queried from its ``graph.ttl`` (the RDF export
of ``kg.export.rdf``, vocabulary in ``ontology/``)::

    store = load_store("out")                  # out/graph.ttl, cached in out/.oxigraph/
    result = query(store, "SELECT ...")        # a typed QueryResult
    write_results(store, "SELECT ...", sys.stdout.buffer, "csv")   # streamed

Loading, measured on a synthetic graph of 1,002,505 triples (2 cores,
``benchmarks/rdf_bench.py``, figures in ``docs/sparql.md``): parsing
``graph.ttl`` into an in-memory store takes 4.1 s; :func:`store_from_graph`
(the N-Triples stream of ``kg.export.rdf``, no file) takes 8.9 s, most of it
spent generating N-Triples text in Python, so the file is the fast path.
Opening an on-disk store takes 0.03 s. So a ``graph.ttl`` of
:data:`CACHE_MIN_BYTES` or more is cached on disk once (12 s, in
``BUILD_DIR/.oxigraph/``, keyed by the file's name, size and mtime and the
Oxigraph version) and later queries open the cache instead of parsing again.
Smaller files load faster than a cache opens (8 ms against 22 ms for the
5k-triple example graph) and are not cached. ``kg serve`` reads the same cache
when its Oxigraph version matches.

Safety: :func:`check_query` refuses updates and ``SERVICE`` (Oxigraph would
fetch any HTTP URL named there) before a query reaches the engine; the
embedded store is in memory or opened read-only, so nothing can change the
built files. ``FROM <file:...>`` names a graph in the store and never reads
a file.

Modules: :mod:`~kg.query.sparql.checks` refuses updates and ``SERVICE``,
:mod:`~kg.query.sparql.store` loads and caches stores,
:mod:`~kg.query.sparql.results` runs queries and writes their answers,
:mod:`~kg.query.sparql.display` shows them as tables,
:mod:`~kg.query.sparql.example_queries` reads the shipped examples, and
:mod:`~kg.query.sparql.errors` holds the errors.

Examples
--------
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("venue:iclr", label="Venue", name="ICLR")
>>> store = store_from_graph(g)
>>> result = query(store, "SELECT ?name WHERE { ?v a <https://w3id.org/kg/ontology#Venue> ; "
...                       "<http://www.w3.org/2000/01/rdf-schema#label> ?name }")
>>> result.records()
[{'name': 'ICLR'}]
>>> query_form("PREFIX x: <http://x/> ASK { ?s ?p ?o }")
'ASK'
>>> check_query("INSERT DATA { <http://a> <http://b> <http://c> }")
Traceback (most recent call last):
...
kg.query.sparql.errors.QueryRefused: updates are refused: this store is read-only (INSERT)
"""

from kg.query.sparql.checks import check_query, query_form
from kg.query.sparql.display import compact_iri, format_table
from kg.query.sparql.errors import QueryRefused, SparqlError
from kg.query.sparql.example_queries import Example, examples, get_example
from kg.query.sparql.results import GRAPH_FORMATS, RESULT_FORMATS, QueryResult, query, to_python, write_results
from kg.query.sparql.store import (
    CACHE_DIR, CACHE_MIN_BYTES, GRAPH_FILE, graph_file, load_store, store_dir, store_from_graph,
)

# Outside __all__, and importable from here as they were before the package was split.
from kg.query.sparql.display import table_cells as table_cells
from kg.query.sparql.example_queries import EXAMPLES_DIR as EXAMPLES_DIR
from kg.query.sparql.results import Term as Term, syntax_message as syntax_message
from kg.query.sparql.store import RDF_FILES as RDF_FILES, publish_store_dir as publish_store_dir

__all__ = [
    "GRAPH_FILE",
    "CACHE_DIR",
    "CACHE_MIN_BYTES",
    "RESULT_FORMATS",
    "GRAPH_FORMATS",
    "SparqlError",
    "QueryRefused",
    "QueryResult",
    "Example",
    "check_query",
    "query_form",
    "graph_file",
    "store_dir",
    "load_store",
    "store_from_graph",
    "query",
    "write_results",
    "to_python",
    "compact_iri",
    "format_table",
    "examples",
    "get_example",
]
