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

Modules: :mod:`~kg.cluster.partition` cuts the work (stage 1, key shards, range
cuts), :mod:`~kg.cluster.entities` runs stages 2-4, :mod:`~kg.cluster.ranges`
stages 5-6, :mod:`~kg.cluster.parts` what each range gives the client (its survey,
its part of each file), and :mod:`~kg.cluster.client` holds :class:`ClusterGraph`,
which sends them all from the client.
"""

from kg.cluster.client import ClusterGraph, connect
from kg.cluster.partition import Plan

__all__ = ["ClusterGraph", "Plan", "connect"]
