"""kg.node_link: a build's graph.json read one item at a time is the graph read whole."""

from __future__ import annotations

import json
import os

import networkx as nx
import pytest

from kg.builddir import BuildDir
from kg.export.files import write_node_link
from kg.graphstore import sorted_graph
from kg.node_link import GraphFileError, NodeLinkFile, NotStreamableError


def _items(pairs):
    """Nodes or edges with attributes as item lists, so that attribute order counts."""
    return [(*head, list(attrs.items())) for *head, attrs in pairs]


def test_node_link_file_reads_what_read_graph_reads(build_dir):
    whole = sorted_graph(BuildDir(build_dir).read_graph())
    with BuildDir(build_dir).open_graph() as graph:
        assert _items(graph.nodes()) == _items(whole.nodes())
        assert _items(graph.edges()) == _items(whole.edges())
        assert len(list(graph.nodes())) > 50  # a pass can be repeated


def test_node_link_file_keeps_values_as_json_load_does(tmp_path):
    g = nx.MultiDiGraph()
    g.add_node("a", label="Task", name="T\n\"q\" 名前 🧪", score=0.1, big=2**40, flag=True, none=None, items=[1.5, 2])
    g.add_edge("a", "a", key="USES", type="USES", evidence=[{"paper": "p", "start": 0, "end": 1}])
    write_node_link(g, tmp_path / "graph.json")
    with NodeLinkFile(tmp_path / "graph.json") as graph:
        ((node, attrs),) = graph.nodes()
        ((*edge, data),) = graph.edges()
    loaded = json.loads((tmp_path / "graph.json").read_text(encoding="utf-8"))
    assert attrs == {k: v for k, v in loaded["nodes"][0].items() if k != "id"}
    assert [type(v) for v in attrs.values()] == [type(v) for k, v in loaded["nodes"][0].items() if k != "id"]
    assert (node, *edge, data) == ("a", "a", "a", "USES", {"type": "USES", "evidence": loaded["edges"][0]["evidence"]})


def test_links_are_read_as_edges(tmp_path):
    data = {"nodes": [{"label": "Task", "id": "a"}], "links": [{"source": "a", "target": "a", "key": "USES"}]}
    (tmp_path / "graph.json").write_text(json.dumps(data), encoding="utf-8")
    with NodeLinkFile(tmp_path / "graph.json") as graph:
        assert list(graph.edges()) == [("a", "a", "USES", {})]


@pytest.mark.parametrize(
    "data",
    [
        {"nodes": [{"id": "b"}, {"id": "a"}], "edges": []},
        {"nodes": [{"id": "a"}, {"id": "a"}], "edges": []},
        {"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "b", "key": "X"},
                                           {"source": "a", "target": "a", "key": "X"}]},
        {"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "a"}]},
    ],
    ids=["nodes out of order", "a node twice", "edges out of order", "an edge without a key"],
)
def test_a_file_kg_did_not_write_is_not_streamable(tmp_path, data):
    (tmp_path / "graph.json").write_text(json.dumps(data), encoding="utf-8")
    with NodeLinkFile(tmp_path / "graph.json") as graph, pytest.raises(NotStreamableError):
        list(graph.nodes())
        list(graph.edges())


@pytest.mark.parametrize("text", ["not json", '{"nodes": [{"id": "a"}', "[1, 2]", '{"edges": []}',
                                  '{"nodes": [{"name": "no id"}]}', '{"nodes": [{"id": "a"}]}\n{"x": 1}'])
def test_a_file_that_is_not_a_graph_is_a_graph_file_error(tmp_path, text):
    (tmp_path / "graph.json").write_text(text, encoding="utf-8")
    with NodeLinkFile(tmp_path / "graph.json") as graph, pytest.raises(GraphFileError):
        list(graph.nodes())


def test_an_empty_graph_is_a_graph(tmp_path):
    write_node_link(nx.MultiDiGraph(), tmp_path / "graph.json")
    with NodeLinkFile(tmp_path / "graph.json") as graph:
        assert list(graph.nodes()) == [] and list(graph.edges()) == []


def test_every_pass_reads_the_file_opened_first(tmp_path):
    """A build replacing graph.json (a rename) meanwhile does not mix two graphs in one export."""
    g = nx.MultiDiGraph()
    g.add_node("a", label="Task")
    write_node_link(g, tmp_path / "graph.json")
    with NodeLinkFile(tmp_path / "graph.json") as graph:
        first = list(graph.nodes())
        g.add_node("b", label="Task")
        write_node_link(g, tmp_path / "graph.json")  # atomic: a new file renamed over the old
        assert list(graph.nodes()) == first
        nodes, other = graph.nodes(), graph.nodes()
        assert next(nodes) == next(other) == ("a", {"label": "Task"})  # passes side by side
    with NodeLinkFile(tmp_path / "graph.json") as graph:
        assert [n for n, _ in graph.nodes()] == ["a", "b"]


def test_close_releases_the_file(tmp_path):
    write_node_link(nx.MultiDiGraph(), tmp_path / "graph.json")
    graph = NodeLinkFile(tmp_path / "graph.json")
    fd = graph._fd
    graph.close()
    graph.close()
    with pytest.raises(OSError):
        os.fstat(fd)
