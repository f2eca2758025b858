"""kg.export.neo4j_bulk: CSV files for neo4j-admin import, checked with Python's csv."""

from __future__ import annotations

import csv
import json
import subprocess
import tracemalloc

import networkx as nx
import pytest
from neo4j_bulk_reference import write_bulk_csv_held

from kg.builddir import BuildDir
from kg.export.files import write_node_link
from kg.export.neo4j import to_rows
from kg.export.neo4j_bulk import import_command, read_bulk_counts, write_bulk_csv
from kg.node_link import NodeLinkFile


def _read(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


def _parse(cell: str, column: str, delimiter: str):
    """Read a cell back the way neo4j-admin types it."""
    kind = column.split(":", 1)[1] if ":" in column else "string"
    if cell == "":
        return None
    if kind.endswith("[]"):
        return [_parse(item, f"x:{kind[:-2]}", delimiter) for item in cell.split(delimiter)]
    if kind in ("int", "long"):
        return int(cell)
    if kind == "double":
        return float(cell)
    if kind == "boolean":
        return cell == "true"
    return cell


def test_bulk_files_have_the_importer_headers_and_the_graph_counts(helpers, tmp_path):
    graph = helpers.make_graph(20)
    files = write_bulk_csv(graph, tmp_path)
    labels, types = helpers.graph_counts(graph)
    assert files.node_counts == labels and files.relationship_counts == types
    counts = read_bulk_counts(tmp_path)
    assert {f"nodes_{k}.csv": v for k, v in labels.items()} == {
        k: v for k, v in counts.items() if k.startswith("nodes_")
    }
    assert {f"relationships_{k}.csv": v for k, v in types.items()} == {
        k: v for k, v in counts.items() if k.startswith("relationships_")
    }

    header, _ = _read(files.node_files["Paper"])
    assert header[:2] == ["id:ID", ":LABEL"]
    assert {"year:int", "authors:string[]", "source_index:int", "name", "abstract"} <= set(header)
    header, _ = _read(files.node_files["Dataset"])
    assert {"paper_count:int", "aliases:string[]", "proposed_by:string[]"} <= set(header)
    header, _ = _read(files.relationship_files["EVALUATED_ON"])
    assert header[:3] == [":START_ID", ":END_ID", ":TYPE"]
    assert {
        "support:int",
        "evidence_papers:string[]",
        "evidence_starts:int[]",
        "evidence_ends:int[]",
    } <= set(header)
    header, _ = _read(files.relationship_files["MENTIONS"])
    assert {"mention_starts:int[]", "mention_ends:int[]", "count:int"} <= set(header)


def test_bulk_values_read_back_equal_the_rows(helpers, tmp_path):
    graph = nx.compose(helpers.make_graph(12), helpers.nasty_graph())
    files = write_bulk_csv(graph, tmp_path)
    rows = to_rows(graph)
    ids = set()
    for label, path in files.node_files.items():
        header, records = _read(path)
        expected = {row["id"]: row["props"] for row in rows.nodes[label]}
        for record in records:
            assert record[1] == label
            ids.add(record[0])
            props = {
                column.split(":")[0]: _parse(cell, column, files.array_delimiter)
                for column, cell in zip(header[2:], record[2:])
                if cell != ""
            }
            want = {k: v for k, v in expected[record[0]].items() if v != []}
            assert props == want
    assert len(ids) == graph.number_of_nodes()  # one id space across labels
    for rel_type, path in files.relationship_files.items():
        header, records = _read(path)
        assert all(r[2] == rel_type for r in records)
        assert all(r[0] in ids and r[1] in ids for r in records)


def test_the_array_delimiter_never_occurs_in_a_value(helpers, tmp_path):
    graph = helpers.make_graph(4)
    graph.nodes["paper:0001"]["authors"] = ["Smith; J.", "Doe"]
    files = write_bulk_csv(graph, tmp_path)
    assert files.array_delimiter == "|"
    header, records = _read(files.node_files["Paper"])
    column = header.index("authors:string[]")
    by_id = {r[0]: r for r in records}
    assert by_id["paper:0001"][column].split("|") == ["Smith; J.", "Doe"]


def test_import_script_has_the_exact_command(helpers, tmp_path):
    files = write_bulk_csv(helpers.make_graph(6), tmp_path)
    script = files.script.read_text(encoding="utf-8")
    assert subprocess.run(["sh", "-n", str(files.script)], check=False).returncode == 0
    assert "neo4j-admin" in script and "database" in script and "full" in script
    for path in [*files.node_files.values(), *files.relationship_files.values()]:
        assert f"${{IMPORT_DIR}}/{path.name}" in script
    assert "'--array-delimiter=;'" in script
    assert "--overwrite-destination=true" in script and "--multiline-fields=true" in script
    command = files.command(import_dir="/import")
    assert command[:4] == ["neo4j-admin", "database", "import", "full"]
    assert command[-1] == "neo4j"
    assert files.schema.read_text().count("CREATE CONSTRAINT") == 9


def test_import_command_encodes_control_delimiters():
    command = import_command(["n.csv"], [], array_delimiter="\x1f")
    assert "--array-delimiter=U+001F" in command


@pytest.mark.parametrize("n", [0, 1])
def test_small_graphs(helpers, tmp_path, n):
    files = write_bulk_csv(helpers.make_graph(n), tmp_path)
    assert sum(files.node_counts.values()) == helpers.make_graph(n).number_of_nodes()


# ---------------------------------------------------------------- streamed: the files of the held writer


def _files(directory) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


def _hand_made(helpers) -> nx.MultiDiGraph:
    graph = nx.compose(helpers.make_graph(40), helpers.nasty_graph())
    graph.nodes["paper:0001"]["authors"] = ["Smith; J.", "Doe"]  # the '|' delimiter
    graph.nodes["paper:0002"]["venue"] = 'a "quoted", multi-line\r\nvenue'
    graph.nodes["entity:imagenet"]["score"] = 0.25  # a double column beside ints and strings
    graph.nodes["entity:imagenet"]["paper_count"] = 2**40  # a long column
    return graph


def test_streamed_files_equal_the_held_writer_byte_for_byte(helpers, tmp_path):
    """From networkx and from graph.json read one item at a time, every file (CSVs,
    import.sh, schema.cypher) is byte for byte what the writer before streaming wrote."""
    graph = _hand_made(helpers)
    held = write_bulk_csv_held(graph, tmp_path / "held")
    assert held.array_delimiter == "|"
    assert len(held.relationship_files) > 5 and len(held.node_files) == 9
    write_bulk_csv(graph, tmp_path / "networkx")
    write_node_link(graph, tmp_path / "graph.json")
    with NodeLinkFile(tmp_path / "graph.json") as streamed:
        files = write_bulk_csv(streamed, tmp_path / "streamed")
    expected = _files(tmp_path / "held")
    assert _files(tmp_path / "networkx") == expected
    assert _files(tmp_path / "streamed") == expected
    assert (files.node_counts, files.relationship_counts) == (held.node_counts, held.relationship_counts)
    assert list(files.relationship_files) == list(held.relationship_files)


def test_streamed_files_of_the_example_build_equal_the_held_writer(build_dir, tmp_path):
    build = BuildDir(build_dir)
    write_bulk_csv_held(build.read_graph(), tmp_path / "held")
    with build.open_graph() as graph:
        write_bulk_csv(graph, tmp_path / "streamed")
    expected = _files(tmp_path / "held")
    assert len(expected) > 15
    assert _files(tmp_path / "streamed") == expected


def test_the_streamed_export_holds_no_graph(tmp_path):
    """graph.json of 3,000 papers with 4 kB abstracts (13 MB): the streamed export's peak
    Python memory is a small part of it (the id -> label map, a row, the files' buffers),
    where reading it whole takes more than the file."""
    graph = nx.MultiDiGraph()
    for i in range(3000):
        paper, method = f"paper:{i:05d}", f"entity:method-{i % 400}"
        graph.add_node(paper, label="Paper", name=f"Paper {i}", abstract=f"Abstract {i} " * 300, year=2024,
                       authors=[f"Author {i}", "Ada"])
        graph.add_node(method, label="Method", name=f"Method {i % 400}", aliases=[f"M{i % 400}"])
        graph.add_edge(paper, method, key="MENTIONS", type="MENTIONS", mentions=[{"start": 0, "end": 5}])
    write_node_link(graph, tmp_path / "graph.json")
    size = (tmp_path / "graph.json").stat().st_size
    del graph
    tracemalloc.start()
    try:
        with NodeLinkFile(tmp_path / "graph.json") as streamed:
            write_bulk_csv(streamed, tmp_path / "streamed")
        _, streamed_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        write_bulk_csv_held(BuildDir(tmp_path).read_graph(), tmp_path / "held")
        _, held_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size > 10_000_000
    assert streamed_peak < size / 4, (streamed_peak, size)  # measured: 0.09 of the file
    assert held_peak > size, (held_peak, size)  # measured: 2.3 times the file
    assert _files(tmp_path / "streamed") == _files(tmp_path / "held")


def test_a_graph_json_not_in_id_order_is_exported_by_the_cli(helpers, tmp_path):
    """One kg did not write (networkx's own node-link data, insertion order) is read whole."""
    from click.testing import CliRunner

    from kg.cli import main

    graph = _hand_made(helpers)
    (tmp_path / "own").mkdir()
    data = nx.node_link_data(graph, edges="edges")
    (tmp_path / "own" / "graph.json").write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "neo4j-bulk", str(tmp_path / "own"), "-o", str(tmp_path / "cli"), "-q"])
    assert result.exit_code == 0, result.output
    write_bulk_csv_held(graph, tmp_path / "held")
    assert _files(tmp_path / "cli") == _files(tmp_path / "held")


