"""Trained models shipped with kg: the recogniser ``entities/`` that ``kg build`` runs and the
learned decisions ``*.npz`` (:class:`~kg.extract.linear.LinearModel`). The SciERC and TDMSci
pipelines ``kg evaluate --pipeline`` measures are not in the package (pipelines/README.md)."""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

__all__ = ["MODELS_DIR", "AnnotatedName", "model_path", "read_annotated_names"]

MODELS_DIR = Path(__file__).parent


def model_path(name: str) -> Path:
    """``name`` as given when it exists (a file or folder), else the shipped model of that name.

    >>> model_path("relations.npz").name, model_path("relations.npz").parent == MODELS_DIR
    ('relations.npz', True)
    """
    path = Path(name)
    return path if name and path.exists() else MODELS_DIR / name


#: (abstracts of the training annotation writing a name, of those annotating it, its commonest type there)
AnnotatedName = tuple[int, int, str]


@lru_cache(maxsize=4)
def read_annotated_names(name: str) -> dict[str, AnnotatedName]:
    """The table of ``kg train-linear names`` (:mod:`kg.train.annotated_names`) by name key.

    >>> written, annotated, label = read_annotated_names("annotated_names.tsv.gz")["meta-learning"]
    >>> annotated <= written, label
    (True, 'Method')
    """
    table = {}
    with gzip.open(model_path(name), "rt", encoding="utf-8") as handle:
        for line in handle:
            key, written, types = line.rstrip("\n").split("\t")
            counts = [(int(n), label) for label, n in (part.split(":") for part in types.split(","))]
            table[key] = (int(written), sum(n for n, _ in counts), max(counts)[1])
    return table
