"""A build's ``graph.json`` read one node or edge at a time, so a graph of a million papers
is never held in memory.

``kg build`` writes the node-link file in the order the writers read a graph, nodes by id
and edges by ``(source, target, key)`` (:func:`kg.export.files.write_node_link`), so the
file is itself a :class:`~kg.graphstore.SortedGraph`: :class:`NodeLinkFile` parses it with
ijson as it goes, one item at a time. A file not in that order (one kg did not write) cannot
be read this way: :class:`NotStreamableError` says so at the first item out of place, and
such a file is read whole instead (:meth:`kg.builddir.BuildDir.read_graph`).

Every pass reads through the descriptor opened first, so all passes see one file even if a
new build replaces it meanwhile.

Examples
--------
>>> import json, tempfile
>>> data = {"nodes": [{"label": "Method", "id": "entity:a"}],
...         "edges": [{"type": "USES", "source": "entity:a", "target": "entity:a", "key": "USES"}]}
>>> with tempfile.NamedTemporaryFile("w", suffix=".json") as handle:
...     _ = handle.write(json.dumps(data)); handle.flush()
...     with NodeLinkFile(handle.name) as graph:
...         list(graph.nodes()), list(graph.edges())
([('entity:a', {'label': 'Method'})], [('entity:a', 'entity:a', 'USES', {'type': 'USES'})])
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ijson

from kg.graphstore import Edge, Node, SortedGraph

__all__ = ["GraphFileError", "NodeLinkFile", "NotStreamableError"]


class GraphFileError(ValueError):
    """The file is not a node-link graph (not JSON, or no ``nodes`` list of nodes with ids)."""


class NotStreamableError(ValueError):
    """A node-link graph, but not in kg's order (nodes by id, then edges by source, target,
    key, each edge with its key): it has to be read whole."""


class _Pass:
    """A reader of the shared descriptor with an offset of its own (``os.pread``), so passes
    can run side by side and none moves another's place."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._offset = 0

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            size = max(os.fstat(self._fd).st_size - self._offset, 0)
        data = os.pread(self._fd, size, self._offset)
        self._offset += len(data)
        return data


class NodeLinkFile(SortedGraph):
    """The graph of a node-link ``graph.json``, read again for each pass over it.

    ``nodes()`` and ``edges()`` each parse the file once; memory is one item at a time.
    Use it as a context manager (it holds the file open).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fd = os.open(self.path, os.O_RDONLY)

    def nodes(self) -> Iterator[Node]:
        previous: str | None = None
        for item in self._items("nodes"):
            if not isinstance(item, dict) or "id" not in item:
                raise GraphFileError(f"{self.path}: a node without an id")
            node = item.pop("id")
            order = str(node)
            if previous is not None and order <= previous:
                raise NotStreamableError(f"{self.path}: nodes not in id order ({previous!r}, then {order!r})")
            previous = order
            yield node, item
        if previous is None:
            self._check_graph()

    def edges(self) -> Iterator[Edge]:
        previous: tuple[str, str, str] | None = None
        for item in self._edge_items():
            if not isinstance(item, dict) or "source" not in item or "target" not in item:
                raise GraphFileError(f"{self.path}: an edge without a source or a target")
            if "key" not in item:
                raise NotStreamableError(f"{self.path}: an edge without a key")
            u, v, k = item.pop("source"), item.pop("target"), item.pop("key")
            order = (str(u), str(v), str(k))
            if previous is not None and order <= previous:
                raise NotStreamableError(f"{self.path}: edges not in (source, target, key) order at {order!r}")
            previous = order
            yield u, v, k, item

    def _edge_items(self) -> Iterator[Any]:
        """The items of ``edges``, or of ``links`` (networkx's name before 3.4) when there are none."""
        empty = True
        for item in self._items("edges"):
            empty = False
            yield item
        if empty:
            yield from self._items("links")

    def _items(self, key: str) -> Iterator[Any]:
        try:
            yield from ijson.items(_Pass(self._fd), f"{key}.item", use_float=True)
        except (ijson.JSONError, UnicodeDecodeError) as error:
            raise GraphFileError(f"{self.path} is not JSON: {error}") from None

    def _check_graph(self) -> None:
        """A file without nodes must still be a node-link object: an object with a ``nodes`` key."""
        try:
            events = ijson.parse(_Pass(self._fd))
            if next(events, (None, None, None))[1] != "start_map":
                raise GraphFileError(f"{self.path}: not a JSON object")
            for prefix, event, value in events:
                if prefix == "" and event == "map_key" and value == "nodes":
                    return
        except (ijson.JSONError, UnicodeDecodeError) as error:
            raise GraphFileError(f"{self.path} is not JSON: {error}") from None
        raise GraphFileError(f"{self.path}: no 'nodes' list")

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> NodeLinkFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
