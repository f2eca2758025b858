"""Score result records (leaderboard entries) against a gold of results per paper.

Gold records are those of ``tests/data/openreview_gold`` (``results``: value,
metric, subject, dataset, task, baseline, setting, direction, entity fields
naming the record's gold entities); predictions are ``papers.jsonl`` records,
whose entity fields hold entity ids. Papers are paired as in
:mod:`kg.evaluate.names` (id, else title, else file and index).

A predicted result matches a gold result when their values state the same
numbers (:func:`value_numbers`: ``31.2% -> 44.6%`` = ``from 31.2% to 44.6%``,
``around 3x`` = ``around 3 times``); each is matched at most once. On matched
pairs each field is right when both are empty or both name the same thing:

- entity fields (subject, dataset, task, baseline): the predicted entity has a
  name, alias or mention text whose :func:`kg.ids.name_key` is a name or alias
  of the gold entity;
- metric: the same, else (free-text metrics such as ``training speed``) the
  content words of one are all among the other's (``speedup`` = ``end-to-end
  speedup``); ``metric_exact`` counts only equal keys;
- direction: equal.

Value precision is the share of predictions matched to a gold result, recall the share of
gold results matched (a score with its change, ``44.9% (+2.8%)``, may match one gold result
or two: annotators write it either way). ``complete`` is the share of gold results matched with subject, metric, value
and dataset all right. ``non_dataset`` counts predicted results whose dataset
is not a Dataset entity (there should be none).

Examples
--------
>>> gold = [{"id": "p", "entities": [{"name": "GenRM", "type": "Method", "aliases": []},
...          {"name": "GSM8K", "type": "Dataset", "aliases": []}],
...          "results": [{"value": "73% -> 93.4%", "metric": "accuracy", "subject": "GenRM",
...                       "dataset": "GSM8K", "task": None, "baseline": None, "direction": "higher"}]}]
>>> pred = [{"id": "p", "entities": [{"id": "e1", "name": "GenRM", "type": "Method", "mentions": []},
...          {"id": "e2", "name": "GSM8K", "type": "Dataset", "mentions": []}],
...          "results": [{"value": "from 73% to 93.4%", "metric": "accuracy", "subject": "e1",
...                       "dataset": "e2", "task": None, "baseline": None, "direction": "higher"}]}]
>>> report = score_results(gold, pred)
>>> report["values"]["f1"], report["fields"]["subject"]["accuracy"], report["complete"]["share"]
(1.0, 1.0, 1.0)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator

from kg.evaluate.names import _paired_papers
from kg.ids import name_key

__all__ = ["FIELDS", "metric_matches", "result_errors", "score_results", "value_numbers"]

FIELDS = ("subject", "metric", "metric_exact", "dataset", "task", "baseline", "direction")
_ENTITY_FIELDS = ("subject", "dataset", "task", "baseline")

_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?: \d{3})+(?![\d.])|\d*\.\d+|\d+")
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "half": 0.5, "quarter": 0.25, "twice": 2, "thrice": 3}
_MAGNITUDE = re.compile(r"\borders?[- ]of[- ]magnitude\b", re.IGNORECASE)
_STOP = frozenset("of in on the a an for to by with and at over vs".split())


def value_numbers(value: str) -> tuple:
    """The numbers a value states, sorted, as a comparable key (words and magnitudes included).

    >>> value_numbers("from 31.2% to 44.6%") == value_numbers("31.2% -> 44.6%")
    True
    >>> value_numbers("around 3 times"), value_numbers("10,000x"), value_numbers("two orders of magnitude")
    ((3.0,), (10000.0,), (2.0, 'oom'))
    >>> value_numbers("4 − 16%") == value_numbers("4-16%")
    True
    """
    text = value.lower()
    found: list = []
    for match in _NUMBER.finditer(text):
        found.append(float(match.group(0).replace(",", "").replace(" ", "")))
    for word in re.findall(r"[a-z]+", text):
        if word in _WORDS:
            found.append(float(_WORDS[word]))
    if _MAGNITUDE.search(text):
        found.append("oom")
    return tuple(sorted(found, key=lambda x: (isinstance(x, str), x if isinstance(x, float) else 0, str(x))))


def _content_words(text: str) -> frozenset[str]:
    """Each word singular and lower-cased, without function words."""
    words = (name_key(w) for w in re.split(r"[\s\-/]+", text))
    return frozenset(w for w in words if w and w not in _STOP)


def metric_matches(gold: str, predicted: str) -> bool:
    """A free-text metric matches when the content words of one are all among the other's.

    >>> metric_matches("speedup", "end-to-end SpeedUp"), metric_matches("training time", "memory")
    (True, False)
    >>> metric_matches("MACs saved", "MACs")
    True
    """
    a, b = _content_words(gold), _content_words(predicted)
    return bool(a and b) and (a <= b or b <= a)


def _gold_entities(paper: dict) -> dict[str, frozenset[str]]:
    """Gold entity name key -> the name keys of that entity (name and aliases)."""
    index: dict[str, frozenset[str]] = {}
    for entity in paper.get("entities", ()):
        keys = frozenset(k for k in map(name_key, (entity["name"], *entity.get("aliases", ()))) if k)
        for key in keys:
            index.setdefault(key, keys)
    return index


def _gold_keys(name: str | None, index: dict[str, frozenset[str]]) -> frozenset[str]:
    if not name:
        return frozenset()
    key = name_key(name)
    return index.get(key, frozenset({key}) if key else frozenset())


def _predicted_keys(entity: dict | None) -> frozenset[str]:
    if entity is None:
        return frozenset()
    names = [entity.get("name") or "", *entity.get("aliases", ()), *(m["text"] for m in entity.get("mentions", ()))]
    return frozenset(k for k in map(name_key, names) if k)


def _field_checks(gold: dict, pred: dict, index: dict, entities: dict) -> dict[str, bool]:
    checks: dict[str, bool] = {}
    for name in _ENTITY_FIELDS:
        g, p = gold.get(name), pred.get(name)
        if not g or p is None:
            checks[name] = not g and p is None
        else:
            checks[name] = bool(_gold_keys(g, index) & _predicted_keys(entities.get(p)))
    g_metric = gold.get("metric")
    p_keys = _predicted_keys(entities.get(pred.get("metric_entity")))
    p_name = pred.get("metric") or ""
    if p_name:
        p_keys |= {name_key(p_name)}
    if not g_metric:
        checks["metric"] = checks["metric_exact"] = not p_keys
    else:
        exact = bool(_gold_keys(g_metric, index) & p_keys)
        checks["metric_exact"] = exact
        checks["metric"] = exact or (bool(p_name) and metric_matches(g_metric, p_name))
    checks["direction"] = gold.get("direction") == pred.get("direction")
    return checks


def _claims(pred: dict) -> list[tuple]:
    """The numbers a prediction states: its whole value, and, for a score with its change
    (``44.9% (+2.8%)``), each part alone, since annotators write them as one result or two."""
    claims = [value_numbers(pred["value"])]
    if pred.get("number") is not None and pred.get("delta"):
        claims += [value_numbers(str(pred["number"])), value_numbers(pred["delta"])]
    return claims


def _match(golds: list[dict], preds: list[dict], index: dict, entities: dict):
    """(gold, prediction or None, field checks) for each gold result; the unmatched predictions."""
    unused = {i: _claims(p) for i, p in enumerate(preds)}
    pairs = []
    for gold in golds:
        key = value_numbers(gold["value"])
        same = [i for i, claims in unused.items() if key in claims]
        if not same:
            pairs.append((gold, None, {}))
            continue
        best = max(same, key=lambda i: sum(_field_checks(gold, preds[i], index, entities).values()))
        whole = unused[best][0] == key
        unused[best] = [] if whole else [c for c in unused[best][1:] if c != key]
        if not unused[best]:
            del unused[best]
        pairs.append((gold, preds[best], _field_checks(gold, preds[best], index, entities)))
    matched = {id(p) for _, p, _ in pairs if p is not None}
    return pairs, [p for p in preds if id(p) not in matched]


def _papers(gold: Iterable[dict], predicted: Iterable[dict]) -> Iterator[tuple[str, dict, dict]]:
    for key, gold_paper, pred_paper in _paired_papers(gold, predicted):
        yield key, gold_paper, {"entities": [], "results": [], **pred_paper}


def score_results(gold: Iterable[dict], predicted: Iterable[dict]) -> dict:
    """Values (precision, recall, F1), per-field accuracy on matched pairs, the share complete."""
    matched = n_pred = n_gold = complete = non_dataset = pred_matched = 0
    right: dict[str, int] = defaultdict(int)
    for _key, gold_paper, pred_paper in _papers(gold, predicted):
        entities = {e["id"]: e for e in pred_paper["entities"] if "id" in e}
        pairs, spurious = _match(gold_paper.get("results", []), pred_paper["results"], _gold_entities(gold_paper),
                                 entities)
        n_gold += len(pairs)
        n_pred += len(pred_paper["results"])
        pred_matched += len(pred_paper["results"]) - len(spurious)
        non_dataset += sum(1 for r in pred_paper["results"] if r.get("dataset") is not None
                           and entities.get(r["dataset"], {}).get("type") != "Dataset")
        for _gold, pred, checks in pairs:
            if pred is None:
                continue
            matched += 1
            for name in FIELDS:
                right[name] += checks[name]
            complete += checks["subject"] and checks["metric"] and checks["dataset"]
    precision = pred_matched / n_pred if n_pred else 0.0
    recall = matched / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    values = {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
              "tp": matched, "predicted": n_pred, "gold": n_gold}
    fields = {name: {"accuracy": round(right[name] / matched, 4) if matched else 0.0, "right": right[name],
                     "matched": matched} for name in FIELDS}
    return {"values": values, "fields": fields,
            "complete": {"share": round(complete / n_gold, 4) if n_gold else 0.0, "complete": complete,
                         "gold": n_gold},
            "non_dataset": non_dataset}


def result_errors(gold: Iterable[dict], predicted: Iterable[dict]) -> Iterator[dict]:
    """Per paper with errors: gold results ``missed``, predictions ``spurious`` and, for matched
    pairs, the fields that differ (``gold`` and ``predicted`` names side by side).

    >>> gold = [{"id": "p", "entities": [], "results": [{"value": "5%", "metric": "error"}]}]
    >>> pred = [{"id": "p", "entities": [], "results": [{"value": "7%", "metric": "error"}]}]
    >>> [(e["missed"], e["spurious"]) for e in result_errors(gold, pred)]
    [(['5% error'], ['7% error'])]
    """
    for key, gold_paper, pred_paper in _papers(gold, predicted):
        entities = {e["id"]: e for e in pred_paper["entities"] if "id" in e}
        pairs, spurious = _match(gold_paper.get("results", []), pred_paper["results"],
                                 _gold_entities(gold_paper), entities)

        def name(value, entities=entities):
            entity = entities.get(value)
            return entity["name"] if entity else value

        wrong = []
        for g, p, checks in pairs:
            if p is None:
                continue
            bad = [f for f in FIELDS if f != "metric_exact" and not checks[f]]
            if bad:
                wrong.append({"value": g["value"], **{f: (g.get(f), name(p.get(f))) for f in bad}})
        errors = {
            "paper": key,
            "missed": [f"{g['value']} {g.get('metric') or ''}".strip() for g, p, _ in pairs if p is None],
            "spurious": [f"{p['value']} {p.get('metric') or ''}".strip() for p in spurious],
            "wrong": wrong,
        }
        if errors["missed"] or errors["spurious"] or errors["wrong"]:
            yield errors
