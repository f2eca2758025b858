"""kg: knowledge graphs of research literature from paper abstracts.

The pipeline, one module per stage: :mod:`kg.ingest` -> :mod:`kg.extract` ->
:mod:`kg.resolve` -> :mod:`kg.assemble` -> :mod:`kg.export`; :func:`kg.build.build`
runs them all.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
