"""Benchmark resolution, assembly and writing at scale, without spaCy: ``kg build`` over
synthetic papers whose extraction records are already in the build's cache.

It writes a corpus of N synthetic papers (JSONL) and, for each, a synthetic
extraction record into ``OUT/.kg-cache/extractions.sqlite`` under the current
pipeline fingerprint, through :class:`kg.extract.runner.ExtractionCache` (the
build's own cache). Then it runs ``kg build CORPUS -o OUT`` in a fresh process:
every paper is a cache hit, so no pipeline is loaded and the run is reading,
resolution, assembly and the files. It prints the build's wall time, its
stages with the peak RSS of each, the whole build's peak RSS, and the size of
every output file.

Peak RSS per stage is the kernel's high-water mark (``VmHWM``), reset when a stage
starts (``/proc/self/clear_refs``) and read when it ends; what runs between two stages
(the summary after assembly, publishing the files) is ``after STAGE``. Where that reset is not
allowed, only the whole build's peak is given.

Names follow the corpus generator's law (``benchmarks/corpus.py``): a Zipf
distribution (s = 1.1) over a vocabulary that grows like Heaps' law,
``V = 40 * n ** 0.7`` (634,000 names at a million papers). Each paper names
6 to 10 entities (a fifth of them in two spellings, one an alias), proposes one
new name in half the papers, states 3 relations and one result, and links code
in a third of them. Abstracts are about 700 characters.

Usage::

    python benchmarks/scale_bench.py --papers 1000000 --workdir /tmp/kg-scale [--json scale.json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import time
from bisect import bisect
from contextlib import contextmanager
from itertools import accumulate, islice
from pathlib import Path

TYPES = ("Method", "Dataset", "Model", "Metric", "Task")
PREDICATES = ("evaluated_on", "compared_with", "uses", "extends", "applied_to", "measured_by")
SYLLABLES = ("zor", "vex", "qua", "lin", "tro", "mar", "ket", "siv", "pol", "dra", "nix", "bel")
VENUES = ("ICLR", "NeurIPS", "ICML", "ACL", "EMNLP", "CVPR", "AAAI", "KDD")
FILLER = ("Experiments on standard benchmarks show consistent gains over strong baselines, "
          "with lower cost and better robustness across settings. ")


def name_of(index: int) -> str:
    """A pronounceable name for vocabulary entry ``index`` (``ZorVex-3``)."""
    a, b = divmod(index, len(SYLLABLES))
    a, c = divmod(a, len(SYLLABLES))
    name = SYLLABLES[c].capitalize() + SYLLABLES[b].capitalize()
    return f"{name}-{a}" if a else name


class Generator:
    def __init__(self, papers: int) -> None:
        vocabulary = max(50, int(40 * papers**0.7))
        self.cumulative = list(accumulate(1 / (rank + 1) ** 1.1 for rank in range(vocabulary)))

    def paper(self, i: int) -> tuple[dict, list]:
        """The input record of paper ``i`` and the plan of its extraction (deterministic in ``i``)."""
        rng = random.Random(i)
        names: dict[str, tuple[str, str | None]] = {}
        if rng.random() < 0.5:
            names[f"Prop{i:07d}Net"] = ("Method", None)
        while len(names) < rng.randint(6, 10):
            index = bisect(self.cumulative, rng.random() * self.cumulative[-1])
            alias = name_of(index).lower() if rng.random() < 0.2 else None
            names.setdefault(name_of(index), (TYPES[index % 5], alias))
        text, mentions = "", []
        for name, (kind, alias) in names.items():
            start = len(text) + len("We study ")
            text += f"We study {name}"
            spans = [(name, start, start + len(name))]
            if alias:
                text += f", also written {alias}"
                spans.append((alias, len(text) - len(alias), len(text)))
            text += f", a {kind.lower()}. "
            mentions.append((name, kind, alias, spans))
        text += FILLER * 2
        record = {"doi": f"10.5555/scale.{i}", "title": f"Scale paper {i}", "abstract": text,
                  "year": 2015 + i % 11, "venue": VENUES[i % len(VENUES)]}
        return record, mentions

    def extraction(self, paper, mentions: list, i: int):
        from kg.ids import name_key
        from kg.types import Entity, Extraction, Mention, Relation, Result

        rng = random.Random(-i - 1)
        entities = [
            Entity(name, kind, name_key(name), [Mention(t, s, e) for t, s, e in spans],
                   proposed=name.startswith("Prop"), aliases=[alias] if alias else [])
            for name, kind, alias, spans in mentions
        ]
        relations = []
        for _ in range(3):
            a, b = rng.sample(range(len(entities)), 2)
            relations.append(Relation(a, rng.choice(PREDICATES), b, 0, len(paper.abstract) // 2))
        results = [Result("accuracy", f"{rng.randint(50, 99)}.{rng.randint(0, 9)}%", 0, 5, subject=0, dataset=1)]
        urls = [f"https://github.com/lab{i % 5000}/repo{i}"] if i % 3 == 0 else []
        return Extraction(paper, entities, relations, results, urls)


def prepare(papers: int, workdir: Path) -> tuple[Path, Path]:
    """Write the corpus and fill the build's extraction cache; returns (corpus, outdir)."""
    from kg.builddir import BuildDir
    from kg.extract.runner import ExtractionCache, pipeline_fingerprint
    from kg.ingest import read_papers

    generator = Generator(papers)
    corpus, out = workdir / f"corpus-{papers}.jsonl", workdir / f"out-{papers}"
    with corpus.open("w", encoding="utf-8") as handle:
        for i in range(papers):
            handle.write(json.dumps(generator.paper(i)[0]) + "\n")
    cache = ExtractionCache(BuildDir(out).extractions, pipeline_fingerprint())
    read = iter(read_papers([corpus]))
    for first in range(0, papers, 10_000):
        batch = list(islice(read, 10_000))
        cache.put_many(generator.extraction(p, generator.paper(i)[1], i) for i, p in enumerate(batch, first))
    cache.close()
    return corpus, out


