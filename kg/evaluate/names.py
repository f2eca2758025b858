"""Score per-paper entity names against a gold of names by type (our own annotations).

Gold and predictions are matched per paper (by ``id``, else by source file name
and index). An entity matches a gold entity when any of its names (name,
aliases, mention texts) has the same :func:`kg.ids.name_key` as any gold name
or alias; each gold entity is matched at most once. Scores: untyped, typed
(same type too), per type, and for proposals (matched and both proposed).

Examples
--------
>>> gold = [{"id": "p", "entities": [{"name": "GNN", "type": "Method", "proposed": False,
...          "aliases": ["graph neural network"]}]}]
>>> pred = [{"id": "p", "entities": [{"name": "Graph Neural Networks", "type": "Method",
...          "proposed": False, "mentions": []}]}]
>>> score_names(gold, pred)["typed"]["f1"]
1.0
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import PurePath

from kg.ids import name_key
from kg.types import ENTITY_TYPES

__all__ = ["name_errors", "prf", "score_names"]


def prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float | int]:
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
            "tp": tp, "predicted": n_pred, "gold": n_gold}


def _paper_key(record: dict) -> str:
    if "file" in record:
        return f"{PurePath(record['file']).name}#{record['index']}"
    source = record.get("source")
    if source:
        return f"{PurePath(source['path']).name}#{source['index']}"
    return record["id"]


def _keys(entity: dict) -> set[str]:
    names = [entity["name"], *entity.get("aliases", ())]
    names += [m["text"] for m in entity.get("mentions", ())]
    return {k for k in map(name_key, names) if k}


def _match(golds: list[dict], preds: list[dict]) -> tuple[list[tuple[dict, dict | None]], list[dict]]:
    """Pairs (prediction, matched gold or None) and the gold entities left unmatched."""
    unmatched = list(range(len(golds)))
    pairs = []
    for p in preds:
        pk = _keys(p)
        hit = next((i for i in unmatched if _keys(golds[i]) & pk), None)
        if hit is not None:
            unmatched.remove(hit)
        pairs.append((p, None if hit is None else golds[hit]))
    return pairs, [golds[i] for i in unmatched]


def _pairs_by_paper(gold: Iterable[dict], predicted: Iterable[dict]):
    pred_by = {_paper_key(p): p for p in predicted}
    for paper in gold:
        key = _paper_key(paper)
        preds = pred_by.get(key, {"entities": []})["entities"]
        yield key, paper["entities"], *_match(paper["entities"], preds)


def score_names(gold: Iterable[dict], predicted: Iterable[dict]) -> dict:
    counts = defaultdict(lambda: [0, 0, 0])  # tp, predicted, gold
    for _key, golds, pairs, _missed in _pairs_by_paper(gold, predicted):
        for p, g in pairs:
            counts["untyped"][1] += 1
            counts["typed"][1] += 1
            counts[p["type"]][1] += 1
            counts["proposed"][1] += p.get("proposed", False)
            if g is None:
                continue
            counts["untyped"][0] += 1
            if g["type"] == p["type"]:
                counts["typed"][0] += 1
                counts[p["type"]][0] += 1
            if g.get("proposed") and p.get("proposed"):
                counts["proposed"][0] += 1
        for g in golds:
            counts["untyped"][2] += 1
            counts["typed"][2] += 1
            counts[g["type"]][2] += 1
            counts["proposed"][2] += g.get("proposed", False)
    return {name: prf(*counts[name]) for name in ("untyped", "typed", *ENTITY_TYPES, "proposed")}


def name_errors(gold: Iterable[dict], predicted: Iterable[dict]) -> Iterator[dict]:
    """Per paper with errors: ``missed`` gold names, ``spurious`` predicted names and
    ``wrong_type`` (name, gold type, predicted type), for reading what a change did.

    >>> gold = [{"id": "p", "entities": [{"name": "BERT", "type": "Model"},
    ...                                  {"name": "parsing", "type": "Task"}]}]
    >>> pred = [{"id": "p", "entities": [{"name": "BERT", "type": "Method"},
    ...                                  {"name": "our method", "type": "Method"}]}]
    >>> next(name_errors(gold, pred))
    {'paper': 'p', 'missed': [('parsing', 'Task')], 'spurious': [('our method', 'Method')], 'wrong_type': [('BERT', 'Model', 'Method')]}
    """
    for key, _golds, pairs, missed in _pairs_by_paper(gold, predicted):
        errors = {
            "paper": key,
            "missed": [(g["name"], g["type"]) for g in missed],
            "spurious": [(p["name"], p["type"]) for p, g in pairs if g is None],
            "wrong_type": [(g["name"], g["type"], p["type"]) for p, g in pairs
                           if g is not None and g["type"] != p["type"]],
        }
        if errors["missed"] or errors["spurious"] or errors["wrong_type"]:
            yield errors
