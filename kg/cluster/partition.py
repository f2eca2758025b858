"""How a cluster build cuts its work: partitions of papers, key shards, ranges of node ids.

A key's shard is a stable hash and a node's range a bisection of the cuts, so the client
and every worker place them alike.
"""

from __future__ import annotations

import math
import zlib
from bisect import bisect_right
from dataclasses import dataclass

from kg.ids import entity_id
from kg.types import Extraction


#: Points each partition gives to place the range cuts.
_SAMPLE_POINTS = 64


@dataclass(frozen=True)
class Plan:
    """How the work is cut: papers per partition, key shards, ranges of node ids."""

    partition_papers: int
    shards: int
    ranges: int

    @classmethod
    def for_cluster(cls, papers: int, workers: int) -> Plan:
        """A few partitions per worker and no partition over 5,000 papers; two shards and two
        ranges per worker, more for large builds (a range over 10,000 papers)."""
        workers = max(workers, 1)
        partitions = max(2 * workers, math.ceil(papers / 5000))
        return cls(partition_papers=max(1, math.ceil(papers / partitions)),
                   shards=max(2 * workers, math.ceil(papers / 50_000)),
                   ranges=max(2 * workers, math.ceil(papers / 10_000)))


def _records(data: bytes) -> list[Extraction]:
    from kg.build import spool_record

    return [spool_record(line) for line in data.split(b"\n") if line]


def _shard(key: str, shards: int) -> int:
    """The shard of a name key: keys that differ only in hyphens share one (a stable hash,
    unlike ``hash``, which differs between processes)."""
    return zlib.crc32(key.replace("-", "").encode("utf-8", "surrogatepass")) % shards


def _range(node: str, bounds: list[str]) -> int:
    return bisect_right(bounds, node)


def _node_weights(record: Extraction) -> list[tuple[str, int]]:
    """About the node ids a paper makes and the rows each brings (entity ids guessed from keys)."""
    paper = record.paper
    out = [(paper.id, 2 + len(record.entities) + len(record.code_urls) + len(record.results))]
    out += [(f"result:{paper.id}:{n}", 3) for n in range(len(record.results))]
    out += [(entity_id(e.key), 2) for e in record.entities]
    return out


def _quantiles(weights: list[tuple[str, int]], points: int) -> list[tuple[str, float]]:
    """``points`` ids at equal steps of cumulative weight, each carrying one step of weight."""
    weights.sort()
    total = sum(w for _, w in weights)
    if not total:
        return []
    step, out, seen, mark = total / points, [], 0.0, total / points
    for node, weight in weights:
        seen += weight
        while seen >= mark - 1e-9 and len(out) < points:
            out.append((node, step))
            mark += step
    return out


def _cuts(samples: list[list[tuple[str, float]]], ranges: int) -> list[str]:
    """``ranges - 1`` ids that cut the pooled samples into ranges of about equal weight."""
    pooled = sorted(point for sample in samples for point in sample)
    total = sum(w for _, w in pooled)
    cuts: list[str] = []
    seen = 0.0
    for node, weight in pooled:
        seen += weight
        if len(cuts) < ranges - 1 and seen >= total * (len(cuts) + 1) / ranges and (not cuts or node > cuts[-1]):
            cuts.append(node)
    return cuts
