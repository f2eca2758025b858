"""The ``kg`` command line: thin commands over the library, one module per area.

Exit codes: 0 done; 1 failed (bad input with ``--on-error fail``, missing
input, a server error); 2 usage error; 3 done, but some input records were
skipped (see ``manifest.jsonl``).

Every error ends in one line on stderr naming the problem and what to do, never a
traceback; an error kg did not foresee says so, as a bug to report (``KG_DEBUG=1``
shows its traceback).
"""

from __future__ import annotations

import errno
import os
import sys

import click

from kg import __version__
from kg.cli.build import build, extract
from kg.cli.evaluate import evaluate
from kg.cli.export import export
from kg.cli.leaderboard import leaderboard
from kg.cli.map import map_command
from kg.cli.query import query
from kg.cli.serve import serve
from kg.cli.train import train, train_linear
from kg.cli.viz import viz


class _Commands(click.Group):
    """The ``kg`` group: an exception no command handles ends in one line, exit 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise  # click prints these in one line, with their exit code
        except Exception as error:
            if os.environ.get("KG_DEBUG") or (isinstance(error, OSError) and error.errno == errno.EPIPE):
                raise  # click ends quietly when the reader of a pipe has gone (`kg ... | head`)
            from kg.cli.common import EXIT_FAILED, err, one_line
            from kg.extras import install_hint, missing_extra

            extra = missing_extra(error)
            if extra is not None:  # an optional part that is not installed
                err.print(f"error: this command needs {error.name.split('.')[0]}, which is not installed: "
                          f"{install_hint(extra)}", markup=False, highlight=False)
                sys.exit(EXIT_FAILED)
            if isinstance(error, OSError):  # a file kg could not read or write
                where = f"{error.filename}: " if error.filename else ""
                err.print(f"error: {where}{error.strerror or one_line(error)}; check the path and its permissions",
                          markup=False, highlight=False)
                sys.exit(EXIT_FAILED)
            err.print(f"error: unexpected {type(error).__name__}: {one_line(error)}; this is a bug in kg, "
                      "please report it with the command you ran (KG_DEBUG=1 shows where it happened)",
                      markup=False, highlight=False)
            sys.exit(EXIT_FAILED)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kg")
def main() -> None:
    """Build knowledge graphs of research literature from paper abstracts."""


for command in (build, extract, evaluate, train, train_linear, export, query, serve, viz, map_command, leaderboard):
    main.add_command(command)

__all__ = ["main"]
