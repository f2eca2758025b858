"""The whole build on a Dask cluster: resolution, assembly and the files, not only extraction.

``kg build --engine dask`` extracts on the cluster (:mod:`kg.extract.runner`),
then resolves, assembles and writes there too, and writes byte for byte the
files a local build writes. The client (the ``kg build`` process) reads the
input, keeps the extraction cache and the manifest, and writes the files; what
it holds for resolution is bounded by the number of distinct names, not by the
number of papers. Stages, each a set of Dask tasks:

1. **Partitions.** The build's spool (one JSON line per extracted paper, in
   input order) is cut into partitions of consecutive papers, sent to the workers.
2. **Counting.** Each partition counts what :meth:`kg.resolve.Resolver.add`
   counts; the counts are shuffled to *key shards* by the name key's spelling
   without hyphens (``stable-diffusion`` and ``stablediffusion`` meet there) and
   added up, one shard per task: every name key's statistics on one worker.
3. **Grouping.** Each shard says which of its keys join (an acronym and the long
   form most papers define it as, keys that differ only in separators) and gives
   the top catalogue id of its catalogued keys; the client joins them with
   :func:`kg.resolve.group_keys`, over the keys that join, not all keys.
4. **Naming.** Statistics move to the shard of their group's root, where each
   group gets its type, catalogue id and name (:func:`kg.resolve.describe_group`).
   Ids are handed out in the resolver's order (largest group first, then by root)
   by the client over one small record per group (:func:`kg.resolve.claim_id`).
5. **Resolving.** Each key's entity goes to the key's shard; each partition
   looks up its keys there, resolves its papers (:func:`kg.resolve.resolve_record`)
   into ``papers.jsonl`` lines, and sends the nodes and edges of each paper
   (:func:`kg.assemble.paper_elements`) to the *range* of node ids they fall in.
6. **Assembly.** Each range assembles its nodes and edges as
   :class:`kg.graphstore.GraphStore` does: a later paper's venue or code node
   replaces an earlier one, relation evidence is sorted by paper, entity nodes
   get their counts.
7. **Writing.** Each range writes its part of ``graph.json``, ``graph.graphml``,
   ``graph.ttl`` and ``results.csv``; the client writes the parts in order.

Ranges are cut at quantiles of a sample of node ids, so they hold similar work;
where they are cut changes no output byte (``tests/test_cluster.py``).
"""

from __future__ import annotations

import functools
import json
import math
import operator
import time
import zlib
from bisect import bisect_right
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from kg.assemble import entity_attributes, paper_elements, relation_attributes
from kg.graphstore import SortedGraph
from kg.ids import entity_id, name_key
from kg.resolve import (
    CanonicalEntity, Resolver, _Stats, canonical_entity, claim_id, describe_group, dominant_long_form,
    group_keys, names_by_use, resolve_record,
)
from kg.schema import ENTITY_LABELS, RESULT_EDGES
from kg.types import Extraction, PaperRecord

__all__ = ["ClusterGraph", "Plan", "connect"]

#: Pieces one task adds up; more are added up in a tree.
_FAN_IN = 32
#: Points each partition gives to place the range cuts.
_SAMPLE_POINTS = 64


@contextmanager
def connect(workers: int = 1, scheduler: str | None = None):
    """A Dask client: of the scheduler at ``scheduler`` (``tcp://host:8786``), else of a local
    cluster of ``workers`` processes, one thread each (closed on exit)."""
    from dask.distributed import Client, LocalCluster

    with ExitStack() as stack:
        address = scheduler or stack.enter_context(LocalCluster(
            n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None))
        yield stack.enter_context(Client(address))


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


