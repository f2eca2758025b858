"""How often the annotation names a phrase where it is written.

Per name (:func:`kg.extract.lexicons.term_key`): the number of training abstracts that write
it (title and abstract, as :func:`kg.train.terms.document_frequencies` counts), and of those,
by type, the number whose annotation names it. A phrase the annotators mark in most abstracts
that write it (``meta-learning``, ``regret``, ``node classification``) is a name of the
field, whatever the entity decision makes of one sentence; ``kg_entities`` keeps it
(``min_annotated``, ``min_annotated_share``). Written by ``kg train-linear names`` from the
same annotation the decisions are trained on; a name annotated in fewer than two abstracts is
not kept (one abstract's name is that paper's, not the field's).
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from kg.extract.lexicons import term_key
from kg.train.terms import document_frequencies

__all__ = ["count_annotated_names", "write_annotated_names"]

#: The longest name counted, in words (names of the annotation rarely run longer).
MAX_WORDS = 6


def count_annotated_names(records: Iterable[dict], min_annotated: int = 2) -> dict[str, tuple[int, Counter]]:
    """Name key -> (abstracts writing it, Counter of type -> abstracts annotating it), for the
    names annotated in at least ``min_annotated`` abstracts. ``records``: gold records with
    their ``abstract`` (:func:`kg.train.convert.read_annotated`).

    >>> records = [{"title": "", "abstract": "Meta-learning helps.", "entities": [{"name": "meta-learning", "type": "Method"}]},
    ...            {"title": "", "abstract": "We study meta-learning.", "entities": [{"name": "Meta-Learning", "type": "Task"}]},
    ...            {"title": "", "abstract": "No meta-learning here.", "entities": []}]
    >>> written, types = count_annotated_names(records)["meta-learning"]
    >>> written, sorted(types.items())
    (3, [('Method', 1), ('Task', 1)])
    """
    annotated: dict[str, Counter] = {}
    texts = []
    for record in records:
        texts.append(f"{record.get('title') or ''} . {record['abstract']}")
        types: dict[str, str] = {}
        for entity in record.get("entities", ()):
            for name in (entity["name"], *entity.get("aliases", ())):
                types.setdefault(term_key(name), entity["type"])
        for key, label in types.items():
            annotated.setdefault(key, Counter())[label] += 1
    kept = {key: types for key, types in annotated.items() if key and sum(types.values()) >= min_annotated}
    written = document_frequencies(texts, max_words=MAX_WORDS)
    return {key: (max(written.get(key, 0), sum(types.values())), types) for key, types in kept.items()}


def write_annotated_names(table: dict[str, tuple[int, Counter]], output: str | Path) -> int:
    """Write ``key<TAB>written<TAB>Type:n,Type:n`` lines (gzip, sorted); returns the number of names."""
    lines = [f"{key}\t{written}\t{','.join(f'{label}:{n}' for label, n in sorted(types.items()))}\n"
             for key, (written, types) in sorted(table.items())]
    with open(output, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as handle:
        handle.write("".join(lines).encode("utf-8"))  # mtime 0: the same table, the same bytes
    return len(lines)