# ---------------------------------------------------------------- neo4j-admin import into a real Neo4j


def _snapshot(driver) -> tuple[dict, dict]:
    """Every node and relationship with its properties, keyed by ids."""
    nodes = {
        r["id"]: (r["labels"], r["props"])
        for r in driver.execute_query(
            "MATCH (n) RETURN n.id AS id, labels(n) AS labels, properties(n) AS props"
        ).records
    }
    rels = {
        (r["a"], r["t"], r["b"]): r["props"]
        for r in driver.execute_query(
            "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, b.id AS b, properties(r) AS props"
        ).records
    }
    return nodes, rels


def _without_empty_lists(props: dict) -> dict:
    return {k: v for k, v in props.items() if v != []}


def test_neo4j_admin_import_gives_the_bolt_graph(neo4j_driver, helpers, tmp_path):
    """The bulk CSVs go through the real `neo4j-admin database import full` into a new
    Neo4j; its nodes, relationships and every property equal a Bolt load of the same
    graph, except empty lists, which the importer does not store (docker/README.md)."""
    from neo4j_server import Neo4jServer

    from kg.export.neo4j import write_neo4j

    graph = nx.compose(helpers.make_graph(20), helpers.nasty_graph())
    graph.nodes["paper:0001"]["authors"] = ["Smith; J.", "Doe"]  # forces the '|' delimiter
    write_neo4j(graph, neo4j_driver, progress=False)
    bolt_nodes, bolt_rels = _snapshot(neo4j_driver)

    files = write_bulk_csv(graph, tmp_path / "bulk")
    assert files.array_delimiter == "|"
    command = files.command()
    assert command[:4] == ["neo4j-admin", "database", "import", "full"]
    server = Neo4jServer(tmp_path / "home", heap="512m")
    done = server.admin(*command[1:])
    assert "IMPORT DONE" in done.stdout + done.stderr
    with server:
        shell = server.cypher_shell("--fail-fast", "-f", str(files.schema))
        assert shell.returncode == 0, shell.stderr
        driver = server.driver()
        constraints = driver.execute_query("SHOW CONSTRAINTS YIELD name RETURN name").records
        assert len(constraints) == 9
        nodes, rels = _snapshot(driver)
    assert len(nodes) == graph.number_of_nodes() and len(rels) == graph.number_of_edges()
    assert nodes.keys() == bolt_nodes.keys() and rels.keys() == bolt_rels.keys()
    for key, (labels, props) in bolt_nodes.items():
        assert nodes[key] == (labels, _without_empty_lists(props)), key
    for key, props in bolt_rels.items():
        assert rels[key] == _without_empty_lists(props), key
    assert nodes["paper:0001"][1]["authors"] == ["Smith; J.", "Doe"]
    assert nodes["entity:nasty-3"][1]["name"] == "new\nline\ttab\rcr"