class ClusterGraph:
    """The graph of a build's spool, resolved and assembled on a Dask cluster.

    ``assemble`` once (it writes ``papers.jsonl`` on the way), then ``summarise`` and write
    files with ``writers``; ``close`` releases what the cluster holds. The spool holds
    ``papers`` lines as :func:`kg.build.spool_record` reads them.
    """

    def __init__(self, client, spool: IO[bytes], papers: int, plan: Plan | None = None) -> None:
        self.client = client
        self.spool = spool
        self.papers = papers
        self.workers = max(len(client.scheduler_info().get("workers", {})), 1)
        self.plan = plan or Plan.for_cluster(papers, self.workers)
        self.counts: Counter = Counter()
        self._ranges: list = []  # futures of the assembled ranges, in id order
        self._surveys: list[tuple] = []  # of each range: counts, GraphML kinds, first and last node
        self._tops: list[tuple] = []  # of each range: entities by type, the ten with most edges
        #: Seconds the client waited for each stage (stages overlap on the workers).
        self.timings: dict[str, float] = {}
        self._clock = 0.0

    # ------------------------------------------------------------------ stages

    def assemble(self, papers_path: str | Path | None = None) -> None:
        """Stages 1-6: the graph assembled in ranges on the workers; ``papers.jsonl`` written
        to ``papers_path`` (when given) as the partitions resolve."""
        self._clock = time.perf_counter()
        parts = self._send_partitions()
        self._lap("send partitions")
        bounds, keys, shard_counts = self._count_keys(parts)
        groups = self._name_groups(shard_counts)
        del shard_counts
        tables, entities = self._give_ids(groups, bounds)
        del groups
        resolved = self._resolve_partitions(parts, keys, tables, bounds, papers_path is not None)
        del parts, keys, tables
        self._collect_resolved(resolved, papers_path)
        self._ranges = [self._submit(_assemble, entities[r], *[p[2 + r] for p in resolved])
                        for r in range(len(bounds) + 1)]
        del resolved, entities
        self._survey_ranges(bounds)

    def _count_keys(self, parts: list) -> tuple[list[str], list[list], list]:
        """Stage 2: the range cuts, each partition's futures of its keys by shard, and each
        shard's counts added up."""
        plan = self.plan
        counted = [self._submit(_count, part, plan.shards) for part in parts]
        pieces = [self._split(f, 2 * plan.shards + 1) for f in counted]
        del counted
        samples = self.client.gather([p[-1] for p in pieces])
        self._lap("count")
        bounds = _cuts(samples, plan.ranges)
        keys = [p[plan.shards : 2 * plan.shards] for p in pieces]
        shard_counts = [self._tree(_add_counts, [p[s] for p in pieces]) for s in range(plan.shards)]
        return bounds, keys, shard_counts

    def _name_groups(self, shard_counts: list) -> list:
        """Stages 3-4 up to the ids: the shards' keys joined into groups, each group described
        on the shard of its root."""
        shards = self.plan.shards
        joins = self.client.gather([self._submit(_joins, c) for c in shard_counts])
        roots = _roots(joins, shards)
        self._lap("add up and join keys")
        moved = [self._split(self._submit(_by_root, c, roots[s], shards), shards)
                 for s, c in enumerate(shard_counts)]
        del shard_counts, roots
        return [self._submit(_describe, *[m[g] for m in moved]) for g in range(shards)]

    def _give_ids(self, groups: list, bounds: list[str]) -> tuple[list, list]:
        """Stage 4's ids: each shard's table of keys to entities, and each range's entities."""
        shards, ranges = self.plan.shards, len(bounds) + 1  # fewer ranges than planned when there are few distinct ids
        claims = self.client.gather([self._submit(_claims, g) for g in groups])
        changed, shadowed = _assign_ids(claims, shards)
        del claims
        winners = self._winners(groups, shadowed, changed)
        self._lap("name groups and give ids")
        final = [self._split(self._submit(_finalize, g, changed[i], winners[i], shards, bounds), shards + ranges)
                 for i, g in enumerate(groups)]
        del groups
        tables = [self._tree(_union, [f[s] for f in final]) for s in range(shards)]
        entities = [self._tree(_union, [f[shards + r] for f in final]) for r in range(ranges)]
        return tables, entities

    def _resolve_partitions(self, parts: list, keys: list[list], tables: list, bounds: list[str],
                            write_papers: bool) -> list[list]:
        """Stage 5 sent: each partition's keys looked up and its papers resolved, split into
        its ``papers.jsonl`` text, its counts and its elements of each range."""
        resolved = []
        for p, part in enumerate(parts):
            found = [self._submit(_lookup, keys[p][s], tables[s]) for s in range(self.plan.shards)]
            first = p * self.plan.partition_papers
            resolved.append(self._split(
                self._submit(_resolve, part, first, bounds, write_papers, *found), len(bounds) + 3))
        return resolved

    def _collect_resolved(self, resolved: list[list], papers_path: str | Path | None) -> None:
        """Stage 5 gathered: ``papers.jsonl`` written (when asked for) and the counts added up."""
        if papers_path is not None:
            from kg.export.files import atomic_open

            with atomic_open(papers_path) as handle:
                for text in _each_result(r[0] for r in resolved):
                    handle.write(text)
        for counts in self.client.gather([r[1] for r in resolved]):
            self.counts.update(counts)
        self._lap("resolve papers")

    def _survey_ranges(self, bounds: list[str]) -> None:
        """Stage 6's survey of the assembled ranges: their counts and GraphML kinds, the Turtle
        cuts checked, and each range's entities by type and top ten."""
        ranges = len(bounds) + 1
        surveys = [self._split(self._submit(_survey, rng, bounds), 5 + ranges) for rng in self._ranges]
        self._surveys = self.client.gather([s[:5] for s in surveys])
        _check_turtle_cuts(self._surveys)
        self._tops = self.client.gather([
            self._submit(_entity_summary, rng, *[s[5 + r] for s in surveys]) for r, rng in enumerate(self._ranges)])
        self._lap("assemble ranges")

    def summarise(self, report) -> None:
        """Fill a :class:`kg.build.BuildReport` as ``kg.build._summarise`` does from a store."""
        labels: Counter = Counter()
        tops = []
        for counted, top in self._tops:
            labels.update(counted)
            tops += top
        report.entities_by_type = {label: labels.get(label, 0) for label in ENTITY_LABELS}
        report.top_entities = [(name, label, degree) for _, name, label, degree in
                               sorted(tops, key=lambda t: (-t[3], t[0]))[:10]]
        report.nodes = sum(s[0] for s in self._surveys)
        report.edges = sum(s[1] for s in self._surveys)
        report.proposed = self.counts["proposed"]
        report.relations = self.counts["relations"]
        report.results = self.counts["results"]
        report.code_urls = self.counts["code_urls"]

    def writers(self, base_iri: str | None = None) -> dict[str, Callable[[Path], None]]:
        """Stage 7: a writer per graph file, as ``kg.build`` writes them from a store: one
        ``_write_<format>`` from the parts for each of :data:`kg.export.writers.BUILD_FORMATS`."""
        from kg.export.writers import BUILD_FORMATS, WRITERS

        def writer(kind: str) -> Callable[[Path], None]:
            return functools.partial(getattr(self, f"_write_{kind}"), **WRITERS[kind].pick(base=base_iri))

        return {kind: writer(kind) for kind in BUILD_FORMATS}

    def close(self) -> None:
        """Release the ranges the cluster holds."""
        self._ranges = []

    def __enter__(self) -> ClusterGraph:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----------------------------------------------------------------- writing

    def _parts(self, function: Callable, *args: Any, offsets: list[int] | None = None) -> Iterator[str]:
        """``function(range, *args)`` of each range in order, a few in flight at a time (the
        texts wait on the workers only while the client writes the ones before)."""
        calls = ((function, rng, *args, *([offsets[r]] if offsets else []))
                 for r, rng in enumerate(self._ranges))
        return _windowed(self.client, calls, 2 * self.workers)

    def _write_node_link(self, path: Path) -> None:
        from kg.export.files import write_node_link_parts

        write_node_link_parts(path, self._parts(_node_link_part, "nodes"), self._parts(_node_link_part, "edges"))

    def _write_graphml(self, path: Path) -> None:
        from kg.export.files import merge_graphml_kinds, write_graphml_parts

        kinds = merge_graphml_kinds(s[2] for s in self._surveys)
        offsets = [0]
        for survey in self._surveys:
            offsets.append(offsets[-1] + survey[1])
        write_graphml_parts(path, kinds, self._parts(_graphml_part, "nodes"),
                            self._parts(_graphml_part, "edges", offsets=offsets))

    def _write_turtle(self, path: Path, base: str | None = None) -> None:
        from kg.export.rdf import write_turtle_parts
        from kg.namespace import KG_BASE

        base = base or KG_BASE
        write_turtle_parts(self._parts(_turtle_part, base), path, base)

    def _write_results(self, path: Path) -> None:
        from kg.analyse.leaderboard import RESULT_COLUMNS
        from kg.export.files import atomic_open

        with atomic_open(path) as handle:
            handle.write(_csv_text([RESULT_COLUMNS]))
            for text in self._parts(_results_part):
                handle.write(text)

    # ----------------------------------------------------------------- helpers

    def _lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = round(now - self._clock, 3)
        self._clock = now

    def _submit(self, function: Callable, *args: Any):
        return self.client.submit(function, *args, pure=False)

    def _split(self, future, n: int) -> list:
        """The ``n`` items of the tuple a task returns, each a future of its own (a consumer
        fetches only the item it reads)."""
        return [self.client.submit(operator.getitem, future, i, pure=False) for i in range(n)]

    def _tree(self, function: Callable, futures: list):
        """``function(*futures)`` for an associative ``function``, at most :data:`_FAN_IN` at a time."""
        while len(futures) > _FAN_IN:
            futures = [self._submit(function, *futures[i : i + _FAN_IN]) for i in range(0, len(futures), _FAN_IN)]
        return self._submit(function, *futures)

    def _send_partitions(self) -> list:
        """The spool cut into partitions of consecutive papers, sent to the workers one at a time."""
        size = self.plan.partition_papers
        self.spool.seek(0)
        parts = []
        for first in range(0, self.papers, size):
            chunk = b"".join(self.spool.readline() for _ in range(min(size, self.papers - first)))
            parts.append(self.client.scatter(chunk, hash=False))
        return parts

    def _winners(self, groups: list, shadowed: dict[str, str], changed: list[dict]) -> list[dict]:
        """For each group shard, the entities of groups whose id a later group took over (the
        resolver's table keeps the later one): ``{root: the later group's entity}``. Almost
        always empty: it takes an id claimed as a last resort, by root key."""
        winners: list[dict[str, CanonicalEntity]] = [{} for _ in groups]
        if not shadowed:
            return winners
        wanted: dict[int, list[str]] = {}
        for winner in set(shadowed.values()):
            wanted.setdefault(_shard(winner, len(groups)), []).append(winner)
        found: dict[str, CanonicalEntity] = {}
        for shard, roots in wanted.items():
            found.update(self._submit(_entities_of, groups[shard], roots, changed[shard]).result())
        for root, winner in shadowed.items():
            winners[_shard(root, len(groups))][root] = found[winner]
        return winners


