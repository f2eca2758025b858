"""How the field moves: papers and entities per year and venue, and bursts.

A *burst* is a year in which an entity is mentioned by a clearly larger share of
that year's papers than in the other years. We use a simple, documented test
(not Kleinberg's automaton): for entity ``e`` and year ``t`` with ``N_t`` papers,
``x_t`` of them mentioning ``e``, and ``N``, ``X`` the totals over all years,

.. math::

    z_t = \\frac{x_t / N_t - (X - x_t) / (N - N_t)}
               {\\sqrt{p (1 - p) (1 / N_t + 1 / (N - N_t))}}, \\quad p = X / N

the two-proportion z statistic of year ``t`` against all other years. A year
bursts when ``z_t >= threshold`` (default 3, about p < 0.001 one-sided: with
thousands of entity-years to test, 2 would flag dozens by chance) and
``x_t >= min_papers`` (default 3); consecutive burst years are merged into one
period, whose strength is its largest ``z``. It needs at least two years of
papers.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass

import networkx as nx

from kg.analyse.cooccurrence import paper_entities
from kg.analyse.load import ENTITY_LABELS

__all__ = ["Burst", "bursts", "entity_years", "papers_by_venue", "papers_by_year", "top_by_venue", "years_of"]


@dataclass
class Burst:
    """An entity's burst: ``start``..``end`` (years, inclusive), its peak z and papers in the period."""

    entity: str
    name: str
    label: str
    start: int
    end: int
    z: float
    papers: int


def years_of(graph: nx.MultiDiGraph) -> dict[str, int]:
    """``{paper id: year}`` for papers with a year."""
    return {
        node: int(data["year"])
        for node, data in graph.nodes(data=True)
        if data.get("label") == "Paper" and data.get("year") is not None
    }


def papers_by_year(graph: nx.MultiDiGraph) -> dict[int, int]:
    """Papers per year, in year order."""
    return dict(sorted(Counter(years_of(graph).values()).items()))


def papers_by_venue(graph: nx.MultiDiGraph) -> dict[str, int]:
    """Papers per venue (``"(none)"`` for papers without one), most first."""
    counts = Counter(
        data.get("venue") or "(none)" for _, data in graph.nodes(data=True) if data.get("label") == "Paper"
    )
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def entity_years(graph: nx.MultiDiGraph) -> dict[str, Counter]:
    """``{entity id: Counter(year -> papers mentioning it that year)}``."""
    years = years_of(graph)
    out: dict[str, Counter] = defaultdict(Counter)
    for paper, entities in paper_entities(graph).items():
        if paper in years:
            for entity in entities:
                out[entity][years[paper]] += 1
    return dict(out)


def top_by_venue(graph: nx.MultiDiGraph, limit: int = 5) -> dict[str, list[tuple[str, int]]]:
    """The ``limit`` entities mentioned by most papers of each venue: ``{venue: [(entity, papers)]}``."""
    venue_of = {n: d.get("venue") or "(none)" for n, d in graph.nodes(data=True) if d.get("label") == "Paper"}
    counts: dict[str, Counter] = defaultdict(Counter)
    for paper, entities in paper_entities(graph).items():
        for entity in entities:
            counts[venue_of[paper]][entity] += 1
    return {
        venue: sorted(counter.items(), key=lambda item: (-item[1], str(graph.nodes[item[0]].get("name"))))[:limit]
        for venue, counter in sorted(counts.items())
    }


def bursts(
    graph: nx.MultiDiGraph,
    *,
    threshold: float = 3.0,
    min_papers: int = 3,
    labels=ENTITY_LABELS,
) -> list[Burst]:
    """Burst periods of the entities of ``labels`` (see the module doc), strongest first."""
    per_year = papers_by_year(graph)
    if len(per_year) < 2:
        return []
    total = sum(per_year.values())
    found = []
    for entity, counts in sorted(entity_years(graph).items()):
        data = graph.nodes[entity]
        if data.get("label") not in labels:
            continue
        mentioned = sum(counts.values())
        pooled = mentioned / total
        if mentioned < min_papers or pooled >= 1.0:
            continue
        scores = {}
        for year, papers in per_year.items():
            x = counts.get(year, 0)
            rest = total - papers
            if rest == 0 or x < min_papers:
                continue
            spread = math.sqrt(pooled * (1 - pooled) * (1 / papers + 1 / rest))
            z = (x / papers - (mentioned - x) / rest) / spread
            if z >= threshold:
                scores[year] = z
        years = sorted(per_year)
        run: list[int] = []
        for year in years + [None]:
            if year is not None and year in scores and (not run or years.index(year) == years.index(run[-1]) + 1):
                run.append(year)
                continue
            if run:
                found.append(Burst(entity, str(data.get("name") or entity), data["label"], run[0], run[-1],
                                   max(scores[y] for y in run), sum(counts.get(y, 0) for y in run)))
            run = [year] if year is not None and year in scores else []
    found.sort(key=lambda b: (-b.z, b.name, b.start))
    return found
