"""Query a built graph: Cypher in an embedded engine kg starts itself (see :mod:`kg.query.cypher`)."""

from kg.query.cypher import (
    CypherError,
    CypherSession,
    format_json,
    format_table,
    read_graph,
    run_cypher,
)
from kg.query.examples_cypher import EXAMPLE_QUERIES, ExampleQuery, example_query
from kg.query.falkordb_server import FalkorDBError, FalkorDBServer, FalkorDBUnavailable

__all__ = [
    "EXAMPLE_QUERIES",
    "CypherError",
    "CypherSession",
    "ExampleQuery",
    "FalkorDBError",
    "FalkorDBServer",
    "FalkorDBUnavailable",
    "example_query",
    "format_json",
    "format_table",
    "read_graph",
    "run_cypher",
]
