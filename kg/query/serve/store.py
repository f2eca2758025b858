"""The on-disk store Oxigraph serves: ``graph.ttl`` loaded once per Oxigraph version, then reused."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from kg.export.files import process_dir
from kg.query import sparql
from kg.query.serve.binary import oxigraph_version
from kg.query.serve.errors import ServeError

__all__ = ["prepare_store"]


def prepare_store(graph: str | os.PathLike[str], binary: str) -> tuple[Path, bool]:
    """An on-disk store of the graph for this Oxigraph, cached; ``(path, temporary)``.

    The store is built with ``oxigraph load`` into a temporary directory and
    renamed into place, so a half-built store is never used. If the build
    directory is not writable, the store goes to a temporary directory that
    the caller removes (``temporary`` is True).
    """
    source = sparql.graph_file(graph)
    target = sparql.store_dir(source, oxigraph_version(binary))
    if target.is_dir():
        return target, False
    try:
        target.parent.mkdir(exist_ok=True)
        tmp = process_dir(target.parent, ".tmp-")  # a killed server's is removed next time
        temporary = False
    except OSError:
        tmp = process_dir(tempfile.gettempdir(), "kg-serve-")
        temporary = True
    command = [binary, "load", "--location", str(tmp), "--file", str(source)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ServeError(f"oxigraph load {source} failed: {done.stderr.strip()}")
    if temporary:
        return tmp, True
    return sparql.publish_store_dir(tmp, target), False
