"""Rows cut into transactions; a row too big for one FalkorDB message becomes several statements."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kg.export.neo4j.errors import Neo4jExportError
from kg.export.neo4j.falkordb import (
    FALKORDB_MAX_MESSAGE_BYTES,
    _chunk_list,
    _chunk_string,
    _falkordb_escape,
    _message_size,
    _no_nul,
    _text_size,
)
from kg.export.neo4j.statements import Dialect, Statement, _check_key


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
