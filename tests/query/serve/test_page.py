"""The query page is package data (``kg/query/serve/assets``) and asks only its own origin."""

from __future__ import annotations

import json
import re

from kg.query import sparql
from kg.query.serve.page import CSP, static_files


def test_page_files_are_the_assets_and_the_examples():
    files = static_files()
    assert files["/"] == files["/index.html"]
    assert files["/"][0] == "text/html; charset=utf-8"
    page = files["/"][1].decode()
    assert sorted(re.findall(r'(?:src|href)="([^"]+)"', page)) == ["page.css", "page.js"]
    for path in ("/page.js", "/page.css"):
        assert files[path][1] and not re.search(rb"https?://|//[a-z]", files[path][1]), path
    listing = json.loads(files["/examples.json"][1])
    assert [e["name"] for e in listing] == [e.name for e in sparql.examples()]


def test_page_csp_allows_only_the_page_origin():
    assert "default-src 'none'" in CSP and "connect-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
    assert "http" not in CSP
