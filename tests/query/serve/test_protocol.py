"""What a SPARQL request may ask, decided without a server (test_serve.py asks over HTTP)."""

from __future__ import annotations

import pytest

from kg.query.serve.protocol import Refused, body_params, query_form, url_params

ASK = "ASK {}"


def _status(call) -> int:
    with pytest.raises(Refused) as refused:
        call()
    return refused.value.reply.status


def test_protocol_sends_one_query_and_the_dataset_parameters_only():
    params = [("query", ASK), ("default-graph-uri", "urn:a"), ("named-graph-uri", "urn:b"), ("timeout", "0")]
    assert query_form(params, 1024) == [("query", ASK), ("default-graph-uri", "urn:a"), ("named-graph-uri", "urn:b")]


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ([("update", "CLEAR ALL")], 403),
        ([("query", ASK), ("update", "")], 403),
        ([], 400),
        ([("query", ASK), ("query", ASK)], 400),
        ([("query", "SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }")], 403),
        ([("query", "LOAD <file:///etc/passwd>")], 403),
        ([("query", "ASK { } #" + "x" * 100)], 413),
    ],
    ids=["update", "update-beside-a-query", "no-query", "two-queries", "service", "load", "too-long"],
)
def test_protocol_refuses(params, status):
    assert _status(lambda: query_form(params, 64)) == status


@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        ("application/x-www-form-urlencoded", b"query=ASK%20%7B%7D", [("query", ASK)]),
        ("Application/X-WWW-Form-Urlencoded; charset=utf-8", b"query=ASK%20%7B%7D", [("query", ASK)]),
        ("application/sparql-query", ASK.encode(), [("query", ASK)]),
    ],
)
def test_protocol_reads_both_post_forms(content_type, body, expected):
    assert body_params(content_type, body) == expected


@pytest.mark.parametrize(
    ("content_type", "body", "status"),
    [
        ("application/sparql-update", b"CLEAR ALL", 403),
        ("text/plain", ASK.encode(), 415),
        (None, ASK.encode(), 415),
        ("application/sparql-query", b"\xff", 400),
    ],
)
def test_protocol_refuses_other_bodies(content_type, body, status):
    assert _status(lambda: body_params(content_type, body)) == status


def test_protocol_refuses_a_url_that_is_not_utf8():
    assert url_params("query=ASK%7B%7D") == [("query", "ASK{}")]
    assert _status(lambda: url_params("query=%ff")) == 400
