"""The store a query runs on: a build's ``graph.ttl`` (cached on disk when large), an RDF
file, or a ``networkx`` graph streamed in, without files.

Parsing is what costs time and opening an on-disk store almost none, hence the
cache; the measurements are in :mod:`kg.query.sparql`.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox

from kg.builddir import OUTPUT_FILES, STORE_CACHE_DIR, BuildDir
from kg.export.files import process_dir
from kg.query.sparql.errors import SparqlError

GRAPH_FILE = OUTPUT_FILES["turtle"]
"""The file of a build directory that is queried (:class:`kg.builddir.BuildDir`)."""

CACHE_DIR = STORE_CACHE_DIR
"""Where on-disk stores are cached, inside the build directory."""

CACHE_MIN_BYTES = 8 * 1024 * 1024
"""Graph files at least this large are cached on disk (about 150k triples of Turtle)."""


#: The RDF files kg reads, by extension (Oxigraph alone would take a .txt as N-Triples).
RDF_FILES = {".ttl": ox.RdfFormat.TURTLE, ".nt": ox.RdfFormat.N_TRIPLES}


def graph_file(path: str | os.PathLike[str]) -> Path:
    """The RDF file to load: ``path`` itself (``.ttl`` or ``.nt``), or ``path/graph.ttl`` for a
    build directory. Raises FileNotFoundError naming what to do when there is none."""
    path = Path(path)
    target = BuildDir(path).rdf_file()
    if not target.is_file():
        hint = f" (run `kg build ... -o {path}` first)" if path.is_dir() else ""
        raise FileNotFoundError(f"no RDF graph at {target}{hint}")
    if target.suffix.lower() not in RDF_FILES:
        raise FileNotFoundError(
            f"{target} is not an RDF file kg reads ({', '.join(RDF_FILES)}); give a build directory "
            "or its graph.ttl"
        )
    return target


def _rdf_format(path: Path) -> ox.RdfFormat:
    return RDF_FILES[path.suffix.lower()]


def store_dir(path: str | os.PathLike[str], version: str = ox.__version__) -> Path:
    """The cache directory of an on-disk store of ``path``'s graph for an Oxigraph ``version``.

    ``<dir of graph.ttl>/.oxigraph/<file name>-<version>-<size>-<mtime ns>``: a
    rebuilt ``graph.ttl`` (new size or mtime) or another Oxigraph gets its own.
    """
    source = graph_file(path)
    stat = source.stat()
    key = f"{source.name}-{version}-{stat.st_size}-{stat.st_mtime_ns}"
    return source.parent / CACHE_DIR / key


def _remove_stale(cache: Path) -> None:
    """Remove older caches of the same file and version (best effort)."""
    prefix = cache.name.rsplit("-", 2)[0] + "-"
    for old in cache.parent.glob(prefix + "*"):
        if old != cache and old.is_dir() and not old.name.startswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)


def publish_store_dir(tmp: Path, cache: Path) -> Path:
    """Move a complete store from ``tmp`` to ``cache`` (atomic rename; first one wins)."""
    try:
        os.rename(tmp, cache)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not cache.is_dir():
            raise
    _remove_stale(cache)
    return cache


def load_store(path: str | os.PathLike[str], *, cache: bool | None = None) -> ox.Store:
    """A store holding the graph of a build directory (its ``graph.ttl``) or of an RDF file.

    Parameters
    ----------
    path
        A build directory, or a ``.ttl`` / ``.nt`` file.
    cache
        ``None`` (default): use an on-disk cache for files of at least
        :data:`CACHE_MIN_BYTES`; ``True``: always; ``False``: never (and
        leave no files). The cache is read-only once written; if it cannot
        be written (a read-only directory), the graph is loaded in memory.
    """
    source = graph_file(path)
    if cache is None:
        cache = source.stat().st_size >= CACHE_MIN_BYTES
    fmt = _rdf_format(source)
    if not cache:
        store = ox.Store()
        _load(store, source, fmt)
        return store
    target = store_dir(source)
    if target.is_dir():
        try:
            return ox.Store.read_only(str(target))
        except OSError:
            pass  # unreadable cache: load the file instead
    store = ox.Store()
    _load(store, source, fmt)
    try:
        target.parent.mkdir(exist_ok=True)
        tmp = process_dir(target.parent, ".tmp-")  # a killed writer's is removed next time
        try:
            disk = ox.Store(str(tmp))
            disk.bulk_extend(store.quads_for_pattern(None, None, None))
            disk.flush()
            del disk
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        publish_store_dir(tmp, target)
    except OSError:
        pass  # no cache; the in-memory store answers
    return store


def _load(store: ox.Store, source: Path, fmt: ox.RdfFormat) -> None:
    try:
        store.load(path=str(source), format=fmt)
    except SyntaxError as error:
        raise SparqlError(f"{source}: not valid RDF: {error}") from error


class _LineReader(io.RawIOBase):
    """A binary file over an iterator of text chunks (for streaming into pyoxigraph)."""

    def __init__(self, chunks: Iterator[str]) -> None:
        self._chunks = chunks
        self._buffer = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        while len(self._buffer) < len(buffer):
            chunk = next(self._chunks, None)
            if chunk is None:
                break
            self._buffer += chunk.encode("utf-8")
        size = min(len(buffer), len(self._buffer))
        buffer[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size


def store_from_graph(graph, base: str | None = None) -> ox.Store:
    """An in-memory store of a ``networkx`` graph (``docs/graph-schema.md``), without files.

    The triples are those of ``kg.export.rdf.iter_ntriples``, streamed.
    """
    from kg.export.rdf import iter_ntriples

    lines = iter_ntriples(graph, base) if base else iter_ntriples(graph)

    def batches() -> Iterator[str]:
        batch: list[str] = []
        for line in lines:
            batch.append(line)
            if len(batch) == 4096:
                yield "".join(batch)
                batch.clear()
        yield "".join(batch)

    store = ox.Store()
    store.load(io.BufferedReader(_LineReader(batches()), 1 << 16), format=ox.RdfFormat.N_TRIPLES)
    return store
