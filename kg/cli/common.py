"""What every command shares: exit codes, the error console, reading a build (:class:`kg.builddir.BuildDir`)."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markup import escape

EXIT_OK, EXIT_FAILED, EXIT_SKIPPED = 0, 1, 3
err = Console(stderr=True, soft_wrap=True)  # an error stays one line, however long
T = TypeVar("T")


def require_complete_build(path: Path) -> None:
    """A directory ``kg build`` wrote into must hold a complete build (``summary.json``, written
    last): else a clear error and exit 1, rather than answers from half-written or mixed files.
    A directory holding only a ``graph.json`` made some other way is read as it is."""
    from kg.builddir import BuildDir

    if BuildDir(path).incomplete():
        err.print(
            f"[red]error:[/] {escape(str(path))} has no summary.json: it holds no complete kg build "
            f"(a build failed, was stopped or is still running there); run `kg build INPUTS -o {escape(str(path))}`",
            highlight=False,
        )
        sys.exit(EXIT_FAILED)


def _graph_file(build) -> Path:
    """The build's ``graph.json``; a clear error and exit 1 if there is none."""
    try:
        return build.graph_file()
    except FileNotFoundError as error:
        err.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
        sys.exit(EXIT_FAILED)


def _not_a_graph(source: Path, error: BaseException) -> NoReturn:
    err.print(f"[red]error:[/] {escape(str(source))} is not a kg graph ({escape(one_line(error))}); "
              f"rebuild it with `kg build INPUTS -o {escape(str(source.parent))}`", highlight=False)
    sys.exit(EXIT_FAILED)


def read_build(path: Path):
    """``(BuildDir, graph)`` of a build directory (or of its ``graph.json``); a clear error and
    exit 1 if the graph is absent, unreadable or of a build that did not finish."""
    from kg.builddir import BuildDir

    require_complete_build(path)
    build = BuildDir(path)
    source = _graph_file(build)
    try:
        return build, build.read_graph()
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, OSError) as error:
        _not_a_graph(source, error)  # not JSON, or JSON that is not a node-link graph


def stream_build(path: Path, use: Callable[[Any], T]) -> T:
    """``use(graph)`` with the graph of a build directory (or its ``graph.json``) read one node
    or edge at a time (:meth:`kg.builddir.BuildDir.open_graph`), so a command's memory does
    not grow with the graph. A ``graph.json`` not in kg's order (not written by kg) is read
    whole (:func:`read_build`) and ``use`` called again on that; errors as :func:`read_build`'s."""
    from kg.builddir import BuildDir
    from kg.node_link import GraphFileError, NotStreamableError

    require_complete_build(path)
    build = BuildDir(path)
    source = _graph_file(build)
    try:
        with build.open_graph() as graph:
            return use(graph)
    except NotStreamableError:
        return use(read_build(path)[1])
    except GraphFileError as error:
        _not_a_graph(source, error)


def one_line(error: BaseException) -> str:
    """The first line of an error's message (at most 200 characters)."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:200]


def input_errors(what: str):
    """A decorator for commands that read files of a given shape (``what``: the shapes and how
    to get them): an input that is not of that shape ends in one line naming it, exit 1,
    rather than the traceback of whichever parser met it first."""
    import functools
    import json

    def decorate(command):
        @functools.wraps(command)
        def run(*args, **kwargs):
            try:
                return command(*args, **kwargs)
            except (json.JSONDecodeError, UnicodeDecodeError, ValueError, KeyError, TypeError,
                    AttributeError, IndexError, OSError) as error:
                if isinstance(error, OSError) and getattr(error, "errno", None) == 32:  # EPIPE: click's
                    raise
                err.print(f"[red]error:[/] {escape(type(error).__name__)}: {escape(one_line(error))}; {escape(what)}",
                          highlight=False)
                sys.exit(EXIT_FAILED)

        return run

    return decorate


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def tab_separated(columns, rows) -> str:
    """A result table for a pipe: a header line, then one line per row, cells separated by tabs;
    backslash, tab and line breaks inside a cell escaped (as ``\\``, ``\t``, ``\n``, ``\r``),
    so IRIs and evidence never wrap and ``cut``/``awk`` see one row per line.

    >>> print(tab_separated(["name", "papers"], [["a" + chr(9) + "b", 2], ["line" + chr(10) + "end", 1]]))
    ...     # doctest: +NORMALIZE_WHITESPACE
    name papers
    a\\tb 2
    line\\nend 1
    """

    def cell(value) -> str:
        text = "" if value is None else str(value)
        for char, escaped in (("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r")):
            text = text.replace(char, escaped)
        return text

    return "\n".join("\t".join(cell(value) for value in row) for row in [list(columns), *rows])


def print_table(columns: list[str], rows: list[tuple], *, no_wrap_first: bool = True) -> None:
    """A table on a terminal (rich), tab-separated lines in a pipe (:func:`tab_separated`)."""
    if not stdout_is_terminal():
        click.echo(tab_separated(columns, rows))
        return
    from rich.table import Table

    table = Table(show_edge=False, header_style="bold")
    for n, column in enumerate(columns):
        table.add_column(column, no_wrap=no_wrap_first and n == 0)
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    Console().print(table)


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