class StagePeaks:
    """Peak RSS of each stage the build times: the high-water mark reset as a stage starts,
    read as it ends (Linux; elsewhere, or where the reset is refused, none is kept)."""

    def __init__(self) -> None:
        self.stages: dict[str, float] = {}
        self.whole = 0.0  # the process's peak: resetting the mark resets ru_maxrss too
        self.gap = "before the build"  # the name of what runs until the next stage starts

    @staticmethod
    def _high_water_mb() -> float:
        status = Path("/proc/self/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024

    def _reset(self, stage: str) -> None:
        """Keep the mark of what ran since the last reset, under ``stage``; then reset it."""
        mark = self._high_water_mb()
        self.whole = max(self.whole, mark)
        self.stages[stage] = round(max(self.stages.get(stage, 0.0), mark), 1)
        Path("/proc/self/clear_refs").write_text("5")

    def wrap(self, timed):
        """``kg.build.report._timed`` that also keeps each stage's peak."""

        @contextmanager
        def peaked(report, stage: str):
            self._reset(self.gap)
            try:
                with timed(report, stage):
                    yield
            finally:
                self._reset(stage)
                self.gap = f"after {stage}"

        return peaked

    def install(self) -> bool:
        """Patch the build's stage timer where the build modules call it, if the mark can be reset."""
        try:
            self._reset("imports")
        except (OSError, AttributeError):
            return False
        import kg.build.outputs
        import kg.build.report
        import kg.build.run

        kg.build.run._timed = kg.build.outputs._timed = self.wrap(kg.build.report._timed)
        return True


def child(corpus: Path, out: Path) -> dict:
    """Runs in a fresh process: the build, its stages and its peak memory."""
    from kg.build import build

    peaks = StagePeaks()
    per_stage = peaks.install()
    start = time.perf_counter()
    report = build([corpus], out)
    seconds = round(time.perf_counter() - start, 1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if per_stage:
        peaks._reset(peaks.gap)
        peak = peaks.whole
    return {"seconds": seconds, "papers": report.papers_built,
            "from_cache": report.cache_hits, "nodes": report.nodes, "edges": report.edges,
            "entities": sum(report.entities_by_type.values()), "timings": report.timings,
            "peak_rss_mb": round(peak, 1), "stage_peak_rss_mb": peaks.stages,
            "files_mb": {p.name: round(p.stat().st_size / 2**20, 1) for p in sorted(out.iterdir()) if p.is_file()}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--workdir", type=Path, default=Path("kg-scale"), help="where the corpus, cache and build go")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(Path(args.child[0]), Path(args.child[1]))))
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    corpus, out = prepare(args.papers, args.workdir)
    print(f"prepared {args.papers} papers and their cached records in {time.perf_counter() - start:.0f} s", flush=True)
    done = subprocess.run([sys.executable, __file__, "--child", str(corpus), str(out)],
                          check=True, capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
