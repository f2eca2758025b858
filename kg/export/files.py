"""Graph files: node-link JSON, GraphML, and ``papers.jsonl``; all written atomically.

A file is written next to its target under a temporary name and renamed when
complete, so an interrupted build never leaves a file that looks finished.

XML 1.0 has no way to write most control characters (``\\x0c`` from a PDF's
page break, ``\\x07``), not even as ``&#12;``, so the GraphML (and GEXF) writers
drop them from ids and values (:func:`xml_text`); ``graph.json`` and
``papers.jsonl`` keep the text exactly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any
from xml.etree.ElementTree import _escape_attrib, _escape_cdata  # networkx's GraphML escapes

import networkx as nx

from kg.graphstore import SortedGraph, sorted_graph
from kg.types import PaperRecord

__all__ = [
    "atomic_open",
    "process_dir",
    "read_graph",
    "to_graphml_graph",
    "write_graphml",
    "write_jsonl",
    "write_node_link",
    "xml_text",
]

#: Characters XML 1.0 cannot hold: C0 controls but tab and line ends, lone surrogates, U+FFFE/F.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: Any) -> Any:
    r"""A string without the characters XML cannot hold (other values as they are).

    >>> xml_text("page\x0cbreak\x00")
    'pagebreak'
    """
    return _NOT_XML.sub("", value) if isinstance(value, str) else value


@contextmanager
def atomic_open(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temporary sibling of ``path``; rename it over ``path`` only on success.

    A failed write (a full disk) raises an ``OSError`` that names ``path``.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        encoding = None if "b" in mode else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            yield handle
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        if error.filename is None:  # write() does not say which file it was writing
            raise OSError(error.errno, error.strerror, str(target)) from error
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def process_dir(parent: str | Path, prefix: str) -> Path:
    """A new directory ``<prefix><pid>-<random>`` in ``parent`` (mode 700), made after removing
    the ones of processes that no longer run: a killed process cannot remove its own."""
    remove_orphan_dirs(parent, prefix)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))


def remove_orphan_dirs(parent: str | Path, prefix: str) -> list[Path]:
    """Remove the :func:`process_dir` directories (ours, by uid) of processes that are gone."""
    removed = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        pid = entry.name[len(prefix) :].split("-", 1)[0] if entry.name.startswith(prefix) else ""
        try:
            mine = entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid()
        except OSError:
            continue
        if pid.isdigit() and mine and not _running(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_node_link(graph: nx.MultiDiGraph | SortedGraph, path: str | Path) -> None:
    """``nx.node_link_data`` of the graph with nodes and edges in id order, as ``json.dump``
    with ``indent=1`` writes it, streamed one node or edge at a time (a store never loads whole)."""
    source = sorted_graph(graph)
    meta = graph.graph if isinstance(graph, nx.Graph) else {}
    with atomic_open(path) as handle:
        handle.write('{\n "directed": true,\n "multigraph": true,\n "graph": ' + _json_item(meta, " "))
        handle.write(',\n "nodes": ')
        _json_list(handle, ({**attrs, "id": node} for node, attrs in source.nodes()))
        handle.write(',\n "edges": ')
        _json_list(handle, ({**attrs, "source": u, "target": v, "key": k} for u, v, k, attrs in source.edges()))
        handle.write("\n}")


def _json_item(value: Any, indent: str) -> str:
    """``value`` as ``json.dump(..., indent=1)`` writes it at the depth of ``indent``
    (JSON strings hold no raw line break, so every line can be shifted)."""
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + indent)


def _json_list(handle: IO[str], items: Iterable[Any]) -> None:
    first = True
    for item in items:
        handle.write(("[\n  " if first else ",\n  ") + _json_item(item, "  "))
        first = False
    handle.write("[]" if first else "\n ]")


def _graphml_scalars(attrs: dict) -> dict:
    """GraphML holds scalars only: lists become JSON strings and ``None`` values are left out;
    strings lose the characters XML cannot hold (:func:`xml_text`)."""
    out = {}
    for key, value in attrs.items():
        if value is None:
            continue
        out[key] = xml_text(json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else value)
    return out


def to_graphml_graph(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The graph as GraphML holds it (see :func:`_graphml_scalars`), nodes and edges in id order."""
    out = nx.MultiDiGraph()
    for node, attrs in sorted(graph.nodes(data=True), key=lambda n: n[0]):
        out.add_node(xml_text(node), **_graphml_scalars(attrs))
    for u, v, k, attrs in sorted(graph.edges(keys=True, data=True), key=lambda e: e[:3]):
        out.add_edge(xml_text(u), xml_text(v), key=xml_text(k), **_graphml_scalars(attrs))
    return out


