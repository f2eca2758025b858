"""A driver for a Bolt URI, with credentials from arguments or the environment."""

from __future__ import annotations

import os
from typing import Any

from kg.export.neo4j.errors import Neo4jExportError, _describe, _redact_uri

#: URI schemes the ``neo4j`` driver speaks (Bolt, direct or routed, plain or TLS).
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def check_uri(uri: str) -> str:
    """``uri`` if the driver can use its scheme; else :class:`Neo4jExportError` naming the schemes.

    >>> check_uri("neo4j://localhost:7687")
    'neo4j://localhost:7687'
    >>> check_uri("http://localhost:7474")
    Traceback (most recent call last):
    ...
    kg.export.neo4j.errors.Neo4jExportError: cannot use http://localhost:7474: kg talks to Neo4j over Bolt, so the URI must start with bolt://, bolt+s://, bolt+ssc://, neo4j://, neo4j+s:// or neo4j+ssc:// (e.g. bolt://localhost:7687; 7474 is Neo4j's HTTP port)
    """
    scheme, sep, _ = uri.partition("://")
    if sep and scheme.lower() in BOLT_SCHEMES:
        return uri
    schemes = ", ".join(f"{s}://" for s in BOLT_SCHEMES[:-1]) + f" or {BOLT_SCHEMES[-1]}://"
    raise Neo4jExportError(
        f"cannot use {_redact_uri(uri)}: kg talks to Neo4j over Bolt, so the URI must start with "
        f"{schemes} (e.g. bolt://localhost:7687; 7474 is Neo4j's HTTP port)"
    )


def connect(
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    *,
    verify: bool = True,
    **config: Any,
):
    """A ``neo4j.Driver`` for ``uri`` (default ``NEO4J_URI``, then ``bolt://localhost:7687``).

    ``user`` defaults to ``NEO4J_USERNAME`` (then ``neo4j``), ``password`` to
    ``NEO4J_PASSWORD``; a missing password is an error (the CLI may prompt for
    it). ``config`` goes to ``GraphDatabase.driver``. Errors are
    :class:`Neo4jExportError` with the server address, never the credentials.
    """
    from neo4j import GraphDatabase
    from neo4j.exceptions import AuthError, DriverError, Neo4jError

    uri = check_uri(uri or os.environ.get("NEO4J_URI") or "bolt://localhost:7687")
    user = user or os.environ.get("NEO4J_USERNAME") or "neo4j"
    if password is None:
        password = os.environ.get("NEO4J_PASSWORD")
    if password is None:
        raise Neo4jExportError("no Neo4j password given: pass one or set NEO4J_PASSWORD")
    try:
        driver = GraphDatabase.driver(uri, auth=(user, password), **config)
    except (ValueError, DriverError) as exc:
        raise Neo4jExportError(
            f"cannot use Neo4j URI {_redact_uri(uri)}: {_describe(exc, [password])}"
        ) from None
    if verify:
        try:
            driver.verify_connectivity()
        except (Neo4jError, DriverError, OSError) as exc:
            driver.close()
            hint = " (wrong user name or password?)" if isinstance(exc, AuthError) else ""
            raise Neo4jExportError(
                f"cannot connect to Neo4j at {_redact_uri(uri)} as {user!r}: "
                f"{_describe(exc, [password])}{hint}"
            ) from None
    return driver
