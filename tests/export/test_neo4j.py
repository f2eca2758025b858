"""kg.export.neo4j: rows, statements, and loading a real Neo4j 5 (and FalkorDB over Bolt).

The Neo4j tests run against the session's real Neo4j Community server
(``neo4j_server`` in tests/conftest.py, started from Maven Central jars by
tests/neo4j_server). The FalkorDB section keeps what only the ``falkordb``
dialect does (its message-size cut, its string escaping).
"""

from __future__ import annotations

import hashlib
import json
import traceback
import uuid

import networkx as nx
import pytest

from kg.export.neo4j import (
    FALKORDB_MAX_MESSAGE_BYTES,
    NODE_LABELS,
    RELATIONSHIP_TYPES,
    Neo4jExportError,
    check_uri,
    connect,
    cypher_literal,
    iter_cypher_script,
    mask_secret,
    node_query,
    relationship_query,
    schema_statements,
    to_rows,
    write_cypher_script,
    write_neo4j,
)
from kg.export.files import write_node_link
from kg.export.neo4j.batches import _Planner
from kg.export.neo4j.falkordb import _falkordb_escape, _message_size
from kg.export.neo4j.load import _match_node, _match_rel, _run_statements
from kg.node_link import NodeLinkFile

# ---------------------------------------------------------------- rows (no server)


def test_to_rows_flattens_provenance_and_drops_none():
    g = nx.MultiDiGraph()
    g.add_node("a", label="Method", name="A", catalogue_id=None, aliases=["x", "y"], paper_count=2)
    g.add_node("b", label="Dataset", name="B")
    g.add_edge(
        "a",
        "b",
        key="EVALUATED_ON",
        type="EVALUATED_ON",
        support=2,
        evidence=[{"paper": "p1", "start": 1, "end": 4}, {"paper": "p2", "start": 5, "end": 9}],
    )
    rows = to_rows(g)
    assert rows.nodes["Method"] == [
        {"id": "a", "props": {"name": "A", "aliases": ["x", "y"], "paper_count": 2}}
    ]
    (edge,) = rows.relationships[("EVALUATED_ON", "Method", "Dataset")]
    assert edge == {
        "src": "a",
        "dst": "b",
        "props": {
            "support": 2,
            "evidence_papers": ["p1", "p2"],
            "evidence_starts": [1, 5],
            "evidence_ends": [4, 9],
        },
    }


def test_to_rows_properties_are_flat(helpers):
    rows = to_rows(helpers.make_graph(12))
    for group in [*rows.nodes.values(), *rows.relationships.values()]:
        for row in group:
            for value in row["props"].values():
                assert value is not None
                assert not isinstance(value, dict)
                if isinstance(value, list):
                    assert len({type(v) for v in value}) <= 1
                    assert all(isinstance(v, (str, int)) for v in value)


def test_to_rows_counts_and_groups_by_endpoint_labels(helpers):
    graph = helpers.make_graph(12)
    rows = to_rows(graph)
    labels, types = helpers.graph_counts(graph)
    assert rows.node_counts() == labels
    assert rows.relationship_counts() == types
    for (rel_type, src, dst), group in rows.relationships.items():
        for row in group:
            assert graph.nodes[row["src"]]["label"] == src
            assert graph.nodes[row["dst"]]["label"] == dst
            assert graph.has_edge(row["src"], row["dst"], key=rel_type)


def test_to_rows_keeps_odd_values_as_json_and_skips_bad_keys():
    g = nx.MultiDiGraph()
    g.add_node("a", label="Task", name="T", extra={"k": 1}, mixed=[1, "x"], **{"bad key": "v"})
    props = to_rows(g).nodes["Task"][0]["props"]
    assert props == {"name": "T", "extra": '{"k": 1}', "mixed": '[1, "x"]'}


