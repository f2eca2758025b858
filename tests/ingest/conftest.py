"""Fixtures for the ingest tests: the shared seed files and a small file writer."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

# Until kg is installed in the environment (pip install -e .), import it from this work tree.
_ROOT = Path(__file__).resolve().parents[2]
if importlib.util.find_spec("kg") is None:
    sys.path.insert(0, str(_ROOT))

_SEED_CANDIDATES = (
    Path(__file__).resolve().parents[3] / "shared" / "seeds",
    Path("/work/shared/seeds"),
)

Write = Callable[..., Path]


@pytest.fixture(scope="session")
def seeds_dir() -> Path:
    for candidate in _SEED_CANDIDATES:
        if candidate.is_dir() and any(candidate.glob("*.txt")):
            return candidate
    pytest.skip("shared/seeds is not available")


@pytest.fixture
def write(tmp_path: Path) -> Write:
    """``write("a.txt", "text")`` or ``write("a.bin", b"bytes")`` -> the path under ``tmp_path``."""

    def _write(name: str, content: str | bytes, encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content if isinstance(content, bytes) else content.encode(encoding)
        path.write_bytes(data)
        return path

    return _write
