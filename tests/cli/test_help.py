"""Every command's help calls the build directory by one name: BUILD_DIR (issue #15).

The commands are found by walking the ``kg`` command tree (groups such as ``kg export``
included), so a new command is checked too.
"""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from kg.cli import main


def _walk(command: click.Command, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], click.Command]:
    found = {path: command}
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            found.update(_walk(sub, (*path, name)))
    return found


COMMANDS = _walk(main)
#: The commands that read or write a build directory, and how their help shows it: as the
#: argument in the usage line, or (``kg build``) as the metavar of ``-o/--output``.
TAKES_BUILD_DIR = {
    ("build",): "-o, --output BUILD_DIR",
    ("evaluate", "graph"): "Usage: kg evaluate graph [OPTIONS] BUILD_DIR",
    ("export", "cypher-script"): "Usage: kg export cypher-script [OPTIONS] BUILD_DIR",
    ("export", "file"): "Usage: kg export file [OPTIONS] BUILD_DIR",
    ("export", "neo4j"): "Usage: kg export neo4j [OPTIONS] BUILD_DIR",
    ("export", "neo4j-bulk"): "Usage: kg export neo4j-bulk [OPTIONS] BUILD_DIR",
    ("export", "rdf"): "Usage: kg export rdf [OPTIONS] BUILD_DIR",
    ("leaderboard",): "Usage: kg leaderboard [OPTIONS] BUILD_DIR",
    ("map",): "Usage: kg map [OPTIONS] BUILD_DIR",
    ("query", "cypher"): "Usage: kg query cypher [OPTIONS] [BUILD_DIR] [CYPHER]",
    ("query", "sparql"): "Usage: kg query sparql [OPTIONS] [BUILD_DIR] [QUERY]",
    ("serve",): "Usage: kg serve [OPTIONS] BUILD_DIR",
    ("viz",): "Usage: kg viz [OPTIONS] BUILD_DIR",
}
#: Other names the build directory went by; none may be shown as a metavar again.
OLD_NAMES = re.compile(r"\b(OUTDIR|GRAPH)\b")


def _help(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(main, [*path, "--help"], prog_name="kg", terminal_width=100)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # one line: a phrase wrapped over two lines still matches


def test_every_command_is_walked():
    assert {("export",), ("query",), ("evaluate",)} <= COMMANDS.keys()
    assert TAKES_BUILD_DIR.keys() <= COMMANDS.keys()


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda path: " ".join(("kg", *path)))
def test_no_help_names_the_build_directory_otherwise(path):
    text = _help(path)
    assert not OLD_NAMES.search(text), (path, OLD_NAMES.findall(text), text)


@pytest.mark.parametrize("path", sorted(TAKES_BUILD_DIR), ids=lambda path: " ".join(("kg", *path)))
def test_commands_on_a_build_show_build_dir(path):
    text = _help(path)
    assert TAKES_BUILD_DIR[path] in text, text
    assert "build directory" in text, text


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda path: " ".join(("kg", *path)))
def test_a_build_dir_parameter_is_one_of_the_listed_commands(path):
    """A command with a parameter named ``build_dir`` (or shown as BUILD_DIR) is in TAKES_BUILD_DIR,
    so a new command on a build is checked above as well."""
    command = COMMANDS[path]
    names = {param.name for param in command.params} | {
        getattr(param, "metavar", None) for param in command.params}
    if {"build_dir", "BUILD_DIR"} & names:
        assert path in TAKES_BUILD_DIR, path


def test_build_keeps_its_output_flags():
    """Only the metavar changed: scripts call ``kg build ... -o DIR`` and ``--output DIR``."""
    (output,) = [param for param in COMMANDS[("build",)].params if "-o" in param.opts]
    assert output.opts == ["-o", "--output"] and output.required
