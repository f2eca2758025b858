"""The kg ontology namespace and the default base of instance IRIs.

:class:`KGO` lists every term declared in ``ontology/kg.ttl``; ``_fail = True``
makes a misspelt term an error at once. ``tests/test_namespace.py`` checks the
two never drift apart.

Examples
--------
>>> str(KGO.evaluatedOn)
'https://w3id.org/kg/ontology#evaluatedOn'
>>> KGO.evaluatedOnn
Traceback (most recent call last):
...
AttributeError: term 'evaluatedOnn' not in namespace 'https://w3id.org/kg/ontology#'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rdflib import URIRef
from rdflib.namespace import DefinedNamespace, Namespace

__all__ = ["KGO", "KGO_IRI", "KG_BASE", "ONTOLOGY_FILES", "ontology_file"]

ONTOLOGY_FILES = ("kg.ttl", "shapes.ttl", "README.md")
"""The ontology, its SHACL shapes and their documentation, shipped with the package."""

KGO_IRI = "https://w3id.org/kg/ontology#"
"""The namespace of ontology terms (prefix ``kgo:``)."""

KG_BASE = "https://w3id.org/kg/id/"
"""The default base of instance IRIs (``<base>entity/cifar-10``, ``<base>paper/...``)."""


class KGO(DefinedNamespace):
    """The terms of ``ontology/kg.ttl`` (``https://w3id.org/kg/ontology#``)."""

    _NS = Namespace(KGO_IRI)
    _fail = True

    # classes
    ResearchEntity: URIRef
    Paper: URIRef
    Venue: URIRef
    CodeRepository: URIRef
    Method: URIRef
    Dataset: URIRef
    Model: URIRef
    Metric: URIRef
    Task: URIRef
    Result: URIRef
    Evidence: URIRef

    # object properties
    proposes: URIRef
    mentions: URIRef
    evaluatedOn: URIRef
    comparedWith: URIRef
    uses: URIRef
    extends: URIRef
    appliedTo: URIRef
    measuredBy: URIRef
    hasCode: URIRef
    publishedIn: URIRef
    reports: URIRef
    resultOf: URIRef
    resultOn: URIRef
    resultFor: URIRef
    resultMeasuredBy: URIRef
    resultAgainst: URIRef

    # datatype properties
    value: URIRef
    metricName: URIRef
    numericValue: URIRef
    unit: URIRef
    delta: URIRef
    direction: URIRef
    setting: URIRef
    support: URIRef
    paperCount: URIRef
    mentionCount: URIRef
    catalogueId: URIRef
    generic: URIRef
    evidenceStart: URIRef
    evidenceEnd: URIRef
    sentenceStart: URIRef
    sentenceEnd: URIRef


def ontology_file(name: str = "kg.ttl") -> Path:
    """The path of a file of ``ontology/`` in the installed package (``kg/ontology``).

    >>> ontology_file("shapes.ttl").name
    'shapes.ttl'
    """
    if name not in ONTOLOGY_FILES:
        raise ValueError(f"no ontology file {name!r} (have: {', '.join(ONTOLOGY_FILES)})")
    return Path(str(resources.files("kg").joinpath("ontology", name)))