# ------------------------------------------------------------- on the workers


def _records(data: bytes) -> list[Extraction]:
    from kg.build import spool_record

    return [spool_record(line) for line in data.split(b"\n") if line]


def _shard(key: str, shards: int) -> int:
    """The shard of a name key: keys that differ only in hyphens share one (a stable hash,
    unlike ``hash``, which differs between processes)."""
    return zlib.crc32(key.replace("-", "").encode("utf-8", "surrogatepass")) % shards


def _range(node: str, bounds: list[str]) -> int:
    return bisect_right(bounds, node)


def _count(data: bytes, shards: int) -> tuple:
    """Stage 2, map: a partition's counts split by key shard, its keys by shard (to look up
    later), and a sample of the node ids it will make (to place the range cuts)."""
    resolver = Resolver()
    weights: list[tuple[str, int]] = []
    for record in _records(data):
        resolver.add(record)
        weights += _node_weights(record)
    stats, definitions = resolver.statistics()
    pieces: list[tuple[dict, dict]] = [({}, {}) for _ in range(shards)]
    for key, stat in stats.items():
        pieces[_shard(key, shards)][0][key] = stat
    for short, forms in definitions.items():
        pieces[_shard(short, shards)][1][short] = forms
    return (*pieces, *[sorted(piece[0]) for piece in pieces], _quantiles(weights, _SAMPLE_POINTS))


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