@pytest.mark.parametrize("label", ["Person", "Paper) DETACH DELETE (n", "paper", "Paper:Admin"])
def test_unknown_labels_are_refused(label):
    g = nx.MultiDiGraph()
    g.add_node("x", label=label, name="x")
    with pytest.raises(ValueError, match="unknown node label"):
        to_rows(g)
    with pytest.raises(ValueError):
        node_query(label)


def test_unknown_relationship_types_are_refused():
    g = nx.MultiDiGraph()
    g.add_node("a", label="Method", name="a")
    g.add_node("b", label="Method", name="b")
    g.add_edge("a", "b", key="LIKES]->() DETACH DELETE a //", type="LIKES]->() DETACH DELETE a //")
    with pytest.raises(ValueError, match="unknown relationship type"):
        to_rows(g)
    with pytest.raises(ValueError):
        relationship_query("FOLLOWS", "Method", "Method")


def test_statements_take_values_only_as_parameters():
    query = relationship_query("PROPOSES", "Paper", "Method")
    assert query == (
        "UNWIND $rows AS row MATCH (a:Paper {id: row.src}) MATCH (b:Method {id: row.dst}) "
        "MERGE (a)-[r:PROPOSES]->(b) SET r += row.props"
    )
    assert (
        node_query("Venue") == "UNWIND $rows AS row MERGE (n:Venue {id: row.id}) SET n += row.props"
    )
    assert len(schema_statements("neo4j")) == len(NODE_LABELS)
    assert all("IF NOT EXISTS" in s and "IS UNIQUE" in s for s in schema_statements("neo4j"))
    assert all(s.startswith("CREATE INDEX FOR") for s in schema_statements("falkordb"))


def test_falkordb_batches_stay_under_the_message_limit(helpers):
    rows = to_rows(helpers.nasty_graph())
    planner = _Planner("falkordb", 1000, escape=True)
    seen = 0
    for label, group in rows.nodes.items():
        for statements, count in planner.plan(node_query(label), group, _match_node(label)):
            seen += count
            for query, params in statements:
                assert _message_size(query, params) <= FALKORDB_MAX_MESSAGE_BYTES
    for key, group in rows.relationships.items():
        for statements, count in planner.plan(relationship_query(*key), group, _match_rel(*key)):
            seen += count
            for query, params in statements:
                assert _message_size(query, params) <= FALKORDB_MAX_MESSAGE_BYTES
    assert seen == rows.node_total + rows.relationship_total


def test_neo4j_batches_by_count(helpers):
    rows = to_rows(helpers.make_graph(30))
    plans = list(
        _Planner("neo4j", 7, escape=False).plan(node_query("Paper"), rows.nodes["Paper"], None)
    )
    assert [count for _, count in plans] == [7, 7, 7, 7, 2]
    assert all(len(statements) == 1 for statements, _ in plans)



class _NoSession:
    def session(self, **kwargs):
        raise AssertionError("a session was opened")


def test_a_bad_graph_fails_before_anything_is_written():
    """The first pass checks every label, type and end: an edge of an unknown type at the
    end of the graph stops the load before the driver is used."""
    g = nx.MultiDiGraph()
    g.add_node("a", label="Method", name="a")
    g.add_edge("a", "a", key="LIKES", type="LIKES")
    with pytest.raises(ValueError, match="unknown relationship type"):
        write_neo4j(g, _NoSession(), progress=False)


# ---------------------------------------------------------------- credentials and URIs


@pytest.mark.parametrize("uri", ["bolt://127.0.0.1:9", "bolt://kg:{secret}@127.0.0.1:9"])
def test_connect_errors_never_show_the_password(uri):
    secret = "s3cr3t-" + uuid.uuid4().hex
    with pytest.raises(Neo4jExportError) as info:
        connect(uri.format(secret=secret), "neo4j", secret, connection_timeout=2)
    shown = "".join(traceback.format_exception(info.value))
    assert secret not in shown
    assert "127.0.0.1:9" in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("password", ["127", "0", "1", "neo4j", "bolt", ".", "connect", "refused"])
