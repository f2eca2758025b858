"""A ``.cypher`` script of the load that ``cypher-shell -f`` runs: the values as escaped literals."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import networkx as nx

from kg.export.neo4j.rows import Rows, to_rows
from kg.export.neo4j.statements import (
    NODE_LABELS,
    Dialect,
    _check_key,
    node_query,
    relationship_query,
    schema_statements,
)

_ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
    "\x00": "\\u0000",
}
_ESCAPE_RE = re.compile("[\\\\'\n\r\t\b\f\x00]")


def cypher_literal(value: Any) -> str:
    """``value`` as a Cypher literal, safe inside a statement.

    Strings are single-quoted with ``\\``, ``'`` and line breaks escaped, so a
    statement always fits on one line; other characters are kept as UTF-8.

    >>> print(cypher_literal({"name": "O'Brien \\"quoted\\" 名前", "year": 2025, "tags": ["a\\nb"]}))
    {name: 'O\\'Brien "quoted" 名前', year: 2025, tags: ['a\\nb']}
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot write the non-finite number {value!r} as a Cypher literal")
        return repr(value)
    if isinstance(value, str):
        return "'" + _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], value) + "'"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return (
            "{"
            + ", ".join(f"{_check_key(str(k))}: {cypher_literal(v)}" for k, v in value.items())
            + "}"
        )
    raise TypeError(f"cannot write {type(value).__name__} as a Cypher literal")


def iter_cypher_script(
    graph: nx.MultiDiGraph | Rows, *, dialect: Dialect = "neo4j", batch_size: int = 500
) -> Iterator[str]:
    """Yield the lines of a ``.cypher`` script that ``cypher-shell -f`` runs.

    Comment lines start with ``//``; every other line is one complete statement
    ending in ``;`` (schema first, then ``UNWIND [...] AS row MERGE ...`` batches
    with the values as escaped literals).
    """
    rows = graph if isinstance(graph, Rows) else to_rows(graph)
    yield "// kg graph: nodes merged on id, relationships on (source, type, target); re-runnable."
    yield f"// {rows.node_total} nodes, {rows.relationship_total} relationships."
    for statement in schema_statements(dialect, NODE_LABELS):
        yield statement + ";"
    groups: list[tuple[str, list[dict[str, Any]]]] = [
        (node_query(label), node_rows) for label, node_rows in rows.nodes.items()
    ]
    groups += [
        (relationship_query(*group), rel_rows) for group, rel_rows in rows.relationships.items()
    ]
    for query, group_rows in groups:
        for i in range(0, len(group_rows), batch_size):
            literal = cypher_literal(group_rows[i : i + batch_size])
            yield query.replace("$rows", literal, 1) + ";"


def write_cypher_script(
    graph: nx.MultiDiGraph | Rows,
    path: str | Path | IO[str],
    *,
    dialect: Dialect = "neo4j",
    batch_size: int = 500,
) -> int:
    """Write :func:`iter_cypher_script` to ``path`` (atomically) or an open text file; returns lines."""
    lines = iter_cypher_script(graph, dialect=dialect, batch_size=batch_size)
    if hasattr(path, "write"):
        count = 0
        for line in lines:
            path.write(line + "\n")  # type: ignore[union-attr]
            count += 1
        return count
    from kg.export.files import atomic_open

    count = 0
    with atomic_open(path) as handle:
        for line in lines:
            handle.write(line + "\n")
            count += 1
    return count
