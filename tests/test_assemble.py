import networkx as nx

from kg.assemble import assemble_graph
from kg.resolve import Resolver
from kg.types import Entity, Extraction, Mention, Paper, Relation, Result, Source


def _records():
    def paper(pid, venue="ICLR"):
        return Paper(pid, "We propose Zorb. Zorb beats GPT-4o on MNIST by 5%.", Source("f", 0), venue=venue, year=2025)

    def ent(name, kind, proposed=False):
        return Entity(name, kind, name.lower(), [Mention(name, 0, len(name))], proposed)

    a = Extraction(
        paper("p:a"),
        [ent("Zorb", "Method", True), ent("MNIST", "Dataset"), ent("GPT-4o", "Model")],
        [Relation(0, "evaluated_on", 1, 17, 50), Relation(0, "compared_with", 2, 17, 50)],
        [Result("accuracy", "5%", 45, 47, subject=0, dataset=1, baseline=2)],
        ["https://github.com/x/zorb"],
    )
    b = Extraction(paper("p:b"), [ent("Zorb", "Method"), ent("MNIST", "Dataset")],
                   [Relation(0, "evaluated_on", 1, 0, 10)])
    resolver = Resolver()
    for e in (a, b):
        resolver.add(e)
    return [resolver.resolve(e) for e in (a, b)], resolver.entities


def test_graph_has_the_documented_shape():
    records, entities = _records()
    g = assemble_graph(records, entities)
    labels = nx.get_node_attributes(g, "label")
    assert labels["entity:zorb"] == "Method" and labels["entity:mnist"] == "Dataset"
    assert labels["venue:iclr"] == "Venue" and labels["code:github.com/x/zorb"] == "CodeRepository"
    assert g.has_edge("p:a", "entity:zorb", key="PROPOSES")
    assert g.has_edge("p:b", "entity:zorb", key="MENTIONS")
    evaluated = g.edges["entity:zorb", "entity:mnist", "EVALUATED_ON"]
    assert evaluated["support"] == 2
    assert [e["paper"] for e in evaluated["evidence"]] == ["p:a", "p:b"]
    assert g.nodes["entity:zorb"]["paper_count"] == 2
    assert g.nodes["entity:zorb"]["proposed_by"] == ["p:a"]
    result = "result:p:a:0"
    assert g.nodes[result]["value"] == "5%"
    assert {k for _, _, k in g.out_edges(result, keys=True)} == {"RESULT_OF", "RESULT_ON", "RESULT_AGAINST"}


def test_graph_does_not_depend_on_record_order():
    records, entities = _records()
    g1 = assemble_graph(records, entities)
    g2 = assemble_graph(list(reversed(records)), entities)
    assert dict(g1.nodes(data=True)) == dict(g2.nodes(data=True))
    assert sorted(g1.edges(keys=True)) == sorted(g2.edges(keys=True))
    assert g1.edges["entity:zorb", "entity:mnist", "EVALUATED_ON"] == g2.edges["entity:zorb", "entity:mnist", "EVALUATED_ON"]


def test_a_paper_without_a_title_has_no_title_and_no_piece_of_its_abstract_as_name(tmp_path):
    """Text lists hold abstracts only: such a paper gets no title anywhere, and its display
    name is its id, not the first 80 characters of its abstract cut mid-word."""
    import rdflib

    from kg.build import build

    abstract = "We propose Zorbnet, a novel framework for node classification, evaluated on MNIST and CIFAR-10."
    (tmp_path / "list.txt").write_text(f"ICLR 2025 Papers\n\n{abstract}\n", encoding="utf-8")
    graph = build([tmp_path / "list.txt"], tmp_path / "out", cache=False).graph
    (paper, data), = [(n, d) for n, d in graph.nodes(data=True) if d["label"] == "Paper"]
    assert data["title"] is None and data["name"] == f"{paper} (no title)"
    rdf = rdflib.Graph().parse(tmp_path / "out" / "graph.ttl")
    assert not list(rdf.objects(None, rdflib.DCTERMS.title))
    from kg.export.rdf import node_iri

    assert [str(o) for o in rdf.objects(rdflib.URIRef(node_iri(paper)), rdflib.RDFS.label)] == [f"{paper} (no title)"]
