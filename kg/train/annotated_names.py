"""How the annotation treats a phrase where it is written.

Per name (:func:`kg.extract.lexicons.term_key`): the number of training abstracts that write
it (title and abstract, as :func:`kg.train.terms.document_frequencies` counts), and of those,
by type, the number whose annotation names it, and the number where it is a relation's object
(by predicate) or subject. A phrase the annotators mark in most abstracts that write it
(``meta-learning``, ``regret``, ``node classification``) is a name of the field, whatever the
entity decision makes of one sentence; one they mark but seldom relate (``deep learning``) is
background. ``kg_entities`` and ``kg_relations`` read the table (:func:`kg.extract.models.read_annotated_names`).
Written by ``kg train-linear names`` from the same annotation the decisions are trained on; a
name annotated in fewer than two abstracts is not kept (one abstract's name is that paper's,
not the field's).
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg.extract.lexicons import term_key
from kg.extract.models import AnnotatedName
from kg.train.terms import document_frequencies

__all__ = ["LeaveOneOut", "NameCounts", "annotated_names_of", "count_annotated_names", "own_counts",
           "write_annotated_names"]

#: The longest name counted, in words (names of the annotation rarely run longer).
MAX_WORDS = 6


@dataclass
class NameCounts:
    """One name's counts over the training abstracts."""

    written: int = 0
    types: Counter = field(default_factory=Counter)  # type -> abstracts annotating it so
    as_object: int = 0  # abstracts relating it as an object
    object_predicates: Counter = field(default_factory=Counter)  # predicate -> abstracts
    as_subject: int = 0


def own_counts(record: dict) -> tuple[dict[str, str], dict[str, set[str]], set[str]]:
    """One annotated abstract's part: name key -> type, object key -> predicates, subject keys."""
    types: dict[str, str] = {}
    keys_of: dict[str, set[str]] = {}
    for entity in record.get("entities", ()):
        keys = {key for key in map(term_key, (entity["name"], *entity.get("aliases", ()))) if key}
        keys_of[entity["name"]] = keys
        for key in keys:
            types.setdefault(key, entity["type"])
    objects: dict[str, set[str]] = {}
    subjects: set[str] = set()
    for relation in record.get("relations", ()):
        for key in keys_of.get(relation["object"], ()):
            objects.setdefault(key, set()).add(relation["predicate"])
        subjects |= keys_of.get(relation["subject"], set())
    return types, objects, subjects


def count_annotated_names(records: Iterable[dict], min_annotated: int = 2) -> dict[str, NameCounts]:
    """Name key -> its :class:`NameCounts`, for the names annotated in at least ``min_annotated``
    abstracts. ``records``: gold records with their ``abstract`` (:func:`kg.train.convert.read_annotated`).

    >>> records = [{"title": "", "abstract": "Meta-learning helps.", "entities": [{"name": "meta-learning", "type": "Method"}]},
    ...            {"title": "", "abstract": "We study meta-learning.", "entities": [{"name": "Meta-Learning", "type": "Task"}]},
    ...            {"title": "", "abstract": "No meta-learning here.", "entities": []}]
    >>> counts = count_annotated_names(records)["meta-learning"]
    >>> counts.written, sorted(counts.types.items()), counts.as_object
    (3, [('Method', 1), ('Task', 1)], 0)
    """
    table: dict[str, NameCounts] = {}
    texts = []
    for record in records:
        texts.append(f"{record.get('title') or ''} . {record['abstract']}")
        types, objects, subjects = own_counts(record)
        for key, label in types.items():
            counts = table.setdefault(key, NameCounts())
            counts.types[label] += 1
            if key in objects:
                counts.as_object += 1
                counts.object_predicates.update(objects[key])
            counts.as_subject += key in subjects
    table = {key: counts for key, counts in table.items() if sum(counts.types.values()) >= min_annotated}
    written = document_frequencies(texts, max_words=MAX_WORDS)
    for key, counts in table.items():
        counts.written = max(written.get(key, 0), sum(counts.types.values()))
    return table


@lru_cache(maxsize=2)
def annotated_names_of(gold: tuple[str | Path, ...], abstracts: tuple[str | Path, ...]) -> dict[str, NameCounts]:
    """:func:`count_annotated_names` of the gold files, their abstracts read from the ``abstracts``
    files; counted once per process (``kg train-linear all`` writes the table, then trains the
    entity and relation decisions on it). Callers must not modify the result."""
    from kg.train.convert import read_annotated

    return count_annotated_names([r for g in gold for path in abstracts for r in read_annotated(g, path)])


def _pairs(counter: Counter) -> str:
    return ",".join(f"{label}:{n}" for label, n in sorted(counter.items()) if n > 0) or "-"


def write_annotated_names(table: dict[str, NameCounts], output: str | Path) -> int:
    """Write ``key, written, Type:n,..., as_object, predicate:n,..., as_subject`` lines (tab-separated,
    gzip, sorted, the same bytes for the same table); returns the number of names."""
    lines = [f"{key}\t{c.written}\t{_pairs(c.types)}\t{c.as_object}\t{_pairs(c.object_predicates)}\t{c.as_subject}\n"
             for key, c in sorted(table.items())]
    with open(output, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as handle:
        handle.write("".join(lines).encode("utf-8"))
    return len(lines)


class LeaveOneOut:
    """The table as an abstract of the training annotation would see it had it never been
    counted (as at run time): ``get(key)`` gives the :class:`~kg.extract.models.AnnotatedName`
    without the abstract's own names, relations and text, None under two annotating abstracts."""

    def __init__(self, table: dict[str, NameCounts], record: dict, text: str) -> None:
        self.table = table
        self.types, self.objects, self.subjects = own_counts(record)
        self.written = set(document_frequencies([f"{record.get('title') or ''} . {text}"], MAX_WORDS))

    def get(self, key: str) -> AnnotatedName | None:
        found = self.table.get(key)
        if found is None:
            return None
        types, predicates = Counter(found.types), Counter(found.object_predicates)
        if key in self.types:
            types[self.types[key]] -= 1
        predicates.subtract(self.objects.get(key, ()))
        annotated = sum(types.values())
        if annotated < 2:
            return None
        written = found.written - (key in self.written or key in self.types)
        predicate = max(((n, p) for p, n in predicates.items() if n > 0), default=(0, ""))[1]
        return AnnotatedName(max(written, annotated), annotated, max((n, t) for t, n in types.items())[1],
                             found.as_object - (key in self.objects), predicate,
                             found.as_subject - (key in self.subjects))
