"""Exporters of the assembled graph: graph files, RDF, GEXF, VOSviewer, spreadsheet tables, Neo4j.

:mod:`kg.export.writers` is the registry of the graph's file formats (by name or suffix),
which ``kg build`` and ``kg export`` write through.
"""
