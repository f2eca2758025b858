"""Extraction time against abstract length: one abstract of 1k to 100k characters at a time.

Three kinds of text, built from the real abstracts of ``examples/`` (see
``benchmarks/corpus.py``):

* ``run-on``: their words with the sentence punctuation taken out, so the
  sentence splitter finds one endless sentence (the record of issue 17 that ran
  past ten minutes at 100k characters);
* ``dense``: "we evaluate our method on MNIST and CIFAR-10 in terms of accuracy
  and F1 score with BERT ..." repeated without punctuation: many datasets,
  metrics and models per sentence, the worst case for pairing them;
* ``prose``: the abstracts as written, one after another.

Each text is extracted alone (``extract_papers`` on one paper, the pipeline
loaded and warmed up first); the time is the best of ``--repeat`` runs. Printed
per size: seconds, microseconds per character, and ``(t(n) / t(first)) / (n / first)``,
which stays near 1 when time grows linearly with length (4 at 4x the length if
it grew with the square); per kind, the slope of log time against log length
between the two largest sizes (1 is linear, 2 quadratic).

Usage::

    python benchmarks/extract_length_bench.py
    python benchmarks/extract_length_bench.py --sizes 1000,10000,100000 --kinds run-on --repeat 1
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import real_abstracts  # noqa: E402  (benchmarks/corpus.py)

from kg.extract.pipeline import extract_papers, load_pipeline  # noqa: E402
from kg.types import Paper, Source  # noqa: E402

DENSE = "we evaluate our method on MNIST and CIFAR-10 in terms of accuracy and F1 score with BERT "


def texts() -> dict[str, str]:
    """The three kinds of text, each long enough to cut the largest size from."""
    abstracts = real_abstracts()
    prose = " ".join(abstracts)
    run_on = " ".join(re.sub(r"[.;:!?]", " ", prose).split())
    return {"run-on": run_on, "dense": DENSE, "prose": prose}


def cut(source: str, size: int) -> str:
    return (source * (size // len(source) + 1))[:size]


def timed(nlp, text: str, repeat: int) -> float:
    paper = Paper(id="p", abstract=text, source=Source("bench", 0))
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        list(extract_papers([paper], nlp))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000,5000,10000,20000,50000,100000")
    parser.add_argument("--kinds", default="run-on,dense,prose")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    nlp = load_pipeline()
    timed(nlp, cut(DENSE, 5000), 1)  # warm-up: lazy loading, allocator
    figures: dict[str, list[dict]] = {}
    for kind in args.kinds.split(","):
        source = texts()[kind]
        rows = []
        print(f"\n{kind}")
        print(f"{'characters':>10} {'seconds':>9} {'us/char':>8} {'ratio':>6}")
        for size in sizes:
            seconds = timed(nlp, cut(source, size), args.repeat)
            ratio = (seconds / rows[0]["seconds"]) / (size / sizes[0]) if rows else 1.0
            rows.append({"characters": size, "seconds": seconds, "ratio": ratio})
            print(f"{size:>10,} {seconds:>9.3f} {seconds / size * 1e6:>8.1f} {ratio:>6.2f}", flush=True)
        if len(rows) >= 2:
            a, b = rows[-2], rows[-1]
            slope = math.log(b["seconds"] / a["seconds"]) / math.log(b["characters"] / a["characters"])
            print(f"slope of log time on log length, {a['characters']:,} -> {b['characters']:,}: {slope:.2f}")
        figures[kind] = rows
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
