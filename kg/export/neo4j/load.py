"""Loading rows through a driver: schema first, then batches in managed, retried transactions."""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.export.neo4j.batches import _Planner
from kg.export.neo4j.errors import Neo4jExportError, _describe
from kg.export.neo4j.falkordb import _falkordb_pastes_strings, _read_all
from kg.export.neo4j.progress import _Progress
from kg.export.neo4j.rows import Group, Rows, group_order, label_order
from kg.export.neo4j.statements import (
    NODE_LABELS,
    Dialect,
    Statement,
    node_query,
    relationship_query,
    schema_statements,
)
from kg.export.neo4j.stream import RowSource, row_source
from kg.graphstore import SortedGraph

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


def _count_rows(source: RowSource) -> tuple[dict[str, int], dict[Group, int]]:
    """Rows per label and per relationship group, in load order: a first pass that also
    checks every label, type and end before anything is written."""
    nodes: Counter[str] = Counter(label for label, _ in source.iter_nodes(warn=False))
    groups: Counter[Group] = Counter(group for group, _ in source.iter_relationships(warn=False))
    return (
        {label: nodes[label] for label in sorted(nodes, key=label_order)},
        {group: groups[group] for group in sorted(groups, key=group_order)},
    )


class _Batches:
    """Rows kept per label or relationship group until the group has a batch, then sent in
    managed transactions: what is held is at most one batch per group, whatever the graph."""

    def __init__(self, session, planner: _Planner, stats: LoadStats, bar: _Progress,
                 totals: dict[Any, int]) -> None:
        self.session = session
        self.planner = planner
        self.stats = stats
        self.bar = bar
        self.totals = totals
        self.pending: dict[Any, list[dict[str, Any]]] = {}
        self.done: Counter[Any] = Counter()
        self.step = "writing"

    def add(self, key: str | Group, row: dict[str, Any]) -> None:
        batch = self.pending.setdefault(key, [])
        batch.append(row)
        if len(batch) >= self.planner.batch_size:
            self._send(key)

    def flush(self) -> None:
        """Send what every group still holds, in load order."""
        for key in sorted(self.pending, key=lambda k: label_order(k) if isinstance(k, str) else group_order(k)):
            self._send(key)

    def _send(self, key: str | Group) -> None:
        rows = self.pending.pop(key)
        if isinstance(key, str):
            name, query, target = key, node_query(key), _match_node(key)
        else:
            name, query, target = f"{key[0]} ({key[1]}->{key[2]})", relationship_query(*key), _match_rel(*key)
        for statements, count in self.planner.plan(query, rows, target):
            done = self.done[key]
            self.step = f"writing {name} rows {done + 1}-{done + count} of {self.totals[key]}"
            created, rels, props = self.session.execute_write(_run_statements, statements)
            self.stats.nodes_created += created
            self.stats.relationships_created += rels
            self.stats.properties_set += props
            self.stats.transactions += 1
            self.done[key] += count
            self.bar.update(name, count)


def write_neo4j(
    graph: nx.MultiDiGraph | SortedGraph | Rows,
    driver,
    database: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    dialect: Dialect = "neo4j",
    progress: bool = True,
    *,
    max_retry_time: float = 30.0,
) -> LoadStats:
    """Write ``graph`` through ``driver``: schema, then the nodes, then the relationships.

    The graph is read twice (:mod:`~kg.export.neo4j.stream`): a first pass counts the rows and
    checks every label, type and end before anything is written; the second sends them, each
    label and relationship group in batches of its own. Neither holds the graph: a store or a
    build's ``graph.json`` (:class:`kg.node_link.NodeLinkFile`) is loaded in memory that does
    not grow with it, but for the map of node ids to labels.

    Parameters
    ----------
    graph
        The kg graph: networkx, a :class:`~kg.graphstore.SortedGraph` (a store, a build's
        ``graph.json``), or its :func:`to_rows`.
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
    source = row_source(graph)
    node_counts, group_counts = _count_rows(source)
    by_type: Counter[str] = Counter()
    for (rel_type, _, _), count in group_counts.items():
        by_type[rel_type] += count
    stats = LoadStats(nodes=node_counts, relationships=dict(by_type))
    started = time.perf_counter()
    step = "connecting"
    batches = None
    try:
        with driver.session(
            database=database, max_transaction_retry_time=max_retry_time
        ) as session:
            escape = dialect == "falkordb" and _falkordb_pastes_strings(session)
            planner = _Planner(dialect, batch_size, escape)
            step = "creating the schema"
            _ensure_schema(session, dialect, NODE_LABELS)
            total = sum(node_counts.values()) + sum(group_counts.values())
            with _Progress(total, progress) as bar:
                batches = _Batches(session, planner, stats, bar, {**node_counts, **group_counts})
                for label, row in source.iter_nodes():
                    batches.add(label, row)
                batches.flush()
                for group, row in source.iter_relationships():
                    batches.add(group, row)
                batches.flush()
    except (Neo4jError, DriverError, OSError) as exc:
        step = batches.step if batches is not None else step
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