def test_a_short_password_does_not_garble_the_message(password):
    with pytest.raises(Neo4jExportError) as info:
        connect("bolt://127.0.0.1:1", "neo4j", password, connection_timeout=2)
    message = str(info.value)
    assert "bolt://127.0.0.1:1" in message and "***" not in message


def test_mask_secret_masks_whole_tokens_only():
    secret = "hunter2-hunter2"
    assert mask_secret(f"auth failed for password '{secret}'", secret) == (
        "auth failed for password '***'"
    )
    assert mask_secret(secret, secret) == "***"
    assert mask_secret(f"x{secret} {secret}.com {secret}", secret) == f"x{secret} {secret}.com ***"
    assert mask_secret("at 127.0.0.1:7687 with 127", "127") == "at 127.0.0.1:7687 with 127"
    assert mask_secret("bolt://neo4j:hunter2@db:7687 down", "hunter2") == "bolt://db:7687 down"
    assert mask_secret("nothing to hide", None) == "nothing to hide"


@pytest.mark.parametrize(
    "uri", ["http://localhost:7474", "https://db.example", "localhost:7687", "neo4j:/x"]
)
def test_only_bolt_schemes_are_accepted(uri):
    with pytest.raises(Neo4jExportError) as info:
        connect(uri, "neo4j", "pw", connection_timeout=1)
    message = str(info.value)
    assert "bolt://" in message and "neo4j+s://" in message and "\n" not in message
    assert check_uri("BOLT://h:1") == "BOLT://h:1"


def test_connect_reads_the_environment(monkeypatch):
    import neo4j

    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    with pytest.raises(Neo4jExportError, match="NEO4J_PASSWORD"):
        connect("bolt://127.0.0.1:9")
    calls = []
    monkeypatch.setattr(
        neo4j.GraphDatabase, "driver", lambda uri, auth, **kw: calls.append((uri, auth))
    )
    monkeypatch.setenv("NEO4J_URI", "bolt://db.example:7687")
    monkeypatch.setenv("NEO4J_USERNAME", "someone")
    monkeypatch.setenv("NEO4J_PASSWORD", "from-env")
    connect(verify=False)
    connect("bolt://other:7687", "me", "flag", verify=False)
    assert calls == [
        ("bolt://db.example:7687", ("someone", "from-env")),
        ("bolt://other:7687", ("me", "flag")),
    ]


# ---------------------------------------------------------------- a real Neo4j 5


def _checksum(driver, database: str | None = None) -> str:
    """Every node and relationship with its properties, hashed."""
    nodes = driver.execute_query(
        "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props ORDER BY n.id",
        database_=database,
    ).records
    rels = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, b.id AS b, properties(r) AS props "
        "ORDER BY a, t, b",
        database_=database,
    ).records
    data = [[r.data() for r in nodes], [r.data() for r in rels]]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _kg_constraints(driver) -> dict[str, tuple]:
    records = driver.execute_query(
        "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties "
        "WHERE name STARTS WITH 'kg_' RETURN name, type, labelsOrTypes, properties"
    ).records
    return {r["name"]: (r["type"], r["labelsOrTypes"], r["properties"]) for r in records}


def test_neo4j_constraints_are_created_and_enforced(neo4j_driver, helpers):
    from neo4j.exceptions import ConstraintError

    for name in _kg_constraints(neo4j_driver):
        neo4j_driver.execute_query(f"DROP CONSTRAINT {name}")
    assert _kg_constraints(neo4j_driver) == {}
    write_neo4j(helpers.make_graph(3), neo4j_driver, progress=False)
    assert _kg_constraints(neo4j_driver) == {
        f"kg_{label.lower()}_id": ("UNIQUENESS", [label], ["id"]) for label in NODE_LABELS
    }
    with pytest.raises(ConstraintError):
        neo4j_driver.execute_query("CREATE (:Paper {id: 'paper:0000'})")
    # a second load finds them there (IF NOT EXISTS) and changes nothing
    write_neo4j(helpers.make_graph(3), neo4j_driver, progress=False)
    assert len(_kg_constraints(neo4j_driver)) == len(NODE_LABELS)


