"""The client of a cluster build: :class:`ClusterGraph` sends each stage to the workers as
Dask tasks and writes the graph files from the parts they return."""

from __future__ import annotations

import functools
import operator
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any

from kg.cluster.entities import (
    _add_counts, _assign_ids, _by_root, _claims, _count, _describe, _entities_of, _finalize, _joins, _lookup,
    _roots, _union,
)
from kg.cluster.partition import Plan, _cuts, _shard
from kg.cluster.parts import (
    _check_turtle_cuts, _csv_text, _entity_summary, _graphml_part, _node_link_part, _results_part, _survey,
    _turtle_part,
)
from kg.cluster.ranges import _assemble, _resolve
from kg.resolve import CanonicalEntity
from kg.schema import ENTITY_LABELS


#: Pieces one task adds up; more are added up in a tree.
_FAN_IN = 32


@contextmanager
def connect(workers: int = 1, scheduler: str | None = None):
    """A Dask client: of the scheduler at ``scheduler`` (``tcp://host:8786``), else of a local
    cluster of ``workers`` processes, one thread each (closed on exit)."""
    from dask.distributed import Client, LocalCluster

    with ExitStack() as stack:
        address = scheduler or stack.enter_context(LocalCluster(
            n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None))
        yield stack.enter_context(Client(address))


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
        """Fill a :class:`kg.build.BuildReport` as ``kg.build.report._summarise`` does from a store."""
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
