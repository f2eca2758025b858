"""Where the names kg misses are lost: no rule or recogniser offered them, an overlapping
name won the choice, or the learned decision dropped them.

For each gold name that ``kg build`` missed and that the abstract writes as it is (the name
or one of its aliases, in any case), the abstract is run through the pipeline up to
``kg_entities`` and the name's extent is looked up among the candidates, the chosen names and
the decision's verdict. It says which stage to work on: a better decision cannot keep what
no rule offers. ::

    python scripts/openreview_sample.py GOLD -o abstracts.jsonl
    kg build abstracts.jsonl -o build --no-cache
    python scripts/missed_names.py GOLD abstracts.jsonl build/papers.jsonl --type Task

``--relations`` says instead where the gold relations are lost (an entity not found, another
predicate, missed), from the gold and ``papers.jsonl`` alone.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

NO_CANDIDATE, LOST_IN_CHOICE, DROPPED = "no candidate", "lost in the choice", "dropped by the decision"
KEPT = "kept by the decision, lost after it"


def lost_where(doc, recogniser, start: int, end: int) -> str:
    """The stage at which the name at token extent ``start:end`` of ``doc`` (run up to
    ``kg_entities``) is lost."""
    from kg.extract.entities import candidate_groups
    from kg.ids import name_key

    chosen, learned = recogniser.choose(doc)  # with the noun phrases that fill its gaps
    if not any((c.start, c.end) == (start, end) for c in chosen):
        candidates, _ = recogniser.candidates(doc)
        return LOST_IN_CHOICE if any((c.start, c.end) == (start, end) for c in candidates) else NO_CANDIDATE
    if recogniser.decider is None:
        return KEPT
    groups = candidate_groups(doc, chosen)
    group = groups[name_key(doc[start:end].text)]
    learned_at = {(c.start, c.end): c.label for c in learned}
    _, dropped = recogniser.verdict(doc, group, learned_at, set(groups))
    return DROPPED if dropped else KEPT


def _written(doc, forms: list[str]):
    """The first place the abstract writes one of a gold name's forms (its name, then its
    aliases), ignoring case; None when it writes none of them."""
    text = doc.text.lower()
    for form in forms:
        at = text.find(form.lower())
        if at >= 0:
            return doc.char_span(at, at + len(form), alignment_mode="expand")
    return None


def main() -> None:
    from kg.evaluate.names import name_errors, relation_losses
    from kg.extract.pipeline import load_pipeline
    from kg.train.linear import annotated_docs

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gold", type=Path, help="annotated records (tests/data/openreview_gold/*.jsonl)")
    parser.add_argument("abstracts", type=Path, help="their abstracts (scripts/openreview_sample.py)")
    parser.add_argument("papers", type=Path, help="papers.jsonl of kg build on those abstracts")
    parser.add_argument("--type", dest="kind", default=None, help="only gold names of this type")
    parser.add_argument("--config", type=Path, default=None, help="pipeline config (default: the shipped one)")
    parser.add_argument("--examples", type=int, default=8, help="names to show per stage")
    parser.add_argument("--relations", action="store_true", help="where the gold relations are lost instead")
    args = parser.parse_args()

    def read(path):
        return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]

    if args.relations:
        for stage, n in relation_losses(read(args.gold), read(args.papers)).most_common():
            print(f"{stage}: {n}")
        return

    missed = {e["paper"]: [name for name, kind in e["missed"] if args.kind in (None, kind)]
              for e in name_errors(read(args.gold), read(args.papers))}
    nlp = load_pipeline(args.config)
    recogniser = nlp.get_pipe("kg_entities")
    stages: Counter = Counter()
    examples: dict[str, list[str]] = {}
    for doc, record in annotated_docs(nlp, [args.gold], [args.abstracts], until="kg_entities"):
        aliases = {e["name"]: e.get("aliases", []) for e in record["entities"]}
        for name in missed.get(record["id"], ()):
            span = _written(doc, [name, *aliases.get(name, ())])
            stage = "not written as it is" if span is None else lost_where(doc, recogniser, span.start, span.end)
            stages[stage] += 1
            examples.setdefault(stage, []).append(name)
    for stage, n in stages.most_common():
        print(f"{stage}: {n}  e.g. {', '.join(examples[stage][:args.examples])}")


if __name__ == "__main__":
    main()