def _add_counts(*pieces: tuple[dict, dict]) -> tuple[dict, dict]:
    """Stage 2, reduce: the counts of several partitions for one shard, added up (new objects:
    a task's inputs may be shared with other tasks on the same worker)."""
    stats: dict[str, _Stats] = {}
    definitions: dict[str, Counter] = {}
    for piece_stats, piece_definitions in pieces:
        for key, stat in piece_stats.items():
            stats.setdefault(key, _Stats()).update(stat)
        for short, forms in piece_definitions.items():
            definitions.setdefault(short, Counter()).update(forms)
    return stats, definitions


def _joins(counts: tuple[dict, dict]) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Stage 3: which keys of a shard join (acronym -> long form, same spelling without
    hyphens), and the top catalogue id of each catalogued key."""
    stats, definitions = counts
    joins = []
    for short, forms in sorted(definitions.items()):
        long = dominant_long_form(forms)
        if long is not None and short in stats:
            joins.append((short, long))
    first: dict[str, str] = {}
    for key in sorted(stats):
        bare = key.replace("-", "")
        if bare in first:
            joins.append((key, first[bare]))
        first.setdefault(bare, key)
    catalogued = {key: top for key, stat in stats.items() if (top := stat.top_catalogue())}
    return joins, catalogued


def _roots(shards: list[tuple[list, dict]], n: int) -> list[dict[str, str]]:
    """On the client: the root of every key that joins another, by the key's shard."""
    joins = [pair for pairs, _ in shards for pair in pairs]
    catalogued = {key: top for _, found in shards for key, top in found.items()}
    groups = group_keys(sorted(catalogued), joins, catalogued.get)
    roots: list[dict[str, str]] = [{} for _ in range(n)]
    for key in list(groups.parent):
        root = groups.find(key)
        if root != key:
            roots[_shard(key, n)][key] = root
    return roots


