"""Research mapping on a built graph: what a field is made of, what goes together, how it moves.

One module per question: :mod:`~kg.analyse.cooccurrence` (co-occurrence networks,
association strength), :mod:`~kg.analyse.communities` (Louvain communities,
centrality), :mod:`~kg.analyse.trends` (years, venues, bursts),
:mod:`~kg.analyse.exports` (GEXF, VOSviewer) and :mod:`~kg.analyse.report`
(``kg map``: all of it as a report).
"""

from kg.analyse.communities import Community, centrality, detect_communities
from kg.analyse.cooccurrence import (
    PAIR_NETWORKS,
    association_strength,
    cooccurrence_network,
    paper_entities,
    top_links,
)
from kg.analyse.exports import read_vosviewer, to_gexf_graph, write_gexf, write_vosviewer
from kg.analyse.load import graph_path, read_graph
from kg.analyse.report import MapResult, research_map, top_entities
from kg.analyse.trends import Burst, bursts, entity_years, papers_by_venue, papers_by_year

__all__ = [
    "PAIR_NETWORKS", "Burst", "Community", "MapResult", "association_strength", "bursts", "centrality",
    "cooccurrence_network", "detect_communities", "entity_years", "graph_path", "paper_entities",
    "papers_by_venue", "papers_by_year", "read_graph", "read_vosviewer", "research_map", "to_gexf_graph",
    "top_entities", "top_links", "write_gexf", "write_vosviewer",
]
