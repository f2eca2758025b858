"""Trained models shipped with kg: the recogniser ``entities/`` that ``kg build`` runs and the
learned decisions ``*.npz`` (:class:`~kg.extract.linear.LinearModel`). The SciERC and TDMSci
pipelines ``kg evaluate --pipeline`` measures are not in the package (pipelines/README.md)."""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

__all__ = ["MODELS_DIR", "AnnotatedName", "model_path", "read_annotated_names"]

MODELS_DIR = Path(__file__).parent


def model_path(name: str) -> Path:
    """``name`` as given when it exists (a file or folder), else the shipped model of that name.

    >>> model_path("relations.npz").name, model_path("relations.npz").parent == MODELS_DIR
    ('relations.npz', True)
    """
    path = Path(name)
    return path if name and path.exists() else MODELS_DIR / name


class AnnotatedName(NamedTuple):
    """How the training annotation treats one name (:mod:`kg.train.annotated_names`)."""

    written: int  # abstracts writing it
    annotated: int  # of those, abstracts annotating it
    label: str  # its commonest type there
    as_object: int = 0  # abstracts relating it as an object
    object_predicate: str = ""  # the commonest predicate it is the object of
    as_subject: int = 0  # abstracts relating it as a subject


def _counts(field: str) -> list[tuple[int, str]]:
    return [] if field == "-" else [(int(n), label) for label, n in (part.split(":") for part in field.split(","))]


@lru_cache(maxsize=4)
def read_annotated_names(name: str) -> dict[str, AnnotatedName]:
    """The table of ``kg train-linear names`` by name key.

    >>> found = read_annotated_names("annotated_names.tsv.gz")["meta-learning"]
    >>> found.annotated <= found.written, found.label
    (True, 'Method')
    """
    table = {}
    with gzip.open(model_path(name), "rt", encoding="utf-8") as handle:
        for line in handle:
            key, written, types, as_object, predicates, as_subject = line.rstrip("\n").split("\t")
            types_, predicates_ = _counts(types), _counts(predicates)
            table[key] = AnnotatedName(int(written), sum(n for n, _ in types_), max(types_)[1], int(as_object),
                                       max(predicates_)[1] if predicates_ else "", int(as_subject))
    return table
