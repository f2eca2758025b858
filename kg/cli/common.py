"""What every command shares: exit codes and the error console."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

EXIT_OK, EXIT_FAILED, EXIT_SKIPPED = 0, 1, 3
err = Console(stderr=True, soft_wrap=True)  # an error stays one line, however long


def read_build_graph(outdir: Path):
    """``(graph.json path, graph)`` of a build directory; a clear error and exit 1 if absent."""
    from kg.export.files import graph_path, read_graph

    try:
        source = graph_path(outdir)
    except FileNotFoundError as error:
        err.print(f"[red]error:[/] {error}")
        sys.exit(EXIT_FAILED)
    return source, read_graph(source)
