"""What every command shares: a directory holding an unfinished build is refused with one clear line."""

import shutil

import pytest
from click.testing import CliRunner

from kg.cli import main


@pytest.fixture
def unfinished(small_build, tmp_path):
    """A copy of a good build whose summary.json is gone, as after a build that stopped."""
    out = tmp_path / "out"
    shutil.copytree(small_build[0], out)
    (out / "summary.json").unlink()
    return out


@pytest.mark.parametrize(
    "command",
    [
        ["query", "sparql", "{out}", "ASK {{ ?s ?p ?o }}"],
        ["query", "cypher", "{out}", "MATCH (n) RETURN count(n)"],
        ["viz", "{out}", "--no-image"],
        ["map", "{out}"],
        ["export", "rdf", "{out}", "-o", "{out}/copy.ttl"],
        ["export", "neo4j-bulk", "{out}", "-o", "{out}/bulk"],
        ["serve", "{out}", "--port", "0"],
    ],
)
def test_commands_refuse_a_directory_without_summary_json(unfinished, command):
    result = CliRunner().invoke(main, [part.format(out=unfinished) for part in command])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert " ".join(result.output.split()) == (
        f"error: {unfinished} has no summary.json: it holds no complete kg build (a build failed, was stopped "
        f"or is still running there); run `kg build INPUTS -o {unfinished}`"
    )
    assert not (unfinished / "graph.html").exists() and not (unfinished / "map").exists()


def test_a_complete_build_and_a_hand_made_graph_are_read(small_build, tmp_path):
    assert CliRunner().invoke(main, ["viz", str(small_build[0]), "--no-image", "-o", str(tmp_path / "a.html")]).exit_code == 0
    (tmp_path / "own").mkdir()
    shutil.copy(small_build[0] / "graph.json", tmp_path / "own" / "graph.json")  # no kg build ran there
    assert CliRunner().invoke(main, ["viz", str(tmp_path / "own"), "--no-image"]).exit_code == 0


@pytest.mark.parametrize(
    ("command", "read"),
    [
        (["viz", "{out}", "--no-image", "-o", "{tmp}/page.html"], "read_graph"),
        (["map", "{out}", "--no-overview", "-o", "{tmp}/map"], "read_graph"),
        (["leaderboard", "{out}"], "read_graph"),
        (["evaluate", "graph", "{out}"], "read_graph"),
        (["export", "rdf", "{out}", "-o", "{tmp}/copy.nt"], "read_graph"),
        (["export", "cypher-script", "{out}", "-o", "{tmp}/load.cypher"], "read_graph"),
        (["export", "neo4j-bulk", "{out}", "-o", "{tmp}/bulk"], "open_graph"),
        (["query", "sparql", "{out}", "ASK {{ ?s ?p ?o }}"], "rdf_file"),
        (["query", "cypher", "{out}", "MATCH (n) RETURN count(n)"], "read_graph"),
    ],
)
def test_every_command_reads_a_build_through_build_dir(small_build, tmp_path, monkeypatch, command, read):
    """A command reading a build asks kg.builddir.BuildDir for it: file names live there only."""
    from kg.builddir import BuildDir

    asked = []
    original = getattr(BuildDir, read)

    def spy(self, *args, **kwargs):
        asked.append(self.path)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BuildDir, read, spy)
    out = small_build[0]
    result = CliRunner().invoke(main, [part.format(out=out, tmp=tmp_path) for part in command])
    assert result.exit_code == 0, result.output
    assert asked and set(asked) == {out}
