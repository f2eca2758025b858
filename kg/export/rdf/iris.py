"""The IRIs of the RDF export: the vocabulary's prefixes and terms, the class of each node label
and the property of each edge type, and the IRI of each node, statement and external URL.

IRIs are derived from ids alone, so every export of a graph names its nodes alike.
"""

from __future__ import annotations

import re

from kg import schema
from kg.namespace import KG_BASE, KGO_IRI


_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_RDFS = "http://www.w3.org/2000/01/rdf-schema#"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_OWL = "http://www.w3.org/2002/07/owl#"
_SKOS = "http://www.w3.org/2004/02/skos/core#"
_DCTERMS = "http://purl.org/dc/terms/"
_DC = "http://purl.org/dc/elements/1.1/"
_SCHEMA = "http://schema.org/"
_PROV = "http://www.w3.org/ns/prov#"

PREFIXES: dict[str, str] = {
    "kgo": KGO_IRI,
    "rdf": _RDF,
    "rdfs": _RDFS,
    "xsd": _XSD,
    "owl": _OWL,
    "skos": _SKOS,
    "dcterms": _DCTERMS,
    "dc": _DC,
    "schema": _SCHEMA,
    "prov": _PROV,
}
"""Vocabulary prefixes bound in Turtle and used as the JSON-LD context."""

_INSTANCE_PREFIXES = ("paper", "entity", "venue", "code", "result")

_TYPE = _RDF + "type"
_LABEL = _RDFS + "label"
_STATEMENT = _RDF + "Statement"
_INTEGER = _XSD + "integer"
_GYEAR = _XSD + "gYear"
_BOOLEAN = _XSD + "boolean"
_DECIMAL = _XSD + "decimal"
_DERIVED = _PROV + "wasDerivedFrom"
_QUALIFIED = _PROV + "qualifiedDerivation"
_PROV_ENTITY = _PROV + "entity"


def _property_name(edge_type: str) -> str:
    """The ontology's name of an edge type: ``RESULT_MEASURED_BY`` -> ``resultMeasuredBy``."""
    first, *rest = edge_type.lower().split("_")
    return first + "".join(word.capitalize() for word in rest)


#: The ``kgo:`` class of each node label of :mod:`kg.schema` (``Paper`` -> ``kgo:Paper``).
CLASSES: dict[str, str] = {label: KGO_IRI + label for label in schema.NODE_LABELS}
#: The ``kgo:`` property of each edge type (``EVALUATED_ON`` -> ``kgo:evaluatedOn``); the
#: entity-entity relations (:data:`kg.schema.RELATION_TYPES`) are also reified.
EDGE_PROPERTIES: dict[str, str] = {kind: KGO_IRI + _property_name(kind) for kind in schema.EDGE_TYPES}


def _namespaces(base: str) -> dict[str, str]:
    """Every prefix the writers use: the vocabularies and one per kind of instance."""
    return {**PREFIXES, **{prefix: f"{base}{prefix}/" for prefix in _INSTANCE_PREFIXES}}


# RFC 3987 ucschar: the non-ASCII characters an IRI may hold unencoded.
_UCSCHAR = (
    "\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    + "".join(f"{chr(plane << 16)}-{chr((plane << 16) | 0xFFFD)}" for plane in range(1, 14))
    + "\U000e1000-\U000efffd"
)
_SEGMENT_UNSAFE = re.compile(rf"[^A-Za-z0-9\-._~!$&'()*+,;=:@{_UCSCHAR}]")
_URL_UNSAFE = re.compile(rf"[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%{_UCSCHAR}]|%(?![0-9A-Fa-f]{{2}})")
_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:(?://[^/?#]*)?")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_BASE_OK = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\x00-\x20<>\"{}|^`\\\x7f]*[/#]")


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in match.group(0).encode("utf-8", "surrogatepass"))


def _segment(text: str) -> str:
    """One IRI path segment: ``/``, spaces, ``%``, ``?``, ``#`` ... percent-encoded."""
    if text in (".", ".."):
        return text.replace(".", "%2E")
    return _SEGMENT_UNSAFE.sub(_percent, text)


def _url_iri(url: str) -> str:
    """An external URL as an IRI: scheme added if missing, only invalid characters encoded."""
    url = url.strip()
    if not _SCHEME.match(url):
        url = "https://" + url
    start = _URL_START.match(url)
    authority = start.group(0) if start else ""  # may hold an IPv6 "[...]"
    head, hash_, fragment = url[len(authority) :].partition("#")
    authority = re.sub(r"[^\[\]]+", lambda m: _URL_UNSAFE.sub(_percent, m.group(0)), authority)
    return (
        authority
        + _URL_UNSAFE.sub(_percent, head)
        + hash_
        + _URL_UNSAFE.sub(_percent, fragment.replace("#", "%23"))
    )


def _check_base(base: str) -> str:
    if not _BASE_OK.fullmatch(base):
        raise ValueError(
            "base must be an absolute IRI ending in '/' or '#', without spaces or"
            f' <>"{{}}|^`\\: {base!r}'
        )
    return base


def _path(node_id: str) -> str:
    """The IRI of ``node_id`` relative to the base, e.g. ``entity/cifar-10``."""
    kind, sep, rest = node_id.partition(":")
    if sep and rest:
        if kind in ("entity", "venue", "paper"):
            return f"{kind}/{_segment(rest)}"
        if kind in ("doi", "arxiv"):
            return f"paper/{kind}/{_segment(rest)}"
        if kind == "code":
            return "code/" + "/".join(_segment(part) for part in rest.split("/"))
        if kind == "result":
            paper, sep, n = rest.rpartition(":")
            if (
                sep
                and n.isascii()
                and n.isdigit()
                and paper.partition(":")[0] in ("paper", "doi", "arxiv")
            ):
                return f"result/{_path(paper).removeprefix('paper/')}/{n}"
    return f"node/{_segment(node_id)}"


def node_iri(node_id: str, base: str = KG_BASE) -> str:
    """The IRI of a graph node, e.g. ``entity:cifar-10`` -> ``<base>entity/cifar-10``."""
    return _check_base(base) + _path(str(node_id))


def _statement_path(subject: str, edge_type: str, obj: str) -> str:
    local = _property_name(edge_type)
    return f"statement/{_path(subject)}/{local}/{_path(obj)}"


def statement_iri(subject: str, edge_type: str, obj: str, base: str = KG_BASE) -> str:
    """The IRI of the ``rdf:Statement`` reifying a relation edge ``subject -edge_type-> obj``.

    >>> statement_iri("entity:resnet", "EVALUATED_ON", "entity:cifar-10", "https://example.org/")
    'https://example.org/statement/entity/resnet/evaluatedOn/entity/cifar-10'
    """
    return _check_base(base) + _statement_path(str(subject), edge_type, str(obj))
