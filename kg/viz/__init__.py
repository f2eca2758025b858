"""Pictures of the graph: interactive offline pages (the whole graph, the term map) and static figures."""

from kg.viz.html import graph_payload, render_html, write_html
from kg.viz.layout import force_layout
from kg.viz.termmap import render_term_map, term_map_payload, write_term_map

__all__ = ["force_layout", "graph_payload", "render_html", "render_term_map", "term_map_payload", "write_html",
           "write_term_map"]