def test_neo4j_counts_and_properties_equal_the_graph(neo4j_driver, helpers):
    graph = helpers.make_graph(24)
    stats = write_neo4j(graph, neo4j_driver, progress=False, batch_size=10)
    labels, types = helpers.graph_counts(graph)
    assert helpers.db_counts(neo4j_driver) == (labels, types)
    assert stats.nodes == labels and stats.relationships == types
    assert stats.nodes_created == graph.number_of_nodes()
    assert stats.relationships_created == graph.number_of_edges()
    rows = to_rows(graph)
    for label, group in rows.nodes.items():
        got = {
            r["id"]: r["props"]
            for r in neo4j_driver.execute_query(
                f"MATCH (n:{label}) RETURN n.id AS id, properties(n) AS props"
            ).records
        }
        assert got == {row["id"]: {"id": row["id"], **row["props"]} for row in group}
    for (rel_type, src, dst), group in rows.relationships.items():
        got = {
            (r["a"], r["b"]): r["props"]
            for r in neo4j_driver.execute_query(
                f"MATCH (a:{src})-[r:{rel_type}]->(b:{dst}) "
                "RETURN a.id AS a, b.id AS b, properties(r) AS props"
            ).records
        }
        assert got == {(row["src"], row["dst"]): row["props"] for row in group}


def test_neo4j_load_of_graph_json_equals_the_load_of_held_rows(neo4j_driver, helpers, tmp_path):
    """graph.json read one item at a time (what `kg export neo4j` reads) gives the database
    that the rows of the whole graph, held in memory, give: every node and relationship with
    its properties, and the same counts of what was written."""
    graph = nx.compose(helpers.make_graph(30), helpers.nasty_graph())
    held = write_neo4j(to_rows(graph), neo4j_driver, progress=False, batch_size=4)
    loaded = (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver))
    neo4j_driver.execute_query("MATCH (n) DETACH DELETE n")
    write_node_link(graph, tmp_path / "graph.json")
    with NodeLinkFile(tmp_path / "graph.json") as streamed:
        stats = write_neo4j(streamed, neo4j_driver, progress=False, batch_size=4)
    assert (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver)) == loaded
    assert loaded[0] == helpers.graph_counts(graph)

    def counts(s):
        return s.nodes, s.relationships, s.nodes_created, s.relationships_created, s.properties_set, s.transactions

    assert counts(stats) == counts(held)


def test_neo4j_loading_twice_changes_nothing(neo4j_driver, helpers):
    graph = helpers.make_graph(18)
    write_neo4j(graph, neo4j_driver, progress=False)
    before = (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver))
    again = write_neo4j(graph, neo4j_driver, progress=False, batch_size=4)
    assert again.nodes_created == 0 and again.relationships_created == 0
    assert (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver)) == before


def test_neo4j_a_bigger_graph_adds_only_what_is_new(neo4j_driver, helpers):
    small, big = helpers.make_graph(9), helpers.make_graph(27)
    write_neo4j(small, neo4j_driver, progress=False)
    stats = write_neo4j(big, neo4j_driver, progress=True, batch_size=5)
    assert stats.rate > 0
    assert stats.nodes_created == big.number_of_nodes() - small.number_of_nodes()
    assert stats.relationships_created == big.number_of_edges() - small.number_of_edges()
    assert helpers.db_counts(neo4j_driver) == helpers.graph_counts(big)
    (record,) = neo4j_driver.execute_query(
        "MATCH (d:Dataset {id: 'entity:imagenet'}) RETURN d.paper_count AS c"
    ).records
    assert record["c"] == big.nodes["entity:imagenet"]["paper_count"]
    fresh = write_neo4j(big, neo4j_driver, progress=False)
    assert (fresh.nodes_created, fresh.relationships_created) == (0, 0)


