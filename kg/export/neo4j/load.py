"""Loading rows through a driver: schema first, then batches in managed, retried transactions."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.export.neo4j.batches import _Planner
from kg.export.neo4j.errors import Neo4jExportError, _describe
from kg.export.neo4j.falkordb import _falkordb_pastes_strings, _read_all
from kg.export.neo4j.progress import _Progress
from kg.export.neo4j.rows import Rows, to_rows
from kg.export.neo4j.statements import (
    NODE_LABELS,
    Dialect,
    Statement,
    node_query,
    relationship_query,
    schema_statements,
)

logger = logging.getLogger(__name__)

#: Rows per transaction of :func:`write_neo4j`: the fastest of the sweep measured on
#: Neo4j 5.26 in docs/neo4j-benchmark.md (100, 500, 1000, 5000, 20000 rows).
DEFAULT_BATCH_SIZE = 500


@dataclass
class LoadStats:
    """What :func:`write_neo4j` sent and what the database reported changing."""

    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)
    nodes_created: int = 0
    relationships_created: int = 0
    properties_set: int = 0
    transactions: int = 0
    seconds: float = 0.0

    @property
    def node_total(self) -> int:
        return sum(self.nodes.values())

    @property
    def relationship_total(self) -> int:
        return sum(self.relationships.values())

    @property
    def rate(self) -> float:
        """Rows (nodes + relationships) written per second."""
        total = self.node_total + self.relationship_total
        return total / self.seconds if self.seconds > 0 else float("inf")


def _run_statements(tx, statements: list[Statement]) -> tuple[int, int, int]:
    created = rels = props = 0
    for query, params in statements:
        counters = tx.run(query, params).consume().counters
        created += counters.nodes_created
        rels += counters.relationships_created
        props += counters.properties_set
    return created, rels, props


def _ensure_schema(session, dialect: Dialect, labels: Iterable[str]) -> None:
    labels = list(labels)
    if dialect == "neo4j":
        for statement in schema_statements("neo4j", labels):
            session.run(statement).consume()
        return
    existing = {
        row["label"]
        for row in session.execute_read(
            _read_all, "CALL db.indexes() YIELD label, properties RETURN label, properties"
        )
        if "id" in (row.get("properties") or [])
    }
    for statement, label in zip(schema_statements("falkordb", labels), labels):
        if label not in existing:
            session.run(statement).consume()


def _match_node(label: str) -> Callable[[dict[str, Any]], tuple[str, tuple[str, ...]]]:
    return lambda row: (f"MATCH (x:{label} {{id: $id}})", ("id",))


def _match_rel(rel_type: str, src: str, dst: str):
    return lambda row: (
        f"MATCH (:{src} {{id: $src}})-[x:{rel_type}]->(:{dst} {{id: $dst}})",
        ("src", "dst"),
    )


def write_neo4j(
    graph: nx.MultiDiGraph | Rows,
    driver,
    database: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    dialect: Dialect = "neo4j",
    progress: bool = True,
    *,
    max_retry_time: float = 30.0,
) -> LoadStats:
    """Write ``graph`` through ``driver``: schema, then nodes by label, then relationships.

    Parameters
    ----------
    graph
        The kg graph (or its :func:`to_rows`).
    driver
        A ``neo4j.Driver`` (see :func:`connect`).
    database
        The Neo4j database (``None``: the server's default). FalkorDB must use ``None``.
    batch_size
        Rows per transaction; for ``falkordb`` batches are also cut to stay under
        :data:`FALKORDB_MAX_MESSAGE_BYTES`.
    dialect
        ``"neo4j"`` (Neo4j 5 constraints) or ``"falkordb"`` (indexes; size-limited messages).
    progress
        Show a progress bar on stderr.
    max_retry_time
        Seconds a failing transaction is retried (transient errors, lost connections).

    Returns
    -------
    LoadStats
        Rows written per label and type, and what the database created.

    Raises
    ------
    Neo4jExportError
        When a batch cannot be written after the driver's retries; the batches
        before it are in the database and a re-run completes the load.
    """
    from neo4j.exceptions import ClientError, DriverError, Neo4jError

    if dialect not in ("neo4j", "falkordb"):
        raise ValueError(f"unknown dialect {dialect!r}; expected 'neo4j' or 'falkordb'")
    if dialect == "falkordb" and database is not None:
        raise ValueError("FalkorDB over Bolt has one graph per server: leave database=None")
    rows = graph if isinstance(graph, Rows) else to_rows(graph)
    stats = LoadStats(nodes=rows.node_counts(), relationships=rows.relationship_counts())
    started = time.perf_counter()
    step = "connecting"
    try:
        with driver.session(
            database=database, max_transaction_retry_time=max_retry_time
        ) as session:
            escape = dialect == "falkordb" and _falkordb_pastes_strings(session)
            planner = _Planner(dialect, batch_size, escape)
            step = "creating the schema"
            _ensure_schema(session, dialect, NODE_LABELS)
            work: list[tuple[str, str, list, Callable]] = []
            for label, node_rows in rows.nodes.items():
                work.append((label, node_query(label), node_rows, _match_node(label)))
            for (rel_type, src, dst), rel_rows in rows.relationships.items():
                work.append(
                    (
                        f"{rel_type} ({src}->{dst})",
                        relationship_query(rel_type, src, dst),
                        rel_rows,
                        _match_rel(rel_type, src, dst),
                    )
                )
            with _Progress(rows.node_total + rows.relationship_total, progress) as bar:
                for name, query, group_rows, target in work:
                    done = 0
                    for statements, count in planner.plan(query, group_rows, target):
                        step = f"writing {name} rows {done + 1}-{done + count} of {len(group_rows)}"
                        created, rels, props = session.execute_write(_run_statements, statements)
                        stats.nodes_created += created
                        stats.relationships_created += rels
                        stats.properties_set += props
                        stats.transactions += 1
                        done += count
                        bar.update(name, count)
    except (Neo4jError, DriverError, OSError) as exc:
        detail = _describe(exc, [os.environ.get("NEO4J_PASSWORD")])
        if isinstance(exc, ClientError):  # the request itself is wrong: a re-run fails the same way
            where = f"database {database!r}" if database else "the server's default database"
            raise Neo4jExportError(f"Neo4j refused the load into {where} while {step}: {detail}") from None
        raise Neo4jExportError(
            f"Neo4j load failed while {step}: {detail}. "
            "What was written before stays; re-running the load completes it (it only merges)."
        ) from None
    stats.seconds = time.perf_counter() - started
    logger.info(
        "loaded %d nodes and %d relationships in %.1f s (%d transactions)",
        stats.node_total,
        stats.relationship_total,
        stats.seconds,
        stats.transactions,
    )
    return stats