def _by_root(counts: tuple[dict, dict], roots: dict[str, str], shards: int) -> tuple[dict, ...]:
    """Stage 4, map: each key's statistics to the shard of its group's root."""
    pieces: list[dict[str, list]] = [{} for _ in range(shards)]
    for key, stat in counts[0].items():
        root = roots.get(key, key)
        pieces[_shard(root, shards)].setdefault(root, []).append((key, stat))
    return tuple(pieces)


@dataclass
class _Group:
    keys: list[str]
    names: Counter
    kind: str
    catalogue: str | None
    name: str


def _describe(*pieces: dict[str, list]) -> dict[str, _Group]:
    """Stage 4, reduce: each group's type, catalogue id and name from its members' statistics."""
    members: dict[str, list] = {}
    for piece in pieces:
        for root, items in piece.items():
            members.setdefault(root, []).extend(items)
    groups = {}
    for root, items in members.items():
        items.sort(key=lambda item: item[0])
        merged = _Stats()
        for _, stat in items:
            merged.update(stat)
        kind, catalogue, name = describe_group(merged)
        groups[root] = _Group([key for key, _ in items], merged.names, kind, catalogue, name)
    return groups


def _claims(groups: dict[str, _Group]) -> list[tuple[int, str, str, list[str]]]:
    """What the client needs to hand out ids: each group's size, root and name, and its other
    names whose ids differ (the first of each id, most used first), for when its id is taken."""
    out = []
    for root, group in groups.items():
        seen = {entity_id(name_key(group.name) or root)}
        others = []
        for name in names_by_use(group.names):
            candidate = entity_id(name_key(name))
            if candidate not in seen:
                seen.add(candidate)
                others.append(name)
        out.append((len(group.keys), root, group.name, others))
    return out