def test_neo4j_unicode_quotes_and_very_long_values_round_trip(neo4j_driver, helpers):
    graph = helpers.nasty_graph()
    huge = "Ünïcödé 名前 O'Brien \"q\" \\ 🧪\n" * 40_000  # about 1.1 M characters
    graph.add_node("paper:huge", label="Paper", name="huge", abstract=huge,
                   authors=[f"Author {i} O'Brien" for i in range(20_000)])  # fmt: skip
    write_neo4j(graph, neo4j_driver, progress=False, batch_size=3)
    names = {
        r["id"]: (r["name"], r["aliases"])
        for r in neo4j_driver.execute_query(
            "MATCH (m:Method) RETURN m.id AS id, m.name AS name, m.aliases AS aliases"
        ).records
    }
    for n, text in enumerate(helpers.NASTY_STRINGS):
        assert names[f"entity:nasty-{n}"] == (text, [text, text + "!"])
        # parameters arrive as sent: no escaping on our side
        found = neo4j_driver.execute_query(
            "MATCH (m:Method {name: $name}) RETURN m.id AS id", name=text
        ).records
        assert [r["id"] for r in found] == [f"entity:nasty-{n}"]
    (paper,) = neo4j_driver.execute_query(
        "MATCH (p:Paper {id: 'paper:huge'}) RETURN p.abstract AS a, p.authors AS au"
    ).records
    assert paper["a"] == huge and paper["au"] == graph.nodes["paper:huge"]["authors"]
    (rel,) = neo4j_driver.execute_query(
        "MATCH (:Method {id: 'entity:nasty-0'})-[r:COMPARED_WITH]->() "
        "RETURN r.evidence_papers AS p, r.evidence_starts AS s"
    ).records
    assert rel["p"] == [f"paper:{i:05d}'x" for i in range(300)] and rel["s"] == list(range(300))


def test_neo4j_nul_characters_are_kept(neo4j_driver):
    g = nx.MultiDiGraph()
    g.add_node("entity:nul", label="Task", name="a\x00b")
    write_neo4j(g, neo4j_driver, progress=False)
    (record,) = neo4j_driver.execute_query("MATCH (t:Task) RETURN t.name AS n").records
    assert record["n"] == "a\x00b"


def test_neo4j_database_option(neo4j_driver, helpers):
    graph = helpers.make_graph(4)
    write_neo4j(graph, neo4j_driver, database="neo4j", progress=False)
    assert helpers.db_counts(neo4j_driver) == helpers.graph_counts(graph)
    with pytest.raises(Neo4jExportError) as info:
        write_neo4j(graph, neo4j_driver, database="nosuch", progress=False)
    message = str(info.value)
    assert "nosuch" in message and "\n" not in message
    assert "re-running" not in message  # nothing a re-run would fix


def test_neo4j_wrong_password_is_a_clear_one_line_error(neo4j_server):
    with pytest.raises(Neo4jExportError) as info:
        connect(neo4j_server.uri, "neo4j", "not-the-password")
    message = str(info.value)
    assert neo4j_server.uri in message and "password" in message and "\n" not in message
    assert "not-the-password" not in message


