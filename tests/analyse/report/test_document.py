"""The report's blocks: sections in order, and what is said when a figure or a result is missing."""

from __future__ import annotations

from kg.analyse.report.analysis import analyse_map
from kg.analyse.report.document import Figure, FileList, Heading, Paragraph, Table, document


def _sections(blocks) -> list[str]:
    return [b.text for b in blocks if isinstance(b, Heading) and b.level == 2]


def test_document_sections_in_order(field_graph):
    result = analyse_map(field_graph, title="Vision")
    blocks = document(result, field_graph, {"trends": "<svg/>", "venues": "<svg/>"})
    assert blocks[0] == Heading(1, "Vision")
    assert _sections(blocks) == ["What the field is made of", "What goes together", "Communities", "Bridges",
                                 "Trends", "Venues", "Leaderboards", "Files"]
    assert isinstance(blocks[-1], FileList)
    assert Heading(3, "Bursts") in blocks and Paragraph("The abstracts state no numeric results.") in blocks
    figures = [b.file for b in blocks if isinstance(b, Figure)]
    assert figures == ["trends.svg", "venues.svg"]


def test_document_says_what_it_cannot_show(tiny_graph):
    result = analyse_map(tiny_graph.subgraph(["paper:1"]).copy())
    blocks = document(result, tiny_graph, {})
    assert Paragraph("No entities in this graph.") in blocks
    assert Paragraph("Too few co-occurrences to form communities.") in blocks
    assert Paragraph("The papers span one year (2020): trends need at least two.") in blocks
    assert "Venues" not in _sections(blocks)


def test_document_table_numeric_columns():
    table = Table(["name", "papers", "z"], [["A", 3, "–"], ["B", 12, "-1.5"]])
    assert [table.numeric(i) for i in range(3)] == [False, True, True]
