"""Which queries kg runs: updates and ``SERVICE`` are refused before a query reaches the engine.

Oxigraph would fetch any HTTP URL a ``SERVICE`` clause names, so a query that
might hold one is read twice, by keywords and on rdflib's parse tree, and
refused if either finds it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from kg.query.sparql.errors import QueryRefused

# SPARQL tokens that can hide keywords: IRIs, strings, comments. Everything else
# is split into words; a keyword is a word equal to it (case-insensitive), so
# ``?service``, ``ex:service`` and ``"service"`` are not the SERVICE keyword.
_TOKEN = re.compile(
    r"""
      (?P<ws>\s+)
    | (?P<comment>\#[^\n\r]*)
    | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
               | '''(?:[^'\\]|\\.|'(?!''))*'''
               | "(?:[^"\\\n\r]|\\.)*"
               | '(?:[^'\\\n\r]|\\.)*')
    | (?P<var>[?$][^\s{}()\[\];,.<>"'\#=!&|+*/^?$@\\]*)
    | (?P<word>(?:[^\s{}()\[\];,<>"'\#=!&|+*/^?$@\\]|\\.)+)
    | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_UCHAR = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_FORMS = ("SELECT", "CONSTRUCT", "DESCRIBE", "ASK")
_UPDATES = ("INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH")


def _words(text: str) -> Iterator[str]:
    """The upper-cased words of a query, outside IRIs, strings and comments."""
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "word":
            yield match.group().upper()


def _unescape(text: str) -> str:
    """SPARQL applies ``\\uXXXX`` escapes to the whole query text before parsing it."""

    def char(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"

    return _UCHAR.sub(char, text)


def query_form(text: str) -> str | None:
    """The first keyword after the prologue: ``SELECT``, ``ASK``, ``INSERT``... (``None`` if none)."""
    words = _words(text)
    for word in words:
        if word == "PREFIX":
            next(words, None)  # the prefix name; the IRI after it is not a word
        elif word != "BASE":
            return word
    return None


def check_query(text: str, *, allow_service: bool = False) -> str:
    """Refuse updates and ``SERVICE``; return the query form (``SELECT``, ``ASK``...).

    ``SERVICE`` makes the engine fetch from another server, so it is refused
    wherever it appears. A query that contains the letters ``service`` at all
    (in any case, after ``\\u`` escapes) is decided on its parse tree:
    rdflib's SPARQL parser must read it, and the tree must hold no ``SERVICE``
    pattern; a query it cannot read is refused rather than trusted. The
    lexical check on keywords runs as well, so both must miss a ``SERVICE``
    for one to pass. Syntax errors in other queries are left to the engine.

    >>> check_query("SELECT * WHERE { ?service ?p 'SERVICE' } # SERVICE")
    'SELECT'
    >>> check_query("SELECT * WHERE { SERVIC\\u0045 <http://h/> { ?s ?p ?o } }")
    Traceback (most recent call last):
    ...
    kg.query.sparql.errors.QueryRefused: SERVICE (federated query) is disabled: kg does not query other servers
    >>> check_query(r"PREFIX e: <http://e/> SELECT * { BIND(e:a\\# AS ?q) SERVICE <http://h/> { } }")
    Traceback (most recent call last):
    ...
    kg.query.sparql.errors.QueryRefused: SERVICE (federated query) is disabled: kg does not query other servers
    """
    form = None
    variants = _variants(text)
    for variant in variants:
        first = query_form(variant)
        if first in _UPDATES:
            raise QueryRefused(f"updates are refused: this store is read-only ({first})")
        if not allow_service and "SERVICE" in _words(variant):
            raise QueryRefused(_NO_SERVICE)
        form = form or first
    if not allow_service and any(_mentions_service(v) for v in variants):
        _refuse_service_in_parse_tree(text)
    return form if form in _FORMS else (form or "")


_NO_SERVICE = "SERVICE (federated query) is disabled: kg does not query other servers"


def _variants(text: str) -> list[str]:
    """The text and its ``\\u``-unescaped forms (applied until nothing changes), so an escape
    cannot hide a keyword whether the engine unescapes once or not at all."""
    variants = [text]
    for _ in range(4):
        unescaped = _unescape(variants[-1])
        if unescaped == variants[-1]:
            break
        variants.append(unescaped)
    return variants


def _mentions_service(text: str) -> bool:
    """The letters of ``service`` anywhere, under ASCII and Unicode case folding."""
    return "service" in text.lower() or "service" in unicodedata.normalize("NFKC", text).casefold()


def _refuse_service_in_parse_tree(text: str) -> None:
    from rdflib.plugins.sparql.parser import parseQuery
    from rdflib.plugins.sparql.parserutils import CompValue

    try:
        tree = parseQuery(text)
    except Exception as error:  # pyparsing's errors, and rdflib's own on odd input
        raise QueryRefused(
            "this query mentions 'service' and kg could not parse it to check that it makes "
            f"no SERVICE call, so it is refused ({str(error).splitlines()[0][:200]})"
        ) from None
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CompValue):
            if node.name == "ServiceGraphPattern":
                raise QueryRefused(_NO_SERVICE)
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)) or hasattr(node, "as_list"):
            stack.extend(node)