def test_neo4j_server_killed_mid_load_then_a_rerun_completes(helpers):
    """A private server is killed (SIGKILL) during a load; restarted on the same data
    directory it recovers, and loading again completes the graph."""
    from neo4j_server import Neo4jServer

    graph = helpers.make_graph(300)
    with Neo4jServer(heap="512m") as server:
        driver = server.driver()
        calls = 0

        def kill_at_the_tenth_batch(tx, statements):
            nonlocal calls
            calls += 1
            if calls == 10:
                server.kill()
            return _run_statements(tx, statements)

        from unittest import mock

        with mock.patch("kg.export.neo4j.load._run_statements", kill_at_the_tenth_batch):
            with pytest.raises(Neo4jExportError) as info:
                write_neo4j(graph, driver, progress=False, batch_size=10, max_retry_time=1)
        message = str(info.value)
        assert "while writing" in message and "re-running the load completes it" in message
        assert server.password not in message and "\n" not in message

        server.start()
        driver = server.driver()
        labels, _ = helpers.db_counts(driver)
        assert 0 < sum(labels.values()) < graph.number_of_nodes()  # 9 batches of 10 survived
        stats = write_neo4j(graph, driver, progress=False)
        assert helpers.db_counts(driver) == helpers.graph_counts(graph)
        assert 0 < stats.nodes_created < graph.number_of_nodes()


# ---------------------------------------------------------------- FalkorDB over Bolt


def test_falkordb_unicode_quotes_and_long_values_round_trip(bolt, helpers):
    graph = helpers.nasty_graph()
    write_neo4j(graph, bolt, dialect="falkordb", progress=False)
    assert helpers.db_counts(bolt) == helpers.graph_counts(graph)
    with bolt.session() as session:
        names = {
            r["id"]: (r["name"], r["aliases"])
            for r in session.run(
                "MATCH (m:Method) RETURN m.id AS id, m.name AS name, m.aliases AS aliases"
            )
        }
        paper = session.run(
            "MATCH (p:Paper) RETURN p.title AS t, p.abstract AS a, p.authors AS au"
        ).single()
        rel = session.run(
            "MATCH (:Method {id: 'entity:nasty-0'})-[r:COMPARED_WITH]->() "
            "RETURN r.evidence_papers AS p, r.evidence_starts AS s"
        ).single()
        # FalkorDB pastes string parameters into the query unescaped: a query of our own
        # must escape them the way write_neo4j does (see kg.export.neo4j.falkordb).
        by_name = session.run(
            "MATCH (m:Method {name: $name}) RETURN m.id AS id",
            name=_falkordb_escape(helpers.NASTY_NAME),
        )
        found = [r["id"] for r in by_name]
    for n, text in enumerate(helpers.NASTY_STRINGS):
        assert names[f"entity:nasty-{n}"] == (text, [text, text + "!"])
    long = graph.nodes["paper:long"]
    assert paper["t"] == helpers.NASTY_NAME
    assert paper["a"] == long["abstract"] and len(paper["a"]) > 4 * FALKORDB_MAX_MESSAGE_BYTES
    assert paper["au"] == long["authors"]
    assert rel["p"] == [
        e["paper"]
        for e in graph.edges["entity:nasty-0", "entity:nasty-1", "COMPARED_WITH"]["evidence"]
    ]
    assert rel["s"] == list(range(300))
    assert found == ["entity:nasty-0"]


def test_falkordb_nul_characters_become_replacement_characters(bolt):
    g = nx.MultiDiGraph()
    g.add_node("entity:nul", label="Task", name="a\x00b")
    write_neo4j(g, bolt, dialect="falkordb", progress=False)
    with bolt.session() as session:
        assert session.run("MATCH (t:Task) RETURN t.name AS n").single()["n"] == "a\ufffdb"


def test_falkordb_refuses_a_database_name(bolt, helpers):
    with pytest.raises(ValueError, match="database=None"):
        write_neo4j(helpers.make_graph(1), bolt, database="kg", dialect="falkordb", progress=False)


# ---------------------------------------------------------------- the .cypher script


def test_cypher_literals_escape_what_needs_it():
    assert cypher_literal('O\'Brien \\ "q"\n') == "'O\\'Brien \\\\ \"q\"\\n'"
    assert cypher_literal([1, True, None, 2.5]) == "[1, true, null, 2.5]"
    with pytest.raises(ValueError):
        cypher_literal({"bad key": 1})


