"""The ``kg`` command line: thin commands over the library, one module per area.

Exit codes: 0 done; 1 failed (bad input with ``--on-error fail``, missing
input, a server error); 2 usage error; 3 done, but some input records were
skipped (see ``manifest.jsonl``).
"""

from __future__ import annotations

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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kg")
def main() -> None:
    """Build knowledge graphs of research literature from paper abstracts."""


for command in (build, extract, evaluate, train, train_linear, export, query, serve, viz, map_command, leaderboard):
    main.add_command(command)

__all__ = ["main"]
