"""The directory ``kg build`` writes: every file and cache name in it, reading its graph back,
and writing files atomically.

A build directory holds the outputs of :data:`OUTPUT_FILES`, ``summary.json`` (written
last: without it the build did not finish), the lock a running build holds, the extraction
cache, and what later commands add: the SPARQL store cache, ``kg viz``'s page, ``kg map``'s
directory. :class:`BuildDir` is where each of these names lives; every command reads a build
through it.

A file is written next to its target under a temporary name and renamed when complete
(:func:`atomic_open`), so an interrupted write never leaves a file that looks finished.

Examples
--------
>>> build = BuildDir("out")
>>> build.papers, build.output("turtle"), build.extractions
(PosixPath('out/papers.jsonl'), PosixPath('out/graph.ttl'), PosixPath('out/.kg-cache/extractions.sqlite'))
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

    from kg.node_link import NodeLinkFile

__all__ = [
    "BUILD_MARKS", "BuildDir", "CACHE_DIR", "EXTRACTIONS_FILE", "IncompleteBuildError", "LOCK_FILE", "MAP_DIR",
    "OUTPUT_FILES", "PAGE_FILE", "STAGING_PREFIX", "STORE_CACHE_DIR", "SUMMARY_FILE", "atomic_open",
]

#: The files a build writes, by kind (``kg build``'s ``outputs``).
OUTPUT_FILES = {
    "papers": "papers.jsonl",
    "manifest": "manifest.jsonl",
    "node_link": "graph.json",
    "graphml": "graph.graphml",
    "turtle": "graph.ttl",
    "results": "results.csv",
}
#: What a build writes last: a directory without it holds no complete build.
SUMMARY_FILE = "summary.json"
#: Held (``flock``) while a build runs.
LOCK_FILE = ".kg-build.lock"
#: The extraction cache: records a re-run does not extract again.
CACHE_DIR = ".kg-cache"
EXTRACTIONS_FILE = "extractions.sqlite"
#: A build writes into ``.kg-staging-*/`` and moves the files into place when all are written.
STAGING_PREFIX = ".kg-staging-"
#: On-disk SPARQL stores of ``graph.ttl`` (:mod:`kg.query.sparql`, ``kg serve``).
STORE_CACHE_DIR = ".oxigraph"
#: Where ``kg viz`` and ``kg map`` write by default.
PAGE_FILE = "graph.html"
MAP_DIR = "map"
#: Files only ``kg build`` writes: a directory with one of them and no ``summary.json`` holds
#: a build that did not finish.
BUILD_MARKS = (LOCK_FILE, OUTPUT_FILES["manifest"], OUTPUT_FILES["papers"])


class IncompleteBuildError(ValueError):
    """The directory holds a build that did not finish (no ``summary.json``)."""


class BuildDir:
    """A ``kg build`` output directory.

    ``path`` is the directory, or one of its graph files given in its place (commands take
    ``BUILD_DIR`` or its ``graph.json``); :attr:`directory` is the directory either way.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"BuildDir({str(self.path)!r})"

    @property
    def directory(self) -> Path:
        return self.path.parent if self.path.is_file() else self.path

    def output(self, kind: str) -> Path:
        """The file of an output kind (:data:`OUTPUT_FILES`), e.g. ``turtle`` -> ``graph.ttl``."""
        return self.directory / OUTPUT_FILES[kind]

    @property
    def papers(self) -> Path:
        return self.output("papers")

    @property
    def manifest(self) -> Path:
        return self.output("manifest")

    @property
    def summary(self) -> Path:
        return self.directory / SUMMARY_FILE

    @property
    def lock(self) -> Path:
        return self.directory / LOCK_FILE

    @property
    def cache(self) -> Path:
        return self.directory / CACHE_DIR

    @property
    def extractions(self) -> Path:
        return self.cache / EXTRACTIONS_FILE

    @property
    def page(self) -> Path:
        return self.directory / PAGE_FILE

    @property
    def map(self) -> Path:
        return self.directory / MAP_DIR

    def incomplete(self) -> bool:
        """A directory ``kg build`` wrote into without finishing (no ``summary.json``, which is
        written last). A directory holding only a ``graph.json`` made some other way is not a
        build at all, so not an incomplete one."""
        path = self.path
        started = path.is_dir() and any((path / name).exists() for name in BUILD_MARKS)
        return started and not (path / SUMMARY_FILE).is_file()

    def check_complete(self) -> None:
        """Raise :class:`IncompleteBuildError` for a build that did not finish."""
        if self.incomplete():
            raise IncompleteBuildError(f"{self.path} holds no complete kg build (no summary.json): "
                                       f"run `kg build INPUTS -o {self.path}` again")

    def graph_file(self) -> Path:
        """The node-link ``graph.json`` (or the file given in its place); FileNotFoundError
        saying how to make one when there is none."""
        path = self.path / OUTPUT_FILES["node_link"] if self.path.is_dir() else self.path
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no graph here (run `kg build INPUTS -o BUILD_DIR` first)")
        return path

    def rdf_file(self) -> Path:
        """The ``graph.ttl`` SPARQL queries load, or the RDF file given in its place
        (:func:`kg.query.sparql.graph_file` checks it is there and readable)."""
        return self.path / OUTPUT_FILES["turtle"] if self.path.is_dir() else self.path

    def read_graph(self) -> nx.MultiDiGraph:
        """The graph of :meth:`graph_file` (docs/graph-schema.md)."""
        import networkx as nx

        with open(self.graph_file(), encoding="utf-8") as handle:
            data = json.load(handle)
        edges = "edges" if "edges" in data else "links"
        return nx.node_link_graph(data, directed=True, multigraph=True, edges=edges)

    def open_graph(self) -> NodeLinkFile:
        """The graph of :meth:`graph_file` read one node or edge at a time (:mod:`kg.node_link`):
        what the exporters of a large build read, never holding the graph."""
        from kg.node_link import NodeLinkFile

        return NodeLinkFile(self.graph_file())

    def open(self, name: str, mode: str = "w") -> Any:
        """Write the file ``name`` of the directory atomically (:func:`atomic_open`)."""
        return atomic_open(self.directory / name, mode)


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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