def _script_statements(path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    statements = [line for line in text.split("\n") if line and not line.startswith("//")]
    assert all(s.endswith(";") for s in statements)
    return [s[:-1] for s in statements]


def test_cypher_script_run_statement_by_statement_on_neo4j_gives_the_bolt_graph(
    neo4j_driver, helpers, tmp_path
):
    graph = nx.compose(helpers.make_graph(10), helpers.nasty_graph())
    write_neo4j(graph, neo4j_driver, progress=False)
    loaded = (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver))
    neo4j_driver.execute_query("MATCH (n) DETACH DELETE n")

    path = tmp_path / "graph.cypher"
    write_cypher_script(graph, path, batch_size=7)
    statements = _script_statements(path)
    assert statements[0].startswith("CREATE CONSTRAINT kg_")
    with neo4j_driver.session() as session:
        for statement in statements:
            session.run(statement).consume()
    assert (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver)) == loaded
    with neo4j_driver.session() as session:  # re-runnable: merges only
        for statement in statements:
            session.run(statement).consume()
    assert (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver)) == loaded


def test_cypher_script_runs_in_cypher_shell(neo4j_server, neo4j_driver, helpers, tmp_path):
    graph = nx.compose(helpers.make_graph(6), helpers.nasty_graph())
    write_neo4j(graph, neo4j_driver, progress=False)
    loaded = (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver))
    neo4j_driver.execute_query("MATCH (n) DETACH DELETE n")

    path = tmp_path / "graph.cypher"
    write_cypher_script(graph, path)
    done = neo4j_server.cypher_shell("--fail-fast", "-f", str(path))
    assert done.returncode == 0, done.stderr
    assert (helpers.db_counts(neo4j_driver), _checksum(neo4j_driver)) == loaded


def test_cypher_script_runs_on_falkordb_and_recreates_the_graph(falkordb_server, helpers, tmp_path):
    graph = nx.compose(helpers.make_graph(10), helpers.nasty_graph())
    path = tmp_path / "graph.cypher"
    lines = write_cypher_script(graph, path, dialect="falkordb", batch_size=7)
    assert path.read_text(encoding="utf-8").count("\n") == lines
    target = falkordb_server.graph("script")
    for statement in _script_statements(path):
        target.query(statement)
    rows = to_rows(graph)
    for label, group in rows.nodes.items():
        got = {
            r[0]: r[1]
            for r in target.ro_query(f"MATCH (n:{label}) RETURN n.id, properties(n)").result_set
        }
        assert got == {row["id"]: {"id": row["id"], **row["props"]} for row in group}
    for (rel_type, src, dst), group in rows.relationships.items():
        got = {
            (r[0], r[1]): r[2]
            for r in target.ro_query(
                f"MATCH (a:{src})-[r:{rel_type}]->(b:{dst}) RETURN a.id, b.id, properties(r)"
            ).result_set
        }
        assert got == {(row["src"], row["dst"]): row["props"] for row in group}
    target.delete()


def test_cypher_script_for_neo4j_starts_with_constraints(helpers):
    lines = list(iter_cypher_script(helpers.make_graph(3)))
    statements = [line for line in lines if not line.startswith("//")]
    assert statements[0].startswith("CREATE CONSTRAINT kg_")
    data = [s for s in statements if s.startswith("UNWIND")]
    assert data and all("$" not in s.split(" AS row")[0] for s in data)
    falkor = [
        s
        for s in iter_cypher_script(helpers.make_graph(3), dialect="falkordb")
        if s.startswith("UNWIND")
    ]
    assert falkor == data


def test_relationship_types_cover_the_schema():
    assert set(RELATIONSHIP_TYPES) >= {"PROPOSES", "MENTIONS", "EVALUATED_ON", "RESULT_AGAINST"}
