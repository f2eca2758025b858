"""Exporters of the assembled graph: graph files, RDF, Neo4j."""
