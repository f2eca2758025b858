"""Generate large, realistic corpora of abstracts for benchmarks.

Texts are real abstracts (the examples in ``examples/``, SciERC and ScienceIE
from ``../shared/data`` when present), recombined: each generated abstract
takes a real one and renames its name-like tokens (``AFLOW``, ``GNN-Diff``)
with synthetic names. Names are drawn from a Zipf distribution over a
vocabulary that grows like Heaps' law (``V = 40 * n ** 0.7``), so the number
of distinct entities grows with the corpus the way it does in real literature.

Usage::

    python benchmarks/corpus.py 10000 -o corpus.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from bisect import bisect
from collections.abc import Iterator
from itertools import accumulate
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
NAME = re.compile(r"\b[A-Z][A-Za-z]*[A-Z0-9][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\b")
VENUES = ("ICLR", "NeurIPS", "ICML", "ACL", "EMNLP", "CVPR", "AAAI", "KDD")
SYLLABLES = ("zor", "vex", "qua", "lin", "tro", "mar", "ket", "siv", "pol", "dra", "nix", "bel")


def real_abstracts(data: Path = DATA) -> list[str]:
    """The real abstracts the generator recombines."""
    texts = []
    for path in sorted((ROOT / "examples").rglob("*.txt")):
        texts += [p.strip() for p in path.read_text("utf-8").split("\n\n")[1:] if p.strip()]
    scierc = data / "scierc" / "train.jsonl"
    if scierc.exists():
        for line in scierc.read_text("utf-8").splitlines():
            words = [w for sentence in json.loads(line)["sentences"] for w in sentence]
            texts.append(re.sub(r" ([.,;:)])", r"\1", " ".join(words)).replace("( ", "("))
    scienceie = data / "scienceie" / "train.jsonl"
    if scienceie.exists():
        texts += [json.loads(line)["text"] for line in scienceie.read_text("utf-8").splitlines()]
    return texts


def synthetic_name(index: int) -> str:
    """A pronounceable, capitalised name for vocabulary entry ``index`` (``ZorVex-3``)."""
    a, b = divmod(index, len(SYLLABLES))
    a, c = divmod(a, len(SYLLABLES))
    name = SYLLABLES[c].capitalize() + SYLLABLES[b].capitalize()
    return f"{name}-{a}" if a else name


def generate(n: int, seed: int = 0, texts: list[str] | None = None) -> Iterator[dict]:
    """``n`` abstract records (title, abstract, year, venue); deterministic for a seed."""
    rng = random.Random(seed)
    texts = texts or real_abstracts()
    vocabulary = max(50, int(40 * n**0.7))
    cumulative = list(accumulate(1 / (rank + 1) ** 1.1 for rank in range(vocabulary)))
    for i in range(n):
        text = texts[rng.randrange(len(texts))]
        renames: dict[str, str] = {}

        def rename(match: re.Match, renames: dict[str, str] = renames) -> str:
            word = match.group(0)
            if word not in renames:
                draw = rng.random() * cumulative[-1]
                renames[word] = synthetic_name(bisect(cumulative, draw))
            return renames[word]

        yield {
            "doi": f"10.5555/synthetic.{i}",
            "title": f"Synthetic paper {i}",
            "abstract": NAME.sub(rename, text),
            "year": 2015 + rng.randrange(11),
            "venue": VENUES[rng.randrange(len(VENUES))],
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, help="number of abstracts")
    parser.add_argument("-o", "--output", type=Path, help="JSONL file (default: stdout)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    out = args.output.open("w", encoding="utf-8") if args.output else sys.stdout
    with out:
        for record in generate(args.n, args.seed):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