def _assign_ids(claims: list[list[tuple]], shards: int) -> tuple[list[dict], dict[str, str]]:
    """On the client, in the resolver's order (largest group first, then by root): the name and
    id of each group that does not get those of its own name, by shard, and the groups whose
    id a later group took (root -> that group's root)."""
    order = sorted((c for shard in claims for c in shard), key=lambda c: (-c[0], c[1]))
    taken: dict[str, str] = {}
    given = []
    changed: list[dict[str, tuple[str, str]]] = [{} for _ in range(shards)]
    for _, root, name, others in order:
        new_name, eid = claim_id(name, root, others, taken)
        if (new_name, eid) != (name, entity_id(name_key(name) or root)):
            changed[_shard(root, shards)][root] = (new_name, eid)
        taken[eid] = root
        given.append((root, eid))
    return changed, {root: taken[eid] for root, eid in given if taken[eid] != root}


def _entity(root: str, group: _Group, changed: dict[str, tuple[str, str]]) -> CanonicalEntity:
    name, eid = changed.get(root) or (group.name, entity_id(name_key(group.name) or root))
    return canonical_entity(eid, name, group.kind, group.catalogue, group.names)


def _entities_of(groups: dict[str, _Group], roots: list[str], changed: dict) -> dict[str, CanonicalEntity]:
    return {root: _entity(root, groups[root], changed) for root in roots}


def _finalize(groups: dict[str, _Group], changed: dict, winners: dict[str, CanonicalEntity], shards: int,
              bounds: list[str]) -> tuple[dict, ...]:
    """Stage 5, map: each key's entity to the key's shard, each entity to its id's range."""
    by_key: list[dict[str, tuple]] = [{} for _ in range(shards)]
    by_range: list[dict[str, CanonicalEntity]] = [{} for _ in range(len(bounds) + 1)]
    for root, group in groups.items():
        info = winners.get(root)
        if info is None:
            info = _entity(root, group, changed)
            by_range[_range(info.id, bounds)][info.id] = info
        entry = (info.id, info.name, info.type, info.catalogue_id, info.generic)
        for key in group.keys:
            by_key[_shard(key, shards)][key] = entry
    return (*by_key, *by_range)


def _union(*tables: dict) -> dict:
    out: dict = {}
    for table in tables:
        out.update(table)
    return out


def _lookup(keys: list[str], table: dict[str, tuple]) -> dict[str, tuple]:
    return {key: table[key] for key in keys}


@dataclass
class _Rows:
    """What one partition sends to one range: rows as :class:`kg.graphstore.GraphStore` keeps
    them, each with the paper's place in the input (``seq``) where a later row wins."""

    nodes: list[tuple] = field(default_factory=list)  # id, (seq, n), label, attributes (JSON)
    edges: list[tuple] = field(default_factory=list)  # u, v, key, (seq, n), attributes (JSON)
    mentions: list[tuple] = field(default_factory=list)  # entity, paper, mentions, proposed
    evidence: list[tuple] = field(default_factory=list)  # u, v, key, paper, start, end, (seq, n)
    results: list[tuple] = field(default_factory=list)  # paper, value start, row of results.csv


