"""Markdown of the report's blocks: escaped text, linked figures, aligned tables."""

from __future__ import annotations

from kg.analyse.report.document import Figure, FileList, Heading, Paragraph, Table
from kg.analyse.report.markdown import to_markdown


def test_markdown_of_every_block():
    blocks = [Heading(1, "A *map*"), Paragraph("<b>x</b> | y"), Figure("trends", "<svg/>", "Per year."),
              Table(["name", "papers"], [["A_1", 2], ["B", 0.5]]), FileList([("graph.gexf", "for Gephi")])]
    assert to_markdown(blocks).split("\n") == [
        "# A \\*map\\*", "",
        "&lt;b&gt;x&lt;/b&gt; \\| y", "",
        "![Per year.](figures/trends.svg)", "", "*Per year.*", "",
        "| name | papers |", "|---|---:|", "| A\\_1 | 2 |", "| B | 0.50 |", "",
        "- [`graph.gexf`](graph.gexf): for Gephi", "",
    ]
