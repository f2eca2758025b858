"""kg: knowledge graphs of research literature from paper abstracts.

The pipeline, one module per stage: :mod:`kg.ingest` -> :mod:`kg.extract` ->
:mod:`kg.resolve` -> :mod:`kg.assemble` -> :mod:`kg.export`; :func:`kg.build.build`
runs them all. The names below (:mod:`kg.api`) are the Python API: build a graph from
dicts, abstracts, a DataFrame or files (in memory or into a build directory), read a build, query a graph with SPARQL or Cypher.
"""

__version__ = "0.1.0"

__all__ = [
    "BuildResult",
    "__version__",
    "build_graph",
    "build_in_memory",
    "cypher",
    "extract_papers",
    "read_graph",
    "sparql",
    "write_build",
]


def __getattr__(name: str):
    # Imported on first use: `import kg` stays cheap (the CLI, spaCy's entry points import it).
    if name in __all__:
        from kg import api

        return getattr(api, name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
