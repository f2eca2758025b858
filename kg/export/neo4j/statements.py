"""The Cypher text of a load: labels and types only from the fixed schema, keys plain identifiers.

Values never enter this text; they go as parameters (or, in a script, as
escaped literals), so no input text is ever spliced into Cypher.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

from kg import schema

Dialect = Literal["neo4j", "falkordb"]

#: Node labels of :mod:`kg.schema`: the only labels ever written into Cypher text.
NODE_LABELS: tuple[str, ...] = schema.NODE_LABELS
#: Relationship types of :mod:`kg.schema`: the only types ever written into Cypher text.
RELATIONSHIP_TYPES: tuple[str, ...] = schema.EDGE_TYPES
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

Statement = tuple[str, dict[str, Any]]


def _check_label(label: str) -> str:
    if label not in NODE_LABELS:
        raise ValueError(f"unknown node label {label!r}; expected one of {', '.join(NODE_LABELS)}")
    return label


def _check_type(rel_type: str) -> str:
    if rel_type not in RELATIONSHIP_TYPES:
        raise ValueError(
            f"unknown relationship type {rel_type!r}; expected one of {', '.join(RELATIONSHIP_TYPES)}"
        )
    return rel_type


def _check_key(key: str) -> str:
    if not _IDENTIFIER.match(key):
        raise ValueError(f"property key {key!r} is not a plain identifier")
    return key


def node_query(label: str) -> str:
    """The batched node statement for ``label`` (checked against :data:`NODE_LABELS`)."""
    return f"UNWIND $rows AS row MERGE (n:{_check_label(label)} {{id: row.id}}) SET n += row.props"


def relationship_query(rel_type: str, source_label: str, target_label: str) -> str:
    """The batched relationship statement; both ends are matched by label so the id index is used."""
    return (
        f"UNWIND $rows AS row MATCH (a:{_check_label(source_label)} {{id: row.src}}) "
        f"MATCH (b:{_check_label(target_label)} {{id: row.dst}}) "
        f"MERGE (a)-[r:{_check_type(rel_type)}]->(b) SET r += row.props"
    )


def schema_statements(dialect: Dialect = "neo4j", labels: Iterable[str] = NODE_LABELS) -> list[str]:
    """Uniqueness constraints (Neo4j 5) or indexes (FalkorDB) on each label's ``id``.

    >>> schema_statements("neo4j", ["Paper"])
    ['CREATE CONSTRAINT kg_paper_id IF NOT EXISTS FOR (n:Paper) REQUIRE n.id IS UNIQUE']
    >>> schema_statements("falkordb", ["Paper"])
    ['CREATE INDEX FOR (n:Paper) ON (n.id)']
    """
    if dialect == "neo4j":
        return [
            f"CREATE CONSTRAINT kg_{label.lower()}_id IF NOT EXISTS "
            f"FOR (n:{_check_label(label)}) REQUIRE n.id IS UNIQUE"
            for label in labels
        ]
    if dialect == "falkordb":
        return [f"CREATE INDEX FOR (n:{_check_label(label)}) ON (n.id)" for label in labels]
    raise ValueError(f"unknown dialect {dialect!r}; expected 'neo4j' or 'falkordb'")