_GRAPHML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}
_GRAPHML_ROOT = (
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
    ' xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
    'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">'
)


def write_graphml(graph: nx.MultiDiGraph | SortedGraph, path: str | Path) -> None:
    """GraphML byte for byte as ``nx.write_graphml(to_graphml_graph(graph))`` writes it, streamed.

    Two passes over the graph: the first finds the ``<key>`` declarations that
    open the file (ids in order of first use, written last first, as networkx
    does), the second writes nodes and edges.
    """
    source = sorted_graph(graph)
    keys: dict[tuple[str, str, str], str] = {}

    def elements():
        for node, attrs in source.nodes():
            yield "node", {"id": xml_text(str(node))}, _graphml_scalars(attrs)
        for u, v, k, attrs in source.edges():
            yield "edge", {"source": xml_text(str(u)), "target": xml_text(str(v)), "id": xml_text(str(k))}, \
                _graphml_scalars(attrs)

    for scope, _, data in elements():
        for name, value in data.items():
            keys.setdefault((str(name), _graphml_type(value), scope), f"d{len(keys)}")
    with atomic_open(path, "wb") as raw:
        handle = _Utf8Writer(raw)
        handle.write("<?xml version='1.0' encoding='utf-8'?>\n" + _GRAPHML_ROOT + "\n  ")
        for (name, kind, scope), key_id in reversed(keys.items()):
            handle.write(f'<key id="{key_id}" for="{scope}" attr.name="{_escape_attrib(name)}" '
                         f'attr.type="{kind}" />\n  ')
        first = True
        for tag, attributes, data in elements():
            handle.write('<graph edgedefault="directed">\n    ' if first else "\n    ")
            first = False
            opening = f"<{tag} " + " ".join(f'{a}="{_escape_attrib(v)}"' for a, v in attributes.items())
            if not data:
                handle.write(opening + " />")
                continue
            handle.write(opening + ">")
            for name, value in data.items():
                key_id = keys[(str(name), _graphml_type(value), tag)]
                text = str(value)
                handle.write(f'\n      <data key="{key_id}">{_escape_cdata(text)}</data>' if text
                             else f'\n      <data key="{key_id}" />')
            handle.write(f"\n    </{tag}>")
        handle.write('<graph edgedefault="directed" />' if first else "\n  </graph>")
        handle.write("\n</graphml>\n")


class _Utf8Writer:
    """Text to a binary file as ElementTree writes it (characters UTF-8 cannot hold as references)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw

    def write(self, text: str) -> None:
        self.raw.write(text.encode("utf-8", "xmlcharrefreplace"))


def _graphml_type(value: Any) -> str:
    try:
        return _GRAPHML_TYPES[type(value)]
    except KeyError:
        raise TypeError(f"GraphML does not hold {type(value).__name__} values") from None


def write_jsonl(records: Iterable[PaperRecord | dict], path: str | Path) -> int:
    """Write one JSON object per line; returns the number written."""
    count = 0
    with atomic_open(path) as handle:
        for record in records:
            data = record.to_json() if isinstance(record, PaperRecord) else record
            handle.write(json.dumps(data, ensure_ascii=False) + "\n")
            count += 1
    return count


def graph_path(path: str | Path) -> Path:
    """``OUTDIR/graph.json`` for a build directory; a file path is returned as is."""
    path = Path(path)
    if path.is_dir():
        path = path / "graph.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no graph here (run `kg build INPUTS -o OUTDIR` first)")
    return path


def read_graph(source: nx.MultiDiGraph | str | Path) -> nx.MultiDiGraph:
    """A graph as it is, or the graph of a build directory or of its node-link ``graph.json``."""
    if isinstance(source, nx.Graph):
        return source
    with open(graph_path(source), encoding="utf-8") as handle:
        data = json.load(handle)
    edges = "edges" if "edges" in data else "links"
    return nx.node_link_graph(data, directed=True, multigraph=True, edges=edges)
