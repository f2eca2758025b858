"""Shared fixtures: the example abstracts and the extraction pipeline (loaded once)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "iclr2025"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture(scope="session")
def nlp():
    from kg.extract import load_pipeline

    return load_pipeline()
