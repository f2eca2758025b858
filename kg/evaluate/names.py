"""Score per-paper entity names against a gold of names by type (our own annotations).

Gold and predictions are matched per paper: by ``id``, else by title, else by
source file name and index. An entity matches a gold entity when any of its
names (name, aliases, mention texts) has the same :func:`kg.ids.name_key` as
any gold name or alias; each gold entity is matched at most once. Scores:
untyped, typed (same type too), per type, for proposals (matched and both
proposed), and for relations when the gold has them: a predicted relation is
right when its subject and object match the gold relation's entities and the
predicate is the same (``relations``), or whatever the predicate
(``relations_untyped``).

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

from collections import Counter, defaultdict
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


def _paper_keys(record: dict) -> list[str]:
    """Keys a paper can be matched by, strongest first: id (kg's, or the one its input record
    gave it), title, file and index."""
    keys = []
    if record.get("id"):
        keys.append(f"id:{record['id']}")
    if isinstance(record.get("source"), dict) and record["source"].get("id"):
        keys.append(f"id:{record['source']['id']}")
    if record.get("title"):
        keys.append("title:" + " ".join(str(record["title"]).lower().split()))
    if "file" in record:
        keys.append(f"at:{PurePath(record['file']).name}#{record['index']}")
    elif record.get("source"):
        keys.append(f"at:{PurePath(record['source']['path']).name}#{record['source']['index']}")
    return keys


def _paper_key(record: dict) -> str:
    keys = _paper_keys(record)
    if not keys:
        raise ValueError(f"a gold paper has no id, title or source to match it by: {str(record)[:80]}")
    return next((k.split(":", 1)[1] for k in keys if k.startswith("at:")), keys[0].split(":", 1)[1])


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


def _paired_papers(gold: Iterable[dict], predicted: Iterable[dict]) -> Iterator[tuple[str, dict, dict]]:
    """(key, gold paper, predicted paper or an empty one) for every gold paper."""
    pred_by: dict[str, dict] = {}
    for paper in predicted:
        for key in _paper_keys(paper):
            pred_by.setdefault(key, paper)
    for paper in gold:
        found = next((pred_by[k] for k in _paper_keys(paper) if k in pred_by), None)
        yield _paper_key(paper), paper, found or {"entities": [], "relations": []}


def _pairs_by_paper(gold: Iterable[dict], predicted: Iterable[dict]):
    for key, paper, pred in _paired_papers(gold, predicted):
        yield key, paper["entities"], *_match(paper["entities"], pred["entities"])


def _relation_ends(gold_paper: dict, pairs) -> tuple[list[tuple], dict]:
    """One paper's gold relations as (subject, predicate, object) indices of its gold entities
    (None for a name no gold entity has), and predicted entity ids -> the gold entity they match."""
    gold_index = {id(g): i for i, g in enumerate(gold_paper["entities"])}
    by_name = {}
    for i, g in enumerate(gold_paper["entities"]):
        for name in (g["name"], *g.get("aliases", ())):
            by_name.setdefault(name_key(name), i)
    gold_rels = [(by_name.get(name_key(r["subject"])), r["predicate"], by_name.get(name_key(r["object"])))
                 for r in gold_paper.get("relations", ())]
    matched = {p.get("id", id(p)): gold_index[id(g)] for p, g in pairs if g is not None}
    return gold_rels, matched


def _relation_counts(gold_paper: dict, pred_paper: dict, pairs) -> tuple[int, int, int, int]:
    """(typed tp, untyped tp, predicted, gold) for one paper's relations."""
    gold_rels, matched = _relation_ends(gold_paper, pairs)
    # An entity that matches no gold one stays itself, so that relations between unmatched
    # entities count one each as predictions, not one for all.
    preds = {(matched.get(r["subject"], ("unmatched", r["subject"])), r["predicate"],
              matched.get(r["object"], ("unmatched", r["object"])))
             for r in pred_paper.get("relations", ())}
    typed_left, untyped_left = list(gold_rels), [(s, o) for s, _, o in gold_rels]
    typed = untyped = 0
    for s, predicate, o in sorted(preds, key=str):
        if isinstance(s, tuple) or isinstance(o, tuple):
            continue
        if (s, predicate, o) in typed_left:
            typed_left.remove((s, predicate, o))
            typed += 1
        if (s, o) in untyped_left:
            untyped_left.remove((s, o))
            untyped += 1
    return typed, untyped, len(preds), len(gold_rels)


def relation_losses(gold: Iterable[dict], predicted: Iterable[dict]) -> Counter:
    """Where each gold relation is lost: ``right``; ``another predicate``; ``missed`` with both
    entities found; or an entity not found (``subject missing``, ``object missing``, ``both
    missing``). A relation cannot be found before its two entities are.

    >>> gold = [{"id": "p", "entities": [{"name": "Zorb", "type": "Method"},
    ...     {"name": "Plink", "type": "Dataset"}, {"name": "parsing", "type": "Task"}],
    ...     "relations": [{"subject": "Zorb", "predicate": "evaluated_on", "object": "Plink"},
    ...                   {"subject": "Zorb", "predicate": "applied_to", "object": "parsing"}]}]
    >>> pred = [{"id": "p", "entities": [{"id": "a", "name": "Zorb", "type": "Method"},
    ...     {"id": "b", "name": "Plink", "type": "Dataset"}],
    ...     "relations": [{"subject": "a", "predicate": "uses", "object": "b"}]}]
    >>> sorted(relation_losses(gold, pred).items())
    [('another predicate', 1), ('object missing', 1)]
    """
    losses: Counter = Counter()
    for _key, gold_paper, pred_paper in _paired_papers(gold, predicted):
        pairs, _ = _match(gold_paper["entities"], pred_paper["entities"])
        gold_rels, matched = _relation_ends(gold_paper, pairs)
        found = set(matched.values())
        predicted_pairs: dict[tuple, set[str]] = defaultdict(set)
        for r in pred_paper.get("relations", ()):
            predicted_pairs[(matched.get(r["subject"]), matched.get(r["object"]))].add(r["predicate"])
        for s, predicate, o in gold_rels:
            if s not in found or o not in found:
                losses["both missing" if s not in found and o not in found else
                       "subject missing" if s not in found else "object missing"] += 1
            elif (s, o) not in predicted_pairs:
                losses["missed"] += 1
            else:
                losses["right" if predicate in predicted_pairs[(s, o)] else "another predicate"] += 1
    return losses


def score_names(gold: Iterable[dict], predicted: Iterable[dict]) -> dict:
    counts = defaultdict(lambda: [0, 0, 0])  # tp, predicted, gold
    has_relations = False
    for _key, gold_paper, pred_paper in _paired_papers(gold, predicted):
        golds = gold_paper["entities"]
        pairs, _missed = _match(golds, pred_paper["entities"])
        if "relations" in gold_paper:
            has_relations = True
            typed, untyped, n_pred, n_gold = _relation_counts(gold_paper, pred_paper, pairs)
            for name, tp in (("relations", typed), ("relations_untyped", untyped)):
                counts[name][0] += tp
                counts[name][1] += n_pred
                counts[name][2] += n_gold
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
    names = ("untyped", "typed", *ENTITY_TYPES, "proposed")
    if has_relations:
        names += ("relations", "relations_untyped")
    return {name: prf(*counts[name]) for name in names}


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
