"""The SPARQL 1.1 Protocol as the front reads it: a request's parameters -> the one query sent on.

Pure functions of what the client sent: the handler reads the request, these
decide what is refused (and with which status) and what goes to Oxigraph.

Examples
--------
>>> query_form(url_params("query=ASK%7B%7D&default-graph-uri=urn:g&x=1"), 1024)
[('query', 'ASK{}'), ('default-graph-uri', 'urn:g')]
>>> query_form(url_params("update=CLEAR%20ALL"), 1024)
Traceback (most recent call last):
...
kg.query.serve.protocol.Refused: 403 updates are refused: this endpoint is read-only
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

from kg.query import sparql

__all__ = ["FORM", "Refused", "Reply", "accept_header", "body_params", "query_form", "text_reply", "url_params"]

FORM = "application/x-www-form-urlencoded"
_READ_ONLY = "updates are refused: this endpoint is read-only"


@dataclass(frozen=True)
class Reply:
    """A whole response: the front buffers every answer (that is how it bounds their size)."""

    status: int
    content_type: str
    body: bytes


def text_reply(status: int, message: str) -> Reply:
    return Reply(status, "text/plain; charset=utf-8", (message.rstrip("\n") + "\n").encode())


class Refused(Exception):
    """A request the front answers itself, with :attr:`reply`, and does not send on."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status} {message}")
        self.reply = text_reply(status, message)


def url_params(query_string: str) -> list[tuple[str, str]]:
    """The parameters of the URL (400 unless it is UTF-8)."""
    try:
        return urllib.parse.parse_qsl(query_string, keep_blank_values=True, strict_parsing=False,
                                      errors="strict")
    except UnicodeDecodeError as error:
        raise Refused(400, "the URL is not valid UTF-8") from error


def body_params(content_type: str | None, body: bytes) -> list[tuple[str, str]]:
    """The parameters of a POST body: a form, or a query as ``application/sparql-query``."""
    ctype = (content_type or "").split(";")[0].strip().lower()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refused(400, "the request body is not valid UTF-8") from error
    if ctype == FORM:
        return urllib.parse.parse_qsl(text, keep_blank_values=True)
    if ctype == "application/sparql-query":
        return [("query", text)]
    if ctype == "application/sparql-update":
        raise Refused(403, _READ_ONLY)
    raise Refused(415, "POST a query as application/x-www-form-urlencoded or application/sparql-query")


def query_form(params: list[tuple[str, str]], max_query_bytes: int) -> list[tuple[str, str]]:
    """What is sent to Oxigraph: one read-only query without ``SERVICE`` (see
    :func:`kg.query.sparql.check_query`) and the dataset parameters; else :class:`Refused`."""
    if "update" in [name for name, _ in params]:
        raise Refused(403, _READ_ONLY)
    queries = [value for name, value in params if name == "query"]
    if len(queries) != 1:
        raise Refused(400, "give exactly one 'query' parameter (a query page is at /)")
    text = queries[0]
    if len(text.encode("utf-8")) > max_query_bytes:
        raise Refused(413, f"query larger than {max_query_bytes} bytes")
    try:
        sparql.check_query(text)
    except sparql.QueryRefused as error:
        raise Refused(403, str(error)) from error
    return [("query", text)] + [
        (name, value) for name, value in params
        if name in ("default-graph-uri", "named-graph-uri")
    ]


def accept_header(value: str | None) -> str:
    """The Accept header sent to Oxigraph: ``*/*`` prefers SPARQL JSON and Turtle."""
    default = "application/sparql-results+json, text/turtle;q=0.9"
    if not value or not value.strip():
        return default
    items = []
    for item in value.split(","):
        media, _, params = item.strip().partition(";")
        if media.strip() != "*/*":
            items.append(item.strip())
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(number)
                except ValueError:
                    pass
        items.append(f"application/sparql-results+json;q={q:g}, text/turtle;q={q:g}, */*;q={q / 2:g}")
    return ", ".join(items)
