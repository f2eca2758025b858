"""The public surface: commands, registered spaCy names."""

import subprocess
import sys

from click.testing import CliRunner

from kg.cli import main

COMMANDS = ["build", "extract", "evaluate", "train", "export", "query", "serve", "viz", "map"]


def test_every_top_level_command_is_registered_with_help():
    result = CliRunner().invoke(main, ["--help"])
    for name in COMMANDS:
        assert name in result.output
        assert CliRunner().invoke(main, [name, "--help"]).exit_code == 0


def test_spacy_finds_kg_components_without_importing_kg():
    code = (
        "import spacy; nlp = spacy.blank('en');"
        "[nlp.add_pipe(n) for n in ('kg_pos', 'kg_abbreviations', 'kg_relations', 'kg_results')];"
        "print(nlp.pipe_names)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['kg_pos', 'kg_abbreviations', 'kg_relations', 'kg_results']"
