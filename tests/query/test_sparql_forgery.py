"""No query reaches another server: generated SERVICE queries against a real listener.

Each generated query hides a ``SERVICE`` call to a listener on 127.0.0.1 behind
the things a lexical filter can misread: escapes in prefixed names
(``e:a\\#``), comments, strings with escaped quotes, ``\\u`` escapes of the
keyword's letters, odd case and spacing. The query goes through
:func:`kg.query.sparql.query` on an embedded Oxigraph store (the engine that
would make the request) and, for a sample, through ``kg serve`` over HTTP;
the listener must never see a connection. The same generator with the filter
switched off does reach the listener, so the test can fail.
"""

from __future__ import annotations

import socket
import threading

import pytest
import sparql_helpers as fixtures
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.query import sparql

_LOCAL_ESCAPES = "_~.-!$&'()*+,;=/?#@%"


class Listener:
    """A TCP listener on 127.0.0.1 that counts connections (and closes them at once)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def listener():
    server = Listener()
    yield server
    server.close()


def _escape_letters(word: str, draw) -> str:
    """Random case; in one query of four, some letters written as ``\\u`` escapes."""
    ways = ["plain", "upper", "lower"] + (["u4", "U8"] if draw(st.integers(0, 3)) == 0 else [])
    out = []
    for char in word:
        how = draw(st.sampled_from(ways))
        if how == "u4":
            out.append(f"\\u{ord(char):04X}")
        elif how == "U8":
            out.append(f"\\U{ord(char):08x}")
        else:
            out.append(char.upper() if how == "upper" else char.lower() if how == "lower" else char)
    return "".join(out)


@st.composite
def service_queries(draw, port: int) -> str:
    """A SELECT whose WHERE clause calls SERVICE on the listener, behind generated noise."""
    space = lambda: draw(st.sampled_from([" ", "\n", "\t", "  ", ""]))  # noqa: E731
    noise = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["escape", "comment", "string", "iri", "bind"]))
        if kind == "escape":
            noise.append(f"BIND(e:a\\{draw(st.sampled_from(_LOCAL_ESCAPES))} AS ?q{len(noise)}) ")
        elif kind == "comment":
            comment = draw(st.sampled_from(["x", "}", "SERVICE", '"', "'"]))
            noise.append(f"# {comment}\n")
        elif kind == "string":
            quote = draw(st.sampled_from(['"', "'", '"""', "'''"]))
            body = draw(st.sampled_from(["a\\" + quote[0] + "b", "# not a comment", "}", ""]))
            noise.append(f"BIND({quote}{body}{quote} AS ?s{len(noise)}) ")
        elif kind == "iri":
            noise.append(f"BIND(<http://example.org/a#b> AS ?i{len(noise)}) ")
        else:
            noise.append(f"BIND(e:x AS ?b{len(noise)}) ")
    keyword = _escape_letters("SERVICE", draw)
    silent = draw(st.sampled_from(["", "SILENT ", "silent "]))
    target = f"http://127.0.0.1:{port}/sparql"
    call = f"{keyword}{space() or ' '}{silent}<{target}>{space()}{{ ?s ?p ?o }}"
    body = "".join(noise) + call
    if draw(st.booleans()):
        body = f"{{ {body} }} UNION {{ ?a ?b ?c }}"
    return f"PREFIX e: <http://example.org/>{space()}SELECT * WHERE {{{space()}{body}{space()}}}"


def _ask(store, text: str, allow_service: bool = False) -> None:
    try:
        sparql.query(store, text, allow_service=allow_service)
    except sparql.SparqlError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_generated_service_query_reaches_a_listener(store, listener, data):
    text = data.draw(service_queries(listener.port))
    before = listener.connections
    _ask(store, text)
    assert listener.connections == before, f"a SERVICE call got through: {text!r}"


def test_the_generator_does_reach_the_listener_without_the_filter(store, listener):
    """The harness can fail: with SERVICE allowed, generated queries do make requests."""
    examples = []

    @settings(max_examples=40, deadline=None, database=None)
    @given(data=st.data())
    def collect(data):
        examples.append(data.draw(service_queries(listener.port)))

    collect()
    before = listener.connections
    for text in examples:
        _ask(store, text, allow_service=True)
    assert listener.connections - before >= len(examples) // 2


@pytest.mark.parametrize(
    "text",
    [
        "PREFIX e: <http://example.org/> SELECT ?x WHERE { BIND(e:a\\# AS ?q) SERVICE <TARGET> { ?x ?y ?z } }",
        "PREFIX e: <http://example.org/> SELECT ?x WHERE { BIND(e:a\\' AS ?q) SERVICE <TARGET> { ?x ?y ?z } }",
        'PREFIX e: <http://example.org/> SELECT ?x WHERE { BIND(e:a\\" AS ?q) SERVICE <TARGET> { ?x ?y ?z } }',
        "SELECT * WHERE { BIND('\\'' AS ?q) SERVICE <TARGET> { ?x ?y ?z } }",
        "SELECT * WHERE { BIND(\"\\u0022\" AS ?q) SERVICE <TARGET> { ?x ?y ?z } }",
        "SELECT * WHERE { \\u0053ERVICE <TARGET> { ?x ?y ?z } }",
        "SELECT * WHERE { SERVICE\n<TARGET>{?x ?y ?z} }",
    ],
)
def test_known_forgeries_are_refused(store, listener, text):
    text = text.replace("TARGET", f"http://127.0.0.1:{listener.port}/x")
    before = listener.connections
    with pytest.raises(sparql.QueryRefused, match="SERVICE|service"):
        sparql.query(store, text)
    assert listener.connections == before


def test_queries_mentioning_service_harmlessly_still_run(store):
    ok = [
        'PREFIX kgo: <https://w3id.org/kg/ontology#> SELECT ?n WHERE { ?x kgo:name ?n '
        'FILTER(CONTAINS(?n, "service")) }',
        "SELECT ?service WHERE { ?service ?p ?o } LIMIT 1",
        "PREFIX service: <http://s/> ASK { ?s service:x ?o }",
    ]
    for text in ok:
        sparql.query(store, text)


def test_kg_serve_refuses_generated_forgeries(build_dir, listener, tmp_path_factory):
    """A sample of the generated queries through the HTTP front of ``kg serve``."""
    examples = []

    @settings(max_examples=40, deadline=None, database=None)
    @given(data=st.data())
    def collect(data):
        examples.append(data.draw(service_queries(listener.port)))

    collect()
    server = fixtures.start_kg_serve(build_dir, tmp_path_factory.mktemp("logs"))
    try:
        before = listener.connections
        statuses = [fixtures.get_query(server.url, text)[0] for text in examples]
    finally:
        assert server.stop() == 0
    assert listener.connections == before
    assert set(statuses) <= {400, 403}, statuses