def _resolve(data: bytes, first: int, bounds: list[str], papers: bool, *found: dict[str, tuple]) -> tuple:
    """Stage 5, the partition's papers resolved: ``papers.jsonl`` text, counts, and the rows of
    each range."""
    entries: dict[str, tuple] = {}
    for table in found:
        entries.update(table)
    canonical = {e[0]: CanonicalEntity(e[0], e[1], e[2], [], e[3], e[4]) for e in entries.values()}
    ids = {key: entry[0] for key, entry in entries.items()}
    rows = [_Rows() for _ in range(len(bounds) + 1)]
    lines, counts, records = [], Counter(), []
    for seq, extraction in enumerate(_records(data), first):
        record = resolve_record(extraction, ids.__getitem__, canonical)
        if papers:
            lines.append(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
        counts.update(proposed=sum(e.proposed for e in record.entities), relations=len(record.relations),
                      results=len(record.results), code_urls=len(record.code_urls))
        _add_rows(rows, record, seq, bounds)
        if record.results:
            records.append(record)
    for row in _result_rows(records, canonical):
        rows[_range(row[0], bounds)].results.append(row)
    return "".join(lines), counts, *rows


def _add_rows(rows: list[_Rows], record: PaperRecord, seq: int, bounds: list[str]) -> None:
    nodes, edges = paper_elements(record)
    pid = record.paper.id
    for n, (node, attrs) in enumerate(nodes):
        rows[_range(node, bounds)].nodes.append((node, (seq, n), attrs["label"], json.dumps(attrs)))
    for n, (u, v, k, attrs) in enumerate(edges):
        rows[_range(u, bounds)].edges.append((u, v, k, (seq, n), json.dumps(attrs)))
    for entity in record.entities:
        rows[_range(entity.id, bounds)].mentions.append((entity.id, pid, len(entity.mentions), entity.proposed))
    for n, rel in enumerate(record.relations):
        rows[_range(rel.subject, bounds)].evidence.append(
            (rel.subject, rel.object, rel.predicate.upper(), pid, rel.start, rel.end, (seq, n)))


def _result_rows(records: list[PaperRecord], canonical: dict[str, CanonicalEntity]) -> list[tuple]:
    """The ``results.csv`` rows of these papers, as :func:`kg.analyse.leaderboard.result_rows`
    reads them from the graph: each paper's result nodes in id order, their entities by the
    canonical name and type."""
    import networkx as nx

    from kg.analyse.leaderboard import RESULT_COLUMNS, result_rows

    graph = nx.MultiDiGraph()
    for record in records:
        nodes, edges = paper_elements(record)
        for node, attrs in sorted(nodes, key=lambda n: n[0]):
            if attrs["label"] in ("Paper", "Result"):
                graph.add_node(node, **attrs)
        for u, v, k, _ in edges:
            if k in RESULT_EDGES:
                info = canonical[v]
                graph.add_node(v, name=info.name, label=info.type)
                graph.add_edge(u, v, key=k)
    return [(row["paper"], row["value_start"] or 0, ["" if row[c] is None else row[c] for c in RESULT_COLUMNS])
            for row in result_rows(graph)]


class _Range(SortedGraph):
    """The nodes of one range of ids and their out-edges, sorted, attributes as JSON text."""

    def __init__(self, nodes: list[tuple[str, str, str]], edges: list[tuple[str, str, str, str]],
                 results: list[list]) -> None:
        self.node_rows = nodes  # id, label, attributes
        self.edge_rows = edges  # u, v, key, attributes
        self.results = results

    def nodes(self) -> Iterator[tuple[str, dict]]:
        for node, _, attrs in self.node_rows:
            yield node, json.loads(attrs)

    def edges(self) -> Iterator[tuple[str, str, str, dict]]:
        for u, v, k, attrs in self.edge_rows:
            yield u, v, k, json.loads(attrs)


def _assemble(entities: dict[str, CanonicalEntity], *parts: _Rows) -> _Range:
    """Stage 6: one range assembled as :meth:`kg.graphstore.GraphStore.finish` assembles the
    whole graph."""
    nodes: dict[str, tuple] = {}
    edges: dict[tuple[str, str, str], tuple] = {}
    evidence: dict[tuple[str, str, str], list] = {}
    mentions: dict[str, tuple[set, list, set]] = {}
    results = []
    for part in parts:
        for node, order, label, attrs in part.nodes:
            if node not in nodes or order > nodes[node][0]:
                nodes[node] = (order, label, attrs)
        for u, v, k, order, attrs in part.edges:
            if (u, v, k) not in edges or order > edges[u, v, k][0]:
                edges[u, v, k] = (order, attrs)
        for u, v, k, paper, start, end, order in part.evidence:
            evidence.setdefault((u, v, k), []).append((paper, start, order, end))
        for eid, paper, count, proposed in part.mentions:
            papers, counts, proposers = mentions.setdefault(eid, (set(), [], set()))
            papers.add(paper)
            counts.append(count)
            if proposed:
                proposers.add(paper)
        results += part.results
    for (u, v, k), stated in evidence.items():
        stated.sort()
        found = [{"paper": paper, "start": start, "end": end} for paper, start, _, end in stated]
        edges[u, v, k] = (None, json.dumps(relation_attributes(k, found)))
    for eid, (papers, counts, proposers) in mentions.items():
        info = entities[eid]
        nodes[eid] = (None, info.type, json.dumps(entity_attributes(info, len(papers), sum(counts), sorted(proposers))))
    results.sort(key=lambda row: (row[0], row[1]))  # stable: a paper's rows come from one partition, in order
    return _Range([(node, label, attrs) for node, (_, label, attrs) in sorted(nodes.items())],
                  [(*key, attrs) for key, (_, attrs) in sorted(edges.items())],
                  [row[2] for row in results])


def _survey(rng: _Range, bounds: list[str]) -> tuple:
    """Counts, GraphML attribute types, first and last node, and the in-degree of every edge
    target by the target's range."""
    from kg.export.files import graphml_kinds

    incoming: list[Counter] = [Counter() for _ in range(len(bounds) + 1)]
    for _, v, _, _ in rng.edge_rows:
        incoming[_range(v, bounds)][v] += 1
    first = rng.node_rows[0][0] if rng.node_rows else None
    last = rng.node_rows[-1][0] if rng.node_rows else None
    return (len(rng.node_rows), len(rng.edge_rows), graphml_kinds(rng), first, last, *incoming)


def _entity_summary(rng: _Range, *incoming: Counter) -> tuple[Counter, list[tuple]]:
    """Entities by type and the ten with most edges in the range: ``(id, name, type, degree)``."""
    degree: Counter = Counter()
    for counts in incoming:
        degree.update(counts)
    for u, _, _, _ in rng.edge_rows:
        degree[u] += 1
    labels: Counter = Counter()
    found = []
    for node, label, _ in rng.node_rows:
        if label in ENTITY_LABELS:
            labels[label] += 1
            found.append((node, label))
    top = sorted(found, key=lambda n: (-degree[n[0]], n[0]))[:10]
    wanted = {node for node, _ in top}
    names = {node: json.loads(attrs)["name"] for node, _, attrs in rng.node_rows if node in wanted}
    return labels, [(node, names[node], label, degree[node]) for node, label in top]


def _check_turtle_cuts(surveys: list[tuple]) -> None:
    """Turtle parts are joined as they are: the last node of a range and the first of the next
    must have different IRIs (node IRIs are distinct for distinct ids)."""
    from kg.export.rdf import node_iri

    ends = [(s[3], s[4]) for s in surveys if s[3] is not None]
    for (_, last), (first, _) in zip(ends, ends[1:]):
        if node_iri(last) == node_iri(first):
            raise RuntimeError(f"nodes {last!r} and {first!r} have one IRI: graph.ttl cannot be written in parts")


def _node_link_part(rng: _Range, section: str) -> str:
    from kg.export.files import NODE_LINK_SEPARATOR, node_link_edges, node_link_nodes

    return NODE_LINK_SEPARATOR.join(node_link_nodes(rng) if section == "nodes" else node_link_edges(rng))


def _graphml_part(rng: _Range, section: str, first: int = 0) -> str:
    from kg.export.files import graphml_edges, graphml_nodes

    return "".join(graphml_nodes(rng) if section == "nodes" else graphml_edges(rng, first))


def _turtle_part(rng: _Range, base: str) -> str:
    from kg.export.rdf import turtle_body

    return "".join(turtle_body(rng, base))


def _results_part(rng: _Range) -> str:
    return _csv_text(rng.results)


def _csv_text(rows: Iterable[Iterable]) -> str:
    """Rows as :func:`kg.export.tables.write_csv` writes them."""
    import csv
    import io

    from kg.export.tables import spreadsheet_cell

    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([spreadsheet_cell(c) for c in row] for row in rows)
    return buffer.getvalue()


# ------------------------------------------------------------------ the client


def _each_result(futures: Iterable) -> Iterator:
    """Each future's result in order, each released once read."""
    for future in futures:
        yield future.result()
        future.release()


def _windowed(client, calls: Iterable[tuple], window: int) -> Iterator:
    """Submit ``(function, *args)`` calls with at most ``window`` in flight; results in order."""
    pending: deque = deque()
    for function, *args in calls:
        pending.append(client.submit(function, *args, pure=False))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()
