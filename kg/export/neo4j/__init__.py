"""Load the graph into Neo4j (or FalkorDB over Bolt): schema first, then batched ``UNWIND ... MERGE``.

The graph of ``docs/graph-schema.md`` becomes rows (:func:`to_rows`): one row per
node, grouped by label, and one row per relationship, grouped by (type, source
label, target label) so every ``MATCH`` names a label and uses its id index.
Each batch of rows goes through one parameterised statement::

    UNWIND $rows AS row MERGE (n:Paper {id: row.id}) SET n += row.props
    UNWIND $rows AS row MATCH (a:Paper {id: row.src}) MATCH (b:Method {id: row.dst})
      MERGE (a)-[r:PROPOSES]->(b) SET r += row.props

Values are always parameters; labels and relationship types come only from the
fixed schema (:mod:`kg.schema`: :data:`NODE_LABELS`, :data:`RELATIONSHIP_TYPES`) and property keys
must be plain identifiers, so no input text is ever spliced into Cypher. Because
nodes are merged on their stable ids and a relationship on (source, type,
target), loading the same graph twice changes nothing and loading a bigger graph
adds only what is new. Batches run in managed transactions
(``session.execute_write``), which the driver retries on transient errors; a
retried batch is harmless since it only merges. :func:`write_neo4j` reads the graph
in two passes, holding neither the graph nor its rows: one batch per label and
relationship group, and the label of every node id.

Every Neo4j path here is tested against a real Neo4j 5.26 Community server
(``tests/neo4j_server``). The ``falkordb`` dialect serves FalkorDB's Bolt endpoint,
for someone who runs a FalkorDB server; what it needs is in
:mod:`~kg.export.neo4j.falkordb`.

The package, one concern a module:

* :mod:`~kg.export.neo4j.rows`: the graph as rows (:func:`to_rows`, :class:`Rows`);
* :mod:`~kg.export.neo4j.stream`: the rows made one at a time, for a graph not held in memory
  (a build's ``graph.json`` read by :class:`kg.node_link.NodeLinkFile`);
* :mod:`~kg.export.neo4j.statements`: the Cypher text, labels and types checked;
* :mod:`~kg.export.neo4j.load`: :func:`write_neo4j` and :class:`LoadStats`;
* :mod:`~kg.export.neo4j.batches`: rows cut into transactions;
* :mod:`~kg.export.neo4j.falkordb`: what FalkorDB's Bolt endpoint needs;
* :mod:`~kg.export.neo4j.connection`: :func:`connect` and :func:`check_uri`;
* :mod:`~kg.export.neo4j.errors`: :class:`Neo4jExportError`, messages without credentials;
* :mod:`~kg.export.neo4j.progress`: the progress bar;
* :mod:`~kg.export.neo4j.script`: a ``.cypher`` script (:func:`write_cypher_script`).

Examples
--------
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("paper:1", label="Paper", name="A paper", title=None, year=2025, authors=["Ada"])
>>> g.add_node("entity:mnist", label="Dataset", name="MNIST", aliases=[], paper_count=1)
>>> g.add_edge("paper:1", "entity:mnist", key="MENTIONS", type="MENTIONS",
...            mentions=[{"start": 7, "end": 12}], count=1)
'MENTIONS'
>>> rows = to_rows(g)
>>> rows.nodes["Paper"]
[{'id': 'paper:1', 'props': {'name': 'A paper', 'year': 2025, 'authors': ['Ada']}}]
>>> rows.relationships[("MENTIONS", "Paper", "Dataset")]
[{'src': 'paper:1', 'dst': 'entity:mnist', 'props': {'mention_starts': [7], 'mention_ends': [12], 'count': 1}}]
>>> print(relationship_query("MENTIONS", "Paper", "Dataset"))
UNWIND $rows AS row MATCH (a:Paper {id: row.src}) MATCH (b:Dataset {id: row.dst}) MERGE (a)-[r:MENTIONS]->(b) SET r += row.props
"""

from __future__ import annotations

from kg.export.neo4j.connection import BOLT_SCHEMES, check_uri, connect
from kg.export.neo4j.errors import MIN_MASKED_LENGTH, Neo4jExportError, mask_secret
from kg.export.neo4j.falkordb import FALKORDB_MAX_MESSAGE_BYTES
from kg.export.neo4j.load import DEFAULT_BATCH_SIZE, LoadStats, write_neo4j
from kg.export.neo4j.rows import Rows, to_rows
from kg.export.neo4j.script import cypher_literal, iter_cypher_script, write_cypher_script
from kg.export.neo4j.statements import (
    NODE_LABELS,
    RELATIONSHIP_TYPES,
    Dialect,
    node_query,
    relationship_query,
    schema_statements,
)

__all__ = [
    "BOLT_SCHEMES",
    "DEFAULT_BATCH_SIZE",
    "FALKORDB_MAX_MESSAGE_BYTES",
    "MIN_MASKED_LENGTH",
    "NODE_LABELS",
    "RELATIONSHIP_TYPES",
    "Dialect",
    "LoadStats",
    "Neo4jExportError",
    "Rows",
    "check_uri",
    "connect",
    "cypher_literal",
    "iter_cypher_script",
    "mask_secret",
    "node_query",
    "relationship_query",
    "schema_statements",
    "to_rows",
    "write_cypher_script",
    "write_neo4j",
]
