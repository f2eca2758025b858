"""Check an annotation file of openreview abstracts for format before it joins the gold.

Each record answers the abstract on the same line of INPUT (same id, same order) and follows
tests/data/openreview_gold/README.md: entity types, ``proposed`` booleans, relation names that
are entity names of the record with predicates that fit their types, result fields that name
entities of the right type. Prints every problem with its line, or ``ok: N records``; exits 1
on a problem.

    python scripts/check_annotation.py in.jsonl annotated.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

TYPES = {"Method", "Dataset", "Model", "Metric", "Task"}
#: predicate -> (subject types, object types), as the README's table gives them
FITS = {
    "evaluated_on": ({"Method", "Model"}, {"Dataset"}),
    "compared_with": ({"Method", "Model"}, {"Method", "Model"}),
    "uses": ({"Method", "Model"}, {"Method", "Model", "Dataset"}),
    "extends": ({"Method", "Model"}, {"Method", "Model"}),
    "applied_to": ({"Method", "Model"}, {"Task"}),
    "measured_by": ({"Method", "Model", "Dataset", "Task"}, {"Metric"}),
}
RECORD_KEYS = {"id", "venue", "year", "title", "entities", "relations", "code_urls", "results"}
RESULT_KEYS = {"value", "metric", "subject", "dataset", "task", "baseline", "setting", "direction"}
#: result field -> the entity types its name may have
RESULT_ENTITIES = {"subject": TYPES, "dataset": {"Dataset"}, "task": {"Task"}, "baseline": TYPES}


def record_problems(record: dict, expected_id: str) -> list[str]:
    """What is wrong with one annotated record.

    >>> record_problems({"id": "p", "venue": None, "year": None, "title": "", "code_urls": [], "results": [],
    ...     "entities": [{"name": "Zorb", "type": "Method", "proposed": True, "aliases": []}],
    ...     "relations": [{"subject": "Zorb", "predicate": "evaluated_on", "object": "Zorb"}]}, "p")
    ["'Zorb' (Method) evaluated_on 'Zorb' (Method): types do not fit the predicate"]
    """
    problems = []
    if set(record) != RECORD_KEYS:
        problems.append(f"keys {sorted(record)}, expected {sorted(RECORD_KEYS)}")
    if record.get("id") != expected_id:
        problems.append(f"id {record.get('id')} where the input has {expected_id} (keep the input's order)")
    if not isinstance(record.get("code_urls"), list):
        problems.append("code_urls must be a list")
    types, problems_of_entities = _entity_problems(record.get("entities", []))
    return (problems + problems_of_entities + _relation_problems(record.get("relations", []), types)
            + _result_problems(record.get("results", []), types))


def _entity_problems(entities: list[dict]) -> tuple[dict[str, str], list[str]]:
    """(name -> type, problems) of a record's entities."""
    types: dict[str, str] = {}
    problems = []
    for entity in entities:
        name = entity.get("name")
        if set(entity) != {"name", "type", "proposed", "aliases"}:
            problems.append(f"entity {name!r}: keys {sorted(entity)}")
        if entity.get("type") not in TYPES:
            problems.append(f"entity {name!r}: type {entity.get('type')!r}")
        if not isinstance(entity.get("proposed"), bool):
            problems.append(f"entity {name!r}: proposed must be true or false")
        aliases = entity.get("aliases")
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            problems.append(f"entity {name!r}: aliases must be a list of strings")
        if name in types:
            problems.append(f"entity {name!r} twice")
        types[name] = entity.get("type")
    return types, problems


def _relation_problems(relations: list[dict], types: dict[str, str]) -> list[str]:
    problems = []
    seen = set()
    for relation in relations:
        subject, predicate, obj = relation.get("subject"), relation.get("predicate"), relation.get("object")
        if subject not in types or obj not in types:
            problems.append(f"relation {subject!r} {predicate} {obj!r}: both must be entity names of the record")
        elif predicate not in FITS:
            problems.append(f"relation {subject!r} {predicate} {obj!r}: unknown predicate")
        elif types[subject] not in FITS[predicate][0] or types[obj] not in FITS[predicate][1]:
            problems.append(f"{subject!r} ({types[subject]}) {predicate} {obj!r} ({types[obj]}): "
                            "types do not fit the predicate")
        if (subject, predicate, obj) in seen:
            problems.append(f"relation {subject!r} {predicate} {obj!r} twice")
        seen.add((subject, predicate, obj))
    return problems


def _result_problems(results: list[dict], types: dict[str, str]) -> list[str]:
    problems = []
    for result in results:
        if set(result) != RESULT_KEYS:
            problems.append(f"result keys {sorted(result)}, expected {sorted(RESULT_KEYS)}")
            continue
        if not isinstance(result["value"], str) or not result["value"]:
            problems.append("a result's value must be a non-empty string")
        for field, allowed in RESULT_ENTITIES.items():
            name = result[field]
            if name is not None and types.get(name) not in allowed:
                problems.append(f"result {result['value']!r}: {field} {name!r} must name a "
                                f"{'/'.join(sorted(allowed))} entity of the record, or be null")
        if result["direction"] not in ("higher", "lower", None):
            problems.append(f"result {result['value']!r}: direction {result['direction']!r}")
    return problems


def check(inputs: Path, annotated: Path) -> list[str]:
    """Every problem of ``annotated`` against the abstracts of ``inputs``, with its line."""
    expected = [json.loads(line)["id"] for line in inputs.read_text("utf-8").splitlines() if line.strip()]
    lines = [line for line in annotated.read_text("utf-8").splitlines() if line.strip()]
    problems = [] if len(lines) == len(expected) else [f"{len(lines)} records for {len(expected)} abstracts"]
    for number, (line, expected_id) in enumerate(zip(lines, expected), 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            problems.append(f"{annotated}:{number}: not JSON ({error})")
            continue
        problems += [f"{annotated}:{number}: {p}" for p in record_problems(record, expected_id)]
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    inputs, annotated = map(Path, argv)
    problems = check(inputs, annotated)
    count = sum(1 for line in annotated.read_text("utf-8").splitlines() if line.strip())
    print("\n".join(problems) if problems else f"ok: {count} records")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
