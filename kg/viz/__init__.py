"""Pictures of the graph: an interactive offline HTML page and a static overview image."""

from kg.viz.html import graph_payload, render_html, write_html
from kg.viz.layout import force_layout

__all__ = ["force_layout", "graph_payload", "render_html", "write_html"]
