"""What every command shares: exit codes and the error console."""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
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


@contextmanager
def stop_on_sigterm():
    """SIGTERM ends the command as Ctrl-C does, so ``finally`` blocks run: a server the
    command started is stopped and its temporary directory removed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
