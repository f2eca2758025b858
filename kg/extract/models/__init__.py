"""Trained models shipped with kg: the recogniser ``entities/`` that ``kg build`` runs and the
learned decisions ``*.npz`` (:class:`~kg.extract.linear.LinearModel`). The SciERC and TDMSci
pipelines ``kg evaluate --pipeline`` measures are not in the package (pipelines/README.md)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["MODELS_DIR", "model_path"]

MODELS_DIR = Path(__file__).parent


def model_path(name: str) -> Path:
    """``name`` as given when it exists (a file or folder), else the shipped model of that name.

    >>> model_path("relations.npz").name, model_path("relations.npz").parent == MODELS_DIR
    ('relations.npz', True)
    """
    path = Path(name)
    return path if name and path.exists() else MODELS_DIR / name
