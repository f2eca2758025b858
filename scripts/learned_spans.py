"""Write the recogniser's spans on annotated abstracts it did not train on, for kg train-linear.

``kg train configs/entities.cfg --folds 4`` gives four-fold out-of-sample spans; this script
gives them for a split of your own: run a trained recogniser over the abstracts of a gold file
and write ``{id: [[start_char, end_char, label], ...]}`` (offsets in the clean text), the
format of ``--learned-spans``. Merge the files of the two halves with ``--merge``::

    python scripts/learned_spans.py first.jsonl -o a.json --model training/last/model-best
    python scripts/learned_spans.py last.jsonl -o b.json --model training/first/model-best
    python scripts/learned_spans.py --merge a.json b.json -o spans.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "openreview"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", type=Path, help="a gold file (or, with --merge, span files)")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--model", help="the recogniser (a trained pipeline folder; default: the shipped one)")
    parser.add_argument("--data", type=Path, default=DATA, help=f"the abstracts (default {DATA})")
    parser.add_argument("--merge", action="store_true", help="merge span files instead")
    args = parser.parse_args()
    spans: dict[str, list] = {}
    if args.merge:
        for path in args.inputs:
            part = json.loads(path.read_text(encoding="utf-8"))
            if set(part) & set(spans):
                raise SystemExit(f"{path}: ids already in another file")
            spans.update(part)
    else:
        from kg.extract.pipeline import load_pipeline
        from kg.train.linear import annotated_docs

        overrides = {"components.kg_learned_entities.model": args.model} if args.model else None
        nlp = load_pipeline(overrides=overrides)
        for doc, record in annotated_docs(nlp, args.inputs, sorted(args.data.glob("*.jsonl")), until="kg_entities"):
            spans[record["id"]] = [[s.start_char, s.end_char, s.label_] for s in doc.spans["kg_learned"]]
    args.output.write_text(json.dumps(spans, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(spans)} abstracts -> {args.output}")


if __name__ == "__main__":
    main()
