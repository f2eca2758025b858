"""kg.namespace.KGO and ontology/kg.ttl declare the same terms, each labelled and commented."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS

from kg.namespace import KG_BASE, KGO, KGO_IRI

ROOT = Path(__file__).resolve().parents[1]
ONTOLOGY_IRI = URIRef("https://w3id.org/kg/ontology")
DECLARATIONS = (
    OWL.Class,
    OWL.ObjectProperty,
    OWL.DatatypeProperty,
    OWL.AnnotationProperty,
    RDF.Property,
)


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ROOT / "ontology" / "kg.ttl", format="turtle")


def _declared(ontology: Graph) -> set[URIRef]:
    return {
        term
        for kind in DECLARATIONS
        for term in ontology.subjects(RDF.type, kind)
        if isinstance(term, URIRef) and str(term).startswith(KGO_IRI)
    }


def test_namespace_terms_equal_ontology_declarations(ontology: Graph) -> None:
    terms = set(dir(KGO))
    declared = _declared(ontology)
    assert terms - declared == set(), "in kg/namespace.py but not declared in ontology/kg.ttl"
    assert declared - terms == set(), "declared in ontology/kg.ttl but missing from kg/namespace.py"


def test_every_kgo_iri_in_the_ontology_is_declared(ontology: Graph) -> None:
    used = {
        t
        for triple in ontology
        for t in triple
        if isinstance(t, URIRef) and str(t).startswith(KGO_IRI)
    }
    assert used - _declared(ontology) == set()


@pytest.mark.parametrize("term", sorted(dir(KGO)), ids=lambda t: t.removeprefix(KGO_IRI))
def test_every_term_has_an_english_label_and_comment(ontology: Graph, term: URIRef) -> None:
    for prop in (RDFS.label, RDFS.comment):
        values = list(ontology.objects(term, prop))
        assert len(values) == 1, f"{term} needs exactly one {prop}"
        assert (
            isinstance(values[0], Literal) and values[0].language == "en" and str(values[0]).strip()
        )
    assert (term, RDFS.isDefinedBy, ONTOLOGY_IRI) in ontology


@pytest.mark.parametrize(
    "term",
    sorted(t for t in dir(KGO) if t != KGO.ResearchEntity),
    ids=lambda t: t.removeprefix(KGO_IRI),
)
def test_every_property_has_domain_and_range(ontology: Graph, term: URIRef) -> None:
    if (term, RDF.type, OWL.Class) in ontology:
        return
    assert ontology.value(term, RDFS.domain) is not None
    assert ontology.value(term, RDFS.range) is not None


def test_ontology_header(ontology: Graph) -> None:
    assert (ONTOLOGY_IRI, RDF.type, OWL.Ontology) in ontology
    for prop in (OWL.versionInfo, DCTERMS.title, DCTERMS.license, OWL.versionIRI):
        assert ontology.value(ONTOLOGY_IRI, prop) is not None, prop


def test_unknown_term_fails() -> None:
    with pytest.raises(AttributeError):
        KGO.evaluatedOnn  # noqa: B018
    assert KGO.evaluatedOn == URIRef(KGO_IRI + "evaluatedOn")


def test_base_is_an_absolute_iri_ending_in_a_slash() -> None:
    assert KG_BASE.startswith("https://") and KG_BASE.endswith("/")


def test_shapes_only_use_declared_terms(ontology: Graph) -> None:
    shapes = Graph().parse(ROOT / "ontology" / "shapes.ttl", format="turtle")
    used = {
        t
        for triple in shapes
        for t in triple
        if isinstance(t, URIRef) and str(t).startswith(KGO_IRI)
    }
    assert used and used <= _declared(ontology)
