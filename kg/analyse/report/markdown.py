"""The report as Markdown (``report.md``): figures linked from ``figures/``, text escaped."""

from __future__ import annotations

from kg.analyse.report.document import Block, FileList, Figure, Heading, Paragraph, Table, format_cell

__all__ = ["to_markdown"]


def to_markdown(blocks: list[Block]) -> str:
    lines: list[str] = []
    for block in blocks:
        lines += _lines(block)
    return "\n".join(lines)


def _escape(text) -> str:
    """Text that Markdown shows as it is: no emphasis, links, headings, table cells or HTML."""
    text = str(text).replace("\\", "\\\\")
    for char in "|*_`[]#":
        text = text.replace(char, "\\" + char)
    return " ".join(text.replace("<", "&lt;").replace(">", "&gt;").split())


def _lines(block: Block) -> list[str]:
    if isinstance(block, Heading):
        return ["#" * block.level + " " + _escape(block.text), ""]
    if isinstance(block, Paragraph):
        return [_escape(block.text), ""]
    if isinstance(block, Figure):
        return [f"![{_escape(block.caption)}](figures/{block.file})", "", f"*{_escape(block.caption)}*", ""]
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, FileList):
        return [f"- [`{path}`]({path}): {_escape(text)}" for path, text in block.items] + [""]
    raise TypeError(f"not a report block: {block!r}")


def _table(table: Table) -> list[str]:
    columns = range(len(table.header))
    return [
        "| " + " | ".join(_escape(h) for h in table.header) + " |",
        "|" + "|".join("---:" if table.numeric(i) else "---" for i in columns) + "|",
        *("| " + " | ".join(_escape(format_cell(v)) for v in row) + " |" for row in table.rows),
        "",
    ]
