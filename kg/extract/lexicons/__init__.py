"""Catalogue lexicons: ``span_ruler`` patterns for well-known datasets, metrics, tasks and models.

The files are built by ``scripts/build_lexicons.py`` (see ``NOTICE.md`` for sources and
licences): ``catalogue.jsonl`` holds one pattern per line (``label``, ``pattern``, ``id``),
``catalogue_names.jsonl`` one entry per catalogue id (``id``, ``label``, ``name``,
``aliases``, ``source``). String patterns are meant for ``phrase_matcher_attr = "LOWER"``;
list patterns are case-sensitive token patterns.

Examples
--------
>>> entry = load_catalogue_names()["pwc:dataset:cifar-10"]
>>> entry["label"], entry["name"]
('Dataset', 'CIFAR-10')
>>> all(p["label"] in LABELS for p in patterns())
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from pathlib import Path

__all__ = ["LABELS", "catalogue_entry", "catalogue_ids_of", "catalogue_path", "load_catalogue_names", "names_path",
           "patterns", "term_frequency", "term_key"]

LABELS = ("Dataset", "Metric", "Task", "Model")
_PATTERNS = "catalogue.jsonl"
_NAMES = "catalogue_names.jsonl"
_TERMS = "terms.tsv.gz"


def _resource(name: str) -> Path:
    return Path(str(resources.files(__name__).joinpath(name)))


def catalogue_path() -> Path:
    """Path of ``catalogue.jsonl`` (the span-ruler patterns)."""
    return _resource(_PATTERNS)


def names_path() -> Path:
    """Path of ``catalogue_names.jsonl`` (one entry per catalogue id)."""
    return _resource(_NAMES)


def _read_jsonl(name: str) -> Iterator[dict]:
    with resources.files(__name__).joinpath(name).open("r", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


@lru_cache(maxsize=1)
def _names() -> dict[str, dict]:
    return {entry["id"]: entry for entry in _read_jsonl(_NAMES)}


def catalogue_ids_of(name: str, label: str | None = None) -> frozenset[str]:
    """The catalogue entries ``name`` names or aliases, by name key (``offline RL`` ->
    ``pwc:task:offline-rl``), those of type ``label`` only if given; empty for a name no
    catalogue knows."""
    from kg.ids import name_key

    ids = _catalogue_ids().get(name_key(name), frozenset())
    return ids if label is None else frozenset(i for i in ids if _names()[i].get("label") == label)


@lru_cache(maxsize=1)
def _catalogue_ids() -> dict[str, frozenset[str]]:
    from kg.ids import name_key

    ids: dict[str, set[str]] = {}
    for cid, entry in _names().items():
        for name in (entry["name"], *entry["aliases"]):
            ids.setdefault(name_key(name), set()).add(cid)
    return {key: frozenset(found) for key, found in ids.items() if key}


def load_catalogue_names() -> dict[str, dict]:
    """Catalogue entries by id: ``{"id", "label", "name", "aliases", "source"}``."""
    return {key: dict(entry, aliases=list(entry["aliases"])) for key, entry in _names().items()}


@lru_cache(maxsize=1 << 16)  # the same names are keyed many times per text
def term_key(name: str) -> str:
    """:func:`kg.ids.name_key`, but an acronym keeps its case apart (``GOLD`` is not ``gold``).

    >>> term_key("GOLD"), term_key("gold"), term_key("Graph Networks")
    ('^gold', 'gold', 'graph-network')
    """
    from kg.ids import name_key

    letters = [c for c in name if c.isalpha()]
    acronym = len(letters) >= 2 and sum(c.isupper() for c in letters) * 2 > len(letters) and " " not in name
    return ("^" if acronym else "") + name_key(name)


@lru_cache(maxsize=1)
def _terms() -> dict[str, int]:
    import gzip

    from kg.ids import name_key

    counts: dict[str, int] = {}
    with gzip.open(_resource(_TERMS), "rt", encoding="utf-8") as handle:
        for key, n in (line.rstrip("\n").split("\t") for line in handle):
            if not key.isascii():  # counted before keys lost their accents: Schrödinger is Schrodinger
                key = ("^" if key.startswith("^") else "") + name_key(key.lstrip("^"))
            counts[key] = counts.get(key, 0) + int(n)
    return counts


def term_frequency(name: str) -> int:
    """In how many abstracts of the field a name occurs (0 when under 3: see ``kg.train.terms``).

    >>> term_frequency("reinforcement learning") > 100, term_frequency("Zorblatrix")
    (True, 0)
    >>> term_frequency("GOLD") < term_frequency("gold")  # an acronym is counted apart
    True
    >>> term_frequency("Schrödinger bridge") == term_frequency("Schrodinger bridge") > 0
    True
    """
    return _terms().get(term_key(name), 0)


def catalogue_entry(catalogue_id: str) -> dict | None:
    """One catalogue entry by id (shared: do not modify), or None."""
    return _names().get(catalogue_id)


def patterns() -> Iterator[dict]:
    """The span-ruler patterns, one dict per line of ``catalogue.jsonl``."""
    yield from _read_jsonl(_PATTERNS)
