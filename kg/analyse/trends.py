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

The same statistic answers the other questions, always as one group of papers
against the rest of the graph:

* **rising and falling** (:func:`rising_and_falling`): the latest year against
  all earlier years; rising when ``z >= threshold``, falling when
  ``z <= -threshold``;
* **what a venue emphasises** (:func:`venue_emphasis`): a venue's papers against
  the other venues' papers, ``z >= threshold``;
* **new entities** (:func:`new_entities`): entities no paper mentions before a
  given year (a count, no test).

Only entities mentioned by at least ``min_papers`` papers in all (default 5) are
tested, so the normal approximation is not asked to judge two or three papers.
Thousands of entities are tested, so some pass by chance: under the null
hypothesis each passes one side with probability ``P(Z >= 3) = 0.00135``, and
:func:`chance_passes` gives the number expected by chance, which the report
states next to the number found.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass

import networkx as nx

from kg.analyse.cooccurrence import paper_entities
from kg.analyse.load import ENTITY_LABELS

__all__ = [
    "Burst", "NewEntities", "Shift", "Trend", "bursts", "chance_passes", "entity_years", "new_entities",
    "papers_by_venue", "papers_by_year", "rising_and_falling", "top_by_venue", "two_proportion_z",
    "venue_emphasis", "venue_year_confounded", "years_of",
]


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
    years = sorted(per_year)
    found = []
    for entity, counts in sorted(entity_years(graph).items()):
        data = graph.nodes[entity]
        if data.get("label") not in labels:
            continue
        scores = _burst_scores(counts, per_year, total, threshold=threshold, min_papers=min_papers)
        for run in _runs(years, scores):
            found.append(Burst(entity, str(data.get("name") or entity), data["label"], run[0], run[-1],
                               max(scores[y] for y in run), sum(counts.get(y, 0) for y in run)))
    found.sort(key=lambda b: (-b.z, b.name, b.start))
    return found


def _burst_scores(counts: dict, per_year: dict, total: int, *, threshold: float, min_papers: int) -> dict:
    """``{year: z}`` of the years an entity with ``counts`` per year bursts in (see the module doc)."""
    mentioned = sum(counts.values())
    pooled = mentioned / total
    if mentioned < min_papers or pooled >= 1.0:
        return {}
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
    return scores


def _runs(years: list, scores: dict) -> list[list]:
    """The scored years grouped into runs of consecutive ``years`` (one burst period each)."""
    runs = []
    run: list = []
    for year in years + [None]:
        if year is not None and year in scores and (not run or years.index(year) == years.index(run[-1]) + 1):
            run.append(year)
            continue
        if run:
            runs.append(run)
        run = [year] if year is not None and year in scores else []
    return runs


def two_proportion_z(x_in: int, n_in: int, x_out: int, n_out: int) -> float:
    """The pooled two-proportion z statistic of ``x_in / n_in`` against ``x_out / n_out``.

    >>> round(two_proportion_z(8, 10, 2, 20), 2)
    3.83
    >>> two_proportion_z(0, 10, 0, 10)
    0.0
    """
    if n_in == 0 or n_out == 0:
        return 0.0
    pooled = (x_in + x_out) / (n_in + n_out)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_in + 1 / n_out))
    return (x_in / n_in - x_out / n_out) / spread if spread else 0.0


def chance_passes(tested: int, threshold: float) -> float:
    """How many of ``tested`` entities would pass one side of ``z >= threshold`` by chance alone."""
    return tested * 0.5 * math.erfc(threshold / math.sqrt(2))


@dataclass
class Shift:
    """An entity mentioned by a different share of the papers of ``group`` than of the rest."""

    entity: str
    name: str
    label: str
    group: str
    papers_in: int
    total_in: int
    papers_out: int
    total_out: int
    z: float

    @property
    def share_in(self) -> float:
        return self.papers_in / self.total_in if self.total_in else 0.0

    @property
    def share_out(self) -> float:
        return self.papers_out / self.total_out if self.total_out else 0.0


