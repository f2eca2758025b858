"""The notebooks in notebooks/ run top to bottom on the example abstracts (executed with nbclient).

They share one build directory (``KG_NOTEBOOK_OUT``): notebook 01 builds it, the
others reuse it (each builds it itself when run alone). Committed notebooks carry
no outputs.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NEEDS = {"02_cypher.ipynb": "kg.query.cypher", "03_sparql.ipynb": "kg.query.sparql", "05_python_api.ipynb": "pandas"}
CELL_TIMEOUT = 180


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("notebook-out")


def _available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.parametrize("name", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")))
def test_notebook_runs_top_to_bottom(name, build_dir, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    if name in NEEDS and not _available(NEEDS[name]):
        pytest.skip(f"{NEEDS[name]} is not in this checkout")
    monkeypatch.setenv("KG_NOTEBOOK_OUT", str(build_dir))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not cell.get("outputs") and cell.get("execution_count") is None
               for cell in notebook.cells if cell.cell_type == "code"), f"{name} is committed with outputs"
    client = nbclient.NotebookClient(
        notebook, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()
    errors = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert not errors
