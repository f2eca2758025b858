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
from collections.abc import Iterable
from pathlib import PurePath

from kg.ids import name_key
from kg.types import ENTITY_TYPES

__all__ = ["score_names", "prf"]


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


def score_names(gold: Iterable[dict], predicted: Iterable[dict]) -> dict:
    gold_by = {_paper_key(g): g for g in gold}
    pred_by = {_paper_key(p): p for p in predicted}
    counts = defaultdict(lambda: [0, 0, 0])  # tp, predicted, gold
    for key, paper in gold_by.items():
        preds = pred_by.get(key, {"entities": []})["entities"]
        golds = paper["entities"]
        unmatched = list(range(len(golds)))
        for p in preds:
            counts["untyped"][1] += 1
            counts["typed"][1] += 1
            counts[p["type"]][1] += 1
            counts["proposed"][1] += p.get("proposed", False)
            pk = _keys(p)
            hit = next((i for i in unmatched if _keys(golds[i]) & pk), None)
            if hit is None:
                continue
            unmatched.remove(hit)
            g = golds[hit]
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
