"""Extraction: the spaCy pipeline (registered ``kg_*`` components) and its records."""

from kg.extract.pipeline import DEFAULT_CONFIG, extract_papers, load_pipeline

__all__ = ["DEFAULT_CONFIG", "extract_papers", "load_pipeline"]
