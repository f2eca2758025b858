"""The query page the front serves at ``/``: files of ``assets/`` and the example queries.

The page is kg's own, not Oxigraph's YASGUI, which sends what is typed to
``prefix.cc`` and the LOV API; this one makes no request to another host, and
:data:`CSP` (sent with the HTML) forbids it.
"""

from __future__ import annotations

import json
from importlib.resources import files

from kg.query import sparql

__all__ = ["CSP", "static_files"]

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def _asset(name: str) -> bytes:
    return files("kg.query.serve").joinpath("assets", name).read_bytes()


def static_files() -> dict[str, tuple[str, bytes]]:
    """URL path -> (content type, body): the page, its script and style, the examples as JSON."""
    listing = [
        {"name": e.name, "question": e.question, "form": e.form, "query": e.text}
        for e in sparql.examples()
    ]
    page = _asset("page.html")
    return {
        "/": ("text/html; charset=utf-8", page),
        "/index.html": ("text/html; charset=utf-8", page),
        "/page.js": ("text/javascript; charset=utf-8", _asset("page.js")),
        "/page.css": ("text/css; charset=utf-8", _asset("page.css")),
        "/examples.json": ("application/json", json.dumps(listing, ensure_ascii=False).encode()),
    }