def _shifts(graph: nx.MultiDiGraph, group_of: dict[str, str], group: str, min_papers: int, labels) -> list[Shift]:
    """The z of every entity with ``min_papers`` papers (among grouped ones): ``group`` against the rest."""
    total_in = sum(1 for g in group_of.values() if g == group)
    total_out = len(group_of) - total_in
    inside: Counter = Counter()
    outside: Counter = Counter()
    for paper, entities in paper_entities(graph).items():
        if paper not in group_of:
            continue
        counter = inside if group_of[paper] == group else outside
        counter.update(entities.keys())  # a dict would add its values
    found = []
    for entity in sorted(set(inside) | set(outside)):
        data = graph.nodes[entity]
        if data.get("label") not in labels or inside[entity] + outside[entity] < min_papers:
            continue
        z = two_proportion_z(inside[entity], total_in, outside[entity], total_out)
        found.append(Shift(entity, str(data.get("name") or entity), data["label"], group,
                           inside[entity], total_in, outside[entity], total_out, z))
    return found


@dataclass
class Trend:
    """Entities rising and falling in the ``latest`` year against the years before (see the module doc)."""

    latest: int
    earlier: list[int]
    rising: list[Shift]
    falling: list[Shift]
    tested: int
    threshold: float
    min_papers: int


def rising_and_falling(
    graph: nx.MultiDiGraph, *, threshold: float = 3.0, min_papers: int = 5, labels=ENTITY_LABELS,
) -> Trend | None:
    """The latest year against all earlier ones; None with fewer than two years of papers."""
    years = years_of(graph)
    per_year = sorted(set(years.values()))
    if len(per_year) < 2:
        return None
    latest = per_year[-1]
    group_of = {paper: str(year) for paper, year in years.items()}
    tested = _shifts(graph, group_of, str(latest), min_papers, labels)
    rising = sorted((s for s in tested if s.z >= threshold), key=lambda s: (-s.z, s.name))
    falling = sorted((s for s in tested if s.z <= -threshold), key=lambda s: (s.z, s.name))
    return Trend(latest, per_year[:-1], rising, falling, len(tested), threshold, min_papers)


@dataclass
class NewEntities:
    """Entities first mentioned in ``year``: how many, how many of them by ``min_papers`` papers or
    more that year (``recurring``), and the most mentioned of them."""

    year: int
    count: int
    leading: list[tuple[str, int]]
    recurring: int = 0


def new_entities(graph: nx.MultiDiGraph, *, limit: int = 15, min_papers: int = 3,
                 labels=ENTITY_LABELS) -> list[NewEntities]:
    """For every year after the first: entities no earlier paper mentions, most papers first."""
    first_year: dict[str, int] = {}
    counts = entity_years(graph)
    for entity, per_year in counts.items():
        if graph.nodes[entity].get("label") in labels:
            first_year[entity] = min(per_year)
    years = sorted(papers_by_year(graph))
    out = []
    for year in years[1:]:
        fresh = [e for e, first in first_year.items() if first == year]
        fresh.sort(key=lambda e: (-counts[e][year], str(graph.nodes[e].get("name"))))
        recurring = sum(1 for e in fresh if counts[e][year] >= min_papers)
        out.append(NewEntities(year, len(fresh), [(e, counts[e][year]) for e in fresh[:limit]], recurring))
    return out


def venue_emphasis(
    graph: nx.MultiDiGraph, *, threshold: float = 3.0, min_papers: int = 5, labels=ENTITY_LABELS,
) -> tuple[dict[str, list[Shift]], int]:
    """``({venue: entities over-represented there}, entities tested per venue)``; needs two venues."""
    group_of = {
        node: str(data.get("venue")) for node, data in graph.nodes(data=True)
        if data.get("label") == "Paper" and data.get("venue")
    }
    venues = sorted(set(group_of.values()))
    if len(venues) < 2:
        return {}, 0
    found, tested = {}, 0
    for venue in venues:
        shifts = _shifts(graph, group_of, venue, min_papers, labels)
        tested = len(shifts)
        found[venue] = sorted((s for s in shifts if s.z >= threshold), key=lambda s: (-s.z, s.name))
    return found, tested


def venue_year_confounded(graph: nx.MultiDiGraph) -> dict[str, int] | None:
    """``{venue: year}`` when every venue has one year and every year one venue, else None.

    Then a change between years cannot be told apart from a difference between venues.
    """
    pairs = {
        (str(data.get("venue")), int(data["year"])) for _, data in graph.nodes(data=True)
        if data.get("label") == "Paper" and data.get("venue") and data.get("year") is not None
    }
    venues = {venue for venue, _ in pairs}
    years = {year for _, year in pairs}
    if len(venues) < 2 or len(pairs) != len(venues) or len(pairs) != len(years):
        return None
    return dict(sorted(pairs))
